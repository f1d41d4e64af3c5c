/*
 * lower/tir.h — the tile IR: the interface between lowering and targets.
 *
 * One TirKernel is one instantiation of a kernel: every const parameter has
 * a value, so every tile has a concrete shape.  Instructions live in
 * structured blocks (FOR/IF/WHILE nest blocks); each instruction defines at
 * most one value, whose id is the instruction's index in k->instrs (id 0 is
 * reserved for "no value").  Values are immutable; `var`s are explicit
 * VAR_GET/VAR_SET slots.  A value defined in a block is visible in that
 * block after its definition and in blocks nested there.
 *
 * Passes run in lower/pipeline.c; targets print the result.
 */
#ifndef TKC_TIR_H
#define TKC_TIR_H

#include "../lang/lang.h"
#include "../sema/sema.h"
#include "ops.h"

#define TIR_MAXRANK 4

typedef struct TTy {
    DType dt;
    int rank;                      /* 0: scalar */
    int64_t dim[TIR_MAXRANK];
} TTy;

typedef struct TBlock TBlock;

typedef struct Instr {
    Op op;
    int id;                        /* value id == index in TirKernel.instrs */
    TTy ty;                        /* result type (STORE, VAR_SET, control: dt DT_BOOL rank 0, unused) */
    int args[3];                   /* value ids; 0 = absent (LOAD mask/other, STORE mask) */
    int nargs;
    int64_t ival;                  /* CONST (ints/bool), ARANGE start; DOT: 1 when its f32
                                    * operands are rounded to tf32 (allow_tf32) */
    double fval;                   /* CONST (floats) */
    int index;                     /* DIM, ARG, STRIDE, LOAD/STORE: param index; VAR_*: var id */
    int axis;                      /* PROGRAM_ID, EXPAND_DIMS, REDUCE, CUMSUM, STRIDE */
    int perm[TIR_MAXRANK];         /* TRANS */
    ReduceKind rkind;              /* REDUCE; ATOMIC: RK_SUM (atomic_add) or RK_MAX */
    bool unchecked;                /* LOAD/STORE written `unchecked` */
    const char *label;             /* PRINT */
    TBlock *blocks[2];             /* FOR: body; IF: then, else; WHILE: cond, body */
    TBlock *parent;                /* the block holding this instruction */
    Span span;                     /* source, for messages */
} Instr;

struct TBlock {
    Vec(int) ins;                  /* instruction ids in order */
    Instr *owner;                  /* the FOR/IF/WHILE, or NULL for the kernel body */
};

typedef struct TVar {
    const char *name;
    TTy ty;
} TVar;

typedef struct TRequire {
    int cond;                      /* bool scalar value computed in the body's head */
    const char *text;              /* the condition's source text */
} TRequire;

typedef struct TirKernel {
    Arena *arena;
    const KernelInfo *info;        /* sema's description: params, dims, consts */
    const char *name;              /* C name of this instantiation */
    int64_t *cvals;                /* const param values (info->nconsts) */
    Vec(Instr *) instrs;           /* by id; instrs.v[0] is a placeholder */
    TBlock *body;
    /* The body starts with a "head": scalar instructions that use only
     * CONST/DIM/ARG/STRIDE (grid sizes, require conditions).  The launcher
     * evaluates those; programs may use them too. */
    int grid[3];                   /* value ids (i64 scalars); ngrid of them */
    int ngrid;
    Vec(TRequire) requires;
    Vec(TVar) vars;
    /* Launch options (GPU targets; 0: the target chooses): warps per
     * program, and the depth of the software pipeline of loops feeding a dot
     * (lower/gpu_mma.c); a producer warpgroup for a K loop's TMA copies
     * (sm_90a), and a persistent grid (one block per multiprocessor, each
     * looping over programs); and blocks, the resident blocks per
     * multiprocessor the code is compiled for (PirFunc.min_blocks; 0: the
     * lowering's own choice).  From @launch or -D, or from the
     * --max-autotune variant (tir_launch). */
    int warps, stages, blocks;
    bool specialize, persistent;
    bool fast_exp2;            /* @launch(fast_exp2 = true): PirFunc.fast_exp2 */
    int cluster;               /* @launch(cluster = 2): pairs of blocks (gpu_mma.c); else 1 */
    bool llvm;                 /* @launch(llvm = true): the cuda target's PTX from LLVM
                                * (targets/cuda/header.c, cuda_emit) */
    /* GPU targets: dots may run on sm_90a's warpgroup MMA (lower/gpu_wgmma.c);
     * the target sets it from its --arch before lowering. */
    bool wgmma;
    /* GPU targets: the most shared memory a block may have on --arch (the
     * target sets it with wgmma; 0: not known). */
    int64_t smem_max;
    /* GPU targets: a store of what is computed from a var in an MMA
     * fragment layout (an attention kernel's acc) runs in that layout
     * (lower/gpu.c, store_lay), not through shared memory; set by gpu_lower
     * where the block-layout copy keeps `blocks` copies of the kernel's
     * shared memory from fitting (TKC_FIT_EPI). */
    bool epi_frag;
    /* GPU targets: dots off the tensor cores read their loaded operands
     * again from global memory at every k instead of through shared memory
     * (lower/gpu.c, plan_dot_reads); set by gpu_lower where those copies
     * keep the kernel's shared memory from fitting --arch. */
    bool dot_reload;
    /* GPU targets, kernels whose K loops copy by TMA: which version the
     * lowering builds (the target sets it; gpu_mma_kernel_head).  0: one
     * kernel that tests its tk_tma parameter; 1: the kernel for tensors with
     * tensor maps (tk_tma taken as 1, no cp.async copies); 2: the one for
     * tensors without (tk_tma taken as 0: no TMA, and unaligned operand
     * chunks staged through registers, lower/gpu_stage.c). */
    int tma_version;
    /* dims/tensors specialized by -D are constants: see info */
} TirKernel;

