#!/bin/sh
# tests/gpu/s11rp/pre2.sh DIR BASE.tk V1.tk [TKC] — the libraries of run2.sh (the variant files
# were whole-file copies of attention.tk, not kept: doc/bench/h100-s11-s11-rp-2.log gives their edits):
# sdpa_relpos_bf16 from BASE.tk (the committed default), V1.tk (rel_h rows
# clamped, no mask) and the tree's stdlib/attention.tk (v2: also the key loop
# over n = kh * KW with kh carried), and TKC_FIT_EPI=0 of BASE (the old launch).
set -eu
cd "$(dirname "$0")/../../.."
P=$1 BASE=$2 V1=$3 TKC=${4:-build/tkc}
mkdir -p "$P"
: >"$P/configs"
one() {   # NAME SRC ENV...
    n=$1 src=$2; shift 2
    mkdir -p "$P/$n"
    env "$@" "$TKC" "$src" --target=cuda --kernel=sdpa_relpos_bf16 -D D=64 -o "$P/$n/attn.h"
    gcc -std=c11 -O2 -fPIC -shared -DKIND_RELPOS -DTK_HEADER='"attn.h"' -I "$P/$n" -o "$P/$n/lib.so" tests/gpu/bench_attn.c -ldl
    rm -f "$P/$n/attn.h"
}
one base "$BASE" X=1
one v1 "$V1" X=1
one v2 stdlib/attention.tk X=1
one old "$BASE" TKC_FIT_EPI=0
for c in base v1 v2 old base v1 v2 base v2; do
    echo "$c relpos 64 false def def $P/$c/lib.so $c" >>"$P/configs"
done
cat "$P/configs"
