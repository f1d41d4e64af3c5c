#!/bin/sh
# tests/gpu/s29/v2.sh — sdpa_relpos_bf16 at SAM global, 20 interleaved
# rounds with torch's no-bias SDPA: the default (versions: the global walk
# runs as sdpa_relpos_bf16__v1), the whole kernel (TKC_VERSIONS=0) and the
# source with only the global walk (tests/gpu/s26/mkrp.py rp_global.tk,
# s29-r1's "g"), twice each, to tell the versions' gain from run-to-run
# spread.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=build/s29; mkdir -p $V
python3 tests/gpu/s26/mkrp.py $V || exit 2
ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=20 \
ATTN_VARIANTS="whole:TKC_VERSIONS=0 g:SRC=$V/rp_global.tk def2:TKC_VERSIONS=1 whole2:TKC_VERSIONS=0 g2:SRC=$V/rp_global.tk" \
    timeout 400 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
