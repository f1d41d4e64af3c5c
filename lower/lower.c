/*
 * lower/lower.c — typed AST to tile IR, for one choice of const values.
 *
 * Sema left symbolic shapes; here every Sym is evaluated with the chosen
 * const values, so tiles get concrete shapes.  Functions are inlined (each
 * call site lowers its FnInst's private body), static_for is unrolled, an
 * `if` on a compile-time condition keeps only the taken branch, and tensor
 * indexing becomes explicit offset arithmetic plus a bound-check mask per
 * dim, so that later passes can prove checks away with ordinary folding.
 * Implicit conversions and broadcasts become explicit CAST/BROADCAST ops:
 * after lowering, elementwise operands always have the result's shape.
 */
#include <string.h>

#include "tir.h"

typedef struct L {
    TirKernel *k;
    Arena *a;
    Diag *d;
    const KernelInfo *info;
    const int64_t *cvals;
    const double *fvals;
    TBlock *cur;
    bool failed;
    bool too_big;          /* MAX_UNROLLED reported */
    bool print_warned;     /* a dropped print reported (once a kernel) */
    const Expr *discard;   /* the expression of the statement being lowered (its value unused) */
    Vec(Sym *) reported;   /* sizes already reported as invalid: one error each */
} L;

/* The most instructions static_for unrolling may make of one kernel. */
#define MAX_UNROLLED (1 << 20)

static int lower_expr(L *l, Expr *e);
static void lower_block(L *l, Block *b);

/* -------------------------------------------------------------- helpers */

static TTy ty_of(L *l, int v) { return l->k->instrs.v[v]->ty; }

static TTy scalar_ty(DType dt) { return (TTy){.dt = dt}; }

static bool first_report(L *l, Sym *s)
{
    for (int i = 0; i < l->reported.n; i++)
        if (l->reported.v[i] == s)
            return false;
    vec_push(l->a, l->reported, s);
    l->failed = true;
    return true;
}

static bool eval_sym(L *l, Sym *s, Span at, int64_t *out)
{
    if (sym_eval(s, l->cvals, l->info->nconsts, out))
        return true;
    if (first_report(l, s))
        diag_error(l->d, at, "cannot evaluate %s with these const values: division by zero or overflow",
                   sym_str(l->a, s));
    return false;
}

/* A tile size: evaluated, positive. */
static int64_t tile_dim(L *l, Sym *s, Span at)
{
    int64_t v = 1;
    if (eval_sym(l, s, at, &v) && v <= 0) {
        if (first_report(l, s))
            diag_error(l->d, at, "tile size %s is %lld: sizes must be positive, not zero or negative",
                       sym_str(l->a, s), (long long)v);
        return 1;
    }
    return v;
}

/* Check the sizes a builtin's shape arguments name, at their own spans. */
static void check_sizes(L *l, Expr *e)
{
    for (int i = 0; i < e->u.call.nargs; i++) {
        Expr *a = e->u.call.args[i].value;
        if (a->kind == EX_LIST)
            for (int j = 0; j < a->u.list.n; j++)
                tile_dim(l, a->u.list.elts[j]->cval, a->u.list.elts[j]->span);
    }
}

/* The concrete type of a sema type. */
static TTy concrete(L *l, const Type *t, Span at)
{
    TTy r = {.dt = t->dt, .rank = t->rank};
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++) {
        int64_t v = tile_dim(l, t->shape[i], at);
        r.dim[i] = v;
        if (__builtin_mul_overflow(n, v, &n) || n > (1 << 24)) {
            if (first_report(l, t->shape[i]))
                diag_error(l->d, at, "tile %s is too large: more than 2^24 elements", type_str(l->a, t));
            r.dim[i] = 1;
            n = 1;
        }
    }
    return r;
}

static Instr *emit(L *l, Op op, TTy ty, int a0, int a1, int a2, Span at)
{
    Instr *in = tir_new(l->k, l->cur, op, ty);
    in->args[0] = a0;
    in->args[1] = a1;
    in->args[2] = a2;
    in->span = at;
    return in;
}

static int op1(L *l, Op op, TTy ty, int a, Span at) { return emit(l, op, ty, a, 0, 0, at)->id; }
static int op2(L *l, Op op, TTy ty, int a, int b, Span at) { return emit(l, op, ty, a, b, 0, at)->id; }

static int konst_i(L *l, DType dt, int64_t v)
{
    Instr *in = emit(l, OP_CONST, scalar_ty(dt), 0, 0, 0, (Span){0});
    if (dtype_is_float(dt))
        in->fval = (double)v;
    else
        in->ival = dt == DT_BOOL ? v != 0 : v;
    return in->id;
}

