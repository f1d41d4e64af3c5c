#!/bin/sh
# tests/gpu/s12/ws1.sh — s12-ws call 1: sdpa_bf16 with its key loops fed by
# a producer warpgroup (TKC_KEY_WS=1: stage released at the head of the next
# iteration; =2: each load released right after its dot's wait) against the
# default, two builds each, in one bench run (D=64 is unchanged by the knob:
# two blocks an SM there; pb: tests/gpu/s12/pb.tk, sdpa_tc at D >= 128 carrying p as
# bf16, not f32); then attention_d128 (+ causal) with TKC_KEY_WS=2
# on the GPU (cuda + memcheck).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|rc ' "$1" | cut -c1-100; }
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${VARS:-kw1:TKC_KEY_WS=1 kw2:TKC_KEY_WS=2 d2:TKC_KEY_WS=0 pb:SRC=tests/gpu/s12/pb.tk pbkw2:TKC_KEY_WS=2,SRC=tests/gpu/s12/pb.tk}" \
    timeout ${BTO:-140} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
( TKC_KEY_WS=${TWS:-2} TKC_GPU_NVPTX=0 timeout ${TTO:-60} sh tests/gpu/run.sh ${TESTS:-attention_d128_causal attention_d128} >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc ' $OUT/tests.txt | tail -14
