/*
 * lower/gpu_mma.c — dot on tensor cores: mma.sync m16n8k16.
 *
 * A DOT a[M,K] x b[K,N] (+ acc[M,N]) with both operands f16 or both bf16
 * and an f32 result runs on mma.sync (f32 accumulation) when M and N are
 * multiples of 16 (times the warp grid) and K of 16:
 *
 *   - The operands are written as 16-bit values into a staging region of
 *     shared memory that lies after gpu.c's buffers: A as [M][K + 8], B as
 *     [K][N + 8].  The 16 bytes of padding per row put the eight rows that
 *     one ldmatrix phase reads in eight different bank groups.  gpu.c says
 *     where each element comes from (the operand's own registers, a reload,
 *     its shared buffer), so any operand works; a group of a tile's own
 *     registers lying in one row goes in one 16-byte store.
 *   - The W = T/32 warps tile [M, N] as WM x WN (the squarest split); a
 *     warp's TM x TN piece is MI x NI fragments of 16 x 8.  Per 16-wide step
 *     of K a warp loads A with ldmatrix.x4 (one 16 x 16 block per mi) and B,
 *     row-major [K, N], with ldmatrix.x4.trans (two 16 x 8 blocks per load).
 *   - Thread l of warp w holds element c (0..3) of fragment (mi, ni) in slot
 *     (mi * NI + ni) * 4 + c: row (w % WM) * TM + mi * 16 + l / 4 + 8 * (c / 2),
 *     column (w / WM) * TN + ni * 8 + 2 * (l % 4) + c % 2 (PTX's layout of the
 *     m16n8 accumulator).
 *
 * The accumulator: a var updated in place (VAR_GET -> DOT -> VAR_SET, each
 * the next one's only use, nothing else touching the var in between) lives
 * in that fragment layout in registers across loop iterations, so a K loop
 * only stages operands and issues MMAs.  The var's other writes (the zeros
 * before the loop) fill the fragments element by element; its other reads
 * (the epilogue after the loop) stay in the fragments (gpu.c, frag_epi),
 * or with TKC_FRAG_EPI=0 convert to gpu.c's block layout through the
 * staging region once.
 *
 * Any other DOT leaves its result in the fragments (gpu.c's GL_FRAG
 * layout: what follows may stay there) and takes its acc operand from
 * fragments of the same grid by copy (acc_init), else reads it at each
 * slot's index.  Its A operand comes straight from registers when it is a
 * GL_FRAG tile of a WN = 1 grid over the same rows (frag_a: flash
 * attention's p); when it is defined outside the loop around the dot it is
 * staged once into a resident region after the staging region
 * (plan_resident: attention's q).  A B operand trans(x) is staged as x,
 * rows of K, and loaded with ldmatrix without .trans (ldsm_bt: attention's
 * k, whose rows are contiguous in memory).
 *
 * On sm_90a a pipelined K loop's dot runs on wgmma instead, its stages in
 * wgmma's swizzled layouts (gpu_wgmma.c); the pipeline below then copies
 * S - 2 iterations ahead and keeps one group of MMAs in flight.  So do the
 * other dots whose warp grid gives each warpgroup 64 whole rows (flash
 * attention's; "single dots on wgmma" at the end).
 *
 * Two more operand kinds run on mma.sync (not on wgmma), staged and
 * pipelined the same way with their own element size (struct Kind):
 *
 *   - tf32: f32 operands of a dot written with allow_tf32 (TIR: DOT ival),
 *     f32 result, K a multiple of 8: m16n8k8.  Staged as f32; A's fragments
 *     by ldmatrix.x4 (the 16 x 8 tile of 32-bit values is, byte for byte,
 *     the 16 x 16 one of 16-bit values: thread l gets row l / 4, word l % 4
 *     of each 8 x 4 block, PTX's tf32 A layout), B's by 32-bit shared loads
 *     (ldmatrix cannot transpose 32-bit values), both rounded with
 *     PA_CVT_TF32 (to nearest, ties to even) before the MMA.  B rows are padded by 32 bytes so
 *     that a warp's loads (rows k + l % 4, columns n + l / 4) hit 32 banks.
 *   - s8: i8 operands, i32 result, K a multiple of 32: m16n8k32 with i32
 *     accumulators (exact).  A by ldmatrix.x4 likewise (16 x 32 bytes),
 *     B's words of 4 bytes along k from 4 byte loads.
 *
 * A B operand trans(x) of either kind is staged as x's rows of K and
 * loaded with ldmatrix (ldsm_bt), which gives B's layout directly.
 *
 * On sm_90a a pipelined K loop of s8 (and with TKC_WG_DTYPE=3 of tf32)
 * runs on wgmma too: the same stages, B rewritten K-major before the MMAs
 * (gpu_wgdt.c; GpuPipe.bt).
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_mm.h"

#define PAD 8          /* elements of padding per staged 16-bit row: 16 bytes */
#define PIPE_MAX (160 * 1024)  /* bytes: a pipeline's stages at most (sm_80 has 163 KB) */
#define PIPE_STAGES 3  /* the default */
#define WG_PIPE_MAX (200 * 1024)  /* with wgmma (sm_90a: 227 KB) */
#define WG_STAGES 4    /* the default with wgmma: 2 iterations ahead, 1 in flight */
#define OPAD 8         /* floats of padding per row of the f32 conversion area */
#define KEY_LOADS 8    /* loads one key loop's pipeline copies at most (sdpa_relpos_bf16's four short key rows: a k and a v each) */
#define KEY_STAGES 2   /* its default stages */
#define KEY_MB_STAGES 3 /* with TKC_KEY_MBAR=1: 1 iteration ahead, 1 of slack */

typedef GpuGrid Grid;

/* A pipelined K loop (see "pipelined K loops" below). */
typedef struct GpuPipe {
    int dot, lv;               /* the DOT, the loop counter */
    int S;                     /* stages */
    int64_t stage, offb;       /* bytes per stage; B's offset in one */
    PirTy t;                   /* the counter's type */
    PirExpr *step;
    PirLocal *lo;              /* the counter's first value */
    bool late;                 /* the dot issues the copies after its first k step's MMAs */
    PirLocal *cur, *rs;        /* this iteration's stage, the next one's (I32) */
    PirLocal *it, *n;          /* the iteration, the trip count (I64) */
    /* A key loop's pipeline (dot = 0, see "pipelined key loops"): the loads
     * it copies, their byte offsets in a stage, and where its stages begin
     * in the early region. */
    int nld, ld[KEY_LOADS];
    int64_t ldoff[KEY_LOADS], base;
    int64_t lde[KEY_LOADS];    /* a load's stage in wgmma's swizzled layout: its width, else 0 */
    /* the loads as strided rank-4 tiles TMA can move (gpu_tma_match4;
     * kok: matched), their PP_TMAP params (key_tma_plan: tma set) */
    GpuTma4 kt[KEY_LOADS];
    bool kok[KEY_LOADS];
    int kmap[KEY_LOADS];
    bool swz;                  /* some are: stages 1024-aligned, proxy fence at the head */
    int ahead;                 /* iterations copied ahead: S - 1, or S - 2 with wgmma in flight */
    int inflight;              /* wgmma: groups left in flight after the dot (0, 1) */
    int64_t ea, eb;            /* wgmma: the operands' swizzle widths (gpu_wgmma.c); 0: mma.sync */
    int64_t bt;                /* wgmma on tf32, s8 (gpu_wgdt.c): bytes of one of the two
                                * K-major B buffers after the stages; else 0 */
    int bl;                    /* the load B's stage is copied from: the dot's B, or x of
                                * B = trans(x) (bk) */
    bool bk;                   /* tf32 on wgmma, B = trans(x) with x [N, K]: x staged
                                * K-major like A, no rewrite (gpu_wgdt.c, "K-major B") */
    int al;                    /* the load A's stage is copied from: the dot's A, or y of
                                * A = trans(y) (an) */
    bool an;                   /* ... and A = trans(y) with y [K, M] (bk too): y staged
                                * N-major like a 16-bit B, A's fragments loaded from it
                                * into registers (gpu_wgdt.c, "N-major A") */
    bool pr;                   /* ... with ws: rounded by the producer's warps 1-3, which
                                * arrive on S "ready" mbarriers after the empty ones */
    bool tr;                   /* ... both copied by TMA maps of data type TFLOAT32, which
                                * round as they copy: none rounded in place
                                * (gpu_wgdt_tmaround) */
    PirLocal *acc;             /* wgmma: the accumulators, for the wait after the loop */
    int nacc;
    /* wgmma with TMA (gpu_tma.c): the operands' loads, their PP_TMAP params,
     * the byte offset of the S mbarriers in the barrier region, their phase
     * bits (bit s: the parity of stage s's next phase) */
    bool tma;
    GpuTma ta, tb;
    int map[2];
    int64_t bar;
    PirLocal *ph;
    /* warp-specialized (see "warp specialization"): the S "empty" mbarriers
     * follow the S "full" ones; the consumers' stage of the iteration before
     * (-1: none), the producer's parity bits of the empty mbarriers */
    bool ws;
    PirLocal *prev, *pe;
    /* a key loop's pipeline synchronized by mbarriers (see "pipelined key
     * loops"): S "full" ones at bar, S "empty" ones after them, and the
     * parity bits of the next phase each thread waits for (bit s: stage s) */
    bool mb;
    PirLocal *fph, *eph;
    /* lb_plan: the TMA version's stages reused after the wait for the
     * MMAs of the iteration before (a block barrier there), S - 1 ahead */
    bool lb;
    /* with mb and two warpgroups, TKC_PINGPONG=1: the loop's first and last
     * single wgmma dots (instr ids; 0: none) bracket a warpgroup's MMAs,
     * ordered between the warpgroups by named barriers (see "ping-pong") */
    int pp_first, pp_last;
    /* ping-pong consumers (TKC_MM_PP): the phase bits one K loop flips */
    PirLocal *sk;
    /* a key loop's TMA pipeline fed by a producer warpgroup (TKC_KEY_WS=1,
     * "warp-specialized key loops"): kw, its index in GpuMma.kw */
    bool kw;
    int kwi;
    bool kwe;                  /* TKC_KEY_WS=2: each load released right after its dot's wait */
    bool kwh;                  /* TKC_KW_HEAD=1: the consumers wait for every load at the head (kw_head) */
    /* TKC_WG_BACKDEFER (bd_plan): the loop's last dot (0: none), its
     * VAR_SET, its accumulators (declared before the loop, set to the
     * var's value there) and their number */
    int bd, bd_first, bd_set, bd_nacc;  /* (bd_first: the loop's first dot, whose wait covers it) */
    PirLocal *bd_acc;
    int li;                    /* TKC_KEY_LATE (li_plan): the dot after whose commit the
                                * head's barrier and copies come, or 0 */
} GpuPipe;

static PirExpr *kw_full(GpuMma *m, GpuPipe *p, int i, PirExpr *slot);
static PirExpr *kw_empty(GpuMma *m, GpuPipe *p, PirExpr *slot);
static void kw_wait(GpuMma *m, GpuPipe *p, int i);

/* What an operand dtype takes on mma.sync: element bytes, k per MMA, the
 * padding (elements) of a staged row of K (A, and B = trans(x) staged as
 * x) and of a staged row of N (B), the MMA and the accumulator type. */
typedef struct Kind {
    DType dt;
    int es, kstep;
    int64_t pa, pb;
    PirAsmOp mma;
    PirTy acc;
} Kind;

static Kind kind_of(DType dt)
{
    switch (dt) {
    case DT_F32: return (Kind){ dt, 4, 8, 4, 8, PA_MMA_TF32, PT_F32 };
    case DT_I8:  return (Kind){ dt, 1, 32, 16, 16, PA_MMA_S8, PT_I32 };
    default:     return (Kind){ dt, 2, 16, PAD, PAD, dt == DT_BF16 ? PA_MMA_BF16 : PA_MMA_F16, PT_F32 };
    }
}

/* The loops over a thread's slots (open_frag, open_block). */
typedef struct Slots { PirExpr *k, *i0, *i1; int depth; } Slots;



/* for (c = 0; c < n; c++), unrolled; the body is current. */
static PirExpr *loop(GpuMma *m, const char *hint, int64_t n, int64_t step, bool unroll)
{
    PirLocal *c = pir_local(F, hint, PT_I32, 0);
    PirStmt *s = pir_for(F, CUR, c, ci(m, 0), ci(m, n), ci(m, step), unroll);
    s->next = add(m, ref(m, c), ci(m, step));
    gpu_push(m->e, s->body);
    return ref(m, c);
}

static void scope(GpuMma *m)
{
    PirStmt *s = pir_stmt(F, CUR, PS_BLOCK);
    s->body = pir_block(F);
    gpu_push(m->e, s->body);
}

static void close_n(GpuMma *m, int n)
{
    while (n-- > 0)
        gpu_pop(m->e);
}

/* The squarest warp grid over [M, N] with 16 x 16 per warp at least; with
 * m->rows, WN = 1 where it fits (a warp owns whole rows: row reductions
 * stay within a quad, and the grids of [M, *] dots agree). */
static bool grid_of(const GpuMma *m, int64_t M, int64_t N, Grid *g)
{
    int W = m->T / 32;
    int64_t best = -1;
    if (M <= 0 || N <= 0 || M % 16 || N % 16)
        return false;
    bool rows = m->rows && M % (16 * W) == 0;
    for (int wm = 1; wm <= W; wm++) {
        int wn = W / wm;
        if (W % wm || M % (16 * wm) || N % (16 * wn) || (rows && wn != 1))
            continue;
        int64_t cost = M / wm / 16 + N / wn / 16;      /* ldmatrix per 16 of K */
        if (best < 0 || cost < best) {
            best = cost;
            *g = (Grid){ .M = M, .N = N, .WM = wm, .WN = wn, .TM = M / wm, .TN = N / wn,
                         .MI = (int)(M / wm / 16), .NI = (int)(N / wn / 8) };
        }
    }
    return best >= 0 && g->MI * g->NI <= 64;
}

static int vwidth(const GpuMma *m, int64_t n) { return gpu_vwidth(m->V, n); }
static int64_t groups(const GpuMma *m, int64_t n) { return gpu_groups(m->T, m->V, n); }

static bool half_dt(DType dt) { return dt == DT_F16 || dt == DT_BF16; }

/* Operands and result of dot `in` that mma.sync takes: 16-bit -> f32,
 * f32 with allow_tf32 -> f32, i8 -> i32. */
static bool dot_dtypes(const Instr *in, DType a, DType b)
{
    if (a != b)
        return false;
    if (half_dt(a) || (a == DT_F32 && in->ival))
        return in->ty.dt == DT_F32;
    return a == DT_I8 && in->ty.dt == DT_I32;
}

static bool dot_fits(const GpuMma *m, const Instr *in, Grid *g)
{
    const TTy *t = &in->ty, *ta = ty(m, in->args[0]), *tb = ty(m, in->args[1]);
    if (t->rank != 2 || ta->rank != 2 || tb->rank != 2 || !dot_dtypes(in, ta->dt, tb->dt)
        || ta->dim[1] % kind_of(ta->dt).kstep || ta->dim[1] <= 0)
        return false;
    if (in->args[2] > 0 && ty(m, in->args[2])->dt != t->dt)
        return false;
    if ((m->wg && m->wg[in->id]) || (m->n8 && m->n8[in->id]))
        return gpu_wg_grid(m, t->dim[0], t->dim[1], g);
    return grid_of(m, t->dim[0], t->dim[1], g);
}

/* A dot whose N is a multiple of 8 but not of 16 fits wgmma (n in steps of
 * 8) but not mma.sync's grid (ldmatrix takes B 16 columns at a time): on
 * sm_90a it is planned as a wgmma dot (m->n8) and dropped from the tensor
 * cores if its K loop does not become a wgmma pipeline (plan_dot).  Tiles
 * of 8-multiples let a transposed few-rows tile round M / 2 up to 8 rather
 * than 16, as cuBLAS's (h200-s24-f1.log: 170 rows, 128 x 88 tiles).  May
 * dot `in` be such a dot?  (dot_fits, with m->n8 set, then checks the rest:
 * operand types, K, gpu_wg_grid.) */
static bool n8_fits(const GpuMma *m, const Instr *in)
{
    const TTy *t = &in->ty;
    return m->k->wgmma && tkc_knob("TKC_WG_N8", 1) && t->rank == 2 && t->dim[1] % 16 == 8
           && half_dt(ty(m, in->args[0])->dt);
}

/* The grid of var x's fragments: its dot's. */
static bool var_grid(const GpuMma *m, int x, Grid *g)
{
    const TTy *vt = &m->k->vars.v[x].ty;
    if (m->wg_var && m->wg_var[x])
        return gpu_wg_grid(m, vt->dim[0], vt->dim[1], g);
    return grid_of(m, vt->dim[0], vt->dim[1], g);
}

/* Between the VAR_GET g and the VAR_SET s of one block, nothing else
 * touches var x and no control flow hides such an access. */
static bool quiet_between(const GpuMma *m, const Instr *g, const Instr *s, int x)
{
    const TBlock *b = g->parent;
    int i = 0;
    while (i < b->ins.n && b->ins.v[i] != g->id)
        i++;
    for (i++; i < b->ins.n && b->ins.v[i] != s->id; i++) {
        const Instr *in = I(m, b->ins.v[i]);
        if (in->blocks[0] || in->blocks[1] || ((in->op == OP_VAR_GET || in->op == OP_VAR_SET) && in->index == x))
            return false;
    }
    return i < b->ins.n;
}

static void plan_pipe(GpuMma *m, const Instr *in, const int *uses);
static struct GpuPipe *pipe_of(const GpuMma *m, const Instr *dot);
/* The innermost loop around instruction in (NULL: none). */
static bool inside(const Instr *in, const Instr *loop)
{
    for (const TBlock *b = in->parent; b && b->owner; b = b->owner->parent)
        if (b->owner == loop)
            return true;
    return false;
}

/* A swizzled tile of bytes bytes in the resident or early region whose
 * running size is *need: its offset there.  Such tiles start 1024-aligned;
 * with each at a multiple of 1024 from an aligned start (gpu.c aligns
 * m->lead where m->swz, and early_at the early region) none needs 1024
 * bytes of slack of its own, which once cost sdpa_relpos_bf16's 128 x 128
 * blocks the second block an SM (118.8 KB; TKC_SWZ_SLACK=1 the old way). */
static int64_t swz_place(GpuMma *m, int64_t *need, int64_t bytes)
{
    if (tkc_knob("TKC_SWZ_SLACK", 0)) {
        int64_t at = *need;
        *need += bytes + 1024;
        return at;
    }
    m->swz = true;
    int64_t at = al1k(*need);
    *need = at + al1k(bytes);
    return at;
}

/* bytes more in the early region, a swizzled area (swz) through
 * swz_place: their offset there. */
static int64_t early_place(GpuMma *m, bool swz, int64_t bytes)
{
    if (swz)
        return swz_place(m, &m->early_need, bytes);
    int64_t at = m->early_need;
    m->early_need += bytes;
    return at;
}

/* The early region's offset from lead: after the resident one, 1024-aligned
 * where swizzled tiles are laid out without slack. */
static int64_t early_off(const GpuMma *m)
{
    return m->swz ? al1k(m->res_need) : m->res_need;
}

/* The A operand of a dot in a loop, defined outside that loop (flash
 * attention's q): staged once after its definition into a region of its
 * own instead of in every iteration, so it does not stay in registers. */
static void plan_resident(GpuMma *m, const Instr *in, int64_t E)
{
    int a = in->args[0];
    const Instr *lp = tir_loop_of(in), *ai = I(m, a);
    if (!lp || inside(ai, lp) || ai->ty.rank != 2 || ai->op == OP_BROADCAST
        || ai->op == OP_RESHAPE || ai->op == OP_TRANS || ai->op == OP_EXPAND_DIMS || m->res[a] >= 0)
        return;
    const TTy *t = ty(m, a);
    Kind kd = kind_of(t->dt);
    m->res_e[a] = E;
    if (E) {
        m->res[a] = swz_place(m, &m->res_need, t->dim[0] * t->dim[1] * 2);
        return;
    }
    m->res[a] = m->res_need;
    m->res_need += (t->dim[0] * (t->dim[1] + kd.pa) * kd.es + 127) / 128 * 128;
}

/* Resident operand v's byte offset in shared memory (final in the second
 * pass). */
static int64_t res_at(const GpuMma *m, int v)
{
    int64_t at = m->lead + m->res[v];
    return m->res_e[v] ? al1k(at) : at;
}

static bool wgd_plan(const GpuMma *m, const Instr *in);

/* TKC_LOGS=perf_hints: a dot left to FMA only because its tile gives each
 * of the block's warps less than 16 x 16 (e.g. [16, 64] on 8 warps: 30-100x
 * slower on an H100) says how many warps keep it on tensor cores. */
static void fewer_warps_hint(const GpuMma *m, const Instr *in)
{
    GpuMma fewer = *m;
    fewer.wg = NULL;
    for (fewer.T = m->T / 2; fewer.T >= 32; fewer.T /= 2) {
        Grid g;
        if (!dot_fits(&fewer, in, &g))
            continue;
        int line = 0, col = 0;
        span_linecol(in->span, &line, &col);
        tir_log("perf_hints", "%s:%d:%d: %s: this dot [%lld, %lld] runs on FMA: %d warps get under 16 x 16 "
                "of it each; warps = %d (@launch or -D) puts it on tensor cores",
                in->span.src ? in->span.src->path : "?", line, col, m->k->name, (long long)in->ty.dim[0],
                (long long)in->ty.dim[1], m->T / 32, fewer.T / 32);
        return;
    }
}

/* Single wgmma dots chained through the accumulator, d = dot(a2, b2,
 * dot(a1, b1)) with the inner dot's result read by nothing else, both in
 * one block with no control flow between them (sdpa_relpos_bf16's q k^T
 * then rel_w times an identity): the inner dot's MMAs are not waited for;
 * the outer one's follow on the same accumulators and one wait covers both
 * groups.  TKC_WG_CHAIN=0: each waited for on its own. */
static void plan_chain(GpuMma *m, const int *uses)
{
    if (!tkc_knob("TKC_WG_CHAIN", 1))
        return;
    for (int u = 1; u < m->k->instrs.n; u++) {
        const Instr *in = I(m, u);
        int v = in->op == OP_DOT && m->wgd[u] && m->live[u] ? in->args[2] : 0;
        if (v <= 0 || I(m, v)->op != OP_DOT || !m->wgd[v] || !m->live[v] || uses[v] != 1
            || m->fused[u] || m->fused[v] || I(m, v)->parent != in->parent)
            continue;
        const TBlock *b = in->parent;
        int iv = -1, iu = -1;
        for (int i = 0; i < b->ins.n; i++) {
            if (b->ins.v[i] == v)
                iv = i;
            if (b->ins.v[i] == u)
                iu = i;
        }
        bool flat = iv >= 0 && iu > iv;
        for (int i = iv + 1; flat && i < iu; i++) {
            const Instr *x = I(m, b->ins.v[i]);
            flat = !x->blocks[0] && !x->blocks[1] && !(x->op == OP_DOT && m->on[x->id]);
        }
        if (flat)
            m->chain[v] = u;
    }
}

/* Two single wgmma dots of one block, u and then w, with nothing from u
 * to w reading u's result (w included) and no control flow or other dot
 * on tensor cores between them (sdpa_tc's key loop at D >= 128: s = q
 * k_n^T, then acc = dot(p, v_{n-1}, acc * alpha)): u's MMAs are not waited
 * for after its commit but after w's, with wait_group 1 (groups complete in
 * order), and then w's own wait 0.  The tensor cores run the two groups
 * back to back, and what comes between them (p's conversion to 16 bits,
 * acc's rescale, w's descriptors) runs while u's MMAs do, as in
 * FlashAttention-3's intra-warpgroup pipelining (S of the next block and
 * P V of the current one both issued before the softmax).  Used where the
 * warpgroups take turns (fa3_plan) or with TKC_WG_PAIR=1; elsewhere
 * ptxas places the waits itself (SASS of the base
 * code: q k^T waited for before p v's HGMMAs, the softmax's MUFU.EX2 among
 * them); H100 sdpa_bf16 D=128 476.5 vs 468.7 TFLOP/s, causal 379.8 vs
 * 375.8 (doc/bench/h100-s9-s9-attn-1.log), within the noise.  Tried in
 * session 17 (SASS only, not kept): w's wait 0 put after the softmax in
 * the PTX (w's var set held until it, p's conversion after it; also with p
 * carried in f32 and converted at w, and with the wait predicated on the
 * row sum): ptxas still issues WARPGROUP.DEPBAR.LE gsb0 0 right after the
 * row maximum, before the exponentials, so the softmax never overlaps w's
 * MMAs within a warpgroup; only the other warpgroup's turn does.  Session
 * 19 made it happen and measured it slower: w's wait deferred to the
 * source's `acc = pv` after the softmax, and w's A words (p's registers)
 * read once more right before that wait by stores under a test that never
 * holds (program id < 0), so that ptxas builds the next p in other
 * registers; with both (and only with both: the read alone, or the wait
 * alone, left the DEPBAR where it was) the SASS has DEPBAR.LE 0 after the
 * exponentials.  H100, B=4 H=16 S=T=4096 D=128, 12 interleaved rounds:
 * 528.4 vs 563.5 TFLOP/s, causal 460.0 vs 479.0 (cuDNN 636.6 / 525.9;
 * doc/bench/h100-s19-e4.log): 32 more moves a block (p's registers
 * rotate) and the two warpgroups' turns already hide the softmax. */
/* Is single wgmma dot v the outer dot of a chain (plan_chain)? */
static bool chain_outer(const GpuMma *m, int v)
{
    for (int u = 1; u < m->k->instrs.n; u++)
        if (m->chain[u] == v)
            return true;
    return false;
}

static void plan_pair(GpuMma *m)
{
    int n = m->k->instrs.n;
    for (int u = 1; u < n; u++) {
        const Instr *in = I(m, u);
        if (in->op != OP_DOT || !m->wgd[u] || !m->live[u] || m->fused[u] || m->chain[u])
            continue;
        const TBlock *b = in->parent;
        int iu = -1;
        for (int i = 0; i < b->ins.n && iu < 0; i++)
            if (b->ins.v[i] == u)
                iu = i;
        for (int i = iu + 1; iu >= 0 && i < b->ins.n; i++) {
            const Instr *x = I(m, b->ins.v[i]);
            bool reads = false;
            for (int j = 0; j < x->nargs; j++)
                reads |= x->args[j] == u;
            if (reads || x->blocks[0] || x->blocks[1])
                break;
            if (x->op != OP_DOT || !m->on[x->id])
                continue;
            /* (the outer dot of a chain: its group is two) */
            if (m->wgd[x->id] && m->live[x->id] && !m->chain[x->id] && !chain_outer(m, x->id))
                m->pair[u] = x->id;
            break;
        }
    }
}

/* Dot v on tensor cores (m->on) where it fits; an accumulating dot in a
 * loop (acc += dot(..), acc a var) also fused with its var and pipelined.
 * A dot of N % 16 == 8 (m->n8) stays only if it became a wgmma pipeline. */
