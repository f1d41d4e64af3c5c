#!/bin/sh
# tests/gpu/s29/v3.sh — which shape of sdpa_relpos_bf16's body makes its
# global walk fast (tests/gpu/s29/mkv.py: gn the walk alone, gz the walk then
# `if KW <= 0 { store zeros }` as the versioned __v1 is, gi the walk in an if
# then that if; g = s26's rp_global.tk, if / else), SAM global, 20
# interleaved rounds with torch's no-bias SDPA, against the default.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=build/s29; mkdir -p $V
python3 tests/gpu/s26/mkrp.py $V && python3 tests/gpu/s29/mkv.py $V || exit 2
ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=20 \
ATTN_VARIANTS="g:SRC=$V/rp_global.tk gn:SRC=$V/gn.tk gz:SRC=$V/gz.tk gi:SRC=$V/gi.tk" \
    timeout 400 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
