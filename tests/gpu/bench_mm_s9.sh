#!/bin/sh
# tests/gpu/bench_mm_s9.sh — issue 4, session 9 (s9-mm): the TMA-stored
# epilogue's experiments (lower/gpu.c, frag_store_tma) in one run, headers
# built beforehand as PRE/LABEL.h (cubins inside) by tests/gpu/bench_mm_s9_pre.sh:
#   def    the default
#   wgbar  TKC_EPI_WGBAR=1 (a named barrier per consumer warpgroup)
#   db     TKC_EPI_DB=1 (one box per chunk, the buffer's two alternating)
#   both   wgbar + db;  all: both + TKC_TMA_STORE=2 (the kernel's end waits
#          only for the stores' reads of shared memory)
#   def16, all16: the same for matmul_f16 (no @launch: every warp copies)
#   ws16, wsall16: matmul_f16 -D specialize=1 -D persistent=1 (bf16's
#          default launch), without and with `all`'s knobs
# Then: SASS counts of PRE/*.cubin (cuobjdump), the variants and cuBLAS in
# turns in one process (tests/gpu/bench_mm_pair.py, bf16 then f16, medians
# of the per-round ratios), the run tests of the wgmma paths with the
# knobs of `all` on (cuda pass + compute-sanitizer memcheck), and ROUNDS
# rounds of bench_mm.c processes (def / all, def16 / all16) with cuBLAS
# timed by its own process after each (bench_mm.sh's way).
#
# BF, FH: the variant lists (bf16, f16); SEP_BF, SEP_FH: those of the
# bench_mm.c rounds; RT_ENV: the run tests' knobs (empty: the defaults);
# DISPATCH=1: also tests/gpu/mm_dispatch.sh (stdlib/matmul.tktune's header).
#
#   PRE=DIR [ROUNDS=1] [PAIR_ROUNDS=30] sh tests/gpu/bench_mm_s9.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
PRE=${PRE:?PRE=DIR of prebuilt headers}
B=build/gpu-s9
CC=${CC:-gcc}
CUDA=${CUDA_HOME:-/usr/local/cuda}
mkdir -p "$B"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
BF=${BF:-def wgbar db both all}
FH=${FH:-def16 all16 ws16 wsall16}
for v in $BF $FH; do     # in parallel: a header with its cubin takes seconds to compile
    mkdir -p "$B/$v"
    cp "$PRE/$v.h" "$B/$v/bench.h" || exit 1
    f="" g=""
    case $v in *16) f=-DTKB_F16 g=-DBENCH_F16 ;; esac
    $CC -std=c11 -O2 -fPIC -shared $f -DTK_HEADER='"bench.h"' -I "$B/$v" -o "$B/$v/lib.so" tests/gpu/bench_mm_lib.c -ldl &
    $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK $g -I "$B/$v" -o "$B/$v/bench" tests/gpu/bench_mm.c -lm -ldl &
done
wait
for v in $BF $FH; do
    [ -f "$B/$v/lib.so" ] && [ -x "$B/$v/bench" ] || { echo "$v: build failed"; exit 1; }
done
for c in "$PRE"/*.cubin; do
    "$CUDA/bin/cuobjdump" -sass "$c" >"$B/k.sass" 2>/dev/null
    echo "$(basename "$c") sass: $(grep -c HGMMA "$B/k.sass") HGMMA ($(grep -o 'HGMMA\.[0-9x]*' "$B/k.sass" | sort -u | tr '\n' ' ')), $(grep -c 'BAR.SYNC' "$B/k.sass") BAR.SYNC, $(grep -c 'UBLKCP\|UTMASTG\|UTMALDG' "$B/k.sass") TMA"
done
export PAIR_ROUNDS=${PAIR_ROUNDS:-30}
p=""
for v in $BF; do p="$p $v=$B/$v/lib.so"; done
# shellcheck disable=SC2086
timeout 90 python3 tests/gpu/bench_mm_pair.py $p -- 4096 8192
p=""
for v in $FH; do p="$p $v=$B/$v/lib.so"; done
# shellcheck disable=SC2086
PAIR_DTYPE=f16 timeout 70 python3 tests/gpu/bench_mm_pair.py $p -- 4096 8192
RT_ENV=${RT_ENV-TKC_EPI_WGBAR=1 TKC_EPI_DB=1 TKC_TMA_STORE=2}
echo "run tests, with [$RT_ENV] (cuda + memcheck):"
# shellcheck disable=SC2086
env $RT_ENV TKC_GPU_NVPTX=0 timeout 100 sh tests/gpu/run.sh mma mma_ws mma_pipe mma_odd mma_repack matmul_dtypes 2>&1 | tail -8
[ "${DISPATCH:-0}" = 1 ] && timeout 60 sh tests/gpu/mm_dispatch.sh 2>&1 | tail -12
cat >"$B/ref.py" <<'PY'
import sys, torch
sys.path.insert(0, "tests/gpu")
from bench_util import median_ms
dt = {"bf16": torch.bfloat16, "f16": torch.float16}[sys.argv[1]]
for s in (4096, 8192):
    a = torch.rand(s, s, device="cuda", dtype=dt) * 2 - 1
    b = torch.rand(s, s, device="cuda", dtype=dt) * 2 - 1
    ms = median_ms(lambda: torch.matmul(a, b), warmup=3, round_ms=20.0)
    print("torch %s %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (sys.argv[1], s, s, s, ms, 2 * s ** 3 / (ms * 1e-3) / 1e12))
PY
r=1
while [ "$r" -le "${ROUNDS:-1}" ]; do
    for v in ${SEP_BF:-def all}; do timeout 20 "$B/$v/bench" "$v" 4096 4096 4096 8192 8192 8192; done
    timeout 20 python3 "$B/ref.py" bf16
    for v in ${SEP_FH:-def16 ws16 wsall16}; do timeout 20 "$B/$v/bench" "$v" 4096 4096 4096 8192 8192 8192; done
    timeout 20 python3 "$B/ref.py" f16
    r=$((r + 1))
done
