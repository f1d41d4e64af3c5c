#!/bin/sh
# tests/gpu/blocks.sh — the launch option `blocks` reaches the PTX and
# ptxas (for tests/gpu/ci.sh; no GPU needed).
#
#   sh tests/gpu/blocks.sh                  # TKC=build/asan/tkc works too
#
# stdlib layernorm_f16 one-pass with 4096-wide blocks of 8 warps, for
# --target=cuda (NVRTC's __launch_bounds__(256, 5)) and --target=nvptx
# (LLVM's minctasm): with -D blocks=5 the PTX says `.minnctapersm 5` and
# ptxas -v (sm_90a) gives it fewer registers than without (cuda 60 -> 47,
# nvptx 64 -> 48 with 32 bytes of spills;
# room for 5 blocks of 256 threads is at most 51 a thread); without the
# option there is no .minnctapersm.  Prints PASS/FAIL/SKIP lines.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
D=$(dirname "$TKC")/gpu-ci/blocks
mkdir -p "$D"
PTXAS=""
for p in "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ptxas; do
    if command -v "$p" >/dev/null 2>&1; then PTXAS=$p; break; fi
done
FLAGS="stdlib/nn.tk --kernel=layernorm_f16 --arch=sm_90a --emit=ptx -D BLOCK=4096 -D PASSES=1 -D warps=8"

# regs TARGET BLOCKS: the PTX in $D/TARGET-BLOCKS.ptx; prints ptxas's register count
regs() {
    "$TKC" $FLAGS --target="$1" -D blocks="$2" >"$D/$1-$2.ptx" 2>"$D/$1-$2.err" || return 1
    "$PTXAS" -arch=sm_90a -v -o "$D/$1-$2.cubin" "$D/$1-$2.ptx" >"$D/$1-$2.v" 2>&1 || return 1
    sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' "$D/$1-$2.v" | head -n 1
}

check() {
    t=$1
    if ! r0=$(regs "$t" 0) || ! r5=$(regs "$t" 5) || [ -z "$r0" ] || [ -z "$r5" ]; then
        echo "FAIL blocks-$t"; echo "    tkc or ptxas failed:"; sed -n '1,10s/^/    /p' "$D/$t-0.err" "$D/$t-5.err" "$D/$t-0.v" "$D/$t-5.v"
        return
    fi
    why=""
    grep -q '^\.minnctapersm 5$' "$D/$t-5.ptx" || why="no '.minnctapersm 5' in the PTX with -D blocks=5"
    ! grep -q 'minnctapersm' "$D/$t-0.ptx" || why="a .minnctapersm in the PTX with -D blocks=0"
    [ "$r5" -le 51 ] && [ "$r5" -lt "$r0" ] || why="${why:+$why; }registers $r0 -> $r5 (want fewer, at most 51)"
    if [ -z "$why" ]; then echo "PASS blocks-$t ($r0 -> $r5 registers)"; else echo "FAIL blocks-$t"; echo "    $why"; fi
}

if [ -z "$PTXAS" ]; then echo "SKIP blocks: no ptxas"; exit 0; fi
"$TKC" tests/run/vadd.tk --target=cuda --emit=ptx >/dev/null 2>"$D/probe.err"
if grep -q "needs NVRTC" "$D/probe.err"; then echo "SKIP blocks-cuda: no NVRTC"; else check cuda; fi
"$TKC" tests/run/vadd.tk --target=nvptx --emit=ptx >/dev/null 2>"$D/probe.err"
if grep -q "built without LLVM" "$D/probe.err"; then echo "SKIP blocks-nvptx: no LLVM"; else check nvptx; fi
