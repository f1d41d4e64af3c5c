#!/bin/sh
# tests/gpu/bench_attn.sh — stdlib/attention.tk on the GPU next to PyTorch.
#
#   sh tests/gpu/bench_attn.sh                 # uses build/tkc as it is
#   ATTN_BLOCKS="def 128x64 64x64" sh tests/gpu/bench_attn.sh    # BLOCK_MxBLOCK_N choices
#                                   (def: the kernel's own blocks; default "def 128x128 64x64")
#   ATTN_ONLY=sdpa|relpos  ATTN_COMPILE=1 (also time torch.compile of SDPA + bias)
#   ATTN_SHAPE="B H S"  sdpa at another shape (default "4 16 4096", S = T)
#   ATTN_RELPOS="global window"   which SAM shapes sdpa_relpos runs (default both)
#   ATTN_VARIANTS="old:TKC_KEY_PIPE=0,SRC=old.tk s3:TKC_KEY_STAGES=3"
#       each block choice once more per variant LABEL:SETTINGS, SETTINGS being
#       environment variables for tkc (its TKC_* experiment switches) and
#       SRC=FILE for another attention.tk, CG=llvm for PTX from LLVM
#       (--codegen=llvm, the nvptx target's code generator), TKC=PATH for
#       another tkc binary (an older build to compare with), BLOCKS=def to
#       build the variant for the kernels' own blocks only, DEFS=N:V+N:V for
#       more -D N=V (warps:4+blocks:3: a launch option); the plain build
#       is always there
#   ATTN_LLVM=0   drop the variant run by default, "llvm:CG=llvm,BLOCKS=def"
#   ATTN_DS="64"  the head dims sdpa runs (default "64 128")
#   ATTN_TURNS=N  after the usual one-after-another times, every candidate of a
#                 shape (torch's backends, each tkc build) timed again in N
#                 interleaved rounds with ratios taken round by round
#                 (bench_attn.py in_turns; default 10, 0: off): the GPU's clock
#                 drifts over a run, and what runs first (torch) ran faster
#
# sdpa_bf16, B=4 H=16 S=T=4096, D=64 and D=128, causal and not: TFLOP/s of
# tkc (each block choice) next to torch SDPA with the FLASH and CUDNN
# backends (torch.nn.attention.sdpa_kernel), measured in the same process on
# the same tensors; ratios against the best torch backend.
# sdpa_relpos_bf16 at SAM ViT-B global attention (B=8, H=12, 64x64 tokens,
# D=64) and windowed attention (B=8*25 windows of 14x14 tokens): time and extra peak memory of tkc next to (a) SDPA with the
# decomposed bias materialized as attn_mask, (b) SAM's eager formulation,
# (c) plain SDPA without bias (the floor), and with ATTN_COMPILE=1
# torch.compile(mode="max-autotune-no-cudagraphs") of (a).
# Every result is checked against a float32 reference (and tkc against
# torch) before it is timed.  Each tkc configuration is built into a small
# shared library (tests/gpu/bench_attn.c) that bench_attn.py calls through
# ctypes with torch's device pointers and stream.  Without python3 + torch +
# a GPU it prints a SKIP line and exits 0.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/gpu-bench-attn
CC=${CC:-gcc}
BLOCKS=${ATTN_BLOCKS:-def 128x128 64x64}
export ATTN_TURNS=${ATTN_TURNS:-10}
ONLY=${ATTN_ONLY:-all}

[ -x "$TKC" ] || { echo "bench_attn: no $TKC (build tkc first, or carry build/)"; exit 2; }
echo "tkc attention benchmarks ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if ! python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    echo "SKIP bench_attn: no python3 with torch and a CUDA device (the bench needs torch for its tensors and references)"
    exit 0
fi
mkdir -p "$B" || exit 2
: >"$B/configs"

