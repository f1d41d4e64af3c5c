#!/bin/sh
# tests/gpu/bench_mm_sweep.sh — time matmul_bf16 (stdlib/matmul.tk) over
# several tile / warps / stages choices, for picking defaults by hand.
#
#   sh tests/gpu/bench_mm_sweep.sh build      # headers + binaries (no GPU needed)
#   sh tests/gpu/bench_mm_sweep.sh run [M N K ...]   # run what was built (default 4096^3 8192^3)
#
# A config is LABEL:ENV:FLAGS (ENV: VAR=VAL,VAR=VAL or -); warps and stages
# go through TKC_WARPS / TKC_MMA_STAGES (the defaults when the kernel sets
# none).  Override the list with CONFIGS="..." (one config per line).
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-sweep
CC=${CC:-gcc}
CONFIGS=${CONFIGS:-"before:TKC_MMA_PIPE=0:-D BM=64 -D BN=64 -D BK=64 -D GM=1
128x128x64::-D BN=128
128x128x64late:TKC_MMA_LATE=1:-D BN=128
128x256x64::-D BN=256
128x256x64late:TKC_MMA_LATE=1:-D BN=256
128x256x64s4:TKC_MMA_STAGES=4:-D BN=256
128x256x64g1::-D BN=256 -D GM=1
256x128x64::-D BM=256 -D BN=128
128x256x32s4:TKC_MMA_STAGES=4:-D BN=256 -D BK=32"}
mode=${1:-build}; [ $# -gt 0 ] && shift
echo "$CONFIGS" | while IFS=: read -r label envs flags; do
    [ -n "$label" ] || continue
    d=$B/$label
    if [ "$mode" = build ]; then
        mkdir -p "$d"
        # shellcheck disable=SC2086,SC2046
        if env $( [ "$envs" = - ] || [ -z "$envs" ] || echo "$envs" | tr , ' ') TKC_LOGS=nvrtc "$TKC" stdlib/matmul.tk --target=cuda \
            --kernel=matmul_bf16 $flags -o "$d/bench.h" 2>"$d/tkc.log" \
            && $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$d" -o "$d/bench" \
                tests/gpu/bench_mm.c -lm -ldl; then
            echo "built $label"
        else
            echo "FAILED $label"; sed 's/^/    /' "$d/tkc.log"
        fi
    else
        [ -x "$d/bench" ] || { echo "$label: not built"; continue; }
        if [ $# -gt 0 ]; then "$d/bench" "$label" "$@"; else "$d/bench" "$label" 4096 4096 4096 8192 8192 8192; fi
    fi
done
