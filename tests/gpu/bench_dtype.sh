#!/bin/sh
# tests/gpu/bench_dtype.sh — the tf32 and i8 matmuls on tensor cores: tkc
# (stdlib matmul_tf32: mma.sync m16n8k8, wgmma .tf32 with TKC_WG_DTYPE=3;
# matmul_i8: wgmma .s8 on sm_90a, else mma.sync m16n8k32) next
# to torch.matmul with allow_tf32 and torch._int_mm, same run, at 4096^3,
# 8192^3 and 4095^3.  Each tkc result is checked at sampled elements
# (tests/gpu/bench_dtype.c).  Uses build/tkc as it is; FLAGS adds tkc flags.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-bench-dtype
CC=${CC:-gcc}
mkdir -p "$B"; rm -f "$B/tkc.txt"
echo "tkc tf32 / i8 matmul benchmark ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# shellcheck disable=SC2086
if ! TKC_LOGS=nvrtc "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_tf32,matmul_i8 ${FLAGS:-} \
        -o "$B/bench.h" 2>"$B/tkc.log"; then
    echo "bench_dtype: tkc failed"; sed 's/^/    /' "$B/tkc.log"; exit 1
fi
echo "nvrtc: $(sed -n 's/^\[nvrtc\] //p' "$B/tkc.log")"
$CC -std=c11 -O2 -Wall -Wextra -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$B" -I tests/gpu \
    -o "$B/bench" tests/gpu/bench_dtype.c -lm -ldl || exit 1
rc=0
for dt in tf32 i8; do
    "$B/bench" $dt 4096 4096 4096 8192 8192 8192 4095 4095 4095 | tee -a "$B/tkc.txt" || rc=1
done
# SASS of both kernels: HGMMA / HMMA (tf32) and IGMMA / IMMA (s8) instructions
PTXAS=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
DIS=${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump
# shellcheck disable=SC2086
if [ -x "$PTXAS" ] && [ -x "$DIS" ] && "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_tf32,matmul_i8 ${FLAGS:-} \
        --emit=ptx -o "$B/k.ptx" 2>/dev/null; then
    "$PTXAS" -arch=sm_90a -v -o "$B/k.cubin" "$B/k.ptx" 2>&1 | grep -i "registers\|spill" | sed 's/^/ptxas: /'
    "$DIS" -sass "$B/k.cubin" >"$B/k.sass"
    echo "sass: $(grep -c 'HMMA.*TF32' "$B/k.sass") HMMA tf32, $(grep -c 'IMMA' "$B/k.sass") IMMA, $(grep -c 'HGMMA.*TF32' "$B/k.sass") HGMMA tf32, $(grep -c 'IGMMA' "$B/k.sass") IGMMA; e.g. $(grep -m1 -o 'H*G*MMA[^;]*TF32[^;]*' "$B/k.sass"), $(grep -m1 -o 'IG*MMA[^;]*' "$B/k.sass")"
fi
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    python3 tests/gpu/bench_dtype.py | tee "$B/ref.txt"
    echo "ratios (tkc / torch):"
    awk '
        FNR == NR { if ($1 == "tkc") t[$2 " " $3] = $6; next }
        $1 == "torch" && $5 == "ms" && ($2 " " $3) in t { printf "  %-5s %-16s %5.2f\n", $2, $3, t[$2 " " $3] / $6 }
    ' "$B/tkc.txt" "$B/ref.txt"
else
    echo "no python3 with torch and CUDA: references skipped"
fi
exit $rc
