#!/bin/sh
# tests/gpu/s15/b1.sh — session 15, call 1: FlashAttention-3's 128 x 176
# blocks at D=128 (non-causal), possible since the last p v dot's v
# staging lies in the key stages after the key loops (gpu.c plan_overlay;
# 217 KB of shared memory, was 263 KB), against the default 128 x 128 with
# and without that overlay (TKC_KEY_OVERLAY=0: the layout before).  cuDNN
# in the same run.  Then the run tests of the changed layouts (cuda pass,
# compute-sanitizer memcheck): attention_d128_n176 (new), attention_d128,
# attention_d64.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
ATTN_BLOCKS=${BLK:-def 128x176 128x160} ATTN_LLVM=0 ATTN_ONLY=${ONLY:-sdpa} ATTN_RELPOS=global \
ATTN_VARIANTS="${VARS:-ov0:TKC_KEY_OVERLAY=0,BLOCKS=def}" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
for t in ${TESTS:-attention_d128_n176 attention_d128 attention_d64}; do
    TKC_GPU_NVPTX=0 timeout ${TTO:-100} sh tests/gpu/run.sh $t 2>&1 | grep -E '^PASS|^FAIL|^SKIP|^ |rc ' | cut -c1-150
done >$OUT/tests.txt 2>&1
cat $OUT/tests.txt | head -30
echo "total $(($(date +%s) - t0)) s"
