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
sh "$here/table.sh" tk_emu_module_kernels "$dir/k.cu" >"$dir/kernels.cc"
g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -I "$here" -c -o "$dir/kernels.o" "$dir/kernels.cc" || exit 1
exec "${EMU_CC:-gcc}" "$@" "$dir/kernels.o" -L"${TKC_EMU_LIB:?set TKC_EMU_LIB}" -l:libcuda.so.1 -lstdc++ -lpthread