static void plan_dot(GpuMma *m, int v, const int *uses)
{
    TirKernel *k = m->k;
    const Instr *in = I(m, v);
    Grid g;
    bool n8 = false;
    if (!dot_fits(m, in, &g)) {
        n8 = m->n8[v] = n8_fits(m, in);
        if (!n8 || !dot_fits(m, in, &g)) {
            m->n8[v] = false;
            fewer_warps_hint(m, in);
            return;
        }
        m->n8[v] = false;               /* until its K loop below is on wgmma */
    }
    m->on[v] = !n8;
    m->wgd[v] = !n8 && wgd_plan(m, in);   /* unless its K loop is pipelined: below */
    if (tkc_knob("TKC_MMA_RES", 1) && !n8)
        plan_resident(m, in, m->wgd[v] ? gpu_wg_width(ty(m, in->args[0])->dim[1]) : 0);
    int gv = in->args[2];
    const Instr *gi = gv > 0 ? I(m, gv) : NULL;
    if (!gi || gi->op != OP_VAR_GET || uses[gv] != 1 || uses[v] != 1 || gi->parent != in->parent)
        return;
    int x = gi->index;
    const TBlock *b = in->parent;
    const Instr *s = NULL;
    for (int i = 0; i < b->ins.n && !s; i++) {
        const Instr *c = I(m, b->ins.v[i]);
        if (c->op == OP_VAR_SET && c->args[0] == v && c->index == x)
            s = c;
    }
    const TTy *vt = &k->vars.v[x].ty;
    int64_t cnt = vt->dim[0] * vt->dim[1];
    /* the var's registers (its block layout's) hold the fragments: as many
     * (an N % 16 == 8 tile's block layout may have more: 44 of 48) */
    int64_t regs = groups(m, cnt) * vwidth(m, cnt);
    if (!s || !tty_eq(vt, &in->ty) || !quiet_between(m, gi, s, x) || cnt % m->T
        || (n8 ? cnt / m->T > regs : cnt / m->T != regs))
        return;
    m->n8[v] = n8;
    m->on[v] = true;
    m->fused[gv] = m->fused[v] = m->fused[s->id] = true;
    m->frag_var[x] = true;
    plan_pipe(m, in, uses);
    if (n8 && !m->wg[v]) {
        m->on[v] = m->n8[v] = false;
        m->fused[gv] = m->fused[v] = m->fused[s->id] = false;
        m->frag_var[x] = false;
    }
}

void gpu_mma_plan(GpuMma *m)
{
    TirKernel *k = m->k;
    int n = k->instrs.n;
    m->res = arena_alloc(m->a, sizeof(int64_t) * ((size_t)n + 1));
    m->early = arena_alloc(m->a, sizeof(int64_t) * ((size_t)n + 1));
    for (int v = 0; v <= n; v++)
        m->res[v] = m->early[v] = -1;
    m->on = arena_alloc(m->a, (size_t)n + 1);
    m->fused = arena_alloc(m->a, (size_t)n + 1);
    m->frag_var = arena_alloc(m->a, (size_t)k->vars.n + 1);
    m->pipe = arena_alloc(m->a, sizeof(struct GpuPipe *) * ((size_t)n + 1));
    m->staged = arena_alloc(m->a, (size_t)n + 1);
    m->wg = arena_alloc(m->a, (size_t)n + 1);
    m->n8 = arena_alloc(m->a, (size_t)n + 1);
    m->wg_var = arena_alloc(m->a, (size_t)k->vars.n + 1);
    m->wgd = arena_alloc(m->a, (size_t)n + 1);
    m->res_e = arena_alloc(m->a, sizeof(int64_t) * ((size_t)n + 1));
    m->early_e = arena_alloc(m->a, sizeof(int64_t) * ((size_t)n + 1));
    m->chain = arena_alloc(m->a, sizeof(int) * ((size_t)n + 1));
    m->chain_acc = arena_alloc(m->a, sizeof(PirLocal *) * ((size_t)n + 1));
    m->pair = arena_alloc(m->a, sizeof(int) * ((size_t)n + 1));
    m->pair_acc = arena_alloc(m->a, sizeof(PirLocal *) * ((size_t)n + 1));
    m->pair_nacc = arena_alloc(m->a, sizeof(int) * ((size_t)n + 1));
    m->bd_set = arena_alloc(m->a, (size_t)n + 1);
    if (!tkc_knob("TKC_MMA", 1))
        return;
    int *uses = tir_use_counts(k);
    for (int v = 1; v < n; v++)
        if (I(m, v)->op == OP_DOT && m->live[v])
            plan_dot(m, v, uses);
    for (int v = 1; v < n; v++)
        if (m->wgd[v] && pipe_of(m, I(m, v)))
            m->wgd[v] = false;
    plan_chain(m, uses);
    plan_pair(m);
    m->defer = tkc_knob("TKC_WG_DEFER", 0) == 1 && tkc_knob("TKC_PINGPONG", 0) != 1;
}

bool gpu_mma_var(const GpuMma *m, const Instr *in)
{
    return m->frag_var && (in->op == OP_VAR_GET || in->op == OP_VAR_SET) && in->index >= 0
           && in->index < m->k->vars.n && m->frag_var[in->index];
}

static void need(GpuMma *m, int64_t bytes)
{
    int p = 1 + gpu_pos(m->e, gpu_building(m->e));
    if (!m->need_pos || p < m->need_pos)
        m->need_pos = p;
    bytes = (bytes + 127) / 128 * 128;
    if (bytes > m->need)
        m->need = bytes;
}

/* gpu_mma_open_frag's loops, over every cs-th element of a fragment (cs =
 * 2: the pairs c = 0, 2 of columns i1, i1 + 1). */
static GpuSlots open_slots(GpuMma *m, const Grid *g, bool rk, int cs)
{
    scope(m);
    PirExpr *w = op(m, PB_SHR, gpu_tid(m->e), ci(m, 5)), *l = op(m, PB_AND, gpu_tid(m->e), ci(m, 31));
    PirLocal *r0 = let(m, "r0", add(m, mul(m, op(m, PB_REM, w, ci(m, g->WM)), ci(m, g->TM)), op(m, PB_SHR, l, ci(m, 2))));
    PirLocal *c0 = let(m, "c0", add(m, mul(m, op(m, PB_DIV, w, ci(m, g->WM)), ci(m, g->TN)),
                                    mul(m, ci(m, 2), op(m, PB_AND, l, ci(m, 3)))));
    PirExpr *mi = loop(m, "mi", g->MI, 1, true);
    PirExpr *ni = loop(m, "ni", g->NI, 1, true);
    PirExpr *c = loop(m, "c", 4, cs, true);
    GpuSlots s = { .depth = 4, .ni = ni };
    s.k = let(m, "k", add(m, mul(m, add(m, mul(m, mi, ci(m, g->NI)), ni), ci(m, 4)), c));
    s.i0 = let(m, "i", add(m, add(m, ref(m, r0), mul(m, mi, ci(m, 16))), mul(m, op(m, PB_SHR, c, ci(m, 1)), ci(m, 8))));
    s.i1 = let(m, "i", add(m, add(m, ref(m, c0), mul(m, ni, ci(m, 8))), op(m, PB_AND, c, ci(m, 1))));
    if (rk)
        s.rk = let(m, "rk", add(m, mul(m, mi, ci(m, 2)), op(m, PB_SHR, c, ci(m, 1))));
    return s;
}

GpuSlots gpu_mma_open_frag(GpuMma *m, const Grid *g, bool rk) { return open_slots(m, g, rk, 1); }
GpuSlots gpu_mma_open_pairs(GpuMma *m, const Grid *g) { return open_slots(m, g, false, 2); }

bool gpu_mma_var_grid(const GpuMma *m, int x, Grid *g)
{
    return m->frag_var && m->frag_var[x] && var_grid(m, x, g);
}

/* Open the unrolled loops over a thread's fragment slots of grid g: slot,
 * row and column; close with close_n(m, s.depth). */
static Slots open_frag(GpuMma *m, const Grid *g)
{
    GpuSlots gs = gpu_mma_open_frag(m, g, false);
    return (Slots){ .k = ref(m, gs.k), .i0 = ref(m, gs.i0), .i1 = ref(m, gs.i1), .depth = gs.depth };
}

/* Loops over a thread's slots of gpu.c's block layout of [R, C]: per group
 * q (first flat index g), per element (elems) k, i0, i1.  *gl: g. */
static Slots open_block(GpuMma *m, int64_t R, int64_t C, bool elems, PirLocal **gl, PirExpr **q)
{
    int64_t n = R * C;
    int V = vwidth(m, n);
    Slots s = { .depth = 1 };
    *q = loop(m, "q", groups(m, n), 1, true);
    *gl = let(m, "g", mul(m, add(m, mul(m, *q, ci(m, m->T)), gpu_tid(m->e)), ci(m, V)));
    if (n % ((int64_t)m->T * V)) {
        gpu_push(m->e, pir_if(F, CUR, op(m, PB_LT, ref(m, *gl), ci(m, n)))->body);
        s.depth++;
    }
    if (!elems)
        return s;
    /* a group in one row: its row and first column once per group */
    PirLocal *r = C % V ? NULL : let(m, "i", op(m, PB_DIV, ref(m, *gl), ci(m, C)));
    PirLocal *c0 = C % V ? NULL : let(m, "i", op(m, PB_REM, ref(m, *gl), ci(m, C)));
    PirExpr *j = loop(m, "j", V, 1, true);
    s.depth++;
    PirExpr *f = add(m, ref(m, *gl), j);
    s.k = ref(m, let(m, "k", add(m, mul(m, *q, ci(m, V)), j)));
    s.i0 = ref(m, r ? r : let(m, "i", op(m, PB_DIV, f, ci(m, C))));
    s.i1 = ref(m, c0 ? let(m, "i", add(m, ref(m, c0), j)) : let(m, "i", op(m, PB_REM, f, ci(m, C))));
    return s;
}

static PirExpr *pack2(GpuMma *m, DType dt, PirExpr *lo, PirExpr *hi)
{
    PirLocal *r = pir_local(F, "h", PT_U32, 0);
    pir_decl(F, CUR, r, NULL);
    PirStmt *s = pir_asm_stmt(F, CUR, dt == DT_BF16 ? PA_PACK_BF16X2 : PA_PACK_F16X2);
    s->out[0] = ref(m, r);
    s->in[0] = lo;
    s->in[1] = hi;
    return ref(m, r);
}

/* Two values of a bf16 tile as a bf16x2 word: they are bf16 already (a
 * bf16 tile's registers hold rounded values), so their top halves; from a
 * bf16 load the optimizer then sees the loaded word itself, and the tile
 * stays in registers as words rather than floats. */
static PirExpr *pack_exact(GpuMma *m, PirExpr *lo, PirExpr *hi)
{
    PirExpr *l = op(m, PB_SHR, pir_bitcast(F, PT_U32, lo), pir_int(F, PT_U32, 16));
    PirExpr *h = op(m, PB_AND, pir_bitcast(F, PT_U32, hi), pir_int(F, PT_U32, 0xffff0000u));
    return op(m, PB_OR, l, h);
}

/* Four i8 values as one word, b[0] in the low byte. */
static PirExpr *bytes4(GpuMma *m, PirExpr **b)
{
    PirExpr *w = NULL;
    for (int j = 0; j < 4; j++) {
        PirExpr *x = op(m, PB_AND, pir_conv(F, PT_U32, b[j]), pir_int(F, PT_U32, 0xff));
        x = j ? op(m, PB_SHL, x, pir_int(F, PT_U32, 8 * j)) : x;
        w = w ? op(m, PB_OR, w, x) : x;
    }
    return w;
}

/* Word i (4 bytes) of the values x[] of a tile of dtype dt as staged:
 * two 16-bit values (rounded), one f32 (its bits), four i8 (low byte first). */
static PirExpr *word_of(GpuMma *m, DType dt, PirLocal *x, int i)
{
    if (half_dt(dt)) {
        PirExpr *lo = pir_elem(F, x, ci(m, 2 * i)), *hi = pir_elem(F, x, ci(m, 2 * i + 1));
        return dt == DT_BF16 ? pack_exact(m, lo, hi) : pack2(m, dt, lo, hi);
    }
    if (dt == DT_F32)
        return pir_bitcast(F, PT_U32, pir_elem(F, x, ci(m, i)));
    PirExpr *b[4];
    for (int j = 0; j < 4; j++)
        b[j] = pir_elem(F, x, ci(m, 4 * i + j));
    return bytes4(m, b);
}

/* The index of element (i0, i1) of a staged [R, *] tile of es-byte
 * elements in units of `size` bytes (i1 a multiple of size / es): rows of
 * SR elements, or with E > 0 wgmma's swizzled layout of width E (16-bit). */
static PirExpr *staged_at(GpuMma *m, int64_t R, int64_t SR, int64_t E, PirExpr *i0, PirExpr *i1, int es, int size)
{
    if (!E) {
        PirExpr *x = add(m, mul(m, i0, ci(m, SR)), i1);
        return size == es ? x : size > es ? op(m, PB_DIV, x, ci(m, size / es)) : mul(m, x, ci(m, es / size));
    }
    PirExpr *c8 = op(m, PB_AND, i1, ci(m, ~(int64_t)7));
    PirExpr *b = add(m, gpu_wg_at(m, R, E, i0, c8), mul(m, op(m, PB_AND, i1, ci(m, 7)), ci(m, 2)));
    return op(m, PB_SHR, b, ci(m, size / 2));
}

/* Write tile v ([R, C], an operand dtype of kind_of) into shared memory at
 * byte offset off, rows of C + pad elements, or with E > 0 (16-bit) in
 * wgmma's swizzled layout of width E (gpu_wgmma.c). */
static void stage(GpuMma *m, int v, int64_t off, int64_t E, int64_t pad)
{
    const TTy *t = ty(m, v);
    int es = kind_of(t->dt).es;
    int64_t R = t->dim[0], C = t->dim[1], n = R * C, SR = C + pad;
    int V = vwidth(m, n), nw = V * es / 4;
    PirLocal *g;
    PirExpr *q;
    PirTy rt = dtype_is_float(t->dt) ? PT_F32 : pir_ty_compute(t->dt);   /* gpu_at's */
    if (V * es >= 4 && V * es <= 16 && C % V == 0) {
        /* a group lies in one row: its V values go in one store */
        Slots s = open_block(m, R, C, false, &g, &q);
        PirLocal *i0 = let(m, "i", op(m, PB_DIV, ref(m, g), ci(m, C)));
        PirLocal *g1 = let(m, "g1", op(m, PB_REM, ref(m, g), ci(m, C)));
        PirLocal *x = pir_local(F, "x", rt, V);
        pir_decl(F, CUR, x, NULL);
        PirExpr *j = loop(m, "j", V, 1, true);
        PirExpr *k = add(m, mul(m, q, ci(m, V)), j);
        pir_assign(F, CUR, x, j, gpu_at(m->e, v, ref(m, i0), add(m, ref(m, g1), j), k));
        close_n(m, 1);
        PirExpr *w[4];
        for (int i = 0; i < nw; i++)
            w[i] = word_of(m, t->dt, x, i);
        /* 4-byte words (a group of V lies in one 16-byte chunk) */
        PirExpr *wi = staged_at(m, R, SR, E, ref(m, i0), ref(m, g1), es, 4);
        PirStmt *st = pir_stmt(F, CUR, PS_STORE);
        st->mem = pir_smem(PT_U32, off, wi);
        st->nw = nw > 1 ? nw : 0;
        for (int i = 0; i < nw; i++)
            st->w[i] = w[i];
        st->val = w[0];
        close_n(m, s.depth);
        return;
    }
    Slots s = open_block(m, R, C, true, &g, &q);
    PirExpr *x = gpu_at(m->e, v, s.i0, s.i1, s.k), *h;
    PirTy st = es == 2 ? PT_U16 : es == 4 ? PT_F32 : PT_I8;
    if (es == 2)
        h = pir_conv(F, PT_U16, pack2(m, t->dt, x, pir_float(F, PT_F32, 0)));
    else
        h = pir_conv(F, st, x);
    pir_store(F, CUR, pir_smem(st, off, staged_at(m, R, SR, E, s.i0, s.i1, es, es)), h);
    close_n(m, s.depth);
}

/* The fragments in array src (grid g) to gpu.c's block layout in v's new
 * registers, through the staging region: in slabs of rows whose f32 copy
 * takes at most `cap` bytes (so a conversion needs no more shared memory
 * than the operands' staging, or 32 KB).
 *
 * In slabs each element of d is set in one slab under a test on its row,
 * which the compilers cannot see covers every element: inside a loop (the
 * tiles of a persistent kernel) d's registers would then carry their values
 * over from the last tile, live across all of this tile's code before the
 * conversion (every kernel's body is a loop over its programs).
 * TKC_SLAB_ZERO=1 zeroes d first.  sdpa_bf16 at D=128 with the producer
 * warpgroup (TKC_KEY_WS=1, its consumers limited to 240 registers): the
 * o epilogue's 64 values of d were live across the key loops, ptxas ran
 * the softmax after p v's wait (not between its MMAs) and spilled 592
 * bytes; zeroed, it interleaves them and spills nothing: H200 469.0 /
 * 470.4 vs 440.7 TFLOP/s (doc/bench/h200-s13-fa3b-1.log).  Without the
 * producer (255 -> 229 registers) D=128 measured slower, 495.1 vs 507.3,
 * 490.0 / 494.7 vs 501.3 (-2.log), but that kernel now has the producer
 * (fa3_plan); D=64 causal faster, 366.7 vs 355.5, 362.9 / 362.9 vs 344.3,
 * again in doc/bench/h200-s14-a1.log; D=64 and D=128 causal within the
 * noise.  On by default (TKC_SLAB_ZERO=0: off); only sdpa_bf16's and
 * sdpa_f16's code changes. */
static void to_block_into(GpuMma *m, PirLocal *src, PirLocal *d, const Grid *g, int64_t cap)
{
    int64_t SO = g->N + OPAD, rows = g->M;
    if (cap < 32768)
        cap = 32768;
    while (rows > 1 && (rows * SO * 4 > cap || g->M % rows))
        rows--;
    need(m, rows * SO * 4);
    if (rows < g->M && tkc_knob("TKC_SLAB_ZERO", 1)) {
        PirExpr *k = loop(m, "k", d->n, 1, true);
        pir_assign(F, CUR, d, k, d->ty == PT_F32 ? pir_float(F, PT_F32, 0) : pir_int(F, d->ty, 0));
        close_n(m, 1);
    }
    PirExpr *sl = loop(m, "s", g->M, rows, false);
    pir_barrier(F, CUR);
    Slots s = open_frag(m, g);
    PirExpr *in = rows < g->M ? op(m, PB_AND, op(m, PB_GE, s.i0, sl), op(m, PB_LT, s.i0, add(m, sl, ci(m, rows)))) : NULL;
    PirBlock *b = in ? pir_if(F, CUR, in)->body : CUR;
    PirExpr *at = add(m, mul(m, op(m, PB_SUB, s.i0, sl), ci(m, SO)), s.i1);
    pir_store(F, b, pir_smem(src->ty, m->stg, at), pir_elem(F, src, s.k));
    close_n(m, s.depth);
    pir_barrier(F, CUR);
    PirLocal *gl;
    PirExpr *q;
    s = open_block(m, g->M, g->N, true, &gl, &q);
    in = rows < g->M ? op(m, PB_AND, op(m, PB_GE, s.i0, sl), op(m, PB_LT, s.i0, add(m, sl, ci(m, rows)))) : NULL;
    b = in ? pir_if(F, CUR, in)->body : CUR;
    at = add(m, mul(m, op(m, PB_SUB, s.i0, sl), ci(m, SO)), s.i1);
    pir_assign(F, b, d, s.k, pir_load(F, pir_smem(src->ty, m->stg, at), NULL, NULL));
    close_n(m, s.depth + 1);
}

static void to_block(GpuMma *m, PirLocal *src, int dst, const Grid *g, int64_t cap)
{
    int64_t n = g->M * g->N;
    to_block_into(m, src, gpu_value(m->e, dst, groups(m, n) * vwidth(m, n)), g, cap);
}

void gpu_mma_to_block(GpuMma *m, PirLocal *src, PirLocal *dst, const Grid *g)
{
    to_block_into(m, src, dst, g, 0);
}

/* Fill fragment array dst (grid g) with tile v read at each slot's index. */
static void from_tile(GpuMma *m, PirLocal *dst, int v, const Grid *g)
{
    Slots s = open_frag(m, g);
    PirExpr *z = dst->ty == PT_F32 ? pir_float(F, PT_F32, 0) : pir_int(F, dst->ty, 0);
    pir_assign(F, CUR, dst, s.k, v > 0 ? pir_conv(F, dst->ty, gpu_at(m->e, v, s.i0, s.i1, NULL)) : z);
    close_n(m, s.depth);
}

/* dst (g's fragments) set to tile v (0: zeros): a copy of v's own
 * fragments where it is in g's already (a dot's accumulator operand; acc =
 * acc * alpha before acc = dot(p, v, acc)), else v read at each slot
 * (from_tile), which for a value in fragments goes through a shared buffer. */
static void set_frags(GpuMma *m, PirLocal *dst, int v, const Grid *g)
{
    PirLocal *src = v > 0 ? gpu_frag(m->e, v, g) : NULL;
    if (!src || src->ty != dst->ty || src->n != dst->n) {
        from_tile(m, dst, v, g);
        return;
    }
    PirExpr *k = loop(m, "k", g->MI * g->NI * 4, 1, true);
    pir_assign(F, CUR, dst, k, pir_elem(F, src, k));
    close_n(m, 1);
}

static PirExpr *el2(GpuMma *m, PirLocal *a, PirExpr *i, int64_t w, int c)
{
    return pir_elem(F, a, add(m, mul(m, i, ci(m, w)), ci(m, c)));
}

static void pipe_issue(GpuMma *m, struct GpuPipe *p, int part, int parts);
static void bd_settle(GpuMma *m, struct GpuPipe *p);
static struct GpuPipe *li_pipe(const GpuMma *m, const Instr *dot);
static void bd_copy(GpuMma *m, PirLocal *from, PirLocal *to);
static void ws_release(GpuMma *m, struct GpuPipe *p, bool next);
static void lb_release(GpuMma *m, struct GpuPipe *p);
static bool ws_wg_arrive(const GpuMma *m);
static void pipe_bases(GpuMma *m, struct GpuPipe *p, PirExpr **ea, PirExpr **eb);
static int64_t pipe_base(const GpuMma *m, const struct GpuPipe *p);
/* The accumulator of a DOT on grid g, set to its acc operand: the var
 * itself when fused, a copy of an operand already in g's fragments, or
 * the operand read at each slot. */
static PirLocal *acc_init(GpuMma *m, const Instr *in, const Grid *g)
{
    int c = in->args[2];
    if (m->fused[in->id])
        return gpu_var(m->e, I(m, c)->index);
    PirLocal *acc = pir_local(F, "d", pir_ty_compute(in->ty.dt), g->MI * g->NI * 4);
    pir_decl(F, CUR, acc, NULL);
    set_frags(m, acc, c, g);
    return acc;
}

/* mma.sync's A fragment of k-block kk / 16 straight from the registers of
 * an operand in the fragment layout (grid ga: WN = 1, the rows of the dot):
 * a0 a1 are n-tile kk / 8's c0 c1 and c2 c3 packed, a2 a3 n-tile kk / 8 + 1's;
 * into fa from element at (NULL: 0) on. */
static void frag_a(GpuMma *m, DType dt, PirLocal *src, const Grid *ga, PirLocal *fa, PirExpr *kk, PirExpr *at)
{
    PirExpr *mi = loop(m, "mi", ga->MI, 1, true);
    for (int i = 0; i < 4; i++) {
        PirExpr *t = add(m, add(m, mul(m, mi, ci(m, ga->NI)), op(m, PB_SHR, kk, ci(m, 3))), ci(m, i >> 1));
        PirExpr *s0 = add(m, mul(m, t, ci(m, 4)), ci(m, (i & 1) * 2));
        /* a var kept packed (gpu_packed) has the pair in word s0 / 2 */
        PirExpr *h = src->ty == PT_U32 ? pir_elem(F, src, op(m, PB_SHR, s0, ci(m, 1)))
                                       : pack2(m, dt, pir_elem(F, src, s0), pir_elem(F, src, add(m, s0, ci(m, 1))));
        PirExpr *x = add(m, mul(m, mi, ci(m, 4)), ci(m, i));
        pir_assign(F, CUR, fa, at ? add(m, at, x) : x, h);
    }
    close_n(m, 1);
}

static int trans_src(const GpuMma *m, int b);
static PirExpr *key_stage(GpuMma *m, const Instr *dot, int v);
static bool wg_single(GpuMma *m, const Instr *in, const Grid *g);

int gpu_mma_bsrc(const GpuMma *m, const Instr *dot)
{
    int b = dot->args[1], x = trans_src(m, b);
    return x ? x : b;
}

/* The early region's byte offset in shared memory (after the staging and
 * the resident regions; final in the second pass). */
static int64_t early_at(const GpuMma *m) { return m->lead + early_off(m); }

static int64_t wg_bwidth(const GpuMma *m, int v);

/* The row padding of v staged as the B source of a dot on tensor cores:
 * rows of K for B = trans(v), else rows of N. */
static int64_t bsrc_pad(const GpuMma *m, int v)
{
    Kind kd = kind_of(ty(m, v)->dt);
    for (int d = 1; d < m->k->instrs.n; d++) {
        const Instr *in = I(m, d);
        if (in->op == OP_DOT && m->on[d] && gpu_mma_bsrc(m, in) == v)
            return trans_src(m, in->args[1]) ? kd.pa : kd.pb;
    }
    return kd.pb;
}

void gpu_mma_set_early(GpuMma *m, int v)
{
    const TTy *t = ty(m, v);
    if (m->early[v] >= 0 || t->rank != 2)
        return;
    m->early_e[v] = wg_bwidth(m, v);
    if (m->early_e[v]) {
        m->early[v] = swz_place(m, &m->early_need, t->dim[0] * t->dim[1] * 2);
        return;
    }
    m->early[v] = m->early_need;
    m->early_need += (t->dim[0] * (t->dim[1] + bsrc_pad(m, v)) * kind_of(t->dt).es + 127) / 128 * 128;
}

/* Early operand v's byte offset in shared memory. */
static int64_t early_of(const GpuMma *m, int v)
{
    int64_t at = early_at(m) + m->early[v];
    return m->early_e[v] ? al1k(at) : at;
}

void gpu_mma_stage_early(GpuMma *m, const int *v, int n)
{
    bool swz = false;
    pir_barrier(F, CUR);
    for (int i = 0; i < n; i++) {
        stage(m, v[i], early_of(m, v[i]), m->early_e[v[i]], bsrc_pad(m, v[i]));
        swz |= m->early_e[v[i]] > 0;
    }
    if (swz)                             /* read by wgmma, through the async proxy */
        pir_asm_stmt(F, CUR, PA_FENCE_PROXY);
    pir_barrier(F, CUR);
}

void gpu_mma_settle(GpuMma *m, int v)
{
    if (!m->res || m->res[v] < 0)
        return;
    stage(m, v, res_at(m, v), m->res_e[v], kind_of(ty(m, v)->dt).pa);
    if (m->res_e[v])                     /* a barrier follows before its readers */
        pir_asm_stmt(F, CUR, PA_FENCE_PROXY);
}

bool gpu_mma_grid(const GpuMma *m, const Instr *in, Grid *g)
{
    return m->on && m->on[in->id] && dot_fits(m, in, g);
}

/* B = trans(x) with x [N, K] (attention's k): stage x itself as [N][K + PAD]
 * rows (its rows are contiguous in memory and in its registers) and load
 * B's fragments with ldmatrix without .trans; 0 when b is not such a view. */
