#!/bin/sh
# tests/gpu/s19/e5.sh — session 19: sdpa_relpos_bf16 at SAM ViT-B global
# attention with rel_h's column loaded one key row ahead (tests/gpu/s19/
# rp3.patch: a loop-carried row vector) next to the kernel as it is and torch's
# no-bias SDPA, timed in 12 interleaved rounds (ATTN_TURNS).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
patch -s -o build/rp3.tk stdlib/attention.tk tests/gpu/s19/rp3.patch || exit 1
src=$PWD/build/rp3.tk
ATTN_TURNS=12 ATTN_ONLY=relpos ATTN_RELPOS="global window" ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="pf:SRC=$src pfllvm:SRC=$src,CG=llvm llvm:CG=llvm" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/relpos.txt 2>&1
echo "relpos rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^relpos|^  tkc|^  \(|turns|FAIL|rc ' $OUT/relpos.txt | cut -c1-130
echo "total $(($(date +%s) - t0)) s"
