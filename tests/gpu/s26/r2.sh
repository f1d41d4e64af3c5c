#!/bin/sh
# tests/gpu/s26/r2.sh — sdpa_relpos_bf16 at SAM's global attention, 10
# interleaved rounds with torch's no-bias SDPA: two key rows an iteration
# with rel_w added by the tensor cores (mkrp.py's rp_mma2.tk, 128 x 128
# blocks as sdpa_bf16's at D=64) against the kernel as it is and its global
# path alone, each with TKC_WG_DOPAQUE=1 (the wgmma descriptors' low words
# through an opaque move: NVVM no longer hoists them out of the key loop
# into registers); then sdpa_bf16 with and without TKC_WG_DOPAQUE.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=build/s26; mkdir -p $V
python3 tests/gpu/s26/mkrp.py $V || exit 2
G=SRC=$V/rp_global.tk M=SRC=$V/rp_mma2.tk L=DEFS=warps:8+blocks:2+stages:2
ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="dop:TKC_WG_DOPAQUE=1,BLOCKS=def g:$G,BLOCKS=def gdop:$G,TKC_WG_DOPAQUE=1,BLOCKS=def m2:$M,BLOCKS=128x128,$L m2dop:$M,TKC_WG_DOPAQUE=1,BLOCKS=128x128,$L" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror" | cut -c1-150
echo "relpos ($(($(date +%s) - t0)) s)"
ATTN_ONLY=sdpa ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 ATTN_VARIANTS="dop:TKC_WG_DOPAQUE=1,BLOCKS=def" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "turns|FAIL|rror|^sdpa|D=" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
