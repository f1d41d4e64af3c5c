/*
 * targets/cuda/emit.c — tile IR to CUDA C device code.
 *
 * One program is one thread block of T threads (128, or 256 when a tile has
 * 4096 elements or more).  A tile of N elements is spread over the block in
 * groups of V consecutive elements (V: the kernel's vector width, 16 bytes
 * of its narrowest tensor, halved until it divides N): thread t holds the
 * elements of flat (row-major) index f = (q*T + t)*V + j, j in [0, V), in a
 * register array vN[K] at slot k = q*V + j, which unrolled loops index with
 * constants only.  The distribution depends on N alone, so elementwise work
 * on equal-sized tiles needs no communication.  When a group lies in one
 * row and a load's or store's offsets step by one along it, the group moves
 * as one 16-byte access (see "vectors"); consecutive threads touch
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
    int n, T, V, indent;
    int *pos, *end;
    bool *live, *recomp, *shared;
    bool *reload;            /* loads of read-only tensors, reread where needed */
    int *pre;                /* run operands read from tk_rN (the current run) */
    int *use_end;            /* shared values: last position of a read */
    int64_t *soff;           /* shared values: byte offset */
    bool scratch;
    int64_t smem;
    int cur;                 /* the instruction being printed */
    Vec(int) run;            /* pending lane instructions, one shape */
    TTy run_shape;
    bool run_barrier;
    const char *kx;          /* the register slot of the lane's own element */
    const char *jx;          /* its place in the group */
    CudaMma mma;             /* dot on tensor cores (mma.c) */
} GE;

#define S(...) arena_printf(e->a, __VA_ARGS__)

static Instr *I(const GE *e, int v) { return e->k->instrs.v[v]; }
static const TTy *ty(const GE *e, int v) { return &e->k->instrs.v[v]->ty; }
static bool is_view(Op op)
{
    return op == OP_BROADCAST || op == OP_EXPAND_DIMS || op == OP_RESHAPE || op == OP_TRANS;
}
/* Elements per thread group of a tile of n elements: the kernel's vector
 * width V, halved until it divides n. */
int cuda_vwidth(int V, int64_t n)
{
    while (V > 1 && n % V != 0)
        V >>= 1;
    return V;
}

/* Groups per thread of a tile of n elements in a block of T threads. */
int64_t cuda_groups(int T, int V, int64_t n)
{
    int64_t w = (int64_t)T * cuda_vwidth(V, n);
    return n > 0 ? (n + w - 1) / w : 1;
}

static int vwidth(const GE *e, int64_t n) { return cuda_vwidth(e->V, n); }
static int64_t groups(const GE *e, int64_t n) { return cuda_groups(e->T, e->V, n); }
static int64_t kcount(const GE *e, int64_t n) { return groups(e, n) * vwidth(e, n); }
/* Do a group's elements lie in one row (consecutive along the last dim)? */
static bool gvec(const GE *e, const TTy *t)
{
    int v = vwidth(e, tty_numel(t));
    return v > 1 && t->rank > 0 && t->dim[t->rank - 1] % v == 0;
}

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
    "/* 16- and 8-byte global stores; _m: ordered with the other memory accesses */\n"
    "TK_D void tk_st16(void *p, uint32_t a, uint32_t b, uint32_t c, uint32_t d)\n"
    "{ asm volatile(\"st.global.v4.b32 [%0], {%1, %2, %3, %4};\" :: \"l\"(p), \"r\"(a), \"r\"(b), \"r\"(c), \"r\"(d)); }\n"
    "TK_D void tk_st16_m(void *p, uint32_t a, uint32_t b, uint32_t c, uint32_t d)\n"
    "{ asm volatile(\"st.global.v4.b32 [%0], {%1, %2, %3, %4};\" :: \"l\"(p), \"r\"(a), \"r\"(b), \"r\"(c), \"r\"(d) : \"memory\"); }\n"
    "TK_D void tk_st8(void *p, uint32_t a, uint32_t b)\n"
    "{ asm volatile(\"st.global.v2.b32 [%0], {%1, %2};\" :: \"l\"(p), \"r\"(a), \"r\"(b)); }\n"
    "TK_D void tk_st8_m(void *p, uint32_t a, uint32_t b)\n"
    "{ asm volatile(\"st.global.v2.b32 [%0], {%1, %2};\" :: \"l\"(p), \"r\"(a), \"r\"(b) : \"memory\"); }\n"
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

