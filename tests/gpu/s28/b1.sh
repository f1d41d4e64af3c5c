#!/bin/sh
# tests/gpu/s28/b1.sh — TKC_WG_BACKDEFER (lower/gpu_mma.c bd_plan: a key
# loop's p v left in flight across the back edge, waited for by the next
# iteration's q k^T wait; the stage's barrier and copies moved after it):
# relpos and attention run tests with it, cuda and nvptx, memcheck on two;
# sdpa_relpos_bf16 SAM global (4 blocks an SM: ptxas serializes its wgmma
# there, C7512; 3 blocks: not) and sdpa_bf16 D=64, 10 interleaved rounds.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
TKC_WG_BACKDEFER=1 SANITIZE=0 timeout 150 sh tests/gpu/run.sh relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 attention_d64 attention_d64_causal 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -30
TKC_WG_BACKDEFER=1 TKC_GPU_NVPTX=0 timeout 100 sh tests/gpu/run.sh relpos_bf16 attention_d64 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -30
echo "tests ($(($(date +%s) - t0)) s)"
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="bd:TKC_WG_BACKDEFER=1 b3:DEFS=blocks:3 bd3:TKC_WG_BACKDEFER=1,DEFS=blocks:3" \
    timeout 240 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "relpos ($(($(date +%s) - t0)) s)"
ATTN_ONLY=sdpa ATTN_DS=64 ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=8 ATTN_VARIANTS="bd:TKC_WG_BACKDEFER=1" \
    timeout 150 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
