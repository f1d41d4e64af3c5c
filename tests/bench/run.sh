#!/bin/sh
# tests/bench/run.sh — CPU benchmarks of tkc's C target (`make bench`).
#
#   softmax / layernorm / rmsnorm on 8192x4096 f32: GB/s next to memcpy of the same bytes
#   f32 matmul 2048^3: GFLOP/s next to OpenBLAS cblas_sgemm, for a few BM/BN/BK choices
#   sdpa f32 B=1 H=8 S=T=1024 (D=64, causal, D=128, other blocks): GFLOP/s next to a plain C attention,
#     and next to PyTorch's CPU SDPA where python3 has torch (tests/bench/torch_sdpa.py)
#   tkc compile time per stdlib kernel: median ms of `tkc ... -o /dev/null`
#
# Each result is checked against a reference before it is timed; times are
# medians of repeated runs after warm-up.  Lines read
#   name  tkc=X  rival=Y  ratio=Z  goal=G  [met|MISSED]
# Exit status 1 if any kernel fails to compile, errors or computes a wrong result.
#
# Environment: TKC (default build/tkc), CC (gcc), OMP_NUM_THREADS (all cores),
#   BENCH_ONLY=rows|matmul|attn|compile (one section), ROWS_M ROWS_N MM_N ATTN_S (sizes),
#   MM_ROUNDS (alternating tkc/OpenBLAS processes per matmul variant, default 3).

set -u
TKC=${TKC:-build/tkc}
CC=${CC:-gcc}
B=build/bench
S=tests/bench
CFLAGS="-std=c11 -O3 -march=native -ffp-contract=fast -fopenmp -Wall -Wextra"
ROWS_M=${ROWS_M:-8192}
ROWS_N=${ROWS_N:-4096}
MM_N=${MM_N:-2048}
MM_ROUNDS=${MM_ROUNDS:-3}
ATTN_S=${ATTN_S:-1024}
ONLY=${BENCH_ONLY:-all}

NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc 2>/dev/null || echo 1)
OMP_NUM_THREADS=${OMP_NUM_THREADS:-$NCPU}
OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-$OMP_NUM_THREADS}
OMP_PROC_BIND=${OMP_PROC_BIND:-close}
OMP_PLACES=${OMP_PLACES:-cores}
export OMP_NUM_THREADS OPENBLAS_NUM_THREADS OMP_PROC_BIND OMP_PLACES

failed=0
fail() { printf '%-38s FAIL: %s\n' "$1" "$2"; failed=1; }

[ -x "$TKC" ] || { echo "bench: $TKC not found (run make)"; exit 1; }
mkdir -p "$B" || exit 1

model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "tkc CPU benchmarks: ${model:-unknown CPU}, $NCPU cores, OMP_NUM_THREADS=$OMP_NUM_THREADS, $($CC --version | head -n 1)"

# gen NAME TK KERNEL [tkc options...]: write $B/NAME.h; prints the error on failure.
gen() {
    g_name=$1 g_tk=$2 g_kern=$3
    shift 3
    if ! "$TKC" "$g_tk" --kernel="$g_kern" --target=c -o "$B/$g_name.h" "$@" 2>"$B/$g_name.err"
    then
        fail "$g_name" "tkc $g_tk --kernel=$g_kern $* failed:"
        head -n 5 "$B/$g_name.err" | sed 's/^/    /'
        return 1
    fi
}

