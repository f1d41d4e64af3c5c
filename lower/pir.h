/*
 * lower/pir.h — the per-thread IR (PIR): what a GPU target prints.
 *
 * lower/gpu.c turns an optimized TirKernel into one PirFunc: every tile has
 * been given a distributed layout, so what is left is the program of ONE
 * thread of a block, with explicit thread and block indices, register
 * arrays, shared memory, barriers, warp shuffles and the few PTX
 * instructions C cannot spell (ldmatrix, mma.sync, ...).  targets/cuda
 * prints it as CUDA C; targets/nvptx builds LLVM IR from it.  Nothing here
 * is C text: types, operations and intrinsics are enums whose semantics
 * this header defines.
 *
 * Shape of a function: parameters, mutable locals (scalars or fixed-length
 * register arrays, not SSA: CUDA prints locals, LLVM uses allocas and
 * mem2reg/SROA), and a body of structured statements whose expressions are
 * trees.  Array elements are indexed by expressions that are constants once
 * the loops marked `unroll` are fully unrolled (the LLVM builder may unroll
 * such loops itself: their bounds are constants).
 *
 * Stability: the nvptx target is written against this header.  Later
 * changes only ADD (new enum members at the end, new fields); additions are
 * listed at the end of this comment.
 *
 * Additions: PirExpr.nsw and pir_nsw (index arithmetic that cannot overflow,
 * divisions without special cases).  PA_CP_ASYNC, PA_CP_COMMIT, PA_CP_WAIT
 * (asynchronous global-to-shared copies, sm_80+).  Asm statements bound to
 * a register array (PirStmt.acc, acc0, nacc; pir_asm_text, pir_asm_cons; later
 * pir_asm_text_at, pir_asm_cons_run for several in one asm),
 * PA_WG_FENCE, PA_WGMMA_BF16, PA_WGMMA_F16, PA_WG_COMMIT, PA_WG_WAIT,
 * PA_FENCE_PROXY (warpgroup MMA, sm_90a) and PirFunc.smem_align.
 * PA_WGMMA_RA_BF16, PA_WGMMA_RA_F16 (A from registers; PirStmt.in has 8).
 * PP_TMAP, PP_TMA_OK, PirParam.box, PA_MBAR_INIT, PA_MBAR_FENCE,
 * PA_MBAR_EXPECT, PA_MBAR_WAIT, PA_TMA_LOAD2, PA_TMA_LOAD4 (tensor memory access, sm_90).
 * PA_MBAR_ARRIVE, PA_NREG_INC, PA_NREG_DEC, PirStmt.bar and nbar (named
 * barriers over the first nbar threads), PirFunc.min_blocks (warp
 * specialization, sm_90a).
 * PA_CVT_TF32, PA_MMA_TF32, PA_MMA_S8 (mma.sync on tf32 and s8, sm_80).
 * PA_CP_MBAR_ARRIVE (cp.async completion on an mbarrier, sm_80).
 * PirFunc.fast_exp2.
 * PA_WGMMA_TF32, PA_WGMMA_S8 (warpgroup MMA on tf32 and s8; a bound register
 * array of I32 takes "r" constraints), PA_WGMMA_RA_TF32.
 * PA_NBAR_SYNC, PA_NBAR_ARRIVE (named barriers with a run-time id; arrival only).
 */
#ifndef TKC_PIR_H
#define TKC_PIR_H

#include "../lang/lang.h"

/* ------------------------------------------------------------ types */

/* Scalar types.  F16/BF16 are 16-bit STORAGE (the bits of an IEEE half or
 * a bfloat16): no arithmetic on them, only PE_CONV to and from F32,
 * PE_BITCAST and memory.  BOOL is 1 bit in registers and one byte (0 or 1)
 * in memory.  PTR is a generic 64-bit pointer to global memory; an
 * expression of type PTR carries its element type in PirExpr.elem. */
#define PIR_TYPES(X)                                              \
    X(PT_VOID, "void", 0)  /* statements only */                  \
    X(PT_BOOL, "i1",   8)                                         \
    X(PT_I8,   "i8",   8)                                         \
    X(PT_I16,  "i16",  16)                                        \
    X(PT_I32,  "i32",  32)                                        \
    X(PT_I64,  "i64",  64)                                        \
    X(PT_U8,   "u8",   8)                                         \
    X(PT_U16,  "u16",  16)                                        \
    X(PT_U32,  "u32",  32)                                        \
    X(PT_U64,  "u64",  64)                                        \
    X(PT_F16,  "f16",  16)                                        \
    X(PT_BF16, "bf16", 16)                                        \
    X(PT_F32,  "f32",  32)                                        \
    X(PT_F64,  "f64",  64)                                        \
    X(PT_PTR,  "ptr",  64)

typedef enum {
#define X(n, s, b) n,
    PIR_TYPES(X)
#undef X
    PT_COUNT
} PirTy;

extern const char *const pir_ty_name[PT_COUNT];
extern const int pir_ty_bits[PT_COUNT];     /* in memory: BOOL 8 */
bool pir_ty_float(PirTy t);                 /* F32, F64 (not the storage types) */
bool pir_ty_signed(PirTy t);                /* I8..I64 */
bool pir_ty_int(PirTy t);                   /* I8..U64 (not BOOL) */
PirTy pir_ty_of(DType dt);                  /* storage type of a tile dtype: f16 -> PT_F16 */
PirTy pir_ty_compute(DType dt);             /* register type: f16, bf16 -> PT_F32 */

/* ------------------------------------------------------------ functions */

typedef enum {
    PP_TENSOR,     /* PTR to the tensor's elements (PirParam.ty: element storage type) */
    PP_SCALAR,     /* a scalar kernel argument, of type ty (f16: PT_F16 bits) */
    PP_DIM,        /* a run-time dim, I64 */
    PP_STRIDE,     /* a stride of a strided tensor in elements, I64 */
    PP_GRID,       /* launch geometry, I64: grid sizes g0, g1 and the program count */
    PP_TMAP,       /* a CUtensorMap (128 bytes, 64-aligned, passed by value: CUDA
                    * __grid_constant__) of rank-2 tensor param `index`: box[0]
                    * elements along the contiguous dim by box[1] rows, swizzled
                    * in rows of box[0] * elem bytes (32, 64, 128), ty its element
                    * type; a PE_PARAM of it is the map's generic address (U64).
                    * Follows the PP_GRID params. */
    PP_TMA_OK,     /* I32: 1 when the launcher built every PP_TMAP (else they are
                    * zeros and the kernel must not use them); 3: every one but
                    * the optional ones (role 3), which are zeros; last */
} PirParamKind;

