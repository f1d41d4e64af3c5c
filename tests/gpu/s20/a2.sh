#!/bin/sh
# tests/gpu/s20/a2.sh — session 20: sdpa_bf16 D=128 at 192 x 128 (three
# consumer warpgroups, warps = 12) with the warpgroup index warp-uniform
# (TKC_WG_UNIFORM=1: the wgmma descriptors on the uniform datapath), the one
# key loop (u) and two passes without p carried (v, tests/gpu/s20/tp.patch,
# the producer forced: TKC_KEY_WS=1), next to a1's m192 and the default, in
# interleaved rounds with cuDNN.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
patch -s -o build/tp.tk stdlib/attention.tk tests/gpu/s20/tp.patch || exit 1
tp=$PWD/build/tp.tk
ATTN_TURNS=10 ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="m192:DEFS=warps:12,BLOCKS=192x128 u:TKC_WG_UNIFORM=1,DEFS=warps:12,BLOCKS=192x128 v:SRC=$tp,TKC_KEY_WS=1,TKC_WG_UNIFORM=1,DEFS=warps:12,BLOCKS=192x128" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc |err' $OUT/attn.txt | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
