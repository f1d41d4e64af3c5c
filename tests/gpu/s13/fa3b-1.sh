#!/bin/sh
# tests/gpu/s13/fa3b-1.sh — s13-fa3b call 1: a slab-wise fragment-to-block
# conversion's destination zeroed first (TKC_SLAB_ZERO=1, gpu_mma.c
# to_block_into; else its 64 registers of sdpa_bf16's o epilogue are live
# across the persistent kernel's key loops), with and without the producer
# warpgroup (TKC_KEY_WS=1), against the default (two builds of the candidate
# winner for the noise); cuDNN in the same run.  Then attention_d128 and
# attention_d128_causal with the candidate (cuda + memcheck).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|rc ' "$1" | cut -c1-100; }
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${VARS:-z:TKC_SLAB_ZERO=1 zws:TKC_SLAB_ZERO=1,TKC_KEY_WS=1 zws2:TKC_SLAB_ZERO=1,TKC_KEY_WS=1 ws:TKC_KEY_WS=1}" \
    timeout ${BTO:-105} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
( TKC_SLAB_ZERO=1 TKC_KEY_WS=1 TKC_GPU_NVPTX=0 timeout ${TTO:-60} sh tests/gpu/run.sh ${TESTS:-attention_d128 attention_d128_causal} >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc |ERROR' $OUT/tests.txt | tail -14
