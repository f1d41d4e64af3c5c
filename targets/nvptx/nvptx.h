/*
 * targets/nvptx/nvptx.h — PTX from LLVM's NVPTX backend, for the cuda
 * target's header (targets/cuda/header.c) when TargetOptions.llvm is set.
 *
 *   none.c    built without LLVM: every entry point reports that
 *   llvm.c    the LLVM side: target machine, module, default<O3>, PTX
 *   gen.c     per-thread IR (lower/pir.h) -> LLVM IR, one function per kernel
 *   math.c    exp, log, tanh, erf, sin, pow, ... as LLVM IR (no libdevice)
 *
 * Only the LLVM C API (llvm-c/) is used, and only by llvm.c, gen.c, math.c.
 */
#ifndef TKC_NVPTX_H
#define TKC_NVPTX_H

#include "../cuda/cuda.h"
#include "../../lower/pir.h"

/* Every kernel of ks in one LLVM module compiled to PTX for arch (sm_80 ..
 * sm_90a): bin->ptx and bin->ms, and ck[i] (name, block size, dynamic
 * shared memory) as emit.c would give them.  With ir != NULL, *ir is the
 * module's LLVM IR after the pass pipeline instead and bin->ptx is NULL.
 * False after reporting to d. */
bool nvptx_compile(Arena *a, TirKernel **ks, int n, CudaKernel *ck, const char *arch, char **ir,
                   CudaBinary *bin, Diag *d);
/* The same from per-thread IR already built (tests build it by hand). */
bool nvptx_compile_pir(Arena *a, PirFunc **fs, int n, CudaKernel *ck, const char *arch, char **ir,
                       CudaBinary *bin, Diag *d);

#endif
