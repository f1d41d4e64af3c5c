#!/bin/sh
# tests/gpu/s27/p1.sh — TKC_RECOMP_HOIST (lower/gpu.c plan_recomp: rel_h's
# row offsets b * s0 + h * s1 + rm * s2 computed once before the key loop,
# kept through an opaque move, instead of recomputed by NVVM in every
# iteration; sdpa_relpos_bf16's global key loop 425 -> 395 SASS
# instructions): the relpos run tests with it, cuda and nvptx, each under
# memcheck; then sdpa_relpos_bf16 at SAM's global and windowed attention,
# 10 interleaved rounds with torch's no-bias SDPA: the kernel as it is, with
# the knob, rel_h one key row ahead (mkpf.py) without and with it, and
# LLVM's PTX without and with it.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
TKC_RECOMP_HOIST=5 timeout 240 sh tests/gpu/run.sh relpos_bf16 relpos_bf16_n128 relpos_bf16_n32 relpos_bf16_d80 \
    relpos_bf16_d128 2>&1 | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -30
echo "tests ($(($(date +%s) - t0)) s)"
V=build/s27; mkdir -p $V
python3 tests/gpu/s27/mkpf.py $V || exit 2
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="hoist:TKC_RECOMP_HOIST=5 pf:SRC=$V/rp_pf.tk pfh:SRC=$V/rp_pf.tk,TKC_RECOMP_HOIST=5 llvm:CG=llvm llvmh:CG=llvm,TKC_RECOMP_HOIST=5" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
