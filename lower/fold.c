/*
 * lower/fold.c — constant folding and algebraic identities.
 *
 * One walk in program order.  An elementwise op whose operands are all
 * (splat) constants becomes a constant: in place for scalars, or a
 * BROADCAST of a new scalar constant for tiles.  Identities (x + 0, x * 1,
 * m && true, where(true, a, b)) replace a value by an operand through a
 * replacement map applied to later operands.  An `if` on a constant keeps
 * the taken branch's instructions; a load or store whose mask folded to
 * true loses it.  Integer folding wraps to the dtype's width exactly as the
 * generated code computes at run time.
 */
#include <math.h>
#include <string.h>

#include "tir.h"

typedef Vec(int) IdVec;

typedef struct Fold {
    TirKernel *k;
    int *repl;
    int *uses;
    IdVec *out;           /* the block being rebuilt: new instructions go here */
    Vec(int) consts;      /* new scalar constants, placed at the body's start */
} Fold;

static int64_t wrap(DType dt, int64_t v)
{
    switch (dt) {
    case DT_BOOL: return v != 0;
    case DT_I8: return (int8_t)v;
    case DT_I16: return (int16_t)v;
    case DT_I32: return (int32_t)v;
    case DT_U8: return (uint8_t)v;
    case DT_U32: return (uint32_t)v;
    default: return v;
    }
}

/* Is dt's arithmetic folded here?  16-bit floats round at every op on some
 * targets and not others: leave them to run time. */
static bool foldable(DType dt) { return dt != DT_F16 && dt != DT_BF16; }

typedef struct Val { int64_t i; double f; } Val;

static double fround(DType dt, double v) { return dt == DT_F32 ? (double)(float)v : v; }

static int64_t f2i(DType dt, double v)
{
    if (isnan(v))
        return 0;
    double lo = dt == DT_U8 || dt == DT_U32 ? 0 : -9.2e18, hi = 9.2e18;
    v = v < lo ? lo : v > hi ? hi : v;
    int64_t r = (int64_t)v;
    switch (dt) {   /* saturate to the target width, as the C target does */
    case DT_I8: return r < INT8_MIN ? INT8_MIN : r > INT8_MAX ? INT8_MAX : r;
    case DT_I16: return r < INT16_MIN ? INT16_MIN : r > INT16_MAX ? INT16_MAX : r;
    case DT_I32: return r < INT32_MIN ? INT32_MIN : r > INT32_MAX ? INT32_MAX : r;
    case DT_U8: return r > UINT8_MAX ? UINT8_MAX : r;
    case DT_U32: return r > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : r;
    default: return r;
    }
}

static bool eval_cast(DType from, DType to, Val a, Val *r)
{
    if (!foldable(to) || !foldable(from))
        return false;
    if (to == DT_BOOL)
        r->i = dtype_is_float(from) ? a.f != 0 : a.i != 0;
    else if (dtype_is_float(to))
        r->f = fround(to, dtype_is_float(from) ? a.f : (double)a.i);
    else
        r->i = dtype_is_float(from) ? f2i(to, a.f) : wrap(to, a.i);
    return true;
}

static bool eval_int(Op op, DType dt, int64_t a, int64_t b, int64_t *r)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    int bits = dtype_info[dt].bits;
    switch (op) {
    case OP_NEG: *r = (int64_t)(0 - ua); break;
    case OP_BITNOT: *r = (int64_t)~ua; break;
    case OP_NOT: *r = !a; break;
    case OP_ABS: *r = a < 0 ? (int64_t)(0 - ua) : a; break;
    case OP_ADD: *r = (int64_t)(ua + ub); break;
    case OP_SUB: *r = (int64_t)(ua - ub); break;
    case OP_MUL: *r = (int64_t)(ua * ub); break;
    case OP_DIV: *r = b == 0 ? 0 : b == -1 ? (int64_t)(0 - ua) : a / b; break;
    case OP_MOD: *r = b == 0 || b == -1 ? 0 : a % b; break;
    case OP_MIN: *r = a < b ? a : b; break;
    case OP_MAX: *r = a > b ? a : b; break;
    case OP_AND: *r = a & b; break;
    case OP_OR: *r = a | b; break;
    case OP_XOR: *r = a ^ b; break;
    case OP_SHL: *r = (int64_t)(ua << (b & (bits - 1))); break;
    case OP_SHR: *r = a >> (b & (bits - 1)); break;
    case OP_LT: *r = a < b; return true;
    case OP_LE: *r = a <= b; return true;
    case OP_GT: *r = a > b; return true;
    case OP_GE: *r = a >= b; return true;
    case OP_EQ: *r = a == b; return true;
    case OP_NE: *r = a != b; return true;
    default: return false;
    }
    *r = wrap(dt, *r);
    return true;
}

