#!/bin/sh
# tests/gpu/s21/r3.sh — session 21: sdpa_relpos_bf16 at SAM's windowed
# attention (14 x 14 windows: one 16-wide block per key row, 14 of them)
# with four key rows per iteration, each a 16-wide dot of its own
# (tests/gpu/s21/rows4.patch, ROWS4) — built by a tkc whose key pipelines
# copy up to 8 loads (tests/gpu/s21/keyloads8.patch: KEY_LOADS 4 -> 8; with
# 4 the eight k and v loads fell back to every thread's loads) — next to the
# default and torch's no-bias SDPA in interleaved rounds; SAM global too.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
patch -s -o build/rows4.tk stdlib/attention.tk tests/gpu/s21/rows4.patch || exit 1
r=$PWD/build/rows4.tk
gunzip -f build/tkc8.gz 2>/dev/null; chmod +x build/tkc8
ATTN_TURNS=10 ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="r4:SRC=$r,TKC=$PWD/build/tkc8,DEFS=ROWS4:true,BLOCKS=def k8:TKC=$PWD/build/tkc8,BLOCKS=def" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E 'turns|FAIL|rc |err|relpos|SDPA' $OUT/attn.txt | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
