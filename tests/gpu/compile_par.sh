#!/bin/sh
# tests/gpu/compile_par.sh — a header's compile time with a module's
# functions compiled one after another (TKC_PAR_COMPILE=0) and in parallel
# threads (1, the default: ptxas --split-compile, LLVM one context per
# function; 2: NVRTC --split-compile too), from `tkc --time`: wall clock and
# CPU time (tkc's threads + ptxas) of the whole run, and the wall clock of
# NVRTC, ptxas and LLVM.  No GPU needed; the more processors, the larger the
# difference.  A markdown table on stdout; each case run REPS times, the
# least wall clock kept.
#
#   sh tests/gpu/compile_par.sh [REPS]            (default 1)
#   CASES="stdlib/nn.tk:softmax:cuda:-D BLOCK=4096 ..." MODES="0 1" sh tests/gpu/compile_par.sh
#   (KERNEL empty: every kernel of the file)
set -u
cd "$(dirname "$0")/../.." || exit 2
REPS=${1:-1}
TKC=${TKC:-build/tkc}
MODES=${MODES:-"0 1 2"}
T=${TMPDIR:-/tmp}/tkc-cpar.$$
mkdir -p "$T" || exit 2
trap 'rm -rf "$T"' EXIT
CASES=${CASES:-"stdlib/attention.tk:sdpa_bf16:cuda:-D D=128
stdlib/attention.tk:sdpa_bf16:nvptx:-D D=128
stdlib/matmul.tk:matmul_bf16:cuda:
stdlib/matmul.tk:matmul_bf16:nvptx:
stdlib/attention.tk:sdpa_relpos_bf16:cuda:
stdlib/attention.tk::cuda:
stdlib/attention.tk::nvptx:"}

# col REPORT STAGE: the wall clock column of a stage of the --time report
col() { sed -n "s/^  $2  *[0-9]*  *\([0-9.]*\) .*/\1/p" "$1" | head -n 1; }

echo "| kernel | codegen | TKC_PAR_COMPILE | wall ms | cpu ms | NVRTC ms | ptxas ms | LLVM ms |"
echo "|---|---|---|---|---|---|---|---|"
echo "$CASES" | while IFS=: read -r f k cg flags; do
    [ -n "$f" ] || continue
    for m in $MODES; do
        [ "$cg" = nvptx ] && [ "$m" = 2 ] && continue     # NVRTC's option: no LLVM difference
        best=""
        i=0
        while [ $i -lt "$REPS" ]; do
            # shellcheck disable=SC2086
            TKC_PAR_COMPILE=$m "$TKC" "$f" ${k:+--kernel=$k} --target=$cg $flags --time -o "$T/k.h" 2>"$T/r" >/dev/null ||
                { echo "| $f $k | $cg | $m | fail | | | | |"; cat "$T/r" >&2; break; }
            w=$(sed -n 's/^  total  *\([0-9.]*\) .*/\1/p' "$T/r")
            if [ -z "$best" ] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then
                best=$w; cp "$T/r" "$T/best"
            fi
            i=$((i + 1))
        done
        [ -n "$best" ] || continue
        cpu=$(sed -n 's/^  total  *[0-9.]*  *\([0-9.]*\).*/\1/p' "$T/best")
        nv=$(col "$T/best" "NVRTC (CUDA C -> PTX[^)]*)")
        pt=$(col "$T/best" "ptxas (PTX -> cubin)")
        ll=$(col "$T/best" "LLVM (IR, passes, PTX[^)]*)")
        echo "| ${k:-(all of $f)} $flags | $cg | $m | $best | $cpu | ${nv:--} | ${pt:--} | ${ll:--} |"
    done
done
