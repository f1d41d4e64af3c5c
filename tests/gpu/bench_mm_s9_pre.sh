#!/bin/sh
# tests/gpu/bench_mm_s9_pre.sh — the headers (with cubins: run where ptxas
# is) and cubins of tests/gpu/bench_mm_s9.sh's variants into DIR.
#
# Every header names its knobs and launch options, so that the lines give
# the logs' variants whatever the defaults are: def / def16 are the
# defaults of h100-s9-mm-2.log's run (no epilogue knobs; matmul_f16
# specialized + persistent; h100-s9-mm-1.log's def16 was old16, matmul_f16's
# default then), both / both16 the defaults after it.
#
#   sh tests/gpu/bench_mm_s9_pre.sh DIR
set -u
cd "$(dirname "$0")/../.." || exit 2
D=${1:?DIR}
TKC=${TKC:-build/tkc}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
mkdir -p "$D"
while IFS=: read -r v k envs flags; do
    # shellcheck disable=SC2086
    env $envs "$TKC" stdlib/matmul.tk --target=cuda --kernel=$k $flags -o "$D/$v.h" || exit 1
    # shellcheck disable=SC2086
    env $envs "$TKC" stdlib/matmul.tk --target=cuda --kernel=$k $flags --emit=ptx -o "$D/$v.ptx" || exit 1
    "$PTXAS" -arch=sm_90a -v -o "$D/$v.cubin" "$D/$v.ptx" 2>&1 | grep -E "registers|spill|C75" | sed "s/^/$v: /"
    rm -f "$D/$v.ptx"
done <<'L'
def:matmul_bf16:TKC_EPI_WGBAR=0 TKC_EPI_DB=0:
wgbar:matmul_bf16:TKC_EPI_WGBAR=1 TKC_EPI_DB=0:
db:matmul_bf16:TKC_EPI_WGBAR=0 TKC_EPI_DB=1:
both:matmul_bf16:TKC_EPI_WGBAR=1 TKC_EPI_DB=1:
all:matmul_bf16:TKC_EPI_WGBAR=1 TKC_EPI_DB=1 TKC_TMA_STORE=2:
def16:matmul_f16:TKC_EPI_WGBAR=0 TKC_EPI_DB=0:-D specialize=1 -D persistent=1
all16:matmul_f16:TKC_EPI_WGBAR=1 TKC_EPI_DB=1 TKC_TMA_STORE=2:-D specialize=0 -D persistent=0
ws16:matmul_f16:TKC_EPI_WGBAR=0 TKC_EPI_DB=0:-D specialize=1 -D persistent=1
wsall16:matmul_f16:TKC_EPI_WGBAR=1 TKC_EPI_DB=1 TKC_TMA_STORE=2:-D specialize=1 -D persistent=1
old16:matmul_f16:TKC_EPI_WGBAR=0 TKC_EPI_DB=0:-D specialize=0 -D persistent=0
both16:matmul_f16:TKC_EPI_WGBAR=1 TKC_EPI_DB=1:-D specialize=1 -D persistent=1
L