static int trans_src(const GpuMma *m, int b)
{
    const Instr *bi = I(m, b);
    if (bi->op != OP_TRANS || bi->ty.rank != 2 || bi->perm[0] != 1 || bi->perm[1] != 0
        || ty(m, bi->args[0])->rank != 2)
        return 0;
    return bi->args[0];
}

/* B fragments of n-tiles 2 nj, 2 nj + 1 for k-step kk from x staged as
 * [N][SK]: lanes 0-7 address matrix 0 (rows n0.., k kk..), 8-15 matrix 1
 * (k kk + 8..), 16-23 and 24-31 the same for rows n0 + 8.. */
static void ldsm_bt(GpuMma *m, PirLocal *fb, PirLocal *sbt, PirExpr *nj, PirExpr *kk, int64_t SK, int es)
{
    PirStmt *s = pir_asm_stmt(F, CUR, PA_LDSM4);
    PirExpr *n2 = mul(m, nj, ci(m, 2)), *n21 = add(m, n2, ci(m, 1));
    s->out[0] = el2(m, fb, n2, 2, 0);
    s->out[1] = el2(m, fb, n2, 2, 1);
    s->out[2] = el2(m, fb, n21, 2, 0);
    s->out[3] = el2(m, fb, n21, 2, 1);
    PirExpr *byte = mul(m, add(m, mul(m, nj, ci(m, 16 * SK)), kk), ci(m, es));
    s->in[0] = op(m, PB_ADD, ref(m, sbt), pir_conv(F, PT_U32, byte));
}

/* This lane's row address for ldsm_bt: (the matrices' second 16 bytes of k
 * are k + 16 / es on) */
static PirLocal *sbt_addr(GpuMma *m, const Grid *g, PirExpr *off, int64_t SK, int es)
{
    PirExpr *w = op(m, PB_SHR, gpu_tid(m->e), ci(m, 5)), *l = op(m, PB_AND, gpu_tid(m->e), ci(m, 31));
    PirExpr *n = add(m, add(m, mul(m, op(m, PB_DIV, w, ci(m, g->WM)), ci(m, g->TN)), op(m, PB_AND, l, ci(m, 7))),
                     mul(m, op(m, PB_SHR, l, ci(m, 4)), ci(m, 8)));
    PirExpr *k = mul(m, op(m, PB_AND, op(m, PB_SHR, l, ci(m, 3)), ci(m, 1)), ci(m, 16 / es));
    return let(m, "sb", pir_saddr(F, add(m, off, mul(m, add(m, mul(m, n, ci(m, SK)), k), ci(m, es)))));
}

/* fa[i] (U32 holding f32 bits) rounded to tf32 in place, i from `at` on, n of them. */
static void round_tf32(GpuMma *m, PirLocal *fa, PirExpr *at, int n)
{
    PirExpr *i = add(m, at, loop(m, "i", n, 1, true));
    PirStmt *s = pir_asm_stmt(F, CUR, PA_CVT_TF32);
    s->out[0] = pir_elem(F, fa, i);
    s->in[0] = pir_bitcast(F, PT_F32, pir_elem(F, fa, i));
    close_n(m, 1);
}

/* B's fragments of n-tile ni at k step kk from B staged row-major (rows of
 * SB elements at byte offset eb) with scalar loads, for the kinds that
 * ldmatrix cannot transpose: tf32 (b_j = B(kk + l % 4 + 4 j, n), rounded)
 * and s8 (b_j = the 4 bytes B(kk + 16 j + 4 (l % 4) + 0..3, n)); n = cb +
 * ni * 8 + l / 4. */
static void lds_b(GpuMma *m, const Kind *kd, PirLocal *fb, PirExpr *eb, PirExpr *cb, PirExpr *ni, PirExpr *kk,
                  int64_t SB)
{
    PirExpr *l = op(m, PB_AND, gpu_tid(m->e), ci(m, 31));
    PirExpr *n = add(m, add(m, cb, mul(m, ni, ci(m, 8))), op(m, PB_SHR, l, ci(m, 2)));
    PirExpr *t = op(m, PB_AND, l, ci(m, 3));
    for (int j = 0; j < 2; j++) {
        PirExpr *out = el2(m, fb, ni, 2, j);
        if (kd->dt == DT_F32) {
            PirExpr *k = add(m, add(m, kk, t), ci(m, 4 * j));
            PirExpr *at = op(m, PB_SHR, add(m, eb, mul(m, add(m, mul(m, k, ci(m, SB)), n), ci(m, 4))), ci(m, 2));
            PirStmt *s = pir_asm_stmt(F, CUR, PA_CVT_TF32);
            s->out[0] = out;
            s->in[0] = pir_load(F, pir_smem(PT_F32, 0, at), NULL, NULL);
            continue;
        }
        PirExpr *w = NULL;
        for (int q = 0; q < 4; q++) {
            PirExpr *k = add(m, add(m, kk, mul(m, t, ci(m, 4))), ci(m, 16 * j + q));
            PirExpr *at = add(m, eb, add(m, mul(m, k, ci(m, SB)), n));
            PirExpr *b = pir_conv(F, PT_U32, pir_load(F, pir_smem(PT_U8, 0, at), NULL, NULL));
            b = q ? op(m, PB_SHL, b, pir_int(F, PT_U32, 8 * q)) : b;
            w = w ? op(m, PB_OR, w, b) : b;
        }
        pir_assign(F, CUR, fb, add(m, mul(m, ni, ci(m, 2)), ci(m, j)), w);
    }
}

bool gpu_mma_dot(GpuMma *m, const Instr *in)
{
    Grid g, ga;
    if (!m->on || !m->on[in->id] || !dot_fits(m, in, &g))
        return false;
    int a = in->args[0], b = in->args[1];
    if (m->wgd[in->id])
        return wg_single(m, in, &g);
    struct GpuPipe *pp = pipe_of(m, in);      /* both operands staged by the pipeline */
    if (pp && pp->ea) {                        /* on wgmma (gpu_wgmma.c) */
        PirExpr *ea, *eb;
        pipe_bases(m, pp, &ea, &eb);
        pp->acc = acc_init(m, in, &g);
        pp->nacc = g.NI * 4;
        scope(m);
        GpuWgDot d = { .acc = pp->acc, .g = &g, .at_a = ea, .at_b = eb, .K = ty(m, a)->dim[1], .ea = pp->ea,
                       .eb = pp->eb, .dt = ty(m, a)->dt };
        PirStmt *two = NULL;                   /* bk with A from registers: by parity */
        if (half_dt(d.dt) && (pp->bk || pp->an)) {   /* 16-bit: transposed in the descriptors */
            d.bt = pp->bk;
            d.am = pp->an;
        } else if (pp->bk) {                   /* tf32, B staged K-major: rounded in place */
            PirLocal *eal = let(m, "ea", ea), *ebl = let(m, "eb", eb);
            bool ra = !pp->pr && (gpu_wgdt_bkra() || pp->an);
            if (!pp->pr && !pp->tr)            /* else the producer's warps, or TMA, did */
                gpu_wgdt_round(m, ref(m, eal), ra ? 0 : g.M * d.K * 4, ref(m, ebl), g.N * d.K * 4, 0, m->T);
            d.at_a = ref(m, eal);
            d.at_b = ref(m, ebl);
            d.bt = true;
            if (ra) {                          /* two register sets: the other one's MMAs in flight */
                two = pir_if(F, CUR, op(m, PB_EQ, pir_conv(F, PT_I32, op(m, PB_AND, ref(m, pp->it), pir_int(F, PT_I64, 1))),
                                        ci(m, 0)));
                two->els = pir_block(F);
                for (int h = 0; h < 2; h++) {
                    gpu_push(m->e, h ? two->els : two->body);
                    GpuWgDot dh = d;
                    dh.fa = pp->an ? gpu_wgdt_fan(m, &g, ref(m, eal), d.K, pp->ea, !pp->tr)
                                   : gpu_wgdt_fa(m, &g, ref(m, eal), g.M, d.K);
                    dh.K = d.K * 2;
                    gpu_wg_dot(m, &dh);
                    gpu_pop(m->e);
                }
            }
            d.K = d.K * 2;                     /* 16-bit units */
        } else if (pp->bt) {                   /* tf32, s8: B rewritten K-major (gpu_wgdt.c) */
            PirExpr *bt = add(m, ci(m, pipe_base(m, pp) + pp->S * pp->stage),
                              mul(m, pir_conv(F, PT_I32, op(m, PB_AND, ref(m, pp->it), pir_int(F, PT_I64, 1))),
                                  ci(m, pp->bt)));
            PirLocal *btl = let(m, "bt", bt), *eal = let(m, "ea", ea);
            gpu_wgdt_prep(m, d.dt, ref(m, eal), g.M, d.K, eb, g.N, pp->eb, ref(m, btl));
            d.at_a = ref(m, eal);
            if (gpu_wgdt_ra(d.dt)) {           /* A from registers: the MMAs reading them done */
                gpu_wg_wait(m, pp->acc, pp->nacc, 0);
                d.fa = gpu_wgdt_fa(m, &g, ref(m, eal), g.M, d.K);
            }
            d.at_b = ref(m, btl);
            d.bt = true;
            d.K = d.K * kind_of(d.dt).es / 2;  /* 16-bit units */
            d.eb = pp->ea;
        }
        if (!two)
            gpu_wg_dot(m, &d);
        if (pp->late && !pp->lb)
            pipe_issue(m, pp, 0, 1);
        gpu_wg_wait(m, pp->acc, pp->nacc, pp->inflight);
        if (pp->lb) {
            lb_release(m, pp);
            pipe_issue(m, pp, 0, 1);
        }
        if (pp->ws)
            ws_release(m, pp, true);
        close_n(m, 1);
        return true;
    }
    Kind kd = kind_of(ty(m, a)->dt);
    int es = kd.es;
    PirLocal *rega = pp || !half_dt(kd.dt) ? NULL : gpu_frag_a(m->e, a, &g, &ga);
    if (!rega && gpu_packed(m->e, a))
        return false;                         /* gpu.c fails it */
    bool res = !pp && !rega && m->res[a] >= 0 && !m->res_e[a], own = !pp && !rega && !res;
    int bt = pp ? 0 : trans_src(m, b), bs = bt ? bt : b;
    PirExpr *kb = pp ? NULL : key_stage(m, in, bs);   /* copied by its key loop's pipeline */
    bool early = !pp && ((m->early[bs] >= 0 && !m->early_e[bs]) || kb);
    int64_t M = g.M, N = g.N, K = ty(m, a)->dim[1], SA = K + kd.pa, SB = N + kd.pb, SK = K + kd.pa;
    int64_t offa = res ? res_at(m, a) : m->stg, offb = own ? m->stg + M * SA * es : m->stg;
    PirExpr *ea, *eb;
    if (pp) {
        pipe_bases(m, pp, &ea, &eb);
    } else {
        if (m->early[bs] >= 0 && !m->early_e[bs])
            offb = early_of(m, bs);
        need(m, (own ? M * SA * es : 0) + (early ? 0 : (bt ? N * SK : K * SB) * es));
        ea = ci(m, offa);
        eb = kb ? kb : ci(m, offb);
    }
    PirLocal *acc = acc_init(m, in, &g);
    if (!pp && (own || !early)) {   /* else both operands are in place already */
        pir_barrier(F, CUR);
        if (own)
            stage(m, a, offa, 0, kd.pa);
        if (!early)
            stage(m, bs, offb, 0, bt ? kd.pa : kd.pb);
        pir_barrier(F, CUR);
    }
    scope(m);
    PirExpr *w = op(m, PB_SHR, gpu_tid(m->e), ci(m, 5)), *l = op(m, PB_AND, gpu_tid(m->e), ci(m, 31));
    PirExpr *ra = add(m, mul(m, op(m, PB_REM, w, ci(m, g.WM)), ci(m, g.TM)), op(m, PB_AND, l, ci(m, 15)));
    PirExpr *oa = mul(m, add(m, mul(m, ra, ci(m, SA)), mul(m, op(m, PB_SHR, l, ci(m, 4)), ci(m, 16 / es))), ci(m, es));
    PirExpr *cw = mul(m, op(m, PB_DIV, w, ci(m, g.WM)), ci(m, g.TN));    /* the warp's first column */
    PirExpr *cb = add(m, cw, mul(m, op(m, PB_SHR, l, ci(m, 4)), ci(m, 8)));
    PirExpr *ob = mul(m, add(m, mul(m, op(m, PB_AND, l, ci(m, 15)), ci(m, SB)), cb), ci(m, 2));
    PirLocal *sa = let(m, "sa", pir_saddr(F, add(m, ea, oa)));
    PirLocal *sb = bt ? sbt_addr(m, &g, eb, SK, es) : half_dt(kd.dt) ? let(m, "sb", pir_saddr(F, add(m, eb, ob))) : NULL;
    PirLocal *ebl = !bt && !sb ? let(m, "eb", eb) : NULL;
    PirLocal *cwl = ebl ? let(m, "cw", cw) : NULL;
    PirExpr *kk = loop(m, "kk", K, kd.kstep, true);
    PirLocal *fa = pir_local(F, "fa", PT_U32, g.MI * 4), *fb = pir_local(F, "fb", PT_U32, g.NI * 2);
    pir_decl(F, CUR, fa, NULL);
    pir_decl(F, CUR, fb, NULL);
    PirExpr *mi, *byte;
    PirStmt *s;
    if (rega) {
        frag_a(m, ty(m, a)->dt, rega, &ga, fa, kk, NULL);
    } else {
        mi = loop(m, "mi", g.MI, 1, true);
        s = pir_asm_stmt(F, CUR, PA_LDSM4);
        for (int i = 0; i < 4; i++)
            s->out[i] = el2(m, fa, mi, 4, i);
        byte = mul(m, add(m, mul(m, mi, ci(m, 16 * SA)), kk), ci(m, es));
        s->in[0] = op(m, PB_ADD, ref(m, sa), pir_conv(F, PT_U32, byte));
        if (kd.dt == DT_F32)
            round_tf32(m, fa, mul(m, mi, ci(m, 4)), 4);
        close_n(m, 1);
    }
    if (ebl) {                                 /* tf32, s8: scalar loads */
        PirExpr *ni = loop(m, "ni", g.NI, 1, true);
        lds_b(m, &kd, fb, ref(m, ebl), ref(m, cwl), ni, kk, SB);
        close_n(m, 1);
    } else {
        PirExpr *nj = loop(m, "nj", g.NI / 2, 1, true);
        if (bt) {
            ldsm_bt(m, fb, sb, nj, kk, SK, es);
            if (kd.dt == DT_F32)
                round_tf32(m, fb, mul(m, nj, ci(m, 4)), 4);
        } else {
            s = pir_asm_stmt(F, CUR, PA_LDSM4T);
            PirExpr *n2 = mul(m, nj, ci(m, 2)), *n21 = add(m, n2, ci(m, 1));
            s->out[0] = el2(m, fb, n2, 2, 0);
            s->out[1] = el2(m, fb, n2, 2, 1);
            s->out[2] = el2(m, fb, n21, 2, 0);
            s->out[3] = el2(m, fb, n21, 2, 1);
            byte = mul(m, add(m, mul(m, kk, ci(m, SB)), mul(m, nj, ci(m, 16))), ci(m, 2));
            s->in[0] = op(m, PB_ADD, ref(m, sb), pir_conv(F, PT_U32, byte));
        }
        close_n(m, 1);
    }
    mi = loop(m, "mi", g.MI, 1, true);
    PirExpr *ni = loop(m, "ni", g.NI, 1, true);
    s = pir_asm_stmt(F, CUR, kd.mma);
    PirExpr *slot = mul(m, add(m, mul(m, mi, ci(m, g.NI)), ni), ci(m, 4));
    for (int i = 0; i < 4; i++) {
        s->out[i] = pir_elem(F, acc, add(m, slot, ci(m, i)));
        s->in[i] = el2(m, fa, mi, 4, i);
    }
    s->in[4] = el2(m, fb, ni, 2, 0);
    s->in[5] = el2(m, fb, ni, 2, 1);
    close_n(m, 2);
    int steps = (int)(K / kd.kstep);
    for (int j = 0; pp && pp->late && j < steps; j++) {
        /* the next copies go out, a part after each k step's MMAs, while
         * the tensor cores work */
        gpu_push(m->e, pir_if(F, CUR, op(m, PB_EQ, kk, ci(m, kd.kstep * j)))->body);
        pipe_issue(m, pp, j, steps);
        gpu_pop(m->e);
    }
    close_n(m, 2);
    if (!m->fused[in->id])
        gpu_bind(m->e, in->id, acc);      /* the result stays in g's fragments */
    return true;
}

void gpu_mma_var_op(GpuMma *m, const Instr *in)
{
    Grid g;
    if (m->fused[in->id] || !var_grid(m, in->index, &g) || m->bd_set[in->id])
        return;                               /* (bd_set: set by bd_settle) */
    /* set from the value's own fragments where it has them: through a
     * shared buffer tests/run/flash_inplace.tk's [128, 128] f32 acc took
     * 64 KB more */
    if (in->op == OP_VAR_SET)
        set_frags(m, gpu_var(m->e, in->index), in->args[0], &g);
    else
        to_block(m, gpu_var(m->e, in->index), in->id, &g, 0);
}

/* ------------------------------------------------------------ pipelined K loops */

/* A K loop whose dot reads two loads made only for it (acc += dot(load(a[rm,
 * rk]), load(b[rk, rn])), the loads' offsets and masks known at the loop's
 * head) copies the operands straight from global to shared memory with
 * cp.async, S - 1 iterations ahead, into S stages of the staging region
 * (each as stage() lays them out):
 *
 *   barrier; n = the trip count; it = 0
 *   for s < S - 1: if (s < n) copy iteration s into stage s; commit
 *   loop: cur = it % S
 *         wait_group S - 2          this thread's copies of iteration it landed
 *         barrier                   everyone's did; everyone is done with it - 1
 *         if (it + S - 1 < n) copy iteration it + S - 1 into stage (it - 1) % S
 *         commit; it++
 *         ... the dot reads stage cur ...
 *   wait_group 0                    (a break may leave copies in flight)
 *
 * On sm_90a with wgmma, when both loads are plain 2-D tiles of contiguous
 * tensors (gpu_tma.c) and the body has no exits, the copies go by TMA
 * instead: thread 0 announces a stage's bytes on the stage's mbarrier and
 * issues the boxes; the head of an iteration waits on the mbarrier of stage
 * cur (phase bits ph, kept across loops and programs: every copy issued is
 * waited for) instead of wait_group + fence; the barrier stays (it guards
 * the reuse of a stage).  The mbarriers live after the early region and
 * are initialized once before the loop over programs.  Both paths are in
 * the kernel; the launcher's PP_TMA_OK picks one per launch (0 when a
 * tensor map cannot be built, or with TKC_TMA=0 at run time; TKC_TMA=0 at
 * compile time leaves TMA out).
 *
 * A 16-byte chunk of a row goes by cp.async when it is wholly unmasked and
 * its source is 16-byte aligned (checked at run time: rows of a tensor whose
 * width is not a multiple of 8 are not); otherwise its elements are loaded
 * with their masks and `other`, and stored to the stage directly (the
 * barriers order those stores like the copies). */


/* May the pipelined dot `in` of `loop` run on wgmma?  Then *g: its grid.
 * Its accumulator var is read and written in the loop only by the dot (an
 * access could land while the MMAs are in flight). */
static bool wg_plan(const GpuMma *m, const Instr *in, const Instr *loop, Grid *g)
{
    const TTy *t = &in->ty;
    int x = I(m, in->args[2])->index;
    DType dt = ty(m, in->args[0])->dt;
    /* B [K, N] staged N-major takes rows of 32 bytes at least; given as
     * trans(x) of 16-bit x (staged K-major), any N of gpu_wg_grid */
    bool kb = half_dt(dt) && trans_src(m, in->args[1]) && tkc_knob("TKC_WG_TRANS", 1);
    if (!m->k->wgmma || !tkc_knob("TKC_WGMMA", 1) || !(half_dt(dt) || gpu_wgdt_on(m, in, dt))
        || !gpu_wg_grid(m, t->dim[0], t->dim[1], g) || (t->dim[1] * gpu_wgdt_es(dt) % 32 && !kb))
        return false;
    for (int v = 1; v < m->k->instrs.n; v++) {
        const Instr *c = I(m, v);
        if ((c->op == OP_VAR_GET || c->op == OP_VAR_SET) && c->index == x && m->live[v] && !m->fused[v]
            && inside(c, loop))
            return false;
    }
    return true;
}

/* Does block b hold a break or continue (at any depth)? */
static bool exits(const GpuMma *m, const TBlock *b)
{
    for (int i = 0; b && i < b->ins.n; i++) {
        const Instr *x = I(m, b->ins.v[i]);
        if (x->op == OP_BREAK || x->op == OP_CONTINUE || exits(m, x->blocks[0]) || exits(m, x->blocks[1]))
            return true;
    }
    return false;
}

static bool ws_plan(const GpuMma *m, const GpuPipe *p, const Instr *loop);
static bool cl_plan(GpuMma *m, const GpuPipe *p, const Instr *loop);
static void cl_head(GpuMma *m);
static void cl_exchange(GpuMma *m, GpuPipe *p, PirExpr *lo);
static void cl_copy(GpuMma *m, GpuPipe *p, int i, PirExpr *at, PirExpr *bar, int64_t E);
static PirExpr *cl_box(GpuMma *m, int i);
static PirExpr *cl_mapa(GpuMma *m, PirExpr *a);
static bool mmpp_plan(const GpuMma *m);

/* The TMA version of a kernel (tma_version 1: no cp.async path runs) with
 * an unspecialized wgmma pipeline: with TKC_WG_LB the barrier that guards
 * a stage's reuse moves from the head of the iteration (before its MMAs,
 * after the wait that leaves one group in flight in the iteration before:
 * the stage of two iterations back is free, copies go S - 2 ahead) to
 * after this iteration's wait (the stage of the iteration before is free,
 * copies go S - 1 ahead; lb_release). */
static void lb_plan(const GpuMma *m, GpuPipe *p)
{
    p->lb = !p->ws && p->late && m->k->tma_version == 1 && tkc_knob("TKC_WG_LB", 0) == 1;
    if (p->lb)
        p->ahead = p->S - 1;
}

static void plan_pipe(GpuMma *m, const Instr *in, const int *uses)
{
    const Instr *loop = in->parent->owner;
    if (!tkc_knob("TKC_MMA_PIPE", 1) || !loop || loop->op != OP_FOR || m->pipe[loop->id])
        return;
    const Instr *lv = I(m, loop->blocks[0]->ins.v[0]);
    if (lv->op != OP_LOOPVAR || dtype_is_float(lv->ty.dt))
        return;
    int a = in->args[0], b = in->args[1], bl = b, tb = trans_src(m, b), al = a, ta = trans_src(m, a);
    Grid g;
    if (!dot_fits(m, in, &g))
        return;
    bool wg = wg_plan(m, in, loop, &g);
    if (!wg && m->n8[in->id])
        return;
    /* 16-bit operands given as trans(x) on wgmma: staged as x, transposed by
     * the descriptors (gpu_wgmma.c: B K-major, A M-major) */
    bool tr16 = wg && half_dt(ty(m, a)->dt) && tkc_knob("TKC_WG_TRANS", 1);
    /* B = trans(x), x [N, K] loaded in the loop: on wgmma (tf32) x is
     * staged as it is, K-major (TKC_WGDT_BK=0: not pipelined, as before) */
    if (tb && ((ty(m, a)->dt == DT_F32 && tkc_knob("TKC_WGDT_BK", 1)) || tr16)) {
        if (I(m, b)->parent != in->parent || uses[b] != 1)
            return;
        bl = tb;
    }
    /* and A = trans(y), y [K, M] (c^T = b^T a^T, the transposed matmul_tf32):
     * y staged as it is, N-major, A from registers (gpu_wgdt_an) */
    if (ta && ((bl != b && gpu_wgdt_an()) || tr16)) {
        if (I(m, a)->parent != in->parent || uses[a] != 1)
            return;
        al = ta;
    }
    for (int i = 0; i < 2; i++) {
        int x = i ? bl : al;
        if (I(m, x)->parent != in->parent || uses[x] != 1 || !gpu_async_ok(m->e, x, loop))
            return;
    }
    Kind kd = kind_of(ty(m, a)->dt);
    int64_t K = ty(m, a)->dim[1], bytes_a = g.M * (K + kd.pa) * kd.es;
    int64_t stage = (bytes_a + K * (g.N + kd.pb) * kd.es + 127) / 128 * 128, max = PIPE_MAX;
    bool bk = bl != b, an = al != a;
    if ((bk || an) && !wg)                     /* K-major B, N-major A only on wgmma */
        return;
    int64_t bt = 0;                            /* tf32, s8: the K-major B buffers */
    if (wg) {                                  /* unpadded, 1024-aligned (gpu_wgmma.c) */
        bytes_a = al1k(g.M * K * kd.es);
        stage = al1k(bytes_a + K * g.N * kd.es);
        bt = half_dt(kd.dt) || bk ? 0 : al1k(g.N * K * kd.es);
        max = WG_PIPE_MAX - 2 * bt;
    }
    int S = m->k->stages > 0 ? m->k->stages : tkc_knob("TKC_MMA_STAGES", wg ? WG_STAGES : PIPE_STAGES);
    if (S < 2)
        S = 2;
    while (S > 2 && S * stage > max)
        S--;
    if (S * stage > max)
        return;
    GpuPipe *p = arena_alloc(m->a, sizeof *p);
    *p = (GpuPipe){ .dot = in->id, .lv = lv->id, .S = S, .stage = stage, .offb = bytes_a,
                    .t = pir_ty_compute(lv->ty.dt), .ahead = S - 1, .bt = bt, .bl = bl, .bk = bk,
                    .al = al, .an = an };
    /* Interleaving pays when a k step has many MMAs per warp (H200: 128x256
     * tiles of 64x64 per warp +9% at 8192^3; 128x128 of 64x32 -6%). */
    p->late = tkc_knob("TKC_MMA_LATE", g.MI * g.NI >= 32) == 1;
    bool every = true;                         /* the dot runs in every iteration */
    for (int i = 0; i < in->parent->ins.n && in->parent->ins.v[i] != in->id; i++) {
        const Instr *x = I(m, in->parent->ins.v[i]);
        if (x->blocks[0] || x->blocks[1] || x->op == OP_BREAK || x->op == OP_CONTINUE || x->op == OP_YIELD)
            every = p->late = false;
    }
    if (wg) {
        /* one iteration's MMAs in flight: the copies go S - 2 ahead, into
         * the stage the MMAs of two iterations back read (waited for); they
         * are issued after this iteration's MMAs (late), so that the tensor
         * cores have two groups queued while the copies go out */
        p->late = every && tkc_knob("TKC_MMA_LATE", 1);
        p->inflight = every && S >= 3 && tkc_knob("TKC_WG_INFLIGHT", 1);
        p->ahead = S - 1 - p->inflight;
        p->ea = gpu_wg_width(K * kd.es / 2);  /* in 16-bit units (gpu_wgdt.c) */
        p->eb = bk ? p->ea : gpu_wg_width(bt ? g.N * kd.es / 2 : g.TN);
        if (an)                                /* y [K, M] rows of M, like a B [K, N] */
            p->ea = gpu_wg_width(g.M * kd.es / 2);
        /* TMA: every copy issued is waited for (no exits), so the
         * mbarriers' phases stay in step across loops and programs */
        if (every && p->inflight && !exits(m, loop->blocks[0]) && gpu_tma_match(m, al, &p->ta)
            && gpu_tma_match(m, bl, &p->tb) && K <= 256) {
            p->tma = true;
            p->ws = ws_plan(m, p, loop);
            p->tr = bk && !half_dt(kd.dt) && gpu_wgdt_rounds() && m->k->tma_version == 1 && gpu_wgdt_tmaround();
            p->pr = p->ws && bk && !an && !half_dt(kd.dt) && gpu_wgdt_rounds() && m->k->tma_version == 1 && !p->tr
                    && tkc_knob("TKC_WGDT_PROUND", 0) == 1;
            lb_plan(m, p);
            p->bar = m->bar_need;
            m->bar_need += (8 * S * (p->ws ? (p->pr ? 3 : 2) : 1) + 15) / 16 * 16;
            if (p->ws && mmpp_plan(m)) {
                m->pp = true;
                m->pp_bar = m->bar_need;
                m->bar_need += 16;
            }
            if (p->ws && cl_plan(m, p, loop)) {   /* pairs of blocks: the mailbox */
                m->cl = true;
                m->cl_bar = m->bar_need;
                m->bar_need += 32;
            }
        }
        if (p->ws) {                           /* stages of their own (not the staging region) */
            m->ws = p;
            m->ws_need = S * stage + 1024;
        }
        m->wg[in->id] = true;
        m->wg_var[I(m, in->args[2])->index] = true;
    }
    m->pipe[loop->id] = p;
    m->staged[a] = m->staged[b] = m->staged[bl] = m->staged[al] = true;
}

