#!/bin/sh
# tests/gpu/s26/r4.sh — mkrp.py's rp_r2.tk (two key rows an iteration, rel_w
# by the tensor cores) at SAM's global attention: 128 x 128 (8 warps, 2
# blocks an SM, 2 stages) against 192 x 128 (12 warps, one block, 3 and 2
# stages) and the kernel as it is, 10 interleaved rounds; then Nsight Compute
# (full set) on the 128 x 128 build.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=build/s26; mkdir -p $V
python3 tests/gpu/s26/mkrp.py $V || exit 2
R=SRC=$V/rp_r2.tk
ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="r2:$R,BLOCKS=128x128,DEFS=warps:8+blocks:2+stages:2 r192s3:$R,BLOCKS=192x128,DEFS=warps:12+blocks:1+stages:3 r192s2:$R,BLOCKS=192x128,DEFS=warps:12+blocks:1+stages:2" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP" | cut -c1-150
echo "bench ($(($(date +%s) - t0)) s)"
CUDA=${CUDA_HOME:-/usr/local/cuda}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || echo "$CUDA/bin/ncu")
l=r2n; mkdir -p $V/$l
build/tkc $V/rp_r2.tk --target=cuda --kernel=sdpa_relpos_bf16 -D BLOCK_M=128 -D BLOCK_N=128 -D warps=8 -D blocks=2 -D stages=2 -o $V/$l/attn.h || exit 1
gcc -std=c11 -O2 -fPIC -shared -DKIND_RELPOS -DTK_HEADER='"attn.h"' -I $V/$l -o $V/$l/lib.so tests/gpu/bench_attn.c -ldl || exit 1
timeout 200 "$NCU" --clock-control none --set full --profile-from-start off --target-processes all \
    python3 tests/gpu/s26/ncu_rp.py $V/$l/lib.so >$OUT/ncu_$l.txt 2>&1
echo "ncu $l rc $? ($(($(date +%s) - t0)) s)"
grep -E "Duration|Issue Slots Busy|Tensor is|Local Memory Spilling Requests  |Eligible Warps|Warp Cycles Per Issued|Achieved Occupancy|L1/TEX Cache Throughput|Dynamic Shared" $OUT/ncu_$l.txt
echo "total $(($(date +%s) - t0)) s"
