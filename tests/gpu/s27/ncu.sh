#!/bin/sh
# tests/gpu/s27/ncu.sh — Nsight Compute (--set full, clocks left alone) on
# sdpa_relpos_bf16 at SAM's global attention as it now is (its PTX from
# LLVM, rel_h's offsets kept) and the same from NVRTC (--codegen=nvrtc), for
# the next session's look at where the 1.25x goes; reports under $OUT.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
CUDA=${CUDA_HOME:-/usr/local/cuda}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || echo "$CUDA/bin/ncu")
V=build/s27; mkdir -p $V
for cfg in "llvm:" "nvrtc:--codegen=nvrtc"; do
    l=${cfg%%:*} x=${cfg#*:}
    mkdir -p $V/$l
    # shellcheck disable=SC2086
    build/tkc stdlib/attention.tk --target=cuda --kernel=sdpa_relpos_bf16 $x -o $V/$l/attn.h || exit 1
    gcc -std=c11 -O2 -fPIC -shared -DKIND_RELPOS -DTK_HEADER='"attn.h"' -I $V/$l -o $V/$l/lib.so tests/gpu/bench_attn.c -ldl || exit 1
    timeout 200 "$NCU" --clock-control none --set full --profile-from-start off --target-processes all \
        python3 tests/gpu/s26/ncu_rp.py $V/$l/lib.so >$OUT/ncu_$l.txt 2>&1
    echo "ncu $l rc $? ($(($(date +%s) - t0)) s)"
done
for l in llvm nvrtc; do
    echo "== $l"
    grep -E "Duration|Compute \(SM\) Throughput|Issue Slots Busy|Issued Warp|Executed Ipc A|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Executed Instructions  |No Eligible|Local Memory Spilling Requests  |Tensor" $OUT/ncu_$l.txt | head -30
done
echo "total $(($(date +%s) - t0)) s"
