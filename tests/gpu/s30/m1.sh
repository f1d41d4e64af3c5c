#!/bin/sh
# tests/gpu/s30/m1.sh — session 30: matmul_bf16's program grouping GM (row
# tiles per group down a column of tiles) at 4096^3 / 8192^3: the default 8
# next to 4, 16 and 32, in turns with cuBLAS (bench_mm_pair.py).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
VARIANTS="def:-:
gm4:-:-D GM=4
gm16:-:-D GM=16
gm32:-:-D GM=32" \
SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-20} OUT=$OUT \
    timeout ${BTO:-500} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|check|ptxas|failed|FAIL|rror' $OUT/mm.txt | grep -v "0 bytes spill" | cut -c1-160
echo "total $(($(date +%s) - t0)) s"
