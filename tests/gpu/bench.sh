#!/bin/sh
# tests/gpu/bench.sh — memory-bound kernels on the GPU next to PyTorch/Triton
# (`make bench-gpu`).  8192 x 4096: softmax f32 (stdlib softmax, BLOCK=4096),
# layernorm f16 (stdlib layernorm_f16), bias + GELU + residual f32
# (stdlib bias_gelu_residual); each header --max-autotune'd for the shape.  For each: NVRTC compile time, then tkc's time
# and GB/s, the reference's, and the ratio; the device-to-device copy
# bandwidth is printed as the ceiling.  Uses build/tkc as it is.
# `sh tests/gpu/bench.sh codegen`: the same kernels untuned, PTX from NVRTC
# next to PTX from LLVM (--codegen=llvm), with each compile time.
# BENCH_KERNELS="layernorm_f16 ..." times only those kernels (softmax,
# layernorm_f16, bias_gelu_residual; default all); the references all run.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-bench
CC=${CC:-gcc}
mkdir -p "$B"

want() { case " ${BENCH_KERNELS:-softmax layernorm_f16 bias_gelu_residual} " in *" $1 "*) return 0 ;; esac; return 1; }

build() {   # KIND FILE KERNEL FLAGS...
    kind=$1; f=$2; k=$3; shift 3
    want "$k" || return 0
    d=$B/$k; mkdir -p "$d"
    if ! TKC_LOGS=nvrtc TKC_CUBIN=0 "$TKC" "$f" --target=cuda --kernel=$k "$@" --emit=ptx >"$d/k.ptx" 2>"$d/nvrtc.log"; then
        echo "bench: tkc failed for $k"; sed 's/^/    /' "$d/nvrtc.log"; return 1
    fi
    echo "nvrtc $k: $(sed -n 's/^\[nvrtc\] //p' "$d/nvrtc.log")"
    # the header as a user would build it for this shape: tuned (@autotune)
    TKC_CACHE_DIR="$d/cache" TKC_LOGS=autotune "$TKC" "$f" --target=cuda --kernel=$k "$@" \
        --max-autotune --tune M=8192,N=4096 -o "$d/bench.h" 2>"$d/tune.log" || { sed 's/^/    /' "$d/tune.log"; return 1; }
    grep -e "^\[autotune\]    *[A-Za-z(]" -e " -> " "$d/tune.log" | sed "s/^/    /"
    guard=TKC_$(basename "$f" | tr 'a-z.' 'A-Z_')
    $CC -std=c11 -O2 -Wall -Wextra -DKIND=$kind -DBENCH_MODULE=tk_cuda_mod_$guard -I "$d" \
        -o "$d/bench" tests/gpu/bench.c -lm -ldl || return 1
    "$d/bench"
}

# codegen KIND FILE KERNEL FLAGS...: the untuned header with PTX from NVRTC
# and from LLVM (--codegen=llvm, as --target=nvptx): compile time, GB/s.
codegen() {
    kind=$1; f=$2; k=$3; shift 3
    want "$k" || return 0
    guard=TKC_$(basename "$f" | tr 'a-z.' 'A-Z_')
    for cg in nvrtc llvm; do
        d=$B/$k-$cg; mkdir -p "$d"
        log=nvrtc; [ $cg = llvm ] && log=nvptx
        if ! TKC_LOGS=$log "$TKC" "$f" --target=cuda --codegen=$cg --kernel=$k "$@" -o "$d/bench.h" 2>"$d/tkc.log"; then
            echo "bench: tkc --codegen=$cg failed for $k"; sed 's/^/    /' "$d/tkc.log"; continue
        fi
        echo "$cg $k: $(sed -n "s/^\[$log\] //p" "$d/tkc.log" | head -1)"
        $CC -std=c11 -O2 -Wall -Wextra -DKIND=$kind -DLABEL="\"$cg\"" -DBENCH_MODULE=tk_cuda_mod_$guard \
            -I "$d" -o "$d/bench" tests/gpu/bench.c -lm -ldl && "$d/bench"
    done
}

if [ "${1:-}" = codegen ]; then
    echo "tkc CUDA codegen: NVRTC vs LLVM NVPTX, untuned headers, 8192 x 4096 ($(date -u +%Y-%m-%dT%H:%MZ))"
    codegen 1 stdlib/nn.tk softmax -D BLOCK=4096
    codegen 2 stdlib/nn.tk layernorm_f16 -D BLOCK=4096
    codegen 3 stdlib/vec.tk bias_gelu_residual
    exit 0
fi

echo "tkc CUDA benchmarks, 8192 x 4096 ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
: >"$B/tkc.txt"
build 1 stdlib/nn.tk softmax -D BLOCK=4096 | tee -a "$B/tkc.txt"
build 2 stdlib/nn.tk layernorm_f16 | tee -a "$B/tkc.txt"
build 3 stdlib/vec.tk bias_gelu_residual | tee -a "$B/tkc.txt"
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    python3 tests/gpu/bench_ref.py | tee "$B/ref.txt"
    echo "ratios (tkc GB/s / reference GB/s):"
    awk '
        FNR == NR { if ($1 == "tkc") { n = $0; sub(/^tkc +/, "", n); sub(/ +[0-9.]+ ms.*/, "", n); t[n] = $(NF - 1) } next }
        $1 == "copy" { copy = $(NF - 1) }
        $1 == "torch" || $1 == "trit" { n = $0; sub(/^[a-z]+ +/, "", n); sub(/ +[0-9.]+ ms.*/, "", n)
            if (n in t) printf "  %-24s vs %-5s %5.2f   (%.0f%% of copy bandwidth)\n", n, $1, t[n] / $(NF - 1), copy ? 100 * t[n] / copy : 0 }
    ' "$B/tkc.txt" "$B/ref.txt"
    # the same as bench-report lines: build/gpu-bench/report.md and report.png
    {
        head -n 2 "$B/ref.txt" | sed -n '1p'
        echo "# GPU memory-bound kernels, 8192 x 4096: tkc vs the device copy and vs the rivals (GB/s)"
        awk '
            FNR == NR { if ($1 == "tkc") { n = $0; sub(/^tkc +/, "", n); sub(/ +[0-9.]+ ms.*/, "", n); t[n] = $(NF - 1) } next }
            $1 == "copy" { copy = $(NF - 1) }
            $1 == "torch" || $1 == "trit" { n = $0; sub(/^[a-z]+ +/, "", n); sub(/ +[0-9.]+ ms.*/, "", n)
                if (!(n in t)) next
                k = n; gsub(/[^A-Za-z0-9]+/, "_", k)
                if (!(k in seen) && copy) {
                    r = t[n] / copy; seen[k] = 1
                    printf "%s_vs_copy[GB/s] tkc=%.1f rival=%.1f ratio=%.2f goal=>=0.9 [%s]\n", k, t[n], copy, r, (r >= 0.9 ? "met" : "MISSED")
                }
                r = t[n] / $(NF - 1)
                printf "%s_vs_%s[GB/s] tkc=%.1f rival=%.1f ratio=%.2f goal=>=1.0 [%s]\n", k, $1, t[n], $(NF - 1), r, (r >= 1 ? "met" : "MISSED") }
        ' "$B/tkc.txt" "$B/ref.txt"
    } >"$B/report.log"
    sh tests/bench/report.sh "$B/report.log" "$B" >/dev/null 2>&1 && echo "report: $B/report.md"
else
    echo "no python3 with torch and CUDA: references skipped"
fi
