/*
 * lower/gpu_stage.c — operand chunks of a pipelined K loop whose global
 * address is not 16-byte aligned, staged through registers.
 *
 * The cp.async copy of a stage (gpu_mma.c, copy_tile) moves 16-byte chunks
 * of an operand tile: rows of the tile, 16 bytes at a time.  cp.async (and
 * TMA) need the chunk's global address to be a multiple of 16.  A tensor
 * whose rows are not (a row pitch of 4095 bf16 elements: 8190 bytes) has
 * most of its chunks unaligned, and those went element by element: eight
 * masked 2-byte loads, each converted to f32 and back, per chunk.
 *
 * Here a chunk that is wholly inside the tensor but unaligned is read with
 * 4-byte loads where its address allows, never outside its own 16 bytes: a
 * 16-bit element type (bf16, f16) at 4k bytes takes three 4-byte loads
 * (elements 0-5) and two 2-byte ones (6, 7); at 4k + 2, three 4-byte loads
 * of elements 1-6 and two 2-byte ones (0, 7), shifted into the four words
 * that the stage's 16-byte store wants.  Both forms are one sequence of five
 * loads whose addresses depend on the parity (no divergence between the
 * threads of a warp on rows of both parities).  A 32-bit element type (f32)
 * is always 4-aligned: four 4-byte loads.  The copy goes in two passes over
 * the thread's chunks (gpu_mma.c, staged_issue and staged_finish): the
 * first issues every cp.async of an aligned chunk and every word load into
 * a register array (5 words a chunk, gpu_stage_load), the second shifts the
 * words and stores them to the stage (gpu_stage_words), so that the loads
 * of all chunks are in flight at once instead of one chunk's latency after
 * another's.  The chunks at the tensor's edges are read element by element
 * in the second pass.  A tile whose chunks are all aligned (checked at run
 * time, uniformly over the block) keeps the plain cp.async copy.
 *
 * It runs in the kernel for tensors without tensor maps (NAME__nomap,
 * gpu_lower_versions below; TKC_UNALIGNED=0 turns it off, =1 on everywhere,
 * =2 issues both operands' loads before the first store, which spills).  On
 * an H100 (doc/bench/h100-s5-s5-odd-3.log, one run, tests/gpu/bench_odd.sh)
 * it took 4095^3 from 55 to 109 TFLOP/s (cuBLAS 152, Triton 156) while it
 * shared one kernel with the TMA path, which made the aligned shapes 2-10%
 * slower (8192^3: 653-660 against 720-738 TFLOP/s; registers 188 -> 255):
 * hence the two kernels, NAME (TMA, no cp.async code: matmul_bf16 154
 * registers) and NAME__nomap (this, 255), the launcher picking per call.
 * Since session 8 the launcher repacks such tensors for NAME instead
 * (below: 4095^3 at 418.6 TFLOP/s, doc/bench/h100-s8-mm-2.log), so
 * NAME__nomap runs only with TKC_REPACK=0, where an allocation fails, or for
 * kernels whose maps cannot be repacked; so since s8-lean its copies are
 * gpu_mma.c's copy_lean (TKC_NOMAP_LEAN): one loop, not unrolled, using
 * gpu_stage_load / gpu_stage_words a chunk at a time, which makes NAME__nomap
 * a quarter of its size (H100 4095^3 with TKC_REPACK=0: 109 -> 64 TFLOP/s).
 */
#include "gpu.h"

#define F (gpu_func(e))

static PirExpr *u32c(GL *e, int64_t v) { return pir_int(F, PT_U32, v); }

/* The U32 word at element `at` (I64) of ptr's tensor, when mask holds (else 0). */
static PirExpr *word_at(GL *e, PirExpr *base, PirLocal *o, int64_t at, PirExpr *extra, PirExpr *mask)
{
    PirExpr *i = pir_bin(F, PB_ADD, pir_ref(F, o), pir_int(F, PT_I64, at));
    if (extra)
        i = pir_bin(F, PB_ADD, i, extra);
    return pir_load(F, pir_gmem(PT_U32, pir_ptradd(F, base, i), pir_int(F, PT_I64, 0)), mask, NULL);
}

