#!/bin/sh
# tests/gpu/s16/g3.sh — session 16, call 3: the run tests of this call's
# lowering changes (flash_inplace: a var kept in MMA fragments set
# elementwise; attention_d128_n176: a pair's wait bound to all 88
# accumulators of q k^T), the cuda and nvptx passes side by side, each also
# under compute-sanitizer memcheck; then sdpa with the kernels' own blocks
# and 128 x 176 (ATTN_BLOCKS), rivals in the same run.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
T=${TESTS:-flash_inplace attention_d128_n176 attention_d128_causal}
OUT=$OUT TTO=${TTO:-300} sh tests/gpu/run_both.sh $T
echo "tests ($(($(date +%s) - t0)) s)"
ATTN_BLOCKS="${BLK:-def 128x176}" ATTN_LLVM=${LLVM:-0} ATTN_ONLY=sdpa ATTN_VARIANTS="${VARS:-}" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
echo "total $(($(date +%s) - t0)) s"
