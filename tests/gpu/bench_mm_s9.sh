#!/bin/sh
# tests/gpu/bench_mm_s9.sh — issue 4, session 9 (s9-mm): the TMA-stored
# epilogue's experiments (lower/gpu.c, frag_store_tma) in one run, headers
# built beforehand as PRE/LABEL.h (cubins inside, and PRE/LABEL.cubin) by
# tests/gpu/bench_mm_s9_pre.sh:
#   def    the default
#   wgbar  TKC_EPI_WGBAR=1 (a named barrier per consumer warpgroup)
#   db     TKC_EPI_DB=1 (one box per chunk, the buffer's two alternating)
#   both   wgbar + db;  all: both + TKC_TMA_STORE=2 (the kernel's end waits
#          only for the stores' reads of shared memory)
#   def16, all16: the same for matmul_f16 (no @launch: every warp copies)
#   ws16, wsall16: matmul_f16 -D specialize=1 -D persistent=1 (bf16's
#          default launch), without and with `all`'s knobs
# tests/gpu/bench_mm_var.sh with these variants, bf16 then f16: the SASS
# counts of the cubins, the variants and cuBLAS in turns in one process
# (bench_mm_pair.py, medians of the per-round ratios) and ROUNDS rounds of
# bench_mm.c processes (SEP_BF: def / all, SEP_FH: def16 / ws16 / wsall16)
# with cuBLAS timed by its own process after each (bench_mm.sh's way); then
# the run tests of the wgmma paths with the knobs of `all` on (cuda pass +
# compute-sanitizer memcheck).
#
# BF, FH: the variant lists (bf16, f16); RT_ENV: the run tests' knobs
# (empty: the defaults); DISPATCH=1: also tests/gpu/mm_dispatch.sh
# (stdlib/matmul.tktune's header).
#
#   PRE=DIR [ROUNDS=1] [PAIR_ROUNDS=30] sh tests/gpu/bench_mm_s9.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
: "${PRE:?PRE=DIR of prebuilt headers}"
export PRE PAIR_ROUNDS=${PAIR_ROUNDS:-30} GPU_DIR=gpu-s9
labels() { for v in $1; do echo "$v::"; done; }
VARIANTS=$(labels "${BF:-def wgbar db both all}") SEP=${SEP_BF:-def all} \
    sh tests/gpu/bench_mm_var.sh "${ROUNDS:-1}"
VARIANTS=$(labels "${FH:-def16 all16 ws16 wsall16}") SEP=${SEP_FH:-def16 ws16 wsall16} MM_DTYPE=f16 \
    sh tests/gpu/bench_mm_var.sh "${ROUNDS:-1}"
RT_ENV=${RT_ENV-TKC_EPI_WGBAR=1 TKC_EPI_DB=1 TKC_TMA_STORE=2}
echo "run tests, with [$RT_ENV] (cuda + memcheck):"
# shellcheck disable=SC2086
env $RT_ENV TKC_GPU_NVPTX=0 timeout 100 sh tests/gpu/run.sh mma mma_ws mma_pipe mma_odd mma_repack matmul_dtypes 2>&1 | tail -8
[ "${DISPATCH:-0}" = 1 ] && timeout 60 sh tests/gpu/mm_dispatch.sh 2>&1 | tail -12
exit 0
