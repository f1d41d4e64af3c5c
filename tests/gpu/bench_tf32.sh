#!/bin/sh
# tests/gpu/bench_tf32.sh — tf32 matmul variants (tests/gpu/bench_tf32.tk,
# tests/gpu/bench_tf32.c) next to torch.matmul with allow_tf32 (cuBLAS), same
# run: stdlib matmul_tf32, and c = a @ b as transpose_f32(b) + a K-major-B
# kernel (matmul_tf32_nt and 128 x 256 variants), plus each of those alone
# and the transpose alone.  WHAT: the variants (bench_tf32.c); SHAPES: M N K
# triples; BUILDS: headers built with knobs and what each times (lines
# prefixed with the build's name).  The default "in" build has TMA round both
# operands as it copies them (maps of data type TFLOAT32, TKC_WGDT_TMAROUND on
# by default since h100-s11-tf32-4.log; A still from registers); "ip" rounds
# in place as before (TKC_WGDT_TMAROUND=0, A in registers, B in shared
# memory); "tma" reads A from shared memory as TMA left it (TKC_WGDT_BKRA=0).
# The check is against operands rounded to nearest even; random operands
# hardly tell roundings apart (tests/run/tf32_round.c does).
# Uses build/tkc as it is.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-bench-tf32
CC=${CC:-gcc}
SHAPES=${SHAPES:-"4096 4096 4096 8192 8192 8192 4095 4095 4095"}
# builds: NAME ENV WHAT..., ';' between them (ENV: VAR=VALUE[,VAR=VALUE]; '-' none)
BUILDS=${BUILDS:-"in - base matmul_tf32_nt nt_256 =matmul_tf32_nt tr;
ip TKC_WGDT_TMAROUND=0 matmul_tf32_nt =matmul_tf32_nt;
tma TKC_WGDT_BKRA=0 matmul_tf32_nt =matmul_tf32_nt"}
mkdir -p "$B"
echo "tkc tf32 matmul variants ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
K="matmul_tf32,matmul_tf32_nt,transpose_f32,nt_256,nt_ws128,mm_old,tn_plain,tn_ws"
build() {   # $1: name, $2: env
    s=$1; ev=$(echo "$2" | tr ',' ' '); [ "$ev" = - ] && ev=""
    # shellcheck disable=SC2086
    if ! env $ev "$TKC" tests/gpu/bench_tf32.tk --target=cuda --kernel=$K ${FLAGS:-} -o "$B/bench-$s.h" 2>"$B/tkc-$s.log"; then
        echo "bench_tf32: tkc failed"; sed 's/^/    /' "$B/tkc-$s.log"; return 1
    fi
    mkdir -p "$B/h-$s"; cp "$B/bench-$s.h" "$B/h-$s/bench.h"
    $CC -std=c11 -O2 -Wall -Wextra -DBENCH_MODULE=tk_cuda_mod_TKC_BENCH_TF32_TK -I "$B/h-$s" -I tests/gpu \
        -o "$B/bench-$s" tests/gpu/bench_tf32.c -lm -ldl
}
rc=0
echo "$BUILDS" | tr ';' '\n' | while read -r name ev what; do
    [ -n "$name" ] || continue
    build "$name" "$ev" || { rc=1; continue; }
    for w in $what; do
        # shellcheck disable=SC2086
        "$B/bench-$name" "$w" $SHAPES | sed "s/^/$name: /"
    done
done
PTXAS=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
DIS=${CUDA_HOME:-/usr/local/cuda}/bin/cuobjdump
# shellcheck disable=SC2086
if [ -x "$PTXAS" ] && [ -x "$DIS" ] && "$TKC" tests/gpu/bench_tf32.tk --target=cuda --kernel=$K ${FLAGS:-} \
        --emit=ptx -o "$B/k.ptx" 2>/dev/null; then
    "$PTXAS" -arch=sm_90a -v -o "$B/k.cubin" "$B/k.ptx" 2>&1 | awk '/entry function/ { f = $7 } /Used/ { print "ptxas: " f " " $5 " registers" } /spill/ && $5 + $9 > 0 { print "ptxas: " f " " $0 }'
    "$DIS" -sass "$B/k.cubin" >"$B/k.sass"
    awk '/Function :/ { f = $3 } /HGMMA.*TF32/ { g[f]++ } /STS/ { s[f]++ } /LDS/ { l[f]++ }
         END { for (f in g) printf "sass: %-24s %3d HGMMA tf32, %3d STS, %3d LDS\n", f, g[f], s[f], l[f] }' "$B/k.sass" | sort
    echo "sass: e.g. $(grep -m1 -o 'HGMMA[^;]*TF32[^;]*' "$B/k.sass")"
fi
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    # shellcheck disable=SC2086
    python3 - $SHAPES <<'PY'
import sys
import torch
sys.path.insert(0, "tests/gpu")
from bench_util import median_ms
torch.backends.cuda.matmul.allow_tf32 = True
v = [int(x) for x in sys.argv[1:]]
for i in range(0, len(v) - 2, 3):
    m, n, k = v[i:i + 3]
    a = torch.rand(m, k, device="cuda") * 2 - 1
    b = torch.rand(k, n, device="cuda") * 2 - 1
    ms = median_ms(lambda: torch.matmul(a, b), warmup=1)
    print("torch %-16s %dx%dx%d %10.3f ms %8.1f TFLOP/s" % ("tf32", m, n, k, ms, 2.0 * m * n * k / (ms * 1e-3) / 1e12))
    del a, b
    torch.cuda.empty_cache()
PY
else
    echo "no python3 with torch and CUDA: references skipped"
fi
exit $rc
