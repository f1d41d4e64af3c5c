#!/bin/sh
# tests/gpu/s30/q2.sh — session 30: does sdpa_bf16 D=128 lose to its waves?
# Its TFLOP/s (and cuDNN's) at B=4 H=16 and S = 3840 (20 blocks of 192
# rows a head: 1280 blocks, 9.7 waves of 132), 4032 (1344: 10.2), 4096
# (1408, the last of each head 64 rows: 10.7), 4224 (1408 full: 10.7), in
# turns with cuDNN (bench_attn.sh, 8 rounds each).
cd "$(dirname "$0")/../../.." || exit 2
for s in 3840 4032 4096 4224; do
    echo "== S=$s"
    ATTN_SHAPE="4 16 $s" ATTN_DS=128 ATTN_TURNS=8 ATTN_ONLY=sdpa ATTN_BLOCKS=def ATTN_LLVM=0 \
        sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^sdpa|turns torch cudnn|turns tkc"
done
