#!/bin/sh
# tests/gpu/s14/a1.sh — session 14, call 1: fewer instructions in the key
# loops.  The wgmma descriptors of k step j as step 0's plus its offset / 16
# (TKC_WG_DINC=2; session 6 measured it slower on a kernel since rewritten),
# and at D=128 the logits' scale folded into exp2's FFMA (the D=64 loop's
# form; tests/gpu/s14/ffma.tk, on branch s14-variants: now stdlib's): SASS of the D=128 loop 738 -> 612
# instructions, D=64 498 -> 468, no spills.  Also FA3's turns (producer +
# ping-pong + both dots in a turn) on the slimmer loop.  cuDNN in the same run.
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
F=SRC=tests/gpu/s14/ffma.tk
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=${ONLY:-all} ATTN_RELPOS=global \
ATTN_VARIANTS="${VARS:-di:TKC_WG_DINC=2 ff:$F ffdi:$F,TKC_WG_DINC=2 ffdi2:$F,TKC_WG_DINC=2 ffdip:$F,TKC_WG_DINC=2,TKC_WG_PAIR=1 fa3:$F,TKC_WG_DINC=2,TKC_KEY_WS=1,TKC_PINGPONG=1,TKC_WG_PAIR=1,TKC_SLAB_ZERO=1}" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
( TKC_WG_DINC=2 TKC_GPU_NVPTX=0 timeout ${TTO:-100} sh tests/gpu/run.sh ${TESTS:-attention_d128 attention_d64 relpos_bf16} >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc |ERROR' $OUT/tests.txt | tail -14
