#!/bin/sh
# tests/gpu/s12/ir2.sh — s12-ir2: the K loop's last wgmma wait unguarded
# (TKC_WAIT_RAN=2, gpu_mma.c gpu_mma_loop_post; targets/nvptx/gen.c
# wait_guard), which removes ptxas's C7514 (every wgmma serialized), on the
# GPU; every header in the same run, rounds alternating.  stdlib matmul_bf16
# (tests/gpu/bench_mm.c: median of 7, checked at sampled elements):
#   NVRTC headers  old: TKC_WAIT_RAN=1 (main before: =2's NAME PTX is the
#                       same byte for byte, so only NAME__nomap is timed)
#                  e2:  the default (TKC_EPI_LEAN=2)
#                  e1:  TKC_EPI_LEAN=1 (NAME__nomap's epilogue through the
#                       staging buffer; C7514 before this fix)
#                  w0:  TKC_WAIT_RAN=0 (the wait unguarded in NAME too: its
#                       PTX changes, 2752 -> 2856 SASS instructions; only
#                       NAME is timed, NAME__nomap is e2's)
#   LLVM headers   lold: --target=nvptx, TKC_WAIT_RAN=1 (C7514 in NAME and
#                       NAME__nomap before); l2: --target=nvptx, the default
#   cases          NAME 4096^3 (TMA-stored epilogue) and 4095^3 (repacked
#                  operands, threads' epilogue); NAME__nomap 4096^3 aligned
#                  (TKC_TMA=0) and 4095^3 (TKC_REPACK=0)
# then mma_odd mma_repack through tests/gpu/run.sh (cuda + nvptx, memcheck).
# Uses build/tkc as it is.  About 100 s on an H100.
#
#   sh tests/gpu/s12/ir2.sh [ROUNDS]     (default 2)
set -u
cd "$(dirname "$0")/../../.." || exit 2
TKC=${TKC:-build/tkc}
B=$(dirname "$TKC")/gpu-s12-ir2
R=${1:-2}
LIST=${LIST-"mma_odd mma_repack"}
echo "s12-ir2 bench ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mk() {  # mk NAME TARGET LOG ENV...
    n=$1 t=$2 lg=$3; shift 3
    mkdir -p "$B/$n"
    if ! env "$@" TKC_LOGS=$lg "$TKC" stdlib/matmul.tk --target=$t --kernel=matmul_bf16 \
         -o "$B/$n/bench.h" 2>"$B/$n/tkc.log"; then
        echo "tkc failed ($n)"; cat "$B/$n/tkc.log"; exit 1
    fi
    echo "$n: $t $* $(sed -n "s/^\[$lg\] //p" "$B/$n/tkc.log" | tail -1)"
    ${CC:-gcc} -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$B/$n" -o "$B/$n/bench" \
        tests/gpu/bench_mm.c -lm -ldl || exit 1
}
mk old cuda nvrtc TKC_WAIT_RAN=1
mk e2 cuda nvrtc TKC_EPI_LEAN=2
mk e1 cuda nvrtc TKC_EPI_LEAN=1
mk w0 cuda nvrtc TKC_WAIT_RAN=0
mk lold nvptx nvptx TKC_WAIT_RAN=1
mk l2 nvptx nvptx TKC_WAIT_RAN=2
i=0
while [ $i -lt "$R" ]; do
    for v in old e2 e1 w0 lold l2; do
        [ $v = old ] || "$B/$v/bench" "$v" 4096 4096 4096 4095 4095 4095
        [ $v = w0 ] && continue
        TKC_TMA=0 "$B/$v/bench" "$v,TMA=0" 4096 4096 4096
        TKC_REPACK=0 "$B/$v/bench" "$v,REPACK=0" 4095 4095 4095
    done
    i=$((i + 1))
done
# shellcheck disable=SC2086
[ -z "$LIST" ] || sh tests/gpu/run.sh $LIST
