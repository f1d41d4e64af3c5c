#!/bin/sh
# tests/gpu/bench_mm_s7.sh — issue 4, session 7: stdlib matmul_bf16 with the
# ping-pong consumers (TKC_MM_PP=1: two consumer warpgroups of 64 x 256
# tiles taking turns, lower/gpu_mma.c "ping-pong consumers") next to the
# default (specialized persistent 128 x 256 since h100-s7-mm-2.log), the
# default before it (`old`: every warp copying and multiplying) and the same
# 64 x 256 tiles without ping-pong, and torch.matmul (cuBLAS): the variants and cuBLAS
# in turns in one process (tests/gpu/bench_mm_pair.py), then cuBLAS alone
# the way tests/gpu/bench_mm.py times it (the pair column's check), then
# 4095^3 and 16 x 8192^2 (bench_mm.c, one process per variant).
# PRE=DIR: headers built beforehand as DIR/LABEL.h (tkc with ptxas puts the
# cubin in them: no JIT of the PTX on the device); else built here.
# A variant is LABEL:ENV:FLAGS (ENV: VAR=VAL,... or -).
#
#   PRE=DIR sh tests/gpu/bench_mm_s7.sh        # VARIANTS="..." overrides the list
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-s7
CC=${CC:-gcc}
PRE=${PRE:-}
ALL='def:-:
old:-:-D specialize=0 -D persistent=0
ws64:-:-D BM=64 -D warps=4 -D specialize=1 -D persistent=1
pp64:TKC_MM_PP=1:-D BM=64 -D warps=4 -D specialize=1 -D persistent=1
pp64g16:TKC_MM_PP=1:-D BM=64 -D warps=4 -D specialize=1 -D persistent=1 -D GM=16'
VARIANTS=${VARIANTS:-$ALL}
mkdir -p "$B"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
labels=""
pairs=""
echo "$VARIANTS" >"$B/list"
while IFS=: read -r label envs flags; do
    [ -n "$label" ] || continue
    d=$B/$label
    mkdir -p "$d"
    ev=$( [ "$envs" = - ] || [ -z "$envs" ] || echo "$envs" | tr , ' ')
    if [ -n "$PRE" ] && [ -f "$PRE/$label.h" ]; then
        cp "$PRE/$label.h" "$d/bench.h"
    else
        # shellcheck disable=SC2086
        env $ev "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 $flags -o "$d/bench.h" 2>"$d/tkc.log" \
            || { echo "$label: tkc failed"; sed 's/^/    /' "$d/tkc.log" | head; continue; }
    fi
    if $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$d" -o "$d/bench" tests/gpu/bench_mm.c -lm -ldl \
        && $CC -std=c11 -O2 -fPIC -shared -DTK_HEADER='"bench.h"' -I "$d" -o "$d/lib.so" tests/gpu/bench_mm_lib.c -ldl; then
        labels="$labels $label"
        pairs="$pairs $label=$d/lib.so"
    else
        echo "$label: build failed"
    fi
done <"$B/list"
# shellcheck disable=SC2086
python3 tests/gpu/bench_mm_pair.py $pairs -- ${SIZES:-4096 8192}
cat >"$B/ref.py" <<'PY'
import sys, torch
sys.path.insert(0, "tests/gpu")
from bench_util import median_ms
for s in (4096, 8192):
    a = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(s, s, device="cuda", dtype=torch.bfloat16)
    ms = median_ms(lambda: torch.matmul(a, b), warmup=3, round_ms=20.0)
    print("torch bf16 %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (s, s, s, ms, 2 * s ** 3 / (ms * 1e-3) / 1e12))
PY
python3 "$B/ref.py"
for l in $labels; do
    case " ${ODD:-def old pp64} " in *" $l "*) "$B/$l/bench" "$l" 4095 4095 4095 16 8192 8192 ;; esac
done