enum {
    PIR_CONST = 1,         /* PP_TENSOR: never written through (CUDA const) */
    PIR_NOALIAS = 2,       /* PP_TENSOR: no other pointer reaches it (__restrict__, noalias) */
};

typedef struct PirParam {
    PirParamKind kind;
    PirTy ty;              /* element type for PP_TENSOR, else the value's type */
    unsigned flags;        /* PIR_CONST | PIR_NOALIAS */
    const char *name;      /* p0, d1, s2_0, tk_g0 ...: also the CUDA name */
    int index;             /* TIR param index / dim index (PP_STRIDE: param), -1 if none */
    int axis;              /* PP_STRIDE: the dim */
    int box[2];            /* PP_TMAP */
    int tmrank;            /* PP_TMAP: 0 a rank-2 map of a contiguous tensor; 4 a rank-4
                            * map of a strided rank-4 tensor (its dims innermost first,
                            * its strides; boxes of box[0] x box[1] x 1 x 1) */
    bool repack;           /* PP_TMAP of rank 2 in a kernel with a NAME__nomap version: the
                            * kernel reaches the tensor only through its maps, so the
                            * launcher may give them a copy with 16-byte-aligned rows
                            * (gpu_stage.c, gpu_mark_repack) */
    int role;              /* PP_TMAP: 1 the A operand (M x K) of a K loop's dot, 2 its B
                            * (K x N) (the launcher's estimate of the work; 4: B given as
                            * x (N x K) of trans(x)), 3 a result
                            * stored by TMA where PP_TMA_OK's bit 1 is clear, else by the
                            * threads (so optional), 0 else */
    bool tf32;             /* PP_TMAP of f32: encoded with data type TFLOAT32, so that
                            * TMA rounds the elements to tf32 as it copies them
                            * (TKC_WGDT_TMAROUND, gpu_wgdt_tmaround) */
} PirParam;

typedef struct PirLocal {
    int id;                /* index in PirFunc.locals */
    const char *hint;      /* name stem: printers add the id (CUDA: "v_12") */
    PirTy ty;              /* PT_PTR not allowed */
    int64_t n;             /* 0: a scalar; else a register array of n elements */
} PirLocal;

typedef struct PirStmt PirStmt;
typedef struct PirBlock { Vec(PirStmt *) s; } PirBlock;

/* The body of a kernel is a grid-stride loop over programs, built from
 * ordinary statements: for (p = (i64)ctaid; p < np; p += (i64)nctaid),
 * np a PP_GRID parameter; program ids are locals computed from p.  Shared
 * memory is one dynamic area (CUDA: extern __shared__, LLVM: an external
 * addrspace(3) array) of smem bytes, 16-byte aligned. */
typedef struct PirFunc {
    Arena *a;
    const char *name;      /* the kernel symbol (extern "C") */
    Vec(PirParam) params;  /* in call order */
    Vec(PirLocal *) locals;
    int threads;           /* block size: threadIdx.x in [0, threads); a multiple of 32 */
    int64_t smem;          /* dynamic shared memory bytes (16-byte aligned base), 0: none */
    PirBlock *body;
    int smem_align;        /* the base's alignment when above 16 (wgmma's swizzled tiles: 1024) */
    int min_blocks;        /* > 0: compiled for at least this many resident blocks per SM
                            * (CUDA __launch_bounds__(threads, min_blocks), LLVM minctasm):
                            * the register cap at entry that PA_NREG_* needs */
    bool persistent;       /* the launcher runs at most one block per SM (the program loop
                            * takes the rest) */
    bool fast_exp2;        /* f32 PM_EXP2 may flush subnormal results to zero (CUDA:
                            * ex2.approx.ftz, one instruction) */
    int cluster;           /* 2: the launcher starts the blocks in clusters of two, the grid
                            * rounded up to even (gpu_mma.c, "pairs of blocks"); else 0 */
} PirFunc;

/* ------------------------------------------------------------ expressions */

typedef enum {
    PE_CONST,      /* ty; ival (ints, BOOL; F16/BF16: the bits) or fval (F32/F64) */
    PE_LOCAL,      /* local (a scalar) */
    PE_ELEM,       /* local (an array) [a] */
    PE_PARAM,      /* params[index] (PP_TENSOR: a PTR) */
    PE_SPECIAL,    /* sreg: threadIdx.x, blockIdx.x, gridDim.x (I32) */
    PE_UN,         /* op (PU_*) a */
    PE_BIN,        /* a op (PB_*) b */
    PE_SELECT,     /* a ? b : c; a BOOL; both arms are evaluated (they have no effects) */
    PE_CONV,       /* a converted to ty: see PE_CONV semantics below */
    PE_BITCAST,    /* a's bits as ty, same width (F32 <-> U32, F64 <-> U64, F16 <-> U16) */
    PE_MATH,       /* fn (PM_*) of a [, b [, c]], all of ty F32 or F64 */
    PE_SHFL_XOR,   /* a of the lane (laneid ^ lane) of this warp; every lane of the warp executes it */
    PE_BAR_AND,    /* I32: 1 when a (I32) is nonzero in every thread of the block, else 0; a barrier
                    * (__syncthreads_and) that every thread of the block reaches */
    PE_LOAD,       /* mem; if mask a (BOOL, or NULL) is false: b (NULL: zero), memory untouched */
    PE_PTRADD,     /* a (PTR) + b (I64) elements of a's element type; elem */
    PE_PTRINT,     /* a (PTR) as U64 */
    PE_SADDR,      /* U32 shared-window address (cvta.to.shared) of dynamic shared byte a (I32) */
} PirExprKind;

typedef enum { PSR_TID, PSR_CTAID, PSR_NCTAID } PirSpecial;  /* .x only: grids are flat */

/* PE_UN: wrap-around for integers. */
typedef enum {
    PU_NEG,        /* -a; integers wrap (two's complement) */
    PU_NOT,        /* !a; BOOL only */
    PU_BITNOT,     /* ~a; integers */
} PirUnOp;

