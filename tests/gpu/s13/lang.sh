#!/bin/sh
# tests/gpu/s13/lang.sh — the new language pieces on the GPU: atomics and
# print run tests, cuda and nvptx, each with compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout ${TTO:-200} sh tests/gpu/run.sh ${TESTS:-atomics print} >$OUT/lang.txt 2>&1; echo "rc $?" >>$OUT/lang.txt
grep -E '^PASS|^FAIL|^SKIP|passed|rc |^    ' $OUT/lang.txt | head -60