static bool eval_float(Op op, DType dt, double a, double b, Val *r)
{
    double v;
    switch (op) {
    case OP_NEG: v = -a; break;
    case OP_ABS: v = fabs(a); break;
    case OP_EXP: v = exp(a); break;
    case OP_LOG: v = log(a); break;
    case OP_SQRT: v = sqrt(a); break;
    case OP_ADD: v = a + b; break;
    case OP_SUB: v = a - b; break;
    case OP_MUL: v = a * b; break;
    case OP_DIV: v = a / b; break;
    case OP_MIN: v = fmin(a, b); break;
    case OP_MAX: v = fmax(a, b); break;
    case OP_LT: r->i = a < b; return true;
    case OP_LE: r->i = a <= b; return true;
    case OP_GT: r->i = a > b; return true;
    case OP_GE: r->i = a >= b; return true;
    case OP_EQ: r->i = a == b; return true;
    case OP_NE: r->i = a != b; return true;
    default: return false;   /* transcendental functions: leave to the target's libm */
    }
    r->f = fround(dt, v);
    return true;
}

static int new_const(Fold *f, DType dt, Val v)
{
    Instr *c = tir_new(f->k, f->k->body, OP_CONST, (TTy){.dt = dt});
    f->k->body->ins.n--;            /* placed at the start by lower_fold */
    c->ival = v.i;
    c->fval = v.f;
    vec_push(f->k->arena, f->consts, c->id);
    return c->id;
}

static void make_const(Fold *f, Instr *in, Val v)
{
    if (in->ty.rank == 0) {
        in->op = OP_CONST;
        in->nargs = 0;
        in->args[0] = in->args[1] = in->args[2] = 0;
        in->ival = v.i;
        in->fval = v.f;
        return;
    }
    int c = new_const(f, in->ty.dt, v);
    in->op = OP_BROADCAST;
    in->nargs = 1;
    in->args[0] = c;
    in->args[1] = in->args[2] = 0;
}

static void replace(Fold *f, Instr *in, int v)
{
    f->repl[in->id] = v;
    in->op = OP_NONE;
}

/* Fold an elementwise op on constants. */
static bool fold_consts(Fold *f, Instr *in)
{
    Val v[3] = {{0, 0}, {0, 0}, {0, 0}}, r = {0, 0};
    for (int i = 0; i < in->nargs; i++)
        if (!tir_splat_const(f->k, in->args[i], &v[i].i, &v[i].f))
            return false;
    DType odt = in->nargs ? tir_def(f->k, in->args[in->op == OP_WHERE ? 1 : 0])->ty.dt : in->ty.dt;
    bool ok;
    if (in->op == OP_CAST)
        ok = eval_cast(odt, in->ty.dt, v[0], &r);
    else if (in->op == OP_WHERE)
        r = v[0].i ? v[1] : v[2], ok = true;
    else if (!foldable(odt) || in->nargs > 2)
        ok = false;
    else if (dtype_is_float(odt))
        ok = eval_float(in->op, in->ty.dt, v[0].f, v[1].f, &r);
    else
        ok = eval_int(in->op, odt, v[0].i, v[1].i, &r.i);
    if (ok)
        make_const(f, in, r);
    return ok;
}

static bool is_const(Fold *f, int v, int64_t want)
{
    int64_t iv;
    double fv;
    Instr *d = tir_def(f->k, v);
    if (!tir_splat_const(f->k, v, &iv, &fv))
        return false;
    return dtype_is_float(d->ty.dt) ? fv == (double)want : iv == want;
}

/* A float tile divided by one scalar: one division, then a multiply per lane
 * (x * (1/s) is within 1.5 ulp of x / s; Triton's GPU division is also not
 * correctly rounded).  Lane divisions cost 10-20x a multiply. */