/* PE_BIN: both operands have the result's type except comparisons (result
 * BOOL, operands alike) and shifts (the count b has a's type).
 *   ADD SUB MUL  integers: wrap modulo 2^bits.  F32/F64: IEEE, round to
 *                nearest; a MUL feeding an ADD may be contracted into an
 *                fma (CUDA's default, -fmad=true).
 *   DIV          integers: truncating; a / 0 == 0; MIN / -1 == MIN (no trap).
 *                floats: IEEE (approximate division is not allowed).
 *   REM          integers: C's %, sign of a; a % 0 == 0, a % -1 == 0.
 *                floats: fmod.
 *   MIN MAX      integers: by signedness.  floats: fmin/fmax (a NaN operand
 *                gives the other operand).
 *   AND OR XOR   bitwise; on BOOL logical (both sides evaluated).
 *   SHL SHR      the count is taken modulo bits; SHR is arithmetic for
 *                signed types, logical for unsigned.
 *   LT .. NE     integers by signedness; floats ordered (false on NaN)
 *                except NE (true on NaN).  BOOL: false < true. */
typedef enum {
    PB_ADD, PB_SUB, PB_MUL, PB_DIV, PB_REM, PB_MIN, PB_MAX,
    PB_AND, PB_OR, PB_XOR, PB_SHL, PB_SHR,
    PB_LT, PB_LE, PB_GT, PB_GE, PB_EQ, PB_NE,
} PirBinOp;

/* PE_CONV from a's type to ty:
 *   to BOOL              a != 0
 *   BOOL to int/float    0 or 1
 *   int to int           truncation, or extension by a's signedness
 *   int to F32/F64       round to nearest
 *   F32 <-> F64          IEEE
 *   F32/F64 to int       saturating: truncate toward zero, clamp to the
 *                        type's range, NaN -> 0 (never undefined)
 *   F32 to F16/BF16      round to nearest even (cvt.rn.f16.f32, cvt.rn.bf16.f32)
 *   F16/BF16 to F32      exact
 * Other pairs with F16/BF16 do not occur (lowering goes through F32). */

/* PE_MATH: float functions with libm (CUDA libdevice) semantics. */
#define PIR_MATHS(X)                                                      \
    X(PM_EXP, "exp", 1)     X(PM_EXP2, "exp2", 1)   X(PM_LOG, "log", 1)   \
    X(PM_LOG2, "log2", 1)   X(PM_SQRT, "sqrt", 1)                         \
    X(PM_RSQRT, "rsqrt", 1) /* 1 / sqrt(a), correctly rounded division */ \
    X(PM_SIN, "sin", 1)     X(PM_COS, "cos", 1)     X(PM_TANH, "tanh", 1) \
    X(PM_ERF, "erf", 1)                                                   \
    X(PM_SIGMOID, "sigmoid", 1) /* 1 / (1 + exp(-a)) */                   \
    X(PM_FABS, "fabs", 1)   X(PM_FLOOR, "floor", 1) X(PM_CEIL, "ceil", 1) \
    X(PM_POW, "pow", 2)     X(PM_FMA, "fma", 3)

typedef enum {
#define X(n, s, k) n,
    PIR_MATHS(X)
#undef X
    PM_COUNT
} PirMath;
extern const char *const pir_math_name[PM_COUNT];
extern const int pir_math_nargs[PM_COUNT];

/* A memory location: global (ptr + idx elements of ty) or the dynamic
 * shared memory (byte base + idx * bytes of ty).  idx is I64 for global,
 * I32 for shared.  The location is aligned to the size of ty, or of the
 * whole vector for vector accesses (see PS_LOADV, PS_STORE). */
typedef enum { PSP_GLOBAL, PSP_SHARED } PirSpace;
typedef struct PirMem {
    PirSpace space;
    PirTy ty;              /* the element type in memory */
    struct PirExpr *ptr;   /* PSP_GLOBAL: a PTR expression */
    int64_t base;          /* PSP_SHARED: byte offset */
    struct PirExpr *idx;
} PirMem;

typedef struct PirExpr {
    PirExprKind kind;
    PirTy ty;              /* the value's type */
    PirTy elem;            /* PT_PTR values: the element type */
    int64_t ival;          /* PE_CONST */
    double fval;           /* PE_CONST */
    int op;                /* PirUnOp, PirBinOp, PirMath, PirSpecial */
    int index;             /* PE_PARAM */
    PirLocal *local;       /* PE_LOCAL, PE_ELEM */
    struct PirExpr *a, *b, *c;   /* operands; PE_LOAD: a = mask, b = other */
    int lane;              /* PE_SHFL_XOR: 1..16 */
    bool nsw;              /* PE_BIN ADD SUB MUL of signed ints: never overflows (LLVM nsw;
                            * CUDA prints plain signed C arithmetic).  DIV REM: a >= 0
                            * and b > 0, so none of DIV's special cases applies */
    PirMem mem;            /* PE_LOAD */
} PirExpr;

/* ------------------------------------------------------------ statements */

/* PS_ASM: PTX instructions C cannot spell.  Each has a fixed PTX template
 * (pir_asm[]): %0.. name the outputs then the inputs, in GCC/CUDA inline-asm
 * syntax with per-operand constraints (a digit ties an input to that
 * output).  The LLVM builder passes it to LLVMGetInlineAsm after rewriting
 * %N to $N (and escaping `$ { | }` as LLVM asks); CUDA prints a prelude
 * helper of the same meaning (which the CPU emulator also defines). */
