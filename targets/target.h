/*
 * targets/target.h — what every target implements: print a header for a
 * list of lowered kernels.  Targets are chosen by name from a table in
 * targets/target.c (`--target=c`, `cuda`, `nvptx`).
 */
#ifndef TKC_TARGET_H
#define TKC_TARGET_H

#include "../lower/tir.h"

/* One public entry point over several instantiations of a kernel (tkc
 * --max-autotune with several --tune shapes).  The instantiations are among
 * the kernels emitted, under their own C names; the entry point `name` takes
 * the kernel's parameters and calls variants[cases[c]] when the run-time dims
 * equal shape c, otherwise the variant of the nearest shape (least sum over
 * dims of |d - t| / max(d, t)), and variants[fallback] instead when that one
 * fails a require. */
typedef struct TargetDispatch {
    const char *name;
    TirKernel **variants; int nvariants;
    int fallback;              /* the default const values, or -1 */
    const int64_t *shapes;     /* ncases rows, one value per KernelInfo.dims entry */
    const int *cases;          /* per shape: index into variants */
    int ncases;
} TargetDispatch;

/* A persistent store for compiled code (tkc --max-autotune's cache): an
 * entry per kind ("ptx") and key text; get gives NULL when the entry is
 * missing or corrupt (the caller rebuilds and puts it). */
typedef struct TargetCache {
    char *(*get)(Arena *a, const char *kind, const char *key, size_t *len);
    void (*put)(Arena *a, const char *kind, const char *key, const char *data, size_t len);
} TargetCache;

typedef struct TargetOptions {
    const char *source;        /* the .tk path, for the header's comment */
    const char *guard;         /* include-guard macro name */
    const TargetDispatch *dispatch;   /* printed after the kernels */
    int ndispatch;
    const char *arch;          /* cuda: sm_80 .. sm_90a (NULL: sm_90a) */
    bool llvm;                 /* cuda: PTX from LLVM's NVPTX backend, not NVRTC
                                * (--codegen=llvm; --target=nvptx sets it) */
    const char *options;       /* the command line's options that shape the output, for the banner */
    const TargetCache *cache;  /* compiled code to reuse (cuda: PTX, cubin), or NULL */
} TargetOptions;

typedef struct Target {
    const char *name;
    /* The body of the header for these kernels (entry points and what they
     * need), without the include guard; returns false after reporting an
     * error to d. */
    bool (*emit)(Buf *out, TirKernel **kernels, int n, const TargetOptions *o, Diag *d);
} Target;

const Target *target_find(const char *name);
/* The whole header: banner, guard, prelude, every target's code. */
bool target_emit_header(FILE *out, const Target **targets, int ntargets,
                        TirKernel **kernels, int n, const TargetOptions *o, Diag *d);

/* targets/c: `NAME_dl(const DLTensor *, ..., scalars EXTRA_DECL)` under
 * #ifdef TKC_DLPACK, for kernel k whose entry point `callee` takes the C
 * target's arguments (pname: C names of k's params) then EXTRA_ARGS; tensors
 * must be on DLPack device type `device` (1 kDLCPU, 2 kDLCUDA).  extra_decl
 * and extra_args start with ", " or are NULL. */
bool target_emit_dlpack(Buf *out, const TirKernel *k, const char *const *pname, const char *name,
                        const char *callee, int device, const char *extra_decl,
                        const char *extra_args, Diag *d);

extern const Target target_c;
extern const Target target_cuda;
/* The cuda target's header (same entry points NAME_cuda) with o->llvm set. */
extern const Target target_nvptx;

/* targets/cuda: --emit=cuda prints the device code (CUDA C), --emit=ptx its
 * PTX (from NVRTC, or from LLVM with o->llvm), --emit=llvm the LLVM IR. */
bool cuda_emit_text(FILE *out, const char *kind, TirKernel **kernels, int n, const TargetOptions *o,
                    Diag *d);
/* --emit=pir: the per-thread IR of each kernel (lower/pir.h) for arch (NULL: sm_90a). */
bool cuda_emit_pir(FILE *out, TirKernel **kernels, int n, const char *arch, Diag *d);

/* targets/nvptx: was tkc built with LLVM?  Otherwise the message to print. */
const char *nvptx_unavailable(void);

#endif
