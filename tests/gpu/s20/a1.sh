#!/bin/sh
# tests/gpu/s20/a1.sh — session 20: sdpa_bf16 D=128 with 192-row query
# blocks of three consumer warpgroups (warps = 12; ThunderKittens' shape),
# the one key loop, with and without the producer warpgroup, next to the
# default (128 x 128, two consumers, FlashAttention-3's turns) and cuDNN in
# interleaved rounds; then the new run test on the GPU.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_TURNS=10 ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="m192:DEFS=warps:12,BLOCKS=192x128 m192n:TKC_KEY_WS=0,DEFS=warps:12,BLOCKS=192x128" \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc |err' $OUT/attn.txt | cut -c1-150
timeout 200 sh tests/gpu/run.sh attention_d128_m192 >$OUT/run.txt 2>&1
echo "run rc $? ($(($(date +%s) - t0)) s)"
grep -E 'PASS|FAIL|passed' $OUT/run.txt
echo "total $(($(date +%s) - t0)) s"