static int konst_f(L *l, DType dt, double v)
{
    if (!dtype_is_float(dt))
        return konst_i(l, dt, (int64_t)v);
    Instr *in = emit(l, OP_CONST, scalar_ty(dt), 0, 0, 0, (Span){0});
    in->fval = dt == DT_F32 ? (double)(float)v : v;   /* the value the target will hold */
    return in->id;
}

static int convert(L *l, int v, DType dt, Span at)
{
    TTy t = ty_of(l, v);
    if (t.dt == dt)
        return v;
    t.dt = dt;
    return op1(l, OP_CAST, t, v, at);
}

/* Broadcast v to the shape of `to` (dtype unchanged). */
static int bcast(L *l, int v, const TTy *to, Span at)
{
    TTy t = ty_of(l, v);
    if (t.rank == to->rank && memcmp(t.dim, to->dim, sizeof(int64_t) * (size_t)t.rank) == 0)
        return v;
    if (t.rank > 0 && t.rank < to->rank) {
        TTy r = t;
        r.rank = to->rank;
        int pad = to->rank - t.rank;
        for (int i = 0; i < to->rank; i++)
            r.dim[i] = i < pad ? 1 : t.dim[i - pad];
        v = op1(l, OP_RESHAPE, r, v, at);
        t = r;
    }
    TTy r = *to;
    r.dt = t.dt;
    return op1(l, OP_BROADCAST, r, v, at);
}

static int fit(L *l, int v, DType dt, const TTy *shape, Span at)
{
    return bcast(l, convert(l, v, dt, at), shape, at);
}

static TTy with_dt(TTy t, DType dt)
{
    t.dt = dt;
    return t;
}

/* ---------------------------------------------------------- names */

static int lower_name(L *l, Expr *e)
{
    Binding *b = e->u.name.bind;
    switch (b->kind) {
    case BIND_CONST: {
        const ConstInfo *ci = &l->info->consts[b->index];
        if (ci->kind == TE_INT)
            return konst_i(l, DT_I32, l->cvals[b->index]);
        if (ci->dt == DT_BOOL)
            return konst_i(l, DT_BOOL, l->cvals[b->index]);
        return konst_f(l, ci->dt, l->fvals[b->index]);
    }
    case BIND_DIM: {
        const DimInfo *di = &l->info->dims[b->index];
        if (di->specialized)
            return konst_i(l, DT_I64, di->value);
        Instr *in = emit(l, OP_DIM, scalar_ty(DT_I64), 0, 0, 0, e->span);
        in->index = b->index;
        return in->id;
    }
    case BIND_SCALAR: {
        Instr *in = emit(l, OP_ARG, scalar_ty(l->info->params[b->index].dt), 0, 0, 0, e->span);
        in->index = b->index;
        return in->id;
    }
    case BIND_VAR: {
        const TVar *var = &l->k->vars.v[b->ir];
        Instr *in = emit(l, OP_VAR_GET, var->ty, 0, 0, 0, e->span);
        in->index = b->ir;
        return in->id;
    }
    case BIND_VALUE:
        return konst_f(l, DT_F32, b->fval);
    default:
        return b->ir;
    }
}

/* ------------------------------------------------------------ operators */

static const Op binop_op[B_COUNT] = {
    [B_ADD] = OP_ADD, [B_SUB] = OP_SUB, [B_MUL] = OP_MUL, [B_DIV] = OP_DIV, [B_MOD] = OP_MOD,
    [B_LT] = OP_LT, [B_LE] = OP_LE, [B_GT] = OP_GT, [B_GE] = OP_GE, [B_EQ] = OP_EQ, [B_NE] = OP_NE,
    [B_LAND] = OP_AND, [B_LOR] = OP_OR, [B_AND] = OP_AND, [B_OR] = OP_OR, [B_XOR] = OP_XOR,
    [B_SHL] = OP_SHL, [B_SHR] = OP_SHR,
};

/* l op r with operands of types lt, rt, result shape `res`. */
static int binary(L *l, BinOp op, int a, const Type *at, int b, const Type *bt, TTy res, Span span)
{
    DType odt = sema_promote(at, bt);
    bool cmp = op >= B_LT && op <= B_NE;
    TTy shape = with_dt(res, odt);
    a = fit(l, a, odt, &shape, span);
    b = fit(l, b, odt, &shape, span);
    return op2(l, binop_op[op], cmp ? with_dt(res, DT_BOOL) : shape, a, b, span);
}

