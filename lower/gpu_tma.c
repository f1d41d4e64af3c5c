/*
 * lower/gpu_tma.c — the operands of a pipelined wgmma K loop fetched by the
 * tensor memory accelerator (TMA, cp.async.bulk.tensor) instead of per-thread
 * cp.async.
 *
 * A load qualifies when it is a plain 2-D tile of a contiguous rank-2 f16/bf16
 * (or, for gpu_wgdt.c's dots, f32/i8) tensor parameter t[R0, C0]: its offsets are (r + i0) * C0 + (c + i1) for
 * scalars r, c (the tile's first row and column, e.g. pm * BM and k) and its
 * mask only checks those indices against 0 and the tensor's own dims, with
 * other = 0.  The TMA unit zero-fills the elements of a box that lie outside
 * the tensor, which is exactly that masked load.  The launcher builds one
 * CUtensorMap per such operand (targets/cuda/header.c: base, dims, the row
 * pitch, the box, the swizzle) and passes it by value; when it cannot (a row
 * pitch or base that is not a multiple of 16 bytes, no cuTensorMapEncodeTiled)
 * it says so in the PP_TMA_OK parameter and the kernel takes the cp.async
 * path it also carries (gpu_mma.c, "pipelined K loops").
 *
 * A stage of a wgmma operand [R, C] of swizzle width E is C / E blocks of R
 * rows of E elements in the 2E-byte swizzle (gpu_wgmma.c), which is what one
 * TMA box of [R rows, E elements] with CU_TENSOR_MAP_SWIZZLE_{2E}B writes:
 * block j is the box at (c + j E, r).  One thread issues them all after an
 * arrive.expect_tx of the stage's bytes on the stage's mbarrier.
 *
 * Flash attention's key loops (gpu_mma.c, key_tma_plan) copy their k and v
 * tiles of strided rank-4 tensors the same way through rank-4 maps
 * (gpu_tma_match4, at the end).
 */
#include <stdlib.h>
#include <string.h>

#include "gpu_mm.h"



static bool int_dt(DType dt) { return dt == DT_I32 || dt == DT_I64; }

/* A rank-1 value s + arange (s a broadcast scalar, casts that widen); with
 * sub (gpu_tma_match4) also ramp - s. */
static bool ramp1x(const GpuMma *m, int v, bool sub)
{
    const Instr *in = I(m, v);
    if (in->ty.rank != 1 || !int_dt(in->ty.dt))
        return false;
    switch (in->op) {
    case OP_ARANGE:
        return true;
    case OP_CAST:
        return ramp1x(m, in->args[0], sub) && dtype_info[in->ty.dt].bits >= dtype_info[I(m, in->args[0])->ty.dt].bits;
    case OP_SUB: {                             /* ramp - scalar (v[rn - BLOCK_N]) */
        const Instr *s = I(m, in->args[1]);
        return sub && s->op == OP_BROADCAST && I(m, s->args[0])->ty.rank == 0 && ramp1x(m, in->args[0], sub);
    }
    case OP_ADD:
        for (int i = 0; i < 2; i++) {
            const Instr *s = I(m, in->args[1 - i]);
            if (s->op == OP_BROADCAST && I(m, s->args[0])->ty.rank == 0 && ramp1x(m, in->args[i], sub))
                return true;
        }
        return false;
    default:
        return false;
    }
}

/* The rank-1 ramp under v ([R, C]) when v[i0, i1] = ramp[i_axis]; else 0. */
static int ramp2x(const GpuMma *m, int v, int axis, bool sub)
{
    const Instr *in = I(m, v);
    while (in->ty.rank == 2) {
        const Instr *a = in->op == OP_BROADCAST || in->op == OP_RESHAPE || in->op == OP_EXPAND_DIMS
                             ? I(m, in->args[0]) : NULL;
        if (!a)
            return 0;
        if (a->ty.rank == 2 && (a->ty.dim[1 - axis] != 1 || a->ty.dim[axis] != in->ty.dim[axis]))
            return 0;
        if (a->ty.rank == 1 && (in->ty.dim[1 - axis] != 1 || a->ty.dim[0] != in->ty.dim[axis]))
            return 0;
        if (a->ty.rank == 0)
            return 0;
        in = a;
    }
    return in->ty.rank == 1 && ramp1x(m, in->id, sub) ? in->id : 0;
}

static int ramp2(const GpuMma *m, int v, int axis) { return ramp2x(m, v, axis, false); }

