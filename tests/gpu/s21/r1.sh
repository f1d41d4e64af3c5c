#!/bin/sh
# tests/gpu/s21/r1.sh — session 21: sdpa_relpos_bf16 at SAM's global
# attention with two key rows per 128-wide block as two 64-wide dots sharing
# one rel_w tile (tests/gpu/s21/rows2.patch, ROWS2=2; KW = BLOCK_N / 2
# only), one program an SM: 128 rows with the producer warpgroup (q2ws,
# stages 2 and 3) and without (q2), 192 rows in 12 warps with the producer
# (q2w12), next to the default (64 x 64, four blocks an SM) and torch's
# no-bias SDPA in interleaved rounds.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
patch -s -o build/rows2.tk stdlib/attention.tk tests/gpu/s21/rows2.patch || exit 1
r=$PWD/build/rows2.tk
ATTN_TURNS=10 ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="q2ws:SRC=$r,TKC_KEY_WS=1,DEFS=ROWS2:2+warps:8+blocks:1+stages:2,BLOCKS=128x128 q2ws3:SRC=$r,TKC_KEY_WS=1,DEFS=ROWS2:2+warps:8+blocks:1+stages:3,BLOCKS=128x128 q2:SRC=$r,DEFS=ROWS2:2+warps:8+blocks:1+stages:2,BLOCKS=128x128 q2w12:SRC=$r,TKC_KEY_WS=1,TKC_WG_UNIFORM=1,DEFS=ROWS2:2+warps:12+blocks:1+stages:2,BLOCKS=192x128" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E 'turns|FAIL|rc |err|relpos|SDPA' $OUT/attn.txt | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
