#!/bin/sh
# session 30: sdpa_relpos_bf16 (SAM global and windowed) with a producer warpgroup feeding the key loops (TKC_KEY_WS=1, 128-row blocks of two consumer warpgroups)
cd "$(dirname "$0")/../../.." || exit 2
ATTN_TURNS=6 ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="ws1:TKC_KEY_WS=1,BLOCKS=def,CG=llvm,DEFS=BLOCK_M:128+warps:8+blocks:1 b128:BLOCKS=def,CG=llvm,DEFS=BLOCK_M:128+warps:8+blocks:2 ws1n:TKC_KEY_WS=1,BLOCKS=def,CG=nvrtc,DEFS=BLOCK_M:128+warps:8+blocks:1" \
sh tests/gpu/bench_attn.sh 2>&1 | grep -v "vs (.)"
