#!/bin/sh
# tests/gpu/s20/a4.sh — session 20: the 192-row default at D=128 checked
# (attention run tests, cuda and nvptx passes, compute-sanitizer memcheck)
# and timed next to the old 128 x 128 blocks and the PTX from LLVM, in
# interleaved rounds with cuDNN.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_TURNS=10 ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def \
ATTN_VARIANTS="m128:BLOCKS=128x128" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc |err' $OUT/attn.txt | cut -c1-150
timeout 400 sh tests/gpu/run.sh attention_d128 attention_d128_m128 attention_d128_causal attention_d128_causal_wide \
    attention_d128_n176 attention_d80 >$OUT/run.txt 2>&1
echo "run rc $? ($(($(date +%s) - t0)) s)"
grep -E 'PASS|FAIL|passed' $OUT/run.txt
echo "total $(($(date +%s) - t0)) s"
