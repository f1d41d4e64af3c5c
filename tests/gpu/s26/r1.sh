#!/bin/sh
# tests/gpu/s26/r1.sh — sdpa_relpos_bf16 at SAM's global attention (B=8
# H=12, 64 x 64 tokens, D=64), variants from mkrp.py, 10 interleaved rounds
# with torch's no-bias SDPA: the kernel with only the global path (does
# the rest of the kernel cost the path registers?), that path at 128 x 64
# (two warpgroups share k and v: half the shared-memory writes a key row)
# and 192 x 64, and the path with q k^T one key row ahead of the softmax.
# Then SASS instruction counts of each variant's kernel.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=build/s26; mkdir -p $V
python3 tests/gpu/s26/mkrp.py $V || exit 2
G=SRC=$V/rp_global.tk A=SRC=$V/rp_ahead.tk
ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="full128:BLOCKS=128x64,DEFS=warps:8+blocks:2 g:$G,BLOCKS=def g128:$G,BLOCKS=128x64,DEFS=warps:8+blocks:2 g128s4:$G,BLOCKS=128x64,DEFS=warps:8+blocks:2+stages:4 g192:$G,BLOCKS=192x64,DEFS=warps:12+blocks:1 ah:$A,BLOCKS=def ahp:$A,TKC_WG_PAIR=1,BLOCKS=def ah128:$A,TKC_WG_PAIR=1,BLOCKS=128x64,DEFS=warps:8+blocks:2" \
    timeout 420 sh tests/gpu/bench_attn.sh 2>&1 | tail -45
echo "bench ($(($(date +%s) - t0)) s)"
for cfg in "def:stdlib/attention.tk:" "g:$V/rp_global.tk:" "ah:$V/rp_ahead.tk:" "ahp:$V/rp_ahead.tk:TKC_WG_PAIR=1" "g128:$V/rp_global.tk:-D BLOCK_M=128 -D warps=8 -D blocks=2"; do
    l=${cfg%%:*} r=${cfg#*:}; src=${r%%:*} x=${r#*:}
    e=""; d=""
    case $x in TKC*) e=$x ;; *) d=$x ;; esac
    env $e build/tkc $src --target=cuda --kernel=sdpa_relpos_bf16 $d --emit=ptx -o $V/$l.ptx &&
    /usr/local/cuda/bin/ptxas -arch=sm_90a -v -o $V/$l.cubin $V/$l.ptx 2>$V/$l.pt &&
    /usr/local/cuda/bin/cuobjdump -sass $V/$l.cubin >$V/$l.sass 2>&1
    echo "$l: $(grep -m1 spill $V/$l.pt) SASS $(grep -cE '^ +/\*[0-9a-f]{4}\*/' $V/$l.sass) (first kernel: $(awk '/Function :/{n++} n==1' $V/$l.sass | grep -cE '^ +/\*[0-9a-f]{4}\*/'))"
    awk '/Function :/{n++} n==1' $V/$l.sass | grep -E 'BRA|HGMMA|MUFU|BAR|SYNCS' | sed -n '1,80p' | awk '{print $2}' | uniq -c | tr '\n' ' ' | cut -c1-600; echo
done
mkdir -p $OUT/sass; cp $V/*.sass $OUT/sass/ 2>/dev/null
echo "total $(($(date +%s) - t0)) s"
