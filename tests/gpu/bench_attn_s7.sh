#!/bin/sh
# tests/gpu/bench_attn_s7.sh — session 7 (issue 5): sdpa_bf16 with its key
# loop's k and v copied by TMA (TKC_KEY_TMA=1, lower/gpu_mma.c key_tma_plan)
# next to the cp.async pipeline in the same run (bench_attn.sh variants),
# whether the driver takes the rank-4 maps (tmap4_probe.py), then the
# attention run tests with the switch on (cuda; compute-sanitizer memcheck),
# each test in its own build folder, in parallel.
#
#   sh tests/gpu/bench_attn_s7.sh
#   S7_BLOCKS="def 128x128"  S7_VARIANTS="tma:TKC_KEY_TMA=1 ..."  S7_BENCH_S=130
#   S7_SDPA=0 (no sdpa_bf16 bench)  S7_RELPOS=1 (also sdpa_relpos_bf16, default blocks, S7_RELPOS_VARIANTS)
#   S7_TESTS="attention_d64 ..."  S7_TEST_S=90  S7_TEST_ENV="TKC_KEY_TMA=1"  S7_NVPTX=0
set -u
cd "$(dirname "$0")/../.." || exit 2
echo "# bench_attn_s7 $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
timeout 20 python3 tests/gpu/tmap4_probe.py 2>&1 | tail -5
if [ "${S7_SDPA:-1}" = 1 ]; then
    ATTN_ONLY=sdpa ATTN_BLOCKS="${S7_BLOCKS:-def 128x128}" \
        ATTN_VARIANTS="${S7_VARIANTS:-tma:TKC_KEY_TMA=1 tma3:TKC_KEY_TMA=1,TKC_KEY_STAGES=3}" \
        timeout "${S7_BENCH_S:-130}" sh tests/gpu/bench_attn.sh
    echo "bench rc=$?"
fi
if [ "${S7_RELPOS:-0}" = 1 ]; then
    ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_VARIANTS="${S7_RELPOS_VARIANTS:-cp:TKC_KEY_TMA=0}" \
        timeout "${S7_RELPOS_S:-60}" sh tests/gpu/bench_attn.sh
    echo "relpos bench rc=$?"
fi
i=0
for t in ${S7_TESTS:-attention_d64 attention_d128 attention_d80 attention_d64_causal attention_d128_causal attention_d80_causal attention_d128_causal_wide}; do
    i=$((i + 1)); d=build/s7t$i
    mkdir -p $d && cp build/tkc $d/tkc
    # shellcheck disable=SC2086
    (env ${S7_TEST_ENV-TKC_KEY_TMA=1} TKC=$d/tkc TKC_GPU_NVPTX=${S7_NVPTX:-0} timeout "${S7_TEST_S:-90}" \
        sh tests/gpu/run.sh "$t" >$d/log 2>&1; echo "rc=$?" >>$d/log) &
done
wait
for j in $(seq 1 $i); do grep -E "^(PASS|FAIL|SKIP)|^    |passed|rc=" build/s7t$j/log | head -20; done
