#!/bin/sh
# tests/gpu/s22/t1.sh — session 22's last code: the run tests of the
# transposed wgmma operands (mma_swap with tn: A alone transposed; mma:
# dot(a, trans(bt))) and of atomic_add's value (arrive), cuda and nvptx,
# each under compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
timeout 400 sh tests/gpu/run.sh mma_swap mma arrive 2>&1 | tail -8
echo "total $(($(date +%s) - t0)) s"