/* The vector width V: 16 bytes of the narrowest tensor a tile is loaded
 * from or stored to, at most 8 elements.  Loads of tensors the kernel never
 * writes, at offsets and masks that are recomputed, may be read again at
 * any index (reload) instead of through shared memory. */
static void plan_vectors(GE *e)
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

/* A reshape from t to u that only adds or drops size-1 dims maps index
 * ix dim by dim. */
static bool squeeze(Idx *r, const Idx *ix, const TTy *t, const TTy *u)
{
    int d = 0;
    for (int s = 0; s < u->rank; s++) {
        if (u->dim[s] == 1) {
            r->d[s] = "0";
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
static int walk(GE *e, int v, Idx *ix)
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
                nx.d[d] = (ut->dim[d] == 1 && in->ty.dim[d] != 1) ? "0" : ix->d[d];
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
            if (!squeeze(&nx, ix, &in->ty, ut))
                nx = split_lin(e, join_lin(e, ix, &in->ty), ut, ix->ident);
            break;
        }
        *ix = nx;
        v = u;
    }
}

static char *operand(GE *e, int v, const TTy *lane, const Idx *ix);
static char *load_expr(GE *e, const Instr *in, char **x);

/* Load ld's value at its index ix, read again from memory. */
static char *load_at(GE *e, const Instr *ld, const Idx *ix)
{
    char *x[3] = { 0 };
    for (int j = 0; j < 3; j++)
        x[j] = operand(e, ld->args[j], &ld->ty, ix);
    return load_expr(e, ld, x);
}

/* The value of tile v at index ix, as an expression. */
static char *rd(GE *e, int v, Idx ix)
{
    v = walk(e, v, &ix);
    const Instr *in = I(e, v);
    if (in->ty.rank == 0)
        return scalar(e, v);
    if (in->op == OP_ARANGE)
        return S("((int32_t)(%lld + %s))", (long long)in->ival, ix.d[0]);
    if (e->recomp[v])
        return recompute(e, v, ix);
    if (ix.ident)
        return S("v%d[%s]", v, e->kx);
    if (e->reload[v])
        return load_at(e, in, &ix);
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
    if (e->pre[v])
        return S("tk_r%d[%s]", v, e->jx);
    return rd(e, v, align(ix, ty(e, v), lane));
}

/* ------------------------------------------------------------ lanes */

/* Index names: tk_i<d> = "tk_i0".., tk_gi<d> = "tk_gi0".. */
static void index_decl(GE *e, const TTy *t, const char *pre, const char *f)
{
    int64_t s = 1;
    Buf b = { .a = e->a };
    for (int d = t->rank - 1; d >= 0; s *= t->dim[d], d--) {
        if (d == 0)
            buf_printf(&b, "%s%s0 = %s / %lld", b.n ? ", " : "", pre, f, (long long)s);
        else
            buf_printf(&b, "%s%s%d = %s / %lld %% %lld", b.n ? ", " : "", pre, d, f, (long long)s,
                       (long long)t->dim[d]);
    }
    if (b.n)
        line(e, "const int %s;", b.s);
}

/* Open the unrolled loop over the thread's groups of a tile of shape t:
 * tk_q, tk_g (the group's first flat index) and, when the group lies in
 * one row, its index tk_gi*. */
static void open_group(GE *e, const TTy *t)
{
    int64_t n = tty_numel(t);
    int V = vwidth(e, n);
    line(e, "#pragma unroll");
    line(e, "for (int tk_q = 0; tk_q < %lld; tk_q++) {", (long long)groups(e, n));
    e->indent++;
    if (V > 1)
        line(e, "const int tk_g = (tk_q * %d + tk_tid) * %d;", e->T, V);
    else
        line(e, "const int tk_g = tk_q * %d + tk_tid;", e->T);
    if (n % ((int64_t)e->T * V) != 0) {
        line(e, "if (tk_g < %lld) {", (long long)n);
        e->indent++;
    }
    if (gvec(e, t))
        index_decl(e, t, "tk_gi", "tk_g");
}

