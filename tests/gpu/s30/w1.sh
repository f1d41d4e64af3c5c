#!/bin/sh
# session 30: SAM windowed attention, the one-block prototype (tests/gpu/s30/win.tk) vs stdlib's walk
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=tests/gpu/s30/win.tk
ATTN_ONLY=relpos ATTN_RELPOS=window ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="win:SRC=$W,BLOCKS=def winl:SRC=$W,BLOCKS=def,CG=llvm w128:SRC=$W,BLOCKS=def,DEFS=BLOCK_M:128+warps:8+blocks:1 wb1:SRC=$W,BLOCKS=def,DEFS=blocks:1 stl:CG=llvm,BLOCKS=def" \
sh tests/gpu/bench_attn.sh