bool gpu_mma_staged(const GpuMma *m, const Instr *in)
{
    return m->staged && m->staged[in->id];
}

static GpuPipe *pipe_of(const GpuMma *m, const Instr *dot)
{
    const Instr *loop = dot->parent->owner;
    GpuPipe *p = loop && m->pipe ? m->pipe[loop->id] : NULL;
    return p && p->dot == dot->id ? p : NULL;
}

/* The pipeline of the innermost loop around in, or NULL. */
static GpuPipe *loop_pipe(const GpuMma *m, const Instr *in)
{
    const Instr *loop = tir_loop_of(in);
    return loop && m->pipe ? m->pipe[loop->id] : NULL;
}

int64_t gpu_mma_key_area_at(const GpuMma *m, int64_t *end)
{
    if (m->key_end < 0 || m->key_area <= 0)
        return -1;
    int64_t at = early_off(m) + m->key_base;
    *end = at + m->key_area;
    return at;
}

/* The mbarrier region's first byte (after the early and the warp-specialized
 * stages' regions; final in the second pass). */
static int64_t bar_region(const GpuMma *m) { return m->lead + early_off(m) + m->early_need + m->ws_need; }

int64_t gpu_mma_end(const GpuMma *m) { return bar_region(m) + m->bar_need; }

/* The stages' first byte: wgmma's swizzled tiles start 1024-aligned;
 * a warp-specialized pipeline's after the early region. */
static int64_t pipe_base(const GpuMma *m, const GpuPipe *p)
{
    if (p->ws)
        return al1k(m->lead + early_off(m) + m->early_need);
    return p->ea ? al1k(m->stg) : m->stg;
}

/* A key loop's stages' first byte (in the early region). */
static int64_t key_at(const GpuMma *m, const GpuPipe *p)
{
    int64_t at = early_at(m) + p->base;
    return p->swz ? al1k(at) : at;
}

/* The byte offsets of this iteration's A and B stages. */
static void pipe_bases(GpuMma *m, GpuPipe *p, PirExpr **ea, PirExpr **eb)
{
    if (!p->ws)
        need(m, p->S * p->stage + 2 * p->bt + (p->ea ? 1024 : 0));
    PirExpr *base = add(m, ci(m, pipe_base(m, p)), mul(m, ref(m, p->cur), ci(m, p->stage)));
    *ea = base;
    *eb = add(m, base, ci(m, p->offb));
}

/* Elements of load v in a 16-byte chunk. */
static int64_t chunk_elems(const GpuMma *m, int v) { return 16 / kind_of(ty(m, v)->dt).es; }

/* This thread's rounds of 16-byte chunks of load v, T chunks a round. */
static int64_t rounds(const GpuMma *m, int v)
{
    const TTy *t = ty(m, v);
    return (t->dim[0] * t->dim[1] / chunk_elems(m, v) + m->T - 1) / m->T;
}

/* Word i of the 16 bytes of tile v ([*, C] of an operand dtype) at row i0,
 * columns i1.. read element by element. */
static PirExpr *chunk_word(GpuMma *m, int v, PirExpr *i0, PirExpr *i1, int i)
{
    DType dt = ty(m, v)->dt;
    int es = kind_of(dt).es;
    PirExpr *x[4];
    for (int j = 0; j < 4 / es; j++)
        x[j] = gpu_at(m->e, v, i0, add(m, i1, ci(m, i * (4 / es) + j)), NULL);
    return es == 2 ? pack2(m, dt, x[0], x[1]) : es == 4 ? pir_bitcast(F, PT_U32, x[0]) : bytes4(m, x);
}

/* The 16-byte store of words w to the stage at byte dst. */
static void store_chunk(GpuMma *m, PirBlock *b, PirLocal *dst, PirExpr **w)
{
    PirStmt *st = pir_stmt(F, b, PS_STORE);
    st->mem = pir_smem(PT_U32, 0, op(m, PB_SHR, ref(m, dst), ci(m, 2)));
    st->nw = 4;
    for (int i = 0; i < 4; i++)
        st->w[i] = w[i];
    st->val = w[0];
}

/* Open the loop over rounds [q0, q1) of chunks of load v ([R, C], ce
 * elements a chunk) and the test that the chunk exists: its round (from 0),
 * row, column and byte offset in the stage; *depth the scopes to close. */
static PirExpr *chunk_loop_u(GpuMma *m, int v, PirExpr *at, int64_t q0, int64_t q1, int64_t E, int64_t pad,
                             PirLocal **i0, PirLocal **i1, PirLocal **dst, int *depth, bool unroll)
{
    const TTy *t = ty(m, v);
    int64_t ce = chunk_elems(m, v), es = 16 / ce;
    int64_t R = t->dim[0], C = t->dim[1], SR = C + pad, nch = R * C / ce;
    PirExpr *qq = loop(m, "q", q1 - q0, 1, unroll);
    PirLocal *ch = let(m, "ch", add(m, mul(m, add(m, qq, ci(m, q0)), ci(m, m->T)), gpu_tid(m->e)));
    *depth = 1;
    if (nch % m->T) {
        gpu_push(m->e, pir_if(F, CUR, op(m, PB_LT, ref(m, ch), ci(m, nch)))->body);
        ++*depth;
    }
    *i0 = let(m, "i", op(m, PB_DIV, ref(m, ch), ci(m, C / ce)));
    *i1 = let(m, "i", mul(m, op(m, PB_REM, ref(m, ch), ci(m, C / ce)), ci(m, ce)));
    PirExpr *o = E ? gpu_wg_at(m, R, E, ref(m, *i0), es == 2 ? ref(m, *i1)   /* 16-bit units */
                                                   : es == 4 ? mul(m, ref(m, *i1), ci(m, 2)) : op(m, PB_SHR, ref(m, *i1), ci(m, 1)))
                   : mul(m, add(m, mul(m, ref(m, *i0), ci(m, SR)), ref(m, *i1)), ci(m, es));
    *dst = let(m, "dst", add(m, at, o));
    return qq;
}

/* chunk_loop_u unrolled. */
static PirExpr *chunk_loop(GpuMma *m, int v, PirExpr *at, int64_t q0, int64_t q1, int64_t E, int64_t pad,
                           PirLocal **i0, PirLocal **i1, PirLocal **dst, int *depth)
{
    return chunk_loop_u(m, v, at, q0, q1, E, pad, i0, i1, dst, depth, true);
}

/* Copy rounds [q0, q1) of load v ([R, C]) of the iteration whose counter
 * the loop's LOOPVAR reads now into the stage at byte offset `at` (I32;
 * rows of C + pad elements, or with E > 0 wgmma's swizzled layout of
 * width E). */
static void copy_plain(GpuMma *m, int v, PirExpr *at, int64_t q0, int64_t q1, int64_t E, int64_t pad)
{
    if (q1 <= q0)
        return;
    scope(m);
    PirLocal *i0, *i1, *dst;
    int depth;
    chunk_loop(m, v, at, q0, q1, E, pad, &i0, &i1, &dst, &depth);
    PirExpr *ptr, *ok;
    if (gpu_load_chunk(m->e, v, ref(m, i0), ref(m, i1), &ptr, &ok)) {
        PirExpr *al = op(m, PB_EQ, op(m, PB_AND, pir_ptrint(F, ptr), pir_int(F, PT_U64, 15)), pir_int(F, PT_U64, 0));
        PirStmt *s = pir_if(F, CUR, ok ? op(m, PB_AND, ok, al) : al);
        PirStmt *cp = pir_asm_stmt(F, s->body, PA_CP_ASYNC);
        cp->in[0] = pir_saddr(F, ref(m, dst));
        cp->in[1] = ptr;
        cp->in[2] = pir_int(F, PT_U32, 16);
        s->els = pir_block(F);
        gpu_push(m->e, s->els);
        depth++;
    }
    PirExpr *w[4];
    for (int i = 0; i < 4; i++)
        w[i] = chunk_word(m, v, ref(m, i0), ref(m, i1), i);
    store_chunk(m, CUR, dst, w);
    close_n(m, depth + 1);
}

/* The staged copy of load v's rounds [q0, q1) in two passes, for a load
 * that all_aligned accepts (its tests are staged_issue's preconditions:
 * 16-byte chunks at pointer offsets, a dtype with a staged form, q1 > q0):
 * staged_issue issues every cp.async of an aligned chunk and every word
 * load (gpu_stage.c) of an unaligned one in bounds, staged_finish stores the
 * shifted words and copies the chunks at the edges element by element.
 * Between the two, other copies may issue theirs (copy_loads). */
typedef struct Staged { PirLocal *raw, *fl; int nr, es; } Staged;

static void staged_issue(GpuMma *m, int v, PirExpr *at, int64_t q0, int64_t q1, int64_t E, int64_t pad, Staged *st)
{
    st->es = (int)(16 / chunk_elems(m, v));
    st->nr = gpu_stage_raw(m->k, st->es);
    PirExpr *ptr, *ok;
    int nr = st->nr;
    st->raw = pir_local(F, "ur", PT_U32, (q1 - q0) * nr);
    st->fl = pir_local(F, "uf", PT_U32, (q1 - q0 + 15) / 16);   /* 2 bits a chunk */
    pir_decl(F, CUR, st->raw, NULL);
    pir_decl(F, CUR, st->fl, NULL);
    for (int64_t i = 0; i < (q1 - q0 + 15) / 16; i++)
        pir_assign(F, CUR, st->fl, ci(m, i), pir_int(F, PT_U32, 0));
    PirLocal *i0, *i1, *dst;
    int depth;
    /* fl, 2 bits a chunk: 1 staged, 3 staged with gpu_stage_load's flag, 2 at an edge
     * (0: cp.async, or no chunk) */
    PirExpr *qq = chunk_loop(m, v, at, q0, q1, E, pad, &i0, &i1, &dst, &depth);
    gpu_load_chunk(m->e, v, ref(m, i0), ref(m, i1), &ptr, &ok);
    PirLocal *okl = let(m, "uok", ok ? ok : pir_int(F, PT_BOOL, 1));
    PirLocal *al = let(m, "ual", op(m, PB_EQ, op(m, PB_AND, pir_ptrint(F, ptr), pir_int(F, PT_U64, 15)),
                                     pir_int(F, PT_U64, 0)));
    PirStmt *s = pir_if(F, CUR, op(m, PB_AND, ref(m, okl), ref(m, al)));
    PirStmt *cp = pir_asm_stmt(F, s->body, PA_CP_ASYNC);
    cp->in[0] = pir_saddr(F, ref(m, dst));
    cp->in[1] = ptr;
    cp->in[2] = pir_int(F, PT_U32, 16);
    PirLocal *stg = let(m, "ustg", op(m, PB_AND, ref(m, okl), pir_un(F, PU_NOT, ref(m, al))));
    PirExpr *flag = gpu_stage_load(m->e, ptr, st->es, ref(m, stg), st->raw, mul(m, qq, ci(m, nr)));
    PirExpr *f = op(m, PB_OR, pir_conv(F, PT_U32, ref(m, stg)),
                    op(m, PB_SHL, pir_conv(F, PT_U32, op(m, PB_OR, op(m, PB_AND, ref(m, stg), flag),
                                                         pir_un(F, PU_NOT, ref(m, okl)))),
                       pir_int(F, PT_U32, 1)));
    PirExpr *w = op(m, PB_DIV, qq, ci(m, 16));
    PirExpr *sh = pir_conv(F, PT_U32, mul(m, op(m, PB_REM, qq, ci(m, 16)), ci(m, 2)));
    pir_assign(F, CUR, st->fl, w, op(m, PB_OR, pir_elem(F, st->fl, w), op(m, PB_SHL, f, sh)));
    close_n(m, depth);
}

static void staged_finish(GpuMma *m, int v, PirExpr *at, int64_t q0, int64_t q1, int64_t E, int64_t pad,
                          const Staged *st)
{
    PirLocal *i0, *i1, *dst;
    int depth;
    PirExpr *qq = chunk_loop(m, v, at, q0, q1, E, pad, &i0, &i1, &dst, &depth);
    PirExpr *sh = pir_conv(F, PT_U32, mul(m, op(m, PB_REM, qq, ci(m, 16)), ci(m, 2)));
    PirLocal *fv = let(m, "uf", op(m, PB_AND, op(m, PB_SHR, pir_elem(F, st->fl, op(m, PB_DIV, qq, ci(m, 16))), sh),
                                   pir_int(F, PT_U32, 3)));
    PirExpr *u[4];
    PirStmt *s = pir_if(F, CUR, op(m, PB_NE, op(m, PB_AND, ref(m, fv), pir_int(F, PT_U32, 1)), pir_int(F, PT_U32, 0)));
    gpu_push(m->e, s->body);
    gpu_stage_words(m->e, st->es, st->raw, mul(m, qq, ci(m, st->nr)),
                    op(m, PB_NE, op(m, PB_AND, ref(m, fv), pir_int(F, PT_U32, 2)), pir_int(F, PT_U32, 0)), u);
    store_chunk(m, CUR, dst, u);
    gpu_pop(m->e);
    s->els = pir_block(F);
    gpu_push(m->e, s->els);
    s = pir_if(F, CUR, op(m, PB_EQ, ref(m, fv), pir_int(F, PT_U32, 2)));
    gpu_push(m->e, s->body);
    for (int i = 0; i < 4; i++)
        u[i] = chunk_word(m, v, ref(m, i0), ref(m, i1), i);
    store_chunk(m, CUR, dst, u);
    close_n(m, depth + 2);
}

/* Can load v's chunks be staged (staged_issue), and the run-time test that
 * every chunk of its tile is 16-byte aligned (uniform over the block: the
 * tile's first chunk and the step from its first row to the next), which
 * keeps copy_plain's cp.async path as it was for aligned tensors. */
static PirExpr *all_aligned(GpuMma *m, int v)
{
    Staged st;
    st.es = (int)(16 / chunk_elems(m, v));
    PirExpr *p0, *p1, *ok;
    if (!gpu_stage_raw(m->k, st.es) || !gpu_load_chunk(m->e, v, ci(m, 0), ci(m, 0), &p0, &ok)
        || p0->kind != PE_PTRADD || !gpu_load_chunk(m->e, v, ci(m, 1), ci(m, 0), &p1, &ok))
        return NULL;
    PirExpr *a0 = pir_ptrint(F, p0), *a1 = pir_ptrint(F, p1);
    PirExpr *x = op(m, PB_OR, a0, op(m, PB_SUB, a1, a0));
    return op(m, PB_EQ, op(m, PB_AND, x, pir_int(F, PT_U64, 15)), pir_int(F, PT_U64, 0));
}

/* One load's rounds [q0, q1) to copy into the stage at `at` (see
 * copy_plain). */
typedef struct CopyLoad { int v; PirExpr *at; int64_t q0, q1, E, pad; } CopyLoad;

/* NAME__nomap's lean copy (TKC_NOMAP_LEAN, on by default there): rounds
 * [q0, q1) of load v in one loop that is not unrolled, each chunk by one
 * cp.async when it is in bounds and 16-byte aligned, by gpu_stage_load's
 * word loads (its five registers, then gpu_stage_words) when it is in
 * bounds but not aligned, and element by element at the tensor's edges.
 * One copy path instead of copy_plain's and the two-pass staged copy's,
 * unrolled over the rounds, in every copy site of the pipeline (prologue,
 * loop, both operands): NAME__nomap runs only where the launcher could
 * neither build the tensor maps nor repack (gpu_stage.c), so it trades the
 * staged copy's loads in flight at once for size. */
static void copy_lean(GpuMma *m, int v, PirExpr *at, int64_t q0, int64_t q1, int64_t E, int64_t pad)
{
    if (q1 <= q0)
        return;
    scope(m);
    PirLocal *i0, *i1, *dst;
    int depth;
    chunk_loop_u(m, v, at, q0, q1, E, pad, &i0, &i1, &dst, &depth, false);
    PirExpr *ptr, *ok, *w[4];
    int es = (int)(16 / chunk_elems(m, v));
    if (gpu_load_chunk(m->e, v, ref(m, i0), ref(m, i1), &ptr, &ok)) {
        PirLocal *okl = let(m, "uok", ok ? ok : pir_int(F, PT_BOOL, 1));
        PirExpr *al = op(m, PB_EQ, op(m, PB_AND, pir_ptrint(F, ptr), pir_int(F, PT_U64, 15)), pir_int(F, PT_U64, 0));
        PirStmt *s = pir_if(F, CUR, op(m, PB_AND, ref(m, okl), al));
        PirStmt *cp = pir_asm_stmt(F, s->body, PA_CP_ASYNC);
        cp->in[0] = pir_saddr(F, ref(m, dst));
        cp->in[1] = ptr;
        cp->in[2] = pir_int(F, PT_U32, 16);
        s->els = pir_block(F);
        gpu_push(m->e, s->els);
        depth++;
        int nr = gpu_stage_raw(m->k, es);
        if (nr && ptr->kind == PE_PTRADD) {
            s = pir_if(F, CUR, ref(m, okl));
            gpu_push(m->e, s->body);
            PirLocal *raw = pir_local(F, "ur", PT_U32, nr);
            pir_decl(F, CUR, raw, NULL);
            PirExpr *odd = gpu_stage_load(m->e, ptr, es, pir_int(F, PT_BOOL, 1), raw, ci(m, 0));
            gpu_stage_words(m->e, es, raw, ci(m, 0), odd, w);
            store_chunk(m, CUR, dst, w);
            gpu_pop(m->e);
            s->els = pir_block(F);
            gpu_push(m->e, s->els);
            depth++;
        }
    }
    for (int i = 0; i < 4; i++)
        w[i] = chunk_word(m, v, ref(m, i0), ref(m, i1), i);
    store_chunk(m, CUR, dst, w);
    close_n(m, depth + 1);
}

/* Copy loads c[0 .. n) (n <= 2): those whose chunks may be unaligned
 * (all_aligned) by copy_plain's code when every one of them is aligned at
 * run time and by the staged copy otherwise, the others by copy_plain
 * alone.  Staged, each load's issue and finish follow one another, or with
 * TKC_UNALIGNED=2 every issue comes first (all loads in flight at once). */
static void copy_loads(GpuMma *m, const CopyLoad *c, int n)
{
    PirExpr *al = NULL, *ok[2];
    if (m->k->tma_version == 2 && tkc_knob("TKC_NOMAP_LEAN", 1)) {
        for (int i = 0; i < n; i++)
            copy_lean(m, c[i].v, c[i].at, c[i].q0, c[i].q1, c[i].E, c[i].pad);
        return;
    }
    for (int i = 0; i < n; i++) {
        ok[i] = c[i].q1 > c[i].q0 ? all_aligned(m, c[i].v) : NULL;
        al = !ok[i] ? al : al ? op(m, PB_AND, al, ok[i]) : ok[i];
    }
    PirStmt *s = al ? pir_if(F, CUR, al) : NULL;
    if (s)
        gpu_push(m->e, s->body);
    for (int i = 0; i < n; i++)
        copy_plain(m, c[i].v, c[i].at, c[i].q0, c[i].q1, c[i].E, c[i].pad);
    if (!s)
        return;
    gpu_pop(m->e);
    s->els = pir_block(F);
    gpu_push(m->e, s->els);
    scope(m);
    Staged st[2];
    bool ahead = tkc_knob("TKC_UNALIGNED", 0) == 2;
    for (int i = 0; ahead && i < n; i++)
        if (ok[i])
            staged_issue(m, c[i].v, c[i].at, c[i].q0, c[i].q1, c[i].E, c[i].pad, &st[i]);
    for (int i = 0; i < n; i++) {
        const CopyLoad *x = &c[i];
        if (!ok[i]) {
            copy_plain(m, x->v, x->at, x->q0, x->q1, x->E, x->pad);
            continue;
        }
        if (!ahead)
            staged_issue(m, x->v, x->at, x->q0, x->q1, x->E, x->pad, &st[i]);
        staged_finish(m, x->v, x->at, x->q0, x->q1, x->E, x->pad, &st[i]);
    }
    close_n(m, 2);
}

/* copy_loads of one load. */
static void copy_tile(GpuMma *m, int v, PirExpr *at, int64_t q0, int64_t q1, int64_t E, int64_t pad)
{
    CopyLoad c = { v, at, q0, q1, E, pad };
    copy_loads(m, &c, 1);
}

/* The U32 shared address of the mbarrier of TMA pipeline p's stage slot
 * (with `empty`, of the warp-specialized pipeline's empty mbarrier). */
static PirExpr *bar_addr_of(GpuMma *m, GpuPipe *p, PirExpr *slot, bool empty)
{
    int64_t at = bar_region(m) + p->bar + (empty ? 8 * p->S : 0);
    return pir_saddr(F, add(m, ci(m, at), mul(m, slot, ci(m, 8))));
}

static PirExpr *bar_addr(GpuMma *m, GpuPipe *p, PirExpr *slot) { return bar_addr_of(m, p, slot, false); }

/* The "ready" mbarrier of stage slot of a producer-rounded pipeline (pr). */
static PirExpr *ready_addr(GpuMma *m, GpuPipe *p, PirExpr *slot)
{
    return bar_addr_of(m, p, add(m, slot, ci(m, 2 * p->S)), false);
}

/* Announce the bytes of a stage on its mbarrier and issue the TMA copies
 * of both operands of the iteration the loop counter's binding names into
 * stage slot (at: its byte offset). */
static void tma_copies(GpuMma *m, GpuPipe *p, PirLocal *at, PirExpr *slot)
{
    if (p->kw) {                              /* each load on its own full mbarrier */
        for (int i = 0; i < p->nld; i++) {
            PirLocal *kb = let(m, "bar", kw_full(m, p, i, slot));
            PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_EXPECT);
            x->in[0] = ref(m, kb);
            x->in[1] = pir_int(F, PT_U32, tty_numel(ty(m, p->ld[i])) * 2);
            gpu_tma_copy4(m, &p->kt[i], p->kmap[i], p->ld[i], p->lde[i], add(m, ref(m, at), ci(m, p->ldoff[i])),
                          ref(m, kb));
        }
        return;
    }
    if (p->nld) {                             /* a key loop's loads (key_tma_plan) */
        PirLocal *kb = let(m, "bar", bar_addr(m, p, slot));
        int64_t bytes = 0;
        for (int i = 0; i < p->nld; i++)
            bytes += tty_numel(ty(m, p->ld[i])) * 2;
        PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_EXPECT);
        x->in[0] = ref(m, kb);
        x->in[1] = pir_int(F, PT_U32, bytes);
        for (int i = 0; i < p->nld; i++)
            gpu_tma_copy4(m, &p->kt[i], p->kmap[i], p->ld[i], p->lde[i], add(m, ref(m, at), ci(m, p->ldoff[i])),
                          ref(m, kb));
        return;
    }
    const Instr *dot = I(m, p->dot);
    const TTy *ta = ty(m, dot->args[0]), *tb = ty(m, dot->args[1]);
    PirLocal *bar = let(m, "bar", bar_addr(m, p, slot));
    PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_EXPECT);
    x->in[0] = ref(m, bar);
    x->in[1] = pir_int(F, PT_U32, (tty_numel(ta) + tty_numel(tb)) * kind_of(ta->dt).es);
    int64_t es = kind_of(ta->dt).es;          /* the widths in elements */
    cl_copy(m, p, 0, ref(m, at), ref(m, bar), p->ea * 2 / es);
    cl_copy(m, p, 1, add(m, ref(m, at), ci(m, p->offb)), ref(m, bar), p->eb * 2 / es);
}

/* tma_copies by one thread (0), into block b. */
static void tma_issue(GpuMma *m, GpuPipe *p, PirLocal *at, PirExpr *slot, PirBlock *b)
{
    gpu_push(m->e, pir_if(F, b, op(m, PB_EQ, gpu_tid(m->e), ci(m, 0)))->body);
    tma_copies(m, p, at, slot);
    gpu_pop(m->e);
}

/* The mbarriers of the key pipelines synchronized by them: S full and S
 * empty ones each, every thread arriving once a phase. */
static void key_bars(GpuMma *m)
{
    bool any = false;
    for (int v = 1; m->pipe && v < m->k->instrs.n; v++) {
        GpuPipe *p = m->pipe[v];
        if (!p || !p->mb)
            continue;
        p->fph = let(m, "fph", pir_int(F, PT_U32, 0));
        p->eph = let(m, "eph", pir_int(F, PT_U32, 0));
        any = true;
    }
    if (!any)
        return;
    gpu_push(m->e, pir_if(F, CUR, op(m, PB_EQ, gpu_tid(m->e), ci(m, 0)))->body);
    for (int v = 1; v < m->k->instrs.n; v++) {
        GpuPipe *p = m->pipe[v];
        for (int s = 0; p && p->mb && !p->tma && s < 2 * p->S; s++) {
            PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_INIT);
            x->in[0] = bar_addr(m, p, ci(m, s));
            x->in[1] = pir_int(F, PT_U32, m->T);
        }
    }
    pir_asm_stmt(F, CUR, PA_MBAR_FENCE);
    gpu_pop(m->e);
    pir_barrier(F, CUR);
}

static PirExpr *mmpp_turn(GpuMma *m, PirExpr *w);
static PirExpr *kw_done_addr(GpuMma *m);

