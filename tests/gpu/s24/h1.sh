#!/bin/sh
# tests/gpu/s24/h1.sh — branch f16-c7514 (PA_ROUND_F16W for f16 tiles stored
# transposed from wgmma fragments): the run tests of the transposed tiles
# (cuda, nvptx, memcheck) and the dispatching headers against float64
# (its f16 shapes at 170-700 rows run the 80-256-row transposed tiles).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 sh tests/gpu/run.sh mma_swap mma_trstore matmul_dtypes 2>&1 | tail -9
echo "run tests ($(($(date +%s) - t0)) s)"
timeout 240 sh tests/gpu/mm_dispatch.sh 2>&1 | grep -v "note:\|^ *[0-9]* |\|^ *|" | tail -25
echo "total $(($(date +%s) - t0)) s"
