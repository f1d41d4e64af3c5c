#!/bin/sh
# tests/gpu/s15/shapes.sh — sdpa_bf16 (default blocks) next to cuDNN at
# other sequence lengths, the same B H S^2: how much of the gap to cuDNN is
# per program (prologue, the last p v, epilogue) rather than per key block.
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sh in ${SHAPES:-"64 16 1024" "4 16 4096" "1 16 8192" "1 4 16384"}; do
    echo "== ATTN_SHAPE=$sh"
    ATTN_SHAPE="$sh" ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa timeout 150 sh tests/gpu/bench_attn.sh 2>&1 \
        | grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL' | cut -c1-60
done
