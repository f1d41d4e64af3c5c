/*
 * lower/gpu.c — GPU layouts: tile IR to the per-thread IR (lower/pir.h).
 *
 * One program is one thread block of T threads (32 * warps when the kernel
 * asks, else 128, or 256 when a tile has 4096 elements or more).  A tile of
 * N elements is spread over the block in groups of V consecutive elements
 * (V: the kernel's vector width, 16 bytes of its narrowest tensor, halved
 * until it divides N): thread t holds the elements of flat (row-major)
 * index f = (q*T + t)*V + j, j in [0, V), in a register array of K
 * elements at slot k = q*V + j, which unrolled loops index with constants
 * only.  The distribution depends on N alone, so elementwise work on
 * equal-sized tiles needs no communication.  When a group lies in one row
 * and a load's or store's offsets step by one along it, the group moves as
 * one 16-byte access (see "vectors"); consecutive threads touch
 * consecutive groups, so accesses are coalesced.
 * Scalars (rank 0) are plain registers: every thread computes the same
 * value, so control flow, which depends on scalars only, is uniform and a
 * barrier may sit anywhere.
 *
 * Reading a tile at another index mapping than its own (a broadcast that
 * expands, a transpose, dot operands, reductions along an axis, cumsum)
 * goes through shared memory: after its definition the tile is written to a
 * shared buffer (barrier, write, barrier) and readers index that.  Views
 * never copy: an operand is reached through its chain of views as an index
 * expression per dim.  Integer/bool tiles built from aranges and scalars
 * (offsets, masks) are recomputed at each use instead of being stored.
 * Shared buffers are allocated first-fit over the preorder positions of the
 * values' live ranges (a use in a loop keeps a buffer to the loop's end);
 * the barrier before each write makes reuse safe.
 *
 * Reductions to a scalar: per-thread partials, a warp butterfly of shuffles,
 * then a small scratch area across warps that every thread reads in the
 * same order (all threads get the same result).  Loads and stores are
 * masked per element like the C target's; where one tensor is written and
 * read (or written twice) at possibly different places within a program, a
 * barrier orders the accesses.
 *
 * A loop-free kernel with barriers whose vector accesses can be tested
 * before its first tile is built twice, the copy without per-group tests
 * taken when the block's vote says they all hold (see "versioning").
 *
 * Tiles computed from a dot on tensor cores have other layouts: the MMA
 * fragments and their rows (see "layouts" below); the block layout stays
 * the default for every other tile.
 *
 * The lowering runs twice over the kernel: once to plan (which tiles need
 * shared memory and for how long), once to build the function.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"

#define SCRATCH 512         /* bytes: 32 warps x 8-byte partials, then 32 x i32 indices */
#define SCRATCH_IDX 256

typedef struct Idx {
    int rank;
    PirExpr *d[TIR_MAXRANK];
    bool ident;              /* the flat index equals the reading lane's own f */
} Idx;

/* The loops over a thread's part of a tile (open_group, open_elem). */
typedef struct Lane {
    PirLocal *q, *g, *j, *k, *f;
    PirLocal *gi[TIR_MAXRANK], *i[TIR_MAXRANK];
} Lane;

typedef enum { CL_SKIP, CL_SCALAR, CL_LANE, CL_BREAK } Class;

/* An I64 scalar local, where it is declared, and its clamp (clamp_once). */
typedef struct Clamp {
    PirLocal *src, *i32;
    PirBlock *blk;
    PirStmt *decl;
} Clamp;

struct GL {
    TirKernel *k;
    const KernelInfo *ki;
    Arena *a;
    PirFunc *f;
    Diag *d;
    bool ok, plan;
    int n, T, V;
    Vec(PirBlock *) stack;   /* stack.v[stack.n - 1]: where statements go */
    int *pos, *end;
    bool *live, *recomp, *shared;
    bool *reload;            /* loads of read-only tensors, reread where needed */
    bool *spad;              /* rank-2 tiles kept in shared memory with a row of one element
                              * more (plan_dot_reads: read down their columns) */
    bool dot_staged;         /* plan_dot_reads took some load off reload */
    bool *kept;              /* I64 tiles kept for a loop, set through PA_OPAQUE64 (plan_recomp) */
    int *pre;                /* run operands read from their prefetch (the current run) */
    int *use_end;            /* shared values: last position of a read */
    int64_t *soff;           /* shared values: byte offset */
    bool scratch;
    int64_t smem;
    int cur;                 /* the instruction being lowered */
    Vec(int) run;            /* pending lane instructions, one shape */
    TTy run_shape;
    bool run_barrier;
    int run_one;             /* a run of one row-scaling multiply: its row vector's arg + 1 (flush_lay) */
    PirLocal **val;          /* value id -> its registers */
    PirLocal **prel;         /* value id -> its prefetch in this run */
    PirLocal **var;          /* var -> its registers */
    int *pidx, *didx;        /* TIR param / dim -> PIR param */
    int **sidx;              /* [param][axis] -> PIR param (strides) */
    PirLocal *tid, *pid[3];
    Lane ln;                 /* the innermost lane loops */
    PirExpr *kx, *jx;        /* the register slot of the lane's own element, its place in the group */
    PirExpr *kx0, *jx0;      /* what the tokens replace meanwhile (set_tokens) */
    PirLocal *tok_i, *tok_k, *tok_j;
    PirExpr *ti, *tk, *tj;   /* references to the tokens (compared by pointer) */
    GpuMma mma;              /* dot on tensor cores (gpu_mma.c) */
    GpuLay *lay;             /* value id -> its layout (see "layouts") */
    GpuLay *vlay;            /* var -> its layout */
    GpuLay run_lay;          /* the layout of the pending run */
    GpuLay cur_lay;          /* the layout of the lane loops open now */
    PirExpr *rkx;            /* GL_FRAG lanes: the GL_ROW slot of the lane's row */
    bool *needb;             /* GL_FRAG values also wanted in the block layout */
    PirLocal **valb;         /* ... their block-layout copy */
    bool *vpack;             /* var -> its 16-bit values kept two to a word (plan_packed) */
    bool *guard;             /* vector accesses whose test the program's guard holds (versioning) */
    bool fast;               /* building the guarded copy of the body: those tests are true */
    int64_t epi_need;        /* TMA-stored epilogues: their region's bytes (after the mbarriers) */
    bool epi_off;            /* ... which did not fit: stored by the threads instead */
    bool epi_used;           /* this build issued TMA stores (waited for at the end) */
    bool epi_lean;           /* ... or epilogues through the region (frag_store_lean) */
    Vec(Clamp) clamp;        /* I64 scalars: where declared, their narrow_cmp bound (once) */
    bool clamp_once;         /* TKC_CLAMP_ONCE */
};

#define F (e->f)

static Instr *I(const GL *e, int v) { return e->k->instrs.v[v]; }
static const TTy *ty(const GL *e, int v) { return &e->k->instrs.v[v]->ty; }
static bool is_view(Op op)
{
    return op == OP_BROADCAST || op == OP_EXPAND_DIMS || op == OP_RESHAPE || op == OP_TRANS;
}

int gpu_vwidth(int V, int64_t n)
{
    while (V > 1 && n % V != 0)
        V >>= 1;
    return V;
}

int64_t gpu_groups(int T, int V, int64_t n)
{
    int64_t w = (int64_t)T * gpu_vwidth(V, n);
    return n > 0 ? (n + w - 1) / w : 1;
}

static int vwidth(const GL *e, int64_t n) { return gpu_vwidth(e->V, n); }
static int64_t groups(const GL *e, int64_t n) { return gpu_groups(e->T, e->V, n); }
static int64_t kcount(const GL *e, int64_t n) { return groups(e, n) * vwidth(e, n); }
/* Do a group's elements lie in one row (consecutive along the last dim)? */
static bool gvec(const GL *e, const TTy *t)
{
    int v = vwidth(e, tty_numel(t));
    return v > 1 && t->rank > 0 && t->dim[t->rank - 1] % v == 0;
}

static void fail(GL *e, const Instr *in, const char *what)
{
    if (e->ok)
        diag_error(e->d, in ? in->span : (Span){0}, "CUDA target: %s%s%s", what,
                   in ? " in " : "", in ? op_name[in->op] : "");
    e->ok = false;
}

/* ------------------------------------------------------------ building */

PirFunc *gpu_func(GL *e) { return e->f; }
PirBlock *gpu_cur(GL *e) { return e->stack.v[e->stack.n - 1]; }
void gpu_push(GL *e, PirBlock *b) { vec_push(e->a, e->stack, b); }
void gpu_pop(GL *e) { e->stack.n--; }
PirExpr *gpu_tid(GL *e) { return pir_ref(F, e->tid); }

PirExpr *gpu_i(GL *e, int64_t v) { return pir_int(F, PT_I32, v); }
PirExpr *gpu_add(GL *e, PirExpr *a, PirExpr *b) { return pir_nsw(F, PB_ADD, a, b); }
PirExpr *gpu_mul(GL *e, PirExpr *a, PirExpr *b) { return pir_nsw(F, PB_MUL, a, b); }
PirExpr *gpu_op(GL *e, PirBinOp op, PirExpr *a, PirExpr *b) { return pir_bin(F, op, a, b); }

PirLocal *gpu_let(GL *e, const char *hint, PirExpr *init)
{
    PirLocal *l = pir_local(F, hint, init->ty, 0);
    pir_decl(F, gpu_cur(e), l, init);
    return l;
}

static PirLocal *decl_array(GL *e, const char *hint, PirTy t, int64_t n)
{
    PirLocal *l = pir_local(F, hint, t, n);
    pir_decl(F, gpu_cur(e), l, NULL);
    return l;
}

PirLocal *gpu_value(GL *e, int v, int64_t n)
{
    return e->val[v] = decl_array(e, "v", pir_ty_compute(ty(e, v)->dt), n);
}

PirLocal *gpu_var(GL *e, int var) { return e->var[var]; }

/* A nested scope; pop with gpu_pop. */
static void open_scope(GL *e)
{
    PirStmt *s = pir_stmt(F, gpu_cur(e), PS_BLOCK);
    s->body = pir_block(F);
    gpu_push(e, s->body);
}

/* for (ctr = lo; ctr < hi; ctr += step) over I32; the body is current. */
static PirLocal *open_for(GL *e, const char *hint, PirExpr *lo, PirExpr *hi, int64_t step, bool unroll)
{
    PirLocal *c = pir_local(F, hint, PT_I32, 0);
    PirStmt *s = pir_for(F, gpu_cur(e), c, lo, hi, gpu_i(e, step), unroll);
    s->next = gpu_add(e, pir_ref(F, c), gpu_i(e, step));
    gpu_push(e, s->body);
    return c;
}

static void open_if(GL *e, PirExpr *cond) { gpu_push(e, pir_if(F, gpu_cur(e), cond)->body); }

/* ------------------------------------------------------------ scalar ops */

static int64_t norm_int(PirTy t, int64_t v)
{
    switch (t) {
    case PT_BOOL: return v != 0;
    case PT_I8:   return (int8_t)v;
    case PT_I16:  return (int16_t)v;
    case PT_I32:  return (int32_t)v;
    case PT_U8:   return (uint8_t)v;
    case PT_U16:  return (uint16_t)v;
    case PT_U32:  return (uint32_t)v;
    default:      return v;
    }
}

static PirExpr *lit_int(GL *e, int64_t v, DType dt)
{
    PirTy t = pir_ty_of(dt);
    return pir_int(F, t, norm_int(t, v));
}

static PirExpr *lit_float(GL *e, double v, DType dt)
{
    return pir_float(F, pir_ty_compute(dt), dt == DT_F64 ? v : (double)(float)v);
}

static PirExpr *lit_zero(GL *e, DType dt)
{
    return dtype_is_float(dt) ? lit_float(e, 0, dt) : lit_int(e, 0, dt);
}

/* x of dtype from (in its register type) as dtype to, the C target's way:
 * f16/bf16 values are floats rounded to the type. */
static PirExpr *conv_dt(GL *e, PirExpr *x, DType from, DType to)
{
    if (from == to)
        return x;
    if (to == DT_F16 || to == DT_BF16)
        return pir_conv(F, PT_F32, pir_conv(F, pir_ty_of(to), pir_conv(F, PT_F32, x)));
    return pir_conv(F, pir_ty_compute(to), x);
}

static PirExpr *to_storage(GL *e, PirExpr *x, DType from, DType to)
{
    if (to == DT_F16 || to == DT_BF16)
        return pir_conv(F, pir_ty_of(to), pir_conv(F, PT_F32, x));
    return conv_dt(e, x, from, to);
}

static PirExpr *from_storage(GL *e, PirExpr *x, DType dt)
{
    return dt == DT_F16 || dt == DT_BF16 ? pir_conv(F, PT_F32, x) : x;
}

static PirMath math_of(Op op)
{
    switch (op) {
    case OP_EXP:     return PM_EXP;
    case OP_EXP2:    return PM_EXP2;
    case OP_LOG:     return PM_LOG;
    case OP_LOG2:    return PM_LOG2;
    case OP_SQRT:    return PM_SQRT;
    case OP_RSQRT:   return PM_RSQRT;
    case OP_SIN:     return PM_SIN;
    case OP_COS:     return PM_COS;
    case OP_TANH:    return PM_TANH;
    case OP_ERF:     return PM_ERF;
    case OP_SIGMOID: return PM_SIGMOID;
    case OP_ABS:     return PM_FABS;
    case OP_FLOOR:   return PM_FLOOR;
    case OP_CEIL:    return PM_CEIL;
    case OP_POW:     return PM_POW;
    default:         return PM_FMA;
    }
}

static int bin_of(Op op)
{
    switch (op) {
    case OP_ADD: return PB_ADD;  case OP_SUB: return PB_SUB;  case OP_MUL: return PB_MUL;
    case OP_DIV: return PB_DIV;  case OP_MOD: return PB_REM;  case OP_MIN: return PB_MIN;
    case OP_MAX: return PB_MAX;  case OP_AND: return PB_AND;  case OP_OR:  return PB_OR;
    case OP_XOR: return PB_XOR;  case OP_SHL: return PB_SHL;  case OP_SHR: return PB_SHR;
    case OP_LT:  return PB_LT;   case OP_LE:  return PB_LE;   case OP_GT:  return PB_GT;
    case OP_GE:  return PB_GE;   case OP_EQ:  return PB_EQ;   case OP_NE:  return PB_NE;
    default:     return -1;
    }
}

/* Is x an I32 lane index: a local of the lane loops (or the token for
 * one), or a sum of such and small constants?  Its value is then in
 * [0, 2^30): tiles are far smaller. */
static bool lane_index(const GL *e, const PirExpr *x, int depth)
{
    const Lane *l = &e->ln;
    if (x->ty != PT_I32 || depth > 8)
        return false;
    if (x->kind == PE_CONST)
        return x->ival >= 0 && x->ival < (1 << 20);
    if (x->kind == PE_LOCAL) {
        const PirLocal *p = x->local;
        bool in = p == l->q || p == l->g || p == l->j || p == l->k || p == l->f || p == e->tok_i
                  || p == e->tok_k || p == e->tok_j;
        for (int d = 0; d < TIR_MAXRANK && !in; d++)
            in = p == l->gi[d] || p == l->i[d];
        return in;
    }
    return x->kind == PE_BIN && x->op == PB_ADD && lane_index(e, x->a, depth + 1) && lane_index(e, x->b, depth + 1);
}

/* The I32 clamp c of the scalar local b as a local of its own, declared
 * right after b (so it is in scope wherever b is): every mask against the
 * same bound then reads it instead of its own copy of the two selects
 * (layernorm_f16 had 43, which NVVM optimized one by one).  NULL where b
 * is not such a scalar. */
static PirLocal *clamp_once(GL *e, const PirExpr *b, PirExpr *c)
{
    if (!e->clamp_once || b->kind != PE_LOCAL)
        return NULL;
    for (int i = 0; i < e->clamp.n; i++) {
        Clamp *k = &e->clamp.v[i];
        if (k->src != b->local)
            continue;
        if (!k->i32) {
            PirBlock *blk = k->blk;
            int at = 0;
            while (at < blk->s.n && blk->s.v[at] != k->decl)
                at++;
            if (at == blk->s.n)
                return NULL;
            k->i32 = pir_local(F, "nb", PT_I32, 0);
            pir_decl(F, blk, k->i32, c);     /* appended; moved to just after b */
            PirStmt *d = blk->s.v[blk->s.n - 1];
            memmove(&blk->s.v[at + 2], &blk->s.v[at + 1], sizeof(PirStmt *) * (size_t)(blk->s.n - 2 - at));
            blk->s.v[at + 1] = d;
        }
        return k->i32;
    }
    return NULL;
}

/* (i64)a OP b with a a lane index (a mask such as `cols < N`) as an I32
 * comparison with b clamped to [-1, 2^31 - 1]: the same result for every
 * a in [0, 2^31 - 1), without 64-bit compares and the sign words they
 * keep in registers for every element. */
static PirExpr *narrow_cmp(GL *e, PirBinOp op, PirExpr *a, PirExpr *b)
{
    bool swap = b->kind == PE_CONV && b->ty == PT_I64 && lane_index(e, b->a, 0);
    if (swap) {
        PirExpr *t = a;
        a = b, b = t;
        op = op == PB_LT ? PB_GT : op == PB_GT ? PB_LT : op == PB_LE ? PB_GE : op == PB_GE ? PB_LE : op;
    }
    if (a->kind != PE_CONV || a->ty != PT_I64 || b->ty != PT_I64 || !lane_index(e, a->a, 0))
        return NULL;
    PirExpr *c = pir_bin(F, PB_MIN, pir_bin(F, PB_MAX, b, pir_int(F, PT_I64, -1)), pir_int(F, PT_I64, INT32_MAX));
    PirLocal *once = clamp_once(e, b, pir_conv(F, PT_I32, c));
    return pir_bin(F, op, a->a, once ? pir_ref(F, once) : pir_conv(F, PT_I32, c));
}

static GpuLay store_lay(const GL *e, const Instr *st);

/* Is v read only by stores into tensors of dtype dt, directly or through
 * views whose lanes are the block's (the tile staged through shared
 * memory: matmul_f16's transposed 16 / 32-row tiles store trans(acc as
 * f16)) or the fragments' transposed (its 80 .. 256-row tiles)?  *viewed
 * counts the first, *tr the second. */
static bool staged_only(const GL *e, int v, DType dt, int depth, bool view, int *viewed, int *tr)
{
    for (int u = 1; u < e->n; u++) {
        const Instr *m = I(e, u);
        if (!e->live[u] || u == v)
            continue;
        for (int j = 0; j < m->nargs; j++) {
            if (m->args[j] != v)
                continue;
            if (m->op == OP_STORE && j == 1 && e->ki->params[m->index].dt == dt) {
                GpuLay l = view ? store_lay(e, m) : (GpuLay){ .kind = GL_BLOCK };
                if (l.kind != GL_BLOCK && !(l.kind == GL_FRAG && l.tr))
                    return false;
                *(l.kind == GL_BLOCK ? viewed : tr) += view;
                continue;
            }
            if (!is_view(m->op) || depth == 0 || !staged_only(e, u, dt, depth - 1, true, viewed, tr))
                return false;
        }
    }
    return true;
}

/* An elementwise op on operands x[] (their register types); NULL when
 * unsupported.  Integer math functions go through f64, like the C target. */
static PirExpr *op_expr(GL *e, const Instr *in, PirExpr **x)
{
    DType rt = in->ty.dt;
    DType ot = in->nargs ? ty(e, in->args[in->op == OP_WHERE ? 1 : 0])->dt : rt;
    bool fl = dtype_is_float(ot);
    Op op = in->op;
    switch (op) {
    case OP_CAST: {
        /* f32 rounded to f16 / bf16 that only stores of that type read, one
         * through shared memory at least: the stores' conversion rounds it,
         * once (store_value's case, through views).  On sm_90a the f16
         * round trip of wgmma accumulators into the staging buffer
         * (cvt.rn.f16.f32, then cvt.f32.f16) made ptxas serialize the K
         * loop's wgmma (C7514) of matmul_f16's transposed 16 / 32-row tiles
         * in LLVM's PTX.  (Not for tiles stored from the fragments: there
         * it made LLVM's PTX of the bf16 tiles of 80 .. 256 rows serialized
         * and did not clear the f16 ones'.)  Those f16 tiles, stored
         * transposed from the fragments, round through PA_ROUND_F16W: ptxas
         * folds the plain round trip and the store's conversion into one
         * F2FP.PACK_AB of two accumulators, and serialized the wgmma of
         * NVRTC's NAME__nomap and LLVM's NAME (80 .. 256 rows, C7514); with
         * the f16 bits widened through a prmt it converts each accumulator
         * alone (F2F), as bf16's shift makes it do, and pipelines them. */
        int viewed = 0, tr = 0;
        if ((rt == DT_F16 || rt == DT_BF16) && ot == DT_F32 && in->ty.rank > 0
            && staged_only(e, in->id, rt, 4, false, &viewed, &tr)) {
            if (viewed && !tr && tkc_knob("TKC_CAST_AT_STORE", 1))
                return x[0];
            if (tr && !viewed && rt == DT_F16 && tkc_knob("TKC_ROUND_F16W", 1)) {
                PirLocal *r = pir_local(F, "h", PT_F32, 0);
                pir_decl(F, gpu_cur(e), r, NULL);
                PirStmt *s = pir_asm_stmt(F, gpu_cur(e), PA_ROUND_F16W);
                s->out[0] = pir_ref(F, r);
                s->in[0] = x[0];
                return pir_ref(F, r);
            }
        }
        return conv_dt(e, x[0], ot, rt);
    }
    case OP_NEG:
        return pir_un(F, PU_NEG, x[0]);
    case OP_NOT:
        return pir_un(F, PU_NOT, x[0]);
    case OP_BITNOT:
        return pir_un(F, rt == DT_BOOL ? PU_NOT : PU_BITNOT, x[0]);
    case OP_ABS:
        if (!fl)
            return pir_select(F, pir_bin(F, PB_LT, x[0], lit_zero(e, rt)), pir_un(F, PU_NEG, x[0]), x[0]);
        return pir_math(F, PM_FABS, x[0], NULL, NULL);
    case OP_FLOOR: case OP_CEIL:
        return fl ? pir_math(F, math_of(op), x[0], NULL, NULL) : x[0];
    case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SQRT: case OP_RSQRT:
    case OP_SIN: case OP_COS: case OP_TANH: case OP_ERF: case OP_SIGMOID:
        if (!fl)
            return conv_dt(e, pir_math(F, math_of(op), pir_conv(F, PT_F64, x[0]), NULL, NULL), DT_F64, rt);
        return pir_math(F, math_of(op), x[0], NULL, NULL);
    case OP_POW:
        if (!fl)
            return conv_dt(e, pir_math(F, PM_POW, pir_conv(F, PT_F64, x[0]), pir_conv(F, PT_F64, x[1]), NULL),
                           DT_F64, rt);
        return pir_math(F, PM_POW, x[0], x[1], NULL);
    case OP_WHERE:
        return pir_select(F, x[0], x[1], x[2]);
    case OP_FMA:
        if (fl)
            return pir_math(F, PM_FMA, x[0], x[1], x[2]);
        return pir_bin(F, PB_ADD, pir_bin(F, PB_MUL, x[0], x[1]), x[2]);
    default:
        if (bin_of(op) < 0)
            return NULL;
        if (op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE || op == OP_EQ || op == OP_NE) {
            PirExpr *r = narrow_cmp(e, bin_of(op), x[0], x[1]);
            if (r)
                return r;
        }
        return pir_bin(F, bin_of(op), x[0], x[1]);
    }
}

/* ------------------------------------------------------------ planning */

static void number(GL *e, TBlock *b, int *p)
{
    for (int i = 0; i < b->ins.n; i++) {
        int v = b->ins.v[i];
        Instr *in = I(e, v);
        e->pos[v] = (*p)++;
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                number(e, in->blocks[j], p);
        e->end[v] = *p - 1;
    }
}

/* The value v reads its data from, through views. */
static int view_base(const GL *e, int v)
{
    while (is_view(I(e, v)->op) && ty(e, v)->rank > 0)
        v = I(e, v)->args[0];
    return v;
}

/* Is a read of v by u inside a loop that v is defined outside of? */
static bool read_deeper(const GL *e, int v, const Instr *u)
{
    for (const Instr *x = tir_loop_of(u); x; x = tir_loop_of(x))
        if (!(e->pos[x->id] < e->pos[v] && e->pos[v] <= e->end[x->id]))
            return true;
    return false;
}

/* Integer and bool elementwise tiles over aranges and scalars: cheaper to
 * recompute at each use than to keep, and they need no shared memory when
 * read at another mapping.  Small trees only.
 *
 * Except an I64 tile of 5 or more such ops defined outside a loop and read
 * in it (TKC_RECOMP_HOIST=K: K or more, 0: never): kept in registers,
 * computed once and set through PA_OPAQUE64 (e->kept), which NVVM cannot
 * sink into the loop as it did the plain assignment.  sdpa_relpos_bf16
 * reads rel_h[b, h, rm, kh] in each iteration of its key loop: the offset
 * b * s0 + h * s1 + rm * s2 was redone there in 64 bits for both rows of a
 * thread, 425 -> 395 SASS instructions an iteration (LLVM's PTX 405 ->
 * 382).  H200, SAM global, 10 interleaved rounds with torch's no-bias SDPA:
 * 1.254 vs 1.303 ms (LLVM 1.189 vs 1.241), windowed 0.255 vs 0.265
 * (doc/bench/h200-s27-p1.log).  Of the stdlib and tests/run kernels only
 * sdpa_mask, sdpa_relpos and sdpa_relpos_bf16 change. */
static void plan_recomp(GL *e)
{
    int *cost = arena_alloc(e->a, sizeof(int) * (size_t)e->n);
    int hoist = tkc_knob("TKC_RECOMP_HOIST", 5);
    bool *deep = arena_alloc(e->a, (size_t)e->n);
    for (int u = 1; u < e->n && hoist > 0; u++)
        for (int j = 0; j < I(e, u)->nargs; j++)
            if (I(e, u)->args[j] > 0 && read_deeper(e, I(e, u)->args[j], I(e, u)))
                deep[I(e, u)->args[j]] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (int v = 1; v < e->n; v++) {
            Instr *in = I(e, v);
            if (e->recomp[v] || !e->live[v] || !(op_flags[in->op] & OPF_E) || in->ty.rank == 0
                || dtype_is_float(in->ty.dt))
                continue;
            /* a division by a run-time value costs tens of instructions:
             * computed once (an index vector broadcast over a tile, say
             * rn / KW, is then read through shared memory, not redone per
             * element) */
            if ((in->op == OP_DIV || in->op == OP_MOD) && I(e, view_base(e, in->args[1]))->op != OP_CONST)
                continue;
            int c = 1;
            bool ok = true;
            for (int j = 0; j < in->nargs && ok; j++) {
                if (in->args[j] <= 0)
                    continue;
                int b = view_base(e, in->args[j]);
                const Instr *bi = I(e, b);
                if (e->recomp[b])
                    c += cost[b];
                else
                    ok = bi->op == OP_ARANGE || bi->op == OP_CONST || bi->ty.rank == 0;
            }
            if (ok && hoist > 0 && c >= hoist && deep[v] && in->ty.dt == DT_I64) {
                ok = false;
                e->kept[v] = true;
            }
            if (ok && c <= 24) {
                e->recomp[v] = true;
                cost[v] = c;
                changed = true;
            }
        }
    }
}

/* The vector width V: 16 bytes of the narrowest tensor a tile is loaded
 * from or stored to, at most 8 elements.  Loads of tensors the kernel never
 * writes, at offsets and masks that are recomputed, may be read again at
 * any index (reload) instead of through shared memory. */