/* Is v a broadcast of dim j of tensor param p (its size)? */
static bool is_size(const GpuMma *m, int v, int p, int j)
{
    const Instr *in = I(m, v);
    while (in->op == OP_BROADCAST || in->op == OP_CAST)
        in = I(m, in->args[0]);
    const KernelInfo *ki = m->k->info;
    const TensorDim *td = &ki->params[p].dims[j];
    if (in->ty.rank != 0)
        return false;
    if (in->op == OP_DIM)
        return td->dim >= 0 && in->index == td->dim;
    int64_t val = 0;
    if (in->op != OP_CONST)
        return false;
    if (td->dim >= 0)
        return ki->dims[td->dim].specialized && ki->dims[td->dim].value == in->ival;
    return td->size && sym_eval(td->size, m->k->cvals, ki->nconsts, &val) && val == in->ival;
}

static bool is_zero(const GpuMma *m, int v)
{
    int64_t iv = 1;
    double fv = 1;
    return tir_splat_const(m->k, v, &iv, &fv) && iv == 0 && fv == 0;
}

/* Does index tile x stand for dim d of copy t? */
typedef bool IndexOf(const GpuMma *m, int x, int d, const void *t);

/* ... of the rank-2 copy t */
static bool index_of2(const GpuMma *m, int x, int d, const void *t)
{
    return ramp2(m, x, d) == ((const GpuTma *)t)->rk[d];
}

/* Every leaf of the AND tree c bounds an index of some dim d < rank of
 * tensor param `param` (index_of says which) by 0 or by the dim's size:
 * the bounds TMA applies itself. */
static bool mask_ok(const GpuMma *m, int c, int param, int rank, IndexOf *index_of, const void *t)
{
    const Instr *in = I(m, c);
    if (in->op == OP_AND)
        return mask_ok(m, in->args[0], param, rank, index_of, t)
            && mask_ok(m, in->args[1], param, rank, index_of, t);
    if (in->op != OP_LT && in->op != OP_GE)
        return false;
    for (int d = 0; d < rank; d++)
        if (index_of(m, in->args[0], d, t)
            && (in->op == OP_LT ? is_size(m, in->args[1], param, d) : is_zero(m, in->args[1])))
            return true;
    return false;
}

/* A [R, C] tile of tensor param `param` at offsets off (masked by mask, 0:
 * none) that TMA can move: t's fields. */
static bool match_tile(const GpuMma *m, int param, const TTy *ty, int off, int mask, GpuTma *t)
{
    if (!tkc_knob("TKC_TMA", 1) || ty->rank != 2 || param < 0)
        return false;
    const ParamInfo *p = &m->k->info->params[param];
    /* f32 and i8: the operands of gpu_wgdt.c's wgmma dots (loads only:
     * gpu_tma_match_store takes 16-bit elements) */
    bool dt_ok = p->dt == DT_BF16 || p->dt == DT_F16 || p->dt == DT_F32 || p->dt == DT_I8;
    if (!p->is_tensor || p->rank != 2 || p->strided || !dt_ok || ty->dim[0] > 256)
        return false;
    *t = (GpuTma){ .param = param };
    const Instr *o = I(m, off);
    if (o->op != OP_ADD)
        return false;
    for (int i = 0; i < 2; i++) {
        const Instr *mu = I(m, o->args[i]);
        t->row = t->col = 0;
        if (mu->op != OP_MUL)
            continue;
        for (int j = 0; j < 2 && !t->row; j++)
            if (ramp2(m, mu->args[j], 0) && is_size(m, mu->args[1 - j], param, 1))
                t->row = mu->args[j];
        if (t->row && ramp2(m, o->args[1 - i], 1))
            t->col = o->args[1 - i];
        if (t->col)
            break;
    }
    if (!t->col)
        return false;
    t->rk[0] = ramp2(m, t->row, 0);
    t->rk[1] = ramp2(m, t->col, 1);
    return !mask || mask_ok(m, mask, t->param, 2, index_of2, t);
}

bool gpu_tma_match(const GpuMma *m, int v, GpuTma *t)
{
    const Instr *ld = I(m, v);
    if (ld->op != OP_LOAD || (ld->args[2] && !is_zero(m, ld->args[2])))
        return false;
    return match_tile(m, ld->index, &ld->ty, ld->args[0], ld->args[1], t);
}

