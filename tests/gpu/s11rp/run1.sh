#!/bin/sh
# tests/gpu/s11rp/run1.sh PRE — session 11, helper s11-rp, device call 1:
# ncu of one launch each of sdpa_relpos_bf16 (the epilogue in the fragments,
# 4 programs per SM: rp_new; TKC_FIT_EPI=0, the old launch: rp_old) and of
# sdpa_bf16 at SAM ViT-B global attention's shape (tests/gpu/s11rp/prof.py),
# then bench_attn.py on PRE/configs (libraries built beforehand by
# tests/gpu/s11rp/pre.sh), then the relpos run tests (cuda, memcheck).
set -u
cd "$(dirname "$0")/../../.." || exit 2
PRE=${1:-pre}
O=${OUT:-/tmp/s11rp-out}; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
for x in rp_new:relpos rp_old:relpos sdpa:sdpa; do
    n=${x%%:*} kd=${x#*:}
    timeout 50 ncu --clock-control none --import-source no -k regex:'^sdpa' -c 1 \
        --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
        --section SchedulerStats --section InstructionStats --section ComputeWorkloadAnalysis \
        --section SourceCounters -o "/tmp/$n" -f python3 tests/gpu/s11rp/prof.py "$PRE/$n/lib.so" "$kd" >"/tmp/$n.log" 2>&1
    echo "ncu $n rc=$?"; tail -3 "/tmp/$n.log"
    ncu -i "/tmp/$n.ncu-rep" --page details --csv >"$O/${n}_details.csv" 2>&1
    ncu -i "/tmp/$n.ncu-rep" --page source --print-source sass --csv >"$O/${n}_sass.csv" 2>&1
    grep -E '"(Duration|Achieved Occupancy|Theoretical Occupancy|Block Limit Shared Mem|Block Limit Registers|Issue Slots Busy|No Eligible|Executed Ipc Active|Warp Cycles Per Issued Instruction|Registers Per Thread|Dynamic Shared Memory Per Block)"' \
        "$O/${n}_details.csv" | awk -F'","' '{print "  " $(NF-2) " = " $NF " " $(NF-1)}' | tr -d '"'
done
echo "== bench (same process, one config after another)"
PYTHONUNBUFFERED=1 timeout 120 python3 tests/gpu/bench_attn.py "$PRE/configs" 2>&1 | grep -v "^      vs "
echo "== relpos run tests (cuda + memcheck)"
TKC_GPU_NVPTX=0 timeout 60 sh tests/gpu/run.sh relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 relpos_bf16_d128 2>&1 | tail -12