static void plan_vectors(GL *e)
{
    e->V = 1;
    for (int v = 1; v < e->n; v++) {
        const Instr *in = I(e, v);
        if ((in->op != OP_LOAD && in->op != OP_STORE) || !e->live[v] || in->index < 0
            || in->index >= e->ki->nparams || !e->ki->params[in->index].is_tensor)
            continue;
        const ParamInfo *p = &e->ki->params[in->index];
        if (tty_numel(in->op == OP_LOAD ? &in->ty : ty(e, in->args[0])) > 1 && p->dt != DT_BOOL) {
            int w = 16 / (dtype_info[p->dt].bits / 8);
            if (w > 8)
                w = 8;
            if (w > e->V)
                e->V = w;
        }
        if (in->op != OP_LOAD || in->ty.rank == 0 || p->stored)
            continue;
        bool ok = true;
        for (int j = 0; j < 3 && ok; j++) {
            if (in->args[j] <= 0)
                continue;
            int b = view_base(e, in->args[j]);
            const Instr *bi = I(e, b);
            ok = bi->ty.rank == 0 || bi->op == OP_ARANGE || e->recomp[b];
        }
        e->reload[v] = ok;
    }
}

/* A dot off the tensor cores (emit_dot: per k, every result element of a
 * thread reads its A row's and B column's element) reads a loaded operand
 * through shared memory, not again from global memory (reload): there
 * each read is a masked 64-bit address computation and a load per FMA.
 * H200, stdlib's f32 sdpa B=4 H=16 S=T=2048 D=64 at 64 x 64 blocks: 42.9
 * ms reloading (doc/bench/h200-s28-f32.log), 4.70 ms so (h200-s28-f2.log).
 * Where those copies keep the kernel's shared memory from fitting --arch,
 * gpu_lower lowers it again without them (TirKernel.dot_reload).
 * TKC_DOT_RELOAD=1: never; TKC_DOT_PAD=0: no padded rows for B = trans(x). */
static void plan_dot_reads(GL *e)
{
    if (tkc_knob("TKC_DOT_RELOAD", 0) == 1 || e->k->dot_reload)
        return;
    for (int v = 1; v < e->n; v++) {
        const Instr *in = I(e, v);
        if (in->op != OP_DOT || !e->live[v] || (e->mma.on && e->mma.on[v]) || in->ty.rank != 2)
            continue;
        for (int j = 0; j < 2; j++) {
            int b = view_base(e, in->args[j]);
            if (I(e, b)->op == OP_LOAD && in->ty.dim[1 - j] > 1 && e->reload[b]) {  /* reused by the other dim */
                e->reload[b] = false;
                e->dot_staged = true;
            }
            /* B = trans(x): a warp's lanes read along x's columns, rows of
             * x apart: with x's rows a multiple of 32 banks long they would
             * all hit one bank */
            const Instr *x = I(e, in->args[j]);
            if (j == 1 && x->op == OP_TRANS && ty(e, b)->rank == 2 && ty(e, b)->dim[1] % 32 == 0
                && tkc_knob("TKC_DOT_PAD", 1))
                e->spad[b] = true;
        }
    }
}

/* Where a read of v by the current instruction happens, seen from v's
 * block: a read inside a nested loop lasts to the end of that loop. */
static void note_use(GL *e, int v)
{
    const Instr *x = I(e, e->cur);
    int p = e->pos[e->cur];
    while (x->parent && x->parent != I(e, v)->parent && x->parent->owner)
        x = x->parent->owner;
    if (e->end[x->id] > p)
        p = e->end[x->id];
    if (p > e->use_end[v])
        e->use_end[v] = p;
}

static int64_t elem_bytes(DType dt)
{
    return dt == DT_F16 || dt == DT_BF16 ? 4 : dt == DT_BOOL ? 1 : dtype_info[dt].bits / 8;
}

typedef struct Slot { int64_t off, size; int end; } Slot;

/* First fit over live ranges, in order of definition. */
static void plan_smem(GL *e)
{
    Vec(Slot) act = { 0 };
    int64_t base = e->scratch ? SCRATCH : 0, top = base;
    for (int p = 0, v; p < e->n; p++) {
        for (v = 1; v < e->n && !(e->shared[v] && e->pos[v] == p); v++)
            ;
        if (v >= e->n)
            continue;
        int64_t size = ((tty_numel(ty(e, v)) + (e->spad[v] ? ty(e, v)->dim[0] : 0)) * elem_bytes(ty(e, v)->dt)
                        + 15) / 16 * 16;
        int64_t off = base;
        for (bool moved = true; moved;) {
            moved = false;
            for (int i = 0; i < act.n; i++)
                if (act.v[i].end >= p && off < act.v[i].off + act.v[i].size
                    && act.v[i].off < off + size) {
                    off = act.v[i].off + act.v[i].size;
                    moved = true;
                }
        }
        e->soff[v] = off;
        Slot s = { off, size, e->use_end[v] > e->pos[v] ? e->use_end[v] : e->pos[v] };
        vec_push(e->a, act, s);
        if (off + size > top)
            top = off + size;
    }
    e->smem = top;
}

/* Overlay: the shared buffers and the MMA staging region of a kernel whose
 * key loops share one stage area (gpu_mma_key_place) may lie in that area
 * when each of them is first written after the last of those loops: the
 * stages are dead by then (each loop's end waits for its copies and MMAs,
 * and the barrier before a buffer's first write orders it after every
 * warp's last read).  A producer warpgroup of those loops (kw_plan) then
 * waits at the top of each program until the consumers ended the one
 * before (GpuMma.kw_done), or it would fill the next program's stages under
 * them: with a block per program, as the launcher starts them, that costs
 * nothing (the CPU stand-in, tests/gpu/emu, runs 3 blocks and catches it).
 * Not with the cross-warp scratch (read anywhere), nor in a persistent
 * kernel (there the producer's copies for the next program during the
 * epilogue are the point).  sdpa_tc's last p v dot stages its v block there
 * (the staging region): D=128 takes 166 KB instead of 200, and -D
 * BLOCK_N=176 fits sm_90a's 227 KB.  Returns the byte the buffers move by
 * (1024-aligned), or -1.  TKC_KEY_OVERLAY=0: not. */
static int64_t plan_overlay(const GL *e)
{
    const GpuMma *m = &e->mma;
    int64_t end, at = gpu_mma_key_area_at(m, &end);
    if (at < 0)
        return -1;
    at = al1k(at);
    if ((e->smem <= 0 && !m->need) || e->scratch
        || (m->need && m->need_pos - 1 <= m->key_end) || al1k(at + e->smem) + m->need > end
        || tkc_knob("TKC_PERSIST", e->k->persistent) == 1 || !tkc_knob("TKC_KEY_OVERLAY", 1))
        return -1;
    for (int v = 1; v < e->n; v++)
        if (e->shared[v] && e->pos[v] <= m->key_end)
            return -1;
    return at;
}

/* ------------------------------------------------------------ layouts */

/* Every tile has a layout (gpu.h: GpuLay).  The block layout is the
 * default; a DOT on tensor cores leaves its result in the fragments of its
 * warp grid (GL_FRAG), and what is computed from it stays there when it
 * can: elementwise ops (and `where`, casts) with an operand in fragments,
 * in-place vars updated from them, row reductions (GL_ROW: each thread
 * holds the results of its own rows) and what is computed from those.  A
 * lane of a given layout reads an operand of the same layout at its own
 * slot; a GL_ROW vector broadcast along the columns of a GL_FRAG tile
 * (x[:, None]) at the slot of the lane's row; aranges and the masks built
 * from them are recomputed at the lane's (row, column).  Any other read is
 * a conversion: a GL_FRAG tile read by the block layout at its own flat
 * index gets a block-layout copy through the MMA staging region right after
 * its definition (gpu_mma_to_block); everything else goes through the
 * value's shared buffer, written from its own layout. */

bool gpu_grid_eq(const GpuGrid *a, const GpuGrid *b)
{
    return a->M == b->M && a->N == b->N && a->WM == b->WM && a->WN == b->WN;
}

static bool lay_eq(const GpuLay *a, const GpuLay *b)
{
    return a->kind == b->kind && (a->kind == GL_BLOCK || (gpu_grid_eq(&a->g, &b->g) && a->tr == b->tr));
}

/* Can a tile of shape t have layout l? */
static bool lay_fits(const GpuLay *l, const TTy *t)
{
    switch (l->kind) {
    case GL_FRAG:
        return t->rank == 2 && t->dim[l->tr] == l->g.M && t->dim[!l->tr] == l->g.N;
    case GL_ROW:
        return (t->rank == 1 || (t->rank == 2 && t->dim[1] == 1)) && t->dim[0] == l->g.M;
    default:
        return true;
    }
}

/* Registers per thread of a tile in layout l (GL_BLOCK: of n elements). */
static int64_t lay_count(const GL *e, const GpuLay *l, int64_t n)
{
    if (l->kind == GL_FRAG)
        return (int64_t)l->g.MI * l->g.NI * 4;
    if (l->kind == GL_ROW)
        return (int64_t)l->g.MI * 2;
    return gpu_groups(e->T, e->V, n) * gpu_vwidth(e->V, n);
}

/* The value v's elements are, through views that keep every element where
 * it is up to size-1 dims (no expanding broadcast, no transpose). */
static int same_base(const GL *e, int v)
{
    for (;;) {
        const Instr *in = I(e, v);
        if (!is_view(in->op) || in->ty.rank == 0)
            return v;
        int u = in->args[0];
        const TTy *ut = ty(e, u);
        if (ut->rank == 0 || !tty_same_but_ones(ut, &in->ty))
            return v;
        if (in->op == OP_TRANS)
            for (int i = 0; i < in->ty.rank; i++)
                if (in->perm[i] != i && in->ty.dim[i] != 1)
                    return v;
        v = u;
    }
}

/* Do grids a and b give every thread the same rows in the same GL_ROW
 * slots?  A thread's rows are (w % WM) * TM + lane / 4 + mi * 16 + 8 * h,
 * slot mi * 2 + h: they depend on M, WM, TM and MI, not on the columns.
 * Same warp count too, so that every thread of one holds rows in the
 * other.  (sdpa_bf16 at D = 128: the softmax's alpha, rows of the q k^T
 * grid [128, 64], scales the p v accumulator [128, 128] in place instead
 * of going through shared memory with two block barriers per key block.)
 * TKC_ROW_SHARE=0: only equal grids (measurements). */
static bool rows_eq(const GpuGrid *a, const GpuGrid *b)
{
    if (gpu_grid_eq(a, b))
        return true;
    return tkc_knob("TKC_ROW_SHARE", 1) && a->M == b->M && a->WM == b->WM && a->TM == b->TM
           && a->MI == b->MI && a->WM * a->WN == b->WM * b->WN;
}

/* The slot of tile v at index ix when the lane open now holds it. */
static PirExpr *own_slot(GL *e, int v, const Idx *ix)
{
    const GpuLay *l = &e->lay[v], *c = &e->cur_lay;
    if (!e->val[v])
        return NULL;
    if (ix->ident && lay_eq(l, c))
        return e->kx;
    /* a transposed store's lane reading x of trans(x) at its own slot */
    if (c->kind == GL_FRAG && c->tr && l->kind == GL_FRAG && !l->tr && gpu_grid_eq(&l->g, &c->g) && ix->rank == 2
        && ix->d[0]->kind == PE_LOCAL && ix->d[0]->local == e->ln.i[1] && ix->d[1]->kind == PE_LOCAL
        && ix->d[1]->local == e->ln.i[0])
        return e->kx;
    if (c->kind == GL_FRAG && l->kind == GL_ROW && rows_eq(&l->g, &c->g) && ix->rank >= 1
        && ix->d[0]->kind == PE_LOCAL && ix->d[0]->local == e->ln.i[0]
        && (ix->rank == 1 || pir_is_int(ix->d[1], 0)))
        return e->rkx;
    return NULL;
}

PirLocal *gpu_frag(GL *e, int v, const GpuGrid *g)
{
    int b = same_base(e, v);
    const GpuLay *l = &e->lay[b];
    if (l->kind != GL_FRAG || !gpu_grid_eq(&l->g, g) || !lay_fits(l, ty(e, v)))
        return NULL;
    return e->val[b];
}

bool gpu_in_frags(const GL *e, int v, int x, const GpuGrid *g)
{
    const GpuLay *l = &e->lay[v], *lx = &e->vlay[x];
    return l->kind == GL_FRAG && !l->tr && gpu_grid_eq(&l->g, g) && lay_eq(l, lx);
}

PirLocal *gpu_frag_a(GL *e, int v, const GpuGrid *g, GpuGrid *ga)
{
    int b = same_base(e, v);
    const Instr *c = I(e, b);
    /* `x as bf16` of an f32 x in the same fragments: pack x itself (the
     * packing rounds the same way, once) */
    if (c->op == OP_CAST && ty(e, c->args[0])->dt == DT_F32 && lay_eq(&e->lay[b], &e->lay[same_base(e, c->args[0])])
        && e->val[same_base(e, c->args[0])])
        b = same_base(e, c->args[0]);
    const GpuLay *l = &e->lay[b];
    const TTy *t = ty(e, v);
    if (l->kind != GL_FRAG || !lay_fits(l, t) || l->g.WN != 1 || l->g.WM != g->WM || l->g.M != g->M
        || t->dim[1] % 16)
        return NULL;
    *ga = l->g;
    return e->val[b];
}

/* The layout an elementwise op of shape t takes from its operand u: u's
 * own, when u is in fragments or rows that fit t; else none (GL_BLOCK). */
static GpuLay lay_from(const GL *e, int u, const TTy *t)
{
    GpuLay none = { .kind = GL_BLOCK };
    if (u <= 0 || ty(e, u)->rank == 0)
        return none;
    const GpuLay *l = &e->lay[same_base(e, u)];
    return l->kind != GL_BLOCK && lay_fits(l, t) ? *l : none;
}

static bool row_reduce(const GL *e, const Instr *in, GpuLay *out)
{
    int src = in->args[0];
    const TTy *st = ty(e, src);
    GpuLay l = lay_from(e, src, st);
    if (in->op != OP_REDUCE || l.kind != GL_FRAG || st->rank != 2 || in->axis != 1 || l.g.WN != 1
        || (in->rkind != RK_SUM && in->rkind != RK_MAX && in->rkind != RK_MIN))
        return false;
    *out = (GpuLay){ .kind = GL_ROW, .g = l.g };
    return lay_fits(out, &in->ty);
}

/* The epilogue of a K loop's accumulator (a var in the MMA fragment
 * layout, gpu_mma.c) stays in the fragments: the var's read after the loop
 * takes its fragment layout, and a store of what is computed from it runs
 * in that layout too (frag_stores), rather than the [M, N] tile going to
 * the block layout through shared memory, which keeps the fragments and
 * their block-layout copy live at once (twice the accumulator's registers:
 * spills with 128 x 256 tiles).  TKC_FRAG_EPI=0: the conversion (experiments). */
static bool frag_epi(void)
{
    return tkc_knob("TKC_FRAG_EPI", 1) != 0;
}

/* With TirKernel.epi_frag: a read of a var kept in MMA fragments that no
 * K loop fuses (attention's acc, updated as dot(p, v, acc * alpha)), whose
 * epilogue can then stay in the fragments too (store_lay). */
static bool frag_var(const GL *e, const Instr *in)
{
    return e->k->epi_frag && in->op == OP_VAR_GET && in->index >= 0 && in->index < e->k->vars.n
           && e->vlay[in->index].kind == GL_FRAG;
}

/* Does anything but st load or (unless stores_ok) store st's tensor? */
static bool other_access(const GL *e, const Instr *st, bool stores_ok)
{
    for (int u = 1; u < e->n; u++) {
        const Instr *m = I(e, u);
        if (u != st->id && e->live[u] && m->index == st->index
            && (m->op == OP_LOAD || m->op == OP_ATOMIC || (m->op == OP_STORE && !stores_ok)))
            return true;
    }
    return false;
}

/* Is v computed elementwise from such an accumulator's read? */
static bool from_acc(const GL *e, int v, int depth)
{
    if (v <= 0 || depth == 0 || ty(e, v)->rank == 0)
        return false;
    const Instr *in = I(e, view_base(e, v));
    if (in->op == OP_VAR_GET)
        return (gpu_mma_var(&e->mma, in) && !e->mma.fused[in->id]) || frag_var(e, in);
    if (!(op_flags[in->op] & OPF_E) || in->op == OP_LOAD)
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (from_acc(e, in->args[j], depth - 1))
            return true;
    return false;
}

/* Can a lane of any layout compute tile v at its own index? */
static bool anywhere(const GL *e, int v)
{
    if (v <= 0 || ty(e, v)->rank == 0)
        return true;
    int b = view_base(e, v);
    return ty(e, b)->rank == 0 || I(e, b)->op == OP_ARANGE || I(e, b)->op == OP_CONST || e->recomp[b];
}

/* The layout of store st's lanes: the block layout, or the fragments of
 * its value when that comes from an accumulator's epilogue (above), its
 * offsets and mask are computed anywhere and nothing else accesses its
 * tensor (threads of other layouts would touch the same elements). */
static GpuLay store_lay(const GL *e, const Instr *st)
{
    GpuLay none = { .kind = GL_BLOCK };
    int v = st->args[1];
    if (!frag_epi() || v <= 0 || !from_acc(e, v, 8) || !anywhere(e, st->args[0]) || !anywhere(e, st->args[2]))
        return none;
    GpuLay l = e->lay[same_base(e, v)];
    const Instr *vi = I(e, v);
    /* store(p, trans(x)) with x in fragments: each thread stores its own
     * elements of x where they go (the transposed matmul_tf32's c^T; 32-byte
     * runs of a row per 8 lanes, 16-byte of 16-bit elements), where the
     * tile would take more than 8 KB of shared memory: a buffer that size
     * costs stages (matmul_bf16's transposed 160 x 128 tiles, SWAP, 40 KB:
     * 5 stages, else 3) and below it the buffer's vector stores are faster
     * (32 x 64: 0.975 of cuBLAS vs 0.922 at 32 x 8192^2; H200,
     * doc/bench/h200-s22-m6.log).  TKC_FRAG_TR=0: through shared memory;
     * 1: from the fragments at every size. */
    int ftr = tkc_knob("TKC_FRAG_TR", 2);
    if (l.kind == GL_BLOCK && vi->op == OP_TRANS && vi->ty.rank == 2 && vi->perm[0] == 1 && vi->perm[1] == 0
        && ty(e, vi->args[0])->rank == 2
        && (ftr == 1 || (ftr == 2 && tty_numel(&vi->ty) * (dtype_info[vi->ty.dt].bits / 8) > 8192))) {
        l = e->lay[same_base(e, vi->args[0])];
        if (l.kind != GL_FRAG || l.tr || !lay_fits(&l, ty(e, vi->args[0])))
            return none;
        l.tr = true;
    }
    const TTy *t = ty(e, st->args[0]);
    if (l.kind != GL_FRAG || !lay_fits(&l, t) || !lay_fits(&l, ty(e, v)))
        return none;
    /* with epi_frag other stores of the tensor may stay (each path of
     * sdpa_relpos_bf16 stores o): a block barrier follows this one (flush_lay) */
    return other_access(e, st, e->k->epi_frag) ? none : l;
}

/* One round of layout assignment over the kernel, in program order (the
 * vars' layouts come from the previous round); true when something changed. */
static bool lay_round(GL *e)
{
    bool changed = false;
    for (int v = 1; v < e->n; v++) {
        const Instr *in = I(e, v);
        GpuLay l = { .kind = GL_BLOCK }, r;
        GpuGrid g;
        if (!e->live[v] || in->ty.rank == 0 || e->recomp[v] || is_view(in->op))
            continue;
        if (in->op == OP_DOT && gpu_mma_grid(&e->mma, in, &g))
            l = (GpuLay){ .kind = GL_FRAG, .g = g };
        else if (in->op == OP_VAR_GET && gpu_mma_var(&e->mma, in) && !e->mma.fused[v] && frag_epi()
                 && gpu_mma_var_grid(&e->mma, in->index, &g))
            l = (GpuLay){ .kind = GL_FRAG, .g = g };
        else if (row_reduce(e, in, &r))
            l = r;
        else if (in->op == OP_VAR_GET && in->index >= 0 && in->index < e->k->vars.n
                 && !gpu_mma_var(&e->mma, in))
            l = e->vlay[in->index];
        else if ((op_flags[in->op] & OPF_E) && in->op != OP_LOAD)
            for (int j = 0; j < in->nargs && l.kind == GL_BLOCK; j++)
                l = lay_from(e, in->args[j], &in->ty);
        if (!lay_eq(&l, &e->lay[v]))
            changed = true;
        e->lay[v] = l;
    }
    /* a var takes the layout its updates have (splats and recomputed
     * values have none; a var set from several layouts keeps the first) */
    for (int x = 0; x < e->k->vars.n; x++) {
        const TTy *vt = &e->k->vars.v[x].ty;
        GpuLay l = { .kind = GL_BLOCK };
        for (int v = 1; v < e->n && l.kind == GL_BLOCK; v++) {
            const Instr *in = I(e, v);
            if (in->op == OP_VAR_SET && in->index == x && e->live[v] && !gpu_mma_var(&e->mma, in))
                l = lay_from(e, in->args[0], vt);
        }
        if (!lay_eq(&l, &e->vlay[x]))
            changed = true;
        e->vlay[x] = l;
    }
    return changed;
}

/* The layout of the loops that read operand `in` of u (GL_BLOCK also for
 * readers that are no lanes). */
static GpuLay reader_lay(const GL *e, const Instr *u)
{
    GpuLay none = { .kind = GL_BLOCK };
    if (u->op == OP_STORE)
        return store_lay(e, u);
    if (u->op == OP_ATOMIC || u->op == OP_PRINT)   /* the block layout: each element in one thread */
        return none;
    if (u->op == OP_LOAD || u->op == OP_VAR_SET)
        return u->op == OP_VAR_SET ? e->vlay[u->index] : e->lay[u->id];
    if (u->op == OP_REDUCE && e->lay[u->id].kind == GL_ROW)
        return (GpuLay){ .kind = GL_FRAG, .g = e->lay[u->id].g };
    return (op_flags[u->op] & OPF_E) && u->ty.rank > 0 ? e->lay[u->id] : none;
}

/* How a reader in layout r reads v through its operand a (views of v), as
 * a layout for v: r itself when a is v's elements as they are; GL_ROW when
 * r is GL_FRAG and a is an [M] vector v broadcast along the columns (x[:, None]). */
static GpuLay read_as(const GL *e, int v, int a, GpuLay r)
{
    GpuLay none = { .kind = GL_BLOCK };
    if (same_base(e, a) == v)
        return lay_fits(&r, ty(e, a)) ? r : none;
    const Instr *ai = I(e, a);
    if (r.kind != GL_FRAG || ai->op != OP_BROADCAST || ty(e, ai->args[0])->rank != 2
        || ty(e, ai->args[0])->dim[1] != 1 || same_base(e, ai->args[0]) != v)
        return none;
    return (GpuLay){ .kind = GL_ROW, .g = r.g };
}

/* Do all readers of v read it at their own index in one non-block layout
 * that fits t?  That layout into *l (agreeing with *l when *any is set
 * already: several values may have to share one); *any: some reader. */
static bool read_lay(const GL *e, int v, const TTy *t, GpuLay *l, bool *any)
{
    for (int u = 1; u < e->n; u++) {
        const Instr *ui = I(e, u);
        if (!e->live[u] || is_view(ui->op))
            continue;
        for (int j = 0; j < ui->nargs; j++) {
            int a = ui->args[j];
            if (a <= 0 || view_base(e, a) != v)
                continue;
            GpuLay r = read_as(e, v, a, reader_lay(e, ui));
            if (r.kind == GL_BLOCK || !lay_fits(&r, t) || (*any && !lay_eq(&r, l)) || (ui->op == OP_STORE && j != 1))
                return false;
            *l = r;
            *any = true;
        }
    }
    return true;
}

/* Backward: a block-layout tile (elementwise, or a load) whose every reader
 * reads it at its own index from the same fragment layout takes that
 * layout (sdpa_relpos's bias: its loads and the add then run in fragments
 * instead of going through shared memory); a vector that fragment lanes
 * read as x[:, None] (and row lanes at their own index) takes GL_ROW:
 * a thread then loads only its own rows, with no staging. */
static bool lay_back(GL *e)
{
    bool changed = false;
    for (int v = e->n - 1; v >= 1; v--) {
        const Instr *in = I(e, v);
        if (!e->live[v] || (in->ty.rank != 2 && in->ty.rank != 1) || e->recomp[v] || e->lay[v].kind != GL_BLOCK
            || !((op_flags[in->op] & OPF_E) || in->op == OP_LOAD) || e->mma.early[v] >= 0)
            continue;
        GpuLay l = { .kind = GL_BLOCK };
        bool any = false;
        if (read_lay(e, v, &in->ty, &l, &any) && any && lay_fits(&l, &in->ty)) {
            e->lay[v] = l;
            changed = true;
        }
    }
    return changed;
}

/* Backward for vars: a block-layout var (not a dot's accumulator) whose
 * every read is read by its readers at its own index in one layout L
 * (e.g. a row vector loaded one iteration ahead, `var bn = load(..)`,
 * read as bn[:, None] by fragment lanes) takes L, and so do its reads:
 * lay_back then moves the values it is set from to L as well, where it
 * can, instead of each read going through shared memory.  True when a var
 * changed.  TKC_VAR_BACK=0: vars keep their updates' layout. */
static bool var_back(GL *e)
{
    bool changed = false;
    for (int x = 0; x < e->k->vars.n; x++) {
        const TTy *vt = &e->k->vars.v[x].ty;
        if (e->vlay[x].kind != GL_BLOCK || (vt->rank != 1 && vt->rank != 2))
            continue;
        GpuLay l = { .kind = GL_BLOCK };
        bool ok = true, any = false;
        for (int v = 1; v < e->n && ok; v++) {
            const Instr *in = I(e, v);
            if (!e->live[v] || (in->op != OP_VAR_GET && in->op != OP_VAR_SET) || in->index != x)
                continue;
            if (gpu_mma_var(&e->mma, in) || e->recomp[v]) {
                ok = false;
                break;
            }
            if (in->op == OP_VAR_GET)
                ok = read_lay(e, v, vt, &l, &any);
        }
        if (!ok || !any)
            continue;
        e->vlay[x] = l;
        for (int v = 1; v < e->n; v++)
            if (e->live[v] && I(e, v)->op == OP_VAR_GET && I(e, v)->index == x)
                e->lay[v] = l;
        changed = true;
    }
    return changed;
}

static void plan_layouts(GL *e)
{
    e->lay = arena_alloc(e->a, sizeof(GpuLay) * (size_t)e->n);
    e->vlay = arena_alloc(e->a, sizeof(GpuLay) * (size_t)(e->k->vars.n + 1));
    for (int round = 0; round < 8 && lay_round(e); round++)
        ;
    for (int round = 0; round < 8 && lay_back(e); round++)
        ;
    if (tkc_knob("TKC_VAR_BACK", 1) && var_back(e))
        for (int round = 0; round < 8 && lay_back(e); round++)
            ;
}

/* A 16-bit var in the MMA fragments that is only read as the A operand of
 * dots on tensor cores (attention's p, carried from one key block's softmax
 * to the p v dot of the next: var p = zeros(bf16, ..), acc = dot(p, v, ..),
 * p = pf as bf16) keeps its values two to a word, as the dot's A fragment
 * takes them (frag_a), rather than one to a float register: its registers
 * halve (32 instead of 64 a thread at 128 x 128), and the conversion at its
 * update (one F2FP per pair) replaces the rounding there and the packing at
 * every read.  sdpa_bf16 D=128, same runs, p in f32: H200 510.8 vs 495.2
 * TFLOP/s (doc/bench/h200-s13-fa3-1.log), H100 501.1 / 505.3 vs 485.1 /
 * 488.8 (h100-s13-fa3-2.log).  TKC_PACK_VAR=0: floats. */