static Instr *new_here(Fold *f, Instr *at, Op op, TTy ty)
{
    Instr *x = tir_new(f->k, at->parent, op, ty);
    at->parent->ins.n--;          /* not appended: placed in the rebuilt block */
    vec_push(f->k->arena, *f->out, x->id);
    x->span = at->span;
    return x;
}

static bool fold_div_scalar(Fold *f, Instr *in)
{
    Instr *b = tir_def(f->k, in->args[1]);
    if (!dtype_is_float(in->ty.dt) || in->ty.rank == 0 || b->op != OP_BROADCAST ||
        tir_def(f->k, b->args[0])->ty.rank != 0 || !f->out)
        return false;
    TTy st = {.dt = in->ty.dt};
    Instr *one = new_here(f, in, OP_CONST, st);
    one->fval = 1.0;
    Instr *rcp = new_here(f, in, OP_DIV, st);
    rcp->args[0] = one->id, rcp->args[1] = b->args[0];
    Instr *splat = new_here(f, in, OP_BROADCAST, in->ty);
    splat->args[0] = rcp->id;
    in->op = OP_MUL;
    in->args[1] = splat->id;
    return true;
}

/* x + dot(a, b, 0) -> dot(a, b, x) when the dot has no other use. */
static bool fold_dot_acc(Fold *f, Instr *in)
{
    for (int i = 0; i < 2; i++) {
        Instr *d = tir_def(f->k, in->args[i]);
        int other = in->args[1 - i];
        if (d->op != OP_DOT || f->uses[d->id] != 1 || !tty_eq(&d->ty, &in->ty) || !is_const(f, d->args[2], 0) ||
            d->parent != in->parent)
            continue;
        in->op = OP_DOT;
        in->nargs = 3;
        in->args[0] = d->args[0];
        in->args[1] = d->args[1];
        in->args[2] = other;
        in->ival = d->ival;           /* allow_tf32 */
        d->op = OP_NONE;
        return true;
    }
    return false;
}

static void fold_identities(Fold *f, Instr *in)
{
    int a = in->args[0], b = in->args[1];
    bool fl = dtype_is_float(in->ty.dt);
    if (in->nargs == 2 && a == b && (in->op == OP_EQ || in->op == OP_LE || in->op == OP_GE || in->op == OP_NE ||
                                     in->op == OP_LT || in->op == OP_GT) && !dtype_is_float(tir_def(f->k, a)->ty.dt)) {
        make_const(f, in, (Val){in->op == OP_EQ || in->op == OP_LE || in->op == OP_GE, 0});   /* x == x */
        return;
    }
    switch (in->op) {
    case OP_ADD:
        if (fold_dot_acc(f, in)) return;
        if (!fl && is_const(f, b, 0)) replace(f, in, a);
        else if (!fl && is_const(f, a, 0)) replace(f, in, b);
        return;
    case OP_SUB:
        if (!fl && is_const(f, b, 0)) replace(f, in, a);
        return;
    case OP_MUL:
        if (is_const(f, b, 1)) replace(f, in, a);
        else if (is_const(f, a, 1)) replace(f, in, b);
        else if (!fl && (is_const(f, a, 0) || is_const(f, b, 0))) make_const(f, in, (Val){0, 0});
        return;
    case OP_DIV:
        if (is_const(f, b, 1)) replace(f, in, a);
        else fold_div_scalar(f, in);
        return;
    case OP_AND:
        if (in->ty.dt != DT_BOOL) return;
        if (is_const(f, b, 1)) replace(f, in, a);
        else if (is_const(f, a, 1)) replace(f, in, b);
        else if (is_const(f, a, 0) || is_const(f, b, 0)) make_const(f, in, (Val){0, 0});
        return;
    case OP_OR:
        if (in->ty.dt != DT_BOOL) return;
        if (is_const(f, b, 0)) replace(f, in, a);
        else if (is_const(f, a, 0)) replace(f, in, b);
        else if (is_const(f, a, 1) || is_const(f, b, 1)) make_const(f, in, (Val){1, 0});
        return;
    case OP_CAST:
        if (tir_def(f->k, a)->ty.dt == in->ty.dt) replace(f, in, a);
        return;
    case OP_WHERE: {        /* a constant condition picks one side (of the result's type) */
        int64_t c;
        if (!tir_splat_const(f->k, a, &c, NULL))
            return;
        int x = in->args[c ? 1 : 2];
        if (tty_eq(&tir_def(f->k, x)->ty, &in->ty))
            replace(f, in, x);
        return;
    }
    default:
        return;
    }
}