#define PIR_ASMS(X)                                                                      \
    /* 4 x U32 out; in: U32 shared address (PE_SADDR) of this lane's row */              \
    X(PA_LDSM4,  "ldsm4",  4, 1, "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];", \
      "=r,=r,=r,=r,r", 1)                                                                \
    X(PA_LDSM4T, "ldsm4t", 4, 1, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];", \
      "=r,=r,=r,=r,r", 1)                                                                \
    /* D (4 x F32) = A (4 x U32) B (2 x U32) + C (the same 4 F32 as D, tied) */          \
    X(PA_MMA_BF16, "mma_bf16", 4, 6,                                                     \
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};", \
      "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", 0)                                              \
    X(PA_MMA_F16, "mma_f16", 4, 6,                                                       \
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};", \
      "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", 0)                                              \
    /* U32 out = two F32 rounded to bf16/f16: in[0] the low half, in[1] the high */      \
    X(PA_PACK_BF16X2, "pack_bf16x2", 1, 2, "cvt.rn.bf16x2.f32 %0, %2, %1;", "=r,f,f", 0) \
    X(PA_PACK_F16X2,  "pack_f16x2",  1, 2, "cvt.rn.f16x2.f32 %0, %2, %1;", "=r,f,f", 0)     \
    /* F32 out = in rounded to f16, widened back through the bits (a prmt ptxas       \
     * does not fold): gpu.c op_expr's f16 tile stored transposed from wgmma        \
     * fragments, whose plain round trip ptxas pairs into conversions reading two   \
     * accumulators, which serialized the K loop's wgmma (C7514) */                  \
    X(PA_ROUND_F16W, "round_f16w", 1, 1, "{ .reg .b16 h; .reg .b32 w; cvt.rn.f16.f32 h, %1; " \
      "cvt.u32.u16 w, h; prmt.b32 w, w, 0, 0x1010; cvt.u16.u32 h, w; cvt.f32.f16 %0, h; }", "=f,f", 0) \
    /* U32 out = in[0] of lane 0: for a value the same in every lane of the warp    \
     * (a warpgroup index), which ptxas then keeps in uniform registers */          \
    X(PA_WARP_UNIFORM, "warp_uniform", 1, 1, "shfl.sync.idx.b32 %0, %1, 0, 31, -1;", "=r,r", 0) \
    /* out = the old element; in: PTR global element, the value added.  acq_rel at   \
     * device scope (gpu.c fetch_add: a value-returning atomic_add) */                \
    X(PA_FETCH_ADD_U32, "fetch_add_u32", 1, 2, "atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;", "=r,l,r", 1) \
    X(PA_FETCH_ADD_U64, "fetch_add_u64", 1, 2, "atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;", "=l,l,l", 1) \
    X(PA_FETCH_ADD_F32, "fetch_add_f32", 1, 2, "atom.acq_rel.gpu.global.add.f32 %0, [%1], %2;", "=f,l,f", 1) \
    X(PA_FETCH_ADD_F64, "fetch_add_f64", 1, 2, "atom.acq_rel.gpu.global.add.f64 %0, [%1], %2;", "=d,l,d", 1) \
    /* no out; in: U32 shared address (PE_SADDR, 16-byte aligned), PTR global source   \
     * (16-byte aligned), U32 src-size (0..16): copies src-size bytes, zero-fills the   \
     * rest of the 16; asynchronous until a PA_CP_WAIT covers its group */             \
    X(PA_CP_ASYNC, "cp_async", 0, 3, "cp.async.cg.shared.global [%0], [%1], 16, %2;", "r,l,r", 1) \
    /* closes this thread's group of PA_CP_ASYNC issued since the last commit */        \
    X(PA_CP_COMMIT, "cp_commit", 0, 0, "cp.async.commit_group;", "", 1)                 \
    /* in: an I32 PE_CONST n: waits until at most n of this thread's committed groups  \
     * are pending (its copies are then visible to it; a barrier makes them visible to \
     * the block) */                                                                    \
    X(PA_CP_WAIT, "cp_wait", 0, 1, "cp.async.wait_group %0;", "n", 1)                  \
    /* Warpgroup MMA (sm_90a).  FENCE, WGMMA_* and WAIT bind the accumulators          \
     * (PirStmt.acc: nacc F32 elements, read and written; see pir_asm_text), so that   \
     * no compiler moves their other uses across them.  D (the accumulators of a       \
     * 64 x 2nacc tile, each warp's 16 rows in mma.sync's m16n8 C layout per 8        \
     * columns) += A B, A and B read from shared memory through matrix descriptors    \
     * (in: U64 descriptors of A and B, I32 PE_CONST transpose bits of A and B, I32   \
     * scale-d: 0 ignores D); asynchronous until a WAIT covers its group. */         \
    X(PA_WG_FENCE, "wg_fence", 0, 0, "wgmma.fence.sync.aligned;", "", 1)               \
    X(PA_WGMMA_BF16, "wgmma_bf16", 0, 5, "{ .reg .pred p; setp.ne.b32 p, %{4}, 0; "      \
      "wgmma.mma_async.sync.aligned.m64n%{N}k16.f32.bf16.bf16 %{A}, %{0}, %{1}, p, 1, 1, %{2}, %{3}; }", \
      "l,l,n,n,r", 1)                                                                    \
    X(PA_WGMMA_F16, "wgmma_f16", 0, 5, "{ .reg .pred p; setp.ne.b32 p, %{4}, 0; "        \
      "wgmma.mma_async.sync.aligned.m64n%{N}k16.f32.f16.f16 %{A}, %{0}, %{1}, p, 1, 1, %{2}, %{3}; }", \
      "l,l,n,n,r", 1)                                                                    \
    /* closes the warpgroup's group of WGMMA issued since the last commit */           \
    X(PA_WG_COMMIT, "wg_commit", 0, 0, "wgmma.commit_group.sync.aligned;", "", 1)       \
    /* in: an I32 PE_CONST n: waits until at most n of the warpgroup's groups are      \
     * pending (their accumulators are then written, their reads of shared memory done) */ \
    X(PA_WG_WAIT, "wg_wait", 0, 1, "wgmma.wait_group.sync.aligned %{0};", "n", 1)      \
    /* orders this thread's earlier generic-proxy writes of shared memory (stores,     \
     * completed cp.async) before later async-proxy reads (wgmma) once a barrier       \
     * follows */                                                                       \
    X(PA_FENCE_PROXY, "fence_proxy", 0, 0, "fence.proxy.async.shared::cta;", "", 1)    \
    /* WGMMA_* with A from registers: in: A's 4 U32 words (the warp's 16 rows in      \
     * mma.sync's m16n8k16 A layout), the U64 descriptor of B, an I32 PE_CONST        \
     * transpose bit of B, I32 scale-d */                                               \
    X(PA_WGMMA_RA_BF16, "wgmma_ra_bf16", 0, 7, "{ .reg .pred p; setp.ne.b32 p, %{6}, 0; " \
      "wgmma.mma_async.sync.aligned.m64n%{N}k16.f32.bf16.bf16 %{A}, {%{0}, %{1}, %{2}, %{3}}, %{4}, p, 1, 1, %{5}; }", \
      "r,r,r,r,l,n,r", 1)                                                              \
    X(PA_WGMMA_RA_F16, "wgmma_ra_f16", 0, 7, "{ .reg .pred p; setp.ne.b32 p, %{6}, 0; "   \
      "wgmma.mma_async.sync.aligned.m64n%{N}k16.f32.f16.f16 %{A}, {%{0}, %{1}, %{2}, %{3}}, %{4}, p, 1, 1, %{5}; }", \
      "r,r,r,r,l,n,r", 1)                                                              \
    /* mbarriers (sm_90): in[0] the U32 shared address (PE_SADDR, 8-byte aligned).     \
     * INIT: in[1] the U32 arrival count of a phase.  FENCE: makes inits visible to    \
     * the async proxy (then a barrier).  EXPECT: one arrival, and in[1] (U32) more    \
     * bytes of asynchronous copies to land before the phase completes.  WAIT: until   \
     * the phase of parity in[1] (U32 0, 1) has completed (its copies are then visible \
     * to this thread). */                                                             \
    X(PA_MBAR_INIT, "mbar_init", 0, 2, "mbarrier.init.shared::cta.b64 [%0], %1;", "r,r", 1) \
    X(PA_MBAR_FENCE, "mbar_fence", 0, 0, "fence.mbarrier_init.release.cluster;", "", 1) \
    X(PA_MBAR_EXPECT, "mbar_expect", 0, 2,                                               \
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;", "r,r", 1)              \
    X(PA_MBAR_WAIT, "mbar_wait", 0, 2, "{ .reg .pred p; TK_WAIT: "                      \
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra TK_WAIT; }", "r,r", 1) \
    /* TMA (sm_90): the box of tensor map in[1] (U64, a PP_TMAP param) at I32          \
     * coordinates in[2] (contiguous dim), in[3] (rows) into shared memory at in[0]    \
     * (U32, 1024-aligned for 128-byte swizzles), elements outside the tensor zeros;   \
     * completes its bytes on the mbarrier at in[4] (U32). */                         \
    X(PA_TMA_LOAD2, "tma_load2", 0, 5, "cp.async.bulk.tensor.2d.shared::cluster.global."   \
      "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];", "r,l,r,r,r", 1)      \
    /* TMA_LOAD2 of a rank-4 map (PirParam.tmrank 4): coordinates in[2] (the          \
     * contiguous dim) .. in[5] (the outermost), the mbarrier at in[6] */               \
    X(PA_TMA_LOAD4, "tma_load4", 0, 7, "cp.async.bulk.tensor.4d.shared::cluster.global."   \
      "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6];", "r,l,r,r,r,r,r", 1) \
    /* TMA store (sm_90): shared memory at in[0] (U32, 1024-aligned for 128-byte       \
     * swizzles) into the box of tensor map in[1] (U64, a PP_TMAP param) at I32        \
     * coordinates in[2] (contiguous dim), in[3] (rows), elements outside the tensor   \
     * not written; asynchronous, in this thread's bulk group until BULK_COMMIT and a  \
     * BULK_WAIT (the shared memory stays read until then; a fence.proxy.async and a   \
     * barrier before it order the threads' stores to it) */                           \
    X(PA_TMA_STORE2, "tma_store2", 0, 4, "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group " \
      "[%1, {%2, %3}], [%0];", "r,l,r,r", 1)                                           \
    X(PA_BULK_COMMIT, "bulk_commit", 0, 0, "cp.async.bulk.commit_group;", "", 1)         \
    /* in: an I32 PE_CONST n: until at most n of this thread's bulk groups still read  \
     * shared memory (READ) or are pending at all (WAIT) */                             \
    X(PA_BULK_WAIT_READ, "bulk_wait_read", 0, 1, "cp.async.bulk.wait_group.read %0;", "n", 1) \
    X(PA_BULK_WAIT, "bulk_wait", 0, 1, "cp.async.bulk.wait_group %0;", "n", 1)           \
    /* one arrival on the mbarrier at in[0] (U32 shared address), releasing this      \
     * thread's earlier accesses to the threads that wait for the phase */             \
    X(PA_MBAR_ARRIVE, "mbar_arrive", 0, 1, "mbarrier.arrive.shared::cta.b64 _, [%0];", "r", 1) \
    /* setmaxnreg (sm_90a): the warpgroup's registers per thread become in[0] (an I32  \
     * PE_CONST, a multiple of 8 in 24..256), raised (INC, waiting for the block's     \
     * pool) or lowered (DEC); every thread of the warpgroup executes it */           \
    X(PA_NREG_INC, "nreg_inc", 0, 1, "setmaxnreg.inc.sync.aligned.u32 %0;", "n", 1)      \
    X(PA_NREG_DEC, "nreg_dec", 0, 1, "setmaxnreg.dec.sync.aligned.u32 %0;", "n", 1) \
    /* U32 out = F32 in rounded to tf32 (to nearest, ties to even; the low 13 bits   \
     * zero; inf and NaN as they are), an operand of MMA_TF32.  Integer ops: cvt.rn   \
     * to tf32 needs sm_90 (sm_80 has only cvt.rna, ties away) */                     \
    X(PA_CVT_TF32, "cvt_tf32", 1, 1,                                                     \
      "{ .reg .b32 tkt, tkl; .reg .pred tkp; mov.b32 tkt, %1; and.b32 tkl, tkt, 0x7f800000; " \
      "setp.ne.u32 tkp, tkl, 0x7f800000; shr.u32 tkl, tkt, 13; and.b32 tkl, tkl, 1; "  \
      "add.u32 tkl, tkl, 0xfff; @tkp add.u32 tkt, tkt, tkl; @tkp and.b32 tkt, tkt, 0xffffe000; " \
      "mov.b32 %0, tkt; }", "=r,f", 0)                                                   \
    /* m16n8k8 on tf32 (sm_80): D (4 x F32) = A (4 x U32: A(r, k) in lane (r % 8) * 4 + \
     * k % 4, register r / 8 + 2 (k / 4)) B (2 x U32: B(k, n) in lane n * 4 + k % 4,   \
     * register k / 4) + C (the same 4 F32 as D, tied); D as in MMA_BF16 */           \
    X(PA_MMA_TF32, "mma_tf32", 4, 6,                                                     \
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};", \
      "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3", 0)                                              \
    /* m16n8k32 on s8 (sm_80): D (4 x I32) = A (4 x U32 of 4 bytes along k: A(r, k) in \
     * lane (r % 8) * 4 + (k % 16) / 4, register r / 8 + 2 (k / 16), byte k % 4) B (2 x \
     * U32: B(k, n) in lane n * 4 + (k % 16) / 4, register k / 16, byte k % 4) + C (the \
     * same 4 I32 as D, tied), wrapping; D in MMA_BF16's layout */                     \
    X(PA_MMA_S8, "mma_s8", 4, 6,                                                         \
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};", \
      "=r,=r,=r,=r,r,r,r,r,r,r,0,1,2,3", 0)                                              \
    /* an arrival on the mbarrier at in[0] (U32 shared address) once every earlier     \
     * PA_CP_ASYNC of this thread has landed; not counted, so a PA_MBAR_ARRIVE of the  \
     * same thread (which also releases its plain stores) goes with it */             \
    X(PA_CP_MBAR_ARRIVE, "cp_mbar_arrive", 0, 1, "cp.async.mbarrier.arrive.shared::cta.b64 [%0];", "r", 1) \
    /* WGMMA_BF16's inputs, on tf32 (k8: f32 bits already rounded to tf32, F32        \
     * accumulators) and s8 (k32, I32 accumulators, wrapping); both operands K-major  \
     * (PTX has no transpose for them: in[2], in[3] must be 0 and are not printed) */  \
    X(PA_WGMMA_TF32, "wgmma_tf32", 0, 5, "{ .reg .pred p; setp.ne.b32 p, %{4}, 0; "      \
      "wgmma.mma_async.sync.aligned.m64n%{N}k8.f32.tf32.tf32 %{A}, %{0}, %{1}, p, 1, 1; }", \
      "l,l,n,n,r", 1)                                                                    \
    X(PA_WGMMA_S8, "wgmma_s8", 0, 5, "{ .reg .pred p; setp.ne.b32 p, %{4}, 0; "          \
      "wgmma.mma_async.sync.aligned.m64n%{N}k32.s32.s8.s8 %{A}, %{0}, %{1}, p; }",       \
      "l,l,n,n,r", 1)                                                                    \
    /* WGMMA_RA_BF16's inputs on tf32 (A's words: mma.sync's m16n8k8 tf32 A fragment  \
     * of the warp's 16 rows, rounded; B K-major: in[5] must be 0, not printed) */    \
    X(PA_WGMMA_RA_TF32, "wgmma_ra_tf32", 0, 7, "{ .reg .pred p; setp.ne.b32 p, %{6}, 0; " \
      "wgmma.mma_async.sync.aligned.m64n%{N}k8.f32.tf32.tf32 %{A}, {%{0}, %{1}, %{2}, %{3}}, %{4}, p, 1, 1; }", \
      "r,r,r,r,l,n,r", 1)                                                                \
    /* named barrier in[0] (I32 1..15, may vary by thread) of in[1] threads (an I32   \
     * multiple of 32): NBAR_SYNC waits for the count, NBAR_ARRIVE only counts this    \
     * thread's warp (FlashAttention-3's ordering of two warpgroups' MMAs) */          \
    X(PA_NBAR_SYNC, "nbar_sync", 0, 2, "bar.sync %0, %1;", "r,r", 1)                     \
    X(PA_NBAR_ARRIVE, "nbar_arrive", 0, 2, "bar.arrive %0, %1;", "r,r", 1)            \
    /* I32 out = I32 in, through a volatile asm that no optimizer sees into: values   \
     * computed from out are not shared with (CSE'd against, hoisted above a branch   \
     * together with) those computed from in (gpu.c's versioned copies; NVVM hoisted  \
     * the copies' common address arithmetic above the vote, and spilled) */          \
    X(PA_OPAQUE, "opaque", 1, 1, "mov.b32 %0, %1;", "=r,r", 1)                        \
    /* OPAQUE for an I64 (gpu.c plan_recomp: a kept offset NVVM would sink into    \
     * the loop that reads it) */                                                     \
    X(PA_OPAQUE64, "opaque64", 1, 1, "mov.b64 %0, %1;", "=l,l", 1)                    \
    /* I32 out = 1 where in (I32) != 0 in some thread of the warp, else 0 (every      \
     * thread of the warp executes it: gpu.c, flush_lay's multiplies by one) */      \
    X(PA_VOTE_ANY, "vote_any", 1, 1, "{ .reg .pred p, q; setp.ne.u32 p, %1, 0; "          \
      "vote.sync.any.pred q, p, 0xffffffff; selp.u32 %0, 1, 0, q; }", "=r,r", 1)      \
    /* MBAR_WAIT with in[2] (U32) the time in ns a thread may stay suspended in       \
     * try_wait before it returns false (woken when the phase completes): waits then  \
     * cost no issue slots (gpu_mma.c, mbar_wait) */                                   \
    X(PA_MBAR_WAIT_S, "mbar_wait_s", 0, 3, "{ .reg .pred p; TK_WAIT: "                   \
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1, %2; @!p bra TK_WAIT; }", "r,r,r", 1) \
    /* clusters (sm_90; gpu_mma.c, "pairs of blocks").  CL_NCTA: U32 out = the      \
     * blocks of this block's cluster (1 when launched without clusters).  MAPA: U32 \
     * out = the shared::cluster address of shared address in[0] (U32) in the       \
     * cluster's block of rank in[1] (U32).  CL_ARRIVE: an arrival on the mbarrier   \
     * at shared::cluster address in[0] (this block's or another's; as MBAR_ARRIVE, \
     * releasing at CTA scope: CUTLASS's cluster barriers do so, and a release at   \
     * cluster scope, a fence, cost the K loop 3x, doc/bench/h200-s24-c1.log);      \
     * CL_ARRIVE_REL releases at cluster scope.  CL_ST: the U32 in[1] stored at     \
     * shared::cluster address in[0].  CL_WAIT: MBAR_WAIT acquiring at cluster scope \
     * (what the arrivals of CL_ARRIVE released is then visible).  LD_SH: U32 out = \
     * the U32 at shared address in[0].  CL_SYNC: a barrier of every thread of the  \
     * cluster (release, acquire).  TMA_LOAD2_MC: TMA_LOAD2 whose box lands at the   \
     * same shared address in both blocks of a cluster of two, its bytes completing \
     * on the mbarrier at the same address in each. */                             \
    X(PA_CL_NCTA, "cl_ncta", 1, 0, "mov.u32 %0, %%cluster_nctarank;", "=r", 1)             \
    X(PA_MAPA, "mapa", 1, 2, "mapa.shared::cluster.u32 %0, %1, %2;", "=r,r,r", 1)          \
    X(PA_CL_ARRIVE, "cl_arrive", 0, 1, "mbarrier.arrive.shared::cluster.b64 _, [%0];", "r", 1) \
    X(PA_CL_ARRIVE_REL, "cl_arrive_rel", 0, 1, "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];", "r", 1) \
    X(PA_CL_ST, "cl_st", 0, 2, "st.shared::cluster.u32 [%0], %1;", "r,r", 1)               \
    X(PA_CL_WAIT, "cl_wait", 0, 2, "{ .reg .pred p; TK_WAIT: "                              \
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1; @!p bra TK_WAIT; }", "r,r", 1) \
    X(PA_LD_SH, "ld_sh", 1, 1, "ld.shared.u32 %0, [%1];", "=r,r", 1)                        \
    X(PA_CL_SYNC, "cl_sync", 0, 0, "barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;", "", 1) \
    X(PA_TMA_LOAD2_MC, "tma_load2_mc", 0, 5, "{ .reg .b16 tkm; mov.b16 tkm, 3; "            \
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster " \
      "[%0], [%1, {%2, %3}], [%4], tkm; }", "r,l,r,r,r", 1)

