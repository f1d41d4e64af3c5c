#!/bin/sh
# tests/gpu/bench_mm_s5.sh — matmul_bf16 variants side by side in one run
# (issue 4: the bf16 main loop and epilogue), cuBLAS in the same run.
#
#   sh tests/gpu/bench_mm_s5.sh 'NAME|-D flags|ENV=V ...' ...
#
# Per variant: ptxas's resource report, SASS counts (nvdisasm when found),
# then ROUNDS (2) rounds over the variants of the timings at 4096^3 and
# 8192^3 (checked at sampled elements against float64 by bench_mm.c).  KSWEEP=NAME (1: the first): that variant at
# M = N = 4096 and K = 512 .. 8192 (the fixed cost per tile is the
# intercept).  NCU=1: a few Nsight Compute counters of the first variant at
# 4096^3.  Then torch.matmul (cuBLAS) at the same shapes.  Uses build/tkc.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-bench-s5
CC=${CC:-gcc}
CUDA=${CUDA_HOME:-/usr/local/cuda}
DIS=""
for p in "$CUDA/bin/nvdisasm" nvdisasm; do command -v "$p" >/dev/null 2>&1 && { DIS=$p; break; }; done
mkdir -p "$B"
first=""
built=""
for spec in "$@"; do
    n=${spec%%|*}; r=${spec#*|}; f=${r%%|*}; e=${r#*|}
    [ "$e" = "$r" ] && e=""
    d=$B/$n
    mkdir -p "$d"
    # shellcheck disable=SC2086
    if ! env $e "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 $f -o "$d/bench.h" 2>"$d/tkc.log" \
        || ! $CC -std=c11 -O2 -Wall -Wextra -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$d" \
            -o "$d/bench" tests/gpu/bench_mm.c -lm -ldl 2>>"$d/tkc.log"; then
        echo "$n: build failed"; sed 's/^/    /' "$d/tkc.log"; continue
    fi
    [ -z "$first" ] && first=$n
    # shellcheck disable=SC2086
    env $e "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 $f --emit=ptx -o "$d/k.ptx" 2>/dev/null
    if [ -x "$CUDA/bin/ptxas" ]; then
        "$CUDA/bin/ptxas" -arch=sm_90a -v -o "$d/k.cubin" "$d/k.ptx" 2>&1 | grep -E "spill|registers|Performance|C75" | sed "s/^/$n ptxas: /"
        if [ -n "$DIS" ]; then
            "$DIS" -c "$d/k.cubin" >"$d/k.sass" 2>/dev/null
            echo "$n sass: $(grep -c HGMMA "$d/k.sass") HGMMA, $(grep -c 'STL' "$d/k.sass") STL, $(grep -c 'UTMASTG' "$d/k.sass") UTMASTG, $(grep -c 'UTMALDG' "$d/k.sass") UTMALDG"
        fi
    fi
    built="$built $n"
done
# rounds outermost, so that the card's clock drifts over all variants alike
for rr in $(seq "${ROUNDS:-2}"); do
    for n in $built; do
        "$B/$n/bench" mma 4096 4096 4096 8192 8192 8192 | sed "s/^/$n /"
    done
done
ks=${KSWEEP:-0}
[ "$ks" = 1 ] && ks=$first
if [ "$ks" != 0 ] && [ -x "$B/$ks/bench" ]; then
    "$B/$ks/bench" mma 4096 4096 512 4096 4096 1024 4096 4096 2048 4096 4096 4096 4096 4096 8192 | sed "s/^/$ks ksweep /"
fi
if [ "${NCU:-0}" = 1 ] && [ -n "$first" ]; then
    NCUB=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    [ -n "$NCUB" ] && "$NCUB" --clock-control none --kernel-name matmul_bf16 --launch-skip 2 --launch-count 1 \
        --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sectors_srcunit_tex.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio \
        "$B/$first/bench" mma 4096 4096 4096 2>&1 | grep -E "^ +[a-z]|tkc" | sed "s/^/$first ncu /"
fi
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    python3 - <<'EOF'
import torch
from torch.utils.benchmark import Timer
for n in (4096, 8192):
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    for r in range(2):
        for _ in range(3):
            torch.matmul(a, b)
        torch.cuda.synchronize()
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
        ts = []
        for _ in range(7):
            ev[0].record()
            reps = 20 if n == 4096 else 5
            for _ in range(reps):
                torch.matmul(a, b)
            ev[1].record()
            torch.cuda.synchronize()
            ts.append(ev[0].elapsed_time(ev[1]) / reps)
        ts.sort()
        ms = ts[3]
        print("torch bf16 %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (n, n, n, ms, 2 * n ** 3 / ms / 1e9))
EOF
fi
