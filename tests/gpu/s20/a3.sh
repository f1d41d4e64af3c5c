#!/bin/sh
# tests/gpu/s20/a3.sh — session 20: three consumer warpgroups (warps = 12,
# 192 query rows, the producer forced: TKC_KEY_WS=1, the warpgroup index
# warp-uniform: TKC_WG_UNIFORM=1) at 192 x 128 and 192 x 64 for sdpa_bf16
# D=64 and D=128 and sdpa_relpos_bf16 (one block an SM), next to the
# defaults, in interleaved rounds with cuDNN / torch's no-bias SDPA.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_TURNS=10 ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_RELPOS=global \
ATTN_VARIANTS="u:TKC_WG_UNIFORM=1,TKC_KEY_WS=1,DEFS=warps:12+blocks:1,BLOCKS=192x128+192x64" \
    timeout ${BTO:-400} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc |err|SAM|relpos' $OUT/attn.txt | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
