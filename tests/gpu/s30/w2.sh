#!/bin/sh
# session 30: the one-block windowed prototype with parts switched off (ABL, results wrong where on)
cd "$(dirname "$0")/../../.." || exit 2
W=tests/gpu/s30/win.tk
ATTN_FORCE=1 ATTN_TURNS=5 ATTN_ONLY=relpos ATTN_RELPOS=window ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="win:SRC=$W,BLOCKS=def a1:SRC=$W,BLOCKS=def,DEFS=ABL:1 a2:SRC=$W,BLOCKS=def,DEFS=ABL:2 a3:SRC=$W,BLOCKS=def,DEFS=ABL:3 w128a1:SRC=$W,BLOCKS=def,DEFS=ABL:1+BLOCK_M:128+warps:8+blocks:1 a1n256:SRC=$W,BLOCKS=def,DEFS=ABL:1+BLOCK_N:256" \
sh tests/gpu/bench_attn.sh 2>&1 | grep -v "vs (.)"