bool gpu_tma_match_store(const GpuMma *m, int v, GpuTma *t)
{
    const Instr *st = I(m, v);
    if (st->op != OP_STORE || !st->args[0] || st->index < 0)
        return false;
    int dt = m->k->info->params[st->index].dt;
    if (dt != DT_BF16 && dt != DT_F16)
        return false;
    return match_tile(m, st->index, ty(m, st->args[0]), st->args[0], st->args[2], t);
}

int gpu_tma_param(GpuMma *m, const GpuTma *t, int64_t E, int64_t R)
{
    const ParamInfo *p = &m->k->info->params[t->param];
    int i = pir_add_param(F, PP_TMAP, pir_ty_of(p->dt), 0, arena_printf(m->a, "tm%d", F->params.n),
                          t->param, 0);
    F->params.v[i].box[0] = (int)E;
    F->params.v[i].box[1] = (int)R;
    return i;
}

void gpu_tma_copy(GpuMma *m, const GpuTma *t, int map, int v, int64_t E, PirExpr *at, PirExpr *bar, bool mc,
                  PirExpr *half)
{
    const TTy *ty = &I(m, v)->ty;
    GL *e = m->e;
    int64_t es = dtype_info[m->k->info->params[t->param].dt].bits / 8;   /* E: elements of es bytes */
    PirExpr *zero = gpu_i(e, 0);
    PirLocal *r = gpu_let(e, "tr", pir_conv(F, PT_I32, gpu_at_raw(e, t->row, zero, zero)));
    PirLocal *c = gpu_let(e, "tc", pir_conv(F, PT_I32, gpu_at_raw(e, t->col, zero, zero)));
    for (int64_t j = 0; j < ty->dim[1] / E; j++) {
        PirBlock *b = gpu_cur(e);
        if (half)
            b = pir_if(F, b, pir_bin(F, PB_EQ, half, pir_int(F, PT_U32, j & 1)))->body;
        PirStmt *s = pir_asm_stmt(F, b, mc ? PA_TMA_LOAD2_MC : PA_TMA_LOAD2);
        s->in[0] = pir_saddr(F, gpu_add(e, at, gpu_i(e, j * ty->dim[0] * es * E)));
        s->in[1] = pir_param(F, map);
        s->in[2] = gpu_add(e, pir_ref(F, c), gpu_i(e, j * E));
        s->in[3] = pir_ref(F, r);
        s->in[4] = bar;
    }
}

/* ------------------------------------------------------------ strided rank-4 tiles */

/* Flash attention's key loop reads [R, C] tiles x[b, h, rn, rd] of strided
 * rank-4 tensors (k, v: [B, H, T, D]) with scalars b, h, a ramp rn along
 * the tile's rows and rd along its columns: the offset is the sum of the
 * four index tiles times the tensor's strides, and the mask (none for the
 * unchecked loads) bounds each index by 0 and its dim.  A rank-4 tensor
 * map (dims D, T, H, B innermost first, the caller's strides; the launcher
 * checks that D's stride is 1 and the others multiples of 16 bytes, else
 * the kernel's NAME__nomap version runs) moves such a tile as C / E boxes
 * of [R, E, 1, 1] at (rd0 + j E, rn0, h, b), zeros outside the tensor
 * (rows past T, or before 0: sdpa_bf16's v of the block before the first). */

static int ramp2x4(const GpuMma *m, int v, int axis) { return ramp2x(m, v, axis, true); }

/* The rank-0 value under broadcasts and widening casts of v; 0 if none. */
static int scalar_root(const GpuMma *m, int v)
{
    const Instr *in = I(m, v);
    while ((in->op == OP_BROADCAST || in->op == OP_CAST) && in->ty.rank > 0)
        in = I(m, in->args[0]);
    return in->ty.rank == 0 && int_dt(in->ty.dt) ? in->id : 0;
}

/* Is v a broadcast of the stride of param p's dim d? */
static bool is_stride(const GpuMma *m, int v, int p, int d)
{
    const Instr *in = I(m, v);
    while (in->op == OP_BROADCAST || in->op == OP_CAST)
        in = I(m, in->args[0]);
    return in->op == OP_STRIDE && in->index == p && in->axis == d;
}

/* Does index tile x stand for dim d of the rank-4 copy t (the tile's rows
 * for d 2, its columns for 3, a scalar for 0 and 1)? */
