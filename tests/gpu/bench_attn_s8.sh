#!/bin/sh
# tests/gpu/bench_attn_s8.sh — session 8 (issue 5): sdpa_bf16 as in
# stdlib/attention.tk next to other versions of the file (SRC= variants of
# bench_attn.sh, built in the same run), then the attention run tests
# (cuda + compute-sanitizer memcheck), each in its own build folder, in
# parallel.
#
#   S8_SRC=DIR (variant sources, one LABEL.tk each; default tests/gpu/s8)
#   S8_VARIANTS="..." (more bench_attn.sh variants)  S8_BLOCKS=def  S8_BENCH_S=130
#   S8_RELPOS=0|1  S8_TESTS="attention_d64 ..."  S8_TEST_S=90  S8_NVPTX=0
#   S8_ALT=FILE.tk S8_ALT_TESTS="..."  also run these tests (cuda + memcheck) in a
#       copy of the tree (build/s8alt) whose stdlib/attention.tk is FILE.tk, at
#       the same time as S8_TESTS
set -u
cd "$(dirname "$0")/../.." || exit 2
echo "# bench_attn_s8 $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
src=${S8_SRC:-tests/gpu/s8}
vars=""
for f in "$src"/*.tk; do
    [ -f "$f" ] || continue
    l=$(basename "$f" .tk)
    vars="$vars $l:SRC=$PWD/$f,BLOCKS=def"
done
if [ "${S8_SDPA:-1}" = 1 ]; then
    ATTN_ONLY=sdpa ATTN_LLVM=0 ATTN_BLOCKS="${S8_BLOCKS:-def}" ATTN_VARIANTS="$vars ${S8_VARIANTS:-}" \
        timeout "${S8_BENCH_S:-130}" sh tests/gpu/bench_attn.sh
    echo "bench rc=$?"
fi
if [ "${S8_RELPOS:-0}" = 1 ]; then
    ATTN_ONLY=relpos ATTN_LLVM=0 ATTN_BLOCKS=def ATTN_VARIANTS="${S8_RELPOS_VARIANTS:-}" \
        timeout "${S8_RELPOS_S:-60}" sh tests/gpu/bench_attn.sh
    echo "relpos bench rc=$?"
fi
i=0
for t in ${S8_TESTS-attention_d64 attention_d128 attention_d64_causal attention_d128_causal}; do
    i=$((i + 1)); d=build/s8t$i
    mkdir -p $d && cp build/tkc $d/tkc
    (TKC=$d/tkc TKC_GPU_NVPTX=${S8_NVPTX:-0} timeout "${S8_TEST_S:-90}" \
        sh tests/gpu/run.sh "$t" >$d/log 2>&1; echo "rc=$?" >>$d/log) &
done
if [ -n "${S8_ALT:-}" ]; then
    alt=build/s8alt; rm -rf $alt; mkdir -p $alt/build
    tar -cf - stdlib tests | tar -xf - -C $alt && cp "$S8_ALT" $alt/stdlib/attention.tk && cp build/tkc $alt/build/tkc
    for t in ${S8_ALT_TESTS:-}; do
        i=$((i + 1)); d=build/s8t$i
        mkdir -p $d && cp build/tkc $d/tkc
        (cd $alt && echo "alt $S8_ALT:" && TKC=$PWD/../../$d/tkc TKC_GPU_NVPTX=0 timeout "${S8_TEST_S:-90}" \
            sh tests/gpu/run.sh "$t" 2>&1; echo "rc=$?") >$d/log 2>&1 &
    done
fi
wait
for j in $(seq 1 $i); do grep -E "^(PASS|FAIL|SKIP)|^    |passed|rc=|^alt" build/s8t$j/log | head -20; done
