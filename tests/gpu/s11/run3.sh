#!/bin/sh
# tests/gpu/s11/run3.sh — s11-attn call 3: the default (TKC_ROW_ACC 2) against
# TKC_ROW_ACC=1, two builds each, in one bench run; then TKC_KEY_SKEW=1 in a
# bench of its own (an experiment: a deadlock would only lose that part);
# then the attention run tests with the default (cuda + memcheck).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|^  \(c\)' "$1" | cut -c1-100; }
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_RELPOS=global ATTN_VARIANTS="r1:TKC_ROW_ACC=1 d2:TKC_ROW_ACC=2 r1b:TKC_ROW_ACC=1" \
    timeout ${BTO:-85} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa ATTN_VARIANTS="sk:TKC_KEY_SKEW=1 sk1:TKC_KEY_SKEW=1,TKC_ROW_ACC=1" \
    timeout ${STO:-60} sh tests/gpu/bench_attn.sh >$OUT/skew.txt 2>&1
echo "skew bench rc $?"; f $OUT/skew.txt
( TKC_GPU_NVPTX=0 timeout ${TTO:-80} sh tests/gpu/run.sh attention_d64 attention_d128 attention_d128_causal attention_d80 relpos_bf16 >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc ' $OUT/tests.txt | tail -14