typedef enum {
#define X(n, s, no, ni, t, c, v) n,
    PIR_ASMS(X)
#undef X
    PA_COUNT
} PirAsmOp;

typedef struct PirAsmInfo {
    const char *name;      /* CUDA: the prelude helper tk_<name> */
    int nout, nin;         /* MMA: template operands %10..%13 (tied to the outputs by
                            * constraints 0..3) are the current values of out[0..3];
                            * they are not in in[] */
    const char *ptx;       /* the template */
    const char *cons;      /* constraints, comma-separated, outputs first */
    bool memory;           /* volatile with a memory clobber (reads or writes memory) */
} PirAsmInfo;
extern const PirAsmInfo pir_asm[PA_COUNT];

typedef enum {
    PS_DECL,       /* local; init (scalars; NULL: undefined) */
    PS_ASSIGN,     /* local = val, or local[idx] = val for arrays */
    PS_IF,         /* cond; then, els (els may be NULL) */
    PS_FOR,        /* local (the counter, declared here); lo, hi, next: see below */
    PS_WHILE,      /* cond (NULL: forever); body */
    PS_BREAK,      /* out of the innermost PS_FOR/PS_WHILE */
    PS_CONTINUE,   /* to its next iteration (PS_FOR: runs next) */
    PS_BARRIER,    /* __syncthreads / bar.sync 0: every thread of the block reaches it;
                    * with nbar > 0 named barrier bar (1..15) of the nbar threads that
                    * use it (bar.sync bar, nbar; a multiple of 32) */
    PS_STORE,      /* mem = val, or the nw (2, 4) U32 words w[] as one vector */
    PS_LOADV,      /* nw (1, 2, 4) U32 words at mem (ty U32) into local[dst0 ..] */
    PS_ASM,        /* asm: out[nout] (PE_LOCAL/PE_ELEM lvalues) = asm(in[nin]) */
    PS_BLOCK,      /* body: a nested scope (locals declared inside end there) */
    PS_ATOMIC,     /* mem (global) op= val, relaxed, one element: aop */
    PS_PRINT,      /* one line on stdout (CUDA printf): "pid (in[0], in[1], in[2])", then
                    * " idx (in[3], ..)" for the nw indices (I32) after them, " label",
                    * then ": val" when val (BOOL 0 / 1, integers, F32 to 6 digits, F64 15) */
} PirStmtKind;

