#!/bin/sh
# tests/gpu/s28/f32.sh — stdlib's f32 `sdpa` on the GPU at its default
# blocks (64 x 64) and at 128 x 128 / 128 x 64 (the CPU's faster picks:
# `--max-autotune` on the C target chose them), D=64 and 128 (f32.py).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=build/s28f; mkdir -p $B; args=""
for d in 64 128; do
    for bl in 64x64 128x128 128x64; do
        n=d${d}_$bl; mkdir -p $B/$n
        build/tkc stdlib/attention.tk --target=cuda --kernel=sdpa -D D=$d -D BLOCK_M=${bl%x*} -D BLOCK_N=${bl#*x} -o $B/$n/sdpa.h || exit 1
        gcc -std=c11 -O2 -fPIC -shared -DKIND_F32 -DTK_HEADER='"sdpa.h"' -I $B/$n -o $B/$n/lib.so tests/gpu/bench_attn.c -ldl || exit 1
        args="$args $B/$n/lib.so:$n"
    done
done
# shellcheck disable=SC2086
python3 tests/gpu/s28/f32.py $args
# the same kernel on this machine's host CPU: tkc (default and 128 x 128
# blocks) vs a plain C attention and PyTorch's CPU SDPA (same threads)
BENCH_ONLY=attn ATTN_S=2048 timeout 250 sh tests/bench/run.sh 2>&1 | tail -16
