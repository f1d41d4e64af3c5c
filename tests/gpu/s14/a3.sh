#!/bin/sh
# tests/gpu/s14/a3.sh — session 14, call 3: wgmma's shared addresses and
# descriptors from the warpgroup index broadcast from lane 0 (ptxas keeps
# them in uniform registers: SASS of sdpa_bf16's D=128 key loop 612 -> 578
# instructions, the matmul K loop 120 -> 107) against TKC_WG_UNIFORM=0, and
# LLVM's packed p (one cvt.rn.bf16x2 per pair: its key loop 619 -> 566).
# Matmul in turns with cuBLAS, attention next to cuDNN, same run; then run
# tests (cuda + nvptx, memcheck).  tests/gpu/s14/c2.tk (the causal kernel in
# two passes, now stdlib's) is on branch s14-variants.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
VARIANTS='def::
nouni:TKC_WG_UNIFORM=0:' GPU_DIR=gpu-s14 PAIR_ROUNDS=${PR:-15} REF=1 \
    timeout ${MTO:-150} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -E '^check|^pair|^tkc|^torch|FAIL|failed|rror' $OUT/mm.txt | cut -c1-150
ATTN_BLOCKS=def ATTN_ONLY=${ONLY:-all} ATTN_RELPOS=global \
ATTN_VARIANTS="${VARS:-def2:TKC_WG_DINC=2 nouni:TKC_WG_UNIFORM=0 c2:SRC=tests/gpu/s14/c2.tk}" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
( timeout ${TTO:-200} sh tests/gpu/run.sh ${TESTS:-attention_d128 attention_d64_causal mma_ws relpos_bf16} >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc |ERROR' $OUT/tests.txt | tail -16
echo "total $(($(date +%s) - t0)) s"
