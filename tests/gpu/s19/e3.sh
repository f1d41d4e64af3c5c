#!/bin/sh
# tests/gpu/s19/e3.sh — session 19: sdpa_bf16 D=128 with p v's wait after
# the softmax (TKC_PV_DEFER=1, lower/gpu_mma.c pv_defer) next to without
# (two builds each), cuDNN and FA2 in the same run; the same for causal.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="pv:TKC_PV_DEFER=1,BLOCKS=def base2:TKC_PV_DEFER=0,BLOCKS=def pv2:TKC_PV_DEFER=1,BLOCKS=def pvllvm:TKC_PV_DEFER=1,CG=llvm,BLOCKS=def llvm:CG=llvm,BLOCKS=def" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|FAIL|ratio|rc ' $OUT/attn.txt | cut -c1-120
echo "total $(($(date +%s) - t0)) s"