/* PS_ATOMIC's operation, on mem.ty: ADD on I32, U32, I64, U64, F32, F64 (the
 * integers wrap); MAX and MIN on the integer types, signed or not by type. */
typedef enum { PAT_ADD, PAT_MAX, PAT_MIN } PirAtomicOp;

/* PS_FOR: counter = lo; while (counter < hi) { body; counter = next; }
 * next is an expression of the counter (usually counter + step); a
 * `continue` runs next.  unroll: lo, hi and next's step are constants, and
 * the loop is to be unrolled fully (CUDA: #pragma unroll). */
struct PirStmt {
    PirStmtKind kind;
    PirLocal *local;       /* PS_DECL, PS_ASSIGN, PS_FOR, PS_LOADV */
    PirExpr *init;         /* PS_DECL */
    PirExpr *idx, *val;    /* PS_ASSIGN (idx NULL for scalars), PS_STORE (val) */
    PirExpr *cond;         /* PS_IF, PS_WHILE */
    PirExpr *lo, *hi, *next;     /* PS_FOR */
    int bar, nbar;         /* PS_BARRIER: a named barrier and its threads (0: the block's) */
    bool unroll;           /* PS_FOR */
    bool elidable;         /* PS_IF without else: the test only skips a body that does
                            * nothing when it fails (a wgmma wait with no group in
                            * flight), so a code generator may run the body always */
    PirBlock *body, *els;  /* PS_IF (then, else), PS_FOR, PS_WHILE, PS_BLOCK */
    PirMem mem;            /* PS_STORE, PS_LOADV */
    int nw;                /* PS_STORE: 0 scalar, or 2, 4 words; PS_LOADV: 1, 2, 4 */
    PirExpr *w[4];         /* PS_STORE vector words (U32) */
    int dst0;              /* PS_LOADV: first element of local written */
    bool ordered;          /* PS_STORE vector: the kernel also reads this tensor:
                            * keep program order with other accesses */
    PirAsmOp asm_op;       /* PS_ASM */
    PirAtomicOp aop;       /* PS_ATOMIC */
    const char *label;     /* PS_PRINT */
    PirExpr *out[4], *in[8];
    /* PS_ASM bound to a register array: acc[acc0 .. acc0 + nacc) (F32) are
     * read-write operands numbered after the outputs (CUDA "+f"; LLVM "=f"
     * outputs with tied inputs after the others).  nacc 0: none. */
    PirLocal *acc;
    int64_t acc0;
    int nacc;
};