/* lower/lower.c: typed AST -> tile IR for one choice of const values. */
TirKernel *tir_lower(const KernelInfo *info, const int64_t *cvals, const double *fvals,
                     Arena *a, Diag *d);
/* tkc -g: `print` statements are compiled (without it each is dropped with
 * a warning). */
void tir_set_debug(bool on);
/* Set k's launch options from values per LaunchOpt (-1: the target's choice). */
void tir_launch(TirKernel *k, const int64_t *v);

/* A copy of k named name (same ids; its own blocks and instructions). */
TirKernel *tir_clone(const TirKernel *k, const char *name);
/* lower/version.c: the versions of a GPU kernel by its top-level ifs whose
 * conditions the launcher can compute (cond[i], values of k's head, ncond
 * of them), where two or more of those ifs hold a loop: k[j - 1] is version
 * j, the kernel with the condition of the if of ver[i] == j true and every
 * other cond[i] false, folded (ver[i] == 0: an if without a loop, never
 * true in a version).  False (n == 0): none. */
typedef struct TirVersions {
    int n, ncond;
    struct TirKernel **k;
    int *cond, *ver;
} TirVersions;
bool tir_versions(TirKernel *k, TirVersions *v);

/* lower/pipeline.c: the pass list.  dump: print the IR after each pass
 * whose name is in it (e.g. "fold,cse"), or after all with "all". */
void tir_optimize(TirKernel *k, const char *dump, FILE *log);

/* lower/pass.c: what passes share */
typedef void (*TirVisit)(TirKernel *k, Instr *in, void *ctx);
void tir_walk(TirKernel *k, TBlock *b, TirVisit f, void *ctx);  /* each instr, then its blocks */
/* Follow a replacement map (repl[v] != 0: v was replaced by repl[v]) for
 * every operand and for the kernel's grid and require values. */
int tir_resolve(const int *repl, int v);
void tir_apply_repl(TirKernel *k, const int *repl);
/* A new instruction placed just before `pos` in pos's block. */
Instr *tir_new_before(TirKernel *k, Instr *pos, Op op, TTy ty);
/* The instruction defining v, looking through views (BROADCAST, RESHAPE,
 * TRANS, EXPAND_DIMS) of the same values. */
Instr *tir_def(const TirKernel *k, int v);
Instr *tir_source(const TirKernel *k, int v);
bool tir_splat_const(const TirKernel *k, int v, int64_t *iv, double *fv);
void tir_log(const char *topic, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* passes, one file each */
void lower_fold(TirKernel *k);     /* constant folding and algebraic identities */
void lower_cse(TirKernel *k);      /* common subexpressions of pure ops */
void lower_dce(TirKernel *k);      /* unused pure instructions */
void lower_masks(TirKernel *k);    /* prove bound checks true from value ranges */
void lower_licm(TirKernel *k);     /* hoist loop invariants */
void lower_splat(TirKernel *k);    /* integer ops on splats as scalar ops (TKC_SPLAT_FOLD=1) */

/* lower/tir.c: construction helpers and the printer (--emit=tir) */
extern const char *const op_name[OP_COUNT];
extern const int op_nargs[OP_COUNT];
extern const int op_flags[OP_COUNT];
Instr *tir_new(TirKernel *k, TBlock *b, Op op, TTy ty);   /* appended to b */
TBlock *tir_block(TirKernel *k, Instr *owner);
bool tty_eq(const TTy *a, const TTy *b);
bool tty_same_but_ones(const TTy *a, const TTy *b);
int64_t tty_numel(const TTy *t);
void tir_print(FILE *out, const TirKernel *k);
/* The innermost FOR or WHILE around in, or NULL (in is in the body or in ifs there). */
const Instr *tir_loop_of(const Instr *in);
/* uses[v]: how many instructions use value v as an operand (recomputed) */
int *tir_use_counts(const TirKernel *k);
/* Ops kept for their effect (stores, control flow, var writes): roots of liveness. */
bool tir_is_root(Op op);
/* live[v]: value v is a root, a loop variable, or an operand of a live value
 * (arena-allocated, zeroed; the GPU and C emitters print only live values). */
bool *tir_live(Arena *a, const TirKernel *k);

#endif
