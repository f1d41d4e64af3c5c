/*
 * tests/gpu/emu/none.cc — an empty kernel table: the stand-in libcuda.so.1
 * for tkc --max-autotune, where each variant's harness brings its own
 * kernels (see cc.sh).
 */
#include "emu.h"

const tk_emu_kernel tk_emu_kernels[] = { { 0, 0 } };
const int tk_emu_nkernels = 0;