/* ------------------------------------------------------------ building */

/* lower/pir.c.  Constructors allocate in f->a; expressions may be shared
 * between trees (they are never mutated after construction). */
PirFunc *pir_func(Arena *a, const char *name);
int pir_add_param(PirFunc *f, PirParamKind kind, PirTy ty, unsigned flags, const char *name,
                  int index, int axis);
PirLocal *pir_local(PirFunc *f, const char *hint, PirTy ty, int64_t n);
PirBlock *pir_block(PirFunc *f);

PirExpr *pir_int(PirFunc *f, PirTy ty, int64_t v);
PirExpr *pir_float(PirFunc *f, PirTy ty, double v);
PirExpr *pir_ref(PirFunc *f, PirLocal *l);
PirExpr *pir_elem(PirFunc *f, PirLocal *l, PirExpr *idx);
PirExpr *pir_param(PirFunc *f, int index);
PirExpr *pir_special(PirFunc *f, PirSpecial s);
PirExpr *pir_un(PirFunc *f, PirUnOp op, PirExpr *a);
PirExpr *pir_bin(PirFunc *f, PirBinOp op, PirExpr *a, PirExpr *b);
PirExpr *pir_nsw(PirFunc *f, PirBinOp op, PirExpr *a, PirExpr *b);    /* pir_bin, nsw */
PirExpr *pir_select(PirFunc *f, PirExpr *c, PirExpr *a, PirExpr *b);
PirExpr *pir_conv(PirFunc *f, PirTy to, PirExpr *a);   /* a itself when it has type to */
PirExpr *pir_bitcast(PirFunc *f, PirTy to, PirExpr *a);
PirExpr *pir_math(PirFunc *f, PirMath fn, PirExpr *a, PirExpr *b, PirExpr *c);
PirExpr *pir_shfl_xor(PirFunc *f, PirExpr *a, int lane);
PirExpr *pir_bar_and(PirFunc *f, PirExpr *a);
PirExpr *pir_load(PirFunc *f, PirMem m, PirExpr *mask, PirExpr *other);
PirExpr *pir_ptradd(PirFunc *f, PirExpr *p, PirExpr *i);
PirExpr *pir_ptrint(PirFunc *f, PirExpr *p);
PirExpr *pir_saddr(PirFunc *f, PirExpr *off);
PirMem pir_gmem(PirTy ty, PirExpr *ptr, PirExpr *idx);
PirMem pir_smem(PirTy ty, int64_t base, PirExpr *idx);
bool pir_is_int(const PirExpr *e, int64_t v);          /* a PE_CONST of value v? */
/* e with every PE_LOCAL of `from` replaced by `by` (shares unchanged subtrees). */
PirExpr *pir_subst(PirFunc *f, PirExpr *e, const PirLocal *from, PirExpr *by);
bool pir_uses(const PirExpr *e, const PirLocal *l);