static void close_group(GE *e, const TTy *t)
{
    int64_t n = tty_numel(t);
    if (n % ((int64_t)e->T * vwidth(e, n)) != 0) {
        e->indent--;
        line(e, "}");
    }
    e->indent--;
    line(e, "}");
}

/* Open the loop over the group's elements: tk_j, tk_k, tk_f, tk_i*. */
static void open_elem(GE *e, const TTy *t)
{
    int V = vwidth(e, tty_numel(t));
    if (V > 1) {
        line(e, "#pragma unroll");
        line(e, "for (int tk_j = 0; tk_j < %d; tk_j++) {", V);
        e->indent++;
        line(e, "const int tk_k = tk_q * %d + tk_j, tk_f = tk_g + tk_j;", V);
    } else {
        line(e, "{");
        e->indent++;
        line(e, "const int tk_j = 0, tk_k = tk_q, tk_f = tk_g;");
    }
    if (!gvec(e, t)) {
        index_decl(e, t, "tk_i", "tk_f");
        return;
    }
    Buf b = { .a = e->a };
    for (int d = 0; d < t->rank; d++)
        buf_printf(&b, "%stk_i%d = tk_gi%d%s", d ? ", " : "", d, d, d == t->rank - 1 ? " + tk_j" : "");
    line(e, "const int %s;", b.s);
}

static void close_elem(GE *e)
{
    e->indent--;
    line(e, "}");
}

/* The loops over a tile of shape t, one element at a time. */
static void open_lane(GE *e, const TTy *t)
{
    open_group(e, t);
    open_elem(e, t);
}

