#!/bin/sh
# tests/gpu/s27/p3.sh — TKC_SKIP_ONE (lower/gpu.c flush_one: acc * alpha[:, None]
# skipped by each warp whose alphas are all exactly 1, a vote) with the
# running maximum moved only by more than 8 (mklazy.py: rp_lazy.tk), and
# TKC_KEY_TMA=2 (empty / full mbarriers instead of the block barrier):
# relpos_bf16 and the attention tests with the skip, cuda and nvptx, each
# under memcheck; sdpa_relpos_bf16 SAM global and windowed and sdpa_bf16,
# 10 interleaved rounds with torch's backends.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
TKC_SKIP_ONE=1 timeout 200 sh tests/gpu/run.sh relpos_bf16 attention_d64 attention_d128 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -30
echo "tests ($(($(date +%s) - t0)) s)"
V=build/s27; mkdir -p $V
python3 tests/gpu/s27/mklazy.py $V || exit 2
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="skip:TKC_SKIP_ONE=1 lazy:SRC=$V/rp_lazy.tk lazyskip:SRC=$V/rp_lazy.tk,TKC_SKIP_ONE=1 kt2:TKC_KEY_TMA=2" \
    timeout 240 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "relpos ($(($(date +%s) - t0)) s)"
ATTN_ONLY=sdpa ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=8 ATTN_VARIANTS="skip:TKC_SKIP_ONE=1" \
    timeout 200 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