void gpu_mma_kernel_head(GpuMma *m)
{
    m->tma_ok = -1;
    m->tma_on = NULL;
    key_bars(m);
    bool any = false;
    for (int v = 1; m->pipe && v < m->k->instrs.n; v++) {
        GpuPipe *p = m->pipe[v];
        if (!p || !p->tma)
            continue;
        for (int i = 0; i < p->nld; i++)     /* a key loop's (key_tma_plan) */
            p->kmap[i] = gpu_tma_param4(m, &p->kt[i], p->lde[i], ty(m, p->ld[i])->dim[0]);
        if (!p->nld) {
            const Instr *dot = I(m, p->dot);
            int64_t es = kind_of(ty(m, dot->args[0])->dt).es;   /* the widths in elements */
            p->map[0] = gpu_tma_param(m, &p->ta, p->ea * 2 / es, ty(m, p->al)->dim[0]);
            p->map[1] = gpu_tma_param(m, &p->tb, p->eb * 2 / es, ty(m, p->bl)->dim[0]);
            /* an: A's map is y [K, M] and B's x [N, K] of c^T: the user's b
             * (K x N) and a (M x K) */
            F->params.v[p->map[0]].role = p->an ? 2 : 1;
            F->params.v[p->map[1]].role = p->an ? 1 : p->bk ? 4 : 2;
            F->params.v[p->map[0]].tf32 = F->params.v[p->map[1]].tf32 = p->tr;
        }
        p->ph = p->kw && p->kwi ? m->kw[0]->ph : let(m, "ph", pir_int(F, PT_U32, 0));
        any = true;
    }
    if (!any)
        return;
    m->tma_ok = pir_add_param(F, PP_TMA_OK, PT_I32, 0, "tk_tma", -1, 0);
    if (m->k->tma_version)      /* one version of two: the launcher picks (tma_version) */
        m->tma_on = let(m, "tma", pir_int(F, PT_BOOL, m->k->tma_version == 1));
    else
        m->tma_on = let(m, "tma", op(m, PB_NE, pir_param(F, m->tma_ok), ci(m, 0)));
    if (m->cl) {
        F->cluster = 2;
        cl_head(m);
    }
    gpu_push(m->e, pir_if(F, CUR, op(m, PB_AND, ref(m, m->tma_on), op(m, PB_EQ, gpu_tid(m->e), ci(m, 0))))->body);
    for (int v = 1; v < m->k->instrs.n; v++) {
        GpuPipe *p = m->pipe[v];
        for (int s = 0; p && p->kw && p->kwi == 0 && s < p->S; s++) {   /* shared by every kw loop */
            for (int i = 0; i <= p->nld; i++) {
                PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_INIT);
                x->in[0] = i < p->nld ? kw_full(m, p, i, ci(m, s)) : kw_empty(m, p, ci(m, s));
                x->in[1] = pir_int(F, PT_U32, i < p->nld ? 1 : m->T / 128 * (p->kwe ? p->nld : 1));
            }
        }
        for (int s = 0; p && p->tma && !p->kw && s < p->S; s++) {
            PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_INIT);
            x->in[0] = bar_addr(m, p, ci(m, s));
            x->in[1] = pir_int(F, PT_U32, 1);
            if (!p->ws && !p->mb)
                continue;
            x = pir_asm_stmt(F, CUR, PA_MBAR_INIT);     /* the consumers release (ws_release, key_release) */
            x->in[0] = bar_addr_of(m, p, ci(m, s), true);
            int64_t n = p->mb || ws_wg_arrive(m) ? m->T / 128 : m->T;
            x->in[1] = p->ws && m->cl        /* a partner's consumers too */
                       ? pir_select(F, ref(m, m->cl_pair), pir_int(F, PT_U32, 2 * n), pir_int(F, PT_U32, n))
                       : pir_int(F, PT_U32, n);
            if (!p->pr)
                continue;
            x = pir_asm_stmt(F, CUR, PA_MBAR_INIT);     /* the rounding warps (gpu_mma_ws_round) */
            x->in[0] = ready_addr(m, p, ci(m, s));
            x->in[1] = pir_int(F, PT_U32, 96);
        }
    }
    for (int w = 0; m->pp && w < 2; w++) {
        PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_INIT);
        x->in[0] = mmpp_turn(m, ci(m, w));
        x->in[1] = pir_int(F, PT_U32, m->T);
    }
    if (m->kw_done >= 0) {
        PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_INIT);
        x->in[0] = pir_saddr(F, kw_done_addr(m));
        x->in[1] = pir_int(F, PT_U32, 1);
    }
    if (m->cl) {                       /* the pair's mailbox: the partner's one arrival */
        PirStmt *x = pir_asm_stmt(F, CUR, PA_MBAR_INIT);
        x->in[0] = cl_box(m, -1);
        x->in[1] = pir_int(F, PT_U32, 1);
    }
    pir_asm_stmt(F, CUR, PA_MBAR_FENCE);
    gpu_pop(m->e);
    if (m->cl)                         /* the partner's mbarriers are ready too */
        pir_asm_stmt(F, CUR, PA_CL_SYNC);
    else
        pir_barrier(F, CUR);
}

/* Part `part` of `parts` of the copies of both dot operands of pipeline p
 * into the stage at `at`: copy_plain when both tiles are aligned (checked
 * at run time when either may not be), else the staged copies with both
 * operands' loads in flight before the first store with TKC_UNALIGNED=2,
 * one operand at a time with 1. */
static void copy_operands(GpuMma *m, GpuPipe *p, PirLocal *at, int part, int parts)
{
    const Instr *dot = I(m, p->dot);
    Kind kd = kind_of(ty(m, dot->args[0])->dt);
    int64_t ra = rounds(m, p->al), rb = rounds(m, p->bl);
    CopyLoad c[2] = {
        { p->al, ref(m, at), ra * part / parts, ra * (part + 1) / parts, p->ea, p->an ? kd.pb : kd.pa },
        { p->bl, add(m, ref(m, at), ci(m, p->offb)), rb * part / parts, rb * (part + 1) / parts, p->eb,
          p->bk ? kd.pa : kd.pb },
    };
    copy_loads(m, c, 2);
}

/* Copy part `part` of `parts` of the operands of the iteration `ahead`
 * iterations after the one whose counter is `base` into stage `slot`. */
static void pipe_copy(GpuMma *m, GpuPipe *p, PirExpr *base, int64_t ahead, PirExpr *slot, int part, int parts)
{
    PirExpr *kc = base;
    if (ahead)
        kc = pir_bin(F, PB_ADD, base, pir_bin(F, PB_MUL, pir_int(F, p->t, ahead), p->step));
    PirLocal *k = let(m, "kn", kc);
    PirLocal *c = gpu_bind(m->e, p->lv, k);
    const Instr *loop = I(m, p->lv)->parent->owner;
    PirLocal **sc = gpu_ahead_scalars(m->e, loop);
    int64_t at0 = p->nld ? key_at(m, p) : pipe_base(m, p);
    PirLocal *at = let(m, "st", add(m, ci(m, at0), mul(m, slot, ci(m, p->stage))));
    if (p->tma) {
        PirStmt *t = pir_if(F, CUR, ref(m, m->tma_on));
        if (part == 0 && !p->ws)         /* else the producer does */
            tma_issue(m, p, at, slot, t->body);
        t->els = pir_block(F);
        gpu_push(m->e, t->els);
    }
    for (int i = 0; i < p->nld; i++) {      /* a key loop's loads */
        int64_t r = rounds(m, p->ld[i]);
        copy_tile(m, p->ld[i], add(m, ref(m, at), ci(m, p->ldoff[i])), r * part / parts, r * (part + 1) / parts,
                  p->lde[i], PAD);
    }
    if (!p->nld)
        copy_operands(m, p, at, part, parts);
    if (p->tma)
        gpu_pop(m->e);
    gpu_ahead_done(m->e, loop, sc);
    gpu_bind(m->e, p->lv, c);
}

static PirExpr *i64(GpuMma *m, PirExpr *x) { return pir_conv(F, PT_I64, x); }

/* The trip count (I64) of a loop from lo to hi by step (> 0):
 * lo < hi ? (hi - lo - 1) / step + 1 : 0 */
static PirExpr *trips(GpuMma *m, PirExpr *lo, PirExpr *hi, PirExpr *step)
{
    PirExpr *L = i64(m, lo), *H = i64(m, hi), *lt = pir_bin(F, PB_LT, L, H);
    PirExpr *d = pir_select(F, lt, pir_bin(F, PB_SUB, pir_bin(F, PB_SUB, H, L), pir_int(F, PT_I64, 1)),
                            pir_int(F, PT_I64, 0));
    PirExpr *cnt = pir_nsw(F, PB_ADD, pir_nsw(F, PB_DIV, d, i64(m, step)), pir_int(F, PT_I64, 1));
    return pir_select(F, lt, cnt, pir_int(F, PT_I64, 0));
}

/* Key pipeline p synchronized by mbarriers: this thread's copies into
 * stage slot are issued; its full mbarrier completes when they (and every
 * other thread's) have landed. */
static void mb_filled(GpuMma *m, GpuPipe *p, PirExpr *slot)
{
    PirLocal *b = let(m, "fb", bar_addr(m, p, slot));
    pir_asm_stmt(F, CUR, PA_CP_MBAR_ARRIVE)->in[0] = ref(m, b);
    pir_asm_stmt(F, CUR, PA_MBAR_ARRIVE)->in[0] = ref(m, b);
}

/* An mbarrier wait into block b.  TKC_MBAR_SUSPEND=N (ns; 0: off;
 * TKC_MBAR_SUSPEND_P=N: only the key producer's waits for empty stages): with
 * try_wait's suspend-time hint, so that a thread whose phase has not
 * completed sleeps until it does instead of coming back to spin (CUTLASS's
 * barriers pass 10 ms).  Nsight Compute, H100, sdpa_bf16 D=128 B=4 H=16
 * S=T=4096: without it the producer's waits for empty stages issued 33 M
 * instructions of 385 M, try_wait and its branch about 260 times a wait,
 * on the issue slots of a scheduler two consumer warps use
 * (doc/bench/h100-s16-ncu.log).  But the consumers leave those slots idle
 * more than half the time anyway: same run, 10 ms / 1 us hints against
 * none, D=128 547.5 / 551.3 vs 544.2 TFLOP/s, causal 459.8 / 460.4 vs
 * 456.5, D=64 457.8 / 456.9 vs 472.7 (the first build timed reads high
 * there), matmul_bf16 0.984 vs 0.987 of cuBLAS at 4096^3
 * (doc/bench/h100-s16-g4.log): noise, so off.  H200, 192 x 128 blocks
 * (three consumer warpgroups), 10 interleaved rounds: the hint on the
 * producer's waits alone 0.916 / 0.914 / 0.912 of cuDNN at 200 / 1000 /
 * 20000 ns, on every wait 0.903, vs 0.947 without (doc/bench/
 * h200-s28-s1.log). */
static PirStmt *mbar_wait(GpuMma *m, PirBlock *b)
{
    int ns = m->producing ? tkc_knob("TKC_MBAR_SUSPEND_P", tkc_knob("TKC_MBAR_SUSPEND", 0))
                          : tkc_knob("TKC_MBAR_SUSPEND", 0);
    PirStmt *w = pir_asm_stmt(F, b, ns > 0 ? PA_MBAR_WAIT_S : PA_MBAR_WAIT);
    if (ns > 0)
        w->in[2] = pir_int(F, PT_U32, ns);
    return w;
}

/* Wait for the phase of mbarrier `bar` whose parity is bit `slot` of
 * *bits, and flip the bit. */
static void mb_wait(GpuMma *m, PirLocal *bits, PirExpr *bar, PirExpr *slot)
{
    PirExpr *s32 = pir_conv(F, PT_U32, slot);
    PirStmt *w = mbar_wait(m, CUR);
    w->in[0] = bar;
    w->in[1] = op(m, PB_AND, op(m, PB_SHR, ref(m, bits), s32), pir_int(F, PT_U32, 1));
    pir_assign(F, CUR, bits, NULL, op(m, PB_XOR, ref(m, bits), op(m, PB_SHL, pir_int(F, PT_U32, 1), s32)));
}

static void pp_loop(GpuMma *m, GpuPipe *p, bool pre);
static void mmpp_pre(GpuMma *m, GpuPipe *p);
static void mmpp_post(GpuMma *m, GpuPipe *p, bool after);

void gpu_mma_loop_pre(GpuMma *m, const Instr *loop, PirExpr *lo, PirExpr *hi, PirExpr *step)
{
    GpuPipe *p = m->pipe ? m->pipe[loop->id] : NULL;
    if (!p)
        return;
    p->step = step;
    if (p->bd) {                       /* bd_plan: acc's registers are the dot's fragments */
        Grid g, gv;
        const Instr *d = I(m, p->bd), *set = I(m, p->bd_set);
        PirLocal *x = gpu_var(m->e, set->index);
        if (dot_fits(m, d, &g) && var_grid(m, set->index, &gv) && gpu_grid_eq(&g, &gv)
            && x->ty == pir_ty_compute(d->ty.dt) && x->n == g.MI * g.NI * 4 && gpu_in_frags(m->e, p->bd, set->index, &g)) {
            p->bd_acc = pir_local(F, "dd", x->ty, x->n);
            pir_decl(F, CUR, p->bd_acc, NULL);
            p->bd_nacc = g.NI * 4;
            bd_copy(m, x, p->bd_acc);         /* acc = dd before the first dot is a no-op */
        } else {
            m->bd_set[p->bd_set] = false;
            p->bd = p->bd_first = p->bd_set = 0;
        }
    }
    if (p->tma)                        /* earlier generic accesses before TMA's writes */
        pir_asm_stmt(F, CUR, PA_FENCE_PROXY);
    pir_barrier(F, CUR);               /* the last readers of the staging region are done */
    p->lo = let(m, "lo", lo);
    p->n = let(m, "n", trips(m, lo, hi, step));
    p->it = let(m, "it", pir_int(F, PT_I64, 0));
    p->rs = let(m, "rs", ci(m, 0));
    p->cur = pir_local(F, "cur", PT_I32, 0);
    pir_decl(F, CUR, p->cur, ci(m, 0));
    if (p->ws)
        p->prev = let(m, "prev", ci(m, -1));
    if (p->ws && m->pp)
        mmpp_pre(m, p);
    for (int s = 0; s < p->ahead && !p->kw; s++) {    /* kw: the producer's */
        PirStmt *i = pir_if(F, CUR, pir_bin(F, PB_LT, pir_int(F, PT_I64, s), ref(m, p->n)));
        gpu_push(m->e, i->body);
        pipe_copy(m, p, ref(m, p->lo), s, ci(m, s), 0, 1);
        if (p->mb && !p->tma)
            mb_filled(m, p, ci(m, s));
        gpu_pop(m->e);
        pir_asm_stmt(F, CUR, PA_CP_COMMIT);
    }
    pp_loop(m, p, true);
}

/* Part `part` of `parts` of the copies of iteration it + D (D = p->ahead)
 * into stage (cur + D) % S; after the last part the commit and it++. */
static void pipe_issue(GpuMma *m, GpuPipe *p, int part, int parts)
{
    if (p->kw)
        return;
    int S = p->S, D = p->ahead;
    PirExpr *ahead = pir_nsw(F, PB_ADD, ref(m, p->it), pir_int(F, PT_I64, D));
    PirStmt *i = pir_if(F, CUR, pir_bin(F, PB_LT, ahead, ref(m, p->n)));
    gpu_push(m->e, i->body);
    PirExpr *ws = D == S - 1 ? pir_select(F, op(m, PB_EQ, ref(m, p->cur), ci(m, 0)), ci(m, S - 1),
                                          op(m, PB_SUB, ref(m, p->cur), ci(m, 1)))
                             : pir_select(F, op(m, PB_GE, ref(m, p->cur), ci(m, S - D)),
                                          op(m, PB_SUB, ref(m, p->cur), ci(m, S - D)), add(m, ref(m, p->cur), ci(m, D)));
    /* lo + (it + D) * step rather than counter + D * step: `it`
     * steps by one, so the compiler strength-reduces the copies' addresses */
    PirExpr *kn = pir_bin(F, PB_ADD, ref(m, p->lo),
                          pir_bin(F, PB_MUL, pir_conv(F, p->t, ahead), p->step));
    PirLocal *wsl = NULL;
    bool one = p->mb && p->tma;        /* thread 0 waits and issues (key_tma_mb) */
    if (one)
        gpu_push(m->e, pir_if(F, CUR, op(m, PB_EQ, gpu_tid(m->e), ci(m, 0)))->body);
    if (p->mb) {                       /* every thread is done with the stage's last iteration */
        wsl = let(m, "ws", ws);
        ws = ref(m, wsl);
        PirStmt *r = pir_if(F, CUR, pir_bin(F, PB_GE, ahead, pir_int(F, PT_I64, S)));
        gpu_push(m->e, r->body);
        mb_wait(m, p->eph, bar_addr_of(m, p, ws, true), ws);
        gpu_pop(m->e);
    }
    pipe_copy(m, p, kn, 0, ws, part, parts);
    if (p->mb && !p->tma)
        mb_filled(m, p, ref(m, wsl));
    if (one)
        gpu_pop(m->e);
    gpu_pop(m->e);
    if (part + 1 < parts)
        return;
    pir_asm_stmt(F, CUR, PA_CP_COMMIT);
    pir_assign(F, CUR, p->it, NULL, pir_nsw(F, PB_ADD, ref(m, p->it), pir_int(F, PT_I64, 1)));
}

/* After the wait that leaves this iteration's MMAs in flight (lb_plan):
 * the stage of the iteration before is free once every thread got here,
 * for the copies of iteration it + S - 1 (pipe_issue); no barrier where
 * none are issued.  (Per-stage "empty" mbarriers that thread 0 alone waits
 * for, so that the warpgroups drift apart, make ptxas serialize every
 * wgmma: C7518, a spin loop on a divergent path with MMAs in flight.) */
static void lb_release(GpuMma *m, GpuPipe *p)
{
    PirExpr *go = pir_bin(F, PB_LT, pir_nsw(F, PB_ADD, ref(m, p->it), pir_int(F, PT_I64, p->S - 1)), ref(m, p->n));
    pir_barrier(F, pir_if(F, CUR, go)->body);
}

/* TKC_KEY_SKEW=1 (an experiment, off): a key loop's TMA stages guarded by
 * named barrier SKEW_BAR instead of the block barrier at the head of an
 * iteration.  ncu of sdpa_bf16 at D=128 (doc/bench/h100-s11-s11-attn-1.log)
 * shows the two warpgroups in lockstep: both wait for their q k^T at once
 * (nothing else to run: 29% of the key loop's samples) and both run the
 * softmax at once (sharing the MUFU).  Only thread 0's copies into the
 * stage of the iteration before need every warp done with it, so
 * warpgroup 0 (which issues them) waits at the named barrier (bar.sync)
 * before its wait for the stage, and warpgroup 1 only arrives there
 * (bar.arrive), after its own wait for the stage: warpgroup 1 never waits
 * for warpgroup 0 but for the data, and may run up to an iteration ahead
 * (its softmax then overlaps warpgroup 0's MMAs).  Warpgroup 1's arrival
 * for iteration n follows its wait for the copies warpgroup 0 issued after
 * its barrier for iteration n - 1, so the barrier's phases stay in order.
 * Block barriers before and after the loop (the warpgroups may be apart).
 * H100, B=4 H=16 S=T=4096, same run (doc/bench/h100-s11-s11-attn-3.log):
 * D=128 454.4 TFLOP/s vs 490.8, causal 398.3 vs 389.2, D=64 389.6 vs 394.7,
 * causal 331.7 vs 346.3: slower but for causal D=128, off.  ptxas spills
 * more with it at D=128 (396 / 200 bytes vs 88 / 176).  Ordering the turns
 * (FA3's ping-pong) is what it lacks; TKC_PINGPONG is that on mbarriers. */
#define SKEW_BAR 4

static bool key_skew(const GpuMma *m, const GpuPipe *p)
{
    return p->tma && !p->mb && !p->ws && !p->lb && m->T == 256 && tkc_knob("TKC_KEY_SKEW", 0) == 1;
}

/* NBAR_SYNC (warpgroup 0) or NBAR_ARRIVE (warpgroup 1) at SKEW_BAR. */
static void skew_bar(GpuMma *m, bool sync)
{
    PirStmt *i = pir_if(F, CUR, op(m, sync ? PB_LT : PB_GE, gpu_tid(m->e), ci(m, 128)));
    PirStmt *s = pir_asm_stmt(F, i->body, sync ? PA_NBAR_SYNC : PA_NBAR_ARRIVE);
    s->in[0] = ci(m, SKEW_BAR);
    s->in[1] = ci(m, 256);
}

static void kw_head(GpuMma *m, GpuPipe *p);
static void kw_release(GpuMma *m, GpuPipe *p, PirExpr *slot, PirExpr *go);

void gpu_mma_loop_head(GpuMma *m, const Instr *loop)
{
    GpuPipe *p = m->pipe ? m->pipe[loop->id] : NULL;
    if (!p)
        return;
    int S = p->S;
    pir_assign(F, CUR, p->cur, NULL, ref(m, p->rs));
    pir_assign(F, CUR, p->rs, NULL, pir_select(F, op(m, PB_EQ, ref(m, p->rs), ci(m, S - 1)), ci(m, 0),
                                                add(m, ref(m, p->rs), ci(m, 1))));
    if (p->kw) {
        kw_head(m, p);
        return;
    }
    if (p->mb) {
        /* the dots of the iteration before waited for their MMAs: release
         * its stage when a later iteration copies into it again */
        PirExpr *it = ref(m, p->it);
        PirStmt *r = pir_if(F, CUR, pir_bin(F, PB_AND, pir_bin(F, PB_GT, it, pir_int(F, PT_I64, 0)),
                                           pir_bin(F, PB_LT, pir_nsw(F, PB_ADD, it, pir_int(F, PT_I64, S - 1)),
                                                   ref(m, p->n))));
        PirExpr *prev = pir_select(F, op(m, PB_EQ, ref(m, p->cur), ci(m, 0)), ci(m, S - 1),
                                   op(m, PB_SUB, ref(m, p->cur), ci(m, 1)));
        if (p->tma)                    /* one thread per warpgroup (as ws_release) */
            r->cond = op(m, PB_AND, r->cond, op(m, PB_EQ, op(m, PB_AND, gpu_tid(m->e), ci(m, 127)), ci(m, 0)));
        pir_asm_stmt(F, r->body, PA_MBAR_ARRIVE)->in[0] = bar_addr_of(m, p, prev, true);
        pipe_issue(m, p, 0, 1);        /* the copies first: they wait for the slowest thread */
        mb_wait(m, p->fph, bar_addr(m, p, ref(m, p->cur)), ref(m, p->cur));
        if (p->swz && !p->tma && tkc_knob("TKC_WG_PROXY", 1))   /* the landed copies, to wgmma's async proxy */
            pir_asm_stmt(F, CUR, PA_FENCE_PROXY);
        return;
    }
    bool skew = key_skew(m, p);
    if (p->tma) {                      /* stage cur's mbarrier: its phase completed */
        PirStmt *t = pir_if(F, CUR, ref(m, m->tma_on));
        if (skew) {
            gpu_push(m->e, t->body);
            skew_bar(m, true);
            gpu_pop(m->e);
        }
        PirStmt *w = mbar_wait(m, t->body);
        w->in[0] = p->pr ? ready_addr(m, p, ref(m, p->cur)) : bar_addr(m, p, ref(m, p->cur));
        PirExpr *bit = op(m, PB_SHL, pir_int(F, PT_U32, 1), pir_conv(F, PT_U32, ref(m, p->cur)));
        w->in[1] = op(m, PB_AND, op(m, PB_SHR, ref(m, p->ph), pir_conv(F, PT_U32, ref(m, p->cur))), pir_int(F, PT_U32, 1));
        pir_assign(F, t->body, p->ph, NULL, op(m, PB_XOR, ref(m, p->ph), bit));
        if (skew) {
            gpu_push(m->e, t->body);
            skew_bar(m, false);
            gpu_pop(m->e);
        }
        t->els = pir_block(F);
        gpu_push(m->e, t->els);
    }
    PirStmt *w = pir_asm_stmt(F, CUR, PA_CP_WAIT);
    w->in[0] = ci(m, p->ahead - 1);
    if ((p->ea || p->swz) && tkc_knob("TKC_WG_PROXY", 1))    /* wgmma reads through the async proxy */
        pir_asm_stmt(F, CUR, PA_FENCE_PROXY);
    if (p->ws || p->lb || ((p->bd_acc || p->li) && p->tma))   /* with TMA the empty mbarriers guard the stages */
        pir_barrier(F, CUR);           /* (lb: or the barrier after the wait; bd: every thread's
                                        * cp.async copies landed) */
    if (skew)                          /* the cp.async copies (no tensor maps): every thread's */
        pir_barrier(F, CUR);
    if (p->tma)
        gpu_pop(m->e);
    if (p->bd_acc || p->li)            /* after the first dot's wait (bd_settle) or commit (li_plan) */
        return;
    if (!p->ws && !p->lb && !skew)
        pir_barrier(F, CUR);
    if (!p->late)
        pipe_issue(m, p, 0, 1);
}

void gpu_mma_loop_post(GpuMma *m, const Instr *loop)
{
    GpuPipe *p = m->pipe ? m->pipe[loop->id] : NULL;
    if (!p)
        return;
    /* the wait only after a loop that ran: where the loop and its skipping
     * meet, NVVM puts the accumulators' zeros on the skipping path, and a
     * wait after that join let ptxas see them inside the wgmma pipeline
     * (C7515: every wgmma serialized; matmul_bf16 without cp.async copies,
     * TirKernel.tma_version 1).  Elsewhere that guard is the trouble: on
     * the loop-skipping path ptxas cannot tell that no wgmma is in flight,
     * and where the epilogue reads the accumulators after the join it
     * serializes every wgmma of the function (C7514: matmul_bf16__nomap's
     * NVRTC PTX with TKC_EPI_LEAN=1, every wgmma matmul of the stdlib in
     * LLVM's PTX).  TKC_WAIT_RAN: 2 (default) the guard in the TMA version
     * only (targets/nvptx drops it there too: gen.c, if_stmt), 1 in every
     * K loop (before s12-ir2), 0 in none.
     * The guarded wait is followed by a second one after the join, for
     * every path (TKC_WAIT_TWICE=0: not): with the guard alone ptxas
     * still serialized every wgmma of a kernel whose epilogue reads the
     * accumulators on the skipping path (C7514: matmul_bf16 / matmul_f16
     * with SWAP = 1 and every other non-persistent wgmma K loop of
     * tests/run; the 160-row transposed tile at 300 x 8192^2 among them),
     * and without it (TKC_WAIT_RAN=0) the zeros came back (C7515:
     * tests/run/mma_pipe.tk pp_big).  With both, NVRTC's PTX of every
     * stdlib and run-test kernel compiles without either (the __nomap
     * versions of the transposed f16 tiles aside); a wait with no group
     * in flight costs nothing. */
    if (p->bd_acc)
        bd_settle(m, p);
    int wr = tkc_knob("TKC_WAIT_RAN", 2);
    bool ran = p->acc && (wr == 1 || (wr == 2 && m->k->tma_version == 1));
    if (p->ws && m->pp)
        mmpp_post(m, p, false);
    if (ran) {
        PirStmt *g = pir_if(F, CUR, op(m, PB_LT, pir_int(F, PT_I64, 0), ref(m, p->n)));
        g->elidable = wr == 2;
        gpu_push(m->e, g->body);
    }
    if (p->acc)
        gpu_wg_wait(m, p->acc, p->nacc, 0);
    if (ran)
        gpu_pop(m->e);
    if (ran && tkc_knob("TKC_WAIT_TWICE", 1))
        gpu_wg_wait(m, p->acc, p->nacc, 0);
    if (p->ws)
        ws_release(m, p, false);
    if (p->kw && !p->kwe)
        kw_release(m, p, ref(m, p->cur), op(m, PB_LT, pir_int(F, PT_I64, 0), ref(m, p->n)));
    if (p->ws && m->pp)
        mmpp_post(m, p, true);
    PirStmt *w = pir_asm_stmt(F, CUR, PA_CP_WAIT);
    w->in[0] = ci(m, 0);
    pp_loop(m, p, false);
    if (p->mb || p->lb || p->kw || key_skew(m, p))   /* the warpgroups may be an iteration apart */
        pir_barrier(F, CUR);
}

