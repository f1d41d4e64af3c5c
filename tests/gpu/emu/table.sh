#!/bin/sh
# tests/gpu/emu/table.sh — the C++ that runs tkc's device code on the CPU
# stand-in for libcuda (emu.h): `table.sh TABLE KERNELS.cu` prints it, with
# the kernel table TABLE (tk_emu_kernels for the library's own,
# tk_emu_module_kernels for a tuning variant's; see driver.cc).  KERNELS.cu
# is the output of tkc --emit=cuda; its prelude is dropped.  With a third
# argument `decl` the kernels are only declared (their code is the nvptx
# target's host-mode IR, compiled apart: see cc.sh).
set -u
t=$1; f=$2
echo '#include "emu.h"'
if [ "${3:-}" = decl ]; then
    sed -n 's/^extern "C" __global__ void __launch_bounds__([0-9, ]*) \(.*)\)$/extern "C" void \1;/p' "$f"
else
    sed '1,/end of the tkc device prelude/d' "$f"
fi
echo "extern const tk_emu_kernel ${t}[] = {"
sed -n 's/^extern "C" __global__ void __launch_bounds__([0-9, ]*) \([A-Za-z_][A-Za-z0-9_]*\)(.*/    { "\1", [](void **a) { tk_emu_call(\1, a); } },/p' "$f"
echo '    { 0, 0 } };'
n=$(echo "$t" | sed 's/kernels$/nkernels/')
echo "extern const int $n = sizeof $t / sizeof *$t - 1;"