static bool pack_ok(GL *e, int x)
{
    const TTy *vt = &e->k->vars.v[x].ty;
    const GpuLay *l = &e->vlay[x];
    if ((vt->dt != DT_BF16 && vt->dt != DT_F16) || vt->rank != 2 || l->kind != GL_FRAG || l->tr || l->g.WN != 1
        || !lay_fits(l, vt) || vt->dim[1] % 16)
        return false;
    bool any = false;
    for (int v = 1; v < e->n; v++) {
        const Instr *in = I(e, v);
        if (!e->live[v] || (in->op != OP_VAR_GET && in->op != OP_VAR_SET) || in->index != x)
            continue;
        if (gpu_mma_var(&e->mma, in) || e->recomp[v])
            return false;
        if (in->op == OP_VAR_SET)
            continue;
        if (e->lay[v].kind != GL_FRAG || !lay_eq(&e->lay[v], l))
            return false;
        /* every reader: a dot on tensor cores taking it as A in the
         * registers (gpu_frag_a: its rows are the dot's) */
        for (int u = 1; u < e->n; u++) {
            const Instr *ui = I(e, u);
            GpuGrid g;
            if (!e->live[u])
                continue;
            for (int j = 0; j < ui->nargs; j++) {
                if (ui->args[j] != v)
                    continue;
                if (ui->op != OP_DOT || j != 0 || ui->args[1] == v || ui->args[2] == v
                    || !gpu_mma_grid(&e->mma, ui, &g) || g.WM != l->g.WM || g.M != l->g.M)
                    return false;
                any = true;
            }
        }
    }
    return any;
}

static void plan_packed(GL *e)
{
    e->vpack = arena_alloc(e->a, (size_t)(e->k->vars.n + 1));
    for (int x = 0; x < e->k->vars.n; x++)
        e->vpack[x] = tkc_knob("TKC_PACK_VAR", 1) && pack_ok(e, x);
}

/* Is v the read of a var kept packed? */
bool gpu_packed(const GL *e, int v)
{
    const Instr *in = I(e, v);
    return in->op == OP_VAR_GET && in->index >= 0 && in->index < e->k->vars.n && e->vpack[in->index];
}

/* ------------------------------------------------------------ reading */

static PirExpr *scalar(GL *e, int v);
static PirExpr *rd(GL *e, int v, Idx ix);

/* The shared buffer of tile v, element idx. */
static PirMem sbuf(GL *e, int v, PirExpr *idx)
{
    return pir_smem(pir_ty_compute(ty(e, v)->dt), e->soff[v], idx);
}

static PirExpr *join_lin(GL *e, const Idx *ix, const TTy *t)
{
    PirExpr *r = NULL;
    int64_t s = 1;
    for (int d = t->rank - 1; d >= 0; s *= t->dim[d], d--) {
        if (t->dim[d] == 1 || pir_is_int(ix->d[d], 0))
            continue;
        PirExpr *x = gpu_mul(e, ix->d[d], gpu_i(e, s));
        r = r ? gpu_add(e, x, r) : x;
    }
    return r ? r : gpu_i(e, 0);
}

/* Tile v's element ix in its shared buffer (a padded row: spad). */
static PirExpr *shared_lin(GL *e, int v, const Idx *ix)
{
    const TTy *t = ty(e, v);
    if (!e->spad[v])
        return join_lin(e, ix, t);
    return gpu_add(e, gpu_mul(e, ix->d[0], gpu_i(e, t->dim[1] + 1)), ix->d[1]);
}

static Idx split_lin(GL *e, PirExpr *lin, const TTy *t, bool ident)
{
    Idx r = { .rank = t->rank, .ident = ident };
    int64_t s = 1;
    for (int d = t->rank - 1; d >= 0; s *= t->dim[d], d--) {
        if (t->dim[d] == 1 || pir_is_int(lin, 0))
            r.d[d] = gpu_i(e, 0);
        else if (d == 0)
            r.d[d] = pir_bin(F, PB_DIV, lin, gpu_i(e, s));
        else
            r.d[d] = pir_bin(F, PB_REM, pir_bin(F, PB_DIV, lin, gpu_i(e, s)), gpu_i(e, t->dim[d]));
    }
    return r;
}

/* Index ix of a lane of shape `lane` as an index of operand type u:
 * NumPy alignment from the right, size-1 dims broadcast. */
static Idx align(GL *e, const Idx *ix, const TTy *u, const TTy *lane)
{
    Idx r = { .rank = u->rank, .ident = ix->ident && tty_numel(u) == tty_numel(lane) };
    int off = lane->rank - u->rank;
    for (int d = 0; d < u->rank; d++)
        r.d[d] = (d + off < 0 || (u->dim[d] == 1 && lane->dim[d + off] != 1)) ? gpu_i(e, 0) : ix->d[d + off];
    return r;
}

static PirExpr *recompute(GL *e, int v, Idx ix)
{
    const Instr *in = I(e, v);
    PirExpr *x[3] = { 0 };
    for (int j = 0; j < in->nargs; j++) {
        int u = in->args[j];
        if (u > 0)
            x[j] = ty(e, u)->rank == 0 ? scalar(e, u) : rd(e, u, align(e, &ix, ty(e, u), &in->ty));
    }
    PirExpr *r = op_expr(e, in, x);
    if (!r)
        fail(e, in, "unsupported elementwise op");
    return r ? r : lit_zero(e, in->ty.dt);
}

/* A reshape from t to u that only adds or drops size-1 dims maps index
 * ix dim by dim. */
static bool squeeze(GL *e, Idx *r, const Idx *ix, const TTy *t, const TTy *u)
{
    int d = 0;
    for (int s = 0; s < u->rank; s++) {
        if (u->dim[s] == 1) {
            r->d[s] = gpu_i(e, 0);
            continue;
        }
        while (d < t->rank && t->dim[d] == 1)
            d++;
        if (d == t->rank || t->dim[d] != u->dim[s])
            return false;
        r->d[s] = ix->d[d++];
    }
    while (d < t->rank && t->dim[d] == 1)
        d++;
    return d == t->rank;
}

/* Follow v's views down to the value they read, turning ix into that
 * value's index; the result may be a scalar (rank 0). */
static int walk(GL *e, int v, Idx *ix)
{
    for (;;) {
        const Instr *in = I(e, v);
        if (!is_view(in->op))
            return v;
        int u = in->args[0];
        const TTy *ut = ty(e, u);
        if (ut->rank == 0)
            return u;
        Idx nx = { .rank = ut->rank, .ident = ix->ident };
        switch (in->op) {
        case OP_BROADCAST:
            for (int d = 0; d < ut->rank; d++)
                nx.d[d] = (ut->dim[d] == 1 && in->ty.dim[d] != 1) ? gpu_i(e, 0) : ix->d[d];
            nx.ident = ix->ident && tty_numel(ut) == tty_numel(&in->ty);
            break;
        case OP_EXPAND_DIMS:
            for (int d = 0, s = 0; d < in->ty.rank; d++)
                if (d != in->axis)
                    nx.d[s++] = ix->d[d];
            break;
        case OP_TRANS:
            for (int i = 0; i < in->ty.rank; i++) {
                nx.d[in->perm[i]] = ix->d[i];
                if (in->perm[i] != i)
                    nx.ident = false;
            }
            break;
        default:                       /* RESHAPE keeps the row-major order */
            if (!squeeze(e, &nx, ix, &in->ty, ut))
                nx = split_lin(e, join_lin(e, ix, &in->ty), ut, ix->ident);
            break;
        }
        *ix = nx;
        v = u;
    }
}

static PirExpr *operand(GL *e, int v, const TTy *lane, const Idx *ix);
static PirExpr *load_expr(GL *e, const Instr *in, PirExpr **x);

/* Load ld's value at its index ix, read again from memory. */
static PirExpr *load_at(GL *e, const Instr *ld, const Idx *ix)
{
    PirExpr *x[3] = { 0 };
    for (int j = 0; j < 3; j++)
        x[j] = operand(e, ld->args[j], &ld->ty, ix);
    return load_expr(e, ld, x);
}

/* The value of tile v at index ix. */
static PirExpr *rd(GL *e, int v, Idx ix)
{
    v = walk(e, v, &ix);
    const Instr *in = I(e, v);
    if (in->ty.rank == 0)
        return scalar(e, v);
    if (in->op == OP_ARANGE)
        return gpu_add(e, gpu_i(e, in->ival), ix.d[0]);
    if (e->recomp[v])
        return recompute(e, v, ix);
    PirExpr *own = own_slot(e, v, &ix);
    if (own)
        return pir_elem(F, e->val[v], own);
    if (ix.ident && lay_eq(&e->lay[v], &e->cur_lay)) {
        fail(e, in, "internal error: a tile read before its definition");
        return lit_zero(e, in->ty.dt);
    }
    if (ix.ident && e->lay[v].kind == GL_FRAG && e->cur_lay.kind == GL_BLOCK) {
        e->needb[v] = true;       /* same flat index in the block layout: a copy */
        if (e->valb[v])
            return pir_elem(F, e->valb[v], e->kx);
        if (!e->plan)
            fail(e, in, "internal error: no block-layout copy of a fragment tile");
        return lit_zero(e, in->ty.dt);
    }
    if (e->reload[v])
        return load_at(e, in, &ix);
    if (e->plan) {
        e->shared[v] = true;
        note_use(e, v);
    }
    return pir_load(F, sbuf(e, v, shared_lin(e, v, &ix)), NULL, NULL);
}

static PirExpr *scalar(GL *e, int v)
{
    const Instr *in = I(e, v);
    if (in->op == OP_CONST)
        return dtype_is_float(in->ty.dt) ? lit_float(e, in->fval, in->ty.dt) : lit_int(e, in->ival, in->ty.dt);
    if (is_view(in->op)) {
        Idx z = { 0 };
        return rd(e, v, z);
    }
    if (in->ty.rank > 0 || !e->val[v]) {
        fail(e, in, "internal error: a tile used as a scalar");
        return lit_zero(e, in->ty.dt);
    }
    return pir_ref(F, e->val[v]);
}

PirExpr *gpu_at(GL *e, int v, PirExpr *i0, PirExpr *i1, PirExpr *own)
{
    PirExpr *kx = e->kx;
    if (own)
        e->kx = own;
    PirExpr *r = rd(e, v, (Idx){ .rank = 2, .d = { i0, i1 }, .ident = own != NULL });
    e->kx = kx;
    DType dt = ty(e, v)->dt;
    return conv_dt(e, r, dt, dtype_is_float(dt) ? DT_F32 : dt);
}

PirExpr *gpu_at_raw(GL *e, int v, PirExpr *i0, PirExpr *i1)
{
    return rd(e, v, (Idx){ .rank = 2, .d = { i0, i1 } });
}

/* The lane's own index over shape t. */
static Idx lane_idx(GL *e, const TTy *t)
{
    Idx r = { .rank = t->rank, .ident = !e->cur_lay.tr };
    for (int d = 0; d < t->rank; d++)
        r.d[d] = pir_ref(F, e->ln.i[d]);
    return r;
}

/* An index over shape t for analysis only (which value, whether own). */
static Idx any_idx(GL *e, const TTy *t)
{
    Idx r = { .rank = t->rank, .ident = true };
    for (int d = 0; d < t->rank; d++)
        r.d[d] = e->ti;
    return r;
}

static PirExpr *operand(GL *e, int v, const TTy *lane, const Idx *ix)
{
    if (v <= 0)
        return NULL;
    if (ty(e, v)->rank == 0)
        return scalar(e, v);
    if (e->pre[v])
        return pir_elem(F, e->prel[v], e->jx);
    return rd(e, v, align(e, ix, ty(e, v), lane));
}

/* ------------------------------------------------------------ lanes */

/* Declare the index of flat index f over shape t into li[]. */
static void index_decl(GL *e, const TTy *t, const char *hint, PirLocal *f, PirLocal **li)
{
    int64_t s = 1;
    for (int d = t->rank - 1; d >= 0; s *= t->dim[d], d--) {
        PirExpr *x = pir_bin(F, PB_DIV, pir_ref(F, f), gpu_i(e, s));
        if (d > 0)
            x = pir_bin(F, PB_REM, x, gpu_i(e, t->dim[d]));
        li[d] = gpu_let(e, hint, x);
    }
}

/* Open the unrolled loop over the thread's groups of a tile of shape t:
 * q, g (the group's first flat index) and, when the group lies in one
 * row, its index gi. */
static void open_group(GL *e, const TTy *t)
{
    int64_t n = tty_numel(t);
    int V = vwidth(e, n);
    e->ln.q = open_for(e, "q", gpu_i(e, 0), gpu_i(e, groups(e, n)), 1, true);
    PirExpr *g = gpu_add(e, gpu_mul(e, pir_ref(F, e->ln.q), gpu_i(e, e->T)), gpu_tid(e));
    e->ln.g = gpu_let(e, "g", gpu_mul(e, g, gpu_i(e, V)));
    if (n % ((int64_t)e->T * V) != 0)
        open_if(e, pir_bin(F, PB_LT, pir_ref(F, e->ln.g), gpu_i(e, n)));
    if (gvec(e, t))
        index_decl(e, t, "gi", e->ln.g, e->ln.gi);
}

static void close_group(GL *e, const TTy *t)
{
    int64_t n = tty_numel(t);
    if (n % ((int64_t)e->T * vwidth(e, n)) != 0)
        gpu_pop(e);
    gpu_pop(e);
}

/* Open the loop over the group's elements: j, k, f, i. */
static void open_elem(GL *e, const TTy *t)
{
    int V = vwidth(e, tty_numel(t));
    PirExpr *q = pir_ref(F, e->ln.q);
    if (V > 1) {
        e->ln.j = open_for(e, "j", gpu_i(e, 0), gpu_i(e, V), 1, true);
        e->ln.k = gpu_let(e, "k", gpu_add(e, gpu_mul(e, q, gpu_i(e, V)), pir_ref(F, e->ln.j)));
        e->ln.f = gpu_let(e, "f", gpu_add(e, pir_ref(F, e->ln.g), pir_ref(F, e->ln.j)));
    } else {
        open_scope(e);
        e->ln.j = gpu_let(e, "j", gpu_i(e, 0));
        e->ln.k = gpu_let(e, "k", q);
        e->ln.f = gpu_let(e, "f", pir_ref(F, e->ln.g));
    }
    e->kx = pir_ref(F, e->ln.k);
    e->jx = pir_ref(F, e->ln.j);
    if (!gvec(e, t)) {
        index_decl(e, t, "i", e->ln.f, e->ln.i);
        return;
    }
    for (int d = 0; d < t->rank; d++) {
        PirExpr *x = pir_ref(F, e->ln.gi[d]);
        e->ln.i[d] = gpu_let(e, "i", d == t->rank - 1 ? gpu_add(e, x, pir_ref(F, e->ln.j)) : x);
    }
}

static void close_elem(GL *e) { gpu_pop(e); }

/* The loops over a tile of shape t, one element at a time. */
static void open_lane(GL *e, const TTy *t)
{
    open_group(e, t);
    open_elem(e, t);
}

static void close_lane(GL *e, const TTy *t)
{
    close_elem(e);
    close_group(e, t);
}

static int open_lay(GL *e, const GpuLay *l, const TTy *t);
static void close_lay(GL *e, int depth);

static void write_shared(GL *e, int v)
{
    if (!e->shared[v] || !e->val[v])
        return;
    const TTy *t = ty(e, v);
    pir_barrier(F, gpu_cur(e));
    if (e->lay[v].kind != GL_BLOCK) {
        int depth = open_lay(e, &e->lay[v], t);
        Idx ix = { .rank = t->rank };
        for (int d = 0; d < t->rank; d++)
            ix.d[d] = pir_ref(F, e->ln.i[d]);
        pir_store(F, gpu_cur(e), sbuf(e, v, shared_lin(e, v, &ix)), pir_elem(F, e->val[v], e->kx));
        close_lay(e, depth);
    } else {
        open_lane(e, t);
        Idx ix = { .rank = t->rank };
        for (int d = 0; d < t->rank; d++)
            ix.d[d] = pir_ref(F, e->ln.i[d]);
        pir_store(F, gpu_cur(e), sbuf(e, v, e->spad[v] ? shared_lin(e, v, &ix) : pir_ref(F, e->ln.f)),
                  pir_elem(F, e->val[v], e->kx));
        close_lane(e, t);
    }
    pir_barrier(F, gpu_cur(e));
}

/* After v's definition: its copies for readers of other layouts. */
static void settle(GL *e, int v)
{
    write_shared(e, v);
    gpu_mma_settle(&e->mma, v);
    if (e->needb[v] && e->val[v] && e->lay[v].kind == GL_FRAG) {
        int64_t n = tty_numel(ty(e, v));
        e->valb[v] = decl_array(e, "v", pir_ty_compute(ty(e, v)->dt), kcount(e, n));
        gpu_mma_to_block(&e->mma, e->val[v], e->valb[v], &e->lay[v].g);
    }
}

static const TTy *lane_shape(const GL *e, const Instr *in)
{
    if (in->op == OP_STORE || in->op == OP_ATOMIC || in->op == OP_PRINT)
        return ty(e, in->args[0]);
    if (in->op == OP_VAR_SET)
        return &e->k->vars.v[in->index].ty;
    return &in->ty;
}

static bool var_is_tile(const GL *e, int var)
{
    return var >= 0 && var < e->k->vars.n && e->k->vars.v[var].ty.rank > 0;
}

static Class classify(const GL *e, const Instr *in)
{
    Op op = in->op;
    if (op == OP_LOOPVAR || (!e->live[in->id] && !tir_is_root(op)))
        return CL_SKIP;
    if (op == OP_CONST || op == OP_ARANGE || is_view(op) || e->recomp[in->id])
        return CL_SKIP;
    if (op == OP_LOAD && gpu_mma_staged(&e->mma, in))    /* copied by its pipelined loop */
        return CL_SKIP;
    if (op == OP_VAR_SET && e->mma.bd_set && e->mma.bd_set[in->id])
        return CL_SKIP;                         /* set after the next wait (gpu_mma.c bd_settle) */
    if ((op == OP_VAR_GET || op == OP_VAR_SET) && gpu_mma_var(&e->mma, in))
        return CL_BREAK;
    if (gpu_packed(e, in->id))                  /* its words copied (frag_get) */
        return CL_BREAK;
    if (op == OP_VAR_GET || op == OP_VAR_SET)
        return var_is_tile(e, in->index) ? CL_LANE : CL_SCALAR;
    if (op == OP_DIM || op == OP_ARG || op == OP_STRIDE || op == OP_PROGRAM_ID)
        return CL_SCALAR;
    if (op_flags[op] & OPF_E)
        return in->ty.rank == 0 ? CL_SCALAR : CL_LANE;
    if (op == OP_LOAD)
        return in->ty.rank == 0 ? CL_BREAK : CL_LANE;
    if (op == OP_STORE || op == OP_ATOMIC)
        return ty(e, in->args[0])->rank == 0 ? CL_BREAK : CL_LANE;
    if (op == OP_PRINT)
        return in->args[0] > 0 && ty(e, in->args[0])->rank > 0 ? CL_LANE : CL_BREAK;
    return CL_BREAK;
}

/* Is m before `in` in the program, or in a loop around `in`? */
static bool before(const GL *e, const Instr *m, const Instr *in)
{
    if (e->pos[m->id] < e->pos[in->id])
        return true;
    for (const Instr *x = in; x->parent && x->parent->owner; ) {
        x = x->parent->owner;
        if ((x->op == OP_FOR || x->op == OP_WHILE) && e->pos[x->id] < e->pos[m->id]
            && e->pos[m->id] <= e->end[x->id])
            return true;
    }
    return false;
}

static bool mem_op(Op op) { return op == OP_LOAD || op == OP_STORE || op == OP_ATOMIC; }

/* Must a barrier order `in` after another access to its tensor?  Not when
 * both use the same offsets value: then every thread touches its own
 * elements only.  Nor between loads, or between atomics (they commute). */
static bool mem_hazard(const GL *e, const Instr *in)
{
    if (!mem_op(in->op))
        return false;
    for (int v = 1; v < e->n; v++) {
        const Instr *m = I(e, v);
        if (m == in || !mem_op(m->op) || m->index != in->index || !e->live[v]
            || (m->op == OP_LOAD && in->op == OP_LOAD) || (m->op == OP_ATOMIC && in->op == OP_ATOMIC))
            continue;
        /* an atomic runs in the block layout, the other access perhaps not */
        bool own = m->args[0] == in->args[0] && m->op != OP_ATOMIC && in->op != OP_ATOMIC;
        if (own || !before(e, m, in))
            continue;
        return true;
    }
    return false;
}

static PirExpr *tensor(GL *e, const Instr *in)
{
    if (in->index < 0 || in->index >= e->ki->nparams || !e->ki->params[in->index].is_tensor) {
        fail(e, in, "internal error: not a tensor parameter");
        return pir_param(F, e->pidx[0]);
    }
    return pir_param(F, e->pidx[in->index]);
}

static PirExpr *load_expr(GL *e, const Instr *in, PirExpr **x)
{
    DType tdt = e->ki->params[in->index].dt;
    PirMem m = pir_gmem(pir_ty_of(tdt), tensor(e, in), x[0]);
    PirExpr *v = conv_dt(e, from_storage(e, pir_load(F, m, x[1], NULL), tdt), tdt, in->ty.dt);
    if (!x[1])
        return v;
    return pir_select(F, x[1], v, x[2] ? x[2] : lit_zero(e, in->ty.dt));
}

/* The value a store writes, read at ix of lane shape L, and its dtype in
 * *vdt.  A float rounded to the tensor's f16/bf16 right before the store
 * is stored from the float: the conversion rounds the same way once. */
static PirExpr *store_value(GL *e, const Instr *in, const TTy *L, const Idx *ix, DType *vdt)
{
    DType tdt = e->ki->params[in->index].dt;
    int v = in->args[1];
    const Instr *c = I(e, v);
    if (c->op == OP_CAST && c->ty.rank > 0 && (tdt == DT_F16 || tdt == DT_BF16) && c->ty.dt == tdt
        && ty(e, c->args[0])->dt == DT_F32 && !e->pre[v]) {
        Idx cx = align(e, ix, &c->ty, L);
        *vdt = DT_F32;
        return operand(e, c->args[0], &c->ty, &cx);
    }
    *vdt = ty(e, v)->dt;
    return operand(e, v, L, ix);
}

static void store_stmt(GL *e, const Instr *in, PirExpr **x, DType vdt)
{
    DType tdt = e->ki->params[in->index].dt;
    PirBlock *b = x[2] ? pir_if(F, gpu_cur(e), x[2])->body : gpu_cur(e);
    pir_store(F, b, pir_gmem(pir_ty_of(tdt), tensor(e, in), x[0]), to_storage(e, x[1], vdt, tdt));
}

/* atomic_add / atomic_max of one element, x: offsets, value, mask.  f32 /
 * f64 max on the integer atomics: a float's bits order as signed integers
 * where its sign bit is clear and in reverse, as unsigned ones, where it
 * is set, so its max is a signed max of its bits or an unsigned min of
 * them (what a NaN does is unspecified). */
static void atomic_stmt(GL *e, const Instr *in, PirExpr **x)
{
    DType tdt = e->ki->params[in->index].dt;
    PirBlock *b = x[2] ? pir_if(F, gpu_cur(e), x[2])->body : gpu_cur(e);
    PirMem m = pir_gmem(pir_ty_of(tdt), tensor(e, in), x[0]);
    if (in->rkind == RK_SUM || !dtype_is_float(tdt)) {
        pir_atomic(F, b, m, x[1], in->rkind == RK_SUM ? PAT_ADD : PAT_MAX);
        return;
    }
    PirTy it = tdt == DT_F64 ? PT_I64 : PT_I32, ut = tdt == DT_F64 ? PT_U64 : PT_U32;
    PirExpr *ubits = pir_bitcast(F, ut, x[1]), *bits = pir_conv(F, it, ubits);
    PirStmt *s = pir_if(F, b, pir_bin(F, PB_GE, bits, pir_int(F, it, 0)));
    m.ty = it;
    pir_atomic(F, s->body, m, bits, PAT_MAX);
    s->els = pir_block(F);
    m.ty = ut;
    pir_atomic(F, s->els, m, ubits, PAT_MIN);
}

/* Statements go to an `if` that thread 0 alone takes, until gpu_pop. */
static void open_thread0(GL *e)
{
    gpu_push(e, pir_if(F, gpu_cur(e), pir_bin(F, PB_EQ, gpu_tid(e), gpu_i(e, 0)))->body);
}

/* atomic_add of one element used as a value (lower.c: ival), x: offsets,
 * value, mask.  acq_rel for the whole program: a barrier orders every
 * thread's accesses before it ahead of thread 0's atom.acq_rel.gpu, whose
 * result goes through the cross-warp scratch, read after a second barrier
 * (so every thread's later accesses come after it).  A masked lane: 0. */
static void fetch_add(GL *e, const Instr *in, PirExpr **x)
{
    DType tdt = e->ki->params[in->index].dt;
    PirTy t = pir_ty_compute(tdt);
    bool wide = tdt == DT_I64 || tdt == DT_F64;
    PirTy bits = dtype_is_float(tdt) ? t : wide ? PT_U64 : PT_U32;
    e->scratch = true;
    PirLocal *o = gpu_let(e, "old", pir_conv(F, bits, gpu_i(e, 0)));
    pir_barrier(F, gpu_cur(e));
    open_thread0(e);
    PirBlock *b = x[2] ? pir_if(F, gpu_cur(e), x[2])->body : gpu_cur(e);
    PirStmt *a = pir_asm_stmt(F, b, tdt == DT_F32 ? PA_FETCH_ADD_F32 : tdt == DT_F64 ? PA_FETCH_ADD_F64
                                    : wide ? PA_FETCH_ADD_U64 : PA_FETCH_ADD_U32);
    a->out[0] = pir_ref(F, o);
    a->in[0] = pir_ptradd(F, tensor(e, in), x[0]);
    a->in[1] = pir_conv(F, bits, x[1]);   /* i32 -> u32, i64 -> u64: the same bits */
    /* ping-pong consumers (two programs at once) a slot each */
    PirExpr *slot = e->mma.pp_wg ? pir_ref(F, e->mma.pp_wg) : gpu_i(e, 0);
    pir_store(F, gpu_cur(e), pir_smem(bits, 0, slot), pir_ref(F, o));
    gpu_pop(e);
    pir_barrier(F, gpu_cur(e));
    PirExpr *v = pir_load(F, pir_smem(bits, 0, slot), NULL, NULL);
    e->val[in->id] = gpu_let(e, "v", pir_conv(F, t, v));
}

/* print's line for one element at index ix (rank of them) of value v (or
 * none) */
static void print_stmt(GL *e, const Instr *in, const Idx *ix, int rank, PirExpr *v)
{
    PirStmt *s = pir_stmt(F, gpu_cur(e), PS_PRINT);
    s->label = in->label;
    for (int d = 0; d < 3; d++)
        s->in[d] = pir_conv(F, PT_I64, pir_ref(F, e->pid[d]));
    for (int d = 0; d < rank; d++)
        s->in[3 + d] = ix->d[d];
    s->nw = rank;
    s->val = v;
}

/* The update of a var kept packed (plan_packed): the lane's element into
 * word kx / 2 of it, the low half at an even kx (the word's first write:
 * the fragment lanes run over kx upwards), the high half at the odd kx
 * after it.  A float rounded right before (p = pf as bf16) goes from the
 * float: the even kx leaves its bits in the word and the odd one rounds
 * both in one conversion (cvt.rn.bf16x2), which rounds the same way once.
 * NVRTC made that of two single conversions itself, LLVM did not (F2F +
 * PRMT per element: SASS of sdpa_bf16's D=128 key loop 619 -> 555
 * instructions from LLVM). */