/* ------------------------------------------------------------ warp specialization */

/* A TMA pipeline (above) whose loop is at the kernel's top level and whose
 * copies' coordinates and trip count come from scalars of the program
 * (dims, program ids and pure arithmetic on them) is warp-specialized
 * (Hopper's producer/consumer kernels, as CUTLASS's and ThunderKittens'):
 *
 *   - The block gets one more warpgroup, threads T .. T + 127: the
 *     producer.  It lowers its registers (setmaxnreg.dec 40)
 *     and one of its threads runs its own loop over the same programs,
 *     computing only the scalars the copies read (gpu.c), and per
 *     iteration waits for the stage's "empty" mbarrier, announces the
 *     stage's bytes on its "full" mbarrier and issues the TMA boxes.
 *   - The T threads before it, the consumers, raise theirs (setmaxnreg.inc
 *     232 with T = 256) and run the kernel as before, except that an
 *     iteration only waits for its stage's full mbarrier (no cp.async
 *     wait, no barrier), and after the wait that leaves one group of MMAs
 *     in flight every consumer thread arrives on the empty mbarrier of the
 *     stage of the iteration before (its MMAs retired); after the loop, on
 *     the last one's.  Their barriers become named barrier 1 of T threads.
 *   - The stages get a region of their own (ws_need, after the early
 *     region), so that the producer may fill them for the next program
 *     while the consumers' epilogue uses the staging region.  Both sides
 *     walk the stages from 0 in every loop and keep per-stage phase bits
 *     (ph, pe) across programs: they see the same sequence of stages.
 *   - With PP_TMA_OK false (no tensor maps) the producer does nothing and
 *     the consumers take the cp.async path with its barriers (named): in
 *     the one-kernel form (TKC_SPLIT=0).  A kernel compiled twice (gpu_stage.c,
 *     gpu_lower_versions) specializes only its TMA version, NAME; NAME__nomap
 *     copies by cp.async with every thread (its producer would only idle:
 *     H100, matmul_bf16 4095^3 specialized + persistent 85.6 TFLOP/s against
 *     108.0 plain, doc/bench/h100-s6-persist.log).
 *
 * The kernel's launch option `specialize` asks for it (@launch, -D,
 * @autotune; off by default); with `persistent` the launcher starts one
 * block per multiprocessor, each looping over programs, its producer
 * fetching the next program's operands during the epilogue.  On an H100
 * with the epilogue stored from the fragments, stdlib matmul_bf16's
 * 128 x 256 tiles run as fast specialized as not (631-633 / 698-720 vs
 * 628-680 / 660-718 TFLOP/s at 4096^3 / 8192^3; persistent 128 x 128 in 6
 * stages 564 / 577: doc/bench/h100-ws2-ws.log), so it is a tuning choice.
 * Experiments: TKC_WS=0/1 at compile time overrides `specialize`;
 * TKC_WS_NREG=0 leaves the registers as they are. */

#define WS_NREG_PRODUCER 40
#define WS_NREG_CONSUMER 232   /* 128 x 40 + 256 x 232 <= 65536 registers */

static bool ws_plan(const GpuMma *m, const GpuPipe *p, const Instr *loop)
{
    bool on = tkc_knob("TKC_WS", m->k->specialize) == 1;
    if (!on || m->ws || m->k->tma_version == 2 /* NAME__nomap: no TMA copies */ || p->bt /* gpu_wgdt.c's rewrite of B syncs every thread */
        || loop->parent != m->k->body || m->T % 128 || m->T + 128 > 1024)
        return false;
    for (int j = 0; j < 3; j++)
        if (!gpu_ws_ready(m->e, loop->args[j], loop))
            return false;
    return gpu_ws_ready(m->e, p->ta.row, loop) && gpu_ws_ready(m->e, p->ta.col, loop)
           && gpu_ws_ready(m->e, p->tb.row, loop) && gpu_ws_ready(m->e, p->tb.col, loop);
}

/* Who releases a stage of the warp-specialized pipeline: one thread per
 * consumer warpgroup once its wait_group has retired the warpgroup's MMAs
 * of the stage (a wgmma group is the warpgroup's: its reads of the stage are
 * all done then), so the empty mbarrier counts T / 128 arrivals a phase,
 * not T (256 shared-memory arrivals per stage; CUTLASS's TMA pipelines
 * count consumer warpgroups too).  TKC_WS_ARRIVE=0: every consumer thread
 * arrives. */
static bool ws_wg_arrive(const GpuMma *m)
{
    return tkc_knob("TKC_WS_ARRIVE", 1) != 0;
}

const Instr *gpu_mma_ws_loop(const GpuMma *m)
{
    return m->ws ? I(m, m->ws->lv)->parent->owner : NULL;
}

static bool ws_nreg(const GpuMma *m)
{
    return (m->T == 256 || m->pp) && tkc_knob("TKC_WS_NREG", 1);
}

static void nreg(GpuMma *m, PirAsmOp o, int n)
{
    pir_asm_stmt(F, CUR, o)->in[0] = ci(m, n);
}

/* The producer's head (a K loop's or the key loops'): its registers
 * lowered to regs (with nr), its parity bits of the empty mbarriers (the
 * value returned), and the scope of its one issuing thread (ws_if). */
static PirLocal *producer_open(GpuMma *m, bool nr, int regs, int thread)
{
    if (nr)
        nreg(m, PA_NREG_DEC, regs);
    PirLocal *pe = let(m, "pe", pir_int(F, PT_U32, 0xffffffffll));   /* a fresh mbarrier's "phase -1" */
    m->ws_if = pir_if(F, CUR, op(m, PB_AND, ref(m, m->tma_on), op(m, PB_EQ, gpu_tid(m->e), ci(m, thread))));
    gpu_push(m->e, m->ws_if->body);
    return pe;
}

int gpu_mma_ws_producer(GpuMma *m)
{
    m->ws->pe = producer_open(m, ws_nreg(m), WS_NREG_PRODUCER, m->pp ? 2 * m->T : m->T);
    return 1;
}

bool gpu_mma_ws_rounders(GpuMma *m)
{
    if (!m->ws || !m->ws->pr || m->pp)
        return false;
    m->ws_if->els = pir_block(F);
    gpu_push(m->e, m->ws_if->els);
    gpu_push(m->e, pir_if(F, CUR, op(m, PB_AND, ref(m, m->tma_on), op(m, PB_GE, gpu_tid(m->e), ci(m, m->T + 32))))->body);
    return true;
}

/* A producer's walk over a K (or key) loop's S stages, in the order its
 * consumers take them: opens `if (s > 0)` and `for it in [0, n)`
 * (close_n(m, 2) closes both) and returns the iteration's stage, cur;
 * *kn, when asked for, gets the iteration's loop value lo + it * s. */
static PirLocal *stage_walk(GpuMma *m, GpuPipe *p, PirExpr *lo, PirExpr *hi, PirExpr *step, PirExpr **kn)
{
    PirLocal *sl = let(m, "s", step);
    gpu_push(m->e, pir_if(F, CUR, pir_bin(F, PB_GT, ref(m, sl), pir_int(F, p->t, 0)))->body);
    PirLocal *l0 = let(m, "lo", lo), *n = let(m, "n", trips(m, ref(m, l0), hi, ref(m, sl)));
    PirLocal *rs = let(m, "rs", ci(m, 0)), *it = pir_local(F, "it", PT_I64, 0);
    gpu_push(m->e, pir_for(F, CUR, it, pir_int(F, PT_I64, 0), ref(m, n), pir_int(F, PT_I64, 1), false)->body);
    PirLocal *cur = let(m, "cur", ref(m, rs));
    m->cl_it = it;
    pir_assign(F, CUR, rs, NULL, pir_select(F, op(m, PB_EQ, ref(m, rs), ci(m, p->S - 1)), ci(m, 0),
                                            add(m, ref(m, rs), ci(m, 1))));
    if (kn)
        *kn = pir_bin(F, PB_ADD, ref(m, l0), pir_bin(F, PB_MUL, pir_conv(F, p->t, ref(m, it)), ref(m, sl)));
    return cur;
}

/* The rounding warps' K loop: per iteration wait for the stage's copies
 * (its full mbarrier, with the consumers' parity bits ph: this thread
 * runs no consumer code), round A and B in place (96 threads), fence them
 * to the async proxy and arrive on the stage's ready mbarrier, which the
 * consumers wait for instead. */
void gpu_mma_ws_round(GpuMma *m, PirExpr *lo, PirExpr *hi, PirExpr *step)
{
    GpuPipe *p = m->ws;
    const Instr *dot = I(m, p->dot);
    int64_t M = ty(m, dot->args[0])->dim[0], K = ty(m, dot->args[0])->dim[1], N = ty(m, p->bl)->dim[0];
    PirLocal *cur = stage_walk(m, p, lo, hi, step, NULL);
    mb_wait(m, p->ph, bar_addr(m, p, ref(m, cur)), ref(m, cur));
    PirLocal *at = let(m, "st", add(m, ci(m, pipe_base(m, p)), mul(m, ref(m, cur), ci(m, p->stage))));
    gpu_wgdt_round(m, ref(m, at), M * K * 4, add(m, ref(m, at), ci(m, p->offb)), N * K * 4, m->T + 32, 96);
    pir_asm_stmt(F, CUR, PA_MBAR_ARRIVE)->in[0] = ready_addr(m, p, ref(m, cur));
    close_n(m, 2);
}

void gpu_mma_ws_produce(GpuMma *m, PirExpr *lo, PirExpr *hi, PirExpr *step)
{
    GpuPipe *p = m->ws;
    const Instr *loop = gpu_mma_ws_loop(m);
    PirExpr *kn;
    if (m->cl) {
        PirLocal *l0 = let(m, "lo", lo);
        cl_exchange(m, p, ref(m, l0));
        lo = ref(m, l0);
    }
    PirLocal *cur = stage_walk(m, p, lo, hi, step, &kn);
    mb_wait(m, p->pe, bar_addr_of(m, p, ref(m, cur), true), ref(m, cur));   /* the consumers released the stage */
    PirLocal *c = gpu_bind(m->e, p->lv, let(m, "kn", kn));
    gpu_ws_scalars(m->e, loop, true);
    PirLocal *at = let(m, "st", add(m, ci(m, pipe_base(m, p)), mul(m, ref(m, cur), ci(m, p->stage))));
    tma_copies(m, p, at, ref(m, cur));
    gpu_bind(m->e, p->lv, c);
    close_n(m, 2);
}

void gpu_mma_ws_consumer(GpuMma *m)
{
    if (ws_nreg(m))
        nreg(m, PA_NREG_INC, WS_NREG_CONSUMER);
    if (m->pp)    /* warpgroup 0 goes first: a fresh mbarrier's "phase -1" */
        m->pp_tb = let(m, "tb", pir_select(F, op(m, PB_EQ, ref(m, m->pp_wg), ci(m, 0)), pir_int(F, PT_U32, 1),
                                           pir_int(F, PT_U32, 0)));
}

/* ------------------------------------------------------------ ping-pong consumers
 *
 * TKC_MM_PP=1 (an experiment, off by default): a warp-specialized (TMA
 * producer) and persistent kernel whose consumer is one warpgroup (T =
 * 128: matmul_bf16 -D BM=64 -D warps=4; 128 x 128 on 4 warps gets no
 * wgmma here) runs two consumer warpgroups, each its own tile (CUTLASS's
 * "ping-pong" sm90 kernel; the default's two warpgroups share one tile).
 * H100 (doc/bench/h100-s7-mm-*.log, in turns with cuBLAS): 64 x 256
 * ping-pong 0.91-0.93 / 0.97-0.98 of cuBLAS at 4096^3 / 8192^3, +15% over
 * the same tiles without it (0.81 / 0.84), but below the default's
 * 128 x 256 (0.99 / 1.03-1.05): twice the B traffic per flop.
 *
 *   - The producer (threads 2T ..) walks the block's programs in order,
 *     blockIdx.x + j gridDim.x, filling the one ring of S stages; consumer
 *     warpgroup w (threads w T .. w T + T - 1, its threads numbered from 0
 *     by tid & 127) takes the programs j = w, w + 2, ... (gpu.c).
 *   - The stage ring is walked by both in program order: before its K
 *     loop, warpgroup 1 flips the phase bits of the stages the other's
 *     program used (sk: a loop of n iterations from stage 0 uses stage s
 *     n / S + (s < n % S) times), warpgroup 0 after its loop; each stage's
 *     empty mbarrier counts one arrival (one warpgroup reads it).
 *   - Two order mbarriers (pp_bar, T arrivals) make the K loops take
 *     turns: warpgroup w waits for its turn at the top of its program
 *     (gpu_mma_pp_turn) and, once its last MMAs are issued, each of its
 *     threads passes the turn to the other (no branch: a divergent one
 *     with MMAs in flight serializes them), so that one warpgroup's
 *     epilogue runs while the other's MMAs keep the tensor cores busy; and
 *     no warpgroup waits on a full mbarrier more than one phase ahead (the
 *     other's loop has seen every stage of its program land).
 *   - Named barriers 1 + w of 128 threads (gpu.c); the TMA-stored
 *     epilogue's buffers are the warpgroup's own (gpu.c, frag_store_tma).
 */
static bool mmpp_plan(const GpuMma *m)
{
    return tkc_knob("TKC_MM_PP", 0) == 1 && m->T == 128 && m->k->tma_version == 1
           && tkc_knob("TKC_PERSIST", m->k->persistent) == 1;
}

bool gpu_mma_pp(const GpuMma *m) { return m->pp; }

/* The U32 shared address of warpgroup w's order mbarrier. */
static PirExpr *mmpp_turn(GpuMma *m, PirExpr *w)
{
    int64_t at = bar_region(m) + m->pp_bar;
    return pir_saddr(F, add(m, ci(m, at), mul(m, w, ci(m, 8))));
}

/* Before a K loop of n (p->n) iterations: the stages' phase bits one such
 * loop flips; warpgroup 1 skips warpgroup 0's program before it; wait for
 * this warpgroup's turn. */
static void mmpp_pre(GpuMma *m, GpuPipe *p)
{
    PirExpr *n = pir_conv(F, PT_U32, ref(m, p->n));
    PirExpr *S = pir_int(F, PT_U32, p->S), *one = pir_int(F, PT_U32, 1);
    PirExpr *q = op(m, PB_AND, op(m, PB_DIV, n, S), one);
    PirExpr *all = pir_select(F, op(m, PB_NE, q, pir_int(F, PT_U32, 0)), pir_int(F, PT_U32, (1ll << p->S) - 1),
                              pir_int(F, PT_U32, 0));
    PirExpr *low = op(m, PB_SUB, op(m, PB_SHL, one, op(m, PB_REM, n, S)), one);
    p->sk = let(m, "sk", op(m, PB_XOR, all, low));
    PirStmt *t = pir_if(F, CUR, op(m, PB_EQ, ref(m, m->pp_wg), ci(m, 1)));
    pir_assign(F, t->body, p->ph, NULL, op(m, PB_XOR, ref(m, p->ph), ref(m, p->sk)));
}

/* At the top of a program (before the accumulators are zeroed: a wait
 * between those stores and the first wgmma makes ptxas serialize every
 * wgmma, C7518): wait for this warpgroup's turn at the K loop. */
void gpu_mma_pp_turn(GpuMma *m)
{
    PirStmt *w = mbar_wait(m, CUR);
    w->in[0] = mmpp_turn(m, ref(m, m->pp_wg));
    w->in[1] = ref(m, m->pp_tb);
    pir_assign(F, CUR, m->pp_tb, NULL, op(m, PB_XOR, ref(m, m->pp_tb), pir_int(F, PT_U32, 1)));
}

/* After the K loop's MMAs are issued (after = false): pass the turn to the
 * other warpgroup; after its stages are released (after = true):
 * warpgroup 0 skips warpgroup 1's next program. */
static void mmpp_post(GpuMma *m, GpuPipe *p, bool after)
{
    if (after) {
        PirStmt *t = pir_if(F, CUR, op(m, PB_EQ, ref(m, m->pp_wg), ci(m, 0)));
        pir_assign(F, t->body, p->ph, NULL, op(m, PB_XOR, ref(m, p->ph), ref(m, p->sk)));
        return;
    }
    pir_asm_stmt(F, CUR, PA_MBAR_ARRIVE)->in[0] = mmpp_turn(m, op(m, PB_SUB, ci(m, 1), ref(m, m->pp_wg)));
}

/* The MMAs of the iteration before have retired (waited for): release its
 * stage to the producer; with `next` this iteration's stage is the next
 * one to release. */
static void ws_release(GpuMma *m, GpuPipe *p, bool next)
{
    PirStmt *t = pir_if(F, CUR, ref(m, m->tma_on));
    PirExpr *go = op(m, PB_GE, ref(m, p->prev), ci(m, 0));
    if (ws_wg_arrive(m))
        go = op(m, PB_AND, go, op(m, PB_EQ, op(m, PB_AND, gpu_tid(m->e), ci(m, 127)), ci(m, 0)));
    PirStmt *r = pir_if(F, t->body, go);
    pir_asm_stmt(F, r->body, PA_MBAR_ARRIVE)->in[0] = bar_addr_of(m, p, ref(m, p->prev), true);
    if (m->cl) {                       /* the partner's producer may copy into this stage too */
        gpu_push(m->e, pir_if(F, r->body, ref(m, m->cl_pair))->body);
        PirExpr *ra = cl_mapa(m, bar_addr_of(m, p, ref(m, p->prev), true));
        pir_asm_stmt(F, CUR, PA_CL_ARRIVE)->in[0] = ra;
        gpu_pop(m->e);
    }
    if (next)
        pir_assign(F, t->body, p->prev, NULL, ref(m, p->cur));
}

/* ------------------------------------------------------------ pairs of blocks
 *
 * @launch(cluster = 2) on a warp-specialized K loop (sm_90a; not with
 * `persistent`, the ping-pong consumers or the producer's rounding): the
 * launcher starts the blocks in clusters of two (cuLaunchKernelEx, the
 * grid rounded up to even), and blocks 2i and 2i + 1, each its one
 * program, make a pair where both have a program.  Where both load the
 * same tile of an operand in every iteration, one copy serves both: the
 * block of rank it % 2 issues iteration it's copy with TMA's multicast,
 * which lands at the same shared address in both blocks and completes its
 * bytes on the same mbarrier in each (each still announces the stage's
 * whole bytes).  That halves the operand's traffic from L2 (cuBLAS runs
 * its few-rows tiles so: two blocks of one column of c share b's tiles).
 *
 *   - Which operands: at compile time, those whose two copy coordinates
 *     each depend on the program or on the K loop's counter, not on both
 *     (cl_plan), in a loop whose bounds do not depend on the program (the
 *     pair's trip counts are equal).  At run time each producer sends its
 *     first iteration's coordinates to the other (the mailbox: st.shared::
 *     cluster, then an arrival releasing them on the partner's mailbox
 *     mbarrier) and shares an operand's copies where they are equal: the
 *     parts that depend on the program are then equal in every iteration,
 *     and the parts that depend on the counter are anyway.
 *   - A stage is written by both producers now, so both must know it free:
 *     each consumer warpgroup releasing a stage arrives on its own block's
 *     empty mbarrier and on the partner's (mapa), whose count is doubled
 *     where the block has a partner, whatever the sharing.
 *   - A cluster barrier after the mbarriers' initialization (before any
 *     arrival from the other block) and at the function's end (no block
 *     leaves while the other may still arrive on its mbarriers).
 *   - Launched without clusters (a driver before CUDA 12, the CPU stand-in)
 *     a block's cluster has one block (%cluster_nctarank): no partner, and
 *     the code runs as without the option.
 *
 * Measured on an H200 (doc/bench/h200-s24-c2.log, -c3.log, in turns with
 * cuBLAS): slower than the same blocks alone on every stdlib matmul tile
 * tried, e.g. the transposed 160-row tiles at 300 x 8192^2 1.031 alone,
 * 0.909 launched in clusters but each block alone (TKC_CL_MODE=2: the
 * cluster launch itself), 0.832 in pairs sharing nothing (=1: the coupled
 * stages), 0.846 sharing b, 0.828 with each block issuing every other box
 * of each iteration (TKC_CL_SPLIT=1) instead of every other iteration's;
 * 128 x 256 not persistent 0.981 vs 1.007 at 8192^3.  Those tiles are
 * bound by shared memory (the copies' writes and wgmma's reads), not by
 * L2.  The consumers' remote arrivals release at CTA scope, as CUTLASS's
 * cluster barriers do: at cluster scope (a fence per stage) the pairs ran
 * at a third of the speed (-c1.log). */

/* bit 1: v depends on a program id; bit 2: on the counter of loop (any
 * other loop's: both); memo[v] caches it (-1: not yet) */
static int cl_deps(const GpuMma *m, int v, const Instr *loop, int *memo)
{
    if (v <= 0)
        return 0;
    if (memo[v] >= 0)
        return memo[v];
    const Instr *in = I(m, v);
    int d = 0;
    if (in->op == OP_PROGRAM_ID)
        d = 1;
    else if (in->op == OP_LOOPVAR)
        d = in->parent == loop->blocks[0] ? 2 : 3;
    else if (in->op == OP_VAR_GET)
        d = 3;
    for (int j = 0; j < in->nargs && d != 3; j++)
        d |= cl_deps(m, in->args[j], loop, memo);
    return memo[v] = d;
}

static bool cl_plan(GpuMma *m, const GpuPipe *p, const Instr *loop)
{
    if (m->k->cluster != 2 || m->pp || p->pr || tkc_knob("TKC_PERSIST", m->k->persistent) == 1
        || tkc_knob("TKC_CLUSTER", 1) == 0)
        return false;
    int *memo = arena_alloc(m->a, sizeof(int) * (size_t)m->k->instrs.n);
    for (int v = 0; v < m->k->instrs.n; v++)
        memo[v] = -1;
    for (int j = 0; j < 3; j++)
        if (cl_deps(m, loop->args[j], loop, memo) & 1)
            return false;
    const GpuTma *t[2] = { &p->ta, &p->tb };
    for (int i = 0; i < 2; i++)
        m->cl_mc[i] = cl_deps(m, t[i]->row, loop, memo) != 3 && cl_deps(m, t[i]->col, loop, memo) != 3;
    return m->cl_mc[0] || m->cl_mc[1];
}

/* U32 shared::cluster address of shared address a (U32) in the partner */
static PirExpr *cl_mapa(GpuMma *m, PirExpr *a)
{
    PirLocal *r = pir_local(F, "ra", PT_U32, 0);
    pir_decl(F, CUR, r, NULL);
    PirStmt *s = pir_asm_stmt(F, CUR, PA_MAPA);
    s->out[0] = ref(m, r);
    s->in[0] = a;
    s->in[1] = op(m, PB_XOR, ref(m, m->cl_rank), pir_int(F, PT_U32, 1));
    return ref(m, r);
}

/* The mailbox's mbarrier, and its word i (U32 shared addresses) */
static PirExpr *cl_box(GpuMma *m, int i)
{
    return pir_saddr(F, ci(m, bar_region(m) + m->cl_bar + (i < 0 ? 0 : 8 + 4 * i)));
}

/* At the kernel's head, every thread: its rank and whether it has a partner */
static void cl_head(GpuMma *m)
{
    PirExpr *id = pir_conv(F, PT_U32, pir_special(F, PSR_CTAID));
    m->cl_rank = let(m, "clr", op(m, PB_AND, id, pir_int(F, PT_U32, 1)));
    PirLocal *n = pir_local(F, "cln", PT_U32, 0);
    pir_decl(F, CUR, n, NULL);
    pir_asm_stmt(F, CUR, PA_CL_NCTA)->out[0] = ref(m, n);
    PirExpr *other = pir_conv(F, PT_I64, op(m, PB_XOR, pir_conv(F, PT_U32, pir_special(F, PSR_CTAID)),
                                              pir_int(F, PT_U32, 1)));
    m->cl_pair = let(m, "pair", op(m, PB_AND, op(m, PB_EQ, ref(m, n), pir_int(F, PT_U32, 2)),
                                   op(m, PB_LT, other, pir_param(F, m->np))));
    if (tkc_knob("TKC_CL_MODE", 0) == 2)   /* launched in clusters, each block alone */
        pir_assign(F, CUR, m->cl_pair, NULL, pir_int(F, PT_BOOL, 0));
}

/* The producer, before its K loop (lo: the counter's first value): which
 * operands the pair shares, cl_share[i] (false without a partner). */
static void cl_exchange(GpuMma *m, GpuPipe *p, PirExpr *lo)
{
    for (int i = 0; i < 2; i++)
        m->cl_share[i] = let(m, "share", pir_int(F, PT_BOOL, 0));
    gpu_push(m->e, pir_if(F, CUR, ref(m, m->cl_pair))->body);
    const Instr *loop = gpu_mma_ws_loop(m);
    PirLocal *c = gpu_bind(m->e, p->lv, let(m, "kn", lo));
    gpu_ws_scalars(m->e, loop, true);
    const GpuTma *t[2] = { &p->ta, &p->tb };
    PirLocal *x[4];
    PirExpr *zero = ci(m, 0);
    for (int i = 0; i < 4; i++) {
        int v = i % 2 ? t[i / 2]->col : t[i / 2]->row;
        x[i] = let(m, "cx", pir_conv(F, PT_U32, pir_conv(F, PT_I32, gpu_at_raw(m->e, v, zero, zero))));
        PirExpr *ra = cl_mapa(m, cl_box(m, i));
        PirStmt *st = pir_asm_stmt(F, CUR, PA_CL_ST);
        st->in[0] = ra;
        st->in[1] = ref(m, x[i]);
    }
    PirExpr *rb = cl_mapa(m, cl_box(m, -1));
    pir_asm_stmt(F, CUR, PA_CL_ARRIVE_REL)->in[0] = rb;
    PirStmt *w = pir_asm_stmt(F, CUR, PA_CL_WAIT);   /* one program a block: phase 0 */
    w->in[0] = cl_box(m, -1);
    w->in[1] = pir_int(F, PT_U32, 0);
    for (int i = 0; i < 2; i++) {
        if (!m->cl_mc[i] || tkc_knob("TKC_CL_MODE", 0) == 1)   /* 1: pairs that share nothing */
            continue;
        PirExpr *eq = NULL;
        for (int j = 2 * i; j < 2 * i + 2; j++) {
            PirLocal *y = pir_local(F, "cy", PT_U32, 0);
            pir_decl(F, CUR, y, NULL);
            PirStmt *ld = pir_asm_stmt(F, CUR, PA_LD_SH);
            ld->out[0] = ref(m, y);
            ld->in[0] = cl_box(m, j);
            PirExpr *e = op(m, PB_EQ, ref(m, y), ref(m, x[j]));
            eq = eq ? op(m, PB_AND, eq, e) : e;
        }
        pir_assign(F, CUR, m->cl_share[i], NULL, eq);
    }
    gpu_bind(m->e, p->lv, c);
    gpu_pop(m->e);
}

/* The copies of operand i (0: A, 1: B) of the producer's iteration: shared
 * with the partner (issued by the block of rank it % 2), else its own. */
