#!/bin/sh
# tests/gpu/bench_mm_s8_check.sh — issue 4, session 8, after the repacking
# threshold went to 4 flop per copied byte (targets/cuda/header.c
# TK_REPACK_INTENSITY): stdlib matmul_bf16 with the launcher's own choice at
# the unaligned shapes of bench_mm_s8_sweep.sh, at 16 x 4095^2 (8 flop per
# byte: repacked) and 1 x 4095^2 (0.5: NAME__nomap) each also forced on and
# off, matmul_f16 at 4095^3 / 4096^3, and torch.matmul (cuBLAS) at each.
# PRE=DIR: headers built beforehand as DIR/LABEL.h (rp, rp16).
#
#   PRE=DIR sh tests/gpu/bench_mm_s8_check.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-s8c
CC=${CC:-gcc}
PRE=${PRE:-}
mkdir -p "$B"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
hdr() {   # LABEL KERNELS
    mkdir -p "$B/$1"
    if [ -n "$PRE" ] && [ -f "$PRE/$1.h" ]; then cp "$PRE/$1.h" "$B/$1/bench.h"; return; fi
    "$TKC" stdlib/matmul.tk --target=cuda --kernel=$2 -o "$B/$1/bench.h" 2>"$B/$1/tkc.log"
}
hdr rp matmul_bf16 && hdr rp16 matmul_f16 || exit 1
$CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$B/rp" -o "$B/rp/bench" tests/gpu/bench_mm.c -lm -ldl || exit 1
$CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -DBENCH_F16 -I "$B/rp16" -o "$B/rp16/bench" tests/gpu/bench_mm.c -lm -ldl || exit 1
S="4095 4095 64  64 4095 4095  255 255 255  128 4095 4095  4095 4095 255  511 511 511  256 4095 4095 \
   4095 4095 511  1023 1023 1023  512 4095 4095  4095 4095 1023  2047 2047 2047  4095 4095 4095  16 4095 4095  1 4095 4095"
echo "== bf16, the launcher's choice (rp), then 16 x 4095^2 and 1 x 4095^2 forced on (rp=1) and off (rp=0)"
# shellcheck disable=SC2086
"$B/rp/bench" rp $S
TKC_REPACK=1 "$B/rp/bench" rp=1 16 4095 4095 1 4095 4095
TKC_REPACK=0 "$B/rp/bench" rp=0 16 4095 4095 1 4095 4095
echo "== f16"
"$B/rp16/bench" rp16 4095 4095 4095 4096 4096 4096
cat >"$B/ref.py" <<PY
import sys, torch
sys.path.insert(0, "tests/gpu")
from bench_util import median_ms
s = [int(x) for x in "$S".split()]
for dt, name, shapes in ((torch.bfloat16, "bf16", list(zip(s[0::3], s[1::3], s[2::3]))),
                         (torch.float16, "f16", [(4095, 4095, 4095), (4096, 4096, 4096)])):
    for m, n, k in shapes:
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, n, device="cuda", dtype=dt)
        ms = median_ms(lambda: torch.matmul(a, b), warmup=3, round_ms=20.0)
        print("torch %-4s %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (name, m, n, k, ms, 2 * m * n * k / (ms * 1e-3) / 1e12))
PY
python3 "$B/ref.py"