static void pack_set(GL *e, const Instr *in, const TTy *L, const Idx *ix)
{
    DType dt = e->k->vars.v[in->index].ty.dt;
    int v = in->args[0];
    const Instr *c = I(e, v);
    PirExpr *x;
    PirLocal *w = gpu_var(e, in->index);
    PirExpr *at = gpu_op(e, PB_SHR, e->kx, gpu_i(e, 1));
    PirExpr *odd = gpu_op(e, PB_NE, gpu_op(e, PB_AND, e->kx, gpu_i(e, 1)), gpu_i(e, 0));
    if (c->op == OP_CAST && c->ty.rank > 0 && c->ty.dt == dt && ty(e, c->args[0])->dt == DT_F32 && !e->pre[v]) {
        Idx cx = align(e, ix, &c->ty, L);
        x = operand(e, c->args[0], &c->ty, &cx);
        PirStmt *i = pir_if(F, gpu_cur(e), odd);
        i->els = pir_block(F);
        PirLocal *r = pir_local(F, "h", PT_U32, 0);
        pir_decl(F, i->body, r, NULL);
        PirStmt *cv = pir_asm_stmt(F, i->body, dt == DT_BF16 ? PA_PACK_BF16X2 : PA_PACK_F16X2);
        cv->out[0] = pir_ref(F, r);
        cv->in[0] = pir_bitcast(F, PT_F32, pir_elem(F, w, at));
        cv->in[1] = x;
        pir_assign(F, i->body, w, at, pir_ref(F, r));
        pir_assign(F, i->els, w, at, pir_bitcast(F, PT_U32, x));
        return;
    }
    x = operand(e, v, L, ix);
    PirExpr *h = pir_conv(F, PT_U32, pir_bitcast(F, PT_U16, pir_conv(F, pir_ty_of(dt), x)));
    PirExpr *lo = gpu_op(e, PB_AND, pir_elem(F, w, at), pir_int(F, PT_U32, 0xffff));
    PirExpr *hi = gpu_op(e, PB_OR, lo, gpu_op(e, PB_SHL, h, pir_int(F, PT_U32, 16)));
    pir_assign(F, gpu_cur(e), w, at, pir_select(F, odd, hi, h));
}

static void emit_lane(GL *e, const Instr *in, const TTy *L)
{
    Idx ix = lane_idx(e, L);
    PirExpr *x[3] = { 0 }, *val;
    DType vdt = DT_BOOL;
    e->cur = in->id;
    if (in->op == OP_VAR_SET && e->vpack[in->index]) {
        pack_set(e, in, L, &ix);
        return;
    }
    for (int j = 0; j < in->nargs; j++)
        x[j] = in->op == OP_STORE && j == 1 ? store_value(e, in, L, &ix, &vdt)
                                            : operand(e, in->args[j], L, &ix);
    switch (in->op) {
    case OP_STORE:
        store_stmt(e, in, x, vdt);
        return;
    case OP_ATOMIC:
        atomic_stmt(e, in, x);
        return;
    case OP_PRINT:
        print_stmt(e, in, &ix, L->rank, x[0]);
        return;
    case OP_VAR_SET:
        pir_assign(F, gpu_cur(e), gpu_var(e, in->index), e->kx, x[0]);
        return;
    case OP_VAR_GET:
        val = pir_elem(F, gpu_var(e, in->index), e->kx);
        break;
    case OP_LOAD:
        val = load_expr(e, in, x);
        break;
    default:
        val = op_expr(e, in, x);
        if (!val) {
            fail(e, in, "unsupported elementwise op");
            return;
        }
        break;
    }
    if (e->kept[in->id]) {           /* not recomputed in the loop by NVVM */
        PirStmt *s = pir_asm_stmt(F, gpu_cur(e), PA_OPAQUE64);
        s->out[0] = pir_elem(F, e->val[in->id], e->kx);
        s->in[0] = val;
        return;
    }
    pir_assign(F, gpu_cur(e), e->val[in->id], e->kx, val);
}

/* ------------------------------------------------------------ vectors */

/* A group's V elements lie in one row (gvec): loads and stores whose
 * offsets step by one along the group move them with 16-byte (or 8- or
 * 4-byte) accesses when, at run time, the group is aligned and wholly
 * unmasked; otherwise element by element.  Expressions for the group are
 * built once over placeholder locals for the element (its last index,
 * register slot and place in the group), then substituted per element. */

enum { GK_UNI, GK_CONTIG, GK_OTHER };

/* The lane index of shape t in token form: the group's, last one tok_i. */
static Idx lane_tok(GL *e, const TTy *t)
{
    Idx r = { .rank = t->rank, .ident = true };
    for (int d = 0; d < t->rank; d++)
        r.d[d] = d == t->rank - 1 ? e->ti : pir_ref(F, e->ln.gi[d]);
    return r;
}

/* Token-form expression x for element j of a group of shape t. */
static PirExpr *subst(GL *e, PirExpr *x, const TTy *t, int j)
{
    int V = vwidth(e, tty_numel(t));
    x = pir_subst(F, x, e->tok_i, gpu_add(e, pir_ref(F, e->ln.gi[t->rank - 1]), gpu_i(e, j)));
    x = pir_subst(F, x, e->tok_k, gpu_add(e, gpu_mul(e, pir_ref(F, e->ln.q), gpu_i(e, V)), gpu_i(e, j)));
    return pir_subst(F, x, e->tok_j, gpu_i(e, j));
}

static int gkind_s(GL *e, int v, Idx ix, PirExpr **scale);

/* How v, read at ix (token form), varies over a group: the same for every
 * element, one more per element, or otherwise. */
static int gkind(GL *e, int v, Idx ix) { return gkind_s(e, v, ix, NULL); }

/* gkind; with scale, also "one more per element times a uniform value",
 * which *scale then holds (a strided tensor's last stride: the caller
 * checks at run time that it is 1). */
static int gkind_s(GL *e, int v, Idx ix, PirExpr **scale)
{
    if (v <= 0 || ty(e, v)->rank == 0)
        return GK_UNI;
    v = walk(e, v, &ix);
    const Instr *in = I(e, v);
    if (in->ty.rank == 0)
        return GK_UNI;
    int ld = -1;
    for (int d = 0; d < ix.rank; d++) {
        if (ix.d[d] == e->ti) {
            if (ld >= 0)
                return GK_OTHER;
            ld = d;
        } else if (pir_uses(ix.d[d], e->tok_i)) {
            return GK_OTHER;
        }
    }
    if (ld < 0)
        return GK_UNI;
    if (in->op == OP_ARANGE)
        return GK_CONTIG;
    if (!e->recomp[v])
        return GK_OTHER;
    int k[3] = { GK_UNI, GK_UNI, GK_UNI }, nc = 0;
    for (int j = 0; j < in->nargs && j < 3; j++) {
        int u = in->args[j];
        if (u > 0 && ty(e, u)->rank > 0)
            k[j] = gkind_s(e, u, align(e, &ix, ty(e, u), &in->ty), scale);
        if (k[j] == GK_OTHER)
            return GK_OTHER;
        nc += k[j] == GK_CONTIG;
    }
    if (nc == 0)
        return GK_UNI;
    switch (in->op) {
    case OP_ADD:
        return nc == 1 ? GK_CONTIG : GK_OTHER;
    case OP_MUL: {
        int u = in->args[k[0] == GK_CONTIG ? 1 : 0];
        if (!scale || *scale || nc != 1 || dtype_is_float(in->ty.dt) || dtype_info[in->ty.dt].bits != 64)
            return GK_OTHER;
        Idx ux = align(e, &ix, ty(e, u), &in->ty);
        *scale = ty(e, u)->rank == 0 ? scalar(e, u) : rd(e, u, ux);
        return pir_uses(*scale, e->tok_i) ? GK_OTHER : GK_CONTIG;
    }
    case OP_SUB:
        return k[0] == GK_CONTIG && k[1] == GK_UNI ? GK_CONTIG : GK_OTHER;
    case OP_CAST: {
        DType f = ty(e, in->args[0])->dt, t = in->ty.dt;
        bool ints = !dtype_is_float(f) && !dtype_is_float(t) && f != DT_BOOL && t != DT_BOOL;
        bool widen = dtype_info[t].bits > dtype_info[f].bits
                     || (dtype_info[t].bits == dtype_info[f].bits
                         && dtype_info[t].is_signed == dtype_info[f].is_signed);
        return ints && widen ? GK_CONTIG : GK_OTHER;
    }
    default:
        return GK_OTHER;
    }
}

static PirExpr *land(GL *e, PirExpr *a, PirExpr *b) { return a ? pir_bin(F, PB_AND, a, b) : b; }

/* "Bool tile m, read at mx (token form), holds for every element of the
 * group", as an expression. */
static PirExpr *all_true(GL *e, int m, Idx mx, const TTy *L)
{
    int V = vwidth(e, tty_numel(L));
    int k = gkind(e, m, mx);
    PirExpr *x = ty(e, m)->rank == 0 ? scalar(e, m) : rd(e, m, mx);
    if (k == GK_UNI)
        return subst(e, x, L, 0);
    Idx bx = mx;
    int b = walk(e, m, &bx);
    const Instr *bi = I(e, b);
    if (e->recomp[b] && bi->nargs == 2) {
        int u0 = bi->args[0], u1 = bi->args[1];
        Idx x0 = align(e, &bx, ty(e, u0), &bi->ty), x1 = align(e, &bx, ty(e, u1), &bi->ty);
        if (bi->op == OP_AND && bi->ty.dt == DT_BOOL)
            return land(e, all_true(e, u0, x0, L), all_true(e, u1, x1, L));
        int k0 = gkind(e, u0, x0), k1 = gkind(e, u1, x1);
        bool mono = (k0 == GK_CONTIG && k1 == GK_UNI) || (k0 == GK_UNI && k1 == GK_CONTIG);
        if (mono && (bi->op == OP_LT || bi->op == OP_LE || bi->op == OP_GT || bi->op == OP_GE))
            return land(e, subst(e, x, L, 0), subst(e, x, L, V - 1));
    }
    PirExpr *r = NULL;
    for (int j = 0; j < V; j++)
        r = land(e, r, subst(e, x, L, j));
    return r;
}

typedef struct Chunks { int s, cw, nc, epc; } Chunks;

/* How a group of V elements of tensor dtype dt moves: false when it cannot. */
static bool chunks(const GL *e, const TTy *L, DType dt, Chunks *c)
{
    int V = vwidth(e, tty_numel(L));
    c->s = dtype_info[dt].bits / 8;
    if (!gvec(e, L) || dt == DT_BOOL || V * c->s < 4)
        return false;
    c->cw = V * c->s < 16 ? V * c->s : 16;
    c->nc = V * c->s / c->cw;
    c->epc = c->cw / c->s;
    return true;
}

/* Word w (of 4 bytes) of the loaded words u[] that element j lies in;
 * w0 > 0: the group's words start at u[q * w0]. */
static PirExpr *word(GL *e, const Chunks *c, PirLocal *u, int j, int dw, int w0)
{
    PirExpr *i = gpu_i(e, j / c->epc * (c->cw / 4) + (j % c->epc) * c->s / 4 + dw);
    if (w0)
        i = gpu_add(e, gpu_mul(e, pir_ref(F, e->ln.q), gpu_i(e, w0)), i);
    return pir_elem(F, u, i);
}

/* Element j of the loaded words, in storage type. */
static PirExpr *unpack(GL *e, const Chunks *c, DType dt, PirLocal *u, int j, int w0)
{
    PirTy st = pir_ty_of(dt);
    PirExpr *w = word(e, c, u, j, 0, w0);
    int sh = (j % c->epc) * c->s % 4 * 8;
    switch (c->s) {
    case 1: case 2: {
        PirExpr *x = pir_bin(F, PB_SHR, w, pir_int(F, PT_U32, sh));
        x = pir_conv(F, c->s == 1 ? PT_U8 : PT_U16, x);
        return st == PT_F16 || st == PT_BF16 ? pir_bitcast(F, st, x) : pir_conv(F, st, x);
    }
    case 4:
        return dt == DT_F32 ? pir_bitcast(F, PT_F32, w) : pir_conv(F, st, w);
    default: {
        PirExpr *hi = pir_bin(F, PB_SHL, pir_conv(F, PT_U64, word(e, c, u, j, 1, w0)), pir_int(F, PT_U64, 32));
        PirExpr *x = pir_bin(F, PB_OR, hi, pir_conv(F, PT_U64, w));
        return dt == DT_F64 ? pir_bitcast(F, PT_F64, x) : pir_conv(F, st, x);
    }
    }
}

/* The bits of storage value x as U32 (s <= 4) or U64. */
static PirExpr *bits_of(GL *e, PirExpr *x, int s)
{
    PirTy u = s == 1 ? PT_U8 : s == 2 ? PT_U16 : s == 4 ? PT_U32 : PT_U64;
    if (x->ty == PT_F16 || x->ty == PT_BF16 || x->ty == PT_F32 || x->ty == PT_F64)
        x = pir_bitcast(F, u, x);
    else
        x = pir_conv(F, u, x);
    return s == 8 ? x : pir_conv(F, PT_U32, x);
}

/* Word w of chunk ch from the storage values sv[]. */
static PirExpr *pack(GL *e, const Chunks *c, PirLocal **sv, int ch, int w)
{
    int j0 = ch * c->epc + w * 4 / c->s;
    if (c->s == 8) {
        PirExpr *u = bits_of(e, pir_ref(F, sv[ch * c->epc + w / 2]), 8);
        if (w % 2)
            u = pir_bin(F, PB_SHR, u, pir_int(F, PT_U64, 32));
        return pir_conv(F, PT_U32, u);
    }
    PirExpr *r = NULL;
    for (int i = 0; i < 4 / c->s; i++) {
        PirExpr *b = bits_of(e, pir_ref(F, sv[j0 + i]), c->s);
        if (i)
            b = pir_bin(F, PB_SHL, b, pir_int(F, PT_U32, 8 * c->s * i));
        r = r ? pir_bin(F, PB_OR, r, b) : b;
    }
    return r;
}

static void set_tokens(GL *e, bool on)
{
    if (on)
        e->kx0 = e->kx, e->jx0 = e->jx;
    e->kx = on ? e->tk : e->kx0;
    e->jx = on ? e->tj : e->jx0;
}

/* The run-time check of the fast path: all unmasked and aligned. */
static PirExpr *vcond(GL *e, PirExpr *ok, PirLocal *o, PirExpr *p, int cw, int v)
{
    if (e->fast && v > 0 && e->guard[v])
        return pir_int(F, PT_BOOL, 1);
    PirExpr *addr = pir_ptrint(F, pir_ptradd(F, p, pir_ref(F, o)));
    PirExpr *al = pir_bin(F, PB_EQ, pir_bin(F, PB_AND, addr, pir_int(F, PT_U64, cw - 1)), pir_int(F, PT_U64, 0));
    return land(e, ok, al);
}

static void vopen(GL *e, PirExpr *ok, PirLocal *o, PirExpr *p, int cw, int v)
{
    PirStmt *s = pir_if(F, gpu_cur(e), vcond(e, ok, o, p, cw, v));
    s->els = pir_block(F);
    gpu_push(e, s->els);
    gpu_push(e, s->body);
}

/* The fast-path test and first offset of load ld's group (tokens set by
 * the caller); false when ld has no vector form. */
static bool vload_test(GL *e, const Instr *ld, Idx ix, const TTy *L, Chunks *c, PirExpr **o, PirExpr **ok)
{
    DType tdt = e->ki->params[ld->index].dt;
    int off = ld->args[0], m = ld->args[1];
    PirExpr *sc = NULL;
    if (!chunks(e, L, tdt, c) || gkind_s(e, off, align(e, &ix, ty(e, off), &ld->ty), &sc) != GK_CONTIG)
        return false;
    *o = subst(e, operand(e, off, &ld->ty, &ix), L, 0);
    *ok = m > 0 ? all_true(e, m, align(e, &ix, ty(e, m), &ld->ty), L) : NULL;
    if (sc)
        *ok = land(e, *ok, pir_bin(F, PB_EQ, subst(e, sc, L, 0), pir_int(F, sc->ty, 1)));
    return true;
}

/* The words of c's chunks of tensor p at element offset ol: 16-byte (or
 * narrower) vector loads into a new U32 array, chunk i at word i * cw / 4. */
static PirLocal *load_chunks(GL *e, const Chunks *c, PirExpr *p, PirLocal *ol)
{
    PirLocal *u = decl_array(e, "u", PT_U32, c->nc * c->cw / 4);
    for (int i = 0; i < c->nc; i++) {
        PirStmt *s = pir_stmt(F, gpu_cur(e), PS_LOADV);
        PirExpr *at = pir_ptradd(F, p, pir_bin(F, PB_ADD, pir_ref(F, ol), pir_int(F, PT_I64, i * c->epc)));
        s->mem = pir_gmem(PT_U32, at, pir_int(F, PT_I64, 0));
        s->nw = c->cw / 4;
        s->local = u;
        s->dst0 = i * c->cw / 4;
    }
    return u;
}

/* Load ld of a run of shape L, issued ahead of the run (see issue_ahead),
 * into the words raw[q * words ..] of the group (the group loop open): the
 * vector loads when the group is aligned and unmasked, else element by
 * element (masked elements: zero bits).  Nothing here uses what it loads,
 * so every group's loads are in flight before the first wait; false when
 * ld has no vector form. */
static bool vload_issue(GL *e, const Instr *ld, const TTy *L, PirLocal *raw)
{
    Chunks c;
    PirExpr *o, *ok;
    Idx ix = lane_tok(e, L);
    set_tokens(e, true);
    bool vec = vload_test(e, ld, ix, L, &c, &o, &ok);
    PirExpr *off = operand(e, ld->args[0], &ld->ty, &ix);
    PirExpr *mask = ld->args[1] > 0 ? operand(e, ld->args[1], &ld->ty, &ix) : NULL;
    set_tokens(e, false);
    if (!vec)
        return false;
    DType tdt = e->ki->params[ld->index].dt;
    int V = vwidth(e, tty_numel(L)), nw = c.nc * c.cw / 4;
    PirExpr *p = tensor(e, ld);
    open_scope(e);
    PirLocal *ol = gpu_let(e, "o", o);
    PirStmt *st = pir_if(F, gpu_cur(e), vcond(e, ok, ol, p, c.cw, ld->id));
    st->els = pir_block(F);
    gpu_push(e, st->els);
    PirLocal *sv[8];
    for (int j = 0; j < V; j++) {
        PirExpr *mj = mask ? subst(e, mask, L, j) : NULL;
        PirExpr *x = pir_load(F, pir_gmem(pir_ty_of(tdt), p, subst(e, off, L, j)), mj, NULL);
        sv[j] = gpu_let(e, "s", x);
    }
    PirExpr *q0 = gpu_mul(e, pir_ref(F, e->ln.q), gpu_i(e, nw));
    for (int i = 0; i < c.nc; i++)
        for (int w = 0; w < c.cw / 4; w++)
            pir_assign(F, gpu_cur(e), raw, gpu_add(e, q0, gpu_i(e, i * c.cw / 4 + w)), pack(e, &c, sv, i, w));
    gpu_pop(e);
    gpu_push(e, st->body);
    PirLocal *u = load_chunks(e, &c, p, ol);
    for (int w = 0; w < nw; w++)
        pir_assign(F, gpu_cur(e), raw, gpu_add(e, q0, gpu_i(e, w)), pir_elem(F, u, gpu_i(e, w)));
    gpu_pop(e);
    gpu_pop(e);
    return true;
}

/* Load ld's values from the words vload_issue loaded (the group loop
 * open): masked elements take `other`.  Without `other` they are the zero
 * bits vload_issue left, which convert to zero: no per-element select, so
 * the lane masks need not live from the loads to here. */
static void vload_use(GL *e, const Instr *ld, const TTy *L, PirLocal *raw)
{
    Chunks c;
    DType tdt = e->ki->params[ld->index].dt;
    int V = vwidth(e, tty_numel(L));
    chunks(e, L, tdt, &c);
    Idx ix = lane_tok(e, L);
    set_tokens(e, true);
    PirExpr *mask = ld->args[1] > 0 ? operand(e, ld->args[1], &ld->ty, &ix) : NULL;
    PirExpr *other = ld->args[2] > 0 ? operand(e, ld->args[2], &ld->ty, &ix) : NULL;
    set_tokens(e, false);
    for (int j = 0; j < V; j++) {
        PirExpr *x = conv_dt(e, from_storage(e, unpack(e, &c, tdt, raw, j, c.nc * c.cw / 4), tdt), tdt, ld->ty.dt);
        if (mask && other)
            x = pir_select(F, subst(e, mask, L, j), x, subst(e, other, L, j));
        pir_assign(F, gpu_cur(e), e->val[ld->id], gpu_add(e, gpu_mul(e, pir_ref(F, e->ln.q), gpu_i(e, V)), gpu_i(e, j)), x);
    }
}

/* The vector form of load ld read at ix (token form, ld's index) in a run
 * of shape L, into dst[slot] (slot: q * V + j when q, else j).  Builds the
 * fast path and opens its else branch for the caller's element-wise
 * fallback (closed by vclose); false, building nothing, when the load has
 * no vector form. */
static bool vload_open(GL *e, const Instr *ld, Idx ix, const TTy *L, PirLocal *dst, bool q)
{
    DType tdt = e->ki->params[ld->index].dt;
    int V = vwidth(e, tty_numel(L));
    Chunks c;
    PirExpr *o, *ok;
    set_tokens(e, true);
    bool vec = vload_test(e, ld, ix, L, &c, &o, &ok);
    set_tokens(e, false);
    if (!vec)
        return false;
    PirExpr *p = tensor(e, ld);
    open_scope(e);
    PirLocal *ol = gpu_let(e, "o", o);
    vopen(e, ok, ol, p, c.cw, q ? ld->id : 0);
    PirLocal *u = load_chunks(e, &c, p, ol);
    for (int j = 0; j < V; j++) {
        PirExpr *x = conv_dt(e, from_storage(e, unpack(e, &c, tdt, u, j, 0), tdt), tdt, ld->ty.dt);
        PirExpr *slot = q ? gpu_add(e, gpu_mul(e, pir_ref(F, e->ln.q), gpu_i(e, V)), gpu_i(e, j)) : gpu_i(e, j);
        pir_assign(F, gpu_cur(e), dst, slot, x);
    }
    gpu_pop(e);
    return true;
}

/* Does the kernel also read tensor param? */
static bool read_too(const GL *e, int param)
{
    for (int v = 1; v < e->n; v++)
        if (I(e, v)->op == OP_LOAD && I(e, v)->index == param && e->live[v])
            return true;
    return false;
}

/* The vector form of store st in a run of shape L, as vload_open. */
static bool vstore_open(GL *e, const Instr *st, const TTy *L)
{
    DType tdt = e->ki->params[st->index].dt, vdt = DT_F32;
    int V = vwidth(e, tty_numel(L));
    Chunks c;
    int off = st->args[0], m = st->args[2];
    Idx ix = lane_tok(e, L);
    PirExpr *sc = NULL;
    if (!chunks(e, L, tdt, &c) || gkind_s(e, off, align(e, &ix, ty(e, off), L), &sc) != GK_CONTIG)
        return false;
    set_tokens(e, true);
    PirExpr *o = subst(e, operand(e, off, L, &ix), L, 0);
    PirExpr *ok = m > 0 ? all_true(e, m, align(e, &ix, ty(e, m), L), L) : NULL;
    if (sc)
        ok = land(e, ok, pir_bin(F, PB_EQ, subst(e, sc, L, 0), pir_int(F, sc->ty, 1)));
    PirExpr *x = store_value(e, st, L, &ix, &vdt);
    x = to_storage(e, x, vdt, tdt);
    set_tokens(e, false);
    PirExpr *p = tensor(e, st);
    open_scope(e);
    PirLocal *ol = gpu_let(e, "o", o);
    vopen(e, ok, ol, p, c.cw, st->id);
    PirLocal *sv[8];
    for (int j = 0; j < V; j++)
        sv[j] = gpu_let(e, "s", subst(e, x, L, j));
    bool ordered = read_too(e, st->index);
    for (int i = 0; i < c.nc; i++) {
        PirStmt *s = pir_stmt(F, gpu_cur(e), PS_STORE);
        PirExpr *at = pir_ptradd(F, p, pir_bin(F, PB_ADD, pir_ref(F, ol), pir_int(F, PT_I64, i * c.epc)));
        s->mem = pir_gmem(PT_U32, at, pir_int(F, PT_I64, 0));
        s->nw = c.cw / 4 > 1 ? c.cw / 4 : 0;
        s->ordered = ordered;
        for (int w = 0; w < c.cw / 4; w++)
            s->w[w] = pack(e, &c, sv, i, w);
        s->val = s->w[0];
    }
    gpu_pop(e);
    return true;
}

static void vclose(GL *e)
{
    gpu_pop(e);          /* the else branch */
    gpu_pop(e);          /* the scope */
}

/* Operand a of a run of shape L that reads a reloadable load at another
 * mapping than its own (a broadcast bias row, say): rather than through
 * shared memory, each group loads what it needs into a prefetch of V first. */
static bool pre_ok(GL *e, int a, const TTy *L)
{
    if (a <= 0 || ty(e, a)->rank == 0 || e->pre[a])
        return false;
    Idx ix = any_idx(e, L);
    ix = align(e, &ix, ty(e, a), L);
    int b = walk(e, a, &ix);
    return ty(e, b)->rank > 0 && e->reload[b] && !ix.ident;
}

static void emit_pre(GL *e, int a, const TTy *L)
{
    int V = vwidth(e, tty_numel(L));
    Idx tx = any_idx(e, L);
    tx = align(e, &tx, ty(e, a), L);
    const Instr *ld = I(e, walk(e, a, &tx));
    PirLocal *r = e->prel[a] = decl_array(e, "r", pir_ty_compute(ld->ty.dt), V);
    bool vec = false;
    if (gvec(e, L)) {
        tx = lane_tok(e, L);
        tx = align(e, &tx, ty(e, a), L);
        walk(e, a, &tx);
        vec = vload_open(e, ld, tx, L, r, false);
    }
    open_elem(e, L);
    Idx ix = lane_idx(e, L);
    ix = align(e, &ix, ty(e, a), L);
    walk(e, a, &ix);
    pir_assign(F, gpu_cur(e), r, pir_ref(F, e->ln.j), load_at(e, ld, &ix));
    close_elem(e);
    if (vec)
        vclose(e);
}

/* Open the loops over a thread's slots of a tile of shape t in layout l
 * (GL_FRAG or GL_ROW): e->ln.i[], e->kx (and e->rkx) are the lane's; the
 * loop depth to close. */
static int open_lay(GL *e, const GpuLay *l, const TTy *t)
{
    const GpuGrid *g = &l->g;
    e->cur_lay = *l;
    if (l->kind == GL_FRAG) {
        GpuSlots s = gpu_mma_open_frag(&e->mma, g, true);
        e->ln.i[l->tr] = s.i0;
        e->ln.i[!l->tr] = s.i1;
        e->kx = pir_ref(F, s.k);
        e->rkx = pir_ref(F, s.rk);
        return s.depth;
    }
    open_scope(e);
    PirExpr *w = pir_bin(F, PB_SHR, gpu_tid(e), gpu_i(e, 5)), *ln = pir_bin(F, PB_AND, gpu_tid(e), gpu_i(e, 31));
    PirLocal *r0 = gpu_let(e, "r0", gpu_add(e, gpu_mul(e, pir_bin(F, PB_REM, w, gpu_i(e, g->WM)), gpu_i(e, g->TM)),
                                            pir_bin(F, PB_SHR, ln, gpu_i(e, 2))));
    PirLocal *mi = open_for(e, "mi", gpu_i(e, 0), gpu_i(e, g->MI), 1, true);
    PirLocal *h = open_for(e, "h", gpu_i(e, 0), gpu_i(e, 2), 1, true);
    e->kx = pir_ref(F, gpu_let(e, "k", gpu_add(e, gpu_mul(e, pir_ref(F, mi), gpu_i(e, 2)), pir_ref(F, h))));
    e->ln.i[0] = gpu_let(e, "i", gpu_add(e, gpu_add(e, pir_ref(F, r0), gpu_mul(e, pir_ref(F, mi), gpu_i(e, 16))),
                                         gpu_mul(e, pir_ref(F, h), gpu_i(e, 8))));
    if (t->rank == 2)
        e->ln.i[1] = gpu_let(e, "i", gpu_i(e, 0));
    return 3;
}

static void close_lay(GL *e, int depth)
{
    while (depth-- > 0)
        gpu_pop(e);
    e->cur_lay = (GpuLay){ .kind = GL_BLOCK };
}

