#!/bin/sh
# tests/gpu/bench_dtype_sweep.sh — time matmul_tf32 / matmul_i8 (stdlib/matmul.tk)
# over several tile / stages choices and paths, for picking defaults by hand.
#
#   sh tests/gpu/bench_dtype_sweep.sh [M N K ...]   # build and run (default 4096^3 8192^3)
#
# A config is LABEL:KERNEL:ENV:FLAGS (KERNEL tf32 or i8; ENV: VAR=VAL,VAR=VAL
# or -); warps and stages go through TKC_WARPS / TKC_MMA_STAGES.  Override
# the list with CONFIGS="..." (one config per line).  Needs the GPU (the
# header is built with nvrtc).
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-dtype-sweep
CC=${CC:-gcc}
CONFIGS=${CONFIGS:-"mmasync:tf32:-:-
wg128x128x32:tf32:TKC_WG_DTYPE=3:-
wg128x256x16s6:tf32:TKC_WG_DTYPE=3,TKC_MMA_STAGES=6:-D BN=256 -D BK=16
wgra:tf32:TKC_WG_DTYPE=3,TKC_WGDT_RA=1:-
wgra128x256x16s6:tf32:TKC_WG_DTYPE=3,TKC_WGDT_RA=1,TKC_MMA_STAGES=6:-D BN=256 -D BK=16
wgprep0:tf32:TKC_WG_DTYPE=3,TKC_WGDT_PREP=0:-
mmasync:i8:TKC_WG_DTYPE=0:-
mmasync128:i8:TKC_WG_DTYPE=0:-D BN=128
wg128x256x64:i8:-:-
wg128x128x64:i8:-:-D BN=128
wg128x128x128s5:i8:TKC_MMA_STAGES=5:-D BN=128 -D BK=128"}
[ $# -gt 0 ] || set -- 4096 4096 4096 8192 8192 8192
echo "$CONFIGS" | while IFS=: read -r label kern envs flags; do
    [ -n "$label" ] || continue
    d=$B/$kern-$label
    mkdir -p "$d"
    [ "$flags" = - ] && flags=""
    # shellcheck disable=SC2086,SC2046
    if env $( [ "$envs" = - ] || [ -z "$envs" ] || echo "$envs" | tr , ' ') TKC_LOGS=nvrtc "$TKC" stdlib/matmul.tk \
        --target=cuda --kernel=matmul_tf32,matmul_i8 $flags -o "$d/bench.h" 2>"$d/tkc.log" \
        && $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$d" -I tests/gpu -o "$d/bench" \
            tests/gpu/bench_dtype.c -lm -ldl; then
        printf '%-18s ' "$label"
        "$d/bench" "$kern" "$@" | tr '\n' '|' | sed 's/|$/\n/; s/|/\n                   /g'
    else
        echo "FAILED $label"; sed 's/^/    /' "$d/tkc.log" | head -5
    fi
done
