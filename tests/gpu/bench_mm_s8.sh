#!/bin/sh
# tests/gpu/bench_mm_s8.sh — issue 4, session 8: repacking (lower/gpu_stage.c,
# targets/cuda/header.c tk_cuda_repack): at 4095^3, whose rows TMA cannot
# copy, the launcher copies the operands (and C) into buffers with 16-byte
# aligned rows and runs the TMA kernel instead of NAME__nomap.  Times, in one
# run: matmul_bf16 with it (rp) and without (norp: tkc run with TKC_REPACK=0)
# next to cuBLAS in turns in one process (tests/gpu/bench_mm_pair.py) at
# 4095^3 and 4096^3; bench_mm.c (one process, TKC_REPACK=0 at run time for
# the other column) for bf16 / f16 at 4095^3 and the aligned shapes; tf32
# with mma.sync (dt, the default) and wgmma .tf32 (wg3: TKC_WG_DTYPE=3) at
# 4096^3 and 4095^3; at 2047^3 and 1000 x 4095 x 4095 (grids below one program
# per multiprocessor: no repacking by default) forced on (TKC_REPACK=1) and off;
# the references (torch).
# PRE=DIR: headers built beforehand as DIR/LABEL.h (rp, norp, rp16, dt, wg3).
#
#   PRE=DIR sh tests/gpu/bench_mm_s8.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-s8
CC=${CC:-gcc}
PRE=${PRE:-}
mkdir -p "$B"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
hdr() {   # LABEL ENV KERNELS
    mkdir -p "$B/$1"
    if [ -n "$PRE" ] && [ -f "$PRE/$1.h" ]; then cp "$PRE/$1.h" "$B/$1/bench.h"; return; fi
    env $2 "$TKC" stdlib/matmul.tk --target=cuda --kernel=$3 -o "$B/$1/bench.h" 2>"$B/$1/tkc.log"
}
hdr rp TKC_REPACK=1 matmul_bf16 && hdr norp TKC_REPACK=0 matmul_bf16 && hdr rp16 TKC_REPACK=1 matmul_f16 \
    && hdr dt TKC_REPACK=1 matmul_tf32,matmul_i8 && hdr wg3 TKC_WG_DTYPE=3 matmul_tf32,matmul_i8 || exit 1
for v in rp norp; do
    $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$B/$v" -o "$B/$v/bench" tests/gpu/bench_mm.c -lm -ldl || exit 1
    $CC -std=c11 -O2 -fPIC -shared -DTK_HEADER='"bench.h"' -I "$B/$v" -o "$B/$v/lib.so" tests/gpu/bench_mm_lib.c -ldl || exit 1
done
$CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -DBENCH_F16 -I "$B/rp16" -o "$B/rp16/bench" tests/gpu/bench_mm.c -lm -ldl || exit 1
for v in dt wg3; do
    $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$B/$v" -I tests/gpu -o "$B/$v/bench" tests/gpu/bench_dtype.c -lm -ldl || exit 1
done
echo "== pair (bf16, cuBLAS in turns; rp = repacking, norp = NAME__nomap)"
PAIR_ROUNDS=${PAIR_ROUNDS:-15} python3 tests/gpu/bench_mm_pair.py rp="$B/rp/lib.so" norp="$B/norp/lib.so" -- 4095 4096
echo "== bench_mm.c bf16 / f16 (TKC_REPACK=0: the same header without repacking)"
"$B/rp/bench" rp 4095 4095 4095 4096 4096 4096 8192 8192 8192
TKC_REPACK=0 "$B/rp/bench" rp=0 4095 4095 4095 2047 2047 2047 1000 4095 4095
TKC_REPACK=1 "$B/rp/bench" rp=1 2047 2047 2047 1000 4095 4095
"$B/rp16/bench" rp16 4095 4095 4095 4096 4096 4096
TKC_REPACK=0 "$B/rp16/bench" rp16=0 4095 4095 4095
echo "== tf32 (dt: mma.sync, wg3: wgmma .tf32) and i8"
"$B/dt/bench" tf32 4096 4096 4096 4095 4095 4095
"$B/wg3/bench" tf32 4096 4096 4096 4095 4095 4095 8192 8192 8192
TKC_REPACK=0 "$B/wg3/bench" tf32 4095 4095 4095
"$B/dt/bench" i8 4096 4096 4096 4095 4095 4095
TKC_REPACK=0 "$B/dt/bench" i8 4095 4095 4095
cat >"$B/ref.py" <<'PY'
import sys, torch
sys.path.insert(0, "tests/gpu")
from bench_util import median_ms
torch.backends.cuda.matmul.allow_tf32 = True
for dt, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16"), (torch.float32, "tf32")):
    for m, n, k in ((4096, 4096, 4096), (4095, 4095, 4095), (2047, 2047, 2047), (1000, 4095, 4095), (8192, 8192, 8192)):
        if name != "tf32" and m == 8192:
            continue
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, n, device="cuda", dtype=dt)
        ms = median_ms(lambda: torch.matmul(a, b), warmup=3, round_ms=20.0)
        print("torch %-4s %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (name, m, n, k, ms, 2 * m * n * k / (ms * 1e-3) / 1e12))
for s in (4096, 4095):
    a = torch.randint(-128, 127, (s, s), device="cuda", dtype=torch.int8)
    b = torch.randint(-128, 127, (s, s), device="cuda", dtype=torch.int8)
    try:
        ms = median_ms(lambda: torch._int_mm(a, b), warmup=3, round_ms=20.0)
        print("torch i8   %dx%dx%d %10.3f ms %8.1f TOP/s" % (s, s, s, ms, 2 * s ** 3 / (ms * 1e-3) / 1e12))
    except RuntimeError as e:
        print("torch i8 %d: %s" % (s, str(e).splitlines()[0]))
PY
python3 "$B/ref.py"
