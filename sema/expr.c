/*
 * sema/expr.c — types of expressions.
 *
 * Every expression gets a Type (dtype + symbolic shape) and, when it is a
 * compile-time integer, a Sym value (cval).  Shapes combine by broadcasting
 * with Syms compared by pointer (they are interned polynomials).  An operand
 * of error type makes the result an error type silently, so one mistake is
 * reported once.  Builtins are checked here, each with its shape rule.
 */
#include <string.h>

#include "check.h"

const char *const builtin_name[BI_COUNT] = {
#define X(e, s) s,
    TK_BUILTINS(X)
#undef X
};

/* ------------------------------------------------------------- types */

Type *ty_new(Ctx *c, TypeKind kind, DType dt, int rank, Sym **shape)
{
    Type *t = arena_alloc(c->a, sizeof *t);
    t->kind = kind;
    t->dt = dt;
    t->rank = rank;
    t->shape = arena_alloc(c->a, sizeof(Sym *) * (size_t)(rank ? rank : 1));
    if (shape)
        memcpy(t->shape, shape, sizeof(Sym *) * (size_t)rank);
    return t;
}

Type *ty_scalar(Ctx *c, DType dt) { return ty_new(c, TY_TILE, dt, 0, NULL); }
Type *ty_error(Ctx *c) { return ty_new(c, TY_ERROR, DT_F32, 0, NULL); }
Type *ty_void(Ctx *c) { return ty_new(c, TY_VOID, DT_F32, 0, NULL); }
bool ty_is_err(const Type *t) { return !t || t->kind == TY_ERROR; }

static Type *ty_weak(Ctx *c, DType dt)
{
    Type *t = ty_scalar(c, dt);
    t->weak = true;
    return t;
}

static Type *ty_with_dt(Ctx *c, const Type *t, DType dt)
{
    return ty_new(c, TY_TILE, dt, t->rank, t->shape);
}

