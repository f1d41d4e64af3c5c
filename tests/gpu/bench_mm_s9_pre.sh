#!/bin/sh
# tests/gpu/bench_mm_s9_pre.sh — the headers (with cubins: run where ptxas
# is) and cubins of tests/gpu/bench_mm_s9.sh's variants into DIR:
# tests/gpu/bench_mm_var.sh with SAVE=DIR, once for the matmul_bf16
# variants and once for the matmul_f16 ones.
#
# Every header names its knobs and launch options, so that the lines give
# the logs' variants whatever the defaults are: def / def16 are the
# defaults of h100-s9-mm-2.log's run (no epilogue knobs; matmul_f16
# specialized + persistent; h100-s9-mm-1.log's def16 was old16, matmul_f16's
# default then), both / both16 the defaults after it.
#
#   sh tests/gpu/bench_mm_s9_pre.sh DIR
D=${1:?DIR}
S=$(dirname "$0")/bench_mm_var.sh
BF='def:TKC_EPI_WGBAR=0,TKC_EPI_DB=0:
wgbar:TKC_EPI_WGBAR=1,TKC_EPI_DB=0:
db:TKC_EPI_WGBAR=0,TKC_EPI_DB=1:
both:TKC_EPI_WGBAR=1,TKC_EPI_DB=1:
all:TKC_EPI_WGBAR=1,TKC_EPI_DB=1,TKC_TMA_STORE=2:'
FH='def16:TKC_EPI_WGBAR=0,TKC_EPI_DB=0:-D specialize=1 -D persistent=1
all16:TKC_EPI_WGBAR=1,TKC_EPI_DB=1,TKC_TMA_STORE=2:-D specialize=0 -D persistent=0
ws16:TKC_EPI_WGBAR=0,TKC_EPI_DB=0:-D specialize=1 -D persistent=1
wsall16:TKC_EPI_WGBAR=1,TKC_EPI_DB=1,TKC_TMA_STORE=2:-D specialize=1 -D persistent=1
old16:TKC_EPI_WGBAR=0,TKC_EPI_DB=0:-D specialize=0 -D persistent=0
both16:TKC_EPI_WGBAR=1,TKC_EPI_DB=1:-D specialize=1 -D persistent=1'
SAVE=$D VARIANTS=$BF GPU_DIR=gpu-s9 sh "$S" || exit 1
SAVE=$D VARIANTS=$FH GPU_DIR=gpu-s9 MM_DTYPE=f16 sh "$S"