static void close_lane(GE *e, const TTy *t)
{
    close_elem(e);
    close_group(e, t);
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
    if ((op == OP_VAR_GET || op == OP_VAR_SET) && cuda_mma_var(&e->mma, in))
        return CL_BREAK;
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

/* The value a store writes, read at ix of lane shape L, and its dtype in
 * *vdt.  A float rounded to the tensor's f16/bf16 right before the store
 * is stored from the float: the conversion rounds the same way once. */
static char *store_value(GE *e, const Instr *in, const TTy *L, const Idx *ix, DType *vdt)
{
    DType tdt = e->ki->params[in->index].dt;
    int v = in->args[1];
    const Instr *c = I(e, v);
    if (c->op == OP_CAST && c->ty.rank > 0 && (tdt == DT_F16 || tdt == DT_BF16) && c->ty.dt == tdt
        && ty(e, c->args[0])->dt == DT_F32 && !e->pre[v]) {
        Idx cx = align(ix, &c->ty, L);
        *vdt = DT_F32;
        return operand(e, c->args[0], &c->ty, &cx);
    }
    *vdt = ty(e, v)->dt;
    return operand(e, v, L, ix);
}

static char *store_stmt(GE *e, const Instr *in, char **x, DType vdt)
{
    DType tdt = e->ki->params[in->index].dt;
    char *s = S("%s[%s] = %s;", tensor(e, in), x[0], cx_to_storage(e->a, x[1], vdt, tdt, "tk_"));
    return x[2] ? S("if (%s) %s", x[2], s) : s;
}

static void emit_lane(GE *e, const Instr *in, const TTy *L)
{
    Idx ix = lane_idx(L);
    char *x[3] = { 0 };
    DType vdt = DT_BOOL;
    e->cur = in->id;
    for (int j = 0; j < in->nargs; j++)
        x[j] = in->op == OP_STORE && j == 1 ? store_value(e, in, L, &ix, &vdt)
                                            : operand(e, in->args[j], L, &ix);
    char *val;
    switch (in->op) {
    case OP_STORE:
        line(e, "%s", store_stmt(e, in, x, vdt));
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

/* ------------------------------------------------------------ vectors */

/* A group's V elements lie in one row (gvec): loads and stores whose
 * offsets step by one along the group move them with 16-byte (or 8- or
 * 4-byte) accesses when, at run time, the group is aligned and wholly
 * unmasked; otherwise element by element.  Expressions for the group are
 * printed once with tokens for the element (its last index, register slot
 * and place in the group) and then copied per element. */

static const char tok_i[] = "tk_TOKI", tok_k[] = "tk_TOKK", tok_j[] = "tk_TOKJ";

enum { GK_UNI, GK_CONTIG, GK_OTHER };

/* The lane index of shape t in token form: the group's, last one tok_i. */
static Idx lane_tok(const TTy *t)
{
    static const char *const gv[TIR_MAXRANK] = { "tk_gi0", "tk_gi1", "tk_gi2", "tk_gi3" };
    Idx r = { .rank = t->rank, .ident = true };
    for (int d = 0; d < t->rank; d++)
        r.d[d] = d == t->rank - 1 ? tok_i : gv[d];
    return r;
}

static char *replace(GE *e, const char *s, const char *tok, const char *by)
{
    Buf b = { .a = e->a };
    size_t n = strlen(tok);
    for (const char *p; (p = strstr(s, tok)); s = p + n)
        buf_printf(&b, "%.*s%s", (int)(p - s), s, by);
    buf_puts(&b, s);
    return b.s ? b.s : "";
}

/* Token-form expression x for element j of a group of shape t. */
static char *subst(GE *e, const char *x, const TTy *t, int j)
{
    int V = vwidth(e, tty_numel(t));
    char *r = replace(e, x, tok_i, S("(tk_gi%d + %d)", t->rank - 1, j));
    r = replace(e, r, tok_k, S("(tk_q * %d + %d)", V, j));
    return replace(e, r, tok_j, S("%d", j));
}

/* How v, read at ix (token form), varies over a group: the same for every
 * element, one more per element, or otherwise. */
static int gkind(GE *e, int v, Idx ix)
{
    if (v <= 0 || ty(e, v)->rank == 0)
        return GK_UNI;
    v = walk(e, v, &ix);
    const Instr *in = I(e, v);
    if (in->ty.rank == 0)
        return GK_UNI;
    int ld = -1;
    for (int d = 0; d < ix.rank; d++) {
        if (ix.d[d] == tok_i) {
            if (ld >= 0)
                return GK_OTHER;
            ld = d;
        } else if (strstr(ix.d[d], tok_i)) {
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
            k[j] = gkind(e, u, align(&ix, ty(e, u), &in->ty));
        if (k[j] == GK_OTHER)
            return GK_OTHER;
        nc += k[j] == GK_CONTIG;
    }
    if (nc == 0)
        return GK_UNI;
    switch (in->op) {
    case OP_ADD:
        return nc == 1 ? GK_CONTIG : GK_OTHER;
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

/* "Bool tile m, read at mx (token form), holds for every element of the
 * group", as an expression. */
static char *all_true(GE *e, int m, Idx mx, const TTy *L)
{
    int V = vwidth(e, tty_numel(L));
    int k = gkind(e, m, mx);
    char *x = ty(e, m)->rank == 0 ? scalar(e, m) : rd(e, m, mx);
    if (k == GK_UNI)
        return subst(e, x, L, 0);
    Idx bx = mx;
    int b = walk(e, m, &bx);
    const Instr *bi = I(e, b);
    if (e->recomp[b] && bi->nargs == 2) {
        int u0 = bi->args[0], u1 = bi->args[1];
        Idx x0 = align(&bx, ty(e, u0), &bi->ty), x1 = align(&bx, ty(e, u1), &bi->ty);
        if (bi->op == OP_AND && bi->ty.dt == DT_BOOL)
            return S("(%s && %s)", all_true(e, u0, x0, L), all_true(e, u1, x1, L));
        int k0 = gkind(e, u0, x0), k1 = gkind(e, u1, x1);
        bool mono = (k0 == GK_CONTIG && k1 == GK_UNI) || (k0 == GK_UNI && k1 == GK_CONTIG);
        if (mono && (bi->op == OP_LT || bi->op == OP_LE || bi->op == OP_GT || bi->op == OP_GE))
            return S("(%s && %s)", subst(e, x, L, 0), subst(e, x, L, V - 1));
    }
    Buf o = { .a = e->a };
    for (int j = 0; j < V; j++)
        buf_printf(&o, "%s%s", j ? " && " : "(", subst(e, x, L, j));
    buf_putc(&o, ')');
    return o.s;
}

typedef struct Chunks { int s, cw, nc, epc; const char *ut; } Chunks;

/* How a group of V elements of tensor dtype dt moves: false when it cannot. */
static bool chunks(const GE *e, const TTy *L, DType dt, Chunks *c)
{
    int V = vwidth(e, tty_numel(L));
    c->s = dtype_info[dt].bits / 8;
    if (!gvec(e, L) || dt == DT_BOOL || V * c->s < 4)
        return false;
    c->cw = V * c->s < 16 ? V * c->s : 16;
    c->nc = V * c->s / c->cw;
    c->epc = c->cw / c->s;
    c->ut = c->cw == 16 ? "uint4" : c->cw == 8 ? "uint2" : "uint32_t";
    return true;
}

/* Word w (of 4 bytes) of chunk c. */
static char *word(GE *e, const Chunks *c, const char *pre, int j, int dw)
{
    int w = (j % c->epc) * c->s / 4 + dw;
    const char *f = c->cw == 16 ? (const char *[]){ ".x", ".y", ".z", ".w" }[w]
                  : c->cw == 8  ? (const char *[]){ ".x", ".y" }[w] : "";
    return S("%s%d%s", pre, j / c->epc, f);
}

/* Element j of the loaded chunks, in storage type. */
static char *unpack(GE *e, const Chunks *c, DType dt, int j)
{
    const char *st = cx_stype(dt);
    char *w = word(e, c, "tk_u", j, 0);
    int sh = (j % c->epc) * c->s % 4 * 8;
    switch (c->s) {
    case 1: return S("((%s)(uint8_t)(%s >> %d))", st, w, sh);
    case 2: return S("((%s)(uint16_t)(%s >> %d))", st, w, sh);
    case 4: return dt == DT_F32 ? S("__uint_as_float(%s)", w) : S("((%s)%s)", st, w);
    default: {
        char *u = S("((uint64_t)%s << 32 | %s)", word(e, c, "tk_u", j, 1), w);
        return dt == DT_F64 ? S("__longlong_as_double((long long)%s)", u) : S("((%s)%s)", st, u);
    }
    }
}

/* Word w of chunk ch from the storage values tk_s<j>. */
static char *pack(GE *e, const Chunks *c, DType dt, int ch, int w)
{
    int j0 = ch * c->epc + w * 4 / c->s;
    switch (c->s) {
    case 1:
        return S("((uint32_t)(uint8_t)tk_s%d | (uint32_t)(uint8_t)tk_s%d << 8 | "
                 "(uint32_t)(uint8_t)tk_s%d << 16 | (uint32_t)(uint8_t)tk_s%d << 24)",
                 j0, j0 + 1, j0 + 2, j0 + 3);
    case 2:
        return S("((uint32_t)(uint16_t)tk_s%d | (uint32_t)(uint16_t)tk_s%d << 16)", j0, j0 + 1);
    case 4:
        return dt == DT_F32 ? S("__float_as_uint(tk_s%d)", j0) : S("(uint32_t)tk_s%d", j0);
    default: {
        int j = ch * c->epc + w / 2;
        char *u = dt == DT_F64 ? S("(uint64_t)__double_as_longlong(tk_s%d)", j) : S("(uint64_t)tk_s%d", j);
        return w % 2 ? S("(uint32_t)(%s >> 32)", u) : S("(uint32_t)%s", u);
    }
    }
}

static void set_tokens(GE *e, bool on)
{
    e->kx = on ? tok_k : "tk_k";
    e->jx = on ? tok_j : "tk_j";
}

/* The vector form of load ld read at ix (token form, ld's index) in a run
 * of shape L, into dst[slot] (slot: tk_q * V + j when q, else j).  Prints
 * the fast path and opens its else branch for the caller's element-wise
 * fallback (closed by vclose); false, printing nothing, when the load has
 * no vector form. */
static bool vload_open(GE *e, const Instr *ld, Idx ix, const TTy *L, const char *dst, bool q)
{
    DType tdt = e->ki->params[ld->index].dt;
    int V = vwidth(e, tty_numel(L));
    Chunks c;
    int off = ld->args[0], m = ld->args[1];
    if (!chunks(e, L, tdt, &c) || gkind(e, off, align(&ix, ty(e, off), &ld->ty)) != GK_CONTIG)
        return false;
    set_tokens(e, true);
    char *o = subst(e, operand(e, off, &ld->ty, &ix), L, 0);
    char *ok = m > 0 ? all_true(e, m, align(&ix, ty(e, m), &ld->ty), L) : NULL;
    set_tokens(e, false);
    const char *p = tensor(e, ld);
    line(e, "{");
    e->indent++;
    line(e, "const int64_t tk_o = %s;", o);
    line(e, "if (%s%s((uint64_t)(%s + tk_o) & %d) == 0) {", ok ? ok : "", ok ? " && " : "", p, c.cw - 1);
    e->indent++;
    for (int i = 0; i < c.nc; i++)
        line(e, "const %s tk_u%d = *(const %s *)(%s + tk_o + %d);", c.ut, i, c.ut, p, i * c.epc);
    for (int j = 0; j < V; j++) {
        char *x = cx_conv(e->a, cx_from_storage(e->a, unpack(e, &c, tdt, j), tdt), tdt, ld->ty.dt, "tk_");
        if (q)
            line(e, "%s[tk_q * %d + %d] = %s;", dst, V, j, x);
        else
            line(e, "%s[%d] = %s;", dst, j, x);
    }
    e->indent--;
    line(e, "} else {");
    e->indent++;
    return true;
}

/* The vector form of store st in a run of shape L, as vload_open. */
static bool vstore_open(GE *e, const Instr *st, const TTy *L)
{
    DType tdt = e->ki->params[st->index].dt, vdt = DT_F32;
    int V = vwidth(e, tty_numel(L));
    Chunks c;
    int off = st->args[0], m = st->args[2];
    Idx ix = lane_tok(L);
    if (!chunks(e, L, tdt, &c) || gkind(e, off, align(&ix, ty(e, off), L)) != GK_CONTIG)
        return false;
    set_tokens(e, true);
    char *o = subst(e, operand(e, off, L, &ix), L, 0);
    char *ok = m > 0 ? all_true(e, m, align(&ix, ty(e, m), L), L) : NULL;
    char *x = store_value(e, st, L, &ix, &vdt);
    x = cx_to_storage(e->a, x, vdt, tdt, "tk_");
    set_tokens(e, false);
    const char *p = tensor(e, st);
    line(e, "{");
    e->indent++;
    line(e, "const int64_t tk_o = %s;", o);
    line(e, "if (%s%s((uint64_t)(%s + tk_o) & %d) == 0) {", ok ? ok : "", ok ? " && " : "", p, c.cw - 1);
    e->indent++;
    for (int j = 0; j < V; j++)
        line(e, "const %s tk_s%d = %s;", cx_stype(tdt), j, subst(e, x, L, j));
    /* Stores through asm stay 16 bytes wide; when the kernel also loads
     * this tensor they are ordered with the other memory accesses. */
    bool rd_too = false;
    for (int v = 1; v < e->n; v++)
        rd_too |= I(e, v)->op == OP_LOAD && I(e, v)->index == st->index && e->live[v];
    const char *m_ = rd_too ? "_m" : "";
    for (int i = 0; i < c.nc; i++) {
        char *dst = S("(%s + tk_o + %d)", p, i * c.epc);
        if (c.cw == 16)
            line(e, "tk_st16%s(%s, %s, %s, %s, %s);", m_, dst, pack(e, &c, tdt, i, 0),
                 pack(e, &c, tdt, i, 1), pack(e, &c, tdt, i, 2), pack(e, &c, tdt, i, 3));
        else if (c.cw == 8)
            line(e, "tk_st8%s(%s, %s, %s);", m_, dst, pack(e, &c, tdt, i, 0), pack(e, &c, tdt, i, 1));
        else
            line(e, "*(uint32_t *)%s = %s;", dst, pack(e, &c, tdt, i, 0));
    }
    e->indent--;
    line(e, "} else {");
    e->indent++;
    return true;
}

static void vclose(GE *e)
{
    e->indent--;
    line(e, "}");
    e->indent--;
    line(e, "}");
}

/* Operand a of a run of shape L that reads a reloadable load at another
 * mapping than its own (a broadcast bias row, say): rather than through
 * shared memory, each group loads what it needs into tk_r<a>[V] first. */
static bool pre_ok(GE *e, int a, const TTy *L)
{
    if (a <= 0 || ty(e, a)->rank == 0 || e->pre[a])
        return false;
    Idx ix = lane_idx(L);
    ix = align(&ix, ty(e, a), L);
    int b = walk(e, a, &ix);
    return ty(e, b)->rank > 0 && e->reload[b] && !ix.ident;
}

static void emit_pre(GE *e, int a, const TTy *L)
{
    Idx ix = lane_idx(L);
    ix = align(&ix, ty(e, a), L);
    const Instr *ld = I(e, walk(e, a, &ix));
    int V = vwidth(e, tty_numel(L));
    bool vec = false;
    line(e, "%s tk_r%d[%d];", cx_ctype(ld->ty.dt), a, V);
    if (gvec(e, L)) {
        Idx tx = lane_tok(L);
        tx = align(&tx, ty(e, a), L);
        walk(e, a, &tx);
        vec = vload_open(e, ld, tx, L, S("tk_r%d", a), false);
    }
    open_elem(e, L);
    line(e, "tk_r%d[tk_j] = %s;", a, load_at(e, ld, &ix));
    close_elem(e);
    if (vec)
        vclose(e);
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
        bool vec = m->op == OP_LOAD ? vload_open(e, m, lane_tok(L), L, S("v%d", m->id), true)
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

/* mma.c's callbacks (CudaMma) */
static char *mma_at(void *g, int v, const char *i0, const char *i1, bool own)
{
    return rd(g, v, (Idx){ .rank = 2, .d = { i0, i1 }, .ident = own });
}
static void mma_put(void *g, const char *text) { line(g, "%s", text); }

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
        if (!cuda_mma_dot(&e->mma, in))
            emit_dot(e, in);
        write_shared(e, in->id);
        break;
    case OP_VAR_GET: case OP_VAR_SET:     /* of a var in the MMA fragment layout */
        cuda_mma_var_op(&e->mma, in);
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
            line(e, "%s", store_stmt(e, in, x, ty(e, in->args[1])->dt));
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
    if (e->k->warps > 0)          /* @launch or an autotune variant */
        return 32 * e->k->warps;
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
    e.reload = arena_alloc(e.a, (size_t)n);
    e.pre = arena_alloc(e.a, sizeof(int) * (size_t)n);
    e.kx = "tk_k";
    e.jx = "tk_j";
    int p = 0;
    number(&e, k->body, &p);
    live_block(&e, k->body);
    plan_recomp(&e);
    plan_vectors(&e);
    e.T = pick_threads(&e);
    e.mma = (CudaMma){ .k = k, .a = e.a, .T = e.T, .V = e.V, .live = e.live, .ge = &e,
                       .at = mma_at, .put = mma_put };
    cuda_mma_plan(&e.mma);
    /* pass 1: plan into a scratch buffer */
    Buf scratch = { .a = e.a };
    e.o = &scratch;
    e.plan = true;
    emit_kernel(&e);
    if (!e.ok)
        return false;
    plan_smem(&e);
    e.mma.off = e.smem;       /* the MMA staging region goes last */
    e.smem += e.mma.need;
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
