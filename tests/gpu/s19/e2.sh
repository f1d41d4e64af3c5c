#!/bin/sh
# tests/gpu/s19/e2.sh — session 19: where sdpa_relpos_bf16's time goes.
# sdpa_bf16 at sdpa_relpos's SAM shape (B=8 H=12 S=T=4096 D=64) with the
# relpos kernel's blocks and launch (64 x 64, 4 warps, 4 programs an SM, 3
# stages) and with 64 x 128 (3 programs an SM), beside its own 128 x 128;
# then sdpa_relpos_bf16 as it is and with two key rows per 128-wide block
# (tests/gpu/s19/rp2.patch, ROWS2), rivals in the same run.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_SHAPE="8 12 4096" ATTN_ONLY=sdpa ATTN_DS=64 ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="rp:BLOCKS=64x64,DEFS=warps:4+blocks:4+stages:3 w3:BLOCKS=64x128,DEFS=warps:4+blocks:3+stages:2" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/sdpa.txt 2>&1
echo "sdpa rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|FAIL|ratio|rc ' $OUT/sdpa.txt | cut -c1-120
patch -s -o build/rp2.tk stdlib/attention.tk tests/gpu/s19/rp2.patch || exit 1
src=$PWD/build/rp2.tk
ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="r2w3:SRC=$src,BLOCKS=64x128,DEFS=ROWS2:true+warps:4+blocks:3+stages:2 r2w8:SRC=$src,BLOCKS=128x128,DEFS=ROWS2:true+warps:8+blocks:2+stages:2 r2w3s3:SRC=$src,BLOCKS=64x128,DEFS=ROWS2:true+warps:4+blocks:3+stages:3" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/relpos.txt 2>&1
echo "relpos rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^relpos|^  tkc|^  \(|FAIL|rc ' $OUT/relpos.txt | cut -c1-120
echo "total $(($(date +%s) - t0)) s"
