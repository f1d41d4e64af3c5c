#!/bin/sh
# tests/gpu/bench_mm_ws.sh — stdlib matmul_bf16 on sm_90a in the variants of
# its K loop, same run, chosen with -D launch options: unspecialized (every
# warp copies and multiplies, a barrier per iteration) with 128 x 256 tiles
# in 4 stages (nows) and 128 x 128 in 6 (nows128); warp-specialized (a TMA
# producer warpgroup, full/empty mbarriers) with 128 x 256 tiles (ws), that
# with a persistent grid (persist), and persistent with 128 x 128 tiles in 6
# stages (persist128: the kernel's default).  ENV=... runs every variant
# with these environment settings too (experiments, e.g. ENV=TKC_FRAG_EPI=0).
# Each variant: twice the timings at 4096^3 and 8192^3 (checked at sampled
# elements against float64 by bench_mm.c), 4095^3 once (the cp.async
# fallback), ptxas's resource report and the SASS counts (HGMMA, spills).
# Uses build/tkc as it is; see bench_mm.sh for the references (cuBLAS, Triton).
#
#   sh tests/gpu/bench_mm_ws.sh [VARIANT ...]     # default: nows nows128 ws persist persist128
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-bench-ws
CC=${CC:-gcc}
CUDA=${CUDA_HOME:-/usr/local/cuda}
variants=${*:-"nows nows128 ws persist persist128"}
for n in $variants; do
    e=${ENV:-}
    t=$n${e:+"[$e]"}
    case $n in
    nows) f="-D BN=256 -D stages=4 -D specialize=0 -D persistent=0" ;;
    nows128) f="-D BN=128 -D stages=6 -D specialize=0 -D persistent=0" ;;
    ws) f="-D BN=256 -D stages=4 -D specialize=1 -D persistent=0" ;;
    persist) f="-D BN=256 -D stages=4 -D specialize=1 -D persistent=1" ;;
    persist128) f="-D BN=128 -D stages=6 -D specialize=1 -D persistent=1" ;;
    *) echo "bench_mm_ws: unknown variant $n"; exit 2 ;;
    esac
    d=$B/$n
    mkdir -p "$d"
    # shellcheck disable=SC2086
    if ! env $e "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 $f -o "$d/bench.h" 2>"$d/tkc.log" \
        || ! $CC -std=c11 -O2 -Wall -Wextra -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$d" \
            -o "$d/bench" tests/gpu/bench_mm.c -lm -ldl 2>>"$d/tkc.log"; then
        echo "$t: build failed"; sed 's/^/    /' "$d/tkc.log"; continue
    fi
    # shellcheck disable=SC2086
    env $e "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 $f --emit=ptx -o "$d/k.ptx" 2>/dev/null
    if [ -x "$CUDA/bin/ptxas" ]; then
        "$CUDA/bin/ptxas" -arch=sm_90a -v -o "$d/k.cubin" "$d/k.ptx" 2>&1 | grep -E "spill|registers" | sed "s/^/$t ptxas: /"
        if [ -x "$CUDA/bin/cuobjdump" ]; then
            "$CUDA/bin/cuobjdump" -sass "$d/k.cubin" >"$d/k.sass"
            echo "$t sass: $(grep -c HGMMA "$d/k.sass") HGMMA, $(grep -c 'STL' "$d/k.sass") STL, $(grep -c 'LDL' "$d/k.sass") LDL, $(grep -c 'SETMAXNREG\|USETMAXREG' "$d/k.sass") setmaxnreg"
        fi
    fi
    for r in 1 2; do
        "$d/bench" mma 4096 4096 4096 8192 8192 8192 | sed "s/^/$t /"
    done
    "$d/bench" mma 4095 4095 4095 | sed "s/^/$t /"
done