/* ------------------------------------------------------------- gathers */

static int dim_value(L *l, const TensorDim *td, Span at)
{
    if (td->dim >= 0) {
        const DimInfo *di = &l->info->dims[td->dim];
        if (di->specialized)
            return konst_i(l, DT_I64, di->value);
        Instr *in = emit(l, OP_DIM, scalar_ty(DT_I64), 0, 0, 0, at);
        in->index = td->dim;
        return in->id;
    }
    int64_t v = 1;
    eval_sym(l, td->size, at, &v);
    return konst_i(l, DT_I64, v);
}

static int stride_value(L *l, int param, int axis, Span at)
{
    const ParamInfo *p = &l->info->params[param];
    if (p->strided) {
        Instr *in = emit(l, OP_STRIDE, scalar_ty(DT_I64), 0, 0, 0, at);
        in->index = param;
        in->axis = axis;
        return in->id;
    }
    int s = konst_i(l, DT_I64, 1);
    for (int j = p->rank - 1; j > axis; j--)
        s = op2(l, OP_MUL, scalar_ty(DT_I64), s, dim_value(l, &p->dims[j], at), at);
    return s;
}

/* Offsets (i64, gathered shape) and the bound-check mask (or 0) of x[...]. */
static void gather(L *l, Expr *ix, bool unchecked, TTy *g, int *offs, int *mask)
{
    Binding *b = ix->u.index.base->u.name.bind;
    const ParamInfo *p = &l->info->params[b->index];
    *g = concrete(l, ix->type, ix->span);
    TTy g64 = with_dt(*g, DT_I64);
    bool all1d = true;
    for (int i = 0; i < p->rank; i++)
        all1d &= ix->u.index.idx[i]->type->rank <= 1;
    int q = 0;
    *offs = 0;
    *mask = 0;
    for (int i = 0; i < p->rank; i++) {
        Expr *e = ix->u.index.idx[i];
        Span at = e->span;
        int v = convert(l, lower_expr(l, e), DT_I64, at);
        TTy vt = ty_of(l, v);
        if (all1d && vt.rank == 1) {   /* orthogonal: this index owns output dim q */
            TTy r = g64;
            for (int j = 0; j < r.rank; j++)
                r.dim[j] = j == q ? vt.dim[0] : 1;
            v = op1(l, OP_RESHAPE, r, v, at);
            q++;
        }
        v = bcast(l, v, &g64, at);
        int term = op2(l, OP_MUL, g64, v, bcast(l, stride_value(l, b->index, i, at), &g64, at), at);
        *offs = *offs ? op2(l, OP_ADD, g64, *offs, term, at) : term;
        if (unchecked)
            continue;
        TTy gb = with_dt(*g, DT_BOOL);
        int lo = op2(l, OP_GE, gb, v, bcast(l, konst_i(l, DT_I64, 0), &g64, at), at);
        int hi = op2(l, OP_LT, gb, v, bcast(l, dim_value(l, &p->dims[i], at), &g64, at), at);
        int both = op2(l, OP_AND, gb, lo, hi, at);
        *mask = *mask ? op2(l, OP_AND, gb, *mask, both, at) : both;
    }
    if (!*offs)   /* a rank-0 tensor */
        *offs = konst_i(l, DT_I64, 0);
}

static int lower_load_store(L *l, Expr *e, Builtin bi, bool unchecked, Expr **a)
{
    TTy g;
    int offs, mask;
    gather(l, a[0], unchecked, &g, &offs, &mask);
    int param = a[0]->u.index.base->u.name.bind->index;
    Expr *me = bi == BI_LOAD ? a[1] : a[2];
    if (me) {
        TTy gb = with_dt(g, DT_BOOL);
        int m = bcast(l, lower_expr(l, me), &gb, me->span);
        mask = mask ? op2(l, OP_AND, gb, mask, m, e->span) : m;
    }
    Instr *in;
    if (bi == BI_LOAD) {
        int other = a[2] ? fit(l, lower_expr(l, a[2]), g.dt, &g, a[2]->span) : 0;
        in = emit(l, OP_LOAD, g, offs, mask, other, e->span);
    } else {
        int v = fit(l, lower_expr(l, a[1]), g.dt, &g, a[1]->span);
        /* atomic_add of one element whose value is used: it returns the old
         * element (ival 1: acq_rel for the whole program, LANGUAGE.md) */
        bool value = bi == BI_ATOMIC_ADD && !g.rank && l->discard != e;
        in = emit(l, bi == BI_STORE ? OP_STORE : OP_ATOMIC, value ? g : scalar_ty(DT_BOOL), offs, v, mask, e->span);
        if (bi != BI_STORE)
            in->rkind = bi == BI_ATOMIC_MAX ? RK_MAX : RK_SUM;
        in->ival = value;
    }
    in->index = param;
    in->unchecked = unchecked;
    return in->id;
}

