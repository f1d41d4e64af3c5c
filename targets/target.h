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
    bool nvrtc;                /* cuda: --codegen=nvrtc, every kernel's PTX from NVRTC
                                * (else those of @launch(llvm = true) from LLVM) */
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

/* targets/expr.c: scalar expressions and literals as C, for the C target
 * and the CUDA target's device and host code.  The strings live in a. */
typedef struct CxStyle {
    const char *hp;                        /* the integer helpers' prefix: "tk_" (tk_div_i32,
                                            * tk_sat_u8), "tkh_" on the CUDA host */
    const char *(*math)(Op op, bool dbl);  /* a float op's function name; NULL: cx_math */
} CxStyle;
char *cx_lit_float(Arena *a, double v, DType dt);
char *cx_lit_int(Arena *a, int64_t v, DType dt);
char *cx_lit_zero(Arena *a, DType dt);
/* x of compute type `from` to compute type `to` with the semantics of CAST. */
char *cx_conv(Arena *a, const char *x, DType from, DType to, const char *hp);
/* A compute-type value to the storage type of `to`, and back. */
char *cx_to_storage(Arena *a, const char *x, DType from, DType to, const char *hp);
char *cx_from_storage(Arena *a, const char *x, DType dt);
/* An elementwise op on operand expressions x[]; NULL when unsupported. */
char *cx_op(Arena *a, const TirKernel *k, const Instr *in, char **x, const CxStyle *st);
/* <math.h>'s names (expf, fmax, ...) and the prelude's tk_rsqrtf, tk_sigmoidf. */
const char *cx_math(Op op, bool dbl);
const char *cx_ctype(DType dt);        /* compute type: float for f16/bf16 */
const char *cx_stype(DType dt);        /* storage type: uint16_t for f16/bf16 */

/* targets/args.c: an entry point's parameter list and argument checks, the
 * same in every target.  HostNames are the C names of a kernel's parameters,
 * dims and strides (each target picks its own): pname[nparams],
 * dname[ndims], sname[p][rank] (NULL where param p has no strides). */
typedef struct HostNames {
    const char **pname, **dname, ***sname;
} HostNames;
/* "const float *x, float *y, int64_t M" (decl; restrict_: `float *restrict
 * y`) or "x, y, M"; "" for none. */
char *args_list(Arena *a, const KernelInfo *ki, const HostNames *hn, bool decl, bool restrict_);
/* s as the body of a C string literal used as a printf format. */
char *args_str(Arena *a, const char *s);
/* Dim j of tensor parameter param as an int64_t C expression, or NULL. */
char *args_dim(Arena *a, const TirKernel *k, const HostNames *hn, int param, int j);
/* The entry point NAME<suffix>(params<, extra_decl>) over tuned
 * instantiations (TargetDispatch): the nearest tuned shape (relative
 * distance over the run-time dims) picks the variant, NAMEvN<suffix>; an
 * exact match has distance 0.  A variant's failed require on an untuned
 * shape falls back to the default values. */
void args_dispatch(Buf *o, const TargetDispatch *t, const HostNames *hn, const char *suffix,
                   const char *extra_decl, const char *extra_args);
/* Whether k is a variant behind a dispatching entry point (no DLPack entry
 * point of its own). */
bool args_dispatched(const TirKernel *k, const TargetOptions *o);
typedef struct ArgCheck {
    Buf *o;
    int indent;                /* of the printed lines */
    TirKernel *k;
    HostNames hn;
    const char *name;          /* the kernel's name in the messages */
    const char *target;        /* "C", "CUDA": the diagnostics' prefix */
    bool dim_limit;            /* dims above 2^62 are rejected too */
    Diag *d;
    /* args_head: the C expression of head value v (the target prints those) */
    char *(*value)(void *ctx, int v);
    void *ctx;
} ArgCheck;
/* Negative dims; tensors too large, NULL, or with bad strides: each an
 * `if (...) return tk_fail(TK_ERR_ARG, ...);`.  False after reporting a
 * tensor dim without a value to c->d. */
bool args_check(const ArgCheck *c);
/* need[v] (k->instrs.n entries, zeroed) for every value the grid and the
 * requires use. */
void args_need(const TirKernel *k, bool *need);
/* need[] of value v and every value it is computed from. */
void args_need_value(const TirKernel *k, int v, bool *need);
/* The requires, then the grid as tk_g0..tk_g2 and its size tk_np, checked. */
void args_head(const ArgCheck *c);

/* targets/nvptx: was tkc built with LLVM?  Otherwise the message to print. */
const char *nvptx_unavailable(void);

#endif
