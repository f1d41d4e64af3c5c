#!/bin/sh
# tests/gpu/s16/g2.sh — session 16's sdpa-only bench: the variants in VARS
# (bench_attn.sh's ATTN_VARIANTS) against the default, rivals in the same
# run.  Call 2 ran it on sdpa_tc's row sums on the tensor cores (an
# attention.tk copy and an experimental lowering, plan_join, neither kept:
# doc/bench/h100-s16-g2.log); calls 7 and 8 on TKC_WG_UNIFORM and the last
# v block loaded early (h100-s16-g5.log).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
ATTN_BLOCKS=def ATTN_LLVM=${LLVM:-0} ATTN_ONLY=sdpa ATTN_SHAPE="${SHAPE:-4 16 4096}" ATTN_VARIANTS="${VARS:-}" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
echo "total $(($(date +%s) - t0)) s"
