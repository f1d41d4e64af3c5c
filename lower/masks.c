/*
 * lower/masks.c — drop bound checks the compiler can prove.
 *
 * Lowering turns every tensor index into `i >= 0 && i < dim` tests.  This
 * pass computes, for each integer value, a range [lo, hi] where lo is a
 * constant and hi is a constant or "another value + constant" (hi = M - 1
 * for program_id(0) under grid(M), or for a loop variable below M).  A
 * comparison that the ranges decide becomes a constant; fold then removes
 * the `&& true` and a load/store whose whole mask is true loses it.
 *
 * Integer arithmetic wraps, so every range also carries a bound on the
 * value's magnitude; when an operation could leave its dtype's range the
 * result is unknown.  Run-time dims are below 2^62 (the entry point checks),
 * which is what lets program_id(0) * BLOCK + arange(BLOCK) in i64 be proven
 * non-negative while the same sum in i32 is not.
 */
#include <math.h>
#include <string.h>

#include "tir.h"

typedef struct Range {
    bool has_lo, has_hi;
    int64_t lo;
    int hi_sym;          /* 0: hi is the constant hi_off; else value hi_sym + hi_off */
    int64_t hi_off;
    double mag;          /* |value| <= mag for every lane; INFINITY: unknown */
    int cd_sym;          /* if set: value <= cdiv(cd_sym, cd_c) - 1 (a program id) */
    int64_t cd_c;
} Range;

typedef struct Fact { int dim; int64_t c; } Fact;   /* require dim % c == 0 */

typedef struct Masks {
    TirKernel *k;
    Range *r;
    int true_const;
    Vec(Fact) facts;
} Masks;

static bool divisible(const Masks *m, int v, int64_t c)
{
    for (int i = 0; i < m->facts.n; i++)
        if (m->facts.v[i].dim == v && m->facts.v[i].c % c == 0)
            return true;
    return false;
}

static Range unknown(void) { return (Range){.mag = INFINITY}; }
static Range konst(int64_t v) { return (Range){true, true, v, 0, v, fabs((double)v), 0, 0}; }

static double dmax(double a, double b) { return a > b ? a : b; }

/* The magnitude beyond which dt's arithmetic may have wrapped. */
static double limit(DType dt)
{
    int bits = dtype_info[dt].bits;
    return dtype_info[dt].is_signed ? ldexp(1.0, bits - 1) - 1 : ldexp(1.0, bits) - 1;
}

static bool add_ovf(int64_t a, int64_t b, int64_t *r) { return __builtin_add_overflow(a, b, r); }

static int base_value(const TirKernel *k, int v)
{
    Instr *in = tir_source(k, v);
    return in ? in->id : v;
}

static Range range_add(Range a, Range b)
{
    Range r = unknown();
    r.mag = a.mag + b.mag;
    r.has_lo = a.has_lo && b.has_lo && !add_ovf(a.lo, b.lo, &r.lo);
    if (a.has_hi && b.has_hi && (!a.hi_sym || !b.hi_sym)) {
        r.hi_sym = a.hi_sym ? a.hi_sym : b.hi_sym;
        r.has_hi = !add_ovf(a.hi_off, b.hi_off, &r.hi_off);
    }
    return r;
}

static Range range_mul(Range a, Range b)
{
    /* non-negative constant bounds only */
    Range r = unknown();
    r.mag = a.mag * b.mag;
    if (a.has_lo && b.has_lo && a.lo >= 0 && b.lo >= 0) {
        r.has_lo = !__builtin_mul_overflow(a.lo, b.lo, &r.lo);
        if (a.has_hi && b.has_hi && !a.hi_sym && !b.hi_sym)
            r.has_hi = !__builtin_mul_overflow(a.hi_off, b.hi_off, &r.hi_off);
    }
    return r;
}

