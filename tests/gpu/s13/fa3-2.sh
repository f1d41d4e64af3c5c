#!/bin/sh
# (Its whole-file variant tests/gpu/s13/fa3-old.tk is on branch s13-fa3, fe8a98d, not on main.)
# tests/gpu/s13/fa3-2.sh — s13-fa3 call 2, with p carried as bf16 and kept
# packed the default (stdlib/attention.tk, TKC_PACK_VAR=1): (1) the default
# (two builds) against session 12's sdpa_tc with p in f32
# (tests/gpu/s13/fa3-old.tk, two builds) and the packed p with the producer
# warpgroup (TKC_KEY_WS=1); (2) every attention run test on the GPU (cuda +
# memcheck).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|rc ' "$1" | cut -c1-100; }
O=SRC=tests/gpu/s13/fa3-old.tk
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${VARS:-def2:TKC_PACK_VAR=1 old:$O old2:$O,TKC_PACK_VAR=0 ws:TKC_KEY_WS=1}" \
    timeout ${BTO:-110} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
T=$(ls tests/run | sed -n 's/\.tk$//p' | grep -e attention -e sdpa | tr '\n' ' ')
( TKC_GPU_NVPTX=0 timeout ${TTO:-115} sh tests/gpu/run.sh ${TESTS:-$T} >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc ' $OUT/tests.txt | tail -14