/* Statements, appended to b; those with bodies return the statement. */
PirStmt *pir_stmt(PirFunc *f, PirBlock *b, PirStmtKind kind);
void pir_decl(PirFunc *f, PirBlock *b, PirLocal *l, PirExpr *init);
void pir_assign(PirFunc *f, PirBlock *b, PirLocal *l, PirExpr *idx, PirExpr *val);
PirStmt *pir_if(PirFunc *f, PirBlock *b, PirExpr *cond);          /* ->body; add ->els yourself */
PirStmt *pir_for(PirFunc *f, PirBlock *b, PirLocal *ctr, PirExpr *lo, PirExpr *hi, PirExpr *step,
                 bool unroll);                                     /* next = ctr + step */
void pir_store(PirFunc *f, PirBlock *b, PirMem m, PirExpr *val);
void pir_atomic(PirFunc *f, PirBlock *b, PirMem m, PirExpr *val, PirAtomicOp op);
/* print's printf format, every target's (LANGUAGE.md, print), without the
 * newline: "pid (%lld, %lld, %lld)", " idx (%d, ..)" for nidx indices,
 * " %s" for the label, and for a value of type vt (PT_VOID: none) ": " and
 * its conversion; *cast: the C type the value is passed as (double, int or
 * long long; NULL without a value). */
const char *pir_print_format(Arena *a, int nidx, PirTy vt, const char **cast);
void pir_barrier(PirFunc *f, PirBlock *b);
PirStmt *pir_asm_stmt(PirFunc *f, PirBlock *b, PirAsmOp op);       /* fill out[], in[] */

/* The PTX template of an asm statement in GCC syntax (%0 .. the outputs, the
 * bound array's elements, the inputs): the table's template with %{A} ->
 * {%k, ..} the bound elements, %{N} -> 2 nacc, %{i} -> input i.  And its
 * constraints for LLVM: outputs, "=f" per bound element, inputs, then the
 * tied inputs (the table's digits, or the bound elements' numbers). */
char *pir_asm_text(Arena *a, const PirStmt *s);
/* the same with input 0 numbered first (several statements in one asm) */
char *pir_asm_text_at(Arena *a, const PirStmt *s, int first);
char *pir_asm_cons(Arena *a, const PirStmt *s);
/* The constraints of the ns statements at s as one asm (targets/nvptx/gen.c):
 * bound to the same elements, the later ones without table outputs; their
 * texts joined, each by pir_asm_text_at with its inputs' first number. */
char *pir_asm_cons_run(Arena *a, const PirStmt *const *s, int ns);

/* --emit=pir: the function in a readable form. */
void pir_print(FILE *out, const PirFunc *f);

/* ------------------------------------------------------------ lowering */

/* lower/gpu.c: the optimized TirKernel -> PirFunc; NULL after reporting to d. */
struct TirKernel;
PirFunc *gpu_lower(struct TirKernel *k, Diag *d);
/* lower/gpu_stage.c: the kernel's device functions, 1 or 2 (0 after
 * reporting to d).  A kernel whose K loops copy by TMA (a PP_TMA_OK
 * parameter) gets two with the same parameters: out[0] (NAME) for tensors
 * with tensor maps, out[1] (NAME__nomap) for the rest, which the launcher
 * runs when it cannot build the maps (TirKernel.tma_version; TKC_SPLIT=0:
 * one function that tests tk_tma). */
int gpu_lower_versions(struct TirKernel *k, PirFunc *out[2], Diag *d);

#endif
