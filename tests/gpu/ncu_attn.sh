#!/bin/sh
# tests/gpu/ncu_attn.sh — Nsight Compute's view of sdpa_bf16 (D=128 by
# default) next to cuDNN's SDPA kernel on the same tensors: throughput,
# pipe use, warp states, scheduler and instruction statistics, where the
# warps stall (sampled), and with SASS=1 the executed count of every SASS
# instruction of tkc's kernel — for finding where tkc's time goes.  Needs
# ncu (Firecracker machines) and torch; clocks left alone (--clock-control
# none).  Settings in TKC_ENV (e.g. "TKC_WG_UNIFORM=1") go to tkc.
#
#   OUT=DIR [D=128] [CAUSAL=0] [SASS=1] sh tests/gpu/ncu_attn.sh
#       ($OUT/ncu.txt; with SASS=1 also $OUT/sass.csv, which tests/gpu/ncu_sass.py sums up)
cd "$(dirname "$0")/../.." || exit 2
D=${D:-128} CAUSAL=${CAUSAL:-0}
c=false; [ "$CAUSAL" = 1 ] && c=true
B=build/ncu-attn-$$; mkdir -p $B
TKC=${TKC:-build/tkc}
# shellcheck disable=SC2086
env ${TKC_ENV:-} $TKC stdlib/attention.tk --target=cuda --kernel=sdpa_bf16 -D D=$D -D CAUSAL=$c -o $B/attn.h || exit 1
${CC:-cc} -std=c11 -O2 -fPIC -shared -DTK_HEADER='"attn.h"' -I $B -o $B/lib.so tests/gpu/bench_attn.c -ldl || exit 1
ncu --clock-control none --profile-from-start off --target-processes all \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section InstructionStats \
    --section Occupancy --section LaunchStats --section SourceCounters \
    python3 tests/gpu/ncu_attn.py $B/lib.so $D $CAUSAL >${OUT:-.}/ncu.txt 2>&1
echo "ncu rc $?"
if [ "${SASS:-0}" = 1 ]; then
    ncu --clock-control none --profile-from-start off --target-processes all --kernel-name sdpa_bf16 \
        --section SourceCounters --page source --print-source sass --csv \
        python3 tests/gpu/ncu_attn.py $B/lib.so $D $CAUSAL >${OUT:-.}/sass.csv 2>&1
    echo "ncu sass rc $?"
fi