/* The U16 element at element o + at (I64) of base's tensor as a U32. */
static PirExpr *half_at(GL *e, PirExpr *base, PirLocal *o, PirExpr *at)
{
    PirExpr *i = pir_bin(F, PB_ADD, pir_ref(F, o), at);
    PirExpr *x = pir_load(F, pir_gmem(PT_U16, pir_ptradd(F, base, i), pir_int(F, PT_I64, 0)), NULL, NULL);
    return pir_conv(F, PT_U32, x);
}

/* Element at + i of a register array (I32). */
static PirExpr *ix(GL *e, PirExpr *at, int i) { return pir_nsw(F, PB_ADD, at, pir_int(F, PT_I32, i)); }

int gpu_stage_raw(const TirKernel *k, int es)
{
    /* on in the kernel for tensors without tensor maps (tma_version 2) */
    return tkc_knob("TKC_UNALIGNED", k->tma_version == 2) && (es == 2 || es == 4) ? 5 : 0;
}

PirExpr *gpu_stage_load(GL *e, PirExpr *ptr, int es, PirExpr *mask, PirLocal *raw, PirExpr *at)
{
    PirExpr *base = ptr->a;
    PirLocal *o = gpu_let(e, "uo", pir_conv(F, PT_I64, ptr->b));
    PirExpr *flag = pir_int(F, PT_BOOL, 0);
    PirLocal *odd = NULL;
    if (es == 2) {      /* 16-bit elements: odd when the chunk starts at 4k + 2 bytes */
        PirExpr *addr = pir_ptrint(F, pir_ptradd(F, base, pir_ref(F, o)));
        odd = gpu_let(e, "uodd", pir_bin(F, PB_NE, pir_bin(F, PB_AND, addr, pir_int(F, PT_U64, 2)),
                                         pir_int(F, PT_U64, 0)));
        flag = pir_ref(F, odd);
    }
    /* Loads under a branch with no else: a select with zeros would write
     * the registers in the other threads too, and that write waits for the
     * load (the same register), one chunk after another. */
    for (int i = 0; i < (es == 4 ? 4 : 5); i++)
        pir_assign(F, gpu_cur(e), raw, ix(e, at, i), u32c(e, 0));
    PirStmt *s = pir_if(F, gpu_cur(e), mask);
    PirBlock *b = s->body;
    if (es == 4) {
        for (int i = 0; i < 4; i++)
            pir_assign(F, b, raw, ix(e, at, i), word_at(e, base, o, i, NULL, NULL));
        return flag;
    }
    PirExpr *sh = pir_conv(F, PT_I64, pir_ref(F, odd));      /* 1 element ahead when odd */
    for (int i = 0; i < 3; i++)      /* even: elements 2i, 2i+1; odd: 2i+1, 2i+2 */
        pir_assign(F, b, raw, ix(e, at, i), word_at(e, base, o, 2 * i, sh, NULL));
    /* even: element 6; odd: element 0 */
    PirExpr *x = half_at(e, base, o, pir_select(F, pir_ref(F, odd), pir_int(F, PT_I64, 0), pir_int(F, PT_I64, 6)));
    pir_assign(F, b, raw, ix(e, at, 3), x);
    pir_assign(F, b, raw, ix(e, at, 4), half_at(e, base, o, pir_int(F, PT_I64, 7)));   /* element 7 */
    return flag;
}

