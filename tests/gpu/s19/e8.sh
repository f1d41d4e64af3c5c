#!/bin/sh
# tests/gpu/s19/e8.sh — session 19: sdpa_bf16 at D=64 through sdpa_tc's
# D >= 128 path (tests/gpu/s19/fa64.patch: p carried one key block, the two
# passes; with TKC_KEY_WS=1 the producer warpgroup and the two consumers'
# turns) next to its own one-loop kernel, 12 interleaved rounds with cuDNN,
# at B=4 H=16 and at sdpa_relpos's shape B=8 H=12.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
patch -s -o build/fa64.tk stdlib/attention.tk tests/gpu/s19/fa64.patch || exit 1
src=$PWD/build/fa64.tk
for shape in "4 16 4096" "8 12 4096"; do
ATTN_SHAPE="$shape" ATTN_TURNS=12 ATTN_ONLY=sdpa ATTN_DS=64 ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="fa:SRC=$src,TKC_KEY_WS=1,BLOCKS=128x128 fa1:SRC=$src,BLOCKS=128x128 fa64:SRC=$src,BLOCKS=128x64" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn $shape rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc ' $OUT/attn.txt | cut -c1-130
done
echo "total $(($(date +%s) - t0)) s"