# median FILE COLUMN: the median of a column of numbers.
median() {
    sort -g -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END {
        if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# build NAME DRIVER [cc options...]: compile the driver, which includes $B/NAME.h.
build() {
    b_name=$1 b_drv=$2
    shift 2
    if ! $CC $CFLAGS -I"$S" -DTK_HEADER="\"$b_name.h\"" -I"$B" "$@" -o "$B/$b_name" "$S/$b_drv" -lm \
            2>"$B/$b_name.cc.err"; then
        fail "$b_name" "the generated header does not compile:"
        head -n 8 "$B/$b_name.cc.err" | sed 's/^/    /'
        return 1
    fi
    if [ -s "$B/$b_name.cc.err" ]; then      # generated headers must compile warning-free
        echo "$b_name: warnings from the generated header or driver:"
        head -n 8 "$B/$b_name.cc.err" | sed 's/^/    /'
    fi
}

# ---------------------------------------------------------------- row-wise kernels
rows() {
    echo
    echo "# row-wise kernels, ${ROWS_M}x${ROWS_N} f32: GB/s counting x read + y written once;"
    echo "# rival = memcpy of the same bytes, timed interleaved with the kernel (best of 1 and $OMP_NUM_THREADS threads)"
    while read -r name kern kind opts; do
        case $name in ''|'#'*) continue ;; esac
        spec=
        case $opts in *"N="*) spec=-DSPEC_N ;; esac
        # shellcheck disable=SC2086
        gen "$name" stdlib/nn.tk "$kern" $opts || continue
        build "$name" bench_rows.c -DTK_FN="$kern" -DKIND_"$kind" $spec || continue
        "$B/$name" "$name" "$ROWS_M" "$ROWS_N" || failed=1
    done <<LIST
softmax_B4096           softmax         SOFTMAX    -D BLOCK=4096
softmax_B4096_N4096     softmax         SOFTMAX    -D BLOCK=4096 -D N=$ROWS_N
softmax_online          softmax_online  SOFTMAX
softmax_online_B4096    softmax_online  SOFTMAX    -D BLOCK=4096
layernorm               layernorm       LAYERNORM
layernorm_B4096         layernorm       LAYERNORM  -D BLOCK=4096
layernorm_B4096_N4096   layernorm       LAYERNORM  -D BLOCK=4096 -D N=$ROWS_N
rmsnorm                 rmsnorm         RMSNORM
LIST
}

# ---------------------------------------------------------------- matmul
matmul() {
    echo
    echo "# f32 matmul ${MM_N}^3: GFLOP/s; rival = OpenBLAS cblas_sgemm, $OPENBLAS_NUM_THREADS threads"
    sgemm=
    if printf '#include <cblas.h>\nint main(void){return 0;}\n' | $CC -x c - -o /dev/null -lopenblas 2>/dev/null
    then
        $CC $CFLAGS -I"$S" -DUSE_CBLAS -o "$B/bench_sgemm" "$S/bench_matmul.c" -lopenblas -lm &&
            sgemm=$B/bench_sgemm
    else
        echo "matmul: skip OpenBLAS rival (cblas.h or -lopenblas missing: apt-get install libopenblas-dev)"
    fi
    while read -r name opts; do
        case $name in ''|'#'*) continue ;; esac
        # shellcheck disable=SC2086
        gen "$name" stdlib/matmul.tk matmul $opts || continue
        build "$name" bench_matmul.c -DTK_FN=matmul || continue
        # tkc and the rival alternate, one process each, MM_ROUNDS times: both
        # see the same machine load; the line reports the medians.
        : >"$B/$name.tkc"
        : >"$B/$name.blas"
        r=0
        while [ $r -lt "$MM_ROUNDS" ]; do
            if [ -n "$sgemm" ]; then
                "$sgemm" sgemm "$MM_N" "$MM_N" "$MM_N" >>"$B/$name.blas" || { fail sgemm "cblas_sgemm result wrong"; sgemm=; }
            fi
            "$B/$name" "$name" "$MM_N" "$MM_N" "$MM_N" >>"$B/$name.tkc" || { fail "$name" "wrong result or error (above)"; continue 2; }
            r=$((r + 1))
        done
        tkc=$(median "$B/$name.tkc" 1)
        blas=$( [ -s "$B/$name.blas" ] && median "$B/$name.blas" 1 || echo 0)
        ms=$(median "$B/$name.tkc" 2)
        err=$(sort -g -k3 "$B/$name.tkc" | tail -n 1 | cut -d' ' -f3)
        awk -v n="${name}[GFLOP/s]" -v t="$tkc" -v b="$blas" 'BEGIN {
            if (b > 0) printf "%-38s tkc=%-9.2f rival=%-9.2f ratio=%-6.2f goal=%-8s %s\n", n, t, b, t / b, ">=0.7", (t / b >= 0.7 ? "[met]" : "[MISSED]");
            else       printf "%-38s tkc=%-9.2f rival=-         ratio=-      goal=%-8s\n", n, t, ">=0.7" }'
        printf '%-38s   (%s ms; medians of %s alternating rounds; max rel err %s)\n' "" "$ms" "$MM_ROUNDS" "$err"
    done <<LIST
