#!/bin/sh
# (Its whole-file variant tests/gpu/s13/fa3p.tk is on branch s13-fa3, 5a3c809, not on main.)
# tests/gpu/s13/fa3-1.sh — s13-fa3 call 1: sdpa_tc's D >= 128 two-pass loop
# with p carried as bf16 (tests/gpu/s13/fa3p.tk) kept packed two to a word
# (TKC_PACK_VAR=1, gpu.c plan_packed: no spills in the key loops with the
# producer warpgroup's 240 registers) with and without the producer
# (TKC_KEY_WS=1), against the default, the default with the producer, and
# the bf16 p unpacked; (2) in a bench of its own (a deadlock would only lose
# that part) the packed p with the producer and the warpgroups' turns;
# (3) attention_d128 on the GPU (cuda + memcheck) with the packed p and the
# producer (stdlib/attention.tk of this copy replaced by fa3p.tk).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|rc ' "$1" | cut -c1-100; }
P=SRC=tests/gpu/s13/fa3p.tk,TKC_PACK_VAR=1
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${VARS:-ws:TKC_KEY_WS=1 pk:$P pkws:$P,TKC_KEY_WS=1 pbf:SRC=tests/gpu/s13/fa3p.tk}" \
    timeout ${BTO:-130} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${PVARS:-pkpp:$P,TKC_KEY_WS=1,TKC_PINGPONG=1 pkppp:$P,TKC_KEY_WS=1,TKC_PINGPONG=1,TKC_WG_PAIR=1}" \
    timeout ${PTO:-45} sh tests/gpu/bench_attn.sh >$OUT/pp.txt 2>&1
echo "pp bench rc $?"; f $OUT/pp.txt
cp tests/gpu/s13/fa3p.tk stdlib/attention.tk
( TKC_PACK_VAR=1 TKC_KEY_WS=${TWS:-1} TKC_GPU_NVPTX=0 timeout ${TTO:-55} sh tests/gpu/run.sh ${TESTS:-attention_d128} >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc ' $OUT/tests.txt | tail -14
