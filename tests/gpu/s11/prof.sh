#!/bin/sh
# tests/gpu/s11/prof.sh — ncu of one sdpa_bf16 launch at D=128 and one at D=64
# (B=4 H=16 S=T=4096, default blocks), headers built by build/tkc; full
# reports under $OUT, a short summary on stdout.
cd "$(dirname "$0")/../../.." || exit 2
W=/tmp/s11prof; rm -rf $W; mkdir -p $W
for d in 128 64; do
    build/tkc stdlib/attention.tk --target=cuda --kernel=sdpa_bf16 -D D=$d -o $W/d$d.h || exit 1
    gcc -std=c11 -O2 -fPIC -shared -DTK_HEADER="\"d$d.h\"" -I $W -o $W/d$d.so tests/gpu/bench_attn.c -ldl || exit 1
done
python3 tests/gpu/s11/drv.py $W/d128.so $W/d64.so || exit 1
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
$NCU --version | tail -1
$NCU --clock-control none --kernel-name regex:'^sdpa_bf16$' --launch-count 2 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --section SourceCounters --import-source no \
    -o $OUT/prof python3 tests/gpu/s11/drv.py $W/d128.so $W/d64.so >$OUT/ncu-run.txt 2>&1
tail -5 $OUT/ncu-run.txt
$NCU -i $OUT/prof.ncu-rep --page details >$OUT/details.txt 2>&1
$NCU -i $OUT/prof.ncu-rep --page source --print-source sass --csv >$OUT/sass.csv 2>&1
ls -la $OUT
grep -E 'sdpa_bf16|Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|No Eligible|Eligible Warps|Active Warps Per|Warp Cycles Per Issued|Stall|SM Busy|Compute \(SM\) Thr|Memory Thr|Executed Ipc A' $OUT/details.txt | head -60
