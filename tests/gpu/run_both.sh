#!/bin/sh
# tests/gpu/run_both.sh — run tests on the GPU, the cuda and the nvptx
# passes side by side (two processes), each test in its own tests/gpu/run.sh
# call (so that each result is kept when the time runs out), each also under
# compute-sanitizer memcheck.  Used by the session scripts (tests/gpu/s15/).
#
#   OUT=DIR sh tests/gpu/run_both.sh TEST...      (TTO=S: stop after S seconds, default 420)
#
# Writes $OUT/cuda.txt and $OUT/nvptx.txt and prints their PASS/FAIL lines.
cd "$(dirname "$0")/../.." || exit 2
t0=$(date +%s)
mkdir -p build/nv && ln -sfn ../tkc build/nv/tkc
( for t in "$@"; do TKC_GPU_NVPTX=0 timeout 120 sh tests/gpu/run.sh $t 2>&1 | grep -E '^PASS|^FAIL|^SKIP|^ '; done >$OUT/cuda.txt ) &
p1=$!
( for t in "$@"; do TKC=build/nv/tkc TKC_GPU_NVPTX=only timeout 120 sh tests/gpu/run.sh $t 2>&1 | grep -E '^PASS|^FAIL|^SKIP|^ '; done >$OUT/nvptx.txt ) &
p2=$!
while kill -0 $p1 2>/dev/null || kill -0 $p2 2>/dev/null; do
    [ $(($(date +%s) - t0)) -gt ${TTO:-420} ] && { echo "time limit: stopped" | tee -a $OUT/cuda.txt >>$OUT/nvptx.txt; pkill -f tests/gpu/run.sh; break; }
    sleep 2
done
for f in $OUT/cuda.txt $OUT/nvptx.txt; do echo "== $f"; grep -v '^SKIP\|gpu-nvptx/math' "$f" | cut -c1-150 | head -30; done
