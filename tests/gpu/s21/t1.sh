#!/bin/sh
# tests/gpu/s21/t1.sh — session 21's closing code on the GPU: the run tests
# of what changed (sdpa_relpos_bf16's four-rows walk and KEY_LOADS 8: every
# relpos_bf16 test; the few-rows matmul tiles: mma_skinny), cuda and nvptx,
# each under compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout ${TTO:-330} sh tests/gpu/run.sh relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 relpos_bf16_d128 mma_skinny 2>&1 | grep -aE '^PASS|^FAIL|passed|^ ' | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