/* Store st of a fragment run, after the run's other members: per pair of
 * a thread's fragment slots (k, k + 1: columns i1, i1 + 1 of row i0) one
 * 4- or 8-byte store when both elements are unmasked, next to each other
 * in memory and aligned; else element by element. */
static void frag_store(GL *e, const Instr *st, const TTy *L)
{
    DType tdt = e->ki->params[st->index].dt, vdt = DT_F32;
    int s = dtype_info[tdt].bits / 8;
    GpuSlots sl = gpu_mma_open_pairs(&e->mma, &e->run_lay.g);
    e->cur_lay = e->run_lay;
    PirExpr *x[2][3] = { { 0 } };
    bool tr = e->run_lay.tr;         /* x's column i1 is the tensor's row */
    for (int j = 0; j < 2; j++) {
        e->ln.i[tr] = sl.i0;
        e->ln.i[!tr] = j ? gpu_let(e, "i", gpu_add(e, pir_ref(F, sl.i1), gpu_i(e, 1))) : sl.i1;
        e->kx = j ? gpu_add(e, pir_ref(F, sl.k), gpu_i(e, 1)) : pir_ref(F, sl.k);
        Idx ix = lane_idx(e, L);
        x[j][0] = operand(e, st->args[0], L, &ix);
        x[j][1] = store_value(e, st, L, &ix, &vdt);
        x[j][2] = operand(e, st->args[2], L, &ix);
    }
    if ((s == 2 || s == 4) && !tr) {
        /* vclose closes a scope (vopen's other callers open one): opened
         * here only with epi_frag, where more code follows the store (each
         * path of sdpa_relpos_bf16 has one).  Without it vclose also pops
         * the block around the store; the K loops' epilogues are left as
         * they were (opening it there too moves matmul_bf16's last TMA
         * store wait into the programs' loop: a change of its own) */
        if (e->k->epi_frag)
            open_scope(e);
        PirExpr *p = tensor(e, st);
        PirLocal *o = gpu_let(e, "o", x[0][0]);
        PirExpr *next = pir_bin(F, PB_EQ, x[1][0], pir_bin(F, PB_ADD, pir_ref(F, o), pir_int(F, x[0][0]->ty, 1)));
        PirExpr *ok = x[0][2] ? pir_bin(F, PB_AND, x[0][2], x[1][2]) : NULL;
        vopen(e, land(e, ok, next), o, p, 2 * s, 0);
        PirStmt *w = pir_stmt(F, gpu_cur(e), PS_STORE);
        w->mem = pir_gmem(PT_U32, pir_ptradd(F, p, pir_ref(F, o)), pir_int(F, PT_I64, 0));
        w->ordered = read_too(e, st->index);
        PirExpr *b0 = bits_of(e, to_storage(e, x[0][1], vdt, tdt), s);
        PirExpr *b1 = bits_of(e, to_storage(e, x[1][1], vdt, tdt), s);
        if (s == 2) {
            w->val = pir_bin(F, PB_OR, b0, pir_bin(F, PB_SHL, b1, pir_int(F, PT_U32, 16)));
        } else {
            w->nw = 2;
            w->w[0] = w->val = b0;
            w->w[1] = b1;
        }
        gpu_pop(e);
    }
    for (int j = 0; j < 2; j++)
        store_stmt(e, st, x[j], vdt);
    if ((s == 2 || s == 4) && !tr)
        vclose(e);
    while (sl.depth-- > 0)
        gpu_pop(e);
    e->cur_lay = (GpuLay){ .kind = GL_BLOCK };
}

/* TMA-stored epilogues (sm_90a, issue 4).  A store of a wgmma K loop's
 * accumulator tile [M, N] (grid g: warpgroup w owns rows 64 (w % gm) and
 * TN columns from TN (w / gm)) to a 16-bit tensor that TMA can write goes
 * through shared memory: each warpgroup writes its tile in chunks of cb
 * boxes of 64 x 64 elements (8 KB, in the 128-byte swizzle, conflict-free
 * for the fragments' rows) into a buffer of its own, then one thread of it
 * sends them with cp.async.bulk.tensor (global writes in whole lines, tails
 * outside the tensor dropped by the unit, no bounds tests) and the
 * warpgroup goes on; the buffer is waited for (bulk wait_group.read) before
 * it is written again, and every group at the end of the kernel.  A
 * persistent kernel's next tile overlaps the stores.  Only when the kernel's
 * TMA maps were built (the launcher's tk_tma; else frag_store).
 * TKC_TMA_STORE=0: frag_store always.
 * Two refinements (issue 4, session 9; TKC_EPI_WGBAR=0 / TKC_EPI_DB=0 take
 * them back): a warpgroup's writes and its TMA stores are ordered by a
 * named barrier of its own 128 threads (4 + w), not all consumers'
 * barrier (warp-specialized kernels only: there the producer alone writes
 * the stages, so nothing else leans on that barrier): the buffer is the
 * warpgroup's alone, so the other warpgroups need not wait; and buffers of
 * two boxes are written and sent one box per chunk, alternating between
 * the two, each waiting only for the reads of the store group before last:
 * the threads' writes of box h overlap the unit's read of box h - 1 (before:
 * every read waited for before the next pair was written).  On an H100 in
 * turns with cuBLAS, two runs: matmul_bf16 0.996 / 0.992 of cuBLAS at
 * 4096^3 against 0.991 / 0.985, 1.019 / 1.017 at 8192^3 against 1.015 /
 * 1.016; matmul_f16 0.992 / 1.019 against 0.983 / 1.015
 * (doc/bench/h100-s9-mm-1.log, -2.log): small, every time the same way.
 * TKC_TMA_STORE=2 on top of them: no faster (0.995 / 1.018). */
#define EPI_BOX 8192

static int64_t epi_at(const GL *e)
{
    return al1k(gpu_mma_end(&e->mma));
}

/* Can the epilogue of the tile L of a run in a wgmma K loop's fragments go
 * through the warpgroups' buffers of 64 x 64 boxes (frag_store_tma,
 * frag_store_lean): a 16-bit result stored as laid out (not transposed),
 * read nowhere else, the run's grid of whole 64-column boxes, t matching
 * the store's indices. */
static bool epi_tile_ok(GL *e, const Instr *st, const TTy *L, GpuTma *t)
{
    const GpuGrid *g = &e->run_lay.g;
    DType tdt = e->ki->params[st->index].dt;
    if (e->run_lay.tr || e->epi_off || read_too(e, st->index) || (tdt != DT_BF16 && tdt != DT_F16))
        return false;
    if (g->TM != 16 || g->MI != 1 || g->WM % 4 || g->M != 16 * g->WM || g->TN % 64 || g->N != g->TN * g->WN
        || e->T != 32 * g->WM * g->WN || L->rank != 2 || L->dim[0] != g->M || L->dim[1] != g->N)
        return false;
    return gpu_tma_match_store(&e->mma, st->id, t);
}

static bool tma_store_ok(GL *e, const Instr *st, const TTy *L, GpuTma *t)
{
    return e->mma.tma_on && e->k->tma_version != 2 && tkc_knob("TKC_TMA_STORE", 1) && epi_tile_ok(e, st, L, t);
}

/* The epilogue's barrier: the block's (the consumers' in a specialized
 * kernel), or with `wgbar` named barrier 4 + wg of the warpgroup's 128
 * threads (ids 2 and 3 are the key loops' ping-pong's, gpu_mma.c). */
static void epi_barrier(GL *e, bool wgbar, PirLocal *wg)
{
    if (!wgbar) {
        pir_barrier(F, gpu_cur(e));
        return;
    }
    PirStmt *s = pir_asm_stmt(F, gpu_cur(e), PA_NBAR_SYNC);
    s->in[0] = gpu_add(e, pir_ref(F, wg), gpu_i(e, 4));
    s->in[1] = gpu_i(e, 128);
}

/* Chunk h of a wgmma K loop's accumulator tile (grid g; per boxes of 64 x
 * 64 elements of a 16-bit tensor) written by the warpgroup's threads into
 * its buffer buf at shared byte base + buf: box (h per + b) % cb, in the
 * 128-byte swizzle (frag_store_tma's layout, also frag_store_lean's). */
static void epi_write(GL *e, const Instr *st, const TTy *L, PirLocal *buf, int64_t base, int64_t h, int64_t per,
                      int64_t cb)
{
    const GpuGrid *g = &e->run_lay.g;
    DType tdt = e->ki->params[st->index].dt;
    GpuSlots sl = gpu_mma_open_pairs(&e->mma, g);
    gpu_push(e, pir_if(F, gpu_cur(e), pir_bin(F, PB_EQ, pir_bin(F, PB_DIV, sl.ni, gpu_i(e, 8 * per)), gpu_i(e, h)))->body);
    e->cur_lay = e->run_lay;
    PirExpr *w[2];
    for (int j = 0; j < 2; j++) {
        e->ln.i[0] = sl.i0;
        e->ln.i[1] = j ? gpu_let(e, "i", gpu_add(e, pir_ref(F, sl.i1), gpu_i(e, 1))) : sl.i1;
        e->kx = j ? gpu_add(e, pir_ref(F, sl.k), gpu_i(e, 1)) : pir_ref(F, sl.k);
        Idx ix = lane_idx(e, L);
        DType vdt = DT_F32;
        PirExpr *x = store_value(e, st, L, &ix, &vdt);
        w[j] = bits_of(e, to_storage(e, x, vdt, tdt), 2);
    }
    PirExpr *r = pir_bin(F, PB_AND, pir_ref(F, sl.i0), gpu_i(e, 63));
    PirExpr *cbyte = gpu_mul(e, pir_bin(F, PB_AND, pir_ref(F, sl.i1), gpu_i(e, 63)), gpu_i(e, 2));
    PirExpr *sw = pir_bin(F, PB_XOR, pir_bin(F, PB_SHR, cbyte, gpu_i(e, 4)), pir_bin(F, PB_AND, r, gpu_i(e, 7)));
    PirExpr *at = gpu_add(e, pir_ref(F, buf), gpu_mul(e, pir_bin(F, PB_REM, pir_bin(F, PB_DIV, sl.ni, gpu_i(e, 8)),
                                                                  gpu_i(e, cb)), gpu_i(e, EPI_BOX)));
    at = gpu_add(e, at, gpu_add(e, gpu_mul(e, r, gpu_i(e, 128)),
                                gpu_add(e, pir_bin(F, PB_SHL, sw, gpu_i(e, 4)), pir_bin(F, PB_AND, cbyte, gpu_i(e, 15)))));
    pir_store(F, gpu_cur(e), pir_smem(PT_U32, base, pir_bin(F, PB_SHR, at, gpu_i(e, 2))),
              pir_bin(F, PB_OR, w[0], pir_bin(F, PB_SHL, w[1], pir_int(F, PT_U32, 16))));
    gpu_pop(e);
    while (sl.depth-- > 0)
        gpu_pop(e);
    e->cur_lay = (GpuLay){ .kind = GL_BLOCK };
}

/* The buffer of a warpgroup's epilogue chunks (frag_store_tma,
 * frag_store_lean) and where its tile starts in the tensor. */
typedef struct EpiAt {
    int64_t G, cb;           /* consumer warpgroups; boxes per buffer */
    bool wgbar;              /* epi_barrier's kind */
    PirLocal *wg, *buf, *gr, *gc;   /* warpgroup; its buffer's byte offset; the tile's row, column */
} EpiAt;

static EpiAt epi_open(GL *e, const GpuTma *t)
{
    const GpuGrid *g = &e->run_lay.g;
    EpiAt a = { .G = e->T / 128, .cb = g->TN >= 128 ? 2 : 1 };
    int64_t G = a.G, cb = a.cb;
    PirLocal *pw = e->mma.pp_wg;     /* ping-pong consumers: a buffer per warpgroup */
    a.wgbar = !pw && G > 1 && gpu_mma_ws_loop(&e->mma) && tkc_knob("TKC_EPI_WGBAR", 1) == 1;
    if (e->plan && (pw ? 2 : 1) * G * cb * EPI_BOX > e->epi_need)
        e->epi_need = (pw ? 2 : 1) * G * cb * EPI_BOX;
    return a;
}

/* The lets of epi_open's locals (after the caller's params). */
static void epi_lets(GL *e, const GpuTma *t, EpiAt *a)
{
    const GpuGrid *g = &e->run_lay.g;
    int64_t gm = g->WM / 4, G = a->G, cb = a->cb;
    PirLocal *pw = e->mma.pp_wg;
    PirExpr *zero = gpu_i(e, 0);
    PirLocal *r0 = gpu_let(e, "er", pir_conv(F, PT_I32, gpu_at_raw(e, t->row, zero, zero)));
    PirLocal *c0 = gpu_let(e, "ec", pir_conv(F, PT_I32, gpu_at_raw(e, t->col, zero, zero)));
    PirLocal *wg = a->wg = gpu_let(e, "wg", pir_bin(F, PB_SHR, gpu_tid(e), gpu_i(e, 7)));
    PirExpr *eb = gpu_mul(e, pir_ref(F, wg), gpu_i(e, cb * EPI_BOX));
    if (pw)
        eb = gpu_add(e, eb, gpu_mul(e, pir_ref(F, pw), gpu_i(e, G * cb * EPI_BOX)));
    a->buf = gpu_let(e, "eb", eb);
    /* the chunk's first row and column in the tensor */
    a->gr = gpu_let(e, "eg", gpu_add(e, pir_ref(F, r0), gpu_mul(e, pir_bin(F, PB_REM, pir_ref(F, wg), gpu_i(e, gm)),
                                                                  gpu_i(e, 64))));
    a->gc = gpu_let(e, "eg", gpu_add(e, pir_ref(F, c0), gpu_mul(e, pir_bin(F, PB_DIV, pir_ref(F, wg), gpu_i(e, gm)),
                                                                  gpu_i(e, g->TN))));
}

static void frag_store_tma(GL *e, const Instr *st, const TTy *L, const GpuTma *t)
{
    const GpuGrid *g = &e->run_lay.g;
    EpiAt a = epi_open(e, t);
    int64_t cb = a.cb;
    int64_t per = cb == 2 && tkc_knob("TKC_EPI_DB", 1) == 1 ? 1 : cb;   /* boxes per chunk */
    int64_t nh = g->TN / 64 / per;
    bool wgbar = a.wgbar;
    int map = gpu_tma_param(&e->mma, t, 64, 64);
    F->params.v[map].role = tkc_knob("TKC_STORE_MAP_OPT", 1) ? 3 : 0;
    epi_lets(e, t, &a);
    PirLocal *wg = a.wg, *buf = a.buf, *gr = a.gr, *gc = a.gc;
    PirExpr *zero = gpu_i(e, 0);
    PirExpr *lead = pir_bin(F, PB_EQ, pir_bin(F, PB_AND, gpu_tid(e), gpu_i(e, 127)), zero);
    int64_t base = epi_at(e);
    for (int64_t h = 0; h < nh; h++) {
        gpu_push(e, pir_if(F, gpu_cur(e), lead)->body);
        /* per < cb: the group before this one read the other box */
        pir_asm_stmt(F, gpu_cur(e), PA_BULK_WAIT_READ)->in[0] = gpu_i(e, h > 0 && per < cb ? 1 : 0);
        gpu_pop(e);
        epi_barrier(e, wgbar, wg);
        epi_write(e, st, L, buf, base, h, per, cb);
        pir_asm_stmt(F, gpu_cur(e), PA_FENCE_PROXY);
        epi_barrier(e, wgbar, wg);
        gpu_push(e, pir_if(F, gpu_cur(e), lead)->body);
        for (int64_t b = 0; b < per; b++) {
            PirStmt *x = pir_asm_stmt(F, gpu_cur(e), PA_TMA_STORE2);
            x->in[0] = pir_saddr(F, gpu_add(e, gpu_i(e, base + (h * per + b) % cb * EPI_BOX), pir_ref(F, buf)));
            x->in[1] = pir_param(F, map);
            x->in[2] = gpu_add(e, pir_ref(F, gc), gpu_i(e, (h * per + b) * 64));
            x->in[3] = pir_ref(F, gr);
        }
        pir_asm_stmt(F, gpu_cur(e), PA_BULK_COMMIT);
        gpu_pop(e);
    }
    e->epi_used = true;
}

/* Edge-case epilogues in a loop (issue 7: LLVM's compile time;
 * TKC_EPI_LEAN: 2, the default, in NAME only; 1 in NAME__nomap too).  frag_store writes a tile through a masked
 * branch per pair of a thread's fragment slots, unrolled: 64 of them per
 * thread for matmul_bf16's 128 x 256 tile, most of the blocks and branches
 * LLVM's passes see (InstCombine's known-bits queries walk every branch on
 * the tile's row and column).  Where the tile has frag_store_tma's shape but
 * TMA does not store it (NAME when the launcher built no map of the result,
 * a result whose rows are not 16-byte aligned; NAME__nomap always), each
 * chunk of 64 x 64 elements goes instead through the warpgroup's buffer, as
 * frag_store_tma's do (written unconditionally, the same code), and the
 * warpgroup's 128 threads copy it to the tensor: a box wholly inside the
 * tensor, 16-byte aligned with rows of whole 16-byte pieces, by 16-byte
 * pieces (4 per thread, unrolled; 8 threads a row of the box); any other by
 * one loop, not unrolled, over its elements (32 per thread: a warp writes
 * 32 consecutive elements of a row) with the bounds test.  Only wgmma K
 * loops (the buffer's shared memory comes on top of NAME__nomap's; NAME
 * has it already).  H100, doc/bench/h100-s12-s12-ir-1.log: matmul_bf16
 * 4095^3 (NAME, every tile's epilogue here) 9-10% faster; NAME__nomap at
 * 4096^3 (TKC_TMA=0) 14-18% slower with 1 (ptxas C7514 on its NVRTC PTX:
 * wgmma serialized), hence NAME only by default. */
static PirExpr *tensor_dim(GL *e, int p, int j)
{
    const KernelInfo *ki = e->ki;
    const TensorDim *td = &ki->params[p].dims[j];
    int64_t v = 0;
    if (td->dim >= 0)
        return ki->dims[td->dim].specialized ? pir_int(F, PT_I64, ki->dims[td->dim].value)
                                             : pir_param(F, e->didx[td->dim]);
    return td->size && sym_eval(td->size, e->k->cvals, ki->nconsts, &v) ? pir_int(F, PT_I64, v) : NULL;
}

static bool lean_ok(GL *e, const Instr *st, const TTy *L, GpuTma *t)
{
    int knob = tkc_knob("TKC_EPI_LEAN", 2);
    return e->k->wgmma && knob && !(knob == 2 && e->k->tma_version == 2) && epi_tile_ok(e, st, L, t)
           && tensor_dim(e, t->param, 0) && tensor_dim(e, t->param, 1);
}

static void frag_store_lean(GL *e, const Instr *st, const TTy *L, const GpuTma *t)
{
    const GpuGrid *g = &e->run_lay.g;
    PirTy et = pir_ty_of(e->ki->params[st->index].dt);
    EpiAt a = epi_open(e, t);
    e->epi_lean = true;
    epi_lets(e, t, &a);
    PirExpr *D0 = tensor_dim(e, t->param, 0), *D1 = tensor_dim(e, t->param, 1);
    PirExpr *p = tensor(e, st), *z64 = pir_int(F, PT_I64, 0);
    int64_t base = epi_at(e);
    PirLocal *lt = gpu_let(e, "lt", pir_bin(F, PB_AND, gpu_tid(e), gpu_i(e, 127)));
    PirExpr *pal = pir_bin(F, PB_EQ, pir_bin(F, PB_AND, pir_ptrint(F, p), pir_int(F, PT_U64, 15)), pir_int(F, PT_U64, 0));
    PirLocal *va = gpu_let(e, "va", land(e, pal, pir_bin(F, PB_EQ, pir_bin(F, PB_AND, D1, pir_int(F, PT_I64, 7)), z64)));
    for (int64_t h = 0; h < g->TN / 64; h++) {
        epi_barrier(e, a.wgbar, a.wg);       /* the box's last reads done */
        epi_write(e, st, L, a.buf, base, h, 1, a.cb);
        epi_barrier(e, a.wgbar, a.wg);
        open_scope(e);
        PirLocal *bx = gpu_let(e, "bx", gpu_add(e, pir_ref(F, a.buf), gpu_i(e, base + h % a.cb * EPI_BOX)));
        PirLocal *r0 = gpu_let(e, "er", pir_conv(F, PT_I64, pir_ref(F, a.gr)));
        PirLocal *c0 = gpu_let(e, "ec", pir_conv(F, PT_I64, gpu_add(e, pir_ref(F, a.gc), gpu_i(e, h * 64))));
        PirLocal *o0 = gpu_let(e, "eo", pir_bin(F, PB_ADD, pir_bin(F, PB_MUL, pir_ref(F, r0), D1), pir_ref(F, c0)));
        PirExpr *in = land(e, pir_bin(F, PB_GE, pir_ref(F, r0), z64), pir_bin(F, PB_GE, pir_ref(F, c0), z64));
        in = land(e, in, pir_bin(F, PB_LE, pir_bin(F, PB_ADD, pir_ref(F, r0), pir_int(F, PT_I64, 64)), D0));
        in = land(e, in, pir_bin(F, PB_LE, pir_bin(F, PB_ADD, pir_ref(F, c0), pir_int(F, PT_I64, 64)), D1));
        in = land(e, land(e, pir_ref(F, va), in),
                  pir_bin(F, PB_EQ, pir_bin(F, PB_AND, pir_ref(F, o0), pir_int(F, PT_I64, 7)), z64));
        PirStmt *s = pir_if(F, gpu_cur(e), in);
        s->els = pir_block(F);
        gpu_push(e, s->body);
        {   /* 16-byte pieces: piece c of row r */
            PirLocal *q = open_for(e, "q", gpu_i(e, 0), gpu_i(e, 4), 1, true);
            PirLocal *ch = gpu_let(e, "ch", gpu_add(e, gpu_mul(e, pir_ref(F, q), gpu_i(e, 128)), pir_ref(F, lt)));
            PirLocal *r = gpu_let(e, "r", pir_bin(F, PB_SHR, pir_ref(F, ch), gpu_i(e, 3)));
            PirLocal *c = gpu_let(e, "c", pir_bin(F, PB_AND, pir_ref(F, ch), gpu_i(e, 7)));
            PirExpr *sw = pir_bin(F, PB_XOR, pir_ref(F, c), pir_bin(F, PB_AND, pir_ref(F, r), gpu_i(e, 7)));
            PirExpr *src = gpu_add(e, pir_ref(F, bx), gpu_add(e, gpu_mul(e, pir_ref(F, r), gpu_i(e, 128)),
                                                              pir_bin(F, PB_SHL, sw, gpu_i(e, 4))));
            PirLocal *u = decl_array(e, "u", PT_U32, 4);
            PirStmt *ld = pir_stmt(F, gpu_cur(e), PS_LOADV);
            ld->mem = pir_smem(PT_U32, 0, pir_bin(F, PB_SHR, src, gpu_i(e, 2)));
            ld->nw = 4;
            ld->local = u;
            ld->dst0 = 0;
            PirExpr *o = pir_bin(F, PB_ADD, pir_ref(F, o0),
                                 pir_bin(F, PB_ADD, pir_bin(F, PB_MUL, pir_conv(F, PT_I64, pir_ref(F, r)), D1),
                                         pir_conv(F, PT_I64, gpu_mul(e, pir_ref(F, c), gpu_i(e, 8)))));
            PirStmt *w = pir_stmt(F, gpu_cur(e), PS_STORE);
            w->mem = pir_gmem(PT_U32, pir_ptradd(F, p, o), z64);
            w->nw = 4;
            for (int i = 0; i < 4; i++)
                w->w[i] = pir_elem(F, u, gpu_i(e, i));
            w->val = w->w[0];
            gpu_pop(e);
        }
        gpu_pop(e);
        gpu_push(e, s->els);
        {   /* element j of row r, in the tensor or not stored */
            PirLocal *q = open_for(e, "q", gpu_i(e, 0), gpu_i(e, 32), 1, false);
            PirLocal *el = gpu_let(e, "el", gpu_add(e, gpu_mul(e, pir_ref(F, q), gpu_i(e, 128)), pir_ref(F, lt)));
            PirLocal *r = gpu_let(e, "r", pir_bin(F, PB_SHR, pir_ref(F, el), gpu_i(e, 6)));
            PirLocal *j = gpu_let(e, "j", pir_bin(F, PB_AND, pir_ref(F, el), gpu_i(e, 63)));
            PirLocal *row = gpu_let(e, "row", pir_bin(F, PB_ADD, pir_ref(F, r0), pir_conv(F, PT_I64, pir_ref(F, r))));
            PirLocal *col = gpu_let(e, "col", pir_bin(F, PB_ADD, pir_ref(F, c0), pir_conv(F, PT_I64, pir_ref(F, j))));
            PirExpr *ok = land(e, pir_bin(F, PB_GE, pir_ref(F, row), z64), pir_bin(F, PB_LT, pir_ref(F, row), D0));
            ok = land(e, ok, land(e, pir_bin(F, PB_GE, pir_ref(F, col), z64), pir_bin(F, PB_LT, pir_ref(F, col), D1)));
            open_if(e, ok);
            PirExpr *cbyte = gpu_mul(e, pir_ref(F, j), gpu_i(e, 2));
            PirExpr *sw = pir_bin(F, PB_XOR, pir_bin(F, PB_SHR, cbyte, gpu_i(e, 4)), pir_bin(F, PB_AND, pir_ref(F, r), gpu_i(e, 7)));
            PirExpr *src = gpu_add(e, pir_ref(F, bx), gpu_add(e, gpu_mul(e, pir_ref(F, r), gpu_i(e, 128)),
                                                              gpu_add(e, pir_bin(F, PB_SHL, sw, gpu_i(e, 4)),
                                                                      pir_bin(F, PB_AND, cbyte, gpu_i(e, 15)))));
            PirExpr *v = pir_load(F, pir_smem(et, 0, pir_bin(F, PB_SHR, src, gpu_i(e, 1))), NULL, NULL);
            PirExpr *o = pir_bin(F, PB_ADD, pir_bin(F, PB_MUL, pir_ref(F, row), D1), pir_ref(F, col));
            pir_store(F, gpu_cur(e), pir_gmem(et, p, o), v);
            gpu_pop(e);
            gpu_pop(e);
        }
        gpu_pop(e);
        gpu_pop(e);      /* the scope */
    }
}

/* Is in x * r[:, None] (or r[:, None] * x) of f32 tiles in the MMA
 * fragments, r a vector over x's rows: the arg index of r's side + 1, else
 * 0.  TKC_SKIP_ONE=1 (an experiment, off): such a multiply runs alone,
 * skipped by every warp whose threads' factors are all exactly 1
 * (flush_one): flash attention's acc * alpha[:, None] where no row's
 * maximum moved.  H200, 10 interleaved rounds, ratios to torch's no-bias
 * SDPA / cuDNN: sdpa_relpos_bf16 SAM global 0.782 vs 0.799 without, and
 * with the running maximum moved only by more than 8 (FlashAttention-4's
 * lazy rescale, tests/gpu/s27/mklazy.py: the rescale skipped nearly
 * always) 0.778 (0.770 without the skip); sdpa_bf16 D=64 0.976 vs 1.054,
 * causal 1.023 vs 1.064, D=128 0.912 vs 0.950 (doc/bench/h200-s27-p3.log):
 * the branch costs more than the 32 / 64 multiplies it saves. */
static int row_scale(const GL *e, const Instr *in)
{
    if (in->op != OP_MUL || in->ty.rank != 2 || in->ty.dt != DT_F32 || e->lay[in->id].kind != GL_FRAG
        || e->plan || !tkc_knob("TKC_SKIP_ONE", 0) || !tir_loop_of(in))   /* not o = acc * (1 / l) after the loop */
        return 0;
    for (int j = 0; j < 2; j++) {
        int r = view_base(e, in->args[j]);
        const TTy *t = ty(e, r), *x = ty(e, in->args[!j]);
        if (t->rank == 1 && t->dim[0] == in->ty.dim[0] && t->dt == DT_F32 && x->rank == 2 && x->dt == DT_F32
            && ty(e, in->args[j])->rank == 2)
            return j + 1;
    }
    return 0;
}

