#!/bin/sh
# tests/gpu/s9ln/final.sh — (on the GPU) s9-ln's closing run: the memory-bound
# bench (tuned on the device), the layernorm/softmax run tests under memcheck,
# then NVRTC compile times on the GPU machine's host with and without the
# printer's dead-arm elision (TKC_PRINT_DEAD=1: as before).
set -u
cd "$(dirname "$0")/../../.."
echo "=== sh tests/gpu/bench.sh"
sh tests/gpu/bench.sh
echo "=== sh tests/gpu/run.sh nn_layernorm nn_layernorm_p1 nn_layernorm_p3 norms softmax"
sh tests/gpu/run.sh nn_layernorm nn_layernorm_p1 nn_layernorm_p3 norms softmax
K="stdlib/nn.tk:softmax:-D BLOCK=4096
stdlib/nn.tk:layernorm_f16:-D BLOCK=4096 -D PASSES=1 -D warps=8 -D blocks=5
stdlib/nn.tk:layernorm_f16:-D BLOCK=4096 -D PASSES=1 -D warps=8 -D blocks=6
stdlib/vec.tk:bias_gelu_residual:"
for kn in 1 0 1 0; do
    echo "=== compile_time.sh 3, TKC_PRINT_DEAD=$kn (GPU machine's host)"
    KERNELS="$K" TKC_PRINT_DEAD=$kn sh tests/gpu/compile_time.sh 3
done