void gpu_stage_words(GL *e, int es, PirLocal *raw, PirExpr *at, PirExpr *odd, PirExpr *w[4])
{
    PirExpr *r[5];
    for (int i = 0; i < 5; i++)
        r[i] = pir_elem(F, raw, ix(e, at, i));
    if (es == 4) {
        for (int i = 0; i < 4; i++)
            w[i] = r[i];
        return;
    }
    /* r: v0 v1 v2 (elements 0-5 even, 1-6 odd), x (6 even, 0 odd), element 7 */
    PirExpr *p16 = u32c(e, 16);
    PirExpr *top = pir_bin(F, PB_OR, r[3], pir_bin(F, PB_SHL, r[4], p16));       /* even: 6, 7 */
    for (int i = 0; i < 4; i++) {
        PirExpr *a = i == 0 ? r[3] : pir_bin(F, PB_SHR, r[i - 1], p16);
        PirExpr *b = pir_bin(F, PB_SHL, r[i == 3 ? 4 : i], p16);
        w[i] = pir_select(F, odd, pir_bin(F, PB_OR, a, b), i == 3 ? top : r[i]);
    }
}

static bool has_tma_ok(const PirFunc *f)
{
    for (int i = 0; i < f->params.n; i++)
        if (f->params.v[i].kind == PP_TMA_OK)
            return true;
    return false;
}

/* Repacking (tensor maps of a copy): a rank-2 tensor whose rows are not a
 * multiple of 16 bytes apart (a 4095-wide bf16 matrix) gets no tensor map,
 * and the launcher ran NAME__nomap for the whole call (H100, matmul_bf16
 * 4095^3: 109 TFLOP/s against 700 at 4096^3).  Where NAME reaches such a
 * tensor only through its maps, the launcher may instead copy it into a
 * buffer whose rows are padded to 16 bytes (cuMemcpy2DAsync on the call's
 * stream), build the maps on that, run NAME, and copy a stored tensor back
 * (targets/cuda/header.c, tk_cuda_repack).  NAME keeps the tensor's own
 * pointer as its parameter: the walk below checks that its live code never
 * uses it, the cp.async paths under `if (tma)` (a constant true in NAME)
 * being dead there. */

typedef struct {
    PirLocal **kl;      /* locals declared once with a BOOL constant and never written */
    int nk;
    int param;          /* the PP_TENSOR parameter looked for */
    int uses;
} RepackWalk;

static void rw_expr(RepackWalk *w, const PirExpr *x)
{
    if (!x)
        return;
    if (x->kind == PE_PARAM && x->index == w->param)
        w->uses++;
    rw_expr(w, x->a);
    rw_expr(w, x->b);
    rw_expr(w, x->c);
    if (x->kind == PE_LOAD) {
        rw_expr(w, x->mem.ptr);
        rw_expr(w, x->mem.idx);
    }
}

static void rw_block(RepackWalk *w, const PirBlock *b, const PirExpr *const *kv);

/* The value of a constant BOOL local (0, 1), or -1. */
static int rw_value(const RepackWalk *w, const PirExpr *const *kv, const PirExpr *c)
{
    if (!c || c->kind != PE_LOCAL)
        return -1;
    for (int i = 0; i < w->nk; i++)
        if (w->kl[i] == c->local)
            return kv[i]->ival != 0;
    return -1;
}

static void rw_stmt(RepackWalk *w, const PirStmt *s, const PirExpr *const *kv)
{
    if (s->kind == PS_IF) {
        int v = rw_value(w, kv, s->cond);
        if (v < 0)
            rw_expr(w, s->cond);
        if (v != 0 && s->body)
            rw_block(w, s->body, kv);
        if (v != 1 && s->els)
            rw_block(w, s->els, kv);
        return;
    }
    const PirExpr *const e[] = { s->init, s->idx, s->val, s->cond, s->lo, s->hi, s->next, s->w[0], s->w[1],
                                 s->w[2], s->w[3], s->out[0], s->out[1], s->out[2], s->out[3], s->in[0],
                                 s->in[1], s->in[2], s->in[3], s->in[4], s->in[5], s->in[6], s->in[7] };
    for (size_t i = 0; i < sizeof e / sizeof *e; i++)
        rw_expr(w, e[i]);
    if (s->kind == PS_STORE || s->kind == PS_LOADV || s->kind == PS_ATOMIC) {
        rw_expr(w, s->mem.ptr);
        rw_expr(w, s->mem.idx);
    }
    if (s->body)
        rw_block(w, s->body, kv);
    if (s->els)
        rw_block(w, s->els, kv);
}