/* A run in the fragment or row layout: elementwise only; stores of
 * fragments in pairs (frag_store). */
static void flush_one(GL *e);

static void flush_lay(GL *e)
{
    if (e->run_one) {
        flush_one(e);
        return;
    }
    const TTy *L = &e->run_shape;
    int64_t K = lay_count(e, &e->run_lay, tty_numel(L));
    for (int i = 0; i < e->run.n; i++) {
        const Instr *m = I(e, e->run.v[i]);
        if (m->op != OP_VAR_SET && m->op != OP_STORE)
            e->val[m->id] = decl_array(e, "v", pir_ty_compute(m->ty.dt), K);
    }
    if (e->run_barrier)
        pir_barrier(F, gpu_cur(e));
    bool pairs = e->run_lay.kind == GL_FRAG;
    int depth = open_lay(e, &e->run_lay, L);
    for (int i = 0; i < e->run.n; i++)
        if (!pairs || I(e, e->run.v[i])->op != OP_STORE)
            emit_lane(e, I(e, e->run.v[i]), L);
    close_lay(e, depth);
    for (int i = 0; pairs && i < e->run.n; i++) {
        const Instr *st = I(e, e->run.v[i]);
        GpuTma t;
        if (st->op != OP_STORE)
            continue;
        /* other stores of the tensor (only with epi_frag; store_lay) may
         * write its elements from other threads: stored by the threads and
         * ordered by a block barrier after, not by TMA */
        bool others = other_access(e, st, false);
        if (others || !tma_store_ok(e, st, L, &t)) {
            if (!others && lean_ok(e, st, L, &t))
                frag_store_lean(e, st, L, &t);
            else
                frag_store(e, st, L);
            if (others)
                pir_barrier(F, gpu_cur(e));
            continue;
        }
        /* by TMA where the launcher built the result's map: it says otherwise
         * by bit 1 of PP_TMA_OK (a result whose rows are not 16-byte aligned
         * while the operands' maps were built, or repacked: header.c) */
        PirExpr *cond = pir_ref(F, e->mma.tma_on);
        if (tkc_knob("TKC_STORE_MAP_OPT", 1))
            cond = pir_bin(F, PB_AND, cond,
                           pir_bin(F, PB_EQ, pir_bin(F, PB_AND, pir_param(F, e->mma.tma_ok), pir_int(F, PT_I32, 2)),
                                   pir_int(F, PT_I32, 0)));
        PirStmt *c = pir_if(F, gpu_cur(e), cond);
        gpu_push(e, c->body);
        frag_store_tma(e, st, L, &t);
        gpu_pop(e);
        c->els = pir_block(F);
        gpu_push(e, c->els);
        if (lean_ok(e, st, L, &t))
            frag_store_lean(e, st, L, &t);
        else
            frag_store(e, st, L);
        gpu_pop(e);
    }
    for (int i = 0; i < e->run.n; i++)
        settle(e, e->run.v[i]);
    e->run.n = 0;
}

/* flush_lay for a run of one row-scaling multiply x * r (row_scale):
 * any = some thread of the warp has a factor r != 1 among its elements
 * (NVVM keeps one compare per row); then the products where any, else x
 * itself, the same values. */
static void flush_one(GL *e)
{
    const TTy *L = &e->run_shape;
    const Instr *in = I(e, e->run.v[0]);
    int j = e->run_one - 1;
    e->run_one = 0;
    e->val[in->id] = decl_array(e, "v", PT_F32, lay_count(e, &e->run_lay, tty_numel(L)));
    PirLocal *any = pir_local(F, "ne1", PT_I32, 0);
    pir_decl(F, gpu_cur(e), any, gpu_i(e, 0));
    int depth = open_lay(e, &e->run_lay, L);
    Idx ix = lane_idx(e, L);
    e->cur = in->id;
    PirExpr *r = operand(e, in->args[j], L, &ix);
    pir_assign(F, gpu_cur(e), any, NULL, gpu_op(e, PB_OR, pir_ref(F, any),
                                                pir_conv(F, PT_I32, gpu_op(e, PB_NE, r, pir_float(F, PT_F32, 1.0)))));
    close_lay(e, depth);
    PirLocal *vote = pir_local(F, "any1", PT_I32, 0);
    pir_decl(F, gpu_cur(e), vote, NULL);
    PirStmt *s = pir_asm_stmt(F, gpu_cur(e), PA_VOTE_ANY);
    s->out[0] = pir_ref(F, vote);
    s->in[0] = pir_ref(F, any);
    PirStmt *c = pir_if(F, gpu_cur(e), gpu_op(e, PB_NE, pir_ref(F, vote), gpu_i(e, 0)));
    gpu_push(e, c->body);
    depth = open_lay(e, &e->run_lay, L);
    emit_lane(e, in, L);
    close_lay(e, depth);
    gpu_pop(e);
    c->els = pir_block(F);
    gpu_push(e, c->els);
    depth = open_lay(e, &e->run_lay, L);
    ix = lane_idx(e, L);
    pir_assign(F, gpu_cur(e), e->val[in->id], e->kx, operand(e, in->args[!j], L, &ix));
    close_lay(e, depth);
    gpu_pop(e);
    settle(e, in->id);
    e->run.n = 0;
}

/* The fast-path loads of the run's vector loads of read-only tensors of
 * 8- and 16-bit types at recomputed offsets (reload: nothing in the run feeds them), issued in a
 * loop over the groups of their own before the run, into words that the
 * run converts (vload_use): converted where they are loaded, f16/bf16/i8
 * words made each group's load wait for the one before it (32- and 64-bit
 * words are the values: those loads overlap as they are).  Per run member,
 * its words or NULL. */
static PirLocal **issue_ahead(GL *e, const TTy *L)
{
    PirLocal **raw = NULL;
    int64_t n = tty_numel(L);
    if (!tkc_knob("TKC_AHEAD", 1))
        return NULL;
    for (int i = 0; i < e->run.n; i++) {
        const Instr *m = I(e, e->run.v[i]);
        Chunks c;
        if (m->op != OP_LOAD || !e->reload[m->id] || e->pre[m->id] || !gvec(e, L)
            || !chunks(e, L, e->ki->params[m->index].dt, &c) || c.s >= 4)
            continue;
        if (!raw)
            raw = arena_alloc(e->a, (size_t)e->run.n * sizeof *raw);
        raw[i] = decl_array(e, "w", PT_U32, groups(e, n) * (c.nc * c.cw / 4));
    }
    if (!raw)
        return NULL;
    open_group(e, L);
    for (int i = 0; i < e->run.n; i++)
        if (raw[i] && !vload_issue(e, I(e, e->run.v[i]), L, raw[i]))
            raw[i] = NULL;
    close_group(e, L);
    return raw;
}

static void flush(GL *e)
{
    if (e->run.n == 0)
        return;
    if (e->run_lay.kind != GL_BLOCK) {
        flush_lay(e);
        return;
    }
    const TTy *L = &e->run_shape;
    int64_t K = kcount(e, tty_numel(L));
    for (int i = 0; i < e->run.n; i++) {
        const Instr *m = I(e, e->run.v[i]);
        if (m->op != OP_STORE && m->op != OP_VAR_SET)
            e->val[m->id] = decl_array(e, "v", pir_ty_compute(m->ty.dt), K);
    }
    if (e->run_barrier)
        pir_barrier(F, gpu_cur(e));
    PirLocal **raw = issue_ahead(e, L);
    open_group(e, L);
    Vec(int) pre = { 0 };
    for (int i = 0; i < e->run.n; i++) {
        const Instr *m = I(e, e->run.v[i]);
        e->cur = m->id;
        for (int j = 0; j < m->nargs; j++)
            if (pre_ok(e, m->args[j], L)) {
                emit_pre(e, m->args[j], L);
                e->pre[m->args[j]] = 1;
                vec_push(e->a, pre, m->args[j]);
            }
    }
    bool open = false;
    for (int i = 0; i < e->run.n; i++) {
        const Instr *m = I(e, e->run.v[i]);
        e->cur = m->id;
        if (raw && raw[i]) {
            if (open)
                close_elem(e);
            open = false;
            vload_use(e, m, L, raw[i]);
            continue;
        }
        bool vec = m->op == OP_LOAD ? vload_open(e, m, lane_tok(e, L), L, e->val[m->id], true)
                 : m->op == OP_STORE ? vstore_open(e, m, L) : false;
        if (vec) {
            open_elem(e, L);
            emit_lane(e, m, L);
            close_elem(e);
            vclose(e);
            continue;
        }
        if (!open)
            open_elem(e, L);
        open = true;
        emit_lane(e, m, L);
        if (i + 1 < e->run.n && (I(e, e->run.v[i + 1])->op == OP_LOAD || I(e, e->run.v[i + 1])->op == OP_STORE)) {
            close_elem(e);
            open = false;
        }
    }
    if (open)
        close_elem(e);
    close_group(e, L);
    for (int i = 0; i < pre.n; i++)
        e->pre[pre.v[i]] = 0;
    Vec(int) early = { 0 };
    for (int i = 0; i < e->run.n; i++) {
        settle(e, e->run.v[i]);
        if (e->mma.early[e->run.v[i]] >= 0)
            vec_push(e->a, early, e->run.v[i]);
    }
    if (early.n)
        gpu_mma_stage_early(&e->mma, early.v, early.n);
    e->run.n = 0;
}

static bool same_shape(const TTy *a, const TTy *b)
{
    if (a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dim[i] != b->dim[i])
            return false;
    return true;
}

/* The layout of lane instruction in's loops. */
static GpuLay lane_lay(const GL *e, const Instr *in)
{
    if (in->op == OP_STORE)
        return store_lay(e, in);
    if (in->op == OP_ATOMIC || in->op == OP_PRINT)
        return (GpuLay){ .kind = GL_BLOCK };
    if (in->op == OP_VAR_SET || in->op == OP_VAR_GET)
        return e->vlay[in->index];
    return e->lay[in->id];
}

static void add_lane(GL *e, const Instr *in)
{
    bool hz = mem_hazard(e, in);
    GpuLay l = lane_lay(e, in);
    int one = row_scale(e, in);
    if (e->run.n && (hz || one || !same_shape(&e->run_shape, lane_shape(e, in)) || !lay_eq(&l, &e->run_lay)))
        flush(e);
    if (e->run.n == 0) {
        e->run_shape = *lane_shape(e, in);
        e->run_barrier = hz;
        e->run_lay = l;
    }
    vec_push(e->a, e->run, in->id);
    e->run_one = one;
    if (e->shared[in->id] || e->plan || one)   /* planning: every member its own run */
        flush(e);
}

/* ------------------------------------------------------------ scalars */

static void emit_scalar(GL *e, const Instr *in)
{
    int v = in->id;
    PirExpr *x[3] = { 0 }, *val;
    e->cur = v;
    switch (in->op) {
    case OP_VAR_SET:
        pir_assign(F, gpu_cur(e), gpu_var(e, in->index), NULL, scalar(e, in->args[0]));
        return;
    case OP_VAR_GET:
        val = pir_ref(F, gpu_var(e, in->index));
        break;
    case OP_DIM:
        if (in->index < 0 || in->index >= e->ki->ndims || e->ki->dims[in->index].specialized) {
            fail(e, in, "internal error: not a run-time dim");
            return;
        }
        val = conv_dt(e, pir_param(F, e->didx[in->index]), DT_I64, in->ty.dt);
        break;
    case OP_ARG: {
        if (in->index < 0 || in->index >= e->ki->nparams || e->ki->params[in->index].is_tensor) {
            fail(e, in, "internal error: not a scalar parameter");
            return;
        }
        DType pdt = e->ki->params[in->index].dt;
        val = conv_dt(e, from_storage(e, pir_param(F, e->pidx[in->index]), pdt), pdt, in->ty.dt);
        break;
    }
    case OP_STRIDE:
        if (in->index < 0 || in->index >= e->ki->nparams || !e->ki->params[in->index].strided
            || in->axis < 0 || in->axis >= e->ki->params[in->index].rank) {
            fail(e, in, "internal error: not a stride of a strided tensor");
            return;
        }
        val = conv_dt(e, pir_param(F, e->sidx[in->index][in->axis]), DT_I64, in->ty.dt);
        break;
    case OP_PROGRAM_ID:
        if (in->axis < 0 || in->axis > 2) {
            fail(e, in, "program_id axis out of range");
            return;
        }
        val = pir_conv(F, pir_ty_compute(in->ty.dt), pir_ref(F, e->pid[in->axis]));
        break;
    default:
        for (int j = 0; j < in->nargs; j++)
            if (in->args[j] > 0)
                x[j] = scalar(e, in->args[j]);
        val = op_expr(e, in, x);
        if (!val) {
            fail(e, in, "unsupported scalar op");
            return;
        }
        break;
    }
    e->val[v] = gpu_let(e, "v", val);
    if (e->clamp_once && e->val[v]->ty == PT_I64) {
        PirBlock *blk = gpu_cur(e);
        Clamp k = { e->val[v], NULL, blk, blk->s.v[blk->s.n - 1] };
        vec_push(e->a, e->clamp, k);
    }
}

/* ------------------------------------------------------------ reductions */

static PirExpr *red_init(GL *e, ReduceKind rk, DType dt)
{
    bool mx = rk == RK_MAX || rk == RK_ARGMAX;
    if (rk == RK_SUM)
        return lit_zero(e, dt);
    if (dtype_is_float(dt))
        return lit_float(e, mx ? -INFINITY : INFINITY, dt);
    if (dt == DT_BOOL)
        return lit_int(e, !mx, dt);
    int b = dtype_info[dt].bits;
    if (!dtype_info[dt].is_signed)
        return lit_int(e, mx ? 0 : (int64_t)(b == 64 ? UINT64_MAX : (UINT64_C(1) << b) - 1), dt);
    int64_t hi = b == 64 ? INT64_MAX : (INT64_C(1) << (b - 1)) - 1;
    return lit_int(e, mx ? -hi - 1 : hi, dt);
}

/* acc (op) x for sum / max / min (ints: wrapping sums). */
static PirExpr *red_step(GL *e, ReduceKind rk, PirExpr *acc, PirExpr *x)
{
    if (rk == RK_SUM)
        return pir_bin(F, PB_ADD, acc, x);
    bool mx = rk == RK_MAX || rk == RK_ARGMAX;
    return pir_select(F, pir_bin(F, mx ? PB_GT : PB_LT, x, acc), x, acc);
}

/* Fold (b, bi) into (a, ai): ties go to the smaller index. */
static void combine(GL *e, ReduceKind rk, PirLocal *a, PirLocal *ai, PirExpr *b, PirExpr *bi)
{
    PirBlock *cb = gpu_cur(e);
    if (rk == RK_ARGMAX || rk == RK_ARGMIN) {
        PirExpr *A = pir_ref(F, a);
        PirExpr *c = pir_bin(F, PB_OR, pir_bin(F, rk == RK_ARGMAX ? PB_GT : PB_LT, b, A),
                             pir_bin(F, PB_AND, pir_bin(F, PB_EQ, b, A), pir_bin(F, PB_LT, bi, pir_ref(F, ai))));
        PirStmt *s = pir_if(F, cb, c);
        pir_assign(F, s->body, a, NULL, b);
        pir_assign(F, s->body, ai, NULL, bi);
    } else {
        pir_assign(F, cb, a, NULL, red_step(e, rk, pir_ref(F, a), b));
    }
}

static void reduce_all(GL *e, const Instr *in)
{
    int src = in->args[0];
    const TTy *st = ty(e, src);
    DType xdt = st->dt, rdt = in->ty.dt;
    ReduceKind rk = in->rkind;
    bool arg = rk == RK_ARGMAX || rk == RK_ARGMIN;
    DType adt = arg ? xdt : rdt;
    PirTy A = pir_ty_compute(adt);
    int W = e->T / 32;
    e->scratch = true;
    PirLocal *res = decl_array(e, "v", pir_ty_compute(rdt), 0);
    e->val[in->id] = res;
    open_scope(e);
    PirLocal *a = gpu_let(e, "a", red_init(e, rk, adt));
    PirLocal *ai = arg ? gpu_let(e, "ai", gpu_i(e, INT32_MAX)) : NULL;
    open_lane(e, st);
    Idx ix = lane_idx(e, st);
    PirLocal *x = gpu_let(e, "x", conv_dt(e, rd(e, src, ix), xdt, adt));
    combine(e, rk, a, ai, pir_ref(F, x), pir_ref(F, e->ln.f));
    close_lane(e, st);
    for (int o = 16; o > 0; o >>= 1) {
        PirLocal *b = gpu_let(e, "b", pir_shfl_xor(F, pir_ref(F, a), o));
        PirLocal *bi = arg ? gpu_let(e, "bi", pir_shfl_xor(F, pir_ref(F, ai), o)) : NULL;
        combine(e, rk, a, ai, pir_ref(F, b), bi ? pir_ref(F, bi) : NULL);
    }
    if (W > 1) {
        PirExpr *w = pir_bin(F, PB_SHR, gpu_tid(e), gpu_i(e, 5));
        pir_barrier(F, gpu_cur(e));
        PirStmt *s = pir_if(F, gpu_cur(e), pir_bin(F, PB_EQ, pir_bin(F, PB_AND, gpu_tid(e), gpu_i(e, 31)), gpu_i(e, 0)));
        pir_store(F, s->body, pir_smem(A, 0, w), pir_ref(F, a));
        if (arg)
            pir_store(F, s->body, pir_smem(PT_I32, SCRATCH_IDX, w), pir_ref(F, ai));
        pir_barrier(F, gpu_cur(e));
        pir_assign(F, gpu_cur(e), a, NULL, pir_load(F, pir_smem(A, 0, gpu_i(e, 0)), NULL, NULL));
        if (arg)
            pir_assign(F, gpu_cur(e), ai, NULL, pir_load(F, pir_smem(PT_I32, SCRATCH_IDX, gpu_i(e, 0)), NULL, NULL));
        PirLocal *wl = open_for(e, "w", gpu_i(e, 1), gpu_i(e, W), 1, false);
        PirExpr *b = pir_load(F, pir_smem(A, 0, pir_ref(F, wl)), NULL, NULL);
        PirExpr *bi = arg ? pir_load(F, pir_smem(PT_I32, SCRATCH_IDX, pir_ref(F, wl)), NULL, NULL) : NULL;
        if (arg) {
            PirLocal *bl = gpu_let(e, "b", b), *bil = gpu_let(e, "bi", bi);
            combine(e, rk, a, ai, pir_ref(F, bl), pir_ref(F, bil));
        } else {
            combine(e, rk, a, ai, b, NULL);
        }
        gpu_pop(e);
    }
    PirExpr *r = arg ? pir_select(F, pir_bin(F, PB_EQ, pir_ref(F, ai), gpu_i(e, INT32_MAX)), gpu_i(e, 0), pir_ref(F, ai))
                     : conv_dt(e, pir_ref(F, a), adt, rdt);
    pir_assign(F, gpu_cur(e), res, NULL, pir_conv(F, pir_ty_compute(rdt), r));
    gpu_pop(e);
}

/* The source index of a reduction/cumsum: the lane index with j at axis
 * (insert: the lane drops the axis; else: replace it). */
static Idx axis_idx(const Idx *lane, PirExpr *j, int axis, bool insert, int rank)
{
    Idx r = { .rank = rank, .ident = false };
    for (int d = 0, s = 0; d < rank; d++) {
        if (d == axis) {
            r.d[d] = j;
            if (!insert)
                s++;
        } else {
            r.d[d] = lane->d[s++];
        }
    }
    return r;
}

static void reduce_axis(GL *e, const Instr *in)
{
    int src = in->args[0], ax = in->axis;
    const TTy *st = ty(e, src), *t = &in->ty;
    DType xdt = st->dt, rdt = t->dt;
    ReduceKind rk = in->rkind;
    bool arg = rk == RK_ARGMAX || rk == RK_ARGMIN;
    DType adt = arg ? xdt : rdt;
    PirLocal *res = e->val[in->id] = decl_array(e, "v", pir_ty_compute(rdt), kcount(e, tty_numel(t)));
    open_lane(e, t);
    Idx lane = lane_idx(e, t);
    PirExpr *kx = e->kx;
    PirLocal *a = gpu_let(e, "a", red_init(e, rk, adt));
    PirLocal *ai = arg ? gpu_let(e, "ai", gpu_i(e, 0)) : NULL;
    PirLocal *j = open_for(e, "j", gpu_i(e, 0), gpu_i(e, st->dim[ax]), 1, false);
    Idx sx = axis_idx(&lane, pir_ref(F, j), ax, true, st->rank);
    PirLocal *x = gpu_let(e, "x", conv_dt(e, rd(e, src, sx), xdt, adt));
    if (arg) {
        PirStmt *s = pir_if(F, gpu_cur(e), pir_bin(F, rk == RK_ARGMAX ? PB_GT : PB_LT, pir_ref(F, x), pir_ref(F, a)));
        pir_assign(F, s->body, a, NULL, pir_ref(F, x));
        pir_assign(F, s->body, ai, NULL, pir_ref(F, j));
    } else {
        pir_assign(F, gpu_cur(e), a, NULL, red_step(e, rk, pir_ref(F, a), pir_ref(F, x)));
    }
    gpu_pop(e);
    pir_assign(F, gpu_cur(e), res, kx, arg ? pir_ref(F, ai) : conv_dt(e, pir_ref(F, a), adt, rdt));
    close_lane(e, t);
}

/* red_step; float max/min as fmax/fmin: the same result, as the running
 * value never becomes NaN either way (a NaN x leaves it), in one instruction. */
static PirExpr *row_step(GL *e, ReduceKind rk, DType dt, PirExpr *acc, PirExpr *x)
{
    if (dtype_is_float(dt) && (rk == RK_MAX || rk == RK_MIN))
        return pir_bin(F, rk == RK_MAX ? PB_MAX : PB_MIN, acc, x);
    return red_step(e, rk, acc, x);
}

/* The number of independent partial results a thread's part of a row
 * reduction keeps (ROW_ACC, TKC_ROW_ACC=N overrides it; 1: one chain, as
 * before session 11).  One running value over a thread's 2 * NI columns is
 * a chain of 2 * NI dependent instructions (32 FMNMX, 32 FADD per row at
 * 128-wide key blocks), which flash attention's softmax waits on with only
 * two warps per scheduler (ncu, H100, sdpa_bf16 D=128: FMNMX 12.9% of the
 * stall samples, one serial chain per row; doc/bench/h100-s11-s11-attn-1.log).
 * With P partials the chain is 2 * NI / P long, then log2(P) steps combine
 * them.  Max and min give the same result in any order (fmax drops a NaN
 * wherever it is); a float sum rounds differently (the same additions in
 * another order).  H100, B=4 H=16 S=T=4096, TFLOP/s, P = 2 against P = 1
 * in the same run: D=128 484.1 vs 463.5 / 469.8, causal 396.1 vs 378.7 /
 * 384.7, D=64 387.8 vs 383.6 / 387.2, causal 352.5 vs 344.2 / 346.8
 * (h100-s11-s11-attn-2.log; P = 4 and 8 no better); two builds each: D=128
 * 479.2 / 487.9 vs 480.8 / 475.6, causal 390.4 / 404.9 vs 391.6 / 392.4,
 * D=64 406.8 / 394.9 vs 389.4 / 396.3, causal 356.3 / 353.7 vs 354.0 /
 * 355.3; relpos SAM global 1.339 / 1.333 vs 1.318 / 1.398 ms (-3.log).  A
 * small gain (1-3%), near the runs' noise, never slower on average; ptxas's
 * spills at D=128 fall from 100 / 196 to 88 / 176 bytes. */
#define ROW_ACC 2

static int row_acc(int n)
{
    int p = tkc_knob("TKC_ROW_ACC", ROW_ACC), q = 1;
    while (q * 2 <= p && q * 2 <= n)
        q *= 2;
    return q;
}

/* reduce_rows' loop over the thread's own columns as P partial results,
 * into a: the element j = 2 * ni + c goes to partial j % P; partial 0
 * starts from a's value (the identity), the others from their first
 * element; then the partials are combined pairwise. */
static void reduce_rows_part(GL *e, ReduceKind rk, DType xdt, DType rdt, PirLocal *x, PirExpr *mi,
                             PirExpr *h, const GpuGrid *g, PirLocal *a, int P)
{
    PirLocal *pa[64];
    int n = 2 * g->NI;
    for (int j = 0; j < n; j++) {
        PirExpr *tile = gpu_add(e, gpu_mul(e, mi, gpu_i(e, g->NI)), gpu_i(e, j / 2));
        PirExpr *k = gpu_add(e, gpu_add(e, gpu_mul(e, tile, gpu_i(e, 4)), gpu_mul(e, h, gpu_i(e, 2))), gpu_i(e, j % 2));
        PirExpr *v = conv_dt(e, pir_elem(F, x, k), xdt, rdt);
        if (j == 0)
            pa[0] = a, pir_assign(F, gpu_cur(e), a, NULL, row_step(e, rk, rdt, pir_ref(F, a), v));
        else if (j < P)
            pa[j] = gpu_let(e, "a", v);
        else
            pir_assign(F, gpu_cur(e), pa[j % P], NULL, row_step(e, rk, rdt, pir_ref(F, pa[j % P]), v));
    }
    for (int s = P / 2; s >= 1; s /= 2)
        for (int i = 0; i < s; i++)
            pir_assign(F, gpu_cur(e), pa[i], NULL, row_step(e, rk, rdt, pir_ref(F, pa[i]), pir_ref(F, pa[i + s])));
}

/* sum/max/min along the columns of a GL_FRAG tile into GL_ROW: over the
 * thread's own columns, then over the quad's four lanes (which hold the
 * rest of the warp's columns: WN = 1, so the warp has all of them). */
static void reduce_rows(GL *e, const Instr *in)
{
    const GpuGrid *g = &e->lay[in->id].g;
    int src = in->args[0];
    PirLocal *x = gpu_frag(e, src, g);
    if (!x) {
        fail(e, in, "internal error: a row reduction of a tile not in fragments");
        return;
    }
    DType xdt = ty(e, src)->dt, rdt = in->ty.dt;
    ReduceKind rk = in->rkind;
    PirLocal *res = e->val[in->id] = decl_array(e, "v", pir_ty_compute(rdt), lay_count(e, &e->lay[in->id], 0));
    PirLocal *mi = open_for(e, "mi", gpu_i(e, 0), gpu_i(e, g->MI), 1, true);
    PirLocal *h = open_for(e, "h", gpu_i(e, 0), gpu_i(e, 2), 1, true);
    PirLocal *a = gpu_let(e, "a", red_init(e, rk, rdt));
    int P = row_acc(2 * g->NI);
    if (P > 1 && 2 * g->NI <= 64) {
        reduce_rows_part(e, rk, xdt, rdt, x, pir_ref(F, mi), pir_ref(F, h), g, a, P);
    } else {
        PirLocal *ni = open_for(e, "ni", gpu_i(e, 0), gpu_i(e, g->NI), 1, true);
        PirLocal *c = open_for(e, "c", gpu_i(e, 0), gpu_i(e, 2), 1, true);
        PirExpr *tile = gpu_add(e, gpu_mul(e, pir_ref(F, mi), gpu_i(e, g->NI)), pir_ref(F, ni));
        PirExpr *k = gpu_add(e, gpu_add(e, gpu_mul(e, tile, gpu_i(e, 4)), gpu_mul(e, pir_ref(F, h), gpu_i(e, 2))), pir_ref(F, c));
        pir_assign(F, gpu_cur(e), a, NULL, row_step(e, rk, rdt, pir_ref(F, a), conv_dt(e, pir_elem(F, x, k), xdt, rdt)));
        gpu_pop(e);
        gpu_pop(e);
    }
    for (int o = 1; o <= 2; o <<= 1) {
        PirLocal *b = gpu_let(e, "b", pir_shfl_xor(F, pir_ref(F, a), o));
        pir_assign(F, gpu_cur(e), a, NULL, row_step(e, rk, rdt, pir_ref(F, a), pir_ref(F, b)));
    }
    pir_assign(F, gpu_cur(e), res, gpu_add(e, gpu_mul(e, pir_ref(F, mi), gpu_i(e, 2)), pir_ref(F, h)), pir_ref(F, a));
    gpu_pop(e);
    gpu_pop(e);
}

