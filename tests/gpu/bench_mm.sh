#!/bin/sh
# tests/gpu/bench_mm.sh — bf16 matmul on tensor cores: tkc (stdlib
# matmul_bf16: wgmma on sm_90a, mma.sync before) next to torch.matmul (cuBLAS) and a Triton matmul,
# same run.  Shapes: 4096^3, 8192^3, 4095^3 and a skinny M=16, N=K=8192;
# then stdlib matmul_f16 on the same shapes next to torch/Triton in f16.
# Each tkc result is checked at sampled elements against float64, and in
# full against torch's float32 product of the same inputs; the FMA path
# (TKC_MMA=0) is timed at 4096^3 for comparison, and the default bf16 tile
# once more with its PTX from LLVM (--codegen=llvm, the nvptx target's code
# generator; its compile time next to NVRTC's).  Uses build/tkc as it is.
#
#   sh tests/gpu/bench_mm.sh            # -D flags in TILE (default: the kernel's) / SKINNY below
#   MM_TURNS=N   the 4096^3 and 8192^3 bf16 ratios once more in N rounds of
#                tkc and cuBLAS taking turns in one process (default 10; 0: off)
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-bench-mm
CC=${CC:-gcc}
TILE=${TILE:-""}
# M=16: the tile stdlib/matmul.tktune gives up to 32 rows, computed
# transposed (SWAP=1: 64 columns of b x 16 rows of a per program) with a TMA
# producer, 8 stages (H200: 0.95x cuBLAS where session 21's 64 x 128 tile
# has 0.73x and the mma.sync 16 x 64 tiles of 4 warps 0.65x;
# doc/bench/h200-s22-m4.log, h200-s21-m1.log)
SKINNY=${SKINNY:-"-D SWAP=1 -D BM=16 -D BN=64 -D BK=64 -D warps=4 -D stages=8 -D specialize=1 -D persistent=0"}
mkdir -p "$B/dump"

KERN=matmul_bf16 CDEF=""      # the kernel build() compiles, and bench_mm.c's -D for it
build() {   # NAME FLAGS...
    n=$1; shift
    d=$B/$n; mkdir -p "$d"
    # shellcheck disable=SC2068
    log=nvrtc; case " $* " in *" --codegen=llvm "*) log=nvptx ;; esac
    if ! TKC_LOGS=$log "$TKC" stdlib/matmul.tk --target=cuda --kernel=$KERN $@ -o "$d/bench.h" 2>"$d/tkc.log"; then
        echo "bench_mm: tkc failed for $n"; sed 's/^/    /' "$d/tkc.log"; return 1
    fi
    echo "$log $n: $(sed -n "s/^\[$log\] //p" "$d/tkc.log")"
    $CC -std=c11 -O2 -Wall -Wextra -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK $CDEF -I "$d" \
        -o "$d/bench" tests/gpu/bench_mm.c -lm -ldl || return 1
    # shellcheck disable=SC2068
    "$TKC" stdlib/matmul.tk --target=cuda --kernel=$KERN $@ --emit=ptx -o "$d/k.ptx" 2>/dev/null
}

