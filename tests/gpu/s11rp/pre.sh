#!/bin/sh
# tests/gpu/s11rp/pre.sh DIR [TKC] — build the launcher libraries of
# tests/gpu/s11rp/run1.sh (CUDA headers with their cubins made here by tkc,
# compiled against tests/gpu/bench_attn.c) and DIR/configs for bench_attn.py.
set -eu
cd "$(dirname "$0")/../../.."
P=$1 TKC=${2:-build/tkc}
mkdir -p "$P"
: >"$P/configs"
one() {   # NAME KIND KERNEL SRC ENV...
    n=$1 kd=$2 kern=$3 src=$4; shift 4
    mkdir -p "$P/$n"
    env "$@" "$TKC" "$src" --target=cuda --kernel="$kern" -D D=64 -o "$P/$n/attn.h"
    def=""; [ "$kd" = relpos ] && def=-DKIND_RELPOS
    gcc -std=c11 -O2 -fPIC -shared $def -DTK_HEADER='"attn.h"' -I "$P/$n" -o "$P/$n/lib.so" tests/gpu/bench_attn.c -ldl
}
one rp_new relpos sdpa_relpos_bf16 stdlib/attention.tk X=1
one rp_old relpos sdpa_relpos_bf16 stdlib/attention.tk TKC_FIT_EPI=0
sed 's/@launch(fast_exp2 = true, blocks = 4, stages = 3, warps = 4)/@launch(fast_exp2 = true, blocks = 3, stages = 3, warps = 4)/' \
    stdlib/attention.tk >"$P/b3.tk"
grep -q "blocks = 3, stages = 3, warps = 4" "$P/b3.tk"
one rp_b3 relpos sdpa_relpos_bf16 "$P/b3.tk" X=1
one sdpa sdpa sdpa_bf16 stdlib/attention.tk X=1
for c in rp_new:new rp_old:old rp_b3:b3s3 rp_new:new rp_old:old; do
    echo "${c%%:*} relpos 64 false def def $P/${c%%:*}/lib.so ${c#*:}" >>"$P/configs"
done
cat "$P/configs"
