#!/bin/sh
# tests/gpu/s16/g4.sh — session 16, call 6: mbarrier waits with try_wait's
# suspend-time hint (TKC_MBAR_SUSPEND=N ns, lower/gpu_mma.c mbar_wait)
# against the spinning waits: sdpa and sdpa_relpos (VARS), matmul_bf16 in
# turns with cuBLAS (bench_mm_var.sh, MMVARS), rivals in the same run; the
# run tests whose kernels wait on mbarriers with the hint on, cuda and nvptx
# passes, each also under compute-sanitizer memcheck (TENV: settings for them).
# The same run as tests/gpu/s17/g1.sh (which grew from this script), with
# session 16's time limit for the benchmark.
BTO=${BTO:-250} ATTN_LLVM=0 exec sh "$(dirname "$0")/../s17/g1.sh"
