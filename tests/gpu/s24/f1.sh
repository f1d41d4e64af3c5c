#!/bin/sh
# tests/gpu/s24/f1.sh — session 24's closing run: the run tests of the
# transposed tiles (mma_swap: their f16 / bf16 results now rounded by the
# store alone where staged) and of pairs of blocks (mma_cluster), with mma,
# mma_pipe, mma_trstore and matmul_dtypes: cuda and nvptx, each under
# compute-sanitizer memcheck; the dispatching headers of
# stdlib/matmul.tktune against float64 (mm_dispatch.sh, 23 shapes); and the
# kernels cuBLAS runs for the few-rows shapes (their tiles and clusters).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 sh tests/gpu/run.sh mma_swap mma_cluster mma mma_pipe mma_trstore matmul_dtypes 2>&1 | tail -16
echo "run tests ($(($(date +%s) - t0)) s)"
timeout 240 sh tests/gpu/mm_dispatch.sh 2>&1 | grep -v "note:\|^ *[0-9]* |\|^ *|" | tail -30
echo "dispatch check ($(($(date +%s) - t0)) s)"
timeout 60 python3 tests/gpu/s24/cublas_kernels.py 16x8192x8192 129x8192x8192 170x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192 600x8192x8192 4096x4096x4096 8192x8192x8192 2>&1 | cut -c1-400
echo "total $(($(date +%s) - t0)) s"