# lib NAME KIND(sdpa|relpos) D CAUSAL BM BN LABEL SETTINGS: build $B/NAME/lib.so
# and its line of configs ($B/NAME/line; in the background, see below).
lib() {
    name=$1 kind=$2 d=$3 causal=$4 bm=$5 bn=$6 label=$7 set=$8
    dir=$B/$name; mkdir -p "$dir"; rm -f "$dir/line"
    kern=sdpa_bf16; def=""; cflag=" -D CAUSAL=$causal"; src=stdlib/attention.tk; envs=""; cg=""; tkc=$TKC; defs=""
    [ "$kind" = relpos ] && { kern=sdpa_relpos_bf16; def=-DKIND_RELPOS; cflag=""; }
    for kv in $(echo "$set" | tr , ' '); do
        case $kv in
            SRC=*) src=${kv#SRC=} ;;
            CG=*) cg=" --codegen=${kv#CG=}" ;;
            TKC=*) tkc=${kv#TKC=} ;;
            BLOCKS=*) ;;
            DEFS=*) defs="$defs $(echo "${kv#DEFS=}" | tr + '\n' | sed 's/^\([^:]*\):\(.*\)$/-D \1=\2/' | tr '\n' ' ')" ;;
            *) envs="$envs $kv" ;;
        esac
    done
    blk=" -D BLOCK_M=$bm -D BLOCK_N=$bn"
    [ "$bm" = def ] && blk=""            # the kernel's own blocks for this D
    # shellcheck disable=SC2086
    if ! env $envs "$tkc" "$src" --target=cuda$cg --kernel=$kern -D D=$d$cflag$blk $defs \
            -o "$dir/attn.h" >"$dir/tkc.log" 2>&1; then
        echo "FAIL $name: tkc failed"; sed -n '1,10s/^/    /p' "$dir/tkc.log"; return 1
    fi
    # shellcheck disable=SC2086
    if ! $CC -std=c11 -O2 -Wall -Wextra -fPIC -shared $def -DTK_HEADER='"attn.h"' -I "$dir" \
            -o "$dir/lib.so" tests/gpu/bench_attn.c -ldl >"$dir/cc.log" 2>&1; then
        echo "FAIL $name: the launcher library does not build"; sed -n '1,10s/^/    /p' "$dir/cc.log"; return 1
    fi
    echo "$name $kind $d $causal $bm $bn $dir/lib.so $label" >"$dir/line"
}

# The builds run in parallel (NVRTC takes seconds per kernel), at most JOBS
# at once; configs lists them in the order of the loops below.
JOBS=${ATTN_JOBS:-$(nproc 2>/dev/null || echo 4)}
names="" running=0
build() {
    names="$names $1"
    lib "$@" >"$B/$1.out" 2>&1 &
    running=$((running + 1))
    [ $running -lt "$JOBS" ] || { wait; running=0; }
}
LLVM_VAR=""
[ "${ATTN_LLVM:-1}" = 0 ] || LLVM_VAR="llvm:CG=llvm,BLOCKS=def"
for var in "-:" ${ATTN_VARIANTS:-} $LLVM_VAR; do
    label=${var%%:*} set=${var#*:} tag="" vblocks=$BLOCKS
    [ "$label" = - ] || tag="_$label"
    case ",$set," in *,BLOCKS=*) vblocks=$(echo ",$set," | sed 's/.*,BLOCKS=\([^,]*\),.*/\1/' | tr + ' ') ;; esac
    for blk in $vblocks; do
        bm=${blk%x*} bn=${blk#*x}
        [ "$blk" = def ] && bm=def bn=def
        if [ "$ONLY" != relpos ]; then
            for d in ${ATTN_DS:-64 128}; do
                build "sdpa_d${d}_${blk}$tag" sdpa $d false "$bm" "$bn" "$label" "$set"
                build "sdpa_d${d}_causal_${blk}$tag" sdpa $d true "$bm" "$bn" "$label" "$set"
            done
        fi
        if [ "$ONLY" != sdpa ]; then
            build "relpos_d64_${blk}$tag" relpos 64 false "$bm" "$bn" "$label" "$set"
        fi
    done
done
wait
failed=0
for n in $names; do
    cat "$B/$n.out"
    if [ -f "$B/$n/line" ]; then cat "$B/$n/line" >>"$B/configs"; else failed=1; fi
done
python3 tests/gpu/bench_attn.py "$B/configs" || failed=1
[ $failed -eq 0 ] && echo "bench_attn: done" || echo "bench_attn: some parts FAILED"
exit $failed