/* ------------------------------------------------------------- builtins */

/* Positional-or-keyword arguments in the order sema matched them. */
static void args_of(Expr *e, const char *const *names, int n, Expr **out)
{
    int pos = 0;
    for (int i = 0; i < n; i++)
        out[i] = NULL;
    for (int i = 0; i < e->u.call.nargs; i++) {
        Arg *a = &e->u.call.args[i];
        if (!a->kw) {
            if (pos < n)
                out[pos++] = a->value;
            continue;
        }
        for (int j = 0; j < n; j++)
            if (strcmp(names[j], a->kw) == 0)
                out[j] = a->value;
    }
}

static int lower_reduce(L *l, Expr *e, Builtin bi, Expr **a, TTy res)
{
    static const ReduceKind rk[BI_COUNT] = {[BI_SUM] = RK_SUM, [BI_MAX_R] = RK_MAX, [BI_MIN_R] = RK_MIN,
                                            [BI_ARGMAX] = RK_ARGMAX, [BI_ARGMIN] = RK_ARGMIN};
    int x = lower_expr(l, a[0]);
    if (bi == BI_SUM || bi == BI_CUMSUM)
        x = convert(l, x, res.dt, e->span);
    TTy xt = ty_of(l, x);
    int axis = 0;
    if (a[1]) {
        int64_t v = 0;
        sym_is_int(a[1]->cval, &v);
        axis = (int)v;
    } else if (xt.rank > 1) {    /* reduce everything: flatten first */
        TTy flat = {.dt = xt.dt, .rank = 1, .dim = {tty_numel(&xt)}};
        x = op1(l, OP_RESHAPE, flat, x, e->span);
    }
    Instr *in = emit(l, bi == BI_CUMSUM ? OP_CUMSUM : OP_REDUCE, res, x, 0, 0, e->span);
    in->axis = axis;
    in->rkind = rk[bi];
    return in->id;
}