bool shape_eq(const Type *a, const Type *b)
{
    if (a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

char *type_str(Arena *a, const Type *t)
{
    switch (t->kind) {
    case TY_ERROR: return "<error>";
    case TY_VOID: return "nothing";
    case TY_TENSOR: return arena_printf(a, "tensor of %s", dtype_info[t->dt].name);
    case TY_DTYPE: return arena_printf(a, "the type %s", dtype_info[t->dt].name);
    default: break;
    }
    Buf b = {.a = a};
    if (t->kind == TY_TILE)
        buf_puts(&b, dtype_info[t->dt].name);
    if (t->rank || t->kind == TY_LIST) {
        buf_putc(&b, '[');
        for (int i = 0; i < t->rank; i++)
            buf_printf(&b, "%s%s", i ? ", " : "", sym_str(a, t->shape[i]));
        buf_putc(&b, ']');
    }
    return b.s;
}

static const char *tstr(Ctx *c, const Type *t) { return type_str(c->a, t); }

static bool is_tile(const Type *t) { return t->kind == TY_TILE; }
static bool is_int_dt(DType d) { return dtype_is_int(d); }

/* Promotion of two operand dtypes (LANGUAGE.md, "Promotion"). */
static DType promote_typed(DType a, DType b)
{
    if (a == b)
        return a;
    if (dtype_is_float(a) || dtype_is_float(b)) {
        if (a == DT_F64 || b == DT_F64)
            return DT_F64;
        if (!dtype_is_float(a))
            return b;
        if (!dtype_is_float(b))
            return a;
        if (dtype_info[a].bits == 16 && dtype_info[b].bits == 16)
            return DT_F32;
        return dtype_info[a].bits > dtype_info[b].bits ? a : b;
    }
    if (a == DT_BOOL)
        return b;
    if (b == DT_BOOL)
        return a;
    if (dtype_info[a].bits != dtype_info[b].bits)
        return dtype_info[a].bits > dtype_info[b].bits ? a : b;
    return dtype_info[a].is_signed ? b : a;
}

static DType promote(const Type *a, const Type *b, bool *weak)
{
    *weak = a->weak && b->weak;
    if (a->weak && !b->weak)
        return dtype_is_float(a->dt) && !dtype_is_float(b->dt) ? DT_F32 : b->dt;
    if (b->weak && !a->weak)
        return dtype_is_float(b->dt) && !dtype_is_float(a->dt) ? DT_F32 : a->dt;
    return promote_typed(a->dt, b->dt);
}

DType sema_promote(const Type *a, const Type *b)
{
    bool weak;
    return promote(a, b, &weak);
}

/* Broadcast shapes from the right; a dim broadcasts only if it is literally 1. */
static bool broadcast_shape(Ctx *c, const Type *a, const Type *b, int *rank, Sym ***out, Sym **bad_a,
                            Sym **bad_b)
{
    int r = a->rank > b->rank ? a->rank : b->rank;
    Sym **s = arena_alloc(c->a, sizeof(Sym *) * (size_t)(r ? r : 1));
    Sym *one = sym_int(c->syms, 1);
    for (int i = 0; i < r; i++) {
        Sym *da = i < a->rank ? a->shape[a->rank - 1 - i] : one;
        Sym *db = i < b->rank ? b->shape[b->rank - 1 - i] : one;
        if (da == db || db == one)
            s[r - 1 - i] = da;
        else if (da == one)
            s[r - 1 - i] = db;
        else {
            *bad_a = da;
            *bad_b = db;
            return false;
        }
    }
    *rank = r;
    *out = s;
    return true;
}

/* The broadcast type of a and b (dtype dt), or an error at `at`. */
static Type *broadcast2(Ctx *c, const Type *a, const Type *b, DType dt, Span at, const char *what)
{
    int r;
    Sym **s, *da, *db;
    if (!broadcast_shape(c, a, b, &r, &s, &da, &db)) {
        diag_error(c->d, at, "shape mismatch in %s: %s and %s do not broadcast (%s vs %s)", what,
                   tstr(c, a), tstr(c, b), sym_str(c->a, da), sym_str(c->a, db));
        return ty_error(c);
    }
    return ty_new(c, TY_TILE, dt, r, s);
}

/* Can `from` broadcast to exactly `to`'s shape? */
static bool broadcasts_to(Ctx *c, const Type *from, const Type *to)
{
    int r;
    Sym **s, *da, *db;
    if (!broadcast_shape(c, from, to, &r, &s, &da, &db) || r != to->rank)
        return false;
    for (int i = 0; i < r; i++)
        if (s[i] != to->shape[i])
            return false;
    return true;
}

Type *convert_for_assign(Ctx *c, Type *to, Type *from, Span at, const char *what)
{
    if (ty_is_err(to) || ty_is_err(from))
        return ty_error(c);
    if (!is_tile(from)) {
        diag_error(c->d, at, "%s: expected a value, got %s", what, tstr(c, from));
        return ty_error(c);
    }
    if (!broadcasts_to(c, from, to)) {
        diag_error(c->d, at, "%s changes the shape: %s cannot become %s", what, tstr(c, from), tstr(c, to));
        return ty_error(c);
    }
    return to;
}

/* ---------------------------------------------------- const integers */

bool check_int_const(Ctx *c, Expr *e, const char *what, Sym **out)
{
    Type *t = check_expr(c, e);
    if (ty_is_err(t))
        return false;
    if (!is_tile(t) || t->rank || !is_int_dt(t->dt) || !e->cval) {
        diag_error(c->d, e->span, "%s must be a compile-time integer (a literal, a const parameter, "
                   "or arithmetic on them)", what);
        return false;
    }
    *out = e->cval;
    return true;
}

static bool check_axis(Ctx *c, Expr *e, int rank, int *axis)
{
    Sym *s;
    int64_t v;
    if (!check_int_const(c, e, "axis", &s))
        return false;
    if (!sym_is_int(s, &v) || v < -rank || v >= rank) {
        diag_error(c->d, e->span, "axis %s is out of range for a tile of rank %d", sym_str(c->a, s), rank);
        return false;
    }
    *axis = (int)(v < 0 ? v + rank : v);
    e->cval = sym_int(c->syms, *axis);
    return true;
}

bool check_scalar_cond(Ctx *c, Expr *e, const char *what)
{
    Type *t = check_expr(c, e);
    if (ty_is_err(t))
        return false;
    if (!is_tile(t) || t->rank || t->dt != DT_BOOL) {
        diag_error(c->d, e->span, "%s must be a scalar bool, got %s", what, tstr(c, t));
        return false;
    }
    return true;
}

/* --------------------------------------------------------- operators */

static Sym *fold_bin(Ctx *c, BinOp op, Sym *l, Sym *r) { return sym_binop(c->syms, op, l, r); }

static Type *check_binary(Ctx *c, Expr *e)
{
    BinOp op = e->u.binary.op;
    Type *l = check_expr(c, e->u.binary.l), *r = check_expr(c, e->u.binary.r);
    if (ty_is_err(l) || ty_is_err(r))
        return ty_error(c);
    if (!is_tile(l) || !is_tile(r)) {
        diag_error(c->d, e->span, "operator '%s' needs values, got %s and %s", binop_str[op], tstr(c, l),
                   tstr(c, r));
        return ty_error(c);
    }
    bool weak;
    DType dt = promote(l, r, &weak), res = dt;
    const char *bad = NULL;
    switch (op) {
    case B_ADD: case B_SUB: case B_MUL: case B_DIV:
        if (dt == DT_BOOL)
            bad = "numbers";
        break;
    case B_MOD:
        if (dt == DT_BOOL)
            bad = "numbers";
        break;
    case B_LT: case B_LE: case B_GT: case B_GE: case B_EQ: case B_NE:
        res = DT_BOOL;
        break;
    case B_LAND: case B_LOR:
        if (l->dt != DT_BOOL || r->dt != DT_BOOL)
            bad = "bool operands";
        break;
    case B_AND: case B_OR: case B_XOR:
        if (dtype_is_float(dt))
            bad = "integer or bool operands";
        break;
    case B_SHL: case B_SHR:
        if (!is_int_dt(dt))
            bad = "integer operands";
        break;
    default: break;
    }
    if (bad) {
        diag_error(c->d, e->span, "operator '%s' needs %s, got %s and %s", binop_str[op], bad, tstr(c, l),
                   tstr(c, r));
        return ty_error(c);
    }
    Type *t = broadcast2(c, l, r, res, e->span, arena_printf(c->a, "'%s'", binop_str[op]));
    if (ty_is_err(t))
        return t;
    t->weak = weak && op != B_LT && op != B_LE && op != B_GT && op != B_GE && op != B_EQ && op != B_NE;
    if (e->u.binary.l->cval && e->u.binary.r->cval && (is_int_dt(dt) || dt == DT_BOOL))
        e->cval = fold_bin(c, op, e->u.binary.l->cval, e->u.binary.r->cval);
    return t;
}

static Type *check_unary(Ctx *c, Expr *e)
{
    Type *x = check_expr(c, e->u.unary.x);
    if (ty_is_err(x))
        return x;
    UnOp op = e->u.unary.op;
    bool ok = is_tile(x) && (op == U_NEG ? x->dt != DT_BOOL : op == U_NOT ? x->dt == DT_BOOL
                                                                           : is_int_dt(x->dt));
    if (!ok) {
        diag_error(c->d, e->span, "operator '%s' needs %s, got %s", unop_str[op],
                   op == U_NEG ? "a number" : op == U_NOT ? "a bool" : "an integer", tstr(c, x));
        return ty_error(c);
    }
    Type *t = ty_with_dt(c, x, x->dt);
    t->weak = x->weak;
    Sym *v = e->u.unary.x->cval;
    if (v && op == U_NEG)
        e->cval = sym_sub(c->syms, sym_int(c->syms, 0), v);
    else if (v && op == U_NOT)
        e->cval = fold_bin(c, B_EQ, v, sym_int(c->syms, 0));
    return t;
}

/* ------------------------------------------------------------- names */

static int edit_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 32 || lb > 32)
        return 99;
    int d[33][33];
    for (int i = 0; i <= la; i++)
        d[i][0] = i;
    for (int j = 0; j <= lb; j++)
        d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

/* The visible name (or builtin, when `calls`) closest to a misspelt one. */
static const char *suggest(Ctx *c, const char *name, bool calls)
{
    const char *best = NULL;
    int bestd = (int)strlen(name) <= 3 ? 1 : 2;
    for (Scope *sc = c->scope; sc; sc = sc->up)
        for (int i = 0; i < sc->names.n; i++) {
            int dist = edit_distance(name, sc->names.v[i]->name);
            if (dist <= bestd && (sc->names.v[i]->kind == BIND_FN) == calls)
                best = sc->names.v[i]->name, bestd = dist - 1;
        }
    for (int i = 0; calls && i < BI_COUNT; i++) {
        int dist = edit_distance(name, builtin_name[i]);
        if (dist <= bestd)
            best = builtin_name[i], bestd = dist - 1;
    }
    return best;
}

static void undefined(Ctx *c, Span at, const char *what, const char *name, bool calls)
{
    const char *s = suggest(c, name, calls);
    if (s)
        diag_error(c->d, at, "undefined %s '%s'; did you mean '%s'?", what, name, s);
    else
        diag_error(c->d, at, "undefined %s '%s'", what, name);
}

/* A tensor named or indexed anywhere but where memory is accessed. */
static Type *tensor_outside(Ctx *c, Span at, const char *name)
{
    diag_error(c->d, at, "tensor '%s' can only be indexed inside load(...), store(...), atomic_add(...) or "
               "atomic_max(...)", name);
    return ty_error(c);
}

static Type *check_name(Ctx *c, Expr *e)
{
    Binding *b = scope_find(c, e->u.name.id);
    if (!b) {
        undefined(c, e->span, "name", e->u.name.id, false);
        return ty_error(c);
    }
    e->u.name.bind = b;
    if (b->kind == BIND_TENSOR)
        return tensor_outside(c, e->span, b->name);
    if (b->kind == BIND_FN) {
        diag_error(c->d, e->span, "function '%s' used as a value; call it", b->name);
        return ty_error(c);
    }
    e->cval = b->cval;
    return b->type;
}

/* ------------------------------------------------------ tensor gather */

static int tensor_index(Ctx *c, Expr *base, Span at)
{
    Binding *b = base->kind == EX_NAME ? scope_find(c, base->u.name.id) : NULL;
    if (!b || b->kind != BIND_TENSOR) {
        if (base->kind == EX_NAME && !b)
            undefined(c, base->span, "name", base->u.name.id, false);
        else
            diag_error(c->d, at, "expected a tensor element expression like x[i, j]");
        return -1;
    }
    base->u.name.bind = b;
    base->type = b->type;
    return b->index;
}

/* x[i0, i1, ...] inside load/store: the gathered shape. */
static Type *check_gather(Ctx *c, Expr *e, int *param)
{
    if (e->kind != EX_INDEX) {
        diag_error(c->d, e->span, "expected a tensor element expression like x[i, j]");
        check_expr(c, e);
        return ty_error(c);
    }
    int p = tensor_index(c, e->u.index.base, e->span);
    if (p < 0)
        return ty_error(c);
    ParamInfo *pi = &c->k->params[p];
    if (e->u.index.nidx != pi->rank) {
        diag_error(c->d, e->span, "tensor '%s' has %d dim%s but is indexed with %d", pi->name, pi->rank,
                   pi->rank == 1 ? "" : "s", e->u.index.nidx);
        return ty_error(c);
    }
    bool bad = false, all1d = true;
    Type **it = arena_alloc(c->a, sizeof(Type *) * (size_t)(pi->rank ? pi->rank : 1));
    for (int i = 0; i < e->u.index.nidx; i++) {
        Expr *ix = e->u.index.idx[i];
        if (ix->kind == EX_SLICE || ix->kind == EX_NONE) {
            diag_error(c->d, ix->span, "'%s' cannot index a tensor; index with arange(...) tiles",
                       ix->kind == EX_SLICE ? ":" : "None");
            bad = true;
            continue;
        }
        it[i] = check_expr(c, ix);
        if (ty_is_err(it[i])) {
            bad = true;
        } else if (!is_tile(it[i]) || !is_int_dt(it[i]->dt)) {
            diag_error(c->d, ix->span, "a tensor index must be an integer, got %s", tstr(c, it[i]));
            bad = true;
        } else if (it[i]->rank > 1) {
            all1d = false;
        }
    }
    if (bad)
        return ty_error(c);
    Type *g = ty_new(c, TY_TILE, pi->dt, 0, NULL);
    if (all1d) {
        Vec(Sym *) dims = {0};
        for (int i = 0; i < pi->rank; i++)
            if (it[i]->rank == 1)
                vec_push(c->a, dims, it[i]->shape[0]);
        g = ty_new(c, TY_TILE, pi->dt, dims.n, dims.v);
    } else {
        for (int i = 0; i < pi->rank && !ty_is_err(g); i++)
            g = broadcast2(c, g, it[i], pi->dt, e->span, "tensor indices");
    }
    if (g->rank > 4) {
        diag_error(c->d, e->span, "a tile has at most 4 dims; this index gathers %d", g->rank);
        return ty_error(c);
    }
    e->type = g;
    *param = p;
    return g;
}

/* ------------------------------------------------------------ builtins */

/* Match a call's arguments to parameter names: positional first, then by
 * keyword.  out[i] is NULL for an absent optional argument. */
static bool match_args(Ctx *c, Expr *call, const char *fname, const char *const *names, int nreq, int nmax,
                       Expr **out)
{
    for (int i = 0; i < nmax; i++)
        out[i] = NULL;
    int pos = 0;
    bool ok = true;
    for (int i = 0; i < call->u.call.nargs; i++) {
        Arg *a = &call->u.call.args[i];
        int slot = -1;
        if (!a->kw) {
            if (pos >= nmax) {
                diag_error(c->d, a->value->span, "too many arguments to %s (it takes %d)", fname, nmax);
                return false;
            }
            slot = pos++;
        } else {
            for (int j = 0; j < nmax; j++)
                if (strcmp(names[j], a->kw) == 0)
                    slot = j;
            if (slot < 0) {
                diag_error(c->d, a->kw_span, "unknown argument '%s' to %s", a->kw, fname);
                ok = false;
                continue;
            }
            if (out[slot]) {
                diag_error(c->d, a->kw_span, "argument '%s' of %s given twice", a->kw, fname);
                ok = false;
                continue;
            }
        }
        out[slot] = a->value;
    }
    for (int i = 0; i < nreq && ok; i++) {
        if (!out[i]) {
            diag_error(c->d, call->span, "%s needs argument '%s' (%d argument%s required)", fname, names[i],
                       nreq, nreq == 1 ? "" : "s");
            ok = false;
        }
    }
    return ok;
}

static int npositional(const Expr *call)
{
    int n = 0;
    for (int i = 0; i < call->u.call.nargs; i++)
        n += call->u.call.args[i].kw == NULL;
    return n;
}

static Type *need_tile(Ctx *c, Expr *e, const char *what)
{
    Type *t = check_expr(c, e);
    if (ty_is_err(t))
        return NULL;
    if (!is_tile(t)) {
        diag_error(c->d, e->span, "%s must be a value, got %s", what, tstr(c, t));
        return NULL;
    }
    return t;
}

static Type *check_list(Ctx *c, Expr *e, const char *what)
{
    if (e->kind != EX_LIST) {
        diag_error(c->d, e->span, "%s must be a list of compile-time sizes like [BM, BN]", what);
        check_expr(c, e);
        return NULL;
    }
    Type *t = check_expr(c, e);
    return ty_is_err(t) ? NULL : t;
}

static Type *shape_type(Ctx *c, DType dt, const Type *list)
{
    return ty_new(c, TY_TILE, dt, list->rank, list->shape);
}

static DType float_of(DType d) { return dtype_is_float(d) ? d : DT_F32; }

static Type *check_reduce(Ctx *c, Expr *e, Builtin bi, Expr **a)
{
    Type *x = need_tile(c, a[0], "the reduced value");
    if (!x)
        return ty_error(c);
    if (x->rank == 0) {
        diag_error(c->d, a[0]->span, "%s reduces a tile, got the scalar %s", builtin_name[bi], tstr(c, x));
        return ty_error(c);
    }
    DType dt = x->dt;
    if (bi == BI_ARGMAX || bi == BI_ARGMIN)
        dt = DT_I32;
    else if (bi == BI_SUM && (dt == DT_BOOL || (is_int_dt(dt) && dtype_info[dt].bits < 32)))
        dt = DT_I32;
    if (!a[1]) {
        if (bi == BI_CUMSUM || bi == BI_ARGMAX || bi == BI_ARGMIN) {
            if (x->rank != 1) {
                diag_error(c->d, e->span, "%s of a %d-D tile needs axis = ...", builtin_name[bi], x->rank);
                return ty_error(c);
            }
        } else {
            return ty_scalar(c, dt);
        }
    }
    int axis = 0;
    if (a[1] && !check_axis(c, a[1], x->rank, &axis))
        return ty_error(c);
    if (bi == BI_CUMSUM)
        return ty_with_dt(c, x, dt);
    Type *t = ty_new(c, TY_TILE, dt, x->rank - 1, NULL);
    for (int i = 0, j = 0; i < x->rank; i++)
        if (i != axis)
            t->shape[j++] = x->shape[i];
    return t;
}

/* dot(a, b[, c][, allow_tf32 = B]): B a compile-time bool (a literal, a
 * bool const parameter: lowering finds a CONST). */
static Type *check_dot(Ctx *c, Expr *e, Expr **a)
{
    Type *x = need_tile(c, a[0], "dot's first operand"), *y = need_tile(c, a[1], "dot's second operand");
    Type *acc = a[2] ? need_tile(c, a[2], "dot's accumulator") : NULL;
    if (!x || !y || (a[2] && !acc))
        return ty_error(c);
    if (a[3]) {
        Type *f = check_expr(c, a[3]);
        if (ty_is_err(f))
            return ty_error(c);
        bool known = a[3]->cval || (a[3]->kind == EX_NAME && a[3]->u.name.bind
                                    && a[3]->u.name.bind->kind == BIND_CONST);
        bool isbool = is_tile(f) && !f->rank && f->dt == DT_BOOL;
        if (!isbool || !known) {
            diag_error(c->d, a[3]->span, "allow_tf32 must be a compile-time bool (true, false or a "
                       "bool const parameter), got %s%s", isbool ? "a run-time " : "", tstr(c, f));
            return ty_error(c);
        }
    }
    if (x->rank != 2 || y->rank != 2) {
        diag_error(c->d, e->span, "dot needs 2-D tiles, got %s and %s", tstr(c, x), tstr(c, y));
        return ty_error(c);
    }
    if (x->shape[1] != y->shape[0]) {
        diag_error(c->d, e->span, "dot: inner dimensions differ (%s vs %s)", sym_str(c->a, x->shape[1]),
                   sym_str(c->a, y->shape[0]));
        diag_note(c->d, a[0]->span, "the first operand is %s", tstr(c, x));
        diag_note(c->d, a[1]->span, "the second operand is %s", tstr(c, y));
        if (x->shape[1] == y->shape[1])
            diag_note(c->d, a[1]->span, "did you mean dot(a, trans(b))?");
        else if (x->shape[0] == y->shape[0])
            diag_note(c->d, a[0]->span, "did you mean dot(trans(a), b)?");
        return ty_error(c);
    }
    bool fx = dtype_is_float(x->dt), fy = dtype_is_float(y->dt);
    if (fx != fy || x->dt == DT_BOOL || y->dt == DT_BOOL) {
        diag_error(c->d, e->span, "dot operands must both be floats or both integers, got %s and %s",
                   tstr(c, x), tstr(c, y));
        return ty_error(c);
    }
    DType dt = fx ? (x->dt == DT_F64 || y->dt == DT_F64 ? DT_F64 : DT_F32)
                  : (x->dt == DT_I64 || y->dt == DT_I64 ? DT_I64 : DT_I32);
    Sym *shape[2] = {x->shape[0], y->shape[1]};
    Type *t = ty_new(c, TY_TILE, dt, 2, shape);
    if (acc && !shape_eq(acc, t)) {
        diag_error(c->d, a[2]->span, "dot accumulator is %s but the product is %s", tstr(c, acc), tstr(c, t));
        return ty_error(c);
    }
    return t;
}

static Type *check_load_store(Ctx *c, Expr *e, Builtin bi, Expr **a)
{
    int p = -1;
    Type *g = check_gather(c, a[0], &p);
    Expr *mask = bi == BI_LOAD ? a[1] : a[2];
    bool st = bi != BI_LOAD;
    Type *v = st ? need_tile(c, a[1], bi == BI_STORE ? "the stored value" : "the value") : NULL;
    Type *m = mask ? need_tile(c, mask, "mask") : NULL;
    Type *o = bi == BI_LOAD && a[2] ? need_tile(c, a[2], "other") : NULL;
    if (ty_is_err(g) || (st && !v) || (mask && !m) || (bi == BI_LOAD && a[2] && !o))
        return ty_error(c);
    if (m && m->dt != DT_BOOL) {
        diag_error(c->d, mask->span, "mask must be bool, got %s", tstr(c, m));
        return ty_error(c);
    }
    if (m && !broadcasts_to(c, m, g)) {
        diag_error(c->d, mask->span, "mask %s does not broadcast to the indexed shape %s", tstr(c, m),
                   tstr(c, g));
        return ty_error(c);
    }
    if (o && !broadcasts_to(c, o, g)) {
        diag_error(c->d, a[2]->span, "other %s does not broadcast to the loaded shape %s", tstr(c, o),
                   tstr(c, g));
        return ty_error(c);
    }
    if (bi == BI_LOAD)
        return g;
    if (!broadcasts_to(c, v, g)) {
        diag_error(c->d, a[1]->span, "%s of the wrong shape: the value is %s but %s selects %s",
                   bi == BI_STORE ? "store" : builtin_name[bi], tstr(c, v), c->k->params[p].name, tstr(c, g));
        return ty_error(c);
    }
    /* atomics: the types the hardware (and C's __atomic builtins) update in place */
    if (bi != BI_STORE && g->dt != DT_I32 && g->dt != DT_U32 && g->dt != DT_I64 && g->dt != DT_F32
        && g->dt != DT_F64) {
        diag_error(c->d, a[0]->span, "%s on %s: atomics take i32, u32, i64, f32 or f64 tensors",
                   builtin_name[bi], tstr(c, g));
        return ty_error(c);
    }
    c->k->params[p].stored = true;
    /* atomic_add of one element may be used as a value: the old element
     * (lower.c makes that form acq_rel for the program) */
    if (bi == BI_ATOMIC_ADD && !g->rank)
        return ty_new(c, TY_TILE, g->dt, 0, NULL);
    return ty_void(c);
}

static Type *check_view(Ctx *c, Expr *e, Builtin bi, Expr **a)
{
    Type *x = need_tile(c, a[0], "the operand");
    if (!x)
        return ty_error(c);
    if (bi == BI_EXPAND_DIMS) {
        int axis;
        if (!check_axis(c, a[1], x->rank + 1, &axis))
            return ty_error(c);
        Type *t = ty_new(c, TY_TILE, x->dt, x->rank + 1, NULL);
        for (int i = 0, j = 0; i <= x->rank; i++)
            t->shape[i] = i == axis ? sym_int(c->syms, 1) : x->shape[j++];
        return t;
    }
    if (bi == BI_TRANS) {
        Type *t = ty_new(c, TY_TILE, x->dt, x->rank, NULL);
        if (!a[1]) {
            if (x->rank != 2) {
                diag_error(c->d, e->span, "trans(x) needs a 2-D tile (got %s); pass a permutation", tstr(c, x));
                return ty_error(c);
            }
            t->shape[0] = x->shape[1];
            t->shape[1] = x->shape[0];
            return t;
        }
        Type *perm = check_list(c, a[1], "the permutation");
        if (!perm)
            return ty_error(c);
        bool seen[8] = {0}, ok = perm->rank == x->rank;
        for (int i = 0; ok && i < perm->rank; i++) {
            int64_t v;
            ok = sym_is_int(perm->shape[i], &v) && v >= 0 && v < x->rank && !seen[v];
            if (ok) {
                seen[v] = true;
                t->shape[i] = x->shape[v];
            }
        }
        if (!ok) {
            diag_error(c->d, a[1]->span, "not a permutation of the %d dims of %s", x->rank, tstr(c, x));
            return ty_error(c);
        }
        return t;
    }
    Type *list = check_list(c, a[1], "the shape");
    if (!list)
        return ty_error(c);
    Type *t = shape_type(c, x->dt, list);
    if (bi == BI_BROADCAST && !broadcasts_to(c, x, t)) {
        diag_error(c->d, e->span, "cannot broadcast %s to %s", tstr(c, x), tstr(c, t));
        return ty_error(c);
    }
    if (bi == BI_RESHAPE) {
        Sym *n1 = sym_int(c->syms, 1), *n2 = n1;
        for (int i = 0; i < x->rank; i++)
            n1 = sym_mul(c->syms, n1, x->shape[i]);
        for (int i = 0; i < t->rank; i++)
            n2 = sym_mul(c->syms, n2, t->shape[i]);
        if (n1 != n2) {
            diag_error(c->d, e->span, "reshape changes the number of elements: %s has %s, %s has %s",
                       tstr(c, x), sym_str(c->a, n1), tstr(c, t), sym_str(c->a, n2));
            return ty_error(c);
        }
    }
    return t;
}

/* Elementwise builtins with promotion: where, min, max, pow, fma, cdiv. */
static Type *check_elementwise(Ctx *c, Expr *e, Builtin bi, Expr **a, int n)
{
    Type *t[3];
    for (int i = 0; i < n; i++)
        if (!(t[i] = need_tile(c, a[i], "an operand")))
            return ty_error(c);
    int first = bi == BI_WHERE ? 1 : 0;
    if (bi == BI_WHERE && t[0]->dt != DT_BOOL) {
        diag_error(c->d, a[0]->span, "where's condition must be bool, got %s", tstr(c, t[0]));
        return ty_error(c);
    }
    Type *acc = t[first];
    for (int i = first + 1; i < n; i++) {
        bool weak;
        DType dt = promote(acc, t[i], &weak);
        acc = broadcast2(c, acc, t[i], dt, e->span, builtin_name[bi]);
        if (ty_is_err(acc))
            return acc;
        acc->weak = weak;
    }
    if (bi == BI_WHERE) {
        bool weak = acc->weak;
        acc = broadcast2(c, t[0], acc, acc->dt, e->span, "where");
        if (ty_is_err(acc))
            return acc;
        acc->weak = weak;
    }
    if ((bi == BI_POW || bi == BI_FMA) && !dtype_is_float(acc->dt))
        acc = ty_with_dt(c, acc, DT_F32);
    if (bi == BI_CDIV && !is_int_dt(acc->dt)) {
        diag_error(c->d, e->span, "cdiv needs integers, got %s and %s", tstr(c, t[0]), tstr(c, t[1]));
        return ty_error(c);
    }
    if (acc->dt == DT_BOOL && bi != BI_WHERE) {
        diag_error(c->d, e->span, "%s needs numbers, not bool", builtin_name[bi]);
        return ty_error(c);
    }
    Sym *x = a[first]->cval, *y = n > first + 1 ? a[first + 1]->cval : NULL;
    if (x && y && is_int_dt(acc->dt))
        e->cval = bi == BI_CDIV ? sym_cdiv(c->syms, x, y) : bi == BI_MIN ? sym_min(c->syms, x, y)
                  : bi == BI_MAX ? sym_max(c->syms, x, y) : NULL;
    return acc;
}

static Type *check_fill(Ctx *c, Expr *e, Builtin bi, Expr **a)
{
    if (bi == BI_ZEROS) {
        /* zeros(dt, [shape]) or zeros([shape], dt) */
        Expr *dte = a[0], *shp = a[1];
        if (dte->kind == EX_LIST) {
            dte = a[1];
            shp = a[0];
        }
        Type *dt = check_expr(c, dte), *list = check_list(c, shp, "zeros' shape");
        if (ty_is_err(dt) || !list)
            return ty_error(c);
        if (dt->kind != TY_DTYPE) {
            diag_error(c->d, dte->span, "zeros needs an element type like f32, got %s", tstr(c, dt));
            return ty_error(c);
        }
        return shape_type(c, dt->dt, list);
    }
    Type *list = check_list(c, a[0], "full's shape"), *v = need_tile(c, a[1], "full's value");
    Type *dt = a[2] ? check_expr(c, a[2]) : NULL;
    if (!list || !v || (dt && ty_is_err(dt)))
        return ty_error(c);
    if (v->rank) {
        diag_error(c->d, a[1]->span, "full's value must be a scalar, got %s", tstr(c, v));
        return ty_error(c);
    }
    if (dt && dt->kind != TY_DTYPE) {
        diag_error(c->d, a[2]->span, "full's third argument must be an element type, got %s", tstr(c, dt));
        return ty_error(c);
    }
    return shape_type(c, dt ? dt->dt : v->dt, list);
}

static Type *check_builtin(Ctx *c, Expr *e, Builtin bi)
{
    static const char *const x1[] = {"x"}, *const ld[] = {"x", "mask", "other"},
                             *const st[] = {"x", "value", "mask"}, *const red[] = {"x", "axis"},
                             *const ab[] = {"a", "b", "c"}, *const wh[] = {"cond", "a", "b"},
                             *const dt[] = {"a", "b", "c", "allow_tf32"},
                             *const rng[] = {"start", "end"}, *const fl[] = {"shape", "value", "dtype"},
                             *const zs[] = {"dtype", "shape"}, *const vw[] = {"x", "shape"},
                             *const ax[] = {"axis"}, *const ex[] = {"x", "axis"}, *const tr[] = {"x", "perm"};
    const char *fname = builtin_name[bi];
    Expr *a[4];
    if ((bi == BI_MIN || bi == BI_MAX) && npositional(e) == 1)
        bi = bi == BI_MIN ? BI_MIN_R : BI_MAX_R;
    e->u.call.builtin = (int)bi;
    bool header_ok = bi == BI_CDIV || bi == BI_MIN || bi == BI_MAX;
    if (c->in_header && !header_ok) {
        diag_error(c->d, e->span, "%s cannot be used in grid(...) or require", fname);
        return ty_error(c);
    }
    switch (bi) {
    case BI_PROGRAM_ID:
    case BI_NUM_PROGRAMS: {
        int axis;
        if (!match_args(c, e, fname, ax, 1, 1, a) || !check_axis(c, a[0], 3, &axis))
            return ty_error(c);
        if (axis >= c->k->decl->ngrid && c->k->decl->ngrid > 0) {
            diag_error(c->d, a[0]->span, "%s(%d): the grid has %d dim%s", fname, axis, c->k->decl->ngrid,
                       c->k->decl->ngrid == 1 ? "" : "s");
            return ty_error(c);
        }
        return ty_scalar(c, DT_I64);   /* i64: index arithmetic on it cannot wrap */
    }
    case BI_ARANGE: {
        Sym *lo, *hi;
        if (!match_args(c, e, fname, rng, 1, 2, a) || !check_int_const(c, a[0], "arange's size", &lo) ||
            (a[1] && !check_int_const(c, a[1], "arange's end", &hi)))
            return ty_error(c);
        Sym *n = a[1] ? sym_sub(c->syms, hi, lo) : lo;
        int64_t v;
        if (sym_is_int(n, &v) && v <= 0) {
            diag_error(c->d, e->span, "arange of %lld elements: a tile needs at least one", (long long)v);
            return ty_error(c);
        }
        return ty_new(c, TY_TILE, DT_I32, 1, &n);
    }
    case BI_ZEROS:
        return match_args(c, e, fname, zs, 2, 2, a) ? check_fill(c, e, bi, a) : ty_error(c);
    case BI_FULL:
        return match_args(c, e, fname, fl, 2, 3, a) ? check_fill(c, e, bi, a) : ty_error(c);
    case BI_LOAD:
        return match_args(c, e, fname, ld, 1, 3, a) ? check_load_store(c, e, bi, a) : ty_error(c);
    case BI_STORE: case BI_ATOMIC_ADD: case BI_ATOMIC_MAX:
        return match_args(c, e, fname, st, 2, 3, a) ? check_load_store(c, e, bi, a) : ty_error(c);
    case BI_WHERE:
        return match_args(c, e, fname, wh, 3, 3, a) ? check_elementwise(c, e, bi, a, 3) : ty_error(c);
    case BI_FMA:
        return match_args(c, e, fname, ab, 3, 3, a) ? check_elementwise(c, e, bi, a, 3) : ty_error(c);
    case BI_CDIV: case BI_MIN: case BI_MAX: case BI_POW:
        return match_args(c, e, fname, ab, 2, 2, a) ? check_elementwise(c, e, bi, a, 2) : ty_error(c);
    case BI_DOT:
        return match_args(c, e, fname, dt, 2, 4, a) ? check_dot(c, e, a) : ty_error(c);
    case BI_TRANS:
        return match_args(c, e, fname, tr, 1, 2, a) ? check_view(c, e, bi, a) : ty_error(c);
    case BI_RESHAPE: case BI_BROADCAST:
        return match_args(c, e, fname, vw, 2, 2, a) ? check_view(c, e, bi, a) : ty_error(c);
    case BI_EXPAND_DIMS:
        return match_args(c, e, fname, ex, 2, 2, a) ? check_view(c, e, bi, a) : ty_error(c);
    case BI_SUM: case BI_ARGMAX: case BI_ARGMIN: case BI_CUMSUM: case BI_MAX_R: case BI_MIN_R:
        return match_args(c, e, fname, red, 1, 2, a) ? check_reduce(c, e, bi, a) : ty_error(c);
    default: {   /* unary math */
        if (!match_args(c, e, fname, x1, 1, 1, a))
            return ty_error(c);
        Type *x = need_tile(c, a[0], "the operand");
        if (!x)
            return ty_error(c);
        if (x->dt == DT_BOOL) {
            diag_error(c->d, a[0]->span, "%s needs a number, got %s", fname, tstr(c, x));
            return ty_error(c);
        }
        Type *t = ty_with_dt(c, x, bi == BI_ABS ? x->dt : float_of(x->dt));
        t->weak = x->weak;
        return t;
    }
    }
}

static int builtin_lookup(const char *name)
{
    for (int i = 0; i < BI_COUNT; i++)
        if (strcmp(builtin_name[i], name) == 0)
            return i;
    return -1;
}

static Type *check_call(Ctx *c, Expr *e, bool unchecked)
{
    Expr *f = e->u.call.fn;
    e->u.call.builtin = -1;
    if (f->kind != EX_NAME) {
        diag_error(c->d, f->span, "only named functions can be called");
        return ty_error(c);
    }
    Binding *b = scope_find(c, f->u.name.id);
    if (b && b->kind != BIND_FN) {
        diag_error(c->d, f->span, "'%s' is not a function", f->u.name.id);
        if (builtin_lookup(f->u.name.id) >= 0)
            diag_note(c->d, b->span, "this '%s' hides the builtin %s(...); rename it", f->u.name.id, f->u.name.id);
        return ty_error(c);
    }
    if (!b) {
        int bi = builtin_lookup(f->u.name.id);
        if (bi < 0) {
            undefined(c, f->span, "function", f->u.name.id, true);
            for (int i = 0; i < e->u.call.nargs; i++)
                check_expr(c, e->u.call.args[i].value);
            return ty_error(c);
        }
        if (unchecked && bi != BI_LOAD && bi != BI_STORE) {
            diag_error(c->d, e->span, "'unchecked' applies to load(...) and store(...) only");
            return ty_error(c);
        }
        return check_builtin(c, e, (Builtin)bi);
    }
    if (unchecked) {
        diag_error(c->d, e->span, "'unchecked' applies to load(...) and store(...) only");
        return ty_error(c);
    }
    if (c->in_header) {
        diag_error(c->d, e->span, "functions cannot be called in grid(...) or require");
        return ty_error(c);
    }
    f->u.name.bind = b;
    FnDecl *fn = b->fn;
    int n = e->u.call.nargs;
    Type **args = arena_alloc(c->a, sizeof(Type *) * (size_t)(n ? n : 1));
    Sym **cvals = arena_alloc(c->a, sizeof(Sym *) * (size_t)(n ? n : 1));
    bool bad = false;
    for (int i = 0; i < n; i++) {
        Arg *a = &e->u.call.args[i];
        if (a->kw) {
            diag_error(c->d, a->kw_span, "functions take positional arguments only");
            bad = true;
        }
        Binding *tb = a->value->kind == EX_NAME ? scope_find(c, a->value->u.name.id) : NULL;
        if (tb && tb->kind == BIND_TENSOR) {
            /* a tensor passed to a fn: the parameter aliases it.  The
             * instantiation key tells tensors apart by parameter index. */
            a->value->u.name.bind = tb;
            a->value->type = args[i] = tb->type;
            cvals[i] = sym_int(c->syms, tb->index);
            continue;
        }
        args[i] = check_expr(c, a->value);
        cvals[i] = a->value->cval;
        bad |= ty_is_err(args[i]);
    }
    if (n != fn->nparams) {
        diag_error(c->d, e->span, "%s takes %d argument%s, got %d", fn->name, fn->nparams,
                   fn->nparams == 1 ? "" : "s", n);
        return ty_error(c);
    }
    if (bad)
        return ty_error(c);
    FnInst *inst = instantiate(c, fn, e, args, cvals, n);
    if (!inst)
        return ty_error(c);
    e->u.call.inst = inst;
    if (inst->ret_expr)
        e->cval = inst->ret_expr->cval;
    return inst->ret;
}

/* ---------------------------------------------------------- the rest */

static Type *check_tile_index(Ctx *c, Expr *e)
{
    Expr *base = e->u.index.base;
    if (base->kind == EX_NAME) {
        Binding *b = scope_find(c, base->u.name.id);
        if (b && b->kind == BIND_TENSOR)
            return tensor_outside(c, e->span, b->name);
    }
    Type *x = need_tile(c, base, "the indexed value");
    if (!x)
        return ty_error(c);
    int nslice = 0;
    for (int i = 0; i < e->u.index.nidx; i++) {
        Expr *ix = e->u.index.idx[i];
        if (ix->kind == EX_SLICE) {
            nslice++;
        } else if (ix->kind != EX_NONE) {
            diag_error(c->d, ix->span, "a tile can only be indexed with ':' and None (to add a dim)");
            return ty_error(c);
        }
    }
    if (nslice != x->rank) {
        diag_error(c->d, e->span, "%s has %d dim%s but the index has %d ':'", tstr(c, x), x->rank,
                   x->rank == 1 ? "" : "s", nslice);
        return ty_error(c);
    }
    Type *t = ty_new(c, TY_TILE, x->dt, e->u.index.nidx, NULL);
    for (int i = 0, j = 0; i < e->u.index.nidx; i++)
        t->shape[i] = e->u.index.idx[i]->kind == EX_SLICE ? x->shape[j++] : sym_int(c->syms, 1);
    t->weak = x->weak;
    if (t->rank > 4) {
        diag_error(c->d, e->span, "a tile has at most 4 dims");
        return ty_error(c);
    }
    return t;
}

static Type *check_expr_kind(Ctx *c, Expr *e)
{
    switch (e->kind) {
    case EX_INT:
        e->cval = sym_int(c->syms, e->u.ival);
        return ty_weak(c, e->u.ival > INT32_MAX || e->u.ival < INT32_MIN ? DT_I64 : DT_I32);
    case EX_FLOAT:
        return ty_weak(c, DT_F32);
    case EX_BOOL:
        e->cval = sym_int(c->syms, e->u.bval);
        return ty_scalar(c, DT_BOOL);
    case EX_NAME:
        return check_name(c, e);
    case EX_DTYPE:
        return ty_new(c, TY_DTYPE, e->u.dtype, 0, NULL);
    case EX_UNARY:
        return check_unary(c, e);
    case EX_BINARY:
        return check_binary(c, e);
    case EX_CAST: {
        Type *x = need_tile(c, e->u.cast.x, "the cast operand");
        if (!x)
            return ty_error(c);
        if (e->u.cast.to_name) {   /* x as DT, DT a name bound to an element type */
            Binding *b = scope_find(c, e->u.cast.to_name);
            if (!b) {
                undefined(c, e->u.cast.to_span, "name", e->u.cast.to_name, false);
                return ty_error(c);
            }
            if (!b->type || b->type->kind != TY_DTYPE) {
                diag_error(c->d, e->u.cast.to_span,
                           "'as %s': '%s' is not an element type (a fn parameter passed f16, bf16, ...)",
                           e->u.cast.to_name, e->u.cast.to_name);
                return ty_error(c);
            }
            e->u.cast.to = b->type->dt;
        }
        if (e->u.cast.x->cval && (is_int_dt(e->u.cast.to) || e->u.cast.to == DT_BOOL) &&
            (is_int_dt(x->dt) || x->dt == DT_BOOL))
            e->cval = e->u.cast.x->cval;
        return ty_with_dt(c, x, e->u.cast.to);
    }
    case EX_CALL:
        return check_call(c, e, false);
    case EX_UNCHECKED:
        if (e->u.unchecked.x->kind != EX_CALL) {
            diag_error(c->d, e->span, "'unchecked' applies to load(...) and store(...) only");
            return ty_error(c);
        }
        e->u.unchecked.x->type = check_call(c, e->u.unchecked.x, true);
        return e->u.unchecked.x->type;
    case EX_INDEX:
        return check_tile_index(c, e);
    case EX_LIST: {
        Type *t = ty_new(c, TY_LIST, DT_I32, e->u.list.n, NULL);
        for (int i = 0; i < e->u.list.n; i++)
            if (!check_int_const(c, e->u.list.elts[i], "a size in a shape list", &t->shape[i]))
                return ty_error(c);
        return t;
    }
    case EX_SLICE:
    case EX_NONE:
        diag_error(c->d, e->span, "'%s' is only valid inside an index", e->kind == EX_SLICE ? ":" : "None");
        return ty_error(c);
    }
    return ty_error(c);
}

Type *check_expr(Ctx *c, Expr *e)
{
    e->cval = NULL;
    e->type = check_expr_kind(c, e);
    return e->type;
}