static void cl_copy(GpuMma *m, GpuPipe *p, int i, PirExpr *at, PirExpr *bar, int64_t E)
{
    const GpuTma *t = i ? &p->tb : &p->ta;
    int map = p->map[i], v = i ? p->bl : p->al;
    if (!m->cl || !m->cl_mc[i]) {
        gpu_tma_copy(m, t, map, v, E, at, bar, false, NULL);
        return;
    }
    PirStmt *s = pir_if(F, CUR, ref(m, m->cl_share[i]));
    gpu_push(m->e, s->body);
    if (ty(m, v)->dim[1] / E % 2 == 0 && tkc_knob("TKC_CL_SPLIT", 0) == 1) {
        gpu_tma_copy(m, t, map, v, E, at, bar, true, ref(m, m->cl_rank));
        gpu_pop(m->e);
    } else {
        PirExpr *mine = op(m, PB_EQ, pir_conv(F, PT_U32, op(m, PB_AND, ref(m, m->cl_it), pir_int(F, PT_I64, 1))),
                           ref(m, m->cl_rank));
        gpu_push(m->e, pir_if(F, CUR, mine)->body);
        gpu_tma_copy(m, t, map, v, E, at, bar, true, NULL);
        close_n(m, 2);
    }
    s->els = pir_block(F);
    gpu_push(m->e, s->els);
    gpu_tma_copy(m, t, map, v, E, at, bar, false, NULL);
    gpu_pop(m->e);
}

void gpu_mma_cl_end(GpuMma *m)
{
    if (m->cl)
        pir_asm_stmt(F, CUR, PA_CL_SYNC);
}

/* ------------------------------------------------------------ pipelined key loops */

/* Flash attention's key loop: the B operands of its dots (k, v) are loads
 * of the loop's counter that nothing else reads.  Instead of loading them
 * into registers at the top of the body and staging them between two
 * barriers there (the early region), the loop copies them with cp.async
 * S - 1 iterations ahead into S stages of a region of its own at the end
 * of the early region, with the prologue, waits and barrier of a pipelined
 * K loop (above): the copies of block j + 1 fly while block j's dots and
 * softmax run.  The dots read stage `cur` at the operand's offset in it;
 * nothing else in the body uses the region, so the barrier at the head of
 * an iteration is all the ordering it needs.  TKC_KEY_PIPE=0 or the kernel's
 * stages = 1 keep the early staging.
 *
 * TKC_KEY_MBAR=1 (sm_90a, an experiment, off: slower) replaces that block
 * barrier by mbarriers: every thread's cp.async of a stage arrive on the
 * stage's "full" mbarrier (PA_CP_MBAR_ARRIVE with a plain arrival that
 * releases the fallback stores), a warpgroup waits there for its data
 * only, and at the head of the next iteration every thread arrives on the
 * stage's "empty" mbarrier, which the copies into that stage wait for.
 * With 3 stages and copies 1 ahead the two warpgroups may drift an
 * iteration apart.  H100, sdpa_bf16 B=4 H=16 S=4096, 128 x 64 blocks:
 * D=64 277 -> 240 TFLOP/s (with 2 stages, no drift, also 241), D=128 255
 * -> 245, SAM relpos 2.30 -> 2.35 ms (doc/bench/h100-s4-attn2.log): the
 * lockstep is not what limits these kernels, and the mbarrier traffic (3
 * arrivals and a wait per thread and iteration) costs more than the
 * barrier.  A TMA producer (one thread, expect_tx) would be the way to
 * drop the per-thread arrivals. */

static bool key_tma_mb(const GpuMma *m);

/* The bytes a key loop's stages may take: PIPE_MAX (sm_80's shared memory
 * less a little), and for wgmma's swizzled stages on sm_90a what the arch
 * holds beside the resident operands (q), up to WG_PIPE_MAX.  So sdpa_bf16
 * at D=128 takes 128 x 176 blocks (2 x 88 KB) or three 64 KB stages on TMA;
 * before, their loads fell back to every thread's loads in the loop (H100
 * 128 x 176: 374.6 TFLOP/s, doc/bench/h100-s16-g3.log; on TMA 550.4 against
 * 564.3 at 128 x 128, h100-s17-g2.log: 12% fewer SASS instructions a key,
 * but a partial last block at T = 4096; three stages 573.5 vs 568.9 /
 * 575.3, h100-s17-g4.log). */
static int64_t key_cap(const GpuMma *m, bool swz)
{
    if (!swz || !m->k->wgmma || m->k->smem_max <= 0)
        return PIPE_MAX;
    int64_t room = m->k->smem_max - m->res_need - m->need - 2048;
    return room < PIPE_MAX ? PIPE_MAX : room < WG_PIPE_MAX ? room : WG_PIPE_MAX;
}

/* Copy load v (the B operand of a dot in loop, rank 2, 16-bit) in the
 * pipeline of loop; false (nothing changed) when it cannot go there. */
bool gpu_mma_key_load(GpuMma *m, int v, const Instr *loop)
{
    const TTy *t = ty(m, v);
    if (!tkc_knob("TKC_KEY_PIPE", 1) || m->k->stages == 1 || !loop || loop->op != OP_FOR
        || t->rank != 2 || !half_dt(t->dt) || t->dim[1] % 8 || !gpu_async_ok(m->e, v, loop))
        return false;
    const Instr *lv = I(m, loop->blocks[0]->ins.v[0]);
    if (lv->op != OP_LOOPVAR || dtype_is_float(lv->ty.dt))
        return false;
    GpuPipe *p = m->pipe[loop->id];
    if (p && (!p->nld || p->nld == KEY_LOADS))
        return false;                 /* a K loop's pipeline, or full */
    if (!p) {
        p = arena_alloc(m->a, sizeof *p);
        *p = (GpuPipe){ .lv = lv->id, .t = pir_ty_compute(lv->ty.dt), .base = -1 };
        p->mb = m->k->wgmma && (tkc_knob("TKC_KEY_MBAR", 0) == 1 || key_tma_mb(m)) && !exits(m, loop->blocks[0]);
        int S = m->k->stages > 0 ? m->k->stages : tkc_knob("TKC_KEY_STAGES", p->mb ? KEY_MB_STAGES : KEY_STAGES);
        p->S = S < 2 ? 2 : S;
    }
    /* the B operand of a single dot on wgmma: in its swizzled layout, 1024-aligned */
    int64_t E = wg_bwidth(m, v), at = E ? al1k(p->stage) : p->stage;
    int64_t bytes = E ? al1k(t->dim[0] * t->dim[1] * 2) : (t->dim[0] * (t->dim[1] + PAD) * 2 + 127) / 128 * 128;
    if (2 * (at + bytes) > key_cap(m, E > 0))
        return false;
    p->ld[p->nld] = v;
    p->lde[p->nld] = E;
    p->kok[p->nld] = E > 0 && gpu_tma_match4(m, v, &p->kt[p->nld]);
    p->ldoff[p->nld++] = at;
    p->stage = at + bytes;
    p->swz |= E > 0;
    m->pipe[loop->id] = p;
    m->staged[v] = true;
    return true;
}

/* TKC_KEY_TMA=2 (an experiment, off: slower): the TMA copies of a key loop with
 * mbarriers for both directions instead of the block barrier at the head of
 * an iteration, as TKC_KEY_MBAR=1 but with one thread issuing: thread 0
 * waits for the stage's "empty" mbarrier, on which one thread per consumer
 * warpgroup arrives once the warpgroup's MMAs of the stage's last
 * iteration are done, and issues the boxes; every thread waits on the
 * "full" one.  3 stages, 1 iteration ahead: the warpgroups may drift an
 * iteration apart, which TKC_PINGPONG=1 (named barriers) orders.  Only in
 * the split form's TMA version (tma_version 1).  H100, sdpa_bf16 B=4 H=16
 * S=T=4096, same run (doc/bench/h100-s7-attn-2.log): D=64 315.0 TFLOP/s vs
 * 331.1 with the block barrier (TKC_KEY_TMA=1), causal 306.8 vs 319.2; D=128
 * 394.8 vs 424.5 (128 x 128: 430.3 vs 466.7), causal 334.9 vs 347.0 (128 x
 * 128 383.9 vs 381.0); with TKC_PINGPONG=1 slower still (308.8, 265.3,
 * 382.9, 333.6). */
static bool key_tma_mb(const GpuMma *m)
{
    return m->k->tma_version == 1 && tkc_knob("TKC_KEY_TMA", 1) == 2;
}

/* TKC_KEY_TMA=1 (sm_90a, the default): a key loop's
 * pipeline whose loads are all swizzled wgmma B operands that TMA can move
 * (strided rank-4 tiles, gpu_tma_match4) and whose body has no exits copies
 * them by TMA instead of every thread's cp.async, as a pipelined K loop
 * does (above): thread 0 announces the stage's bytes on the stage's
 * mbarrier and issues the boxes, the head of an iteration waits on that
 * mbarrier instead of cp.async.wait_group, and the block barrier after it
 * still guards the stage's reuse.  The kernel then has a NAME__nomap
 * version with the cp.async copies, which the launcher runs when it cannot
 * build the rank-4 maps (unaligned strides or base, D's stride not 1).
 * H100, sdpa_bf16 B=4 H=16 S=T=4096, same run against TKC_KEY_TMA=0
 * (doc/bench/h100-s7-attn-2.log): D=64 331.1 vs 302.4 TFLOP/s, causal
 * 319.2 vs 248.1; D=128 424.5 vs 285.1 (with -D BLOCK_N=128 466.7 vs 326.0),
 * causal 347.0 vs 243.2 (381.0 vs 249.6); cuDNN 472 / 410 / 606 / 574.
 * Every thread's address arithmetic and cp.async of the copies is gone
 * (session 6 found the loop latency-bound). */
static void key_tma_plan(GpuMma *m, GpuPipe *p, const Instr *loop)
{
    bool mb = key_tma_mb(m);                 /* p->mb from it, not TKC_KEY_MBAR */
    if ((p->mb && !mb) || !m->k->wgmma || m->k->tma_version == 2 || tkc_knob("TKC_KEY_TMA", 1) < 1
        || exits(m, loop->blocks[0]))
        return;
    for (int i = 0; i < p->nld; i++)
        if (!p->kok[i] || !p->lde[i]) {
            if (mb && p->mb && tkc_knob("TKC_KEY_MBAR", 0) != 1) {   /* cp.async: the block barrier */
                p->mb = false;
                p->S = m->k->stages > 0 ? m->k->stages : tkc_knob("TKC_KEY_STAGES", KEY_STAGES);
                p->S = p->S < 2 ? 2 : p->S;
            }
            return;
        }
    p->tma = true;
    if (p->mb)                               /* key_place's: full and empty ones */
        return;
    p->bar = m->bar_need;
    m->bar_need += (8 * p->S + 15) / 16 * 16;
}

static void kw_plan(GpuMma *m);
static void fa3_plan(GpuMma *m);
static void bd_plan(GpuMma *m);
static void li_plan(GpuMma *m);
static bool loop_paired(const GpuMma *m, const Instr *loop);

/* Give the key pipelines their stages in the early region (after every
 * gpu_mma_key_load): as many of the S asked for as fit.  Loops one after
 * the other share one area (a loop's prologue starts with a barrier and
 * its end waits for its copies); a loop inside another gets its own. */
void gpu_mma_key_place(GpuMma *m)
{
    int64_t shared = 0;
    bool swz = false;
    for (int v = 1; v < m->k->instrs.n; v++) {
        GpuPipe *p = m->pipe[v];
        if (!p || !p->nld)
            continue;
        if (p->swz)
            p->stage = al1k(p->stage);
        int64_t cap = key_cap(m, p->swz);
        while (p->S > 2 && p->S * p->stage > cap)
            p->S--;
        key_tma_plan(m, p, I(m, v));
        while (p->S > 2 && p->S * p->stage > cap)
            p->S--;
        /* with mbarriers one stage more than copied ahead lets the
         * warpgroups drift an iteration apart */
        p->ahead = p->mb && p->S > 2 ? p->S - 2 : p->S - 1;
        if (p->mb) {
            p->bar = m->bar_need;
            m->bar_need += 16 * p->S;
        }
        int64_t area = p->S * p->stage;
        swz |= p->swz;
        bool nested = false;
        for (int u = 1; u < m->k->instrs.n && !nested; u++)
            nested = u != v && m->pipe[u] && m->pipe[u]->nld && (inside(I(m, u), I(m, v)) || inside(I(m, v), I(m, u)));
        if (nested) {
            p->base = early_place(m, p->swz, area);
            m->key_end = -1;
        } else {
            if (area > shared)
                shared = area;
            if (m->key_end >= 0 && gpu_end(m->e, v) > m->key_end)
                m->key_end = gpu_end(m->e, v);
        }
    }
    int64_t base = early_place(m, swz && shared, shared);
    for (int v = 1; v < m->k->instrs.n; v++)
        if (m->pipe[v] && m->pipe[v]->nld && m->pipe[v]->base < 0)
            m->pipe[v]->base = base;
    if (m->key_end >= 0) {
        m->key_base = base;
        m->key_area = shared;
    }
    kw_plan(m);
    fa3_plan(m);
    bd_plan(m);
    li_plan(m);
}

/* FlashAttention-3's schedule for key loops fed by the producer warpgroup
 * (kw_plan) that carry a dot pair (plan_pair: sdpa_tc's loop at D >= 128
 * without CAUSAL, q k_n^T then p_{n-1} v_{n-1}): both dots issued in one
 * turn of the warpgroup at the tensor cores (TKC_PINGPONG, pp_turn), q k^T
 * waited for after p v's commit (TKC_WG_PAIR), so that one warpgroup's
 * softmax runs while the other's MMAs do.  On by default there: H200,
 * sdpa_bf16 B=4 H=16 S=T=4096 D=128, same run: 542.6 TFLOP/s vs 529.8
 * without the producer (cuDNN 619.2; doc/bench/h200-s14-a1.log).  A loop
 * without a pair (sdpa_tc's one loop, p v reading this block's p: its
 * causal kernels until session 14) keeps the producer alone: its turns
 * measured slower (389.2 vs 456.0); the causal kernels now take the two
 * passes too (stdlib/attention.tk).  TKC_WG_PAIR=1 / TKC_PINGPONG=1 ask
 * for either anyway, =0 never. */
static void fa3_plan(GpuMma *m)
{
    bool fa3 = false;
    for (int v = 1; v < m->k->instrs.n; v++)
        for (int i = 0; m->pipe[v] && i < m->nkw; i++)
            fa3 |= m->pipe[v] == m->kw[i] && loop_paired(m, I(m, v));
    int pair = tkc_knob("TKC_WG_PAIR", -1), turns = tkc_knob("TKC_PINGPONG", -1);
    m->turns = turns == 1 || (turns < 0 && fa3);
    /* (turns on the cp.async mbarrier pipeline keep each dot's own wait) */
    m->pairs = (pair == 1 || (pair < 0 && fa3)) && !(m->turns && !m->nkw);
    if (m->turns)
        m->defer = false;
}

/* ------------------------------------------------------------ waits across the back edge
 *
 * TKC_WG_BACKDEFER=1: in a key loop whose TMA stages are guarded by the
 * block barrier at its head (sdpa_relpos_bf16's, sdpa_bf16's at D = 64),
 * the loop's last single wgmma dot (p v, acc = dot(p, v, acc * alpha)) is
 * not waited for after its commit: its MMAs run on while the warpgroup
 * goes round to the next iteration's head and issues its first dot (q
 * k^T), whose wait (wait_group 0) then covers both.  The last dot's
 * accumulators dd are declared before the loop (dd = acc there) and its
 * VAR_SET (acc = dd) moves to right after that wait, and after the loop
 * behind a wait of its own.  The stage p v read is then free only after that wait:
 * the block barrier and the copies of iteration it + S - 1 into it move
 * from the head to there (the head keeps the wait for this stage's copies,
 * and a barrier where they came by cp.async).  An experiment, off: H200,
 * 10 interleaved rounds (doc/bench/h200-s28-b1.log), sdpa_relpos_bf16 at
 * SAM global 0.739 of torch's no-bias SDPA vs 0.795 (at 4 blocks an SM,
 * 128 registers, ptxas serializes every wgmma: C7512), 0.700 vs 0.753 at
 * 3 blocks (not serialized); sdpa_bf16 D=64 0.985 of cuDNN vs 1.057 (ptxas
 * puts a wait back at the loop's top, C7517: only the barrier moved). */
static bool block_reads_var(const GpuMma *m, const TBlock *b, int from, int x)
{
    for (int i = from; b && i < b->ins.n; i++) {
        const Instr *in = I(m, b->ins.v[i]);
        if (in->op == OP_VAR_GET && in->index == x && m->live[in->id])
            return true;
        if (block_reads_var(m, in->blocks[0], 0, x) || block_reads_var(m, in->blocks[1], 0, x))
            return true;
    }
    return false;
}

/* A key loop's TMA pipeline guarded by the block barrier at its head,
 * copies issued there (what bd_plan and li_plan rearrange). */
static bool head_guarded(const GpuMma *m, const GpuPipe *p, const Instr *loop)
{
    return p && p->nld && p->tma && !p->mb && !p->kw && !p->ws && !p->lb && !p->late && !key_skew(m, p)
           && loop->blocks[0];
}

/* A single wgmma dot waited for on its own (not fused, chained or paired). */
static bool lone_dot(const GpuMma *m, int u)
{
    return !m->fused[u] && !m->chain[u] && !chain_outer(m, u) && !m->pair[u];
}

static void bd_plan(GpuMma *m)
{
    if (tkc_knob("TKC_WG_BACKDEFER", 0) != 1 || m->turns || m->pairs || m->defer)
        return;
    int *uses = NULL;
    for (int v = 1; v < m->k->instrs.n; v++) {
        GpuPipe *p = m->pipe[v];
        if (!head_guarded(m, p, I(m, v)))
            continue;
        const TBlock *b = I(m, v)->blocks[0];
        int f = -1, l = -1;                  /* positions in the body */
        for (int i = 0; i < b->ins.n; i++) {
            int u = b->ins.v[i];
            if (I(m, u)->op == OP_DOT && m->wgd[u] && m->live[u]) {
                if (f < 0)
                    f = i;
                l = i;
            }
        }
        if (f < 0 || l <= f)
            continue;
        int fu = b->ins.v[f], lu = b->ins.v[l];
        if (!lone_dot(m, fu) || !lone_dot(m, lu))
            continue;
        if (!uses)
            uses = tir_use_counts(m->k);
        int si = l + 1;
        while (si < b->ins.n && !(I(m, b->ins.v[si])->op == OP_VAR_SET && I(m, b->ins.v[si])->args[0] == lu))
            si++;
        if (si == b->ins.n || uses[lu] != 1)
            continue;
        const Instr *set = I(m, b->ins.v[si]);
        int x = set->index;
        /* the var is read only between the first dot and the last */
        bool early = false;
        for (int i = 0; i < f && !early; i++) {
            const Instr *in = I(m, b->ins.v[i]);
            early = (in->op == OP_VAR_GET && in->index == x) || block_reads_var(m, in->blocks[0], 0, x)
                    || block_reads_var(m, in->blocks[1], 0, x);
        }
        if (early || block_reads_var(m, b, si + 1, x))
            continue;
        p->bd = lu;
        p->bd_first = fu;
        p->bd_set = set->id;
        m->bd_set[set->id] = true;
    }
}

/* TKC_KEY_LATE=1: in a key loop whose TMA stages are guarded by the block
 * barrier at its head (no bd_plan), that barrier and the copies of
 * iteration it + S - 1 come after the commit of the loop's first single
 * wgmma dot (q k^T) instead of before it: its MMAs run while thread 0
 * issues the copies.  The stage they go into was last read by the
 * iteration before, whose dots every thread waited for before the
 * barrier; the head keeps the wait for this iteration's stage (and a
 * barrier where its copies came by cp.async).  An experiment, off: H200,
 * 10 interleaved rounds (doc/bench/h200-s28-l1.log), sdpa_relpos_bf16 at
 * SAM global 0.803 / 0.800 of no-bias SDPA vs 0.799, sdpa_bf16 D=64 1.001
 * of cuDNN vs 1.055, causal 1.045 vs 1.077. */
static void li_plan(GpuMma *m)
{
    if (tkc_knob("TKC_KEY_LATE", 0) != 1 || m->turns || m->pairs || m->defer)
        return;
    for (int v = 1; v < m->k->instrs.n; v++) {
        GpuPipe *p = m->pipe[v];
        if (!head_guarded(m, p, I(m, v)) || p->bd)
            continue;
        const TBlock *b = I(m, v)->blocks[0];
        for (int i = 0; i < b->ins.n; i++) {
            int u = b->ins.v[i];
            if (I(m, u)->op == OP_DOT && m->wgd[u] && m->live[u]) {
                if (lone_dot(m, u))
                    p->li = u;
                break;
            }
        }
    }
}

static GpuPipe *li_pipe(const GpuMma *m, const Instr *dot)
{
    GpuPipe *p = loop_pipe(m, dot);
    return p && p->li == dot->id ? p : NULL;
}

/* After the wait that covers the last dot's MMAs: acc = its result. */
static void bd_copy(GpuMma *m, PirLocal *from, PirLocal *to)
{
    PirExpr *k = loop(m, "k", to->n, 1, true);
    pir_assign(F, CUR, to, k, pir_elem(F, from, k));
    close_n(m, 1);
}

static void bd_settle(GpuMma *m, GpuPipe *p)
{
    gpu_wg_wait(m, p->bd_acc, p->bd_nacc, 0);
    bd_copy(m, p->bd_acc, gpu_var(m->e, I(m, p->bd_set)->index));
}

/* The key pipeline whose loop's last dot is deferred so (bd_plan), around dot. */
static GpuPipe *bd_pipe(const GpuMma *m, const Instr *dot)
{
    GpuPipe *p = loop_pipe(m, dot);
    return p && p->bd && p->bd_acc ? p : NULL;
}

/* The byte offset (I32) of operand v of dot in this iteration's stage of
 * its key loop's pipeline; NULL when no such pipeline copies v. */
static PirExpr *key_stage(GpuMma *m, const Instr *dot, int v)
{
    GpuPipe *p = loop_pipe(m, dot);
    for (int i = 0; p && i < p->nld; i++)
        if (p->ld[i] == v) {
            if (p->kw && !p->kwh)             /* its copy landed (the dot runs once an iteration) */
                kw_wait(m, p, i);
            return add(m, ci(m, key_at(m, p) + p->ldoff[i]), mul(m, ref(m, p->cur), ci(m, p->stage)));
        }
    return NULL;
}

/* Does loop hold a dot pair (plan_pair)? */
static bool loop_paired(const GpuMma *m, const Instr *loop)
{
    for (int u = 1; u < m->k->instrs.n; u++)
        if (m->pair[u] && tir_loop_of(I(m, u)) == loop)
            return true;
    return false;
}

/* ------------------------------------------------------------ warp-specialized key loops
 *
 * TKC_KEY_WS=1 (sm_90a, the TMA version; default: below): the key
 * loops of a kernel of two or three consumer warpgroups (T = 256, 384) whose TMA
 * pipelines (key_tma_plan) sit at the kernel's top level, one after
 * another (sdpa_tc at D >= 128: the full key blocks, then the diagonal),
 * are fed by a producer warpgroup, as FlashAttention-3's kernels are:
 *
 *   - Threads T .. T + 127 lower their registers (setmaxnreg.dec 24) and
 *     one of them (T) runs its own loop over the block's programs, with
 *     the program's scalars (gpu.c, build_key_producer): per key loop the
 *     same bounds, hence the same trip count, in the same program order
 *     (sdpa_tc's longest-first causal order is scalars of the program id);
 *     per iteration it waits for the stage's "empty" mbarrier, then per
 *     load (k, v) announces its bytes on the load's own "full" mbarrier
 *     and issues its boxes.
 *   - The consumers (setmaxnreg.inc 240; 160 for three) wait for a load's full mbarrier
 *     right before the dot that reads it (key_stage: q k^T starts when k
 *     has landed, before v), and release a stage (one thread per
 *     warpgroup arrives on its empty mbarrier, T / 128 arrivals a phase) at the
 *     head of the next iteration, after their dots waited for their MMAs;
 *     the last stage after the loop.  No block barrier in the loop: the
 *     warpgroups are held together only by the producer's ring.
 *   - Every kw loop uses the same stages (key_place: loops one after
 *     another share their area) and so the same mbarriers and parity bits
 *     (ph: the consumers', kw_pe: the producer's, bit i S + s for load i
 *     of stage s); each loop walks the ring from stage 0, on both sides.
 *   - The block's other barriers become named barrier 1 of T threads.
 *
 * On by default (TKC_KEY_WS unset) where the loads are at least 128 wide
 * and one key loop qualifies (sdpa_tc's one loop at D >= 128, which its
 * causal kernels took until session 14), or several that each carry a dot
 * pair (its two passes, which then take turns: fa3_plan).  H100, sdpa_bf16
 * B=4 H=16 S=T=4096 D=128, same runs (doc/bench/h100-s12-s12-ws-2.log,
 * -3.log): causal 450.2 / 451.7
 * TFLOP/s (two builds) vs 427.9 / 427.1 without the producer (450.1 vs
 * 438.1 in -2; cuDNN 560.4: 0.80x); TKC_KEY_WS=2 437.9, with persistent
 * blocks (TKC_PERSIST=1 TKC_PERSIST_ANY=1) 376.1.  Elsewhere off:
 * non-causal D=128 keeps the two passes (p of the block before carried over
 * in registers), which spilled under the consumers' 240 registers (448-536
 * bytes stored vs 88 with 255; none since p is packed, session 13): 407.1
 * / 412.6 (=1), 417.7 (=2) vs 488.0 / 476.1; the one loop there with the
 * producer 462.3 (=1), 481.5 (=2) vs 490.6 without (-2.log); the warpgroups' turns (TKC_PINGPONG=1) slower
 * still, 407.8, with TKC_WG_PAIR=1 430.6 vs 481.7, causal 339.8 / 362.0 vs
 * 390.4 (two passes, -2.log).  Not measured below D = 128 (D=64 runs two
 * blocks an SM: not with 384 threads; D=80 correct in the emulator).
 * Three consumer warpgroups (192-row blocks, 12 warps, session 20: the
 * default of sdpa_tc at D=128, its one key loop, ThunderKittens' shape):
 * each softmax has the other two's MMAs to hide behind instead of one's,
 * without p carried over (registers: 160 a consumer).  H200, B=4 H=16
 * S=T=4096, 10 interleaved rounds: 581.7 vs 567.2 TFLOP/s for the two
 * warpgroups' turns, causal 498.7 vs 479.1 (doc/bench/h200-s20-a2.log;
 * 489.6 / 419.4 without the producer, -a1.log); at D=64 slower (425.7 vs
 * 480.8, two blocks an SM there, -a3.log). */
#define KW_NREG_PRODUCER 24
/* what the T consumer threads may take beside the producer's: 128 x 24 +
 * T x nreg <= 65536 registers, in setmaxnreg's steps of 8 (240 for two
 * consumer warpgroups, 160 for three) */
#define KW_NREG_CONSUMER(T) ((65536 - 128 * KW_NREG_PRODUCER) / (T) / 8 * 8)

