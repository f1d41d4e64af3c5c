/*
 * targets/cuda/cuda.h — the CUDA target's pieces and what they share.
 *
 *   print.c   the per-thread IR (lower/pir.h, built by lower/gpu.c) -> CUDA C
 *             device code (one __global__ per kernel), and the device prelude
 *   check.c   the argument checks and the head as one host function per kernel
 *   nvrtc.c   NVRTC (dlopen) -> PTX, and ptxas -> cubin when it is around
 *   header.c  the header part: embedded PTX/cubin, driver loader, launchers
 *   ../nvptx  the PTX from LLVM instead of NVRTC (--target=nvptx)
 *   ../expr.c scalar expressions and literals (cx_*, shared with the C
 *             target), printed the same way for the device code and for the
 *             host launcher's head (grid, requires)
 *
 * Only target_cuda, target_nvptx, cuda_emit_pir and cuda_emit_text
 * (targets/target.h) leave the folder.
 */
#ifndef TKC_CUDA_H
#define TKC_CUDA_H

#include "../../lower/pir.h"
#include "../target.h"

/* ---------------------------------------------------------------- print.c */

typedef struct CudaKernel {
    const char *name;      /* the __global__ function (the kernel's C name) */
    int threads;           /* block size */
    int64_t smem;          /* dynamic shared memory bytes */
    const PirFunc *f;      /* its parameters (the launcher builds PP_TMAP ones) */
    int alt;               /* the module index of its NAME__nomap version, or -1 */
} CudaKernel;

/* The device prelude every module starts with; the tensor-core helpers. */
extern const char cuda_device_prelude[];
extern const char cuda_mma_prelude[];
/* Every kernel lowered to the per-thread IR (gpu_lower_versions): *fs
 * holds the n kernels' functions in order, then the NAME__nomap versions;
 * ck (room for 2n) gets each function, ck[i].alt the index of kernel i's
 * second version; own[j] the kernel of function j.  Returns the number of
 * functions, -1 after reporting to d. */
int cuda_lower_all(Arena *a, TirKernel **ks, int n, PirFunc ***fs, CudaKernel *ck, int **own, Diag *d);
/* The function as CUDA C, appended to out. */
void cuda_print_func(Buf *out, const PirFunc *f);

/* ---------------------------------------------------------------- check.c */

/* Host C names of the kernel's parameters, dims and strides (the C
 * target's calling convention; HostNames in targets/target.h). */
HostNames cuda_host_names(Arena *a, const KernelInfo *ki);
/* static tk_status NAME__check(<params>, int64_t tk_grid[3]): argument
 * checks, requires and the grid (targets/args.c, as the C target's). */
bool cuda_emit_check(Buf *out, TirKernel *k, const HostNames *hn, Diag *d);
/* static int NAME__version(<params>): which of the kernel's versions runs
 * (lower/version.c): j where of the conditions v->cond[] (head values) only
 * the one of version j holds, else 0 (the whole kernel). */
bool cuda_emit_version(Buf *out, TirKernel *k, const HostNames *hn, const TirVersions *v, Diag *d);
/* The tensor's extent in elements (max offset + 1, or 0), as a C expression
 * valid after NAME__check succeeded. */
char *cuda_extent(Arena *a, TirKernel *k, const HostNames *hn, int param);

/* ---------------------------------------------------------------- nvrtc.c */

typedef struct CudaBinary {
    char *ptx;             /* NUL-terminated */
    unsigned char *cubin;  /* or NULL */
    size_t ncubin;
    double ms;             /* NVRTC (or LLVM) compile time */
    bool cached;           /* from the code cache: no NVRTC */
} CudaBinary;
/* arch: "sm_90a" ...; cache: the code cache, or NULL.  False after
 * reporting to d. */
bool cuda_compile(Arena *a, const char *src, const char *arch, bool want_cubin,
                  const TargetCache *cache, CudaBinary *out, Diag *d);
bool cuda_nvrtc_version(Arena *a, int *major, int *minor);
/* ptxas -arch=ARCH on ptx into out->cubin when ptxas is found and
 * TKC_CUBIN is not 0; false (reported) when ptxas rejects the PTX. */
bool cuda_assemble(Arena *a, const char *ptx, const char *arch, CudaBinary *out, Diag *d);
bool cuda_arch_ok(const char *arch);
int64_t cuda_arch_smem(const char *arch);   /* the most dynamic shared memory per block */

#endif
