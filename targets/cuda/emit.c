/*
 * targets/cuda/emit.c — tile IR to CUDA C device code.
 *
 * One program is one thread block of T threads (128, or 256 when a tile has
 * 4096 elements or more).  A tile of N elements is spread over the block
 * element by element: thread t holds the elements of flat (row-major) index
 * f = k*T + t, k in [0, ceil(N/T)), in a register array vN[K] that unrolled
 * loops index with constants only.  Every tile uses this one distribution,
 * so elementwise work needs no communication, and consecutive threads touch
 * consecutive addresses (coalesced) when a tile's offsets are contiguous.
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
 * The emitter runs twice over the kernel: once to plan (which tiles need
 * shared memory and for how long), once to print.
 */
#include <math.h>
#include <string.h>

#include "cuda.h"

#define SCRATCH 512         /* bytes: 32 warps x 8-byte partials, then 32 x i32 indices */
#define SCRATCH_IDX 256

typedef struct Idx {
    int rank;
    const char *d[TIR_MAXRANK];
    bool ident;              /* the flat index equals the reading lane's own f */
} Idx;

typedef enum { CL_SKIP, CL_SCALAR, CL_LANE, CL_BREAK } Class;

typedef struct GE {
    TirKernel *k;
    const KernelInfo *ki;
    Arena *a;
    Buf *o;
    Diag *d;
    bool ok, plan;
    int n, T, indent;
    int *pos, *end;
    bool *live, *recomp, *shared;
    int *use_end;            /* shared values: last position of a read */
    int64_t *soff;           /* shared values: byte offset */
    bool scratch;
    int64_t smem;
    int cur;                 /* the instruction being printed */
    Vec(int) run;            /* pending lane instructions, one shape */
    TTy run_shape;
    bool run_barrier;
} GE;

#define S(...) arena_printf(e->a, __VA_ARGS__)

static Instr *I(const GE *e, int v) { return e->k->instrs.v[v]; }
static const TTy *ty(const GE *e, int v) { return &e->k->instrs.v[v]->ty; }
static bool is_view(Op op)
{
    return op == OP_BROADCAST || op == OP_EXPAND_DIMS || op == OP_RESHAPE || op == OP_TRANS;
}
static int64_t kcount(const GE *e, int64_t n) { return n > 0 ? (n + e->T - 1) / e->T : 1; }

static void fail(GE *e, const Instr *in, const char *what)
{
    if (e->ok)
        diag_error(e->d, in ? in->span : (Span){0}, "CUDA target: %s%s%s", what,
                   in ? " in " : "", in ? op_name[in->op] : "");
    e->ok = false;
}

static void line(GE *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(GE *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_printf(e->o, "%*s", 4 * e->indent, "");
    buf_vprintf(e->o, fmt, ap);
    buf_putc(e->o, '\n');
    va_end(ap);
}

/* ------------------------------------------------------------ prelude */

const char cuda_device_prelude[] =
    "/* tkc CUDA device prelude: no headers needed */\n"
    "typedef signed char int8_t;\n"
    "typedef short int16_t;\n"
    "typedef int int32_t;\n"
    "typedef long long int64_t;\n"
    "typedef unsigned char uint8_t;\n"
    "typedef unsigned short uint16_t;\n"
    "typedef unsigned int uint32_t;\n"
    "typedef unsigned long long uint64_t;\n"
    "#define INT8_MIN (-128)\n#define INT8_MAX 127\n"
    "#define INT16_MIN (-32768)\n#define INT16_MAX 32767\n"
    "#define INT32_MIN (-2147483647 - 1)\n#define INT32_MAX 2147483647\n"
    "#define INT64_MIN (-9223372036854775807LL - 1)\n#define INT64_MAX 9223372036854775807LL\n"
    "#define UINT8_MAX 255\n#define UINT32_MAX 4294967295u\n"
    "#define INT64_C(c) c##LL\n"
    "#define INFINITY __int_as_float(0x7f800000)\n"
    "#define NAN __int_as_float(0x7fc00000)\n"
    "#define TK_D static __device__ __forceinline__\n"
    "TK_D float tk_f16_to_f32(uint16_t h) { float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f; }\n"
    "TK_D uint16_t tk_f32_to_f16(float f) { uint16_t h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n"
    "TK_D float tk_bf16_to_f32(uint16_t h) { return __uint_as_float((uint32_t)h << 16); }\n"
    "TK_D uint16_t tk_f32_to_bf16(float f) { uint16_t h; asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n"
    "TK_D float tk_round_f16(float f) { return tk_f16_to_f32(tk_f32_to_f16(f)); }\n"
    "TK_D float tk_round_bf16(float f) { return tk_bf16_to_f32(tk_f32_to_bf16(f)); }\n"
    "TK_D float tk_sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }\n"
    "TK_D double tk_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }\n"
    "TK_D float tk_rsqrtf(float x) { return 1.0f / sqrtf(x); }\n"
    "TK_D double tk_rsqrt(double x) { return 1.0 / sqrt(x); }\n"
    "#define TK_DEF_SAT(N, T, LO, HI1, HI) \\\n"
    "    TK_D T tk_sat_##N(double x) \\\n"
    "    { return x != x ? (T)0 : x <= (double)(LO) ? (T)(LO) : x >= (HI1) ? (T)(HI) : (T)x; }\n"
    "TK_DEF_SAT(i8, int8_t, INT8_MIN, 128.0, INT8_MAX)\n"
    "TK_DEF_SAT(i16, int16_t, INT16_MIN, 32768.0, INT16_MAX)\n"
    "TK_DEF_SAT(i32, int32_t, INT32_MIN, 2147483648.0, INT32_MAX)\n"
    "TK_DEF_SAT(i64, int64_t, INT64_MIN, 9223372036854775808.0, INT64_MAX)\n"
    "TK_DEF_SAT(u8, uint8_t, 0, 256.0, UINT8_MAX)\n"
    "TK_DEF_SAT(u32, uint32_t, 0, 4294967296.0, UINT32_MAX)\n"
    "#define TK_DEF_DIV(N, T, MIN) \\\n"
    "    TK_D T tk_div_##N(T a, T b) { return b == 0 ? (T)0 : (b == (T)-1 && a == MIN) ? a : (T)(a / b); } \\\n"
    "    TK_D T tk_mod_##N(T a, T b) { return (b == 0 || b == (T)-1) ? (T)0 : (T)(a % b); }\n"
    "#define TK_DEF_UDIV(N, T) \\\n"
    "    TK_D T tk_div_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \\\n"
    "    TK_D T tk_mod_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }\n"
    "TK_DEF_DIV(i8, int8_t, INT8_MIN)\n"
    "TK_DEF_DIV(i16, int16_t, INT16_MIN)\n"
    "TK_DEF_DIV(i32, int32_t, INT32_MIN)\n"
    "TK_DEF_DIV(i64, int64_t, INT64_MIN)\n"
    "TK_DEF_UDIV(u8, uint8_t)\n"
    "TK_DEF_UDIV(u32, uint32_t)\n"
    "TK_DEF_UDIV(bool, bool)\n"
    "/* butterfly shuffles for every compute type */\n"
    "TK_D float tk_shfl(float x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D double tk_shfl(double x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D int32_t tk_shfl(int32_t x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D uint32_t tk_shfl(uint32_t x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D int64_t tk_shfl(int64_t x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D int8_t tk_shfl(int8_t x, int o) { return (int8_t)__shfl_xor_sync(0xffffffffu, (int)x, o); }\n"
    "TK_D int16_t tk_shfl(int16_t x, int o) { return (int16_t)__shfl_xor_sync(0xffffffffu, (int)x, o); }\n"
    "TK_D uint8_t tk_shfl(uint8_t x, int o) { return (uint8_t)__shfl_xor_sync(0xffffffffu, (int)x, o); }\n"
    "TK_D bool tk_shfl(bool x, int o) { return __shfl_xor_sync(0xffffffffu, (int)x, o) != 0; }\n"
    "/* end of the tkc device prelude */\n";

/* ------------------------------------------------------------ planning */

static void number(GE *e, TBlock *b, int *p)
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

static bool is_root(Op op) { return !(op_flags[op] & OPF_P) && op != OP_VAR_GET; }

static void mark_live(GE *e, int v)
{
    if (v <= 0 || v >= e->n || e->live[v])
        return;
    e->live[v] = true;
    Instr *in = I(e, v);
    for (int j = 0; j < in->nargs; j++)
        mark_live(e, in->args[j]);
}

static void live_block(GE *e, TBlock *b)
{
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = I(e, b->ins.v[i]);
        if (is_root(in->op) || in->op == OP_LOOPVAR)
            mark_live(e, in->id);
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                live_block(e, in->blocks[j]);
    }
}