static int lower_builtin(L *l, Expr *e, bool unchecked)
{
    static const char *const n3[] = {"x", "mask", "other"}, *const s3[] = {"x", "value", "mask"},
                             *const r2[] = {"x", "axis"}, *const fl[] = {"shape", "value", "dtype"},
                             *const v2[] = {"x", "shape"}, *const t2[] = {"x", "perm"},
                             *const d4[] = {"a", "b", "c", "allow_tf32"};
    static const Op unary_op[BI_COUNT] = {
        [BI_EXP] = OP_EXP, [BI_EXP2] = OP_EXP2, [BI_LOG] = OP_LOG, [BI_LOG2] = OP_LOG2, [BI_SQRT] = OP_SQRT,
        [BI_RSQRT] = OP_RSQRT, [BI_SIN] = OP_SIN, [BI_COS] = OP_COS, [BI_TANH] = OP_TANH, [BI_ERF] = OP_ERF,
        [BI_SIGMOID] = OP_SIGMOID, [BI_ABS] = OP_ABS, [BI_FLOOR] = OP_FLOOR, [BI_CEIL] = OP_CEIL,
        [BI_MIN] = OP_MIN, [BI_MAX] = OP_MAX, [BI_POW] = OP_POW, [BI_FMA] = OP_FMA,
    };
    Builtin bi = (Builtin)e->u.call.builtin;
    if (bi == BI_ARANGE) {   /* arange(n) / arange(a, b): report a bad size at n, or at b */
        Expr *last = e->u.call.args[e->u.call.nargs - 1].value;
        tile_dim(l, e->type->shape[0], last->span);
    }
    if (bi == BI_ZEROS || bi == BI_FULL || bi == BI_RESHAPE || bi == BI_BROADCAST)
        check_sizes(l, e);
    TTy res = e->type->kind == TY_TILE ? concrete(l, e->type, e->span) : scalar_ty(DT_BOOL);
    Expr *a[4];
    switch (bi) {
    case BI_PROGRAM_ID: {
        args_of(e, r2, 1, a);
        Instr *in = emit(l, OP_PROGRAM_ID, res, 0, 0, 0, e->span);
        int64_t axis = 0;
        sym_is_int(a[0]->cval, &axis);
        in->axis = (int)axis;
        return in->id;
    }
    case BI_NUM_PROGRAMS: {
        args_of(e, r2, 1, a);
        int64_t axis = 0;
        sym_is_int(a[0]->cval, &axis);
        return axis < l->k->ngrid ? l->k->grid[axis] : konst_i(l, DT_I64, 1);
    }
    case BI_ARANGE: {
        args_of(e, r2, 2, a);
        int64_t lo = 0;
        if (a[1])
            eval_sym(l, a[0]->cval, a[0]->span, &lo);
        Instr *in = emit(l, OP_ARANGE, res, 0, 0, 0, e->span);
        in->ival = lo;
        return in->id;
    }
    case BI_ZEROS:
        return bcast(l, konst_i(l, res.dt, 0), &res, e->span);
    case BI_FULL:
        args_of(e, fl, 3, a);
        return fit(l, lower_expr(l, a[1]), res.dt, &res, e->span);
    case BI_LOAD:
        args_of(e, n3, 3, a);
        return lower_load_store(l, e, bi, unchecked, a);
    case BI_STORE: case BI_ATOMIC_ADD: case BI_ATOMIC_MAX:
        args_of(e, s3, 3, a);
        return lower_load_store(l, e, bi, unchecked, a);
    case BI_DOT: {
        args_of(e, d4, 4, a);
        int x = lower_expr(l, a[0]), y = lower_expr(l, a[1]);
        int acc = a[2] ? convert(l, lower_expr(l, a[2]), res.dt, e->span)
                       : bcast(l, konst_i(l, res.dt, 0), &res, e->span);
        const Instr *f = a[3] ? l->k->instrs.v[lower_expr(l, a[3])] : NULL;   /* sema: a CONST */
        bool tf32 = f && f->op == OP_CONST && f->ival;
        Instr *in = emit(l, OP_DOT, res, x, y, acc, e->span);
        /* tf32 only means something for f32 operands */
        in->ival = tf32 && ty_of(l, x).dt == DT_F32 && ty_of(l, y).dt == DT_F32;
        return in->id;
    }
    case BI_TRANS: {
        args_of(e, t2, 2, a);
        int x = lower_expr(l, a[0]);
        Instr *in = emit(l, OP_TRANS, res, x, 0, 0, e->span);
        for (int i = 0; i < res.rank; i++) {
            int64_t v = res.rank - 1 - i;
            if (a[1])
                sym_is_int(a[1]->type->shape[i], &v);
            in->perm[i] = (int)v;
        }
        return in->id;
    }
    case BI_RESHAPE:
        args_of(e, v2, 2, a);
        return op1(l, OP_RESHAPE, res, lower_expr(l, a[0]), e->span);
    case BI_BROADCAST:
        args_of(e, v2, 2, a);
        return bcast(l, lower_expr(l, a[0]), &res, e->span);
    case BI_EXPAND_DIMS:
        args_of(e, r2, 2, a);
        return op1(l, OP_RESHAPE, res, lower_expr(l, a[0]), e->span);
    case BI_SUM: case BI_MAX_R: case BI_MIN_R: case BI_ARGMAX: case BI_ARGMIN: case BI_CUMSUM:
        args_of(e, r2, 2, a);
        return lower_reduce(l, e, bi, a, res);
    case BI_WHERE: {
        args_of(e, n3, 3, a);
        TTy rb = with_dt(res, DT_BOOL);
        int c = bcast(l, lower_expr(l, a[0]), &rb, e->span);
        int x = fit(l, lower_expr(l, a[1]), res.dt, &res, e->span);
        int y = fit(l, lower_expr(l, a[2]), res.dt, &res, e->span);
        return emit(l, OP_WHERE, res, c, x, y, e->span)->id;
    }
    case BI_CDIV: {
        args_of(e, n3, 2, a);
        int x = fit(l, lower_expr(l, a[0]), res.dt, &res, e->span);
        int y = fit(l, lower_expr(l, a[1]), res.dt, &res, e->span);
        int one = bcast(l, konst_i(l, res.dt, 1), &res, e->span);
        int t = op2(l, OP_SUB, res, op2(l, OP_ADD, res, x, y, e->span), one, e->span);
        return op2(l, OP_DIV, res, t, y, e->span);
    }
    default: {   /* elementwise: unary math, min, max, pow, fma */
        args_of(e, n3, 3, a);
        int v[3] = {0, 0, 0};
        for (int i = 0; i < 3 && a[i]; i++)
            v[i] = fit(l, lower_expr(l, a[i]), res.dt, &res, e->span);
        return emit(l, unary_op[bi], res, v[0], v[1], v[2], e->span)->id;
    }
    }
}

