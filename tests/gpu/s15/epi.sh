#!/bin/sh
# tests/gpu/s15/epi.sh — sdpa_bf16's o stored from the MMA fragments
# (TKC_FIT_EPI=2) instead of through a block-layout copy in shared memory,
# at S=1024 (8 key blocks a program: the per-program costs show) and 4096.
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sh in ${SHAPES:-"64 16 1024" "4 16 4096"}; do
    echo "== ATTN_SHAPE=$sh"
    ATTN_SHAPE="$sh" ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa ATTN_VARIANTS="${VARS:-fe:TKC_FIT_EPI=2 fe2:TKC_FIT_EPI=2 r2:TKC_FIT_EPI=1}" \
        timeout 200 sh tests/gpu/bench_attn.sh 2>&1 | grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL' | cut -c1-60
done
