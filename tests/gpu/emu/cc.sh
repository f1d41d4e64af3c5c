#!/bin/sh
# tests/gpu/emu/cc.sh — $CC for tkc --max-autotune --target=cuda on the CPU
# stand-in for libcuda (tests/gpu/emu).
#
#   CC=tests/gpu/emu/cc.sh TKC_EMU_LIB=DIR LD_LIBRARY_PATH=DIR tkc k.tk --target=cuda --max-autotune ...
#
# DIR holds the stand-in libcuda.so.1, built from driver.cc and none.cc with
# -Wl,-soname,libcuda.so.1.  tkc runs `$CC FLAGS -o VDIR/h.so VDIR/h.c LIBS`
# for each variant and leaves the variant's device code in VDIR/k.cu: this
# compiles that code as C++ against emu.h, links it into h.so as the table
# tk_emu_module_kernels (the emulator runs a module's kernels from the
# object holding its image) and links h.so against the stand-in library.
# Then it runs ${EMU_CC:-gcc} with tkc's arguments.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=""; prev=""
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
dir=$(dirname "${out:-.}")
if [ -z "$out" ] || [ ! -f "$dir/k.cu" ]; then exec "${EMU_CC:-gcc}" "$@"; fi
sed '1,/end of the tkc device prelude/d' "$dir/k.cu" >"$dir/kernels.cu"
{
    echo '#include "emu.h"'
    echo '#include "kernels.cu"'
    echo 'extern "C" const tk_emu_kernel tk_emu_module_kernels[] = {'
    sed -n 's/^extern "C" __global__ void __launch_bounds__([0-9]*) \([A-Za-z_][A-Za-z0-9_]*\)(.*/    { "\1", [](void **a) { tk_emu_call(\1, a); } },/p' "$dir/kernels.cu"
    echo '    { 0, 0 } };'
    echo 'extern "C" const int tk_emu_module_nkernels = sizeof tk_emu_module_kernels / sizeof *tk_emu_module_kernels - 1;'
} >"$dir/kernels.cc"
g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -I "$here" -I "$dir" -c -o "$dir/kernels.o" "$dir/kernels.cc" || exit 1
exec "${EMU_CC:-gcc}" "$@" "$dir/kernels.o" -L"${TKC_EMU_LIB:?set TKC_EMU_LIB}" -l:libcuda.so.1 -lstdc++ -lpthread
