#!/bin/sh
# tests/gpu/bench_mm_s8_sweep.sh — issue 4, session 8: where repacking pays
# (targets/cuda/header.c tk_cuda_repack_on): matmul_bf16 at unaligned shapes
# of a range of work per copied byte (2 M N K over the bytes the copies move:
# 16 at 4095 x 4095 x 64 .. 512 at 4095^3), each forced on (TKC_REPACK=1) and
# off (=0), then with the launcher's own choice, next to torch.matmul
# (cuBLAS); then matmul_tf32 with its new default (wgmma .tf32 in NAME,
# mma.sync in NAME__nomap: tf) and the old (mma.sync: TKC_WG_DTYPE=2, tf2).
# First rp against crp (the result repacked too, not stored by the threads)
# in turns with cuBLAS at 4095^3, 4096^3, 8192^3.
# PRE=DIR: headers built beforehand as DIR/LABEL.h (rp, crp, tf, tf2).
#
#   PRE=DIR sh tests/gpu/bench_mm_s8_sweep.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-s8s
CC=${CC:-gcc}
PRE=${PRE:-}
mkdir -p "$B"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
hdr() {   # LABEL ENV KERNELS
    mkdir -p "$B/$1"
    if [ -n "$PRE" ] && [ -f "$PRE/$1.h" ]; then cp "$PRE/$1.h" "$B/$1/bench.h"; return; fi
    env $2 "$TKC" stdlib/matmul.tk --target=cuda --kernel=$3 -o "$B/$1/bench.h" 2>"$B/$1/tkc.log"
}
hdr rp TKC_REPACK=1 matmul_bf16 && hdr crp TKC_STORE_MAP_OPT=0 matmul_bf16 && hdr tf TKC_REPACK=1 matmul_tf32,matmul_i8 \
    && hdr tf2 TKC_WG_DTYPE=2 matmul_tf32,matmul_i8 || exit 1
for v in rp crp; do
    $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$B/$v" -o "$B/$v/bench" tests/gpu/bench_mm.c -lm -ldl || exit 1
    $CC -std=c11 -O2 -fPIC -shared -DTK_HEADER='"bench.h"' -I "$B/$v" -o "$B/$v/lib.so" tests/gpu/bench_mm_lib.c -ldl || exit 1
done
echo "== pair: rp (a result whose rows TMA cannot take stored by the threads) and crp (repacked too: h100-s8-mm-1.log's)"
PAIR_ROUNDS=${PAIR_ROUNDS:-10} python3 tests/gpu/bench_mm_pair.py rp="$B/rp/lib.so" crp="$B/crp/lib.so" -- 4095 4096 8192
for v in tf tf2; do
    $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$B/$v" -I tests/gpu -o "$B/$v/bench" tests/gpu/bench_dtype.c -lm -ldl || exit 1
done
# M N K, by work per copied byte: 16 31 32 59 60 64 108 114 128 187 205 256
S="4095 4095 64  64 4095 4095  255 255 255  128 4095 4095  4095 4095 255  511 511 511  256 4095 4095 \
   4095 4095 511  1023 1023 1023  512 4095 4095  4095 4095 1023  2047 2047 2047"
echo "== bf16 repacking forced on (rp=1) and off (rp=0), then the launcher's choice (rp)"
# shellcheck disable=SC2086
TKC_REPACK=1 "$B/rp/bench" rp=1 $S
# shellcheck disable=SC2086
TKC_REPACK=0 "$B/rp/bench" rp=0 $S
# shellcheck disable=SC2086
"$B/rp/bench" rp $S 4095 4095 4095
echo "== tf32: tf (wgmma in NAME, mma.sync in NAME__nomap) and tf2 (mma.sync)"
"$B/tf/bench" tf32 4096 4096 4096 8192 8192 8192 4095 4095 4095 4095 4095 64 1000 4095 4095
"$B/tf2/bench" tf32 4096 4096 4096 8192 8192 8192 4095 4095 4095 4095 4095 64 1000 4095 4095
cat >"$B/ref.py" <<PY
import sys, torch
sys.path.insert(0, "tests/gpu")
from bench_util import median_ms
torch.backends.cuda.matmul.allow_tf32 = True
s = [int(x) for x in "$S".split()]
for dt, name, shapes in ((torch.bfloat16, "bf16", list(zip(s[0::3], s[1::3], s[2::3]))),
                         (torch.float32, "tf32", [(4095, 4095, 64), (1000, 4095, 4095)])):
    for m, n, k in shapes:
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, n, device="cuda", dtype=dt)
        ms = median_ms(lambda: torch.matmul(a, b), warmup=3, round_ms=20.0)
        print("torch %-4s %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (name, m, n, k, ms, 2 * m * n * k / (ms * 1e-3) / 1e12))
PY
python3 "$B/ref.py"
