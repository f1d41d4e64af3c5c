#!/bin/sh
# tests/gpu/s30/m2.sh — session 30: is 4096^3 wave-quantized for tkc more
# than for cuBLAS?  matmul_bf16 (128 x 256 tiles, persistent) in turns with
# cuBLAS at 4096^3 (512 tiles: 3.88 waves of 132) and at 4224 x 4096 x 4096
# (33 x 16 = 528 tiles: exactly 4 waves), 3968 x 4096 x 4096 (31 x 16 = 496:
# 3.76), 8192^3 (2048: 15.5) and 8448 x 8192 x 8192 (2112: exactly 16).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
VARIANTS="def:-:" \
SIZES="4096 4224x4096x4096 3968x4096x4096 8192 8448x8192x8192" PAIR_ROUNDS=${PAIR_ROUNDS:-20} OUT=$OUT \
    timeout ${BTO:-500} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|check|failed|FAIL|rror' $OUT/mm.txt | cut -c1-160
echo "total $(($(date +%s) - t0)) s"
