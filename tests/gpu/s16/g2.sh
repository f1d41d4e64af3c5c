#!/bin/sh
# tests/gpu/s16/g2.sh — session 16, call 2: sdpa_tc's row sums on the
# tensor cores (VARS: SRC=v/ls2.tk, l = dot(p, ones) issued into p v's MMA
# group, lower/gpu_mma.c plan_join; TKC_WG_JOIN=0 its own group) against
# the default, rivals in the same run.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
ATTN_BLOCKS=def ATTN_LLVM=${LLVM:-0} ATTN_ONLY=sdpa ATTN_SHAPE="${SHAPE:-4 16 4096}" ATTN_VARIANTS="${VARS:-}" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
echo "total $(($(date +%s) - t0)) s"