static void emit_reduce(GL *e, const Instr *in)
{
    const TTy *st = ty(e, in->args[0]);
    if (in->axis < 0 || in->axis >= st->rank) {
        fail(e, in, "reduction axis out of range");
        return;
    }
    if (e->lay[in->id].kind == GL_ROW)
        reduce_rows(e, in);
    else if (in->ty.rank == 0)
        reduce_all(e, in);
    else
        reduce_axis(e, in);
}

static void emit_cumsum(GL *e, const Instr *in)
{
    int src = in->args[0], ax = in->axis;
    const TTy *t = &in->ty;
    DType dt = t->dt;
    if (ax < 0 || ax >= t->rank) {
        fail(e, in, "cumsum axis out of range");
        return;
    }
    PirLocal *res = e->val[in->id] = decl_array(e, "v", pir_ty_compute(dt), kcount(e, tty_numel(t)));
    open_lane(e, t);
    Idx lane = lane_idx(e, t);
    PirExpr *kx = e->kx;
    PirLocal *a = gpu_let(e, "a", lit_zero(e, dt));
    PirLocal *j = open_for(e, "j", gpu_i(e, 0), gpu_add(e, lane.d[ax], gpu_i(e, 1)), 1, false);
    Idx sx = axis_idx(&lane, pir_ref(F, j), ax, false, t->rank);
    PirExpr *x = conv_dt(e, rd(e, src, sx), ty(e, src)->dt, dt);
    pir_assign(F, gpu_cur(e), a, NULL, red_step(e, RK_SUM, pir_ref(F, a), x));
    gpu_pop(e);
    pir_assign(F, gpu_cur(e), res, kx, pir_ref(F, a));
    close_lane(e, t);
}

/* x (F32) rounded to tf32 as the tensor cores take it (PA_CVT_TF32: to
 * nearest, ties to even). */
static PirExpr *round_tf32(GL *e, PirExpr *x)
{
    PirLocal *r = pir_local(F, "t", PT_U32, 0);
    pir_decl(F, gpu_cur(e), r, NULL);
    PirStmt *s = pir_asm_stmt(F, gpu_cur(e), PA_CVT_TF32);
    s->out[0] = pir_ref(F, r);
    s->in[0] = x;
    return pir_bitcast(F, PT_F32, pir_ref(F, r));
}

/* dot: every thread accumulates its own outputs over k, operands read from
 * shared memory (or recomputed); with allow_tf32 rounded as on mma.sync. */
static void emit_dot(GL *e, const Instr *in)
{
    const TTy *t = &in->ty, *ta = ty(e, in->args[0]), *tb = ty(e, in->args[1]);
    DType at = t->dt;
    if (t->rank != 2 || ta->rank != 2 || tb->rank != 2) {
        fail(e, in, "dot needs 2-D operands");
        return;
    }
    PirLocal *res = e->val[in->id] = decl_array(e, "v", pir_ty_compute(at), kcount(e, tty_numel(t)));
    open_lane(e, t);
    Idx lane = lane_idx(e, t);
    int c = in->args[2];
    pir_assign(F, gpu_cur(e), res, e->kx,
               c > 0 ? conv_dt(e, operand(e, c, t, &lane), ty(e, c)->dt, at) : lit_zero(e, at));
    close_lane(e, t);
    PirLocal *kk = open_for(e, "kk", gpu_i(e, 0), gpu_i(e, ta->dim[1]), 1, false);
    open_lane(e, t);
    Idx ia = { .rank = 2, .d = { pir_ref(F, e->ln.i[0]), pir_ref(F, kk) } };
    Idx ib = { .rank = 2, .d = { pir_ref(F, kk), pir_ref(F, e->ln.i[1]) } };
    PirExpr *xa = conv_dt(e, rd(e, in->args[0], ia), ta->dt, at);
    PirExpr *xb = conv_dt(e, rd(e, in->args[1], ib), tb->dt, at);
    if (in->ival) {
        xa = round_tf32(e, xa);
        xb = round_tf32(e, xb);
    }
    pir_assign(F, gpu_cur(e), res, e->kx,
               pir_bin(F, PB_ADD, pir_elem(F, res, e->kx), pir_bin(F, PB_MUL, xa, xb)));
    close_lane(e, t);
    gpu_pop(e);
}

/* ------------------------------------------------------------ statements */

static void emit_block(GL *e, TBlock *b);

static void emit_body(GL *e, PirBlock *pb, TBlock *b)
{
    gpu_push(e, pb);
    if (b)
        emit_block(e, b);
    gpu_pop(e);
}

/* A tile `for`: the step never overflows, the last one lands on the end. */
static void emit_for(GL *e, const Instr *in)
{
    TBlock *body = in->blocks[0];
    if (!body || body->ins.n == 0 || I(e, body->ins.v[0])->op != OP_LOOPVAR) {
        fail(e, in, "internal error: a for body must start with loopvar");
        return;
    }
    const Instr *lv = I(e, body->ins.v[0]);
    DType dt = lv->ty.dt;
    PirExpr *lo = conv_dt(e, scalar(e, in->args[0]), ty(e, in->args[0])->dt, dt);
    PirExpr *hi = conv_dt(e, scalar(e, in->args[1]), ty(e, in->args[1])->dt, dt);
    PirExpr *sp = conv_dt(e, scalar(e, in->args[2]), ty(e, in->args[2])->dt, dt);
    open_scope(e);
    PirLocal *el = gpu_let(e, "e", hi), *sl = gpu_let(e, "s", sp);
    PirExpr *E = pir_ref(F, el), *S = pir_ref(F, sl);
    PirStmt *g = pir_if(F, gpu_cur(e), pir_bin(F, PB_GT, S, lit_zero(e, dt)));
    PirLocal *c = pir_local(F, "v", pir_ty_compute(dt), 0);
    e->val[lv->id] = c;
    gpu_push(e, g->body);
    gpu_mma_loop_pre(&e->mma, in, lo, E, S);        /* a pipelined K loop's prologue */
    PirStmt *s = pir_for(F, g->body, c, lo, E, S, false);
    if (!dtype_is_float(dt)) {
        PirTy U = dtype_info[dt].bits == 64 ? PT_U64 : PT_U32;
        PirExpr *C = pir_ref(F, c);
        PirExpr *left = pir_bin(F, PB_SUB, pir_conv(F, U, E), pir_conv(F, U, C));
        s->next = pir_select(F, pir_bin(F, PB_LE, left, pir_conv(F, U, S)), E, pir_bin(F, PB_ADD, C, S));
    }
    gpu_push(e, s->body);
    gpu_mma_loop_head(&e->mma, in);
    emit_block(e, body);
    gpu_pop(e);
    gpu_mma_loop_post(&e->mma, in);
    gpu_pop(e);
    gpu_pop(e);
}

/* The read of a var in the MMA fragment layout that stays there (see
 * frag_epi): a copy of its registers (free where the var is dead after). */
static void frag_get(GL *e, const Instr *in)
{
    PirLocal *acc = gpu_var(e, in->index);      /* F32, I32 for integer dots, U32 packed */
    int64_t n = gpu_packed(e, in->id) ? acc->n : lay_count(e, &e->lay[in->id], tty_numel(&in->ty));
    PirLocal *d = e->val[in->id] = decl_array(e, "v", acc->ty, n);
    PirLocal *k = open_for(e, "k", gpu_i(e, 0), gpu_i(e, n), 1, true);
    pir_assign(F, gpu_cur(e), d, pir_ref(F, k), pir_elem(F, acc, pir_ref(F, k)));
    gpu_pop(e);
}

static void emit_other(GL *e, const Instr *in)
{
    PirExpr *x[3] = { 0 };
    e->cur = in->id;
    switch (in->op) {
    case OP_REDUCE:
        emit_reduce(e, in);
        settle(e, in->id);
        break;
    case OP_CUMSUM:
        emit_cumsum(e, in);
        settle(e, in->id);
        break;
    case OP_DOT:
        if (!gpu_mma_dot(&e->mma, in)) {
            if (gpu_packed(e, in->args[0]))
                fail(e, in, "internal error: a packed var read off the tensor cores");
            else
                emit_dot(e, in);
        }
        if (e->mma.ndefer && (e->shared[in->id] || e->needb[in->id]
                              || (e->mma.res && e->mma.res[in->id] >= 0)))
            gpu_mma_defer_wait(&e->mma);   /* settle reads the result now */
        settle(e, in->id);
        break;
    case OP_VAR_GET: case OP_VAR_SET:     /* of a var in the MMA fragment layout */
        if (in->op == OP_VAR_GET && e->lay[in->id].kind == GL_FRAG)
            frag_get(e, in);
        else
            gpu_mma_var_op(&e->mma, in);
        settle(e, in->id);
        break;
    case OP_LOAD: case OP_STORE: case OP_ATOMIC:
        for (int j = 0; j < 3; j++)
            if (in->args[j] > 0)
                x[j] = scalar(e, in->args[j]);
        if (mem_hazard(e, in))
            pir_barrier(F, gpu_cur(e));
        if (in->op == OP_LOAD) {
            e->val[in->id] = gpu_let(e, "v", load_expr(e, in, x));
        } else if (in->op == OP_STORE) {
            store_stmt(e, in, x, ty(e, in->args[1])->dt);
        } else if (in->ival) {
            fetch_add(e, in, x);
        } else {              /* of one element: by one thread of the program */
            open_thread0(e);
            atomic_stmt(e, in, x);
            gpu_pop(e);
        }
        break;
    case OP_PRINT:            /* a scalar, or nothing: by one thread of the program */
        open_thread0(e);
        print_stmt(e, in, NULL, 0, in->args[0] > 0 ? scalar(e, in->args[0]) : NULL);
        gpu_pop(e);
        break;
    case OP_FOR:
        emit_for(e, in);
        break;
    case OP_IF: {
        PirStmt *s = pir_if(F, gpu_cur(e), scalar(e, in->args[0]));
        emit_body(e, s->body, in->blocks[0]);
        if (in->blocks[1] && in->blocks[1]->ins.n > 0) {
            s->els = pir_block(F);
            emit_body(e, s->els, in->blocks[1]);
        }
        break;
    }
    case OP_WHILE: {
        PirStmt *s = pir_stmt(F, gpu_cur(e), PS_WHILE);
        s->body = pir_block(F);
        gpu_push(e, s->body);
        emit_block(e, in->blocks[0]);
        emit_block(e, in->blocks[1]);
        gpu_pop(e);
        break;
    }
    case OP_YIELD:
        pir_stmt(F, pir_if(F, gpu_cur(e), pir_un(F, PU_NOT, scalar(e, in->args[0])))->body, PS_BREAK);
        break;
    case OP_BREAK:
        pir_stmt(F, gpu_cur(e), PS_BREAK);
        break;
    case OP_CONTINUE:
        pir_stmt(F, gpu_cur(e), PS_CONTINUE);
        break;
    default:
        fail(e, in, "unsupported instruction");
        break;
    }
}

static bool within(const Instr *in, const TBlock *b)
{
    for (const TBlock *p = in->parent; p; p = p->owner ? p->owner->parent : NULL)
        if (p == b)
            return true;
    return false;
}

static bool at_top(const GL *e, int v, const TBlock *b, int depth);

/* A pure scalar of loop body b over values available at its top (kh * KW
 * in a loop over kh): emit_block computes it first when early loads read it. */
static bool top_scalar(const GL *e, const Instr *in, const TBlock *b, int depth)
{
    if (in->ty.rank != 0 || in->parent != b || !(op_flags[in->op] & OPF_E) || depth > 64)
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (!at_top(e, in->args[j], b, depth + 1))
            return false;
    return true;
}

/* Is value v available at the top of loop body b: from outside b, the
 * loop's counter, or recomputed from such (top_scalar included)? */
static bool at_top(const GL *e, int v, const TBlock *b, int depth)
{
    const Instr *in = I(e, v);
    if (v <= 0 || !within(in, b) || in->op == OP_CONST || in->op == OP_ARANGE)
        return true;
    if (in->op == OP_LOOPVAR)
        return in->parent == b;
    if (in->ty.rank == 0 && !is_view(in->op))
        return top_scalar(e, in, b, depth);
    if (depth > 64 || !(is_view(in->op) || e->recomp[v]))
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (!at_top(e, in->args[j], b, depth + 1))
            return false;
    return true;
}

/* Loads of read-only tensors in a loop body go first (flash attention's
 * v with k): their latency then overlaps the work before their use.
 * TKC_HOIST=0: in program order. */
static bool early_load(const GL *e, const Instr *in, const TBlock *b)
{
    if (!tkc_knob("TKC_HOIST", 1) || !b->owner || b->owner->op != OP_FOR || in->op != OP_LOAD || in->ty.rank == 0
        || !e->live[in->id] || !e->reload[in->id])
        return false;
    bool mma = false;             /* only in loops around tensor-core dots */
    for (int v = 1; v < e->n && !mma; v++)
        mma = e->mma.on[v] && within(I(e, v), b);
    if (!mma)
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (!at_top(e, in->args[j], b, 0))
            return false;
    return true;
}

static void emit_block(GL *e, TBlock *b)
{
    bool *early = NULL;
    for (int i = 0; i < b->ins.n && e->ok && !early; i++) {
        Instr *in = I(e, b->ins.v[i]);
        if (classify(e, in) == CL_LANE && early_load(e, in, b))
            early = arena_alloc(e->a, (size_t)b->ins.n);
    }
    for (int i = 0; early && i < b->ins.n && e->ok; i++) {    /* the scalars they may read */
        Instr *in = I(e, b->ins.v[i]);
        if (classify(e, in) == CL_SCALAR && top_scalar(e, in, b, 0)) {
            early[i] = true;
            emit_scalar(e, in);
        }
    }
    for (int i = 0; early && i < b->ins.n && e->ok; i++) {
        Instr *in = I(e, b->ins.v[i]);
        if (classify(e, in) == CL_LANE && early_load(e, in, b)) {
            early[i] = true;
            add_lane(e, in);
        }
    }
    for (int i = 0; i < b->ins.n && e->ok; i++) {
        Instr *in = I(e, b->ins.v[i]);
        if (early && early[i])
            continue;
        if (gpu_mma_defer_due(&e->mma, in)) {      /* a wgmma dot's first reader */
            flush(e);
            gpu_mma_defer_wait(&e->mma);
        }
        switch (classify(e, in)) {
        case CL_SKIP:
            break;
        case CL_SCALAR:          /* scalars never read pending lanes: build them first */
            emit_scalar(e, in);
            break;
        case CL_LANE:
            add_lane(e, in);
            break;
        case CL_BREAK:
            flush(e);
            emit_other(e, in);
            break;
        }
    }
    flush(e);
    if (gpu_mma_defer_due(&e->mma, NULL))
        gpu_mma_defer_wait(&e->mma);
}

/* ------------------------------------------------------------ versioning */

/* Each vector access tests at run time that its group is aligned and
 * wholly unmasked.  In kernels without loops whose body has barriers or
 * shuffles (a row in registers: softmax, layernorm), where the tests of the
 * accesses outside loops can be computed before the program's first tile,
 * the body is built twice: a copy without those tests, taken when they
 * hold for every group of the block (one __syncthreads_and: full rows at
 * aligned addresses), and the general one.  The fast copy has no
 * element-by-element paths holding registers.  H100, layernorm f16
 * 8192 x 4096: 2594 -> 2640 GB/s (doc/bench/h100-s4-ln*.log). */

/* A scalar of the program's top block known before its first tile. */
static bool pre_scalar(const GL *e, int v, int depth)
{
    const Instr *in = I(e, v);
    if (v <= 0 || in->op == OP_CONST)
        return true;
    if (in->ty.rank != 0 || in->parent != e->k->body || depth > 64)
        return false;
    if (in->op == OP_DIM || in->op == OP_ARG || in->op == OP_STRIDE || in->op == OP_PROGRAM_ID)
        return true;
    if (!(op_flags[in->op] & OPF_E) && !is_view(in->op))
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (!pre_scalar(e, in->args[j], depth + 1))
            return false;
    return true;
}

/* A tile recomputed from aranges and such scalars (an offset, a mask). */
static bool pre_tile(const GL *e, int v, int depth)
{
    if (v <= 0)
        return true;
    const Instr *in = I(e, v);
    if (in->ty.rank == 0)
        return pre_scalar(e, v, depth);
    if (in->op == OP_ARANGE || in->op == OP_CONST)
        return true;
    if (depth > 64 || !(is_view(in->op) || e->recomp[v]))
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (!pre_tile(e, in->args[j], depth + 1))
            return false;
    return true;
}

/* Does block b need all threads of a block on one path (barriers,
 * shuffles)?  Conservatively: anything but elementwise runs and ifs. */
static bool collective(GL *e, const TBlock *b)
{
    for (int i = 0; b && i < b->ins.n; i++) {
        const Instr *in = I(e, b->ins.v[i]);
        Class c = classify(e, in);
        if (c == CL_BREAK && in->op != OP_IF)
            return true;
        if (mem_op(in->op) && c == CL_LANE && mem_hazard(e, in))
            return true;
        if (in->op == OP_IF && (collective(e, in->blocks[0]) || collective(e, in->blocks[1])))
            return true;
    }
    return false;
}

static bool has_loop(const GL *e, const TBlock *b)
{
    for (int i = 0; b && i < b->ins.n; i++) {
        const Instr *in = I(e, b->ins.v[i]);
        if (in->op == OP_FOR || in->op == OP_WHILE)
            return true;
        if (in->op == OP_IF && (has_loop(e, in->blocks[0]) || has_loop(e, in->blocks[1])))
            return true;
    }
    return false;
}

/* The test of vector access in (outside loops, offsets and mask known at
 * the top) for the current group into ok (i32, anded); false when in has
 * no such test. */
static bool guard_test(GL *e, const Instr *in, PirLocal *ok)
{
    if ((in->op != OP_LOAD && in->op != OP_STORE) || classify(e, in) != CL_LANE || tir_loop_of(in)
        || lane_lay(e, in).kind != GL_BLOCK)
        return false;
    int off = in->args[0], m = in->op == OP_LOAD ? in->args[1] : in->args[2];
    if (!pre_tile(e, off, 0) || !pre_tile(e, m, 0))
        return false;
    const TTy *L = lane_shape(e, in);
    DType tdt = e->ki->params[in->index].dt;
    Chunks c;
    if (!gvec(e, L) || !chunks(e, L, tdt, &c))
        return false;
    open_group(e, L);
    Idx ix = lane_tok(e, L);
    PirExpr *o = NULL, *t = NULL, *sc = NULL;
    bool vec;
    set_tokens(e, true);
    if (in->op == OP_LOAD) {
        vec = vload_test(e, in, ix, L, &c, &o, &t);
    } else {
        vec = gkind_s(e, off, align(e, &ix, ty(e, off), L), &sc) == GK_CONTIG;
        if (vec) {
            o = subst(e, operand(e, off, L, &ix), L, 0);
            t = m > 0 ? all_true(e, m, align(e, &ix, ty(e, m), L), L) : NULL;
            if (sc)
                t = land(e, t, pir_bin(F, PB_EQ, subst(e, sc, L, 0), pir_int(F, sc->ty, 1)));
        }
    }
    set_tokens(e, false);
    if (vec) {
        open_scope(e);
        PirLocal *ol = gpu_let(e, "o", o);
        PirExpr *cond = vcond(e, t, ol, tensor(e, in), c.cw, 0);
        pir_assign(F, gpu_cur(e), ok, NULL,
                   pir_bin(F, PB_AND, pir_ref(F, ok), pir_select(F, cond, gpu_i(e, 1), gpu_i(e, 0))));
        gpu_pop(e);
    }
    close_group(e, L);
    return vec;
}

/* One copy of the program's body.  In a kernel compiled for `blocks`
 * resident programs (a register cap), each copy's thread index is hidden
 * from the optimizers (PA_OPAQUE): else NVVM finds the two copies' common
 * index and address arithmetic and computes it once above the vote,
 * where it holds registers across the fast copy's loads and reductions.
 * H100, layernorm_f16 8192 x 4096 BLOCK=4096 PASSES=1 warps=8 blocks=5 (48
 * registers): NVRTC's SASS 52 B of spills and 1504 instructions -> none
 * and 1280 (LLVM's PTX: none, 1304), 2621-2639 -> 2694-2709 GB/s
 * (doc/bench/h100-s9-ln-1.log).  Not without a cap: softmax BLOCK=4096
 * warps=4 went from 2887 to 2676 GB/s (the index's range lost, ptxas no
 * longer issued the row's eight loads together).  TKC_VERSION_TID=0:
 * never, 2: in every versioned kernel. */
static void emit_copy(GL *e)
{
    PirLocal *tid = e->tid;
    int knob = tkc_knob("TKC_VERSION_TID", 1);
    if (knob == 2 || (knob == 1 && e->k->blocks > 1)) {
        e->tid = pir_local(F, "tid", PT_I32, 0);
        pir_decl(F, gpu_cur(e), e->tid, NULL);
        PirStmt *s = pir_asm_stmt(F, gpu_cur(e), PA_OPAQUE);
        s->out[0] = pir_ref(F, e->tid);
        s->in[0] = pir_ref(F, tid);
    }
    emit_block(e, e->k->body);
    e->tid = tid;
}

/* The body of program, versioned when it has guarded accesses; false
 * (nothing built) when not. */
static bool emit_versions(GL *e)
{
    for (int v = 1; v < e->n; v++)
        if (e->mma.on[v])
            return false;
    if (has_loop(e, e->k->body))        /* a second copy would cost more than it saves */
        return false;
    if (!collective(e, e->k->body))   /* elementwise kernels stream at copy speed as they are */
        return false;
    e->guard = arena_alloc(e->a, (size_t)e->n);
    PirBlock *top = gpu_cur(e);
    open_scope(e);            /* the test's locals */
    PirBlock *sb = gpu_cur(e);
    for (int i = 0; i < e->k->body->ins.n; i++) {
        const Instr *in = I(e, e->k->body->ins.v[i]);
        if (classify(e, in) == CL_SCALAR && pre_scalar(e, in->id, 0))
            emit_scalar(e, in);
    }
    PirLocal *ok = gpu_let(e, "ok", gpu_i(e, 1));
    int ng = 0;
    for (int v = 1; v < e->n && e->ok; v++)
        if ((e->guard[v] = guard_test(e, I(e, v), ok)))
            ng++;
    gpu_pop(e);
    if (ng == 0) {          /* nothing to gain: drop the test */
        top->s.n--;
        return false;
    }
    pir_assign(F, sb, ok, NULL, pir_bar_and(F, pir_ref(F, ok)));   /* all threads take one copy */
    PirStmt *s = pir_if(F, sb, pir_bin(F, PB_NE, pir_ref(F, ok), gpu_i(e, 0)));
    s->els = pir_block(F);
    gpu_push(e, s->body);
    e->fast = true;
    emit_copy(e);
    e->fast = false;
    gpu_pop(e);
    gpu_push(e, s->els);
    emit_copy(e);
    gpu_pop(e);
    return true;
}

/* ------------------------------------------------------------ for pipelined loops */

/* What gpu_mma.c's pipelined K loops (asynchronous copies of dot operands
 * into shared memory, issued iterations ahead) need from the block layout. */

PirLocal *gpu_bind(GL *e, int v, PirLocal *l)
{
    PirLocal *old = e->val[v];
    e->val[v] = l;
    return old;
}

/* Is block b open where `at` is (b holds at, or an instruction around it)? */
static bool encloses(const GL *e, const TBlock *b, const Instr *at)
{
    for (const Instr *x = at; x; x = x->parent ? x->parent->owner : NULL)
        if (x->parent == b)
            return true;
    return false;
}

static bool ready(const GL *e, int v, const Instr *loop);

/* A pure scalar of loop's body computed from ready values only (kh * KW of
 * a loop over kh): gpu_ahead_scalars computes it for any iteration. */
static bool body_scalar(const GL *e, const Instr *in, const Instr *loop)
{
    if (in->ty.rank != 0 || in->parent != loop->blocks[0] || !(op_flags[in->op] & OPF_E))
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (!ready(e, in->args[j], loop))
            return false;
    return true;
}

/* Can v be computed at the head of loop, before its body: recomputed
 * tiles, aranges and constants over scalars defined before the loop (in a
 * block open there), the loop's counter (or an outer loop's) and pure
 * scalars of the body computed from those? */
static bool ready(const GL *e, int v, const Instr *loop)
{
    if (v <= 0)
        return true;
    const Instr *in = I(e, v);
    if (in->op == OP_CONST || in->op == OP_ARANGE)
        return true;
    if (in->op == OP_LOOPVAR)          /* its own counter, or an outer loop's */
        return in->parent == loop->blocks[0] || encloses(e, in->parent, loop);
    if (in->ty.rank == 0 && !is_view(in->op))
        return (e->pos[v] < e->pos[loop->id] && encloses(e, in->parent, loop)) || body_scalar(e, in, loop);
    if (!is_view(in->op) && !e->recomp[v])
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (!ready(e, in->args[j], loop))
            return false;
    return true;
}

bool gpu_async_ok(GL *e, int v, const Instr *loop)
{
    const Instr *in = I(e, v);
    if (in->op != OP_LOAD || in->ty.rank != 2 || !e->reload[v])
        return false;
    for (int j = 0; j < 3; j++)
        if (!ready(e, in->args[j], loop))
            return false;
    return true;
}

/* Bind loop's body scalars (body_scalar) to values computed now, from the
 * counter's current binding: a pipeline copies the operands of an iteration
 * ahead of the body that defines them.  Returns what gpu_ahead_done puts
 * back. */
PirLocal **gpu_ahead_scalars(GL *e, const Instr *loop)
{
    const TBlock *b = loop->blocks[0];
    PirLocal **old = arena_alloc(e->a, sizeof *old * (size_t)b->ins.n);
    int cur = e->cur;
    for (int i = 0; i < b->ins.n; i++) {
        const Instr *in = I(e, b->ins.v[i]);
        if (body_scalar(e, in, loop)) {
            old[i] = e->val[in->id];
            emit_scalar(e, in);
        }
    }
    e->cur = cur;
    return old;
}

void gpu_ahead_done(GL *e, const Instr *loop, PirLocal **old)
{
    const TBlock *b = loop->blocks[0];
    for (int i = 0; i < b->ins.n; i++)
        if (body_scalar(e, I(e, b->ins.v[i]), loop))
            e->val[b->ins.v[i]] = old[i];
}

/* Load v's group (one chunk) at row i0 from column i1: its address, "all
 * unmasked" (NULL: always); false when its offsets do not step by one. */
static bool group_at(GL *e, int v, PirExpr *i0, PirExpr *i1, PirExpr **ptr, PirExpr **ok)
{
    const Instr *ld = I(e, v);
    const TTy *L = &ld->ty;
    int off = ld->args[0], m = ld->args[1];
    Idx ix = { .rank = 2, .d = { i0, e->ti } };
    PirExpr *sc = NULL;              /* a strided tensor's last stride: 1 at run time */
    if (gkind_s(e, off, align(e, &ix, ty(e, off), L), &sc) != GK_CONTIG)
        return false;
    Lane save = e->ln;
    e->ln.gi[1] = gpu_let(e, "gi", i1);        /* what subst() puts for the token */
    e->ln.q = gpu_let(e, "q", gpu_i(e, 0));
    set_tokens(e, true);
    PirExpr *o = subst(e, operand(e, off, L, &ix), L, 0);
    *ok = m > 0 ? all_true(e, m, align(e, &ix, ty(e, m), L), L) : NULL;
    if (sc)
        *ok = land(e, *ok, pir_bin(F, PB_EQ, subst(e, sc, L, 0), pir_int(F, sc->ty, 1)));
    set_tokens(e, false);
    *ptr = pir_ptradd(F, tensor(e, ld), o);
    e->ln = save;
    return true;
}

