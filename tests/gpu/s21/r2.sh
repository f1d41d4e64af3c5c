#!/bin/sh
# tests/gpu/s21/r2.sh — session 21: sdpa_relpos_bf16 at SAM's global
# attention, two key rows per block (tests/gpu/s21/rows2.patch, ROWS2=2) in
# 64 x 128 blocks of one warpgroup, three programs an SM (168 registers;
# stages 2 and 3) and four (128 registers, spills); rel_w added by the
# tensor cores (RELW_MMA, the default blocks); next to the default and
# torch's no-bias SDPA in interleaved rounds.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
patch -s -o build/rows2.tk stdlib/attention.tk tests/gpu/s21/rows2.patch || exit 1
r=$PWD/build/rows2.tk
ATTN_TURNS=10 ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="x3:SRC=$r,DEFS=ROWS2:2+warps:4+blocks:3+stages:2,BLOCKS=64x128 x3s3:SRC=$r,DEFS=ROWS2:2+warps:4+blocks:3+stages:3,BLOCKS=64x128 x4:SRC=$r,DEFS=ROWS2:2+warps:4+blocks:4+stages:2,BLOCKS=64x128 mma:DEFS=RELW_MMA:true,BLOCKS=def" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E 'turns|FAIL|rc |err|relpos|SDPA' $OUT/attn.txt | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