static void kw_plan(GpuMma *m)
{
    m->nkw = 0;
    int on = tkc_knob("TKC_KEY_WS", -1);
    if (on == 0 || (m->T != 256 && m->T != 384) || m->k->tma_version != 1 || m->ws || m->pp || !m->k->wgmma
        || m->k->blocks > 1 || gpu_mma_min_blocks(m, 0) > 1)   /* two blocks an SM (D = 64): not with 384 threads */
        return;
    GpuPipe *kw[4];
    const Instr *lp[4];
    int n = 0;
    for (int v = 1; v < m->k->instrs.n; v++) {
        GpuPipe *p = m->pipe[v];
        if (!p)
            continue;
        const Instr *loop = I(m, v);
        if (!p->nld || n == 4 || !p->tma || p->mb || p->lb || loop->parent != m->k->body)
            return;
        if (n && (p->S != kw[0]->S || p->stage != kw[0]->stage || p->base != kw[0]->base || p->swz != kw[0]->swz
                  || p->nld != kw[0]->nld))
            return;
        for (int j = 0; j < 3; j++)
            if (!gpu_ws_ready(m->e, loop->args[j], loop))
                return;
        for (int i = 0; i < p->nld; i++)
            for (int d = 0; d < 4; d++)
                if (!gpu_ws_ready(m->e, p->kt[i].x[d], loop))
                    return;
        int j = n++;
        for (; j > 0 && gpu_pos(m->e, lp[j - 1]->id) > gpu_pos(m->e, v); j--) {
            kw[j] = kw[j - 1];
            lp[j] = lp[j - 1];
        }
        kw[j] = p;
        lp[j] = loop;
    }
    if (!n)
        return;
    for (int i = 0; on < 0 && i < n; i++)      /* the default: see above */
        for (int j = 0; j < kw[i]->nld; j++)
            if ((n > 1 && !loop_paired(m, lp[i])) || ty(m, kw[i]->ld[j])->dim[1] < 128)
                return;
    /* TKC_KEY_WS=2: where every load's dot is waited for right after its
     * commit (not chained, paired or deferred) */
    bool early = tkc_knob("TKC_KEY_WS", 0) == 2;
    for (int d = 1; early && d < m->k->instrs.n; d++) {
        const Instr *in = I(m, d);
        if (in->op != OP_DOT || !m->wgd || !m->wgd[d])
            continue;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < kw[i]->nld; j++)
                if (gpu_mma_bsrc(m, in) == kw[i]->ld[j]
                    && (m->chain[d] || m->pair[d] || tkc_knob("TKC_WG_DEFER", 0) == 1 || tir_loop_of(in) != lp[i]))
                    early = false;
    }
    int64_t bar = m->bar_need;
    m->bar_need += (8 * kw[0]->S * (kw[0]->nld + 1) + 15) / 16 * 16;
    for (int i = 0; i < n; i++) {
        kw[i]->kwe = early;
        kw[i]->kwh = tkc_knob("TKC_KW_HEAD", 0) == 1;
        kw[i]->kw = true;
        kw[i]->kwi = i;
        kw[i]->bar = bar;
        m->kw[i] = kw[i];
    }
    m->nkw = n;
}

/* The full mbarrier of load i of stage slot, the stage's empty one. */
static PirExpr *kw_full(GpuMma *m, GpuPipe *p, int i, PirExpr *slot)
{
    return bar_addr(m, p, add(m, slot, ci(m, i * p->S)));
}

static PirExpr *kw_empty(GpuMma *m, GpuPipe *p, PirExpr *slot)
{
    return bar_addr(m, p, add(m, slot, ci(m, p->nld * p->S)));
}

/* Where go holds, one thread per consumer warpgroup releases stage slot
 * (its dots waited for their MMAs). */
static void kw_release(GpuMma *m, GpuPipe *p, PirExpr *slot, PirExpr *go)
{
    go = op(m, PB_AND, go, op(m, PB_EQ, op(m, PB_AND, gpu_tid(m->e), ci(m, 127)), ci(m, 0)));
    PirStmt *r = pir_if(F, CUR, go);
    pir_asm_stmt(F, r->body, PA_MBAR_ARRIVE)->in[0] = kw_empty(m, p, slot);
}

/* A consumer waits until load i of its stage cur has landed. */
static void kw_wait(GpuMma *m, GpuPipe *p, int i)
{
    mb_wait(m, p->ph, kw_full(m, p, i, ref(m, p->cur)), add(m, ref(m, p->cur), ci(m, i * p->S)));
}

/* The head of a consumer's iteration (cur set): release the stage of the
 * iteration before; with kwh wait for all of this stage's loads.
 *
 * kwh (TKC_KW_HEAD=1): a wait is a loop (try_wait and a branch back), so
 * ptxas schedules nothing across it.  Waited for right before its dot,
 * v's wait split sdpa_tc's iteration between q k^T's MMAs and p v's: the
 * rescaling of acc by alpha (64 FMULs, which NVVM places right before p v)
 * then ran after q k^T's wait, where the tensor cores waited for it,
 * instead of between q k^T's MMAs as without the producer.  k and v of a
 * stage are sent together, so waiting for v before q k^T costs little.
 * H200, D=128 non-causal with TKC_SLAB_ZERO=1, same run: 476.3 / 465.6
 * TFLOP/s vs 461.7 (still under 501.3 without the producer), causal 444.7
 * / 440.3 vs 438.9 / 434.0 (doc/bench/h200-s13-fa3b-2.log): off by
 * default. */
static void kw_head(GpuMma *m, GpuPipe *p)
{
    PirExpr *prev = pir_select(F, op(m, PB_EQ, ref(m, p->cur), ci(m, 0)), ci(m, p->S - 1),
                               op(m, PB_SUB, ref(m, p->cur), ci(m, 1)));
    if (!p->kwe)
        kw_release(m, p, prev, pir_bin(F, PB_GT, ref(m, p->it), pir_int(F, PT_I64, 0)));
    pir_assign(F, CUR, p->it, NULL, pir_nsw(F, PB_ADD, ref(m, p->it), pir_int(F, PT_I64, 1)));
    for (int i = 0; p->kwh && i < p->nld; i++)
        kw_wait(m, p, i);
}

int gpu_mma_kw_loops(const GpuMma *m, const Instr **loops)
{
    for (int i = 0; i < m->nkw; i++)
        loops[i] = I(m, m->kw[i]->lv)->parent->owner;
    return m->nkw;
}

int gpu_mma_kw_producer(GpuMma *m)
{
    m->kw_pe = producer_open(m, tkc_knob("TKC_WS_NREG", 1), KW_NREG_PRODUCER, m->T);
    if (m->kw_done >= 0)
        m->kw_dp = let(m, "dp", pir_int(F, PT_U32, 1));
    return 1;
}

void gpu_mma_kw_produce(GpuMma *m, int i, PirExpr *lo, PirExpr *hi, PirExpr *step)
{
    GpuPipe *p = m->kw[i];
    const Instr *loop = I(m, p->lv)->parent->owner;
    PirExpr *kn;
    PirLocal *cur = stage_walk(m, p, lo, hi, step, &kn);
    m->producing = true;               /* (TKC_MBAR_SUSPEND_P) */
    mb_wait(m, m->kw_pe, kw_empty(m, p, ref(m, cur)), ref(m, cur));   /* the consumers released it */
    m->producing = false;
    PirLocal *c = gpu_bind(m->e, p->lv, let(m, "kn", kn));
    gpu_ws_scalars(m->e, loop, true);
    PirLocal *at = let(m, "st", add(m, ci(m, key_at(m, p)), mul(m, ref(m, cur), ci(m, p->stage))));
    tma_copies(m, p, at, ref(m, cur));
    gpu_bind(m->e, p->lv, c);
    close_n(m, 2);
}

/* The U32 shared address of the "program done" mbarrier (kw_done). */
static PirExpr *kw_done_addr(GpuMma *m)
{
    return ci(m, bar_region(m) + m->kw_done);
}

void gpu_mma_kw_program(GpuMma *m)
{
    if (m->kw_done >= 0)     /* bit 1 first: a fresh mbarrier's phase "before 0" has completed */
        mb_wait(m, m->kw_dp, pir_saddr(F, kw_done_addr(m)), ci(m, 0));
}

void gpu_mma_kw_done(GpuMma *m)
{
    if (m->kw_done < 0)
        return;
    PirStmt *r = pir_if(F, CUR, op(m, PB_EQ, gpu_tid(m->e), ci(m, 0)));
    pir_asm_stmt(F, r->body, PA_MBAR_ARRIVE)->in[0] = pir_saddr(F, kw_done_addr(m));
}

void gpu_mma_kw_consumer(GpuMma *m)
{
    if (tkc_knob("TKC_WS_NREG", 1))
        nreg(m, PA_NREG_INC, KW_NREG_CONSUMER(m->T));
}

/* ------------------------------------------------------------ single dots on wgmma */

/* On sm_90a a DOT on tensor cores that no pipelined K loop runs (flash
 * attention's s = dot(q, trans(k)) and acc = dot(p, v, acc * alpha)) goes
 * to wgmma when its mma.sync warp grid is a warpgroup grid (gpu_wgmma.c:
 * WN = 1 and 16 rows per warp, so a warpgroup owns 64 rows): the result
 * lands in the same fragments, and everything around the dot (the softmax
 * in GL_FRAG / GL_ROW) stays as it is.  Its operands:
 *
 *   - A from registers when it is in fragments over the dot's rows (p:
 *     mma.sync's A fragment of a warp's 16 rows is wgmma's), else from
 *     shared memory in the swizzled K-major layout: a resident operand
 *     (q) is staged so once, anything else per dot.
 *   - B from shared memory: a load its key loop's pipeline copies (k, v)
 *     lands in the swizzled layout (gpu_mma_key_load), as does an early
 *     operand; anything else is staged per dot.  B = trans(x) with x
 *     [N, K] (k) is K-major, a plain [K, N] (v) N-major (transpose bit).
 *
 * One group at a time: fence, the wgmma of each k step, commit, wait 0; so
 * the stages and the registers are free again when the dot is done, as
 * after mma.sync.  TKC_WG_ATTN=0 keeps these dots on mma.sync. */

static bool wgd_plan(const GpuMma *m, const Instr *in)
{
    const TTy *t = &in->ty;
    Grid g, w;
    if (!m->k->wgmma || !tkc_knob("TKC_WG_ATTN", 1) || !half_dt(ty(m, in->args[0])->dt)
        || !grid_of(m, t->dim[0], t->dim[1], &g)
        || !gpu_wg_grid(m, t->dim[0], t->dim[1], &w))
        return false;
    return gpu_grid_eq(&g, &w) && g.TM == w.TM && g.TN == w.TN;
}

/* The swizzle width a single dot on wgmma wants of its B source v (K-major
 * rows of K for trans(x), N-major rows of N else); 0: no such dot reads v. */
static int64_t wg_bwidth(const GpuMma *m, int v)
{
    for (int d = 1; d < m->k->instrs.n; d++) {
        const Instr *in = I(m, d);
        if (in->op != OP_DOT || !m->wgd[d] || gpu_mma_bsrc(m, in) != v)
            continue;
        return gpu_wg_width(trans_src(m, in->args[1]) ? ty(m, in->args[0])->dim[1] : in->ty.dim[1]);
    }
    return 0;
}

/* ------------------------------------------------------------ ping-pong */

/* FlashAttention-3's ordering of two consumer warpgroups: in a key loop
 * whose stages are guarded by mbarriers (TKC_KEY_MBAR=1, no block barrier
 * per iteration), warpgroup w waits at named barrier PP_BAR + w before its
 * first dot of an iteration and, once its last dot's MMAs are issued,
 * arrives at the other one's: the warpgroups take turns at the tensor
 * cores, one's softmax running while the other's MMAs do.  Warpgroup 1
 * arrives once before the loop (warpgroup 0 goes first) and warpgroup 0
 * takes that extra arrival after it, so every phase completes.
 * TKC_PINGPONG=1 with TKC_KEY_MBAR=1 (the cp.async stages; slower):
 * H100, sdpa_bf16 B=4 H=16 S=4096, 128 x 64 blocks, same run: D=128 276
 * TFLOP/s vs 273 with mbarriers alone and 288 with the block barrier;
 * D=64 255 vs 274 and 308; 4 stages worse still (doc/bench/
 * h100-s6-attn-1.log).  The per-thread mbarrier arrivals of the cp.async
 * stages cost more than the turns win; a TMA producer (one thread) would
 * be the pipeline to try this on again: with TKC_KEY_TMA=2 (one thread
 * issues, one per warpgroup releases) it is slower too (doc/bench/
 * h100-s7-attn-2.log, see key_tma_mb).  With the producer warpgroup
 * (TKC_KEY_WS) and both dots of a pair in one turn it is the default for
 * the loops fa3_plan picks. */
#define PP_BAR 2

/* The named barrier statement `what` (NBAR_SYNC, NBAR_ARRIVE) of id, 256 threads. */
static void pp_bar(GpuMma *m, PirAsmOp what, PirExpr *id)
{
    PirStmt *s = pir_asm_stmt(F, CUR, what);
    s->in[0] = id;
    s->in[1] = ci(m, 256);
}

/* NBAR_SYNC at this warpgroup's barrier (own) or NBAR_ARRIVE at the other
 * one's; constant ids in a branch per warpgroup, so that ptxas counts the
 * barriers the block uses (a run-time id reserves all 16). */
static void pp_turn(GpuMma *m, bool own)
{
    PirStmt *i = pir_if(F, CUR, op(m, PB_LT, gpu_tid(m->e), ci(m, 128)));
    i->els = pir_block(F);
    for (int w = 0; w < 2; w++) {
        gpu_push(m->e, w ? i->els : i->body);
        pp_bar(m, own ? PA_NBAR_SYNC : PA_NBAR_ARRIVE, ci(m, PP_BAR + (own ? w : 1 - w)));
        gpu_pop(m->e);
    }
}

/* The pipeline of the key loop around single dot `in` when it orders its
 * warpgroups (set up on first use). */
static GpuPipe *pp_pipe(GpuMma *m, const Instr *in)
{
    const Instr *loop = tir_loop_of(in);
    GpuPipe *p = loop_pipe(m, in);
    if (!p || !(p->mb || p->kw) || !p->nld || m->T != 256 || !m->turns)
        return NULL;
    if (!p->pp_first) {
        for (int u = 1; u < m->k->instrs.n; u++)
            if (m->wgd[u] && m->live[u] && tir_loop_of(I(m, u)) == loop) {
                if (!p->pp_first)
                    p->pp_first = u;
                p->pp_last = u;
            }
        if (p->pp_first == p->pp_last)
            p->pp_last = -1;          /* one dot: nothing to order */
    }
    return p->pp_last > 0 ? p : NULL;
}

/* Before the loop and after it (pre: warpgroup 1's head start arrival;
 * post: warpgroup 0 takes it back). */
static void pp_loop(GpuMma *m, GpuPipe *p, bool pre)
{
    if (!(p->mb || p->kw) || m->T != 256 || !m->turns)
        return;
    gpu_push(m->e, pir_if(F, CUR, op(m, pre ? PB_GE : PB_LT, gpu_tid(m->e), ci(m, 128)))->body);
    pp_bar(m, pre ? PA_NBAR_ARRIVE : PA_NBAR_SYNC, ci(m, PP_BAR));
    gpu_pop(m->e);
}

/* Is v none or a tile of zeros (a splat of the constant 0)? */
static bool zero_tile(const GpuMma *m, int v)
{
    if (v <= 0)
        return true;
    const Instr *c = I(m, v);
    if (c->op == OP_BROADCAST && c->nargs >= 1 && c->args[0] > 0 && I(m, c->args[0])->ty.rank == 0)
        c = I(m, c->args[0]);
    return c->op == OP_CONST && c->ty.rank == 0 && dtype_is_float(c->ty.dt) && c->fval == 0.0;
}

/* TKC_WG_DEFER=1 (an experiment, off): a single wgmma dot (not chained,
 * not fused into a var) is not waited for after its commit; the wait
 * (wait_group 0, for every dot in flight) comes before the first
 * instruction of its block that reads its result or its accumulator
 * operand, before any instruction holding blocks (if, for), and at the
 * block's end: nothing stays in flight across a branch or a back edge.
 * What the source puts between a dot and its result's first use (sdpa_tc:
 * the next dot's issue, the softmax of another block) runs while its MMAs
 * do, without relying on ptxas to move it above the wait.  Only sdpa_tc's
 * D >= 128 loop changes (every other kernel's PTX is the same).  H100,
 * D=128, three runs: 476.9 vs 468.7, 473.0 / 474.1 vs 466.8 / 466.2, 477.9
 * vs 485.8; causal 382.7 vs 375.8, 378.0 vs 379.1, 389.0 vs 382.2
 * (doc/bench/h100-s9-s9-attn-1..3.log): noise.  With it a source that
 * runs the softmax one key block behind q k^T (tests/gpu/s9/lag.tk on branch s9-attn, 0f8af7f: both
 * groups of MMAs in flight during the softmax, FlashAttention-3's
 * intra-warpgroup pipelining) does overlap them in SASS, but needs 224
 * accumulator registers at 128 x 128 (580 bytes spilled) and measured
 * 361.8 at 128 x 64. */
bool gpu_mma_defer_due(const GpuMma *m, const Instr *in)
{
    if (!m->ndefer)
        return false;
    if (!in || in->blocks[0] || in->blocks[1])
        return true;
    for (int j = 0; j < m->ndefer; j++)
        for (int a = 0; a < in->nargs; a++)
            if (in->args[a] > 0 && (in->args[a] == m->defer_id[j] || in->args[a] == m->defer_in[j]))
                return true;
    return false;
}

void gpu_mma_defer_wait(GpuMma *m)
{
    for (int j = 0; j < m->ndefer; j++)
        gpu_wg_wait(m, m->defer_acc[j], m->defer_nacc[j], 0);
    m->ndefer = 0;
}

static bool wg_single(GpuMma *m, const Instr *in, const Grid *g)
{
    int a = in->args[0], b = in->args[1], bt = trans_src(m, b), bs = bt ? bt : b;
    int64_t M = g->M, N = g->N, K = ty(m, a)->dim[1];
    int64_t ea = gpu_wg_width(K), eb = gpu_wg_width(bt ? K : N);
    Grid ga;
    PirLocal *rega = gpu_frag_a(m->e, a, g, &ga);
    if (!rega && gpu_packed(m->e, a))
        return false;                         /* gpu.c fails it */
    PirExpr *kb = key_stage(m, in, bs);       /* copied swizzled by its key loop's pipeline */
    bool res = !rega && m->res[a] >= 0 && m->res_e[a] == ea, owna = !rega && !res;
    bool early = !kb && m->early[bs] >= 0 && m->early_e[bs] == eb, ownb = !kb && !early;
    int64_t own = al1k(m->stg), bytes_a = al1k(M * K * 2);
    if (owna || ownb)
        need(m, 1024 + (owna ? bytes_a : 0) + (ownb ? N * K * 2 : 0));
    PirExpr *at_a = ci(m, res ? res_at(m, a) : own);
    PirExpr *at_b = kb ? kb : ci(m, early ? early_of(m, bs) : own + (owna ? bytes_a : 0));
    /* TKC_WG_ZERO=1: a dot without an accumulator operand (s = dot(q,
     * trans(k))) has its first k step's MMAs write the accumulators
     * instead of adding to zeros set first.  Off: fewer instructions in
     * the PTX's MMA block, but NVVM's code for the cp.async copies around
     * it grew, and H100 sdpa_bf16 D=64 ran 283 TFLOP/s vs 311 with the
     * zeroing (D=128 287 vs 291; doc/bench/h100-s6-attn-2.log). */
    bool zero = zero_tile(m, in->args[2]) && !m->fused[in->id] && tkc_knob("TKC_WG_ZERO", 0) == 1;
    PirLocal *acc;
    GpuPipe *bp = bd_pipe(m, in);
    if (bp && bp->bd == in->id) {             /* waited for in the next iteration (bd_plan) */
        acc = bp->bd_acc;
        zero = false;
        set_frags(m, acc, in->args[2], g);
    } else if (m->chain_acc[in->id]) {        /* the chained inner dot's, in flight */
        acc = m->chain_acc[in->id];
        zero = false;
    } else if (zero) {
        acc = pir_local(F, "d", pir_ty_compute(in->ty.dt), g->MI * g->NI * 4);
        pir_decl(F, CUR, acc, NULL);
    } else {
        acc = acc_init(m, in, g);
    }
    GpuPipe *pp = pp_pipe(m, in);
    if (pp && pp->pp_first == in->id)
        pp_turn(m, true);
    if (owna || ownb) {
        pir_barrier(F, CUR);
        if (owna)
            stage(m, a, own, ea, PAD);
        if (ownb)
            stage(m, bs, own + (owna ? bytes_a : 0), eb, PAD);
        pir_asm_stmt(F, CUR, PA_FENCE_PROXY);
        pir_barrier(F, CUR);
    }
    scope(m);
    PirLocal *fa = NULL;
    if (rega) {                               /* every k step's A words first */
        fa = pir_local(F, "fa", PT_U32, K / 4);
        pir_decl(F, CUR, fa, NULL);
        PirExpr *kk = loop(m, "kk", K, 16, true);
        frag_a(m, ty(m, a)->dt, rega, &ga, fa, kk, op(m, PB_SHR, kk, ci(m, 2)));
        close_n(m, 1);
    }
    GpuWgDot d = { .acc = acc, .g = g, .at_a = at_a, .at_b = at_b, .K = K, .ea = ea, .eb = eb, .bt = bt > 0,
                   .fa = fa, .dt = ty(m, a)->dt, .zero = zero, .dinc = tkc_knob("TKC_WG_DINC", 2) };
    gpu_wg_dot(m, &d);
    if (pp && pp->pp_last == in->id)
        pp_turn(m, false);
    GpuPipe *lp = li_pipe(m, in);
    if (lp) {                                 /* its MMAs run while the copies are issued */
        pir_barrier(F, CUR);
        pipe_issue(m, lp, 0, 1);
    }
    if (m->chain[in->id]) {                   /* the outer dot continues the group */
        close_n(m, 1);
        m->chain_acc[m->chain[in->id]] = acc;
        return true;
    }
    if (bp && bp->bd == in->id) {
        close_n(m, 1);
        gpu_bind(m->e, in->id, acc);
        return true;
    }
    if (m->defer && m->ndefer < 8 && !m->fused[in->id]) {    /* waited for at its first reader */
        close_n(m, 1);
        int j = m->ndefer++;
        m->defer_id[j] = in->id;
        m->defer_in[j] = in->args[2];
        m->defer_acc[j] = acc;
        m->defer_nacc[j] = g->NI * 4;
        gpu_bind(m->e, in->id, acc);
        return true;
    }
    if (m->pairs && m->pair[in->id]) {        /* waited for after the next dot's commit */
        close_n(m, 1);
        m->pair_acc[m->pair[in->id]] = acc;
        m->pair_nacc[m->pair[in->id]] = g->NI * 4;
        if (!m->fused[in->id])
            gpu_bind(m->e, in->id, acc);
        return true;
    }
    if (m->pair_acc[in->id])                  /* the earlier dot's group (plan_pair) */
        gpu_wg_wait(m, m->pair_acc[in->id], m->pair_nacc[in->id], 1);
    gpu_wg_wait(m, acc, g->NI * 4, 0);
    if (bp && bp->bd_first == in->id) {       /* the loop's last dot of the iteration before */
        bd_settle(m, bp);
        pir_barrier(F, CUR);                  /* every thread is done with its stage */
        pipe_issue(m, bp, 0, 1);
    }
    const Instr *kl = kb ? tir_loop_of(in) : NULL;
    GpuPipe *kp = kl ? m->pipe[kl->id] : NULL;
    if (kp && kp->kwe)                        /* its load's part of the stage is free */
        kw_release(m, kp, ref(m, kp->cur), pir_int(F, PT_BOOL, 1));
    close_n(m, 1);
    if (!m->fused[in->id])
        gpu_bind(m->e, in->id, acc);          /* the result stays in g's fragments */
    return true;
}

/* Blocks per SM to ask the register allocator for (PirFunc.min_blocks).  A
 * kernel whose dots are single dots on wgmma (flash attention) has two
 * warpgroups that meet at a barrier in every iteration of its key loop, so
 * one block's tensor cores idle while its softmax runs.  With two blocks
 * per SM one block's softmax overlaps the other's MMAs; that needs at most
 * 128 registers a thread, which small accumulators allow (sdpa_bf16 at
 * D = 64, 128 x 64 blocks: s and acc of 32 floats each; ptxas then spills
 * 76 bytes).  H100, B=4 H=16 S=4096: 204 -> 249 TFLOP/s, causal 174 -> 213
 * (doc/bench/h100-attn3-bench.log).  Up to 96 registers of accumulators
 * (D = 64 at 128 x 128: s 64, acc 32; the TMA version spills nothing):
 * 457.4 vs 417.7 TFLOP/s at 128 x 64, causal 405.2 vs 366.2 (H100,
 * doc/bench/h100-s15-b4.log); D = 128 keeps
 * one block (at 128 x 64 s 32, acc 64 and p carried over 16: 300-450 bytes
 * of spills with two).  Two copies of the shared memory must fit the
 * arch's (TirKernel.smem_max; 200 KB where unknown).  TKC_MIN_CTAS=N sets
 * it (0 or 1: none). */
int gpu_mma_min_blocks(const GpuMma *m, int64_t smem)
{
    int64_t most = 0;
    bool any = false;
    for (int v = 1; m->wgd && v < m->k->instrs.n; v++) {
        Grid g;
        if (m->wg[v] || (m->pipe[v] && !m->pipe[v]->nld))
            return 0;                  /* a pipelined K loop on wgmma: its own sizing */
        if (!m->wgd[v] || !dot_fits(m, I(m, v), &g))
            continue;
        /* the accumulators of the dots of one loop body live together */
        int64_t slots = 0;
        for (int u = 1; u < m->k->instrs.n; u++)
            if (m->wgd[u] && I(m, u)->parent == I(m, v)->parent && dot_fits(m, I(m, u), &g)) {
                slots += g.NI * 4;
                /* an A operand carried over from the iteration before (sdpa_tc's p at
                 * D >= 128) lives beside them: 16-bit values two to a register */
                const Instr *a = I(m, I(m, u)->args[0]);
                if (a->op == OP_VAR_GET)
                    slots += tty_numel(&a->ty) / m->T / (kind_of(a->ty.dt).es == 2 ? 2 : 1);
            }
        /* and the tiles from outside the loop that it reads in registers
         * (sdpa_relpos's bias row tile) */
        const Instr *lp = tir_loop_of(I(m, v));
        for (int u = 1; lp && u < m->k->instrs.n; u++) {
            const Instr *x = I(m, u);
            if (!m->live[u] || !inside(x, lp))
                continue;
            for (int j = 0; j < x->nargs; j++) {
                const Instr *a = x->args[j] > 0 ? I(m, x->args[j]) : NULL;
                if (a && a->ty.rank == 2 && dtype_is_float(a->ty.dt) && !inside(a, lp) && m->res[a->id] < 0
                    && a->op != OP_BROADCAST && a->op != OP_TRANS && a->op != OP_RESHAPE
                    && a->op != OP_EXPAND_DIMS && a->op != OP_CONST && a->op != OP_VAR_GET)
                    slots += tty_numel(&a->ty) / m->T;
            }
        }
        any = true;
        most = slots > most ? slots : most;
    }
    int n = tkc_knob("TKC_MIN_CTAS", -1);
    if (n >= 0)
        return n > 1 ? n : 0;
    int64_t room = 200 * 1024, need = smem;       /* the arch's limits count 1 KB a block more */
    if (m->k->smem_max > 0)
        room = m->k->smem_max + 1024, need = smem + 1024;
    return any && m->T == 256 && most <= 96 && 2 * need <= room ? 2 : 0;
}