static void lower_stmts(L *l, Block *b, bool skip_return);

static int lower_call(L *l, Expr *e, bool unchecked)
{
    if (e->u.call.builtin >= 0)
        return lower_builtin(l, e, unchecked);
    FnInst *inst = e->u.call.inst;
    for (int i = 0; i < inst->fn->nparams; i++) {
        Binding *p = inst->params[i];
        if (p->kind == BIND_TENSOR)   /* an alias: gathers read p->index */
            continue;
        if (p->type->kind == TY_DTYPE)  /* an element type: read at compile time */
            continue;
        int v = lower_expr(l, e->u.call.args[i].value);
        if (p->type->kind == TY_TILE)
            v = convert(l, v, p->type->dt, e->span);
        p->ir = v;
    }
    lower_stmts(l, inst->body, true);
    if (!inst->ret_expr)
        return 0;
    int r = lower_expr(l, inst->ret_expr);
    return inst->ret->kind == TY_TILE ? convert(l, r, inst->ret->dt, e->span) : r;
}

/* ---------------------------------------------------------- expressions */

static int lower_expr(L *l, Expr *e)
{
    if (e->kind == EX_CALL)
        return lower_call(l, e, false);
    if (e->kind == EX_UNCHECKED)
        return lower_call(l, e->u.unchecked.x, true);
    if (e->type && e->type->kind == TY_DTYPE)   /* f16, or a name bound to it: no value */
        return konst_i(l, DT_I32, 0);
    TTy res = e->type && e->type->kind == TY_TILE ? concrete(l, e->type, e->span) : scalar_ty(DT_BOOL);
    switch (e->kind) {
    case EX_INT:
        return konst_i(l, res.dt, e->u.ival);
    case EX_FLOAT:   /* kept exact: the context's conversion rounds it once */
        return konst_f(l, e->type->weak ? DT_F64 : res.dt, e->u.fval);
    case EX_BOOL:
        return konst_i(l, DT_BOOL, e->u.bval);
    case EX_NAME:
        return lower_name(l, e);
    case EX_UNARY: {
        static const Op uop[U_COUNT] = {[U_NEG] = OP_NEG, [U_NOT] = OP_NOT, [U_BITNOT] = OP_BITNOT};
        int x = convert(l, lower_expr(l, e->u.unary.x), res.dt, e->span);
        return op1(l, uop[e->u.unary.op], res, x, e->span);
    }
    case EX_BINARY: {
        int a = lower_expr(l, e->u.binary.l), b = lower_expr(l, e->u.binary.r);
        return binary(l, e->u.binary.op, a, e->u.binary.l->type, b, e->u.binary.r->type, res, e->span);
    }
    case EX_CAST:
        return convert(l, lower_expr(l, e->u.cast.x), e->u.cast.to, e->span);
    case EX_INDEX:   /* t[:, None]: a view with size-1 dims added */
        return op1(l, OP_RESHAPE, res, lower_expr(l, e->u.index.base), e->span);
    default:
        diag_error(l->d, e->span, "internal error: cannot lower this expression");
        l->failed = true;
        return konst_i(l, DT_I32, 0);
    }
}

/* ------------------------------------------------------------ statements */

static void lower_let(L *l, Stmt *s)
{
    Binding *b = s->u.let.bind;
    int v = lower_expr(l, s->u.let.init);
    TTy t = concrete(l, b->type, s->span);
    v = fit(l, v, t.dt, &t, s->span);
    if (s->kind == ST_LET) {
        b->ir = v;
        return;
    }
    TVar var = {.name = b->name, .ty = t};
    b->ir = l->k->vars.n;
    vec_push(l->a, l->k->vars, var);
    Instr *in = emit(l, OP_VAR_SET, t, v, 0, 0, s->span);
    in->index = b->ir;
}

static void lower_assign(L *l, Stmt *s)
{
    Binding *b = s->u.assign.target->u.name.bind;
    TTy t = l->k->vars.v[b->ir].ty;
    Expr *ve = s->u.assign.value;
    int v = lower_expr(l, ve);
    if (s->u.assign.op >= 0) {
        Instr *get = emit(l, OP_VAR_GET, t, 0, 0, 0, s->span);
        get->index = b->ir;
        DType odt = sema_promote(b->type, ve->type);
        v = binary(l, (BinOp)s->u.assign.op, get->id, b->type, v, ve->type, with_dt(t, odt), s->span);
    }
    Instr *in = emit(l, OP_VAR_SET, t, fit(l, v, t.dt, &t, s->span), 0, 0, s->span);
    in->index = b->ir;
}

