#!/bin/sh
# tests/gpu/s29/e1.sh (needs tests/gpu/s29/poly.patch applied: the knob is not in main) — part of sdpa_bf16's exp2 on the FMA units
# (TKC_EXP2_POLY=m: every m-th fragment element by a degree-3 polynomial
# instead of MUFU.EX2, FlashAttention-4's relief for the MUFU pipe; ncu at
# D=128 showed 18.9 % MUFU stalls, h200-s28-ncu.log): m = 4 and 8 against
# the default, D=64 and D=128, causal and not, 8 interleaved rounds.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_ONLY=sdpa ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=8 \
ATTN_VARIANTS="p4:TKC_EXP2_POLY=4 p8:TKC_EXP2_POLY=8 p2:TKC_EXP2_POLY=2" \
    timeout 400 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
