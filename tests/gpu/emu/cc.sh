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
# Then it runs ${EMU_CC:-gcc} with tkc's arguments.  With TKC_NVPTX_HOST=1
# (tuning --target=nvptx) the kernels are VDIR/k.ll instead, the nvptx
# target's host-mode IR, compiled by LLVM 19's llc (LLC=...) with nvptx.cc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=""; prev=""
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
dir=$(dirname "${out:-.}")
if [ -z "$out" ] || [ ! -f "$dir/k.cu" ]; then exec "${EMU_CC:-gcc}" "$@"; fi
cxx() { g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -I "$here" "$@"; }
objs="$dir/kernels.o"
if [ "${TKC_NVPTX_HOST:-}" = 1 ]; then
    [ -f "$dir/k.ll" ] || { echo "error: no $dir/k.ll (tkc --target=nvptx makes it)"; exit 1; }
    sh "$here/table.sh" tk_emu_module_kernels "$dir/k.cu" decl >"$dir/kernels.cc"
    "${LLC:-/usr/lib/llvm-19/bin/llc}" -O1 -filetype=obj -relocation-model=pic -o "$dir/k.o" "$dir/k.ll" || exit 1
    cxx -c -o "$dir/nvptx.o" "$here/nvptx.cc" || exit 1
    objs="$objs $dir/k.o $dir/nvptx.o"
else
    sh "$here/table.sh" tk_emu_module_kernels "$dir/k.cu" >"$dir/kernels.cc"
fi
cxx -c -o "$dir/kernels.o" "$dir/kernels.cc" || exit 1
# shellcheck disable=SC2086
exec "${EMU_CC:-gcc}" "$@" $objs -L"${TKC_EMU_LIB:?set TKC_EMU_LIB}" -l:libcuda.so.1 -lstdc++ -lpthread
