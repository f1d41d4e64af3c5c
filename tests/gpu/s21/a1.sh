#!/bin/sh
# tests/gpu/s21/a1.sh — session 21: sdpa_bf16 away from the benchmark's
# shape (B=4 H=16 S=T=4096): S = 1024 (B=16), 2048 (B=8) and 8192 (B=2),
# H=16, D=64 and 128, causal and not, the kernel's own blocks and 128 x 128,
# next to torch's flash and cuDNN backends in 6 interleaved rounds.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sh in "16 16 1024" "8 16 2048" "2 16 8192"; do
    ATTN_SHAPE="$sh" ATTN_TURNS=6 ATTN_ONLY=sdpa ATTN_BLOCKS="def 128x128" ATTN_LLVM=0 \
        timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
    echo "== S: $sh rc $? ($(($(date +%s) - t0)) s)"
    grep -E 'turns|FAIL|^sdpa' $OUT/attn.txt | cut -c1-150
    cat $OUT/attn.txt >>$OUT/all.txt
done
echo "total $(($(date +%s) - t0)) s"
