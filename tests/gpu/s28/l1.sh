#!/bin/sh
# tests/gpu/s28/l1.sh — TKC_KEY_LATE (lower/gpu_mma.c li_plan: a key loop's
# head barrier and TMA copies after its q k^T's commit, while its MMAs run):
# relpos and attention run tests with it, cuda and nvptx, memcheck on two;
# sdpa_relpos_bf16 SAM global and windowed, sdpa_bf16 D=64, interleaved rounds.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
TKC_KEY_LATE=1 SANITIZE=0 timeout 150 sh tests/gpu/run.sh relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 attention_d64 attention_d64_causal 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -30
TKC_KEY_LATE=1 TKC_GPU_NVPTX=0 timeout 100 sh tests/gpu/run.sh relpos_bf16 attention_d64 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -30
echo "tests ($(($(date +%s) - t0)) s)"
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="li:TKC_KEY_LATE=1 li2:TKC_KEY_LATE=1" \
    timeout 240 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "relpos ($(($(date +%s) - t0)) s)"
ATTN_ONLY=sdpa ATTN_DS=64 ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=8 ATTN_VARIANTS="li:TKC_KEY_LATE=1" \
    timeout 150 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
