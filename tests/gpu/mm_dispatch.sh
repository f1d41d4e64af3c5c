#!/bin/sh
# tests/gpu/mm_dispatch.sh — the header that stdlib/README.md ("Few rows")
# tells users to build: matmul_bf16 and matmul_f16 dispatching over
# stdlib/matmul.tktune (few-rows tiles for small M, the default tile
# above), checked by tests/gpu/mm_dispatch_check.c on the GPU, or with
# TKC_GPU_EMU=1 on the CPU stand-in for libcuda (tests/gpu/emu).
#
#   [TKC_GPU_EMU=1] sh tests/gpu/mm_dispatch.sh
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
D=$(dirname "$TKC")/gpu-mm-dispatch
CC=${CC:-gcc}
mkdir -p "$D"
# every shape the table has a line for (matmul_f16's are matmul_bf16's)
TUNE=$(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune)
F="--kernel=matmul_bf16,matmul_f16 --max-autotune --tune-table stdlib/matmul.tktune $TUNE"
# shellcheck disable=SC2086
"$TKC" stdlib/matmul.tk --target=cuda $F -o "$D/d.h" 2>"$D/tkc.log" || { cat "$D/tkc.log"; exit 1; }
$CC -std=c11 -O2 -DTKC_CUDA_HOST_COPY -I "$D" -o "$D/check" tests/gpu/mm_dispatch_check.c -lm -ldl || exit 1
env=""
if [ "${TKC_GPU_EMU:-0}" = 1 ]; then
    # shellcheck disable=SC2086
    "$TKC" stdlib/matmul.tk --target=cuda $F --emit=cuda 2>/dev/null | sed '1,/end of the tkc device prelude/d' >"$D/kernels.cu"
    {
        echo '#include "emu.h"'
        echo '#include "kernels.cu"'
        echo 'const tk_emu_kernel tk_emu_kernels[] = {'
        sed -n 's/^extern "C" __global__ void __launch_bounds__([0-9, ]*) \([A-Za-z_][A-Za-z0-9_]*\)(.*/    { "\1", [](void **a) { tk_emu_call(\1, a); } },/p' "$D/kernels.cu"
        echo '    { 0, 0 } };'
        echo "const int tk_emu_nkernels = sizeof tk_emu_kernels / sizeof *tk_emu_kernels - 1;"
    } >"$D/kernels.cc"
    g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -shared -Wl,-soname,libcuda.so.1 -I tests/gpu/emu -I "$D" \
        -o "$D/libcuda.so.1" tests/gpu/emu/driver.cc "$D/kernels.cc" -lpthread -ldl || exit 1
    env="LD_LIBRARY_PATH=$D"
fi
# shellcheck disable=SC2086
env $env "$D/check"
