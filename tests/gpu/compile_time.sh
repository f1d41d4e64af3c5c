#!/bin/sh
# tests/gpu/compile_time.sh — GPU compile time of every stdlib kernel, no GPU
# needed: NVRTC (TKC_LOGS=nvrtc), LLVM (TKC_LOGS=nvptx) and ptxas on each
# one's PTX (TKC_LOGS=ptxas), in ms, the minimum of REPS runs (build machines
# are shared; the minimum is the least disturbed); then what ptxas makes of
# each PTX for sm_90a: registers, spill bytes (stores + loads), stack frame
# bytes and SASS instructions (the kernel's .text size / 16), so that a
# faster compile can be checked for worse code.  NVRTC's own split (its
# --time report: CUDA front end + NVVM optimizer, whole ms, each the least
# over REPS) shows where its time goes.  A markdown table on stdout.
#
#   sh tests/gpu/compile_time.sh [REPS]          (default 3)
#   KERNELS="stdlib/nn.tk:softmax:-D BLOCK=4096 ..." sh tests/gpu/compile_time.sh
#   TKC=build/other/tkc, PTXAS=/path/ptxas
set -u
cd "$(dirname "$0")/../.." || exit 2
REPS=${1:-3}
TKC=${TKC:-build/tkc}
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
T=${TMPDIR:-/tmp}/tkc-ctime.$$
mkdir -p "$T" || exit 2
trap 'rm -rf "$T"' EXIT

if [ -z "${KERNELS:-}" ]; then
    KERNELS=$(for f in stdlib/*.tk; do
        sed -n 's/^kernel \([A-Za-z_0-9]*\).*/\1/p' "$f" | sed "s|^|$f:|"
    done)
    KERNELS="stdlib/nn.tk:softmax:-D BLOCK=4096
stdlib/nn.tk:layernorm_f16:-D BLOCK=4096
$KERNELS"
fi

# best LOG TOPIC ARGS...: the least time TOPIC logged over REPS runs; when
# no run logged one, "fail: " and the first line tkc wrote that was not a
# log line (its error), so that a failing row says why
best() {
    topic=$1; shift
    i=0; : >"$T/times"
    while [ $i -lt "$REPS" ]; do
        TKC_LOGS=$topic "$TKC" "$@" -o "$T/k.h" >/dev/null 2>"$T/err"
        sed -n "s/^\[$topic\] .* in \([0-9.]*\) ms.*/\1/p" "$T/err" >>"$T/times"
        i=$((i + 1))
    done
    if [ -s "$T/times" ]; then
        sort -n "$T/times" | head -n 1
    else
        echo "fail: $(grep -v '^\[' "$T/err" | head -n 1 | tr '|' '/' | cut -c1-120)"
    fi
}

# phases ARGS...: "front end + NVVM" ms of NVRTC's --time report, least of REPS
phases() {
    i=0; : >"$T/fe"; : >"$T/opt"
    while [ $i -lt "$REPS" ]; do
        rm -f "$T/nt.csv"
        TKC_CUBIN=0 TKC_NVRTC_OPTS="--time=$T/nt.csv" "$TKC" "$@" --emit=ptx >/dev/null 2>&1
        [ -f "$T/nt.csv" ] || { echo "?"; return; }
        awk -F, '/Frontend/ { print $3 + 0 }' "$T/nt.csv" >>"$T/fe"
        awk -F, '/Optimizer/ { print $3 + 0 }' "$T/nt.csv" >>"$T/opt"
        i=$((i + 1))
    done
    echo "$(sort -n "$T/fe" | head -n 1) + $(sort -n "$T/opt" | head -n 1)"
}

# sass PTXFILE KERNEL: "regs spill stack instrs" of ptxas -arch=sm_90a
sass() {
    "$PTXAS" -arch=sm_90a -v -o "$T/k.cubin" "$1" >"$T/v" 2>&1 || { echo "ptxas-failed"; return; }
    regs=$(sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' "$T/v" | head -n 1)
    spill=$(sed -n 's/.* \([0-9]*\) bytes spill stores, \([0-9]*\) bytes spill loads.*/\1+\2/p' "$T/v" | head -n 1)
    stack=$(sed -n 's/.* \([0-9]*\) bytes stack frame.*/\1/p' "$T/v" | head -n 1)
    size=$(readelf -S -W "$T/k.cubin" 2>/dev/null | awk -v s=".text.$2" '$2 == s { print $6 } $3 == s { print $7 }' | head -n 1)
    echo "$regs/$spill/$stack/$(( 0x${size:-0} / 16 ))"
}

echo "| kernel | NVRTC ms | NVRTC front end + NVVM ms | LLVM ms | ptxas ms (NVRTC PTX / LLVM PTX) | SASS from NVRTC: regs/spill/stack/instrs | SASS from LLVM |"
echo "|---|---|---|---|---|---|---|"
echo "$KERNELS" | while IFS=: read -r f k flags; do
    [ -n "$f" ] || continue
    # shellcheck disable=SC2086
    nv=$(best nvrtc "$f" --target=cuda --kernel="$k" $flags)
    # shellcheck disable=SC2086
    # shellcheck disable=SC2086
    ph=$(phases "$f" --target=cuda --kernel="$k" $flags)
    ll=$(best nvptx "$f" --target=nvptx --kernel="$k" $flags)
    # shellcheck disable=SC2086
    pn=$(TKC_LOGS=ptxas "$TKC" "$f" --target=cuda --kernel="$k" $flags -o "$T/k.h" 2>&1 >/dev/null |
        sed -n 's/.* in \([0-9.]*\) ms.*/\1/p')
    # shellcheck disable=SC2086
    pl=$(TKC_LOGS=ptxas "$TKC" "$f" --target=nvptx --kernel="$k" $flags -o "$T/k.h" 2>&1 >/dev/null |
        sed -n 's/.* in \([0-9.]*\) ms.*/\1/p')
    # shellcheck disable=SC2086
    TKC_CUBIN=0 "$TKC" "$f" --target=cuda --kernel="$k" $flags --emit=ptx >"$T/n.ptx" 2>/dev/null
    # shellcheck disable=SC2086
    TKC_CUBIN=0 "$TKC" "$f" --target=nvptx --kernel="$k" $flags --emit=ptx >"$T/l.ptx" 2>/dev/null
    name="$k${flags:+ ($flags)}"
    echo "| $name | ${nv:-fail} | $ph | ${ll:-fail} | ${pn:-?} / ${pl:-?} | $(sass "$T/n.ptx" "$k") | $(sass "$T/l.ptx" "$k") |"
done
