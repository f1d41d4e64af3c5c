#!/bin/sh
# tests/gpu/s15/b2.sh — session 15, call 2: sdpa_bf16 at D=64 now 128 x 128
# by default on sm_90a, two blocks an SM (lower/gpu_mma.c
# gpu_mma_min_blocks: up to 96 registers of accumulators), against the old
# 128 x 64; the run tests of the changed kernels, the cuda and the nvptx
# passes side by side, each also under compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
ATTN_BLOCKS=${BLK:-def 128x64} ATTN_LLVM=${LLVM:-1} ATTN_ONLY=${ONLY:-sdpa} ATTN_RELPOS=global \
ATTN_VARIANTS="${VARS:-}" timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
T=${TESTS:-attention_d64 attention_d64_causal_wide attention_d64_causal attention_d80 attention_d128_n176}
OUT=$OUT TTO=${TTO:-420} sh tests/gpu/run_both.sh $T
echo "total $(($(date +%s) - t0)) s"
