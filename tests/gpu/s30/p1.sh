#!/bin/sh
# session 30: sdpa_relpos_bf16 with rel_h's columns loaded one iteration ahead (tests/gpu/s30/pf.tk: the four-row walk; pf2.tk: also the global walk) vs stdlib
cd "$(dirname "$0")/../../.." || exit 2
ATTN_TURNS=10 ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="pf:SRC=tests/gpu/s30/pf.tk,BLOCKS=def pf2:SRC=tests/gpu/s30/pf2.tk,BLOCKS=def" \
sh tests/gpu/bench_attn.sh 2>&1 | grep -v "vs (.)"