# the kernel's defaults first, then other -D choices
matmul_128x128x64
matmul_64x64x64         -D BM=64 -D BN=64 -D BK=64
matmul_64x128x64        -D BM=64 -D BN=128 -D BK=64
matmul_128x64x128       -D BM=128 -D BN=64 -D BK=128
LIST
}

# ---------------------------------------------------------------- attention
attn() {
    cases=""
    : >"$B/attn.out"
    echo
    echo "# sdpa f32 (stdlib/attention.tk) B=1 H=8 S=T=$ATTN_S: GFLOP/s; rival = a straightforward C attention"
    while read -r name d causal opts; do
        case $name in ''|'#'*) continue ;; esac
        # shellcheck disable=SC2086
        gen "$name" stdlib/attention.tk sdpa -D D="$d" -D CAUSAL="$causal" $opts || continue
        build "$name" bench_attn.c -DATT_D="$d" || continue
        "$B/$name" "$name" 1 8 "$ATTN_S" "$ATTN_S" "$( [ "$causal" = true ] && echo causal)" >"$B/attn.one" || failed=1
        cat "$B/attn.one"; cat "$B/attn.one" >>"$B/attn.out"
        cases="$cases $name:1:8:$ATTN_S:$ATTN_S:$d:$causal"
    done <<LIST
# the kernel's default blocks (64 x 64), then the CPU tuner's usual pick
sdpa_d64                64  false
sdpa_d64_causal         64  true
sdpa_d128               128 false
sdpa_d64_128x128        64  false   -D BLOCK_M=128 -D BLOCK_N=128
LIST
    # PyTorch's CPU SDPA on the same shapes and threads, where python3 has torch
    if python3 -c "import torch" 2>/dev/null; then
        echo "# the same shapes: tkc next to PyTorch $(python3 -c 'import torch; print(torch.__version__)') CPU SDPA (f32, same threads)"
        # shellcheck disable=SC2086
        python3 "$S/torch_sdpa.py" $cases >"$B/attn.torch" || fail torch_sdpa "python3 $S/torch_sdpa.py failed"
        while read -r name ms gf; do
            tk=$(sed -n "s/^$name\[GFLOP\/s\] *tkc=\([0-9.]*\).*/\1/p" "$B/attn.out" | tail -n 1)
            [ -n "$tk" ] || continue
            printf '%-38s tkc=%-9s rival=%-9s ratio=%-6s goal=-        (torch %s ms)\n' "$name:torch[GFLOP/s]" "$tk" "$gf" \
                "$(awk -v a="$tk" -v b="$gf" 'BEGIN { printf "%.2f", a / b }')" "$ms"
        done <"$B/attn.torch"
    else
        echo "# PyTorch CPU SDPA: skipped (no python3 with torch here)"
    fi
}

# ---------------------------------------------------------------- compile time
compile() {
    echo
    echo "# tkc compile time to C per kernel: median ms of 11 runs of 'tkc FILE --kernel=K -o /dev/null'"
    $CC -std=c11 -O2 -o "$B/compile_time" "$S/compile_time.c" || { fail compile_time "build"; return; }
    for tk in stdlib/*.tk; do
        for kern in $(sed -n 's/^[[:space:]]*kernel[[:space:]][[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$tk"); do
            label="compile:$(basename "$tk" .tk).${kern}[ms]"
            if ms=$("$B/compile_time" 11 "$TKC" "$tk" --kernel="$kern" --target=c -o /dev/null); then
                verdict=$(awk -v t="$ms" 'BEGIN { print (t <= 20 ? "[met]" : "[MISSED]") }')
                printf '%-38s tkc=%-9s rival=-         ratio=-      goal=<=20ms   %s\n' "$label" "$ms" "$verdict"
            else
                fail "$label" "tkc $tk --kernel=$kern failed"
            fi
        done
    done
}

case $ONLY in
    all) rows; matmul; attn; compile ;;
    rows) rows ;;
    matmul) matmul ;;
    attn) attn ;;
    compile) compile ;;
    *) echo "bench: BENCH_ONLY must be rows, matmul, attn or compile"; exit 2 ;;
esac
echo
[ $failed -eq 0 ] && echo "bench: done" || echo "bench: some kernels FAILED"
exit $failed
