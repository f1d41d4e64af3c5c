#!/bin/sh
# tests/gpu/s26/r3.sh — sdpa_relpos_bf16 at SAM's global attention, 10
# interleaved rounds with torch's no-bias SDPA: mkrp.py's rp_r2.tk (two key
# rows an iteration as one 128-wide block, rel_w by the tensor cores, rel_h
# per half-row) at 128 x 128 in 8 warps, 2 blocks an SM (114.7 KB of shared
# memory each since the swizzled tiles lost their slack; r2old: with it,
# 118.8 KB, one block an SM), against the kernel
# as it is; SASS loop sizes of each.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=build/s26; mkdir -p $V
python3 tests/gpu/s26/mkrp.py $V || exit 2
R=SRC=$V/rp_r2.tk L=DEFS=warps:8+blocks:2+stages:2
ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="slack:TKC_SWZ_SLACK=1,BLOCKS=def r2:$R,BLOCKS=128x128,$L r2dop:$R,TKC_WG_DOPAQUE=1,BLOCKS=128x128,$L r2old:$R,TKC_SWZ_SLACK=1,BLOCKS=128x128,$L" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP" | cut -c1-150
for d in build/gpu-bench-attn/relpos_d64_*; do
    [ -f $d/tkc.log ] && grep -H "spill\|stages\|warning" $d/tkc.log | head -3
done
echo "total $(($(date +%s) - t0)) s"
