#!/bin/sh
# tests/gpu/s14/a2.sh — session 14, call 2: the new defaults (descriptors
# advanced on their low word, TKC_WG_DINC=2; the o epilogue's slab zeroed,
# TKC_SLAB_ZERO=1; FA3's turns + pairs + producer for sdpa_tc's paired key
# loops at D >= 128, fa3_plan; the FFMA softmax at D=128) against their
# knobs turned off one at a time, cuDNN and LLVM's PTX in the same run; then
# the attention run tests, cuda and nvptx, each under memcheck.
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
ATTN_BLOCKS=def ATTN_ONLY=${ONLY:-all} ATTN_RELPOS=global \
ATTN_VARIANTS="${VARS:-def2:TKC_WG_DINC=2 nopp:TKC_PINGPONG=0,TKC_WG_PAIR=0 noz:TKC_SLAB_ZERO=0 llvm:CG=llvm}" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
( timeout ${TTO:-240} sh tests/gpu/run.sh ${TESTS:-attention_d128 attention_d128_causal attention_d64_causal attention_d80 relpos_bf16} >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc |ERROR' $OUT/tests.txt | tail -16