static void lower_for(L *l, Stmt *s)
{
    Binding *b = s->u.for_.bind;
    DType dt = b->type->dt;
    if (s->kind == ST_STATIC_FOR) {
        int64_t lo = 0, hi = 0, step = 1;
        if ((s->u.for_.start && !eval_sym(l, s->u.for_.start->cval, s->span, &lo)) ||
            !eval_sym(l, s->u.for_.end->cval, s->span, &hi) ||
            (s->u.for_.step && !eval_sym(l, s->u.for_.step->cval, s->span, &step)))
            return;
        if (step <= 0 || (hi - lo) / step > 4096) {
            diag_error(l->d, s->span, "static_for would unroll %lld times (step %lld); the limit is 4096",
                       (long long)((hi - lo) / (step ? step : 1)), (long long)step);
            l->failed = true;
            return;
        }
        for (int64_t i = lo; i < hi; i += step) {
            if (l->k->instrs.n > MAX_UNROLLED) {   /* nested static_fors multiply */
                if (!l->too_big)
                    diag_error(l->d, s->span, "static_for unrolls the kernel to more than %d instructions",
                               MAX_UNROLLED);
                l->too_big = l->failed = true;
                return;
            }
            b->ir = konst_i(l, dt, i);
            lower_block(l, s->u.for_.body);
        }
        return;
    }
    int lo = s->u.for_.start ? convert(l, lower_expr(l, s->u.for_.start), dt, s->span) : konst_i(l, dt, 0);
    int hi = convert(l, lower_expr(l, s->u.for_.end), dt, s->span);
    int st = s->u.for_.step ? convert(l, lower_expr(l, s->u.for_.step), dt, s->span) : konst_i(l, dt, 1);
    Instr *f = emit(l, OP_FOR, scalar_ty(DT_BOOL), lo, hi, st, s->span);
    f->blocks[0] = tir_block(l->k, f);
    TBlock *saved = l->cur;
    l->cur = f->blocks[0];
    b->ir = emit(l, OP_LOOPVAR, scalar_ty(dt), 0, 0, 0, s->u.for_.var_span)->id;
    lower_block(l, s->u.for_.body);
    l->cur = saved;
}

static void lower_if(L *l, Stmt *s)
{
    Sym *cv = s->u.if_.cond->cval;
    int64_t v;
    if (cv && sym_eval(cv, l->cvals, l->info->nconsts, &v)) {   /* compile-time: keep one branch */
        if (v)
            lower_block(l, s->u.if_.then);
        else if (s->u.if_.else_)
            lower_block(l, s->u.if_.else_);
        return;
    }
    int c = lower_expr(l, s->u.if_.cond);
    Instr *in = emit(l, OP_IF, scalar_ty(DT_BOOL), c, 0, 0, s->span);
    in->blocks[0] = tir_block(l->k, in);
    in->blocks[1] = tir_block(l->k, in);
    TBlock *saved = l->cur;
    l->cur = in->blocks[0];
    lower_block(l, s->u.if_.then);
    l->cur = in->blocks[1];
    if (s->u.if_.else_)
        lower_block(l, s->u.if_.else_);
    l->cur = saved;
}

static void lower_while(L *l, Stmt *s)
{
    Instr *in = emit(l, OP_WHILE, scalar_ty(DT_BOOL), 0, 0, 0, s->span);
    in->blocks[0] = tir_block(l->k, in);
    in->blocks[1] = tir_block(l->k, in);
    TBlock *saved = l->cur;
    l->cur = in->blocks[0];
    emit(l, OP_YIELD, scalar_ty(DT_BOOL), lower_expr(l, s->u.while_.cond), 0, 0, s->span);
    l->cur = in->blocks[1];
    lower_block(l, s->u.while_.body);
    l->cur = saved;
}

static void lower_static_assert(L *l, Stmt *s)
{
    int64_t v;
    if (!eval_sym(l, s->u.sassert.cond->cval, s->span, &v) || v)
        return;
    Buf b = {.a = l->a};
    for (int i = 0; i < l->info->nconsts; i++)
        if (l->info->consts[i].kind == TE_INT)
            buf_printf(&b, "%s%s = %lld", b.n ? ", " : "", l->info->consts[i].name, (long long)l->cvals[i]);
    diag_error(l->d, s->span, "static assertion failed%s%s (with %s)", s->u.sassert.msg ? ": " : "",
               s->u.sassert.msg ? s->u.sassert.msg : "", b.s ? b.s : "no consts");
}