/* What the producer of a warp-specialized K loop computes (gpu_mma.c):
 * the pure scalars of the kernel's top level before the loop and of its
 * body, over the dims, parameters and program ids, and its counter. */
static bool ws_scalar(const GL *e, const Instr *in, const Instr *loop)
{
    if (in->parent == e->k->body && e->pos[in->id] < e->pos[loop->id])
        return in->op == OP_DIM || in->op == OP_ARG || in->op == OP_STRIDE || in->op == OP_PROGRAM_ID
               || (op_flags[in->op] & OPF_E);
    return in->parent == loop->blocks[0] && (op_flags[in->op] & OPF_E);
}

bool gpu_ws_ready(GL *e, int v, const Instr *loop)
{
    if (v <= 0)
        return true;
    const Instr *in = I(e, v);
    if (in->op == OP_CONST || in->op == OP_ARANGE)
        return true;
    if (in->op == OP_LOOPVAR)
        return in->parent == loop->blocks[0];
    if (in->ty.rank == 0 && !is_view(in->op) && !ws_scalar(e, in, loop))
        return false;
    if (in->ty.rank > 0 && !is_view(in->op) && !e->recomp[v])
        return false;
    for (int j = 0; j < in->nargs; j++)
        if (!gpu_ws_ready(e, in->args[j], loop))
            return false;
    return true;
}

void gpu_ws_scalars(GL *e, const Instr *loop, bool body)
{
    const TBlock *b = body ? loop->blocks[0] : e->k->body;
    int cur = e->cur;
    for (int i = 0; i < b->ins.n && b->ins.v[i] != loop->id; i++) {
        const Instr *in = I(e, b->ins.v[i]);
        if (in->op != OP_LOOPVAR && classify(e, in) == CL_SCALAR && gpu_ws_ready(e, in->id, loop))
            emit_scalar(e, in);
    }
    e->cur = cur;
}

/* A group of 16 bytes, or two of 8 (i8 tiles: V = 8) whose second starts
 * where the first ends (checked at run time). */
bool gpu_load_chunk(GL *e, int v, PirExpr *i0, PirExpr *i1, PirExpr **ptr, PirExpr **ok)
{
    const Instr *ld = I(e, v);
    Chunks c;
    if (ld->op != OP_LOAD || ld->ty.rank != 2 || !e->reload[v]
        || !chunks(e, &ld->ty, e->ki->params[ld->index].dt, &c) || c.nc != 1 || (c.cw != 16 && c.cw != 8))
        return false;
    if (c.cw == 16)
        return group_at(e, v, i0, i1, ptr, ok);
    PirExpr *p2, *ok2;
    if (!group_at(e, v, i0, i1, ptr, ok) || !group_at(e, v, i0, gpu_add(e, i1, gpu_i(e, c.epc)), &p2, &ok2))
        return false;
    PirExpr *next = pir_bin(F, PB_ADD, pir_ptrint(F, *ptr), pir_int(F, PT_U64, 8));
    *ok = land(e, land(e, *ok, ok2), pir_bin(F, PB_EQ, pir_ptrint(F, p2), next));
    return true;
}

/* ------------------------------------------------------------ kernels */

static int pick_threads(const GL *e)
{
    int w = e->k->warps;
    if (w <= 0)
        w = tkc_knob("TKC_WARPS", 0);
    if (w > 0 && w <= 32)
        return 32 * w;
    int64_t big = 1;
    for (int v = 1; v < e->n; v++)
        if (e->live[v] && tty_numel(ty(e, v)) > big)
            big = tty_numel(ty(e, v));
    for (int i = 0; i < e->k->vars.n; i++)
        if (tty_numel(&e->k->vars.v[i].ty) > big)
            big = tty_numel(&e->k->vars.v[i].ty);
    int T = big >= 4096 ? 256 : 128;
    /* Row reductions of a tensor-core dot's result: as many warps as fit
     * along its M in 16-row slices (a warp grid with WN = 1). */
    int64_t M = 0;
    bool rows = false;
    for (int v = 1; v < e->n; v++) {
        const Instr *in = I(e, v);
        if (!e->live[v])
            continue;
        if (in->op == OP_REDUCE && in->axis == 1 && ty(e, in->args[0])->rank == 2)
            rows = true;
        if (in->op == OP_DOT && in->ty.rank == 2 && in->ty.dt == DT_F32 && ty(e, in->args[0])->rank == 2
            && (ty(e, in->args[0])->dt == DT_BF16 || ty(e, in->args[0])->dt == DT_F16)
            && (M == 0 || in->ty.dim[0] < M))
            M = in->ty.dim[0];
    }
    /* 192 rows: three warpgroups of 64 (12 warps), as ThunderKittens'
     * attention; stdlib sdpa_bf16's blocks at D=128 on sm_90 */
    if (rows && T == 256 && M == 192)
        return 384;
    while (rows && M > 0 && T > 64 && M % (16 * (T / 32)) != 0)
        T /= 2;
    return T;
}

static bool early_load(const GL *e, const Instr *in, const TBlock *b);

/* B operands of tensor-core dots loaded at the top of the dot's loop body
 * (early_load) are staged there too, all in one pair of barriers; or,
 * when the dot is their only reader, copied iterations ahead by the loop's
 * pipeline (gpu_mma_key_load).  The B operand of a tensor-core dot in a
 * loop that is defined before the loop (sdpa_relpos_bf16's identity, which
 * adds rel_w's tile on the tensor cores) is staged once where it is
 * defined, like a resident A (q), instead of before every dot: no barriers
 * and no registers for it in the loop.  TKC_EARLY_INV=0: per dot. */
static void plan_early(GL *e)
{
    int *uses = tir_use_counts(e->k);
    for (int v = 1; v < e->n; v++) {
        const Instr *in = I(e, v);
        if (in->op != OP_DOT || !e->mma.on[v])
            continue;
        int b = in->args[1], bs = gpu_mma_bsrc(&e->mma, in);
        const Instr *x = I(e, bs);
        const Instr *lp = tir_loop_of(in);
        if (lp && !within(x, lp->blocks[0]) && x->ty.rank == 2 && !is_view(x->op)
            && x->op != OP_LOAD && tkc_knob("TKC_EARLY_INV", 1)) {
            gpu_mma_set_early(&e->mma, bs);
            continue;
        }
        if (x->op != OP_LOAD || x->parent != in->parent || gpu_mma_staged(&e->mma, x)
            || !early_load(e, x, x->parent))
            continue;
        bool only = uses[bs] == 1 && (b == bs || uses[b] == 1);
        if (!only || !gpu_mma_key_load(&e->mma, bs, x->parent->owner))
            gpu_mma_set_early(&e->mma, bs);
    }
    gpu_mma_key_place(&e->mma);
}

static bool has_row_reduce(const GL *e)
{
    for (int v = 1; v < e->n; v++)
        if (e->live[v] && I(e, v)->op == OP_REDUCE && I(e, v)->axis == 1 && ty(e, I(e, v)->args[0])->rank == 2)
            return true;
    return false;
}

static void add_params(GL *e)
{
    const KernelInfo *ki = e->ki;
    for (int i = 0; i < ki->nparams; i++) {
        const ParamInfo *p = &ki->params[i];
        unsigned fl = p->is_tensor && !p->stored ? PIR_CONST | PIR_NOALIAS : 0;
        e->pidx[i] = pir_add_param(F, p->is_tensor ? PP_TENSOR : PP_SCALAR, pir_ty_of(p->dt), fl,
                                   arena_printf(e->a, "p%d", i), i, 0);
    }
    for (int d = 0; d < ki->ndims; d++)
        if (!ki->dims[d].specialized)
            e->didx[d] = pir_add_param(F, PP_DIM, PT_I64, 0, arena_printf(e->a, "d%d", d), d, 0);
    for (int i = 0; i < ki->nparams; i++)
        for (int j = 0; ki->params[i].is_tensor && ki->params[i].strided && j < ki->params[i].rank; j++)
            e->sidx[i][j] = pir_add_param(F, PP_STRIDE, PT_I64, 0, arena_printf(e->a, "s%d_%d", i, j), i, j);
}

/* The loop over programs (grid-stride) and the program ids; its body is
 * current. */
static void open_programs_of(GL *e, int g0, int g1, int np, PirLocal *wg)
{
    PirLocal *p = pir_local(F, "p", PT_I64, 0);
    PirExpr *first = pir_conv(F, PT_I64, pir_special(F, PSR_CTAID));
    PirExpr *step = pir_conv(F, PT_I64, pir_special(F, PSR_NCTAID));
    if (wg) {     /* ping-pong consumer warpgroup wg: the block's programs wg, wg + 2, ... */
        first = pir_nsw(F, PB_ADD, first, pir_nsw(F, PB_MUL, pir_conv(F, PT_I64, pir_ref(F, wg)), step));
        step = pir_nsw(F, PB_MUL, step, pir_int(F, PT_I64, 2));
    }
    PirStmt *s = pir_for(F, gpu_cur(e), p, first, pir_param(F, np), step, false);
    gpu_push(e, s->body);
    PirExpr *P = pir_ref(F, p), *G0 = pir_param(F, g0), *G1 = pir_param(F, g1);
    /* grid sizes are positive and p < the product of the used ones: a grid
     * of one or two sizes needs no 64-bit division, or one (H100 layernorm
     * 8192 x 4096: 2% faster, doc/bench/h100-s4-ln-variants.log) */
    int ng = e->k->ngrid;
    e->pid[0] = gpu_let(e, "pid", ng <= 1 ? P : pir_nsw(F, PB_REM, P, G0));
    e->pid[1] = gpu_let(e, "pid", ng <= 1 ? pir_int(F, PT_I64, 0)
                                : ng == 2 ? pir_nsw(F, PB_DIV, P, G0)
                                : pir_nsw(F, PB_REM, pir_nsw(F, PB_DIV, P, G0), G1));
    e->pid[2] = gpu_let(e, "pid", ng <= 2 ? pir_int(F, PT_I64, 0)
                                : pir_nsw(F, PB_DIV, pir_nsw(F, PB_DIV, P, G0), G1));
}

static void open_programs(GL *e, int g0, int g1, int np) { open_programs_of(e, g0, g1, np, NULL); }

/* The barriers of the consumers of a warp-specialized kernel: named
 * barrier 1 of their n threads (the producer warpgroup is not there). */
static void consumer_barriers(GL *e, PirBlock *b, int n, PirLocal *wg)
{
    for (int i = 0; b && i < b->s.n; i++) {
        PirStmt *s = b->s.v[i];
        if (s->kind == PS_BARRIER && wg) {     /* ping-pong: barrier 1 + wg of its warpgroup */
            s->kind = PS_ASM;
            s->asm_op = PA_NBAR_SYNC;
            s->in[0] = pir_bin(F, PB_ADD, pir_ref(F, wg), pir_int(F, PT_I32, 1));
            s->in[1] = pir_int(F, PT_I32, n);
        } else if (s->kind == PS_BARRIER) {
            s->bar = 1;
            s->nbar = n;
        }
        consumer_barriers(e, s->body, n, wg);
        consumer_barriers(e, s->els, n, wg);
    }
}

/* The producer's part of a warp-specialized kernel: the loop over programs
 * with the scalars its TMA copies read, and its K loop (gpu_mma.c). */
static void build_producer(GL *e, const Instr *loop, int g0, int g1, int np)
{
    int depth = gpu_mma_ws_producer(&e->mma);
    open_programs(e, g0, g1, np);
    gpu_ws_scalars(e, loop, false);
    DType dt = I(e, loop->blocks[0]->ins.v[0])->ty.dt;
    PirExpr *b[3];
    for (int j = 0; j < 3; j++)
        b[j] = conv_dt(e, scalar(e, loop->args[j]), ty(e, loop->args[j])->dt, dt);
    gpu_mma_ws_produce(&e->mma, b[0], b[1], b[2]);
    gpu_pop(e);
    while (depth-- > 0)
        gpu_pop(e);
    if (!gpu_mma_ws_rounders(&e->mma))
        return;
    open_programs(e, g0, g1, np);      /* the rounding warps: the same programs */
    gpu_ws_scalars(e, loop, false);
    for (int j = 0; j < 3; j++)
        b[j] = conv_dt(e, scalar(e, loop->args[j]), ty(e, loop->args[j])->dt, dt);
    gpu_mma_ws_round(&e->mma, b[0], b[1], b[2]);
    gpu_pop(e);
    gpu_pop(e);
}

int gpu_pos(const GL *e, int v) { return e->pos[v]; }
int gpu_end(const GL *e, int v) { return e->end[v]; }
int gpu_building(const GL *e) { return e->cur; }

/* The producer of warp-specialized key loops (TKC_KEY_WS=1, gpu_mma.c):
 * the loop over programs, and in it each key loop's copies after the
 * scalars of the program before it (the same bounds, hence the same trip
 * counts and program order, as the consumers compute). */
static void build_key_producer(GL *e, const Instr **loops, int nl, int g0, int g1, int np)
{
    int depth = gpu_mma_kw_producer(&e->mma);
    open_programs(e, g0, g1, np);
    gpu_mma_kw_program(&e->mma);
    for (int i = 0; i < nl; i++) {
        const Instr *loop = loops[i];
        gpu_ws_scalars(e, loop, false);
        DType dt = I(e, loop->blocks[0]->ins.v[0])->ty.dt;
        PirExpr *b[3];
        for (int j = 0; j < 3; j++)
            b[j] = conv_dt(e, scalar(e, loop->args[j]), ty(e, loop->args[j])->dt, dt);
        gpu_mma_kw_produce(&e->mma, i, b[0], b[1], b[2]);
    }
    gpu_pop(e);
    while (depth-- > 0)
        gpu_pop(e);
}

/* A warp-specialized function: C consumer threads and a producer
 * warpgroup after them; producer_split opens the producer's side (threads
 * C and up), consumers_side closes it and opens the consumers'. */
static PirStmt *producer_split(GL *e, int C)
{
    F->threads = C + 128;
    F->min_blocks = 1;
    PirStmt *ws = pir_if(F, F->body, pir_bin(F, PB_GE, gpu_tid(e), gpu_i(e, C)));
    gpu_push(e, ws->body);
    return ws;
}

/* The TMA stores' last groups (frag_store_tma), waited for by the thread
 * of each warpgroup that issued them: once, after the loop over programs.
 * Until session 20 at the end of every program (TKC_EPI_WAIT_IN=1), where
 * the wait for the last box's global writes, then the consumers' barrier,
 * held a persistent kernel's next tile back (matmul_bf16: every tile).
 * Persistent kernels only (a kernel's programs otherwise run one a block;
 * where they may not, the key stages the epilogue can overlay, gpu.c
 * plan_overlay, stay guarded by the wait at each program's end): their
 * epilogue buffers are a region of their own, and the next program's
 * first chunk waits for the last reads of its buffer (frag_store_tma). */
static void epi_wait_all(GL *e)
{
    gpu_push(e, pir_if(F, gpu_cur(e), pir_bin(F, PB_EQ, pir_bin(F, PB_AND, gpu_tid(e), gpu_i(e, 127)),
                                             gpu_i(e, 0)))->body);
    /* TKC_TMA_STORE=2 (an experiment, unmeasured): only until they have
     * read shared memory, as CUTLASS's epilogues end (the writes finish
     * with the grid) */
    PirAsmOp w = tkc_knob("TKC_TMA_STORE", 1) == 2 ? PA_BULK_WAIT_READ : PA_BULK_WAIT;
    pir_asm_stmt(F, gpu_cur(e), w)->in[0] = gpu_i(e, 0);
    gpu_pop(e);
}

static void consumers_side(GL *e, PirStmt *ws)
{
    gpu_pop(e);
    ws->els = pir_block(F);
    gpu_push(e, ws->els);
}

/* The function: a grid-stride loop over programs around the body (with
 * the launch option `persistent`, the launcher starts one block per
 * multiprocessor, so each loops over several); with a warp-specialized K
 * loop, a producer warpgroup after the T threads runs its own loop over
 * programs, issuing the loop's copies. */
static void build(GL *e)
{
    F = pir_func(e->a, e->k->name);
    F->threads = e->T;
    F->fast_exp2 = e->k->fast_exp2;
    e->epi_used = e->epi_lean = false;
    e->stack.n = 0;
    e->clamp.n = 0;
    e->clamp_once = tkc_knob("TKC_CLAMP_ONCE", 1);
    e->val = arena_alloc(e->a, sizeof(PirLocal *) * (size_t)e->n);
    e->valb = arena_alloc(e->a, sizeof(PirLocal *) * (size_t)e->n);
    e->prel = arena_alloc(e->a, sizeof(PirLocal *) * (size_t)e->n);
    add_params(e);
    int g0 = pir_add_param(F, PP_GRID, PT_I64, 0, "tk_g0", -1, 0);
    int g1 = pir_add_param(F, PP_GRID, PT_I64, 0, "tk_g1", -1, 0);
    int np = pir_add_param(F, PP_GRID, PT_I64, 0, "tk_np", -1, 0);
    e->tok_i = pir_local(F, "TOKI", PT_I32, 0);
    e->tok_k = pir_local(F, "TOKK", PT_I32, 0);
    e->tok_j = pir_local(F, "TOKJ", PT_I32, 0);
    e->ti = pir_ref(F, e->tok_i);
    e->tk = pir_ref(F, e->tok_k);
    e->tj = pir_ref(F, e->tok_j);
    gpu_push(e, F->body);
    e->tid = gpu_let(e, "tid", pir_special(F, PSR_TID));
    e->mma.np = np;
    gpu_wg_head(&e->mma);
    gpu_mma_kernel_head(&e->mma);
    const Instr *wl = gpu_mma_ws_loop(&e->mma);
    /* `persistent` only where a K loop is warp-specialized (its producer
     * fetches the next program's operands during the epilogue): not in
     * NAME__nomap (cp.async, never specialized: H100 matmul_bf16 4095^3
     * persistent 103-105 TFLOP/s against 109, doc/bench/h100-s6-nomap-ws.log,
     * h100-s7-mm-2.log), nor before sm_90a.  TKC_PERSIST_ANY=1: everywhere. */
    F->persistent = tkc_knob("TKC_PERSIST", e->k->persistent) == 1 && (wl || tkc_knob("TKC_PERSIST_ANY", 0) == 1);
    PirStmt *ws = NULL;
    bool pp = wl && gpu_mma_pp(&e->mma);
    e->mma.pp_wg = NULL;
    if (wl) {
        ws = producer_split(e, pp ? 2 * e->T : e->T);
        build_producer(e, wl, g0, g1, np);
        consumers_side(e, ws);
        if (pp) {     /* two consumer warpgroups of T = 128, each its own programs */
            e->mma.pp_wg = gpu_let(e, "wg", pir_bin(F, PB_SHR, gpu_tid(e), gpu_i(e, 7)));
            e->tid = gpu_let(e, "tid", pir_bin(F, PB_AND, gpu_tid(e), gpu_i(e, 127)));
        }
        gpu_mma_ws_consumer(&e->mma);
    }
    const Instr *kwl[4];
    int nkw = wl ? 0 : gpu_mma_kw_loops(&e->mma, kwl);
    if (nkw) {                             /* warp-specialized key loops */
        ws = producer_split(e, e->T);
        build_key_producer(e, kwl, nkw, g0, g1, np);
        consumers_side(e, ws);
        gpu_mma_kw_consumer(&e->mma);
    }
    open_programs_of(e, g0, g1, np, e->mma.pp_wg);
    if (e->mma.pp_wg)
        gpu_mma_pp_turn(&e->mma);
    e->var = arena_alloc(e->a, sizeof(PirLocal *) * (size_t)(e->k->vars.n + 1));
    for (int i = 0; i < e->k->vars.n; i++) {
        const TTy *t = &e->k->vars.v[i].ty;
        if (t->rank == 0)
            e->var[i] = gpu_let(e, "var", lit_zero(e, t->dt));
        else if (e->vpack[i])
            e->var[i] = decl_array(e, "var", PT_U32, lay_count(e, &e->vlay[i], tty_numel(t)) / 2);
        else
            e->var[i] = decl_array(e, "var", pir_ty_compute(t->dt), lay_count(e, &e->vlay[i], tty_numel(t)));
    }
    if (!emit_versions(e))
        emit_block(e, e->k->body);
    bool wait_in = tkc_knob("TKC_EPI_WAIT_IN", !F->persistent) == 1;
    if (e->epi_used && wait_in)
        epi_wait_all(e);
    if (e->smem > 0)
        pir_barrier(F, gpu_cur(e));
    if (nkw)
        gpu_mma_kw_done(&e->mma);
    gpu_pop(e);
    if (e->epi_used && !wait_in)
        epi_wait_all(e);
    if (ws) {
        gpu_pop(e);
        consumer_barriers(e, ws->els, e->T, e->mma.pp_wg);
    }
    gpu_mma_cl_end(&e->mma);
    gpu_pop(e);
}

PirFunc *gpu_lower(TirKernel *k, Diag *d)
{
    if (!k->body || !k->info || k->instrs.n == 0) {
        diag_error(d, (Span){0}, "CUDA target: kernel %s has no body", k->name ? k->name : "?");
        return NULL;
    }
    int n = k->instrs.n;
    GL e = { .k = k, .ki = k->info, .a = k->arena, .d = d, .ok = true, .n = n };
    e.pos = arena_alloc(e.a, sizeof(int) * (size_t)n);
    e.end = arena_alloc(e.a, sizeof(int) * (size_t)n);
    e.use_end = arena_alloc(e.a, sizeof(int) * (size_t)n);
    e.soff = arena_alloc(e.a, sizeof(int64_t) * (size_t)n);
    e.live = tir_live(e.a, k);
    e.recomp = arena_alloc(e.a, (size_t)n);
    e.shared = arena_alloc(e.a, (size_t)n);
    e.reload = arena_alloc(e.a, (size_t)n);
    e.spad = arena_alloc(e.a, (size_t)n);
    e.kept = arena_alloc(e.a, (size_t)n);
    e.pre = arena_alloc(e.a, sizeof(int) * (size_t)n);
    e.pidx = arena_alloc(e.a, sizeof(int) * (size_t)(e.ki->nparams + 1));
    e.didx = arena_alloc(e.a, sizeof(int) * (size_t)(e.ki->ndims + 1));
    e.sidx = arena_alloc(e.a, sizeof(int *) * (size_t)(e.ki->nparams + 1));
    for (int i = 0; i < e.ki->nparams; i++)
        e.sidx[i] = arena_alloc(e.a, sizeof(int) * (size_t)(e.ki->params[i].rank + 1));
    int p = 0;
    number(&e, k->body, &p);
    plan_recomp(&e);
    plan_vectors(&e);
    e.T = pick_threads(&e);
    e.mma = (GpuMma){ .k = k, .a = e.a, .T = e.T, .V = e.V, .live = e.live, .e = &e, .kw_done = -1,
                      .rows = has_row_reduce(&e) };
    gpu_mma_plan(&e.mma);
    plan_dot_reads(&e);
    plan_layouts(&e);
    plan_packed(&e);
    plan_early(&e);
    e.needb = arena_alloc(e.a, (size_t)n);
    e.cur_lay = (GpuLay){ .kind = GL_BLOCK };
    /* pass 1: plan into a throwaway function; again when block-layout
     * copies of fragment tiles turned up (their conversions take room) */
    e.plan = true;
    build(&e);
    bool copies = false;
    for (int v = 1; v < n; v++)
        copies |= e.needb[v];
    if (copies && e.ok)
        build(&e);
    if (!e.ok)
        return NULL;
    plan_smem(&e);
    int64_t over = plan_overlay(&e);
    if (over >= 0) {          /* the shared buffers and the staging region inside the key loops' stages */
        for (int v = 1; v < n; v++)
            if (e.shared[v])
                e.soff[v] += over;
        e.mma.stg = al1k(over + e.smem);
        e.mma.lead = 0;
        if (e.mma.nkw) {      /* the producer waits for the program before (gpu_mma_kw_program) */
            e.mma.kw_done = e.mma.bar_need;
            e.mma.bar_need += 16;
        }
        e.smem = gpu_mma_end(&e.mma);
    } else {
        e.mma.stg = e.smem;   /* the MMA staging region goes last, then the resident and early ones */
        e.mma.lead = e.mma.swz ? al1k(e.smem + e.mma.need) : e.smem + e.mma.need;
        e.smem = gpu_mma_end(&e.mma);
    }
    if (e.epi_need) {         /* TMA-stored epilogues: a region of their own, if it fits (sm_90: 227 KB) */
        int64_t at = al1k(e.smem);
        if (at + e.epi_need > 227 * 1024)
            e.epi_off = true;
        /* only frag_store_lean's (NAME__nomap): not where it would leave
         * fewer programs per multiprocessor than the kernel asks for */
        else if (!e.epi_used && e.epi_lean && k->blocks > 1 && k->smem_max > 0
                 && (int64_t)k->blocks * (at + e.epi_need + 1024) > k->smem_max + 1024)
            e.epi_off = true;
        else
            e.smem = at + e.epi_need;
    }
    /* pass 2: build */
    e.plan = false;
    build(&e);
    e.f->smem = e.smem;
    if (!e.f->min_blocks)
        e.f->min_blocks = gpu_mma_min_blocks(&e.mma, e.smem);
    /* the launch option `blocks` wins over the lowering's own choice; no
     * multiprocessor holds more than 2048 threads (ptxas would drop the hint) */
    if (k->blocks > 0 && e.ok && (int64_t)k->blocks * e.f->threads > 2048) {
        diag_error(d, k->info->decl->span, "kernel %s: blocks = %d of %d threads each is %lld threads, "
                   "more than a multiprocessor holds (2048)", k->name, k->blocks, e.f->threads,
                   (long long)k->blocks * e.f->threads);
        return NULL;
    }
    if (k->blocks > 0)
        e.f->min_blocks = k->blocks;
    /* A kernel that asks for `blocks` programs per multiprocessor whose
     * shared memory does not fit `blocks` times on --arch is lowered again
     * with epi_frag (store_lay: an attention kernel's epilogue stays in the
     * fragments instead of taking a block-layout copy through shared
     * memory), then with fewer stages if that does not fit either (below):
     * sdpa_relpos_bf16's 18 KB f32 copy of o left 3 programs per SM of the
     * 4 it asks for (61.5 KB each; 43 KB without it, 2 stages).
     * TKC_FIT_EPI=0: not; 2: every kernel with epi_frag. */
    if (e.ok && e.dot_staged && k->smem_max > 0 && e.smem > k->smem_max) {
        k->dot_reload = true;             /* plan_dot_reads' copies do not fit */
        PirFunc *f = gpu_lower(k, d);
        k->dot_reload = false;
        return f;
    }
    int fit_epi = tkc_knob("TKC_FIT_EPI", 1);
    if (e.ok && !k->epi_frag
        && (fit_epi == 2 || (fit_epi == 1 && k->blocks > 1 && k->smem_max > 0
                             && (int64_t)k->blocks * (e.smem + 1024) > k->smem_max + 1024))) {
        k->epi_frag = true;
        PirFunc *f = gpu_lower(k, d);
        k->epi_frag = false;
        return f;
    }
    /* A kernel that asks for `blocks` programs per multiprocessor and more
     * than 2 pipeline stages, whose shared memory then does not fit `blocks`
     * times on --arch (each block also takes 1 KB of the multiprocessor's),
     * is lowered again with one stage fewer: sdpa_relpos_bf16's 3 key
     * stages fit twice on sm_90a (84 KB) but not on sm_80 (90 KB of 164),
     * where they would leave one program per SM.  TKC_FIT_STAGES=0: not. */
    if (e.ok && k->blocks > 1 && k->stages > 2 && k->smem_max > 0
        && (int64_t)k->blocks * (e.smem + 1024) > k->smem_max + 1024 && tkc_knob("TKC_FIT_STAGES", 1)) {
        k->stages--;
        PirFunc *f = gpu_lower(k, d);
        k->stages++;
        return f;
    }
    return e.ok ? e.f : NULL;
}
