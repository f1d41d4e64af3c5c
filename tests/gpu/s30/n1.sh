#!/bin/sh
# tests/gpu/s30/n1.sh — Nsight Compute (clocks left alone) on
# sdpa_relpos_bf16 at SAM's windowed attention next to torch's no-bias SDPA
# kernel on the same q, k, v (tests/gpu/s30/ncu_win.py), for where the
# windowed kernel's time goes; SASS=1 (default) also the executed count of
# every SASS instruction of tkc's kernel (tests/gpu/ncu_sass.py).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
command -v ncu >/dev/null || PATH=$PATH:$(dirname "$(ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"):/usr/local/cuda/bin
B=build/s30-ncu; mkdir -p $B
build/tkc stdlib/attention.tk --target=cuda --kernel=sdpa_relpos_bf16 -o $B/attn.h || exit 1
${CC:-cc} -std=c11 -O2 -fPIC -shared -DKIND_RELPOS -DTK_HEADER='"attn.h"' -I $B -o $B/lib.so tests/gpu/bench_attn.c -ldl || exit 1
timeout 300 ncu --clock-control none --profile-from-start off --target-processes all \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section InstructionStats \
    --section Occupancy --section LaunchStats --section SourceCounters \
    python3 tests/gpu/s30/ncu_win.py $B/lib.so >$OUT/ncu.txt 2>&1
echo "ncu rc $?"
grep -E "^  [a-zA-Z_]|Duration|Elapsed Cycles|SM Frequency|Issue Slots Busy|Executed Ipc A|Registers Per|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Executed Instructions  |No Eligible|Active Warps Per|Eligible Warps|Tensor|Block Size|Grid Size|DRAM Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Memory Throughput|Compute \(SM\)|Dynamic Shared|Block Limit|Waves Per SM" $OUT/ncu.txt | head -120
grep -E "Stall|stall" $OUT/ncu.txt | head -30
if [ "${SASS:-1}" = 1 ]; then
    timeout 200 ncu --clock-control none --profile-from-start off --target-processes all --kernel-name regex:sdpa_relpos \
        --section SourceCounters --page source --print-source sass --csv \
        python3 tests/gpu/s30/ncu_win.py $B/lib.so >$OUT/sass.csv 2>&1
    echo "ncu sass rc $?"
    python3 tests/gpu/ncu_sass.py $OUT/sass.csv 2>&1 | head -60
fi
echo "total $(($(date +%s) - t0)) s"