static bool debug_prints;

void tir_set_debug(bool on) { debug_prints = on; }

static void lower_print(L *l, Stmt *s)
{
    if (!debug_prints) {
        if (!l->print_warned)
            diag_warning(l->d, s->span, "print is compiled only in debug builds (tkc -g): this kernel's are dropped");
        l->print_warned = true;
        return;
    }
    Instr *in = emit(l, OP_PRINT, scalar_ty(DT_BOOL), s->u.print.value ? lower_expr(l, s->u.print.value) : 0, 0, 0,
                     s->span);
    in->label = s->u.print.label;
}

static void lower_stmt(L *l, Stmt *s)
{
    switch (s->kind) {
    case ST_LET:
    case ST_VAR: lower_let(l, s); return;
    case ST_ASSIGN: lower_assign(l, s); return;
    case ST_EXPR: {
        const Expr *outer = l->discard;
        l->discard = s->u.expr;
        lower_expr(l, s->u.expr);
        l->discard = outer;
        return;
    }
    case ST_FOR:
    case ST_STATIC_FOR: lower_for(l, s); return;
    case ST_IF: lower_if(l, s); return;
    case ST_WHILE: lower_while(l, s); return;
    case ST_BLOCK: lower_block(l, s->u.block); return;
    case ST_STATIC_ASSERT: lower_static_assert(l, s); return;
    case ST_PRINT: lower_print(l, s); return;
    case ST_BREAK: emit(l, OP_BREAK, scalar_ty(DT_BOOL), 0, 0, 0, s->span); return;
    case ST_CONTINUE: emit(l, OP_CONTINUE, scalar_ty(DT_BOOL), 0, 0, 0, s->span); return;
    case ST_RETURN: return;   /* a fn's final return: lower_call lowers its value */
    }
}

static void lower_stmts(L *l, Block *b, bool skip_return)
{
    for (int i = 0; i < b->n; i++)
        if (!(skip_return && b->stmts[i]->kind == ST_RETURN))
            lower_stmt(l, b->stmts[i]);
}

static void lower_block(L *l, Block *b) { lower_stmts(l, b, false); }

/* ------------------------------------------------------------- kernels */

static char *source_text(Arena *a, Span s)
{
    return s.src ? arena_strndup(a, s.src->text + s.lo, (size_t)(s.hi - s.lo)) : "";
}

void tir_launch(TirKernel *k, const int64_t *v)
{
    k->warps = v[LO_WARPS] > 0 ? (int)v[LO_WARPS] : 0;
    k->stages = v[LO_STAGES] > 0 ? (int)v[LO_STAGES] : 0;
    k->specialize = v[LO_SPECIALIZE] == 1;
    k->persistent = v[LO_PERSISTENT] == 1;
    k->blocks = v[LO_BLOCKS] > 0 ? (int)v[LO_BLOCKS] : 0;
    k->fast_exp2 = v[LO_FAST_EXP2] == 1;
    k->cluster = v[LO_CLUSTER] == 2 ? 2 : 1;
    k->llvm = v[LO_LLVM] == 1;
}

TirKernel *tir_lower(const KernelInfo *info, const int64_t *cvals, const double *fvals, Arena *a, Diag *d)
{
    TirKernel *k = arena_alloc(a, sizeof *k);
    k->arena = a;
    k->info = info;
    k->name = info->name;
    int64_t lv[LO_N];
    for (int o = 0; o < LO_N; o++)
        lv[o] = info->launch[o];
    tir_launch(k, lv);
    k->cvals = arena_alloc(a, sizeof(int64_t) * (size_t)(info->nconsts + 1));
    memcpy(k->cvals, cvals, sizeof(int64_t) * (size_t)info->nconsts);
    k->body = tir_block(k, NULL);
    L l = {.k = k, .a = a, .d = d, .info = info, .cvals = cvals, .fvals = fvals, .cur = k->body};
    KernelDecl *kd = info->decl;
    k->ngrid = kd->ngrid;
    for (int i = 0; i < kd->ngrid; i++)
        k->grid[i] = convert(&l, lower_expr(&l, kd->grid[i]), DT_I64, kd->grid[i]->span);
    for (int i = 0; i < kd->nrequires; i++) {
        TRequire r = {lower_expr(&l, kd->requires[i]), source_text(a, kd->requires[i]->span)};
        vec_push(a, k->requires, r);
    }
    lower_block(&l, kd->body);
    return l.failed ? NULL : k;
}
