#!/bin/sh
# tests/gpu/s13/fa3b-2.sh — s13-fa3b call 2: the producer warpgroup with the
# consumers waiting for k and v at the head of the iteration (TKC_KW_HEAD=1,
# gpu_mma.c kw_head: acc's rescale back between q k^T's MMAs), on top of
# TKC_SLAB_ZERO=1 (call 1: its registers no longer live across the key
# loops), against the default and TKC_SLAB_ZERO=1 alone (two builds each of
# the candidates); cuDNN in the same run.  Then attention_d128 (producer,
# head waits), attention_d128_causal and attention_d64 (cuda + memcheck).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|rc ' "$1" | cut -c1-100; }
Z=TKC_SLAB_ZERO=1
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${VARS:-z:$Z z2:$Z zws:$Z,TKC_KEY_WS=1 zwh:$Z,TKC_KEY_WS=1,TKC_KW_HEAD=1 zwh2:$Z,TKC_KEY_WS=1,TKC_KW_HEAD=1 zwhe:$Z,TKC_KEY_WS=2,TKC_KW_HEAD=1}" \
    timeout ${BTO:-110} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
export TKC_SLAB_ZERO=1 TKC_KW_HEAD=1 TKC_GPU_NVPTX=0
( TKC_KEY_WS=1 timeout 35 sh tests/gpu/run.sh attention_d128 >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt
  timeout 35 sh tests/gpu/run.sh attention_d128_causal attention_d64 >>$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc |ERROR' $OUT/tests.txt | tail -14
