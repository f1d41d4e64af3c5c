#!/bin/sh
# tests/gpu/s20/a5.sh — session 20: sdpa_relpos_bf16 at SAM's global
# attention with its key-row walk alone at the kernel's top level
# (tests/gpu/s20/rpo.patch, ROWS_ONLY; KW = BLOCK_N = 64 only) in 192-row
# blocks of three consumer warpgroups, with the producer warpgroup (ro,
# TKC_KEY_WS=1) and without (ron), next to the default (64 x 64, four
# blocks an SM) and torch's no-bias SDPA in interleaved rounds.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
patch -s -o build/rpo.tk stdlib/attention.tk tests/gpu/s20/rpo.patch || exit 1
r=$PWD/build/rpo.tk
ATTN_TURNS=10 ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="ro:SRC=$r,TKC_KEY_WS=1,TKC_WG_UNIFORM=1,DEFS=ROWS_ONLY:true+warps:12+blocks:1,BLOCKS=192x64 ron:SRC=$r,TKC_WG_UNIFORM=1,DEFS=ROWS_ONLY:true+warps:12+blocks:1,BLOCKS=192x64" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E 'turns|FAIL|rc |err|relpos|SDPA' $OUT/attn.txt | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
