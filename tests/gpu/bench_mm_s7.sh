#!/bin/sh
# tests/gpu/bench_mm_s7.sh — issue 4, session 7: stdlib matmul_bf16 with the
# ping-pong consumers (TKC_MM_PP=1: two consumer warpgroups of 64 x 256
# tiles taking turns, lower/gpu_mma.c "ping-pong consumers") next to the
# default (specialized persistent 128 x 256 since h100-s7-mm-2.log), the
# default before it (`old`: every warp copying and multiplying) and the same
# 64 x 256 tiles without ping-pong, and torch.matmul (cuBLAS): the variants
# and cuBLAS in turns in one process, then cuBLAS alone (REF=1), then
# 4095^3 and 16 x 8192^2 of def, old and pp64 — tests/gpu/bench_mm_var.sh
# with these settings (its variables apply: PRE=DIR for headers built
# beforehand, VARIANTS, ...).
#
#   PRE=DIR sh tests/gpu/bench_mm_s7.sh
S_LIST='def:-:
old:-:-D specialize=0 -D persistent=0
ws64:-:-D BM=64 -D warps=4 -D specialize=1 -D persistent=1
pp64:TKC_MM_PP=1:-D BM=64 -D warps=4 -D specialize=1 -D persistent=1
pp64g16:TKC_MM_PP=1:-D BM=64 -D warps=4 -D specialize=1 -D persistent=1 -D GM=16'
VARIANTS=${VARIANTS:-$S_LIST} REF=1 ODD=${ODD:-def old pp64} ODD_SHAPES=${ODD_SHAPES:-4095 4095 4095 16 8192 8192} GPU_DIR=gpu-s7 \
    exec sh "$(dirname "$0")/bench_mm_var.sh"
