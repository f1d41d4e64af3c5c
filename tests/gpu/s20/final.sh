#!/bin/sh
# tests/gpu/s20/final.sh — session 20's closing benchmark: session 19's
# (bench_attn.sh, then bench_mm.sh; rivals in the same run, interleaved
# rounds).
cd "$(dirname "$0")/../../.." || exit 2
exec sh tests/gpu/s19/final.sh
