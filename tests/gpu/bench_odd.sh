#!/bin/sh
# tests/gpu/bench_odd.sh — stdlib matmul_bf16 where the TMA path does not
# apply or the default tile leaves the GPU idle: the odd shape 4095^3 (rows
# not 16-byte aligned: no tensor maps, the cp.async path) with the default
# element copy of unaligned chunks (off) and the word loads staged through
# registers (lower/gpu_stage.c: TKC_UNALIGNED=1 one operand at a time, =2
# both at once), the aligned shapes 4096^3 and 8192^3 (TMA path, same
# kernel) with each, twice; a sweep of tiles for the skinny M=16, N=K=8192;
# then cuBLAS and Triton in the same run (tests/gpu/bench_mm.py).  Uses
# build/tkc as it is.
#
#   sh tests/gpu/bench_odd.sh                 # SWEEP="..." (';'-separated -D lists) overrides the sweep
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-bench-odd
CC=${CC:-gcc}
SWEEP=${SWEEP:-"BM=16 BN=128 BK=64;BM=16 BN=64 BK=128 warps=4;BM=16 BN=64 BK=128 warps=4 stages=4;BM=16 BN=64 BK=128 warps=4 stages=6;BM=16 BN=64 BK=64 warps=4 stages=8;BM=16 BN=64 BK=256 warps=4 stages=3;BM=16 BN=32 BK=128 warps=2 stages=6;BM=16 BN=32 BK=256 warps=2 stages=4"}
mkdir -p "$B/dump"

build() {   # NAME FLAGS...
    n=$1; shift
    d=$B/$n; mkdir -p "$d"
    # shellcheck disable=SC2068
    if ! TKC_LOGS=nvrtc "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 $@ -o "$d/bench.h" 2>"$d/tkc.log"; then
        echo "bench_odd: tkc failed for $n"; sed 's/^/    /' "$d/tkc.log"; return 1
    fi
    $CC -std=c11 -O2 -Wall -Wextra -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$d" \
        -o "$d/bench" tests/gpu/bench_mm.c -lm -ldl || return 1
    # shellcheck disable=SC2068
    "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 $@ --emit=ptx -o "$d/k.ptx" 2>/dev/null
    P=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
    [ -x "$P" ] && echo "ptxas $n: $("$P" -arch=sm_90a -v -o /dev/null "$d/k.ptx" 2>&1 | grep -o 'Used [0-9]* registers.*')"
    return 0
}

echo "tkc bf16 odd/skinny matmul benchmark ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
TKC_UNALIGNED=1 build one && { BENCH_DUMP=$B/dump "$B/one/bench" mma 4095 4095 4095; "$B/one/bench" mma 4096 4096 4096 8192 8192 8192; } | sed 's/^tkc  /one  /'
TKC_UNALIGNED=2 build both && "$B/both/bench" mma 4095 4095 4095 4096 4096 4096 8192 8192 8192 | sed 's/^tkc  /both /'
TKC_UNALIGNED= build off && "$B/off/bench" mma 4095 4095 4095 4096 4096 4096 8192 8192 8192 | sed 's/^tkc  /off  /'
"$B/one/bench" mma 4095 4095 4095 4096 4096 4096 8192 8192 8192 | sed 's/^tkc  /one  /'
"$B/off/bench" mma 4095 4095 4095 4096 4096 4096 8192 8192 8192 | sed 's/^tkc  /off  /'
i=0
echo "$SWEEP" | tr ';' '\n' | while read -r cfg; do
    i=$((i + 1))
    f=$(for x in $cfg; do printf -- '-D %s ' "$x"; done)
    # shellcheck disable=SC2086
    TKC_UNALIGNED= build "sk$i" $f >/dev/null && printf '%-40s ' "$cfg" && "$B/sk$i/bench" mma 16 8192 8192 | tail -1
done
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    python3 tests/gpu/bench_mm.py "$B/dump"
else
    echo "no python3 with torch and CUDA: references skipped"
fi
