#!/bin/sh
# tests/gpu/s23/f3.sh — session 23: the dispatching header of
# stdlib/matmul.tktune against float64 (mm_dispatch.sh; f1 / f2 timed out
# in the float64 references of the first versions of its four new shapes).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
timeout 400 sh tests/gpu/mm_dispatch.sh 2>&1 | grep -v "note:\|^ *[0-9]* |\|^ *|" | tail -24
echo "dispatch check ($(($(date +%s) - t0)) s)"
