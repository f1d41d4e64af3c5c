#!/bin/sh
# session 30: sdpa_relpos_bf16 with rel_h's columns loaded one iteration
# ahead (tests/gpu/s30/pf.patch: the four-row walk; pf2.patch: also the
# global walk; each applied to stdlib/attention.tk into build/s30/) vs stdlib
cd "$(dirname "$0")/../../.." || exit 2
mkdir -p build/s30 || exit 2
for p in pf pf2; do
    patch -s -o build/s30/$p.tk stdlib/attention.tk tests/gpu/s30/$p.patch || exit 2
done
ATTN_TURNS=10 ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="pf:SRC=build/s30/pf.tk,BLOCKS=def pf2:SRC=build/s30/pf2.tk,BLOCKS=def" \
sh tests/gpu/bench_attn.sh 2>&1 | grep -v "vs (.)"
