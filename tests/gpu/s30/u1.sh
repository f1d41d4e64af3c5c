#!/bin/sh
# session 30, with tests/gpu/s30/unit.patch applied to the tree (not merged): sdpa_relpos_bf16 with its result's last stride taken as 1 in NAME (lower/gpu_stage.c "unit strides") vs not (TKC_UNIT_STRIDE=0)
cd "$(dirname "$0")/../../.." || exit 2
ATTN_TURNS=10 ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="nounit:TKC_UNIT_STRIDE=0,BLOCKS=def" \
sh tests/gpu/bench_attn.sh 2>&1 | grep -v "vs (.)"
