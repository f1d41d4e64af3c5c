#!/bin/sh
# tests/gpu/nvrtc_time.sh — NVRTC's time per kernel without its start-up:
# the CUDA C tkc prints for softmax, layernorm_f16 (as tuned for 8192 x
# 4096) and bias_gelu_residual compiled in one process after a warm-up
# (vadd's add), then each in a process of its own (start-up included).
# compile_time.sh runs tkc once per kernel, so its NVRTC column includes
# the start-up; on the H100 machine's host that is ~180-290 ms of the
# ~200 ms it reads for every kernel (doc/bench/h100-s9-nvrtc.log).  No GPU
# needed; CUDA_HOME (default /usr/local/cuda) for nvrtc.h and libnvrtc.
#
#   sh tests/gpu/nvrtc_time.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
CUDA=${CUDA_HOME:-/usr/local/cuda}
T=${TMPDIR:-/tmp}/tkc-nvrtc.$$
mkdir -p "$T" || exit 2
trap 'rm -rf "$T"' EXIT
[ -f "$CUDA/include/nvrtc.h" ] || { echo "SKIP nvrtc_time: no $CUDA/include/nvrtc.h"; exit 0; }
gcc -std=c11 -O1 -D_GNU_SOURCE -I"$CUDA/include" tests/gpu/nvrtc_time.c -o "$T/nvrtc_time" \
    -L"$CUDA/lib64" -lnvrtc -Wl,-rpath,"$CUDA/lib64" || exit 1
k() { "$TKC" "stdlib/$1.tk" --target=cuda --emit=cuda --kernel="$2" $3 >"$T/$4.cu" || exit 1; }
k vec add "" add
k nn softmax "-D BLOCK=4096" softmax
k nn layernorm_f16 "-D BLOCK=4096 -D PASSES=1 -D warps=8 -D blocks=6" layernorm_tuned
k nn layernorm_f16 "-D BLOCK=4096" layernorm_both
k vec bias_gelu_residual "" bias_gelu_residual
O="--gpu-architecture=compute_90a --std=c++17 -default-device -w --minimal"
cd "$T" || exit 2
echo "== one process: add (warm-up), then each kernel once"
# shellcheck disable=SC2086
./nvrtc_time add.cu softmax.cu layernorm_tuned.cu layernorm_both.cu bias_gelu_residual.cu -- $O
echo "== a process per kernel (NVRTC's start-up included)"
for f in softmax layernorm_tuned; do
    # shellcheck disable=SC2086
    ./nvrtc_time $f.cu -- $O
done
