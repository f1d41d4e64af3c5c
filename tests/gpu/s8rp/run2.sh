#!/bin/sh
# tests/gpu/s8rp/run2.sh — session 8 relpos, run 2: the tree (k and v by TMA,
# stages = 3) twice (tree2: the tree with relpos_rows_mma_bf16's loads also
# plain) next to s2 (stages = 2), mma (RELW_MMA on, k/v by TMA) and mma_s2;
# the relpos run tests (cuda + memcheck) on the tree and on s2 (S8_ALT).
cd "$(dirname "$0")/../../.." || exit 2
V=$PWD/tests/gpu/s8rp
S8_SDPA=0 S8_RELPOS=1 S8_RELPOS_S=130 S8_TEST_S=90 \
S8_RELPOS_VARIANTS="s2:SRC=$V/tma_s2.tk,BLOCKS=def mma:SRC=$V/mma.tk,BLOCKS=def mma_s2:SRC=$V/mma_s2.tk,BLOCKS=def tree2:SRC=$V/tree2.tk,BLOCKS=def s2b:SRC=$V/tma_s2.tk,BLOCKS=def" \
S8_TESTS="relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 relpos_bf16_d128" \
S8_ALT=$V/tma_s2.tk S8_ALT_TESTS="relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 relpos_bf16_d128" \
    sh tests/gpu/bench_attn_s8.sh