/* The range of the loop variable of FOR(start, end, step). */
static Range loop_range(Masks *m, Instr *f)
{
    Range s = m->r[f->args[0]], e = m->r[f->args[1]];
    Range r = unknown();
    r.mag = dmax(s.mag, e.mag);   /* start <= i < end */
    r.has_lo = s.has_lo;
    r.lo = s.lo;
    int64_t st;
    bool cstep = tir_splat_const(m->k, f->args[2], &st, NULL) && st > 0;
    Instr *end = tir_source(m->k, f->args[1]);
    if (end && end->op == OP_CONST && s.has_lo && s.has_hi && !s.hi_sym && s.lo == s.hi_off && cstep) {
        int64_t n = end->ival - s.lo;   /* exact last value */
        if (n > 0) {
            r.has_hi = true;
            r.hi_off = s.lo + (n - 1) / st * st;
        }
        return r;
    }
    if (cstep && s.has_lo && s.has_hi && !s.hi_sym && s.lo == 0 && s.hi_off == 0 && e.hi_sym &&
        e.hi_off == 0 && divisible(m, e.hi_sym, st)) {   /* range(0, E, st), E % st == 0: i <= E - st */
        r.hi_sym = e.hi_sym;
        r.has_hi = true;
        r.hi_off = -st;
        return r;
    }
    if (e.has_hi) {   /* i < end  =>  i <= hi(end) - 1 */
        r.hi_sym = e.hi_sym;
        r.has_hi = !add_ovf(e.hi_off, -1, &r.hi_off);
    }
    return r;
}

/* Is v cdiv(D, c) = (D + c - 1) / c with D a value and c a constant?  Returns D. */
static int cdiv_of(const TirKernel *k, int v, int64_t *c)
{
    Instr *div = tir_source(k, v), *sub, *add;
    int64_t one, c2;
    if (!div || div->op != OP_DIV || !tir_splat_const(k, div->args[1], c, NULL) || *c <= 0)
        return 0;
    sub = tir_source(k, div->args[0]);
    if (!sub || sub->op != OP_SUB || !tir_splat_const(k, sub->args[1], &one, NULL) || one != 1)
        return 0;
    add = tir_source(k, sub->args[0]);
    if (!add || add->op != OP_ADD || !tir_splat_const(k, add->args[1], &c2, NULL) || c2 != *c)
        return 0;
    return tir_source(k, add->args[0])->id;
}