echo "tkc bf16 matmul benchmark ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# shellcheck disable=SC2086
build tile $TILE && BENCH_DUMP=$B/dump "$B/tile/bench" mma 4096 4096 4096 8192 8192 8192 4095 4095 4095 | tee "$B/tkc.txt"
# shellcheck disable=SC2086
build llvm --codegen=llvm $TILE && "$B/llvm/bench" llvm 4096 4096 4096 8192 8192 8192 4095 4095 4095 | tee -a "$B/tkc.txt"
# shellcheck disable=SC2086
build skinny $SKINNY && BENCH_DUMP=$B/dump "$B/skinny/bench" mma 16 8192 8192 | tee -a "$B/tkc.txt"
# shellcheck disable=SC2086
TKC_MMA=0 build fma $TILE && "$B/fma/bench" fma 4096 4096 4096 | tee -a "$B/tkc.txt"
# Where the tile kernel's dot reads its operands (tests/gpu/mma_map.c)
$CC -std=c11 -O2 -Wall -Wextra -I "$B/tile" -o "$B/tile/map" tests/gpu/mma_map.c -lm -ldl && "$B/tile/map"
# SASS: HGMMA (wgmma, sm_90a) or HMMA (mma.sync) in the tile kernel's cubin
PTXAS=""
for p in "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ptxas; do command -v "$p" >/dev/null 2>&1 && { PTXAS=$p; break; }; done
DIS=""
for p in "${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump" cuobjdump; do command -v "$p" >/dev/null 2>&1 && { DIS=$p; break; }; done
if [ -n "$PTXAS" ] && [ -n "$DIS" ]; then
    "$PTXAS" -arch=sm_90a -v -o "$B/tile/k.cubin" "$B/tile/k.ptx" 2>&1 | grep -i "registers" | sed 's/^/ptxas: /'
    "$DIS" -sass "$B/tile/k.cubin" >"$B/tile/k.sass"
    echo "sass: $(grep -c HGMMA "$B/tile/k.sass") HGMMA, $(grep -c 'HMMA' "$B/tile/k.sass") HMMA, $(grep -c LDSM "$B/tile/k.sass") LDSM; e.g. $(grep -m1 -o 'H[G]*MMA[^;]*' "$B/tile/k.sass")"
else
    echo "sass: no ptxas/cuobjdump"
fi
# f16: stdlib matmul_f16 (same tile choices as bf16), its references in f16
KERN=matmul_f16 CDEF=-DBENCH_F16
mkdir -p "$B/dump16"
# shellcheck disable=SC2086
build tile16 $TILE && BENCH_DUMP=$B/dump16 "$B/tile16/bench" f16 4096 4096 4096 8192 8192 8192 4095 4095 4095 | tee -a "$B/tkc.txt"
# shellcheck disable=SC2086
build skinny16 $SKINNY && BENCH_DUMP=$B/dump16 "$B/skinny16/bench" f16 16 8192 8192 | tee -a "$B/tkc.txt"
TORCH_GPU=0
python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null && TORCH_GPU=1
if [ $TORCH_GPU = 1 ]; then
    { python3 tests/gpu/bench_mm.py "$B/dump"; python3 tests/gpu/bench_mm.py "$B/dump16" f16; } | tee "$B/ref.txt"
    echo "ratios (tkc TFLOP/s / reference TFLOP/s; llvm: tkc's PTX from LLVM):"
    awk '
        FNR == NR { if ($1 == "tkc" && ($2 == "mma" || $2 == "f16")) t[($2 == "f16" ? "f16" : "bf16") " " $3] = $6
                    if ($1 == "tkc" && $2 == "llvm") l[$3] = $6; next }
        ($1 == "torch" || $1 == "trit") && (($2 " " $3) in t) {
            printf "  %-5s %-16s vs %-5s %5.2f\n", $2, $3, $1, t[$2 " " $3] / $6
            if ($2 == "bf16" && ($3 in l)) printf "  llvm  %-16s vs %-5s %5.2f\n", $3, $1, l[$3] / $6 }
        END { for (s in l) if (("bf16 " s) in t) printf "  llvm  %-16s vs nvrtc %5.2f\n", s, l[s] / t["bf16 " s] }
    ' "$B/tkc.txt" "$B/ref.txt"
else
    echo "no python3 with torch and CUDA: references skipped"
fi
# The headline shapes once more with tkc and cuBLAS taking turns in one
# process (bench_mm_var.sh / bench_mm_pair.py; MM_TURNS rounds, 0: skip):
# the ratios above come from separate processes one after the other, which
# the GPU clock's drift over a run moves by several percent either way.
MM_TURNS=${MM_TURNS:-10}
if [ "$MM_TURNS" != 0 ] && [ $TORCH_GPU = 1 ]; then
    echo "in turns with cuBLAS ($MM_TURNS rounds; matmul_bf16 as built above):"
    VARIANTS="tkc:-:$TILE" SIZES="4096 8192" PAIR_ROUNDS=$MM_TURNS OUT=$B/turns TKC=$TKC \
        sh tests/gpu/bench_mm_var.sh 2>&1 | grep -E "^pair|^check|FAIL" | sed 's/^/  /'
fi
