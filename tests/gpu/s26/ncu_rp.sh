#!/bin/sh
# tests/gpu/s26/ncu_rp.sh — Nsight Compute (--set full, clocks left alone)
# on sdpa_relpos_bf16 at SAM's global attention: the kernel as it is and
# mkrp.py's rp_r2.tk at 128 x 128 (8 warps, 2 blocks an SM); reports under $OUT.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
CUDA=${CUDA_HOME:-/usr/local/cuda}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || echo "$CUDA/bin/ncu")
V=build/s26; mkdir -p $V
python3 tests/gpu/s26/mkrp.py $V || exit 2
for cfg in "def:stdlib/attention.tk:" "r2:$V/rp_r2.tk:-D BLOCK_M=128 -D BLOCK_N=128 -D warps=8 -D blocks=2 -D stages=2"; do
    l=${cfg%%:*} r=${cfg#*:}; src=${r%%:*} x=${r#*:}
    mkdir -p $V/$l
    # shellcheck disable=SC2086
    build/tkc $src --target=cuda --kernel=sdpa_relpos_bf16 $x -o $V/$l/attn.h || exit 1
    gcc -std=c11 -O2 -fPIC -shared -DKIND_RELPOS -DTK_HEADER='"attn.h"' -I $V/$l -o $V/$l/lib.so tests/gpu/bench_attn.c -ldl || exit 1
    timeout 200 "$NCU" --clock-control none --set full --profile-from-start off --target-processes all \
        python3 tests/gpu/s26/ncu_rp.py $V/$l/lib.so >$OUT/ncu_$l.txt 2>&1
    echo "ncu $l rc $? ($(($(date +%s) - t0)) s)"
done
for l in def r2; do
    echo "== $l"
    grep -E "^  [a-z_]+.*\(|Duration|Compute \(SM\) Throughput|Issue Slots Busy|Issued Warp|Executed Ipc A|Registers Per|Shared Memory Configuration Size|Dynamic Shared|Achieved Occupancy|Theoretical Occupancy|Block Limit|Warp Cycles Per Issued|L1/TEX Hit|Mem Pipes Busy|Executed Instructions  |One or More|No Eligible|Waves Per SM|Grid Size" $OUT/ncu_$l.txt | head -40
done
echo "total $(($(date +%s) - t0)) s"