static Range compute(Masks *m, Instr *in)
{
    const Range *r = m->r;
    int64_t c;
    switch (in->op) {
    case OP_CONST:
        return dtype_is_float(in->ty.dt) ? unknown() : konst(in->ival);
    case OP_ARANGE:
        return (Range){true, true, in->ival, 0, in->ival + in->ty.dim[0] - 1,
                       dmax(fabs((double)in->ival), fabs((double)(in->ival + in->ty.dim[0] - 1))), 0, 0};
    case OP_DIM:
        return (Range){true, true, 0, in->id, 0, ldexp(1.0, 62), 0, 0};
    case OP_PROGRAM_ID: {   /* under grid(g): 0 <= pid <= g - 1 */
        if (in->axis >= m->k->ngrid)
            return konst(0);
        Range g = r[m->k->grid[in->axis]];
        if (g.has_hi && !g.hi_sym)
            return (Range){true, true, 0, 0, g.hi_off - 1, fabs((double)g.hi_off), 0, 0};
        Range p = {true, true, 0, base_value(m->k, m->k->grid[in->axis]), -1, g.mag, 0, 0};
        p.cd_sym = cdiv_of(m->k, m->k->grid[in->axis], &p.cd_c);
        return p;
    }
    case OP_LOOPVAR:
        return loop_range(m, in->parent->owner);
    case OP_BROADCAST: case OP_RESHAPE: case OP_TRANS: case OP_EXPAND_DIMS:
        return r[in->args[0]];
    case OP_CAST: {
        DType from = m->k->instrs.v[in->args[0]]->ty.dt;
        if (!dtype_is_int(in->ty.dt) || (!dtype_is_int(from) && from != DT_BOOL))
            return unknown();
        Range x = r[in->args[0]];
        if (!dtype_info[from].is_signed) {   /* u8, u32, bool: never negative */
            x.has_lo = true;
            x.lo = x.lo > 0 ? x.lo : 0;
            x.mag = dmax(0, x.mag < limit(from) ? x.mag : limit(from));
            if (!x.has_hi)
                x.has_hi = true, x.hi_sym = 0, x.hi_off = (int64_t)limit(from);
        }
        return x;   /* the result's dtype limit is applied by visit */
    }
    case OP_ADD:
        return range_add(r[in->args[0]], r[in->args[1]]);
    case OP_SUB:
        if (tir_splat_const(m->k, in->args[1], &c, NULL) && c != INT64_MIN)
            return range_add(r[in->args[0]], konst(-c));
        return unknown();
    case OP_MUL: {
        Range x = range_mul(r[in->args[0]], r[in->args[1]]);
        for (int i = 0; i < 2; i++) {   /* pid * c under grid(cdiv(D, c)) */
            Range a = r[in->args[i]];
            if (a.cd_sym && tir_splat_const(m->k, in->args[1 - i], &c, NULL) && c == a.cd_c) {
                x.has_hi = true;
                x.hi_sym = a.cd_sym;
                x.hi_off = divisible(m, a.cd_sym, c) ? -c : -1;
            }
        }
        return x;
    }
    case OP_DIV:
    case OP_MOD:
        if (tir_splat_const(m->k, in->args[1], &c, NULL) && c > 0 && r[in->args[0]].has_lo &&
            r[in->args[0]].lo >= 0) {
            Range a = r[in->args[0]];
            if (in->op == OP_MOD)
                return (Range){true, true, 0, 0, c - 1, (double)c, 0, 0};
            return (Range){true, a.has_hi && !a.hi_sym, a.lo / c, 0, a.hi_off / c, a.mag / (double)c, 0, 0};
        }
        return unknown();
    case OP_MIN: {
        Range a = r[in->args[0]], b = r[in->args[1]], x = unknown();
        x.mag = dmax(a.mag, b.mag);
        x.has_lo = a.has_lo && b.has_lo;
        x.lo = a.lo < b.lo ? a.lo : b.lo;
        if (a.has_hi && (!b.has_hi || (a.hi_sym == b.hi_sym && a.hi_off <= b.hi_off) || b.hi_sym))
            x.has_hi = true, x.hi_sym = a.hi_sym, x.hi_off = a.hi_off;
        else if (b.has_hi)
            x.has_hi = true, x.hi_sym = b.hi_sym, x.hi_off = b.hi_off;
        return x;
    }
    default:
        return unknown();
    }
}

/* -1: unknown; 0/1: the comparison's value for every lane. */
static int decide(Masks *m, Instr *in)
{
    Range a = m->r[in->args[0]], b = m->r[in->args[1]];
    int bsym = base_value(m->k, in->args[1]);
    switch (in->op) {
    case OP_GE:   /* a >= b: b a constant below a's lower bound */
        return b.has_hi && !b.hi_sym && a.has_lo && a.lo >= b.hi_off ? 1 : -1;
    case OP_LT:   /* a < b */
        if (a.has_hi && !a.hi_sym && b.has_lo && a.hi_off < b.lo)
            return 1;
        if (a.has_hi && a.hi_sym && a.hi_sym == bsym && a.hi_off < 0)
            return 1;
        return -1;
    default:
        return -1;
    }
}

/* The scalar a splat (broadcast of a rank-0 value) or scalar v stands for, or 0. */
static int splat_of(const TirKernel *k, int v)
{
    Instr *d = tir_def(k, v);
    while (d && (d->op == OP_BROADCAST || d->op == OP_RESHAPE) && d->ty.rank > 0)
        d = tir_def(k, d->args[0]);
    return d && d->ty.rank == 0 ? d->id : 0;
}

/* (t + s) < z with scalars s, z becomes t < (z - s): the bound is computed
 * once, not per lane, and the test is a plain index-versus-limit compare the
 * C compiler can split loops on.  Only when neither form can wrap. */
