#!/bin/sh
# tests/gpu/s28/r1.sh — sdpa_relpos_bf16 two key rows an iteration
# (mkrows2.py: rp_rows2.tk, 64 x 128 blocks, 3 or 2 blocks an SM) against
# the default, SAM global, 10 interleaved rounds; sdpa_bf16 D=128 with each
# key load's stage part released right after its dot's wait (TKC_KEY_WS=2).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=build/s28; mkdir -p $V
python3 tests/gpu/s28/mkrows2.py $V || exit 2
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="r2b3:SRC=$V/rp_rows2.tk,BLOCKS=64x128,DEFS=blocks:3 r2b2:SRC=$V/rp_rows2.tk,BLOCKS=64x128,DEFS=blocks:2 b3:DEFS=blocks:3" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "relpos ($(($(date +%s) - t0)) s)"
ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=8 ATTN_VARIANTS="kwe:TKC_KEY_WS=2" \
    timeout 200 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
