#!/bin/sh
# tests/gpu/s16/final.sh — session 16's closing run: the attention benchmark
# (sdpa at the issue's shape and sdpa_relpos at SAM's, PTX from NVRTC and
# from LLVM, rivals in the same run), then the run tests of the kernels this
# session's changes reach (sdpa_tc at D >= 128: wgmma addresses from the
# broadcast warpgroup index), the cuda and the nvptx passes side by side,
# each also under compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_BLOCKS=def ATTN_RELPOS=global timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|FAIL|ratio' $OUT/bench.txt | cut -c1-100
T=${TESTS:-attention_d128 attention_d128_causal_wide attention_d128_n176 flash_inplace}
OUT=$OUT TTO=${TTO:-300} sh tests/gpu/run_both.sh $T
echo "total $(($(date +%s) - t0)) s"