static void rw_block(RepackWalk *w, const PirBlock *b, const PirExpr *const *kv)
{
    for (int i = 0; i < b->s.n; i++)
        rw_stmt(w, b->s.v[i], kv);
}

/* Locals written anywhere but their declaration: cleared from kl. */
static void rw_written(RepackWalk *w, const PirBlock *b)
{
    for (int i = 0; i < b->s.n; i++) {
        const PirStmt *s = b->s.v[i];
        const PirLocal *l[6] = { NULL };
        if (s->kind == PS_ASSIGN || s->kind == PS_FOR || s->kind == PS_LOADV)
            l[0] = s->local;
        for (int j = 0; j < 4; j++)
            if (s->out[j] && (s->out[j]->kind == PE_LOCAL || s->out[j]->kind == PE_ELEM))
                l[1 + j] = s->out[j]->local;
        if (s->acc)
            l[5] = s->acc;
        for (int j = 0; j < 6; j++)
            for (int k = 0; l[j] && k < w->nk; k++)
                if (w->kl[k] == l[j])
                    w->kl[k] = NULL;
        if (s->body)
            rw_written(w, s->body);
        if (s->els)
            rw_written(w, s->els);
    }
}

static void rw_decls(RepackWalk *w, const PirBlock *b, const PirExpr **kv, int cap)
{
    for (int i = 0; i < b->s.n; i++) {
        const PirStmt *s = b->s.v[i];
        if (s->kind == PS_DECL && s->init && s->init->kind == PE_CONST && s->init->ty == PT_BOOL
            && s->local->n == 0 && w->nk < cap) {
            kv[w->nk] = s->init;
            w->kl[w->nk++] = s->local;
        }
        if (s->body)
            rw_decls(w, s->body, kv, cap);
        if (s->els)
            rw_decls(w, s->els, kv, cap);
    }
}

static void gpu_mark_repack(PirFunc *f)
{
    enum { CAP = 64 };
    PirLocal *kl[CAP];
    const PirExpr *kv[CAP];
    RepackWalk w = { .kl = kl };
    rw_decls(&w, f->body, kv, CAP);
    rw_written(&w, f->body);
    for (int i = 0; i < f->params.n; i++) {
        PirParam *q = &f->params.v[i];
        if (q->kind != PP_TMAP || q->tmrank != 0 || q->role == 3 || !tkc_knob("TKC_REPACK", 1))
            continue;
        w.param = -1;
        for (int j = 0; j < f->params.n; j++)
            if (f->params.v[j].kind == PP_TENSOR && f->params.v[j].index == q->index)
                w.param = j;
        if (w.param < 0)
            continue;
        w.uses = 0;
        rw_block(&w, f->body, kv);
        q->repack = w.uses == 0;
    }
}

int gpu_lower_versions(TirKernel *k, PirFunc *out[2], Diag *d)
{
    bool split = tkc_knob("TKC_SPLIT", 1) != 0;
    k->tma_version = split ? 1 : 0;
    int n = (out[0] = gpu_lower(k, d)) != NULL;
    if (n && split && has_tma_ok(out[0])) {
        k->tma_version = 2;
        out[1] = gpu_lower(k, d);
        if (out[1]) {
            out[1]->name = arena_printf(k->arena, "%s__nomap", out[0]->name);
            gpu_mark_repack(out[0]);
            n = 2;
        } else {
            n = 0;
        }
    }
    k->tma_version = 0;
    return n;
}
