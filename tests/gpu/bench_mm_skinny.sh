#!/bin/sh
# tests/gpu/bench_mm_skinny.sh — issue 4, few rows (M = 16, N = K = 8192
# bf16: B alone is 128 MiB, bandwidth-bound): stdlib matmul_bf16 tiles for
# small M, each built with -D (VARS below), timed by bench_mm.c (checked at
# 512 sampled elements against float64) at M = 1, 16, 17, 64, 128 with
# N = K = 8192, then a header dispatching between the skinny variant and the
# default through stdlib/matmul.tktune (--max-autotune --tune-table, no
# timing) next to the default header (bf16 and f16; M from 1 to 1024 with
# N = K = 8192, 4096^3, 8192^3, 4095^3), and torch.matmul (cuBLAS), same run.
#
#   sh tests/gpu/bench_mm_skinny.sh            # VARS=none: the dispatch only
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-skinny
CC=${CC:-gcc}
mkdir -p "$B"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
SH="1 8192 8192 16 8192 8192 17 8192 8192 64 8192 8192 128 8192 8192 200 8192 8192 256 8192 8192"
VARS=${VARS:-"
s16x64:-D BM=16 -D BN=64 -D BK=128 -D warps=4 -D stages=3 -D specialize=false -D persistent=false
s16x64s4:-D BM=16 -D BN=64 -D BK=128 -D warps=4 -D stages=4 -D specialize=false -D persistent=false
s16x32:-D BM=16 -D BN=32 -D BK=128 -D warps=2 -D stages=4 -D specialize=false -D persistent=false
w64x64ws6:-D BM=64 -D BN=64 -D BK=64 -D warps=4 -D stages=6 -D specialize=true -D persistent=false
w64x64ws8:-D BM=64 -D BN=64 -D BK=64 -D warps=4 -D stages=8 -D specialize=true -D persistent=false
w64x128ws8:-D BM=64 -D BN=128 -D BK=64 -D warps=4 -D stages=8 -D specialize=true -D persistent=false
w64x256ws4:-D BM=64 -D BN=256 -D BK=64 -D warps=4 -D stages=4 -D specialize=true -D persistent=false
w64x32ws8:-D BM=64 -D BN=32 -D BK=64 -D warps=4 -D stages=8 -D specialize=true -D persistent=false
w64x64k128:-D BM=64 -D BN=64 -D BK=128 -D warps=4 -D stages=4 -D specialize=false -D persistent=false
w64x64s6:-D BM=64 -D BN=64 -D BK=64 -D warps=4 -D stages=6 -D specialize=false -D persistent=false
"}
bld() {   # LABEL FLAGS...
    n=$1; shift
    mkdir -p "$B/$n"
    # shellcheck disable=SC2068
    case " $* " in *" --kernel="*) k="" ;; *) k=--kernel=matmul_bf16 ;; esac
    # shellcheck disable=SC2068
    "$TKC" stdlib/matmul.tk --target=cuda $k $@ -o "$B/$n/bench.h" 2>"$B/$n/tkc.log" \
        && $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK ${CDEF:-} -I "$B/$n" -o "$B/$n/bench" tests/gpu/bench_mm.c -lm -ldl \
        || { echo "skinny: build failed for $n"; sed 's/^/    /' "$B/$n/tkc.log"; return 1; }
}
[ "$VARS" = none ] || echo "$VARS" | while IFS=: read -r n f; do
    [ -n "$n" ] || continue
    # shellcheck disable=SC2086
    bld "$n" $f && "$B/$n/bench" "$n" $SH
done
echo "== default header vs the dispatch through stdlib/matmul.tktune (bf16, then f16)"
T=$(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune)   # every shape the table names
# shellcheck disable=SC2086
bld def && bld disp --max-autotune --tune-table stdlib/matmul.tktune $T || exit 1
DS="1 8192 8192 16 8192 8192 17 8192 8192 64 8192 8192 128 8192 8192 200 8192 8192 256 8192 8192 384 8192 8192 512 8192 8192 1024 8192 8192"
for v in def disp; do
    # shellcheck disable=SC2086
    "$B/$v/bench" "$v" $DS 4096 4096 4096 8192 8192 8192 4095 4095 4095
done
KERN16="--kernel=matmul_f16"
# shellcheck disable=SC2086
CDEF=-DBENCH_F16
bld def16 $KERN16 && bld disp16 $KERN16 --max-autotune --tune-table stdlib/matmul.tktune $T || exit 1
for v in def16 disp16; do
    "$B/$v/bench" "$v" 16 8192 8192 128 8192 8192 256 8192 8192 4096 4096 4096
done
cat >"$B/ref.py" <<'PY'
import sys, torch
sys.path.insert(0, "tests/gpu")
from bench_util import median_ms
S = ((1, 8192, 8192), (16, 8192, 8192), (17, 8192, 8192), (64, 8192, 8192), (128, 8192, 8192), (200, 8192, 8192),
     (256, 8192, 8192), (384, 8192, 8192), (512, 8192, 8192), (1024, 8192, 8192), (4096, 4096, 4096), (8192, 8192, 8192), (4095, 4095, 4095))
for dt, name in ((torch.bfloat16, "bf16"), (torch.float16, "f16")):
    for m, n, k in S:
        if name == "f16" and (m, n) not in ((16, 8192), (128, 8192), (256, 8192), (4096, 4096)):
            continue
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, n, device="cuda", dtype=dt)
        ms = median_ms(lambda: torch.matmul(a, b), warmup=3, round_ms=20.0)
        print("torch %-4s %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (name, m, n, k, ms, 2 * m * n * k / (ms * 1e-3) / 1e12))
PY
python3 "$B/ref.py"
