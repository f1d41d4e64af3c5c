#!/bin/sh
# tests/gpu/s8rp/run.sh — session 8 relpos (issue 5): sdpa_relpos_bf16 of the
# tree next to variants (base: the file before; pf: rel_h prefetched one key
# row ahead; s2: stages = 2; m64: 64 x 64 blocks), then the relpos run tests
# (cuda + memcheck) on the tree and, for pf, on a copy (S8_ALT).
cd "$(dirname "$0")/../../.." || exit 2
V=$PWD/tests/gpu/s8rp
S8_SDPA=0 S8_RELPOS=1 S8_RELPOS_S=130 S8_TEST_S=90 \
S8_RELPOS_VARIANTS="base:SRC=$V/base.tk,BLOCKS=def pf:SRC=$V/tmapf.tk,BLOCKS=def s2:SRC=$V/tma_s2.tk,BLOCKS=def m64:BLOCKS=64x64 base2:SRC=$V/base.tk,BLOCKS=def" \
S8_TESTS="relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 relpos_bf16_d128" \
S8_ALT=$V/tmapf.tk S8_ALT_TESTS="relpos_bf16 relpos_bf16_n32 relpos_bf16_d128" \
    sh tests/gpu/bench_attn_s8.sh
