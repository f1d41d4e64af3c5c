#!/bin/sh
# tests/gpu/s25/f3.sh — session 25's closing run: the run tests of the
# wgmma K loops (mma_swap with its 24 / 88-row tiles and their FMA
# fallback, mma, mma_pipe, mma_trstore, mma_skinny, matmul_dtypes; cuda and
# nvptx, each under compute-sanitizer memcheck) with the final compiler.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 400 sh tests/gpu/run.sh mma_swap mma mma_pipe mma_trstore mma_skinny matmul_dtypes 2>&1 | tail -14
echo "total $(($(date +%s) - t0)) s"
