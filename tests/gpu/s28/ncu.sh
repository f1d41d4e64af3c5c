#!/bin/sh
# tests/gpu/s28/ncu.sh — Nsight Compute on sdpa_bf16 D=128 as it now is
# (192 x 128 blocks, three consumer warpgroups and the producer) next to
# cuDNN's kernel on the same tensors (tests/gpu/ncu_attn.sh, SASS=1), for
# where its 0.94x goes; the last such look was at 128 x 128 (h100-s16-ncu).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
command -v ncu >/dev/null || PATH=$PATH:$(dirname "$(ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"):/usr/local/cuda/bin
D=128 SASS=1 timeout 400 sh tests/gpu/ncu_attn.sh
grep -E "^  [a-z_]|Duration|Elapsed Cycles|SM Frequency|Issue Slots Busy|Executed Ipc A|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Executed Instructions  |No Eligible|Active Warps Per|Eligible Warps|Tensor|Block Size|Grid Size" $OUT/ncu.txt | head -80
python3 tests/gpu/ncu_sass.py $OUT/sass.csv 2>&1 | head -60
echo "total $(($(date +%s) - t0)) s"
