#!/bin/sh
# tests/gpu/s15/final.sh — session 15's closing run: the attention benchmark
# (sdpa at the issue's shape and sdpa_relpos at SAM's, PTX from NVRTC and
# from LLVM, rivals in the same run), then the run tests this session's
# changes reach that no earlier call ran on the GPU, the cuda and the nvptx
# passes side by side, each also under compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_BLOCKS=def timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|FAIL|ratio' $OUT/bench.txt | cut -c1-100
T=${TESTS:-attention_d128 attention_d128_causal attention_d128_causal_wide attention_d80_causal relpos_bf16 relpos_bf16_d128 mma_ws}
OUT=$OUT TTO=${TTO:-420} sh tests/gpu/run_both.sh $T
echo "total $(($(date +%s) - t0)) s"
