#!/bin/sh
# tests/gpu/s19/e6.sh — session 19: sdpa_relpos_bf16 with three programs an
# SM (168 registers: no spills, no rematerialized rel_h addresses) and 3 / 4
# stages, next to its four; sdpa_bf16 with try_wait's suspend-time hint
# (TKC_MBAR_SUSPEND: the producer's spin loops off the issue slots); all in
# interleaved rounds with the rivals (ATTN_TURNS).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_TURNS=12 ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="b3:DEFS=blocks:3 b3s4:DEFS=blocks:3+stages:4 b3s2:DEFS=blocks:3+stages:2" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/relpos.txt 2>&1
echo "relpos rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^relpos|^  tkc|^  \(|turns|FAIL|rc ' $OUT/relpos.txt | cut -c1-130
ATTN_TURNS=12 ATTN_ONLY=sdpa ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="sus1u:TKC_MBAR_SUSPEND=1000,BLOCKS=def sus10m:TKC_MBAR_SUSPEND=10000000,BLOCKS=def" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/sdpa.txt 2>&1
echo "sdpa rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc ' $OUT/sdpa.txt | cut -c1-130
echo "total $(($(date +%s) - t0)) s"
