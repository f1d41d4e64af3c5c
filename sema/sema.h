/*
 * sema/sema.h — name resolution, types, symbolic shapes.
 *
 * sema_check walks every kernel and, at each call, instantiates functions
 * for the argument types (memoized: one error is reported once).  It sets
 * Expr.type / Expr.cval and binds names, and describes each kernel for the
 * later stages in a KernelInfo: its const params, run-time dims and tensor
 * params, which is all a target needs to print an entry point.
 */
#ifndef TKC_SEMA_H
#define TKC_SEMA_H

#include "../lang/lang.h"

/* X(enum, "name") — builtin functions.  MAX_R/MIN_R are the reducing forms
 * of max/min (one positional argument), resolved by sema. */
#define TK_BUILTINS(X)                                                          \
    X(BI_PROGRAM_ID, "program_id") X(BI_NUM_PROGRAMS, "num_programs")           \
    X(BI_ARANGE, "arange") X(BI_ZEROS, "zeros") X(BI_FULL, "full")              \
    X(BI_LOAD, "load") X(BI_STORE, "store") X(BI_WHERE, "where")                \
    X(BI_DOT, "dot") X(BI_TRANS, "trans") X(BI_RESHAPE, "reshape")              \
    X(BI_BROADCAST, "broadcast") X(BI_EXPAND_DIMS, "expand_dims")               \
    X(BI_CDIV, "cdiv") X(BI_MIN, "min") X(BI_MAX, "max") X(BI_POW, "pow")       \
    X(BI_FMA, "fma") X(BI_SUM, "sum") X(BI_ARGMAX, "argmax")                    \
    X(BI_ARGMIN, "argmin") X(BI_CUMSUM, "cumsum")                               \
    X(BI_EXP, "exp") X(BI_EXP2, "exp2") X(BI_LOG, "log") X(BI_LOG2, "log2")     \
    X(BI_SQRT, "sqrt") X(BI_RSQRT, "rsqrt") X(BI_SIN, "sin") X(BI_COS, "cos")   \
    X(BI_TANH, "tanh") X(BI_ERF, "erf") X(BI_SIGMOID, "sigmoid")                \
    X(BI_ABS, "abs") X(BI_FLOOR, "floor") X(BI_CEIL, "ceil")                    \
    X(BI_ATOMIC_ADD, "atomic_add") X(BI_ATOMIC_MAX, "atomic_max")              \
    X(BI_MAX_R, "max") X(BI_MIN_R, "min")

typedef enum {
#define X(e, s) e,
    TK_BUILTINS(X)
#undef X
    BI_COUNT
} Builtin;
extern const char *const builtin_name[BI_COUNT];

typedef enum {
    BIND_CONST,    /* const param: index into KernelInfo.consts */
    BIND_DIM,      /* run-time dim: index into KernelInfo.dims */
    BIND_TENSOR,   /* tensor param: index into KernelInfo.params */
    BIND_SCALAR,   /* scalar param: index into KernelInfo.params */
    BIND_LET,
    BIND_VAR,
    BIND_LOOP,     /* for / static_for induction variable */
    BIND_FN,       /* fn */
    BIND_VALUE,    /* inf, nan: fval */
} BindKind;

struct Binding {
    BindKind kind;
    const char *name;
    Span span;
    Type *type;
    Sym *cval;             /* compile-time integer value, when known */
    int index;
    double fval;           /* BIND_VALUE */
    FnDecl *fn;            /* BIND_FN */
    bool is_static;        /* static_for variable */
    int ir;                /* lowering's scratch: TIR value or var id */
};

/* A function instantiated for one list of argument types. */
struct FnInst {
    FnDecl *fn;
    Block *body;           /* a private, typed copy */
    Binding **params;
    Type *ret;             /* TY_VOID when it returns nothing */
    Expr *ret_expr;        /* the final `return e;` value, or NULL */
};