static void fold_view(Fold *f, Instr *in)
{
    Instr *src = tir_def(f->k, in->args[0]);
    if (tty_eq(&src->ty, &in->ty) && in->op != OP_TRANS) {
        replace(f, in, src->id);
        return;
    }
    if ((in->op == OP_BROADCAST && src->op == OP_BROADCAST) ||
        (in->op == OP_RESHAPE && src->op == OP_RESHAPE))
        in->args[0] = src->args[0];
    else if (in->op == OP_BROADCAST && src->op == OP_CONST)
        ;   /* already a splat */
    else if (in->op == OP_RESHAPE && tir_splat_const(f->k, src->id, NULL, NULL))
        in->op = OP_BROADCAST, in->args[0] = tir_source(f->k, src->id)->id;
}

static void fold_memory(Fold *f, Instr *in)
{
    int mslot = in->op == OP_LOAD ? 1 : 2, m = in->args[mslot];
    if (!m)
        return;
    if (is_const(f, m, 1)) {
        in->args[mslot] = 0;
    } else if (is_const(f, m, 0)) {
        if (in->op == OP_ATOMIC && in->ival)   /* a value: 0, as a load's masked lane */
            make_const(f, in, (Val){0, 0});
        else if (in->op == OP_STORE || in->op == OP_ATOMIC)
            in->op = OP_NONE;
        else if (in->args[2])
            replace(f, in, in->args[2]);
        else
            make_const(f, in, (Val){0, 0});
    }
}

static void fold_block(Fold *f, TBlock *b)
{
    IdVec out = {0};
    IdVec *saved = f->out;
    f->out = &out;
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = f->k->instrs.v[b->ins.v[i]];
        for (int j = 0; j < in->nargs; j++)
            in->args[j] = tir_resolve(f->repl, in->args[j]);
        int64_t c;
        if (in->op == OP_IF && tir_splat_const(f->k, in->args[0], &c, NULL)) {
            TBlock *taken = in->blocks[c ? 0 : 1];
            fold_block(f, taken);
            for (int j = 0; j < taken->ins.n; j++) {
                f->k->instrs.v[taken->ins.v[j]]->parent = b;
                vec_push(f->k->arena, out, taken->ins.v[j]);
            }
            continue;
        }
        f->out = &out;
        if (op_flags[in->op] & OPF_E) {
            if (!fold_consts(f, in))
                fold_identities(f, in);
        } else if (in->op == OP_BROADCAST || in->op == OP_RESHAPE) {
            fold_view(f, in);
        } else if (in->op == OP_LOAD || in->op == OP_STORE || in->op == OP_ATOMIC) {
            fold_memory(f, in);
        }
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                fold_block(f, in->blocks[j]);
        if (in->op != OP_NONE)
            vec_push(f->k->arena, out, in->id);
    }
    b->ins.v = out.v;
    b->ins.n = out.n;
    b->ins.cap = out.cap;
    f->out = saved;
}

void lower_fold(TirKernel *k)
{
    /* new instructions get ids above today's (at most 4 per instruction: a constant,
     * or a reciprocal of three); repl is sized for them too */
    Fold f = {.k = k, .repl = arena_alloc(k->arena, sizeof(int) * (size_t)(k->instrs.n + 2) * 5),
              .uses = tir_use_counts(k)};
    fold_block(&f, k->body);
    if (f.consts.n) {
        Vec(int) ins = {0};
        for (int i = 0; i < f.consts.n; i++)
            vec_push(k->arena, ins, f.consts.v[i]);
        for (int i = 0; i < k->body->ins.n; i++)
            vec_push(k->arena, ins, k->body->ins.v[i]);
        k->body->ins.v = ins.v;
        k->body->ins.n = ins.n;
        k->body->ins.cap = ins.cap;
    }
    for (int i = 0; i < k->ngrid; i++)
        k->grid[i] = tir_resolve(f.repl, k->grid[i]);
    for (int i = 0; i < k->requires.n; i++)
        k->requires.v[i].cond = tir_resolve(f.repl, k->requires.v[i].cond);
}