/* The value v reads its data from, through views. */
static int view_base(const GE *e, int v)
{
    while (is_view(I(e, v)->op) && ty(e, v)->rank > 0)
        v = I(e, v)->args[0];
    return v;
}

/* Integer and bool elementwise tiles over aranges and scalars: cheaper to
 * recompute at each use than to keep, and they need no shared memory when
 * read at another mapping.  Small trees only. */
static void plan_recomp(GE *e)
{
    int *cost = arena_alloc(e->a, sizeof(int) * (size_t)e->n);
    for (bool changed = true; changed;) {
        changed = false;
        for (int v = 1; v < e->n; v++) {
            Instr *in = I(e, v);
            if (e->recomp[v] || !e->live[v] || !(op_flags[in->op] & OPF_E) || in->ty.rank == 0
                || dtype_is_float(in->ty.dt))
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
            if (ok && c <= 24) {
                e->recomp[v] = true;
                cost[v] = c;
                changed = true;
            }
        }
    }
}

/* Where a read of v by the current instruction happens, seen from v's
 * block: a read inside a nested loop lasts to the end of that loop. */
static void note_use(GE *e, int v)
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
static void plan_smem(GE *e)
{
    Vec(Slot) act = { 0 };
    int64_t base = e->scratch ? SCRATCH : 0, top = base;
    for (int p = 0, v; p < e->n; p++) {
        for (v = 1; v < e->n && !(e->shared[v] && e->pos[v] == p); v++)
            ;
        if (v >= e->n)
            continue;
        int64_t size = (tty_numel(ty(e, v)) * elem_bytes(ty(e, v)->dt) + 15) / 16 * 16;
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

/* ------------------------------------------------------------ reading */

static char *scalar(GE *e, int v);
static char *rd(GE *e, int v, Idx ix);

static char *join_lin(GE *e, const Idx *ix, const TTy *t)
{
    Buf b = { .a = e->a };
    int64_t s = 1;
    for (int d = t->rank - 1; d >= 0; s *= t->dim[d], d--) {
        if (t->dim[d] == 1 || !strcmp(ix->d[d], "0"))
            continue;
        if (b.n)
            buf_puts(&b, " + ");
        if (s == 1)
            buf_printf(&b, "%s", ix->d[d]);
        else
            buf_printf(&b, "(%s) * %lld", ix->d[d], (long long)s);
    }
    return b.n ? S("(%s)", b.s) : "0";
}

static Idx split_lin(GE *e, const char *lin, const TTy *t, bool ident)
{
    Idx r = { .rank = t->rank, .ident = ident };
    int64_t s = 1;
    for (int d = t->rank - 1; d >= 0; s *= t->dim[d], d--) {
        if (t->dim[d] == 1 || !strcmp(lin, "0"))
            r.d[d] = "0";
        else if (d == 0)
            r.d[d] = s == 1 ? lin : S("(%s / %lld)", lin, (long long)s);
        else
            r.d[d] = s == 1 ? S("(%s %% %lld)", lin, (long long)t->dim[d])
                            : S("(%s / %lld %% %lld)", lin, (long long)s, (long long)t->dim[d]);
    }
    return r;
}

/* Index ix of a lane of shape `lane` as an index of operand type u:
 * NumPy alignment from the right, size-1 dims broadcast. */
static Idx align(const Idx *ix, const TTy *u, const TTy *lane)
{
    Idx r = { .rank = u->rank, .ident = ix->ident && tty_numel(u) == tty_numel(lane) };
    int off = lane->rank - u->rank;
    for (int d = 0; d < u->rank; d++)
        r.d[d] = (d + off < 0 || (u->dim[d] == 1 && lane->dim[d + off] != 1)) ? "0" : ix->d[d + off];
    return r;
}

static char *recompute(GE *e, int v, Idx ix)
{
    const Instr *in = I(e, v);
    char *x[3] = { 0 };
    for (int j = 0; j < in->nargs; j++) {
        int u = in->args[j];
        if (u > 0)
            x[j] = ty(e, u)->rank == 0 ? scalar(e, u) : rd(e, u, align(&ix, ty(e, u), &in->ty));
    }
    char *r = cx_op(e->a, e->k, in, x, "tk_");
    if (!r)
        fail(e, in, "unsupported elementwise op");
    return r ? r : "0";
}

/* The value of tile v at index ix, as an expression. */
static char *rd(GE *e, int v, Idx ix)
{
    for (;;) {
        const Instr *in = I(e, v);
        if (!is_view(in->op))
            break;
        int u = in->args[0];
        const TTy *ut = ty(e, u);
        if (ut->rank == 0)
            return scalar(e, u);
        Idx nx = { .rank = ut->rank, .ident = ix.ident };
        switch (in->op) {
        case OP_BROADCAST:
            for (int d = 0; d < ut->rank; d++)
                nx.d[d] = (ut->dim[d] == 1 && in->ty.dim[d] != 1) ? "0" : ix.d[d];
            nx.ident = ix.ident && tty_numel(ut) == tty_numel(&in->ty);
            break;
        case OP_EXPAND_DIMS:
            for (int d = 0, s = 0; d < in->ty.rank; d++)
                if (d != in->axis)
                    nx.d[s++] = ix.d[d];
            break;
        case OP_TRANS:
            for (int i = 0; i < in->ty.rank; i++) {
                nx.d[in->perm[i]] = ix.d[i];
                if (in->perm[i] != i)
                    nx.ident = false;
            }
            break;
        default:                       /* RESHAPE keeps the row-major order */
            nx = split_lin(e, join_lin(e, &ix, &in->ty), ut, ix.ident);
            break;
        }
        ix = nx;
        v = u;
    }
    const Instr *in = I(e, v);
    if (in->ty.rank == 0)
        return scalar(e, v);
    if (in->op == OP_ARANGE)
        return S("((int32_t)(%lld + %s))", (long long)in->ival, ix.d[0]);
    if (e->recomp[v])
        return recompute(e, v, ix);
    if (ix.ident)
        return S("v%d[tk_k]", v);
    if (e->plan) {
        e->shared[v] = true;
        note_use(e, v);
    }
    return S("sm%d[%s]", v, join_lin(e, &ix, &in->ty));
}

static char *scalar(GE *e, int v)
{
    const Instr *in = I(e, v);
    if (in->op == OP_CONST)
        return dtype_is_float(in->ty.dt) ? cx_lit_float(e->a, in->fval, in->ty.dt)
                                         : cx_lit_int(e->a, in->ival, in->ty.dt);
    if (is_view(in->op)) {
        Idx z = { 0 };
        return rd(e, v, z);
    }
    if (in->ty.rank > 0) {
        fail(e, in, "internal error: a tile used as a scalar");
        return "0";
    }
    return S("v%d", v);
}

/* The lane's own index: tk_i0.. over shape t. */
static Idx lane_idx(const TTy *t)
{
    static const char *const iv[TIR_MAXRANK] = { "tk_i0", "tk_i1", "tk_i2", "tk_i3" };
    Idx r = { .rank = t->rank, .ident = true };
    for (int d = 0; d < t->rank; d++)
        r.d[d] = iv[d];
    return r;
}

static char *operand(GE *e, int v, const TTy *lane, const Idx *ix)
{
    if (v <= 0)
        return NULL;
    if (ty(e, v)->rank == 0)
        return scalar(e, v);
    return rd(e, v, align(ix, ty(e, v), lane));
}

/* ------------------------------------------------------------ lanes */

/* Open the unrolled loop over a tile of shape t: tk_k, tk_f, tk_i*. */
static void open_lane(GE *e, const TTy *t)
{
    int64_t n = tty_numel(t);
    line(e, "#pragma unroll");
    line(e, "for (int tk_k = 0; tk_k < %lld; tk_k++) {", (long long)kcount(e, n));
    e->indent++;
    line(e, "const int tk_f = tk_k * %d + tk_tid;", e->T);
    if (n % e->T != 0) {
        line(e, "if (tk_f < %lld) {", (long long)n);
        e->indent++;
    }
    int64_t s = 1;
    Buf b = { .a = e->a };
    for (int d = t->rank - 1; d >= 0; s *= t->dim[d], d--) {
        if (d == 0)
            buf_printf(&b, "%stk_i0 = tk_f / %lld", b.n ? ", " : "", (long long)s);
        else
            buf_printf(&b, "%stk_i%d = tk_f / %lld %% %lld", b.n ? ", " : "", d, (long long)s,
                       (long long)t->dim[d]);
    }
    if (b.n)
        line(e, "const int %s;", b.s);
}

static void close_lane(GE *e, const TTy *t)
{
    if (tty_numel(t) % e->T != 0) {
        e->indent--;
        line(e, "}");
    }
    e->indent--;
    line(e, "}");
}

static void write_shared(GE *e, int v)
{
    if (!e->shared[v])
        return;
    const TTy *t = ty(e, v);
    line(e, "__syncthreads();");
    open_lane(e, t);
    line(e, "sm%d[tk_f] = v%d[tk_k];", v, v);
    close_lane(e, t);
    line(e, "__syncthreads();");
}

static const TTy *lane_shape(const GE *e, const Instr *in)
{
    if (in->op == OP_STORE)
        return ty(e, in->args[0]);
    if (in->op == OP_VAR_SET)
        return &e->k->vars.v[in->index].ty;
    return &in->ty;
}

static bool var_is_tile(const GE *e, int var)
{
    return var >= 0 && var < e->k->vars.n && e->k->vars.v[var].ty.rank > 0;
}

static Class classify(const GE *e, const Instr *in)
{
    Op op = in->op;
    if (op == OP_LOOPVAR || (!e->live[in->id] && !is_root(op)))
        return CL_SKIP;
    if (op == OP_CONST || op == OP_ARANGE || is_view(op) || e->recomp[in->id])
        return CL_SKIP;
    if (op == OP_VAR_GET || op == OP_VAR_SET)
        return var_is_tile(e, in->index) ? CL_LANE : CL_SCALAR;
    if (op == OP_DIM || op == OP_ARG || op == OP_STRIDE || op == OP_PROGRAM_ID)
        return CL_SCALAR;
    if (op_flags[op] & OPF_E)
        return in->ty.rank == 0 ? CL_SCALAR : CL_LANE;
    if (op == OP_LOAD)
        return in->ty.rank == 0 ? CL_BREAK : CL_LANE;
    if (op == OP_STORE)
        return ty(e, in->args[0])->rank == 0 ? CL_BREAK : CL_LANE;
    return CL_BREAK;
}

/* Is m before `in` in the program, or in a loop around `in`? */
static bool before(const GE *e, const Instr *m, const Instr *in)
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

/* Must a barrier order `in` after another access to its tensor?  Not when
 * both use the same offsets value: then every thread touches its own
 * elements only. */
static bool mem_hazard(const GE *e, const Instr *in)
{
    if (in->op != OP_LOAD && in->op != OP_STORE)
        return false;
    for (int v = 1; v < e->n; v++) {
        const Instr *m = I(e, v);
        if (m == in || (m->op != OP_LOAD && m->op != OP_STORE) || m->index != in->index
            || !e->live[v] || (m->op == OP_LOAD && in->op == OP_LOAD))
            continue;
        if (m->args[0] == in->args[0] || !before(e, m, in))
            continue;
        return true;
    }
    return false;
}

static const char *tensor(GE *e, const Instr *in)
{
    if (in->index < 0 || in->index >= e->ki->nparams || !e->ki->params[in->index].is_tensor) {
        fail(e, in, "internal error: not a tensor parameter");
        return "tk_bad";
    }
    return S("p%d", in->index);
}

static char *load_expr(GE *e, const Instr *in, char **x)
{
    DType tdt = e->ki->params[in->index].dt;
    char *v = cx_conv(e->a, cx_from_storage(e->a, S("%s[%s]", tensor(e, in), x[0]), tdt), tdt,
                      in->ty.dt, "tk_");
    if (!x[1])
        return v;
    return S("(%s ? %s : %s)", x[1], v, x[2] ? x[2] : cx_lit_zero(e->a, in->ty.dt));
}

static char *store_stmt(GE *e, const Instr *in, char **x)
{
    DType tdt = e->ki->params[in->index].dt;
    char *s = S("%s[%s] = %s;", tensor(e, in), x[0],
                cx_to_storage(e->a, x[1], ty(e, in->args[1])->dt, tdt, "tk_"));
    return x[2] ? S("if (%s) %s", x[2], s) : s;
}

static void emit_lane(GE *e, const Instr *in, const TTy *L)
{
    Idx ix = lane_idx(L);
    char *x[3] = { 0 };
    e->cur = in->id;
    for (int j = 0; j < in->nargs; j++)
        x[j] = operand(e, in->args[j], L, &ix);
    char *val;
    switch (in->op) {
    case OP_STORE:
        line(e, "%s", store_stmt(e, in, x));
        return;
    case OP_VAR_SET:
        line(e, "var%d[tk_k] = %s;", in->index, x[0]);
        return;
    case OP_VAR_GET:
        val = S("var%d[tk_k]", in->index);
        break;
    case OP_LOAD:
        val = load_expr(e, in, x);
        break;
    default:
        val = cx_op(e->a, e->k, in, x, "tk_");
        if (!val) {
            fail(e, in, "unsupported elementwise op");
            return;
        }
        break;
    }
    line(e, "v%d[tk_k] = %s;", in->id, val);
}

static void flush(GE *e)
{
    if (e->run.n == 0)
        return;
    const TTy *L = &e->run_shape;
    int64_t K = kcount(e, tty_numel(L));
    for (int i = 0; i < e->run.n; i++) {
        const Instr *m = I(e, e->run.v[i]);
        if (m->op != OP_STORE && m->op != OP_VAR_SET)
            line(e, "%s v%d[%lld];", cx_ctype(m->ty.dt), m->id, (long long)K);
    }
    if (e->run_barrier)
        line(e, "__syncthreads();");
    open_lane(e, L);
    for (int i = 0; i < e->run.n; i++)
        emit_lane(e, I(e, e->run.v[i]), L);
    close_lane(e, L);
    for (int i = 0; i < e->run.n; i++)
        write_shared(e, e->run.v[i]);
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

static void add_lane(GE *e, const Instr *in)
{
    bool hz = mem_hazard(e, in);
    if (e->run.n && (hz || !same_shape(&e->run_shape, lane_shape(e, in))))
        flush(e);
    if (e->run.n == 0) {
        e->run_shape = *lane_shape(e, in);
        e->run_barrier = hz;
    }
    vec_push(e->a, e->run, in->id);
    if (e->shared[in->id] || e->plan)   /* planning: every member its own run */
        flush(e);
}

/* ------------------------------------------------------------ scalars */

static void emit_scalar(GE *e, const Instr *in)
{
    int v = in->id;
    const char *T = cx_ctype(in->ty.dt), *val;
    char *x[3] = { 0 };
    e->cur = v;
    switch (in->op) {
    case OP_VAR_SET:
        line(e, "var%d = %s;", in->index, scalar(e, in->args[0]));
        return;
    case OP_VAR_GET:
        val = S("var%d", in->index);
        break;
    case OP_DIM:
        if (in->index < 0 || in->index >= e->ki->ndims || e->ki->dims[in->index].specialized) {
            fail(e, in, "internal error: not a run-time dim");
            return;
        }
        val = cx_conv(e->a, S("d%d", in->index), DT_I64, in->ty.dt, "tk_");
        break;
    case OP_ARG: {
        if (in->index < 0 || in->index >= e->ki->nparams || e->ki->params[in->index].is_tensor) {
            fail(e, in, "internal error: not a scalar parameter");
            return;
        }
        DType pdt = e->ki->params[in->index].dt;
        val = cx_conv(e->a, cx_from_storage(e->a, S("p%d", in->index), pdt), pdt, in->ty.dt, "tk_");
        break;
    }
    case OP_STRIDE:
        if (in->index < 0 || in->index >= e->ki->nparams || !e->ki->params[in->index].strided
            || in->axis < 0 || in->axis >= e->ki->params[in->index].rank) {
            fail(e, in, "internal error: not a stride of a strided tensor");
            return;
        }
        val = cx_conv(e->a, S("s%d_%d", in->index, in->axis), DT_I64, in->ty.dt, "tk_");
        break;
    case OP_PROGRAM_ID:
        if (in->axis < 0 || in->axis > 2) {
            fail(e, in, "program_id axis out of range");
            return;
        }
        val = S("(%s)tk_pid%d", T, in->axis);
        break;
    default:
        for (int j = 0; j < in->nargs; j++)
            if (in->args[j] > 0)
                x[j] = scalar(e, in->args[j]);
        val = cx_op(e->a, e->k, in, x, "tk_");
        if (!val) {
            fail(e, in, "unsupported scalar op");
            return;
        }
        break;
    }
    line(e, "const %s v%d = %s;", T, v, val);
}

/* ------------------------------------------------------------ reductions */

static const char *red_init(GE *e, ReduceKind rk, DType dt)
{
    bool mx = rk == RK_MAX || rk == RK_ARGMAX;
    if (rk == RK_SUM)
        return cx_lit_zero(e->a, dt);
    if (dtype_is_float(dt))
        return cx_lit_float(e->a, mx ? -INFINITY : INFINITY, dt);
    switch (dt) {
    case DT_BOOL: return mx ? "false" : "true";
    case DT_I8:   return mx ? "INT8_MIN" : "INT8_MAX";
    case DT_I16:  return mx ? "INT16_MIN" : "INT16_MAX";
    case DT_I32:  return mx ? "INT32_MIN" : "INT32_MAX";
    case DT_I64:  return mx ? "INT64_MIN" : "INT64_MAX";
    case DT_U8:   return mx ? "((uint8_t)0)" : "((uint8_t)UINT8_MAX)";
    default:      return mx ? "0u" : "UINT32_MAX";
    }
}

/* acc (op) x, as an expression, for sum / max / min. */
static char *red_step(GE *e, ReduceKind rk, DType dt, const char *acc, const char *x)
{
    if (rk == RK_SUM) {
        if (dtype_is_float(dt))
            return S("%s + %s", acc, x);
        const char *U = dtype_info[dt].bits == 64 ? "uint64_t" : "uint32_t";
        return S("(%s)((%s)%s + (%s)%s)", cx_ctype(dt), U, acc, U, x);
    }
    bool mx = rk == RK_MAX || rk == RK_ARGMAX;
    return S("%s %s %s ? %s : %s", x, mx ? ">" : "<", acc, x, acc);
}

/* Fold (b, bi) into (tk_a, tk_ai): ties go to the smaller index. */
static void combine(GE *e, ReduceKind rk, DType adt, const char *b, const char *bi)
{
    if (rk == RK_ARGMAX || rk == RK_ARGMIN)
        line(e, "if (%s %s tk_a || (%s == tk_a && %s < tk_ai)) { tk_a = %s; tk_ai = %s; }", b,
             rk == RK_ARGMAX ? ">" : "<", b, bi, b, bi);
    else
        line(e, "tk_a = %s;", red_step(e, rk, adt, "tk_a", b));
}

static void reduce_all(GE *e, const Instr *in)
{
    int src = in->args[0];
    const TTy *st = ty(e, src);
    DType xdt = st->dt, rdt = in->ty.dt;
    ReduceKind rk = in->rkind;
    bool arg = rk == RK_ARGMAX || rk == RK_ARGMIN;
    DType adt = arg ? xdt : rdt;
    const char *A = cx_ctype(adt);
    int W = e->T / 32;
    e->scratch = true;
    line(e, "%s v%d;", cx_ctype(rdt), in->id);
    line(e, "{");
    e->indent++;
    line(e, "%s tk_a = %s;", A, red_init(e, rk, adt));
    if (arg)
        line(e, "int32_t tk_ai = INT32_MAX;");
    open_lane(e, st);
    Idx ix = lane_idx(st);
    line(e, "const %s tk_x = %s;", A, cx_conv(e->a, rd(e, src, ix), xdt, adt, "tk_"));
    combine(e, rk, adt, "tk_x", "tk_f");
    close_lane(e, st);
    line(e, "for (int tk_o = 16; tk_o > 0; tk_o >>= 1) {");
    e->indent++;
    line(e, "const %s tk_b = tk_shfl(tk_a, tk_o);", A);
    if (arg)
        line(e, "const int32_t tk_bi = tk_shfl(tk_ai, tk_o);");
    combine(e, rk, adt, "tk_b", "tk_bi");
    e->indent--;
    line(e, "}");
    if (W > 1) {
        line(e, "__syncthreads();");
        line(e, "if ((tk_tid & 31) == 0) {");
        line(e, "    ((%s *)tk_smem)[tk_tid >> 5] = tk_a;", A);
        if (arg)
            line(e, "    ((int32_t *)(tk_smem + %d))[tk_tid >> 5] = tk_ai;", SCRATCH_IDX);
        line(e, "}");
        line(e, "__syncthreads();");
        line(e, "tk_a = ((const %s *)tk_smem)[0];", A);
        if (arg)
            line(e, "tk_ai = ((const int32_t *)(tk_smem + %d))[0];", SCRATCH_IDX);
        line(e, "for (int tk_w = 1; tk_w < %d; tk_w++) {", W);
        e->indent++;
        line(e, "const %s tk_b = ((const %s *)tk_smem)[tk_w];", A, A);
        if (arg)
            line(e, "const int32_t tk_bi = ((const int32_t *)(tk_smem + %d))[tk_w];", SCRATCH_IDX);
        combine(e, rk, adt, "tk_b", "tk_bi");
        e->indent--;
        line(e, "}");
    }
    if (arg)
        line(e, "v%d = tk_ai == INT32_MAX ? 0 : tk_ai;", in->id);
    else
        line(e, "v%d = %s;", in->id, cx_conv(e->a, "tk_a", adt, rdt, "tk_"));
    e->indent--;
    line(e, "}");
}

/* The source index of a reduction/cumsum: the lane index with `j` at axis
 * (insert: the lane drops the axis; else: replace it). */
static Idx axis_idx(const Idx *lane, int axis, bool insert, int rank)
{
    Idx r = { .rank = rank, .ident = false };
    for (int d = 0, s = 0; d < rank; d++) {
        if (d == axis) {
            r.d[d] = "tk_j";
            if (!insert)
                s++;
        } else {
            r.d[d] = lane->d[s++];
        }
    }
    return r;
}

static void reduce_axis(GE *e, const Instr *in)
{
    int src = in->args[0], ax = in->axis;
    const TTy *st = ty(e, src), *t = &in->ty;
    DType xdt = st->dt, rdt = t->dt;
    ReduceKind rk = in->rkind;
    bool arg = rk == RK_ARGMAX || rk == RK_ARGMIN;
    DType adt = arg ? xdt : rdt;
    const char *A = cx_ctype(adt);
    line(e, "%s v%d[%lld];", cx_ctype(rdt), in->id, (long long)kcount(e, tty_numel(t)));
    open_lane(e, t);
    Idx lane = lane_idx(t);
    line(e, "%s tk_a = %s;", A, red_init(e, rk, adt));
    if (arg)
        line(e, "int32_t tk_ai = 0;");
    line(e, "for (int tk_j = 0; tk_j < %lld; tk_j++) {", (long long)st->dim[ax]);
    e->indent++;
    Idx sx = axis_idx(&lane, ax, true, st->rank);
    line(e, "const %s tk_x = %s;", A, cx_conv(e->a, rd(e, src, sx), xdt, adt, "tk_"));
    if (arg)
        line(e, "if (tk_x %s tk_a) { tk_a = tk_x; tk_ai = tk_j; }", rk == RK_ARGMAX ? ">" : "<");
    else
        line(e, "tk_a = %s;", red_step(e, rk, adt, "tk_a", "tk_x"));
    e->indent--;
    line(e, "}");
    line(e, "v%d[tk_k] = %s;", in->id, arg ? "tk_ai" : cx_conv(e->a, "tk_a", adt, rdt, "tk_"));
    close_lane(e, t);
}

static void emit_reduce(GE *e, const Instr *in)
{
    const TTy *st = ty(e, in->args[0]);
    if (in->axis < 0 || in->axis >= st->rank) {
        fail(e, in, "reduction axis out of range");
        return;
    }
    if (in->ty.rank == 0)
        reduce_all(e, in);
    else
        reduce_axis(e, in);
}

static void emit_cumsum(GE *e, const Instr *in)
{
    int src = in->args[0], ax = in->axis;
    const TTy *t = &in->ty;
    DType dt = t->dt;
    if (ax < 0 || ax >= t->rank) {
        fail(e, in, "cumsum axis out of range");
        return;
    }
    line(e, "%s v%d[%lld];", cx_ctype(dt), in->id, (long long)kcount(e, tty_numel(t)));
    open_lane(e, t);
    Idx lane = lane_idx(t);
    line(e, "%s tk_a = %s;", cx_ctype(dt), cx_lit_zero(e->a, dt));
    line(e, "for (int tk_j = 0; tk_j <= %s; tk_j++)", lane.d[ax]);
    Idx sx = axis_idx(&lane, ax, false, t->rank);
    char *x = cx_conv(e->a, rd(e, src, sx), ty(e, src)->dt, dt, "tk_");
    line(e, "    tk_a = %s;", red_step(e, RK_SUM, dt, "tk_a", x));
    line(e, "v%d[tk_k] = tk_a;", in->id);
    close_lane(e, t);
}

/* dot: every thread accumulates its own outputs over k, operands read from
 * shared memory (or recomputed). */
static void emit_dot(GE *e, const Instr *in)
{
    const TTy *t = &in->ty, *ta = ty(e, in->args[0]), *tb = ty(e, in->args[1]);
    DType at = t->dt;
    if (t->rank != 2 || ta->rank != 2 || tb->rank != 2) {
        fail(e, in, "dot needs 2-D operands");
        return;
    }
    int64_t K = kcount(e, tty_numel(t));
    line(e, "%s v%d[%lld];", cx_ctype(at), in->id, (long long)K);
    Idx lane = lane_idx(t);
    open_lane(e, t);
    int c = in->args[2];
    line(e, "v%d[tk_k] = %s;", in->id,
         c > 0 ? cx_conv(e->a, operand(e, c, t, &lane), ty(e, c)->dt, at, "tk_") : cx_lit_zero(e->a, at));
    close_lane(e, t);
    line(e, "for (int tk_kk = 0; tk_kk < %lld; tk_kk++) {", (long long)ta->dim[1]);
    e->indent++;
    open_lane(e, t);
    Idx ia = { .rank = 2, .d = { "tk_i0", "tk_kk" } }, ib = { .rank = 2, .d = { "tk_kk", "tk_i1" } };
    char *xa = cx_conv(e->a, rd(e, in->args[0], ia), ta->dt, at, "tk_");
    char *xb = cx_conv(e->a, rd(e, in->args[1], ib), tb->dt, at, "tk_");
    if (dtype_is_float(at))
        line(e, "v%d[tk_k] += %s * %s;", in->id, xa, xb);
    else
        line(e, "v%d[tk_k] = (%s)((uint32_t)v%d[tk_k] + (uint32_t)%s * (uint32_t)%s);", in->id,
             cx_ctype(at), in->id, xa, xb);
    close_lane(e, t);
    e->indent--;
    line(e, "}");
}

/* ------------------------------------------------------------ statements */

static void emit_block(GE *e, TBlock *b);

static void emit_body(GE *e, TBlock *b)
{
    e->indent++;
    if (b)
        emit_block(e, b);
    e->indent--;
}

static void emit_for(GE *e, const Instr *in)
{
    TBlock *body = in->blocks[0];
    if (!body || body->ins.n == 0 || I(e, body->ins.v[0])->op != OP_LOOPVAR) {
        fail(e, in, "internal error: a for body must start with loopvar");
        return;
    }
    const Instr *lv = I(e, body->ins.v[0]);
    DType dt = lv->ty.dt;
    const char *T = cx_ctype(dt), *U = dtype_info[dt].bits == 64 ? "uint64_t" : "uint32_t";
    char *lo = cx_conv(e->a, scalar(e, in->args[0]), ty(e, in->args[0])->dt, dt, "tk_");
    char *hi = cx_conv(e->a, scalar(e, in->args[1]), ty(e, in->args[1])->dt, dt, "tk_");
    char *sp = cx_conv(e->a, scalar(e, in->args[2]), ty(e, in->args[2])->dt, dt, "tk_");
    int v = lv->id;
    line(e, "{");
    e->indent++;
    line(e, "const %s e%d = %s, s%d = %s;", T, v, hi, v, sp);
    if (dtype_is_float(dt))
        line(e, "if (s%d > 0) for (%s v%d = %s; v%d < e%d; v%d += s%d) {", v, T, v, lo, v, v, v, v);
    else     /* the step never overflows: the last one lands on the end */
        line(e, "if (s%d > 0) for (%s v%d = %s; v%d < e%d; v%d = (%s)e%d - (%s)v%d <= (%s)s%d ? e%d : (%s)((%s)v%d + (%s)s%d)) {",
             v, T, v, lo, v, v, v, U, v, U, v, U, v, v, T, U, v, U, v);
    emit_body(e, body);
    line(e, "}");
    e->indent--;
    line(e, "}");
}

static void emit_other(GE *e, const Instr *in)
{
    char *x[3] = { 0 };
    e->cur = in->id;
    switch (in->op) {
    case OP_REDUCE:
        emit_reduce(e, in);
        write_shared(e, in->id);
        break;
    case OP_CUMSUM:
        emit_cumsum(e, in);
        write_shared(e, in->id);
        break;
    case OP_DOT:
        emit_dot(e, in);
        write_shared(e, in->id);
        break;
    case OP_LOAD: case OP_STORE:
        for (int j = 0; j < 3; j++)
            if (in->args[j] > 0)
                x[j] = scalar(e, in->args[j]);
        if (mem_hazard(e, in))
            line(e, "__syncthreads();");
        if (in->op == OP_LOAD)
            line(e, "const %s v%d = %s;", cx_ctype(in->ty.dt), in->id, load_expr(e, in, x));
        else
            line(e, "%s", store_stmt(e, in, x));
        break;
    case OP_FOR:
        emit_for(e, in);
        break;
    case OP_IF:
        line(e, "if (%s) {", scalar(e, in->args[0]));
        emit_body(e, in->blocks[0]);
        if (in->blocks[1] && in->blocks[1]->ins.n > 0) {
            line(e, "} else {");
            emit_body(e, in->blocks[1]);
        }
        line(e, "}");
        break;
    case OP_WHILE:
        line(e, "for (;;) {");
        emit_body(e, in->blocks[0]);
        emit_body(e, in->blocks[1]);
        line(e, "}");
        break;
    case OP_YIELD:
        line(e, "if (!(%s))", scalar(e, in->args[0]));
        line(e, "    break;");
        break;
    case OP_BREAK:
        line(e, "break;");
        break;
    case OP_CONTINUE:
        line(e, "continue;");
        break;
    default:
        fail(e, in, "unsupported instruction");
        break;
    }
}

static void emit_block(GE *e, TBlock *b)
{
    for (int i = 0; i < b->ins.n && e->ok; i++) {
        Instr *in = I(e, b->ins.v[i]);
        switch (classify(e, in)) {
        case CL_SKIP:
            break;
        case CL_SCALAR:          /* scalars never read pending lanes: print them first */
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
}

/* ------------------------------------------------------------ kernels */

static int pick_threads(const GE *e)
{
    int64_t big = 1;
    for (int v = 1; v < e->n; v++)
        if (e->live[v] && tty_numel(ty(e, v)) > big)
            big = tty_numel(ty(e, v));
    for (int i = 0; i < e->k->vars.n; i++)
        if (tty_numel(&e->k->vars.v[i].ty) > big)
            big = tty_numel(&e->k->vars.v[i].ty);
    return big >= 4096 ? 256 : 128;
}

static void device_params(GE *e, Buf *b)
{
    const KernelInfo *ki = e->ki;
    const char *sep = "";
    for (int i = 0; i < ki->nparams; i++, sep = ", ") {
        const ParamInfo *p = &ki->params[i];
        if (p->is_tensor)
            buf_printf(b, "%s%s%s *%sp%d", sep, p->stored ? "" : "const ", cx_stype(p->dt),
                       p->stored ? "" : "__restrict__ ", i);
        else
            buf_printf(b, "%s%s p%d", sep, cx_stype(p->dt), i);
    }
    for (int d = 0; d < ki->ndims; d++)
        if (!ki->dims[d].specialized) {
            buf_printf(b, "%sint64_t d%d", sep, d);
            sep = ", ";
        }
    for (int i = 0; i < ki->nparams; i++)
        for (int j = 0; ki->params[i].is_tensor && ki->params[i].strided && j < ki->params[i].rank; j++) {
            buf_printf(b, "%sint64_t s%d_%d", sep, i, j);
            sep = ", ";
        }
    buf_printf(b, "%sint64_t tk_g0, int64_t tk_g1, int64_t tk_np", sep);
}

static void emit_kernel(GE *e)
{
    Buf b = { .a = e->a };
    device_params(e, &b);
    line(e, "extern \"C\" __global__ void __launch_bounds__(%d) %s(%s)", e->T, e->k->name, b.s);
    line(e, "{");
    e->indent++;
    if (e->smem > 0)
        line(e, "extern __shared__ __align__(16) unsigned char tk_smem[];");
    line(e, "const int tk_tid = threadIdx.x;");
    line(e, "for (int64_t tk_p = blockIdx.x; tk_p < tk_np; tk_p += gridDim.x) {");
    e->indent++;
    line(e, "const int64_t tk_pid0 = tk_p %% tk_g0, tk_pid1 = tk_p / tk_g0 %% tk_g1, tk_pid2 = tk_p / tk_g0 / tk_g1;");
    for (int v = 1; v < e->n; v++)
        if (e->shared[v])
            line(e, "%s *const sm%d = (%s *)(tk_smem + %lld);", cx_ctype(ty(e, v)->dt), v,
                 cx_ctype(ty(e, v)->dt), (long long)e->soff[v]);
    for (int i = 0; i < e->k->vars.n; i++) {
        const TTy *t = &e->k->vars.v[i].ty;
        if (t->rank == 0)
            line(e, "%s var%d = %s;", cx_ctype(t->dt), i, cx_lit_zero(e->a, t->dt));
        else
            line(e, "%s var%d[%lld];", cx_ctype(t->dt), i, (long long)kcount(e, tty_numel(t)));
    }
    emit_block(e, e->k->body);
    if (e->smem > 0)
        line(e, "__syncthreads();");
    e->indent--;
    line(e, "}");
    e->indent--;
    line(e, "}");
    line(e, "%s", "");
}

bool cuda_emit_device(Buf *out, TirKernel *k, CudaKernel *ck, Diag *d)
{
    if (!k->body || !k->info || k->instrs.n == 0) {
        diag_error(d, (Span){0}, "CUDA target: kernel %s has no body", k->name ? k->name : "?");
        return false;
    }
    int n = k->instrs.n;
    GE e = { .k = k, .ki = k->info, .a = k->arena, .d = d, .ok = true, .n = n };
    e.pos = arena_alloc(e.a, sizeof(int) * (size_t)n);
    e.end = arena_alloc(e.a, sizeof(int) * (size_t)n);
    e.use_end = arena_alloc(e.a, sizeof(int) * (size_t)n);
    e.soff = arena_alloc(e.a, sizeof(int64_t) * (size_t)n);
    e.live = arena_alloc(e.a, (size_t)n);
    e.recomp = arena_alloc(e.a, (size_t)n);
    e.shared = arena_alloc(e.a, (size_t)n);
    int p = 0;
    number(&e, k->body, &p);
    live_block(&e, k->body);
    plan_recomp(&e);
    e.T = pick_threads(&e);
    /* pass 1: plan into a scratch buffer */
    Buf scratch = { .a = e.a };
    e.o = &scratch;
    e.plan = true;
    emit_kernel(&e);
    if (!e.ok)
        return false;
    plan_smem(&e);
    /* pass 2: print */
    e.o = out;
    e.plan = false;
    e.indent = 0;
    emit_kernel(&e);
    ck->name = k->name;
    ck->threads = e.T;
    ck->smem = e.smem;
    return e.ok;
}