static void hoist_bound(Masks *m, Instr *in)
{
    TirKernel *k = m->k;
    Instr *add = tir_def(k, in->args[0]);
    int z = splat_of(k, in->args[1]);
    if (!add || add->op != OP_ADD || !z || add->ty.rank == 0)
        return;
    for (int i = 0; i < 2; i++) {
        int s = splat_of(k, add->args[i]), t = add->args[1 - i];
        Range rs = m->r[s], rz = m->r[z], rt = m->r[t];
        if (!s || !rs.has_lo || rs.lo < 0 || !rz.has_lo || rz.lo < 0 ||
            !(rt.mag + rs.mag <= limit(add->ty.dt)) || !(dmax(rs.mag, rz.mag) <= limit(add->ty.dt)))
            continue;
        TTy st = {.dt = add->ty.dt};
        Instr *d = tir_new_before(k, in, OP_SUB, st);
        d->args[0] = z, d->args[1] = s;
        m->r[d->id] = unknown();
        Instr *b = tir_new_before(k, in, OP_BROADCAST, tir_def(k, t)->ty);
        b->args[0] = d->id;
        m->r[b->id] = unknown();
        in->args[0] = t;
        in->args[1] = b->id;
        return;
    }
}

static void visit(TirKernel *k, Instr *in, void *ctx)
{
    Masks *m = ctx;
    if (dtype_is_int(in->ty.dt) || in->op == OP_LOOPVAR) {
        Range x = compute(m, in);
        bool neg = x.has_lo ? x.lo < 0 : true;
        if (!(x.mag <= limit(in->ty.dt)) || (!dtype_info[in->ty.dt].is_signed && neg))
            x = unknown();   /* the arithmetic may have wrapped */
        m->r[in->id] = x;
    }
    if ((in->op != OP_GE && in->op != OP_LT) || !dtype_is_int(k->instrs.v[in->args[0]]->ty.dt))
        return;
    int v = decide(m, in);
    if (v < 0) {
        if (in->op == OP_LT)
            hoist_bound(m, in);
        return;
    }
    int line = 0, col = 0;
    span_linecol(in->span, &line, &col);
    tir_log("masks", "%s:%d:%d: %s: bound check '%s' always holds: dropped", in->span.src ? in->span.src->path : "?",
            line, col, k->name, in->op == OP_GE ? "index >= 0" : "index < dim");
    /* becomes a constant true; fold propagates it */
    if (in->ty.rank == 0) {
        in->op = OP_CONST;
        in->nargs = 0;
        in->args[0] = in->args[1] = 0;
        in->ival = 1;
    } else {
        in->op = OP_BROADCAST;
        in->nargs = 1;
        in->args[0] = m->true_const;
        in->args[1] = 0;
    }
}

/* require D % c == 0 (either side of ==, && chains) */
static void add_fact(Masks *m, int cond)
{
    Instr *in = tir_source(m->k, cond);
    if (!in)
        return;
    if (in->op == OP_AND && in->ty.dt == DT_BOOL) {
        add_fact(m, in->args[0]);
        add_fact(m, in->args[1]);
        return;
    }
    int64_t zero, c;
    if (in->op != OP_EQ)
        return;
    for (int i = 0; i < 2; i++) {
        Instr *mod = tir_source(m->k, in->args[i]);
        if (tir_splat_const(m->k, in->args[1 - i], &zero, NULL) && zero == 0 && mod && mod->op == OP_MOD &&
            tir_splat_const(m->k, mod->args[1], &c, NULL) && c > 0) {
            Instr *d = tir_source(m->k, mod->args[0]);
            while (d && d->op == OP_CAST)
                d = tir_source(m->k, d->args[0]);
            if (d) {
                Fact f = {d->id, c};
                vec_push(m->k->arena, m->facts, f);
            }
        }
    }
}

void lower_masks(TirKernel *k)
{
    Masks m = {.k = k};
    /* the one `true` proven checks become; placed first in the body */
    Instr *c = tir_new(k, k->body, OP_CONST, (TTy){.dt = DT_BOOL});
    c->ival = 1;
    k->body->ins.n--;
    m.true_const = c->id;
    m.r = arena_alloc(k->arena, sizeof(Range) * (size_t)(k->instrs.n * 3 + 8));   /* + new bounds */
    for (int i = 0; i < k->requires.n; i++)
        add_fact(&m, k->requires.v[i].cond);
    tir_walk(k, k->body, visit, &m);
    vec_push(k->arena, k->body->ins, 0);
    memmove(k->body->ins.v + 1, k->body->ins.v, sizeof(int) * (size_t)(k->body->ins.n - 1));
    k->body->ins.v[0] = c->id;
}
