#!/bin/sh
# tests/gpu/s9ln/mk.sh — (locally) the headers that run.sh times: NAME KNOB KIND FLAGS...
# into tests/gpu/s9ln/xh/NAME/bench.h (KIND 1 softmax, 2 layernorm_f16).
set -eu
cd "$(dirname "$0")/../../.."
X=tests/gpu/s9ln/xh
rm -rf "$X"; mkdir -p "$X"
mk() {
    n=$1; k=$2; kind=$3; shift 3
    mkdir -p "$X/$n"; echo "$kind" >"$X/$n/kind"
    kern=layernorm_f16; [ "$kind" = 1 ] && kern=softmax
    TKC_VERSION_TID=$k build/tkc stdlib/nn.tk --target=cuda --kernel=$kern "$@" -o "$X/$n/bench.h"
}
L="-D BLOCK=4096 -D PASSES=1"
mk old_w8b5  0 2 $L -D warps=8 -D blocks=5
mk new_w8b5  1 2 $L -D warps=8 -D blocks=5
mk new_w8b6  1 2 $L -D warps=8 -D blocks=6
mk new_w8    1 2 $L -D warps=8
mk new_w16b3 1 2 $L -D warps=16 -D blocks=3
mk new_w16b4 1 2 $L -D warps=16 -D blocks=4
mk llvm_w8b5 1 2 $L -D warps=8 -D blocks=5 --codegen=llvm
mk old_sm4   0 1 -D BLOCK=4096 -D warps=4
mk new_sm4   1 1 -D BLOCK=4096 -D warps=4
mk old_sm8   0 1 -D BLOCK=4096 -D warps=8
mk new_sm8   1 1 -D BLOCK=4096 -D warps=8
ls "$X"
