#!/bin/sh
# tests/gpu/s9ln/run.sh — (on the GPU) time the headers of mk.sh in ROUNDS
# rounds, then the torch/Triton references and the copy bandwidth, then
# the tuned bench (bench.sh, layernorm only) with this tree's tkc.
set -u
cd "$(dirname "$0")/../../.."
X=tests/gpu/s9ln/xh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for d in "$X"/*/; do
    n=$(basename "$d")
    gcc -std=c11 -O2 -DKIND=$(cat "$d/kind") -DLABEL="\"$n\"" -DBENCH_MODULE=tk_cuda_mod_TKC_NN_TK -I "$d" \
        -o "$d/bench" tests/gpu/bench.c -lm -ldl || echo "build failed: $n"
done
for r in $(seq 1 "${ROUNDS:-3}"); do
    echo "round $r"
    for d in "$X"/*/; do [ -x "$d/bench" ] && "$d/bench"; done
done
python3 tests/gpu/bench_ref.py
[ "${TUNED:-1}" = 1 ] && BENCH_KERNELS="${TUNED_KERNELS:-layernorm_f16}" sh tests/gpu/bench.sh