typedef struct ConstInfo {
    const char *name;
    Span span;
    TypeExprKind kind;     /* TE_INT, or TE_DTYPE with dt (bool/float) */
    DType dt;
    bool has_value;        /* default or -D */
    int64_t ival;          /* TE_INT and bool */
    double fval;           /* float consts */
    Sym *sym;              /* the symbol shapes use */
} ConstInfo;

typedef struct DimInfo {   /* a run-time dim, in order of first appearance */
    const char *name;
    Span span;
    bool specialized;      /* -D NAME=value: a constant, not passed */
    int64_t value;
} DimInfo;

typedef struct TensorDim {
    int dim;               /* index into KernelInfo.dims, or -1 ... */
    Sym *size;             /* ... then a compile-time size */
} TensorDim;

typedef struct ParamInfo {
    const char *name;
    Span span;
    bool is_tensor;
    DType dt;
    int rank;              /* tensors */
    TensorDim *dims;
    bool strided;
    bool stored;           /* some store() writes it: the pointer is not const */
} ParamInfo;

/* The launch options of GPU targets, set by @launch, listed by @autotune
 * and pinned by -D (LANGUAGE.md, "Attributes"). */
typedef enum LaunchOpt {
    LO_WARPS,              /* warps per program: a power of two, 1..32 */
    LO_STAGES,             /* software pipeline depth of dot K loops: 1..8 */
    LO_SPECIALIZE,         /* 0/1: a producer warpgroup issues the K loop's copies (sm_90a) */
    LO_PERSISTENT,         /* 0/1: one block per multiprocessor loops over the programs */
    LO_BLOCKS,             /* resident blocks per multiprocessor to compile for: 1..32, 0 no hint */
    LO_FAST_EXP2,          /* 0/1: f32 exp2 on the GPU may flush subnormal results to zero */
    LO_CLUSTER,            /* 1/2: blocks per cluster (pairs share a specialized K loop's copies, sm_90a) */
    LO_LLVM,               /* 0/1: the cuda target's PTX for this kernel from LLVM, not NVRTC */
    LO_N
} LaunchOpt;
extern const char *const sema_launch_names[LO_N];
int sema_launch_opt(const char *name);     /* its LaunchOpt, or -1 */

typedef struct TuneAxis {  /* one @autotune(NAME = [...]) entry */
    const char *name;
    int konst;             /* const param index, or -1 for a launch option */
    int launch;            /* konst < 0: its LaunchOpt */
    int space;             /* which @autotune of the kernel (0, 1, ...) lists it */
    int64_t *values;
    int n;
} TuneAxis;

typedef struct KernelInfo {
    KernelDecl *decl;
    const char *name;
    bool in_main;          /* declared in the main file */
    ConstInfo *consts; int nconsts;
    ParamInfo *params; int nparams;
    DimInfo *dims; int ndims;
    TuneAxis *tune; int ntune;   /* the axes of every @autotune, in order */
    int nspaces;           /* how many @autotune: the space is the union of their products */
    int launch[LO_N];      /* @launch(warps = 8, ...) or -D warps=8; -1: the target's choice */
    SymTab *syms;
} KernelInfo;

typedef struct Define {    /* -D NAME=VALUE */
    const char *name, *value;
    bool used;
} Define;

typedef struct SemaResult {
    KernelInfo **kernels;
    int nkernels;
} SemaResult;

/* Check the whole program; kernels get -D values applied (a -D naming no
 * const param or dim of any kernel is an error); arch: ARCH's value. */
SemaResult *sema_check(Program *p, Define *defs, int ndefs, int arch, Diag *d);

/* ARCH in const defaults: the compute capability of --arch times ten
 * (sm_80: 80, sm_90a: 90; no --arch: sm_90a's). */
int sema_arch_of(const char *arch);

/* Helpers later stages share. */
char *type_str(Arena *a, const Type *t);      /* "f32[BM, BN]", "i32" */
DType sema_promote(const Type *a, const Type *b);   /* the common dtype of two operands */

#endif