static bool index_of4(const GpuMma *m, int x, int d, const void *tv)
{
    const GpuTma4 *t = tv;
    if (d >= 2)
        return ramp2x4(m, x, d - 2) && ramp2x4(m, x, d - 2) == t->rk[d - 2];
    return scalar_root(m, x) && scalar_root(m, x) == scalar_root(m, t->x[d]);
}

/* The terms of the add tree at v (at most n) into x; their count, -1 if more. */
static int terms(const GpuMma *m, int v, int *x, int n, int k)
{
    const Instr *in = I(m, v);
    if (in->op == OP_ADD && in->ty.rank == 2) {
        k = terms(m, in->args[0], x, n, k);
        return k < 0 ? k : terms(m, in->args[1], x, n, k);
    }
    if (k >= n)
        return -1;
    x[k] = v;
    return k + 1;
}

bool gpu_tma_match4(const GpuMma *m, int v, GpuTma4 *t)
{
    const Instr *ld = I(m, v);
    if (!tkc_knob("TKC_TMA", 1) || ld->op != OP_LOAD || (ld->args[2] && !is_zero(m, ld->args[2]))
        || ld->ty.rank != 2 || ld->index < 0 || ld->ty.dim[0] > 256)
        return false;
    const ParamInfo *p = &m->k->info->params[ld->index];
    if (!p->is_tensor || p->rank != 4 || !p->strided || (p->dt != DT_BF16 && p->dt != DT_F16))
        return false;
    *t = (GpuTma4){ .param = ld->index };
    int x[4];
    if (terms(m, ld->args[0], x, 4, 0) != 4)
        return false;
    for (int i = 0; i < 4; i++) {
        const Instr *mu = I(m, x[i]);
        if (mu->op != OP_MUL)
            return false;
        int d = -1, idx = 0;
        for (int j = 0; j < 2 && d < 0; j++)
            for (int dd = 0; dd < 4 && d < 0; dd++)
                if (is_stride(m, mu->args[1 - j], t->param, dd)) {
                    d = dd;
                    idx = mu->args[j];
                }
        if (d < 0 || t->x[d])
            return false;
        if (d >= 2 ? !ramp2x4(m, idx, d - 2) : !scalar_root(m, idx))
            return false;
        t->x[d] = idx;
    }
    t->rk[0] = ramp2x4(m, t->x[2], 0);
    t->rk[1] = ramp2x4(m, t->x[3], 1);
    return !ld->args[1] || mask_ok(m, ld->args[1], t->param, 4, index_of4, t);
}

int gpu_tma_param4(GpuMma *m, const GpuTma4 *t, int64_t E, int64_t R)
{
    for (int i = 0; i < F->params.n; i++) {          /* one map per tensor and box */
        const PirParam *q = &F->params.v[i];
        if (q->kind == PP_TMAP && q->tmrank == 4 && q->index == t->param && q->box[0] == E && q->box[1] == R)
            return i;
    }
    const ParamInfo *p = &m->k->info->params[t->param];
    int i = pir_add_param(F, PP_TMAP, pir_ty_of(p->dt), 0, arena_printf(m->a, "tm%d", F->params.n), t->param, 0);
    F->params.v[i].box[0] = (int)E;
    F->params.v[i].box[1] = (int)R;
    F->params.v[i].tmrank = 4;
    return i;
}

void gpu_tma_copy4(GpuMma *m, const GpuTma4 *t, int map, int v, int64_t E, PirExpr *at, PirExpr *bar)
{
    const TTy *ty = &I(m, v)->ty;
    GL *e = m->e;
    int64_t es = dtype_info[m->k->info->params[t->param].dt].bits / 8;
    PirExpr *zero = gpu_i(e, 0);
    PirLocal *c[4];
    for (int d = 3; d >= 0; d--)
        c[d] = gpu_let(e, "tc", pir_conv(F, PT_I32, gpu_at_raw(e, t->x[d], zero, zero)));
    for (int64_t j = 0; j < ty->dim[1] / E; j++) {
        PirStmt *s = pir_asm_stmt(F, gpu_cur(e), PA_TMA_LOAD4);
        s->in[0] = pir_saddr(F, gpu_add(e, at, gpu_i(e, j * ty->dim[0] * es * E)));
        s->in[1] = pir_param(F, map);
        s->in[2] = gpu_add(e, pir_ref(F, c[3]), gpu_i(e, j * E));
        s->in[3] = pir_ref(F, c[2]);
        s->in[4] = pir_ref(F, c[1]);
        s->in[5] = pir_ref(F, c[0]);
        s->in[6] = bar;
    }
}
