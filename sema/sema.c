/*
 * sema/sema.c — declarations, statements and functions.
 *
 * sema_check makes one pass per kernel: it describes the kernel's interface
 * (const params with their -D or default values, run-time dims in order of
 * first appearance, tensor and scalar params) in a KernelInfo, then checks
 * grid, requires and body in scopes chained to a global scope of functions.
 * A call to a `fn` instantiates a private copy of its body for the
 * argument types (memoized per kernel), which is how functions are generic
 * over shapes and how lowering later inlines them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ------------------------------------------------------------- scopes */

void scope_push(Ctx *c)
{
    Scope *s = arena_alloc(c->a, sizeof *s);
    s->up = c->scope;
    c->scope = s;
}

void scope_pop(Ctx *c) { c->scope = c->scope->up; }

/* A scope's names are hashed (FNV-1a) so that a kernel of 10^5 lets checks
 * in linear time; a scope holds each name once (bind_declare). */
static Binding **scope_slot(const Scope *s, const char *name)
{
    unsigned h = 2166136261u, m = (unsigned)s->tabcap - 1;
    for (const char *p = name; *p; p++)
        h = (h ^ (unsigned char)*p) * 16777619u;
    for (unsigned i = h & m;; i = (i + 1) & m)
        if (!s->tab[i] || strcmp(s->tab[i]->name, name) == 0)
            return &s->tab[i];
}

static void scope_add(Ctx *c, Scope *s, Binding *b)
{
    vec_push(c->a, s->names, b);
    if (2 * s->names.n <= s->tabcap) {
        *scope_slot(s, b->name) = b;
        return;
    }
    s->tabcap = s->tabcap ? 2 * s->tabcap : 16;
    s->tab = arena_alloc(c->a, sizeof *s->tab * (size_t)s->tabcap);
    for (int i = 0; i < s->names.n; i++)
        *scope_slot(s, s->names.v[i]->name) = s->names.v[i];
}

static Binding *scope_lookup(Scope *s, const char *name, bool here_only)
{
    for (; s; s = here_only ? NULL : s->up) {
        Binding *b = s->tabcap ? *scope_slot(s, name) : NULL;
        if (b)
            return b;
    }
    return NULL;
}

Binding *scope_find(Ctx *c, const char *name) { return scope_lookup(c->scope, name, false); }

Binding *bind_new(Ctx *c, BindKind kind, const char *name, Span span, Type *t)
{
    Binding *b = arena_alloc(c->a, sizeof *b);
    b->kind = kind;
    b->name = name;
    b->span = span;
    b->type = t;
    return b;
}

bool bind_declare(Ctx *c, Binding *b)
{
    Binding *old = scope_lookup(c->scope, b->name, true);
    if (old) {
        diag_error(c->d, b->span, "duplicate definition of '%s'", b->name);
        if (old->span.src)
            diag_note(c->d, old->span, "'%s' was defined here", b->name);
        return false;
    }
    scope_add(c, c->scope, b);
    return true;
}

/* ------------------------------------------------------------- cloning */

static Expr *clone_expr(Arena *a, const Expr *e);
static Block *clone_block(Arena *a, const Block *b);

static Expr **clone_exprs(Arena *a, Expr *const *v, int n)
{
    Expr **r = arena_alloc(a, sizeof(Expr *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        r[i] = clone_expr(a, v[i]);
    return r;
}

static Expr *clone_expr(Arena *a, const Expr *e)
{
    if (!e)
        return NULL;
    Expr *r = arena_alloc(a, sizeof *r);
    *r = *e;
    r->type = NULL;
    r->cval = NULL;
    switch (e->kind) {
    case EX_NAME: r->u.name.bind = NULL; break;
    case EX_UNARY: r->u.unary.x = clone_expr(a, e->u.unary.x); break;
    case EX_BINARY:
        r->u.binary.l = clone_expr(a, e->u.binary.l);
        r->u.binary.r = clone_expr(a, e->u.binary.r);
        break;
    case EX_CAST: r->u.cast.x = clone_expr(a, e->u.cast.x); break;
    case EX_CALL:
        r->u.call.fn = clone_expr(a, e->u.call.fn);
        r->u.call.args = arena_alloc(a, sizeof(Arg) * (size_t)(e->u.call.nargs ? e->u.call.nargs : 1));
        for (int i = 0; i < e->u.call.nargs; i++) {
            r->u.call.args[i] = e->u.call.args[i];
            r->u.call.args[i].value = clone_expr(a, e->u.call.args[i].value);
        }
        r->u.call.builtin = -1;
        r->u.call.inst = NULL;
        break;
    case EX_INDEX:
        r->u.index.base = clone_expr(a, e->u.index.base);
        r->u.index.idx = clone_exprs(a, e->u.index.idx, e->u.index.nidx);
        break;
    case EX_LIST: r->u.list.elts = clone_exprs(a, e->u.list.elts, e->u.list.n); break;
    case EX_UNCHECKED: r->u.unchecked.x = clone_expr(a, e->u.unchecked.x); break;
    default: break;
    }
    return r;
}

static Stmt *clone_stmt(Arena *a, const Stmt *s)
{
    Stmt *r = arena_alloc(a, sizeof *r);
    *r = *s;
    switch (s->kind) {
    case ST_LET: case ST_VAR:
        r->u.let.init = clone_expr(a, s->u.let.init);
        r->u.let.bind = NULL;
        break;
    case ST_ASSIGN:
        r->u.assign.target = clone_expr(a, s->u.assign.target);
        r->u.assign.value = clone_expr(a, s->u.assign.value);
        break;
    case ST_EXPR: case ST_RETURN: r->u.expr = clone_expr(a, s->u.expr); break;
    case ST_FOR: case ST_STATIC_FOR:
        r->u.for_.start = clone_expr(a, s->u.for_.start);
        r->u.for_.end = clone_expr(a, s->u.for_.end);
        r->u.for_.step = clone_expr(a, s->u.for_.step);
        r->u.for_.body = clone_block(a, s->u.for_.body);
        r->u.for_.bind = NULL;
        break;
    case ST_IF:
        r->u.if_.cond = clone_expr(a, s->u.if_.cond);
        r->u.if_.then = clone_block(a, s->u.if_.then);
        r->u.if_.else_ = s->u.if_.else_ ? clone_block(a, s->u.if_.else_) : NULL;
        break;
    case ST_WHILE:
        r->u.while_.cond = clone_expr(a, s->u.while_.cond);
        r->u.while_.body = clone_block(a, s->u.while_.body);
        break;
    case ST_BLOCK: r->u.block = clone_block(a, s->u.block); break;
    case ST_STATIC_ASSERT: r->u.sassert.cond = clone_expr(a, s->u.sassert.cond); break;
    case ST_PRINT: r->u.print.value = s->u.print.value ? clone_expr(a, s->u.print.value) : NULL; break;
    default: break;
    }
    return r;
}

static Block *clone_block(Arena *a, const Block *b)
{
    Block *r = arena_alloc(a, sizeof *r);
    *r = *b;
    r->stmts = arena_alloc(a, sizeof(Stmt *) * (size_t)(b->n ? b->n : 1));
    for (int i = 0; i < b->n; i++)
        r->stmts[i] = clone_stmt(a, b->stmts[i]);
    return r;
}

/* --------------------------------------------------------- statements */

static void check_block(Ctx *c, Block *b);

/* The declared type of a let/var annotation applied to an initializer. */
static Type *annotate(Ctx *c, TypeExpr *te, Type *t)
{
    if (!te || ty_is_err(t))
        return t;
    if (te->kind != TE_DTYPE) {
        diag_error(c->d, te->span, "a let/var annotation is an element type such as f32");
        return ty_error(c);
    }
    return ty_new(c, TY_TILE, te->dt, t->rank, t->shape);
}

static void check_let(Ctx *c, Stmt *s)
{
    Type *t = check_expr(c, s->u.let.init);
    if (!ty_is_err(t) && t->kind != TY_TILE) {
        diag_error(c->d, s->u.let.init->span, "cannot bind %s to '%s'", type_str(c->a, t), s->u.let.name);
        t = ty_error(c);
    }
    t = annotate(c, s->u.let.ty, t);
    if (!ty_is_err(t) && t->weak) {
        t = ty_new(c, TY_TILE, t->dt, t->rank, t->shape);   /* a named value is typed */
        if (s->kind == ST_LET && s->u.let.init->cval)
            t->weak = true;                                     /* ...unless it is a constant */
    }
    Binding *b = bind_new(c, s->kind == ST_LET ? BIND_LET : BIND_VAR, s->u.let.name, s->u.let.name_span, t);
    if (s->kind == ST_LET && !ty_is_err(t) && (dtype_is_int(t->dt) || t->dt == DT_BOOL))
        b->cval = s->u.let.init->cval;
    s->u.let.bind = b;
    bind_declare(c, b);
}

static void check_assign(Ctx *c, Stmt *s)
{
    Expr *tgt = s->u.assign.target;
    Type *v = check_expr(c, s->u.assign.value);
    if (tgt->kind != EX_NAME) {
        diag_error(c->d, tgt->span, "only a var can be assigned to");
        return;
    }
    Binding *b = scope_find(c, tgt->u.name.id);
    if (!b) {
        diag_error(c->d, tgt->span, "undefined name '%s'", tgt->u.name.id);
        return;
    }
    tgt->u.name.bind = b;
    tgt->type = b->type;
    if (b->kind != BIND_VAR) {
        diag_error(c->d, tgt->span, "cannot assign to '%s': it is not a var", b->name);
        if (b->span.src)
            diag_note(c->d, b->span, "'%s' is defined here; declare it with 'var' to assign to it", b->name);
        return;
    }
    if (ty_is_err(v) || ty_is_err(b->type))
        return;
    if (s->u.assign.op >= 0 && v->kind == TY_TILE && (v->dt == DT_BOOL || b->type->dt == DT_BOOL)) {
        diag_error(c->d, s->span, "'%s=' needs numbers", binop_str[s->u.assign.op]);
        return;
    }
    convert_for_assign(c, b->type, v, s->u.assign.value->span,
                       arena_printf(c->a, "assignment to '%s'", b->name));
}

static void check_for(Ctx *c, Stmt *s)
{
    bool is_static = s->kind == ST_STATIC_FOR;
    Expr *ends[3] = {s->u.for_.start, s->u.for_.end, s->u.for_.step};
    DType dt = DT_I32;
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        if (!ends[i])
            continue;
        Sym *cv;
        if (is_static) {
            ok &= check_int_const(c, ends[i], "a static_for bound", &cv);
            continue;
        }
        Type *t = check_expr(c, ends[i]);
        if (ty_is_err(t)) {
            ok = false;
        } else if (t->kind != TY_TILE || t->rank || !dtype_is_int(t->dt)) {
            diag_error(c->d, ends[i]->span, "a range bound must be a scalar integer, got %s", type_str(c->a, t));
            ok = false;
        } else if (!t->weak && dtype_info[t->dt].bits > dtype_info[dt].bits) {
            dt = t->dt;
        }
    }
    int64_t step;
    if (ok && s->u.for_.step && s->u.for_.step->cval && sym_is_int(s->u.for_.step->cval, &step) && step <= 0) {
        diag_error(c->d, s->u.for_.step->span, "a range step must be positive, got %lld", (long long)step);
        ok = false;
    }
    scope_push(c);
    Binding *b = bind_new(c, BIND_LOOP, s->u.for_.var, s->u.for_.var_span, ok ? ty_scalar(c, dt) : ty_error(c));
    b->is_static = is_static;
    s->u.for_.bind = b;
    bind_declare(c, b);
    c->loop_depth += !is_static;
    int saved = c->loop_depth;
    if (is_static)
        c->loop_depth = 0;   /* break/continue cannot leave an unrolled loop */
    check_block(c, s->u.for_.body);
    c->loop_depth = saved - !is_static;
    scope_pop(c);
}

static void check_stmt(Ctx *c, Stmt *s, bool last)
{
    switch (s->kind) {
    case ST_LET:
    case ST_VAR:
        check_let(c, s);
        return;
    case ST_ASSIGN:
        check_assign(c, s);
        return;
    case ST_EXPR: {
        Type *t = check_expr(c, s->u.expr);
        Expr *e = s->u.expr->kind == EX_UNCHECKED ? s->u.expr->u.unchecked.x : s->u.expr;
        if (!ty_is_err(t) && e->kind != EX_CALL)
            diag_warning(c->d, s->span, "this expression's value is unused");
        return;
    }
    case ST_FOR:
    case ST_STATIC_FOR:
        check_for(c, s);
        return;
    case ST_IF:
        check_scalar_cond(c, s->u.if_.cond, "an if condition");
        check_block(c, s->u.if_.then);
        if (s->u.if_.else_)
            check_block(c, s->u.if_.else_);
        return;
    case ST_WHILE:
        check_scalar_cond(c, s->u.while_.cond, "a while condition");
        c->loop_depth++;
        check_block(c, s->u.while_.body);
        c->loop_depth--;
        return;
    case ST_RETURN:
        if (!c->fn) {
            diag_error(c->d, s->span, "return is only allowed in a fn; kernels store their results");
        } else if (!last) {
            diag_error(c->d, s->span, "return must be the last statement of a fn's body");
        } else if (s->u.expr) {
            Type *t = check_expr(c, s->u.expr);
            if (!ty_is_err(t) && t->kind != TY_TILE)
                diag_error(c->d, s->u.expr->span, "a fn returns a value, not %s", type_str(c->a, t));
            c->fn->ret = t;
            c->fn->ret_expr = s->u.expr;
        }
        return;
    case ST_BLOCK:
        check_block(c, s->u.block);
        return;
    case ST_STATIC_ASSERT: {
        Type *t = check_expr(c, s->u.sassert.cond);
        int64_t v;
        if (ty_is_err(t))
            return;
        if (t->kind != TY_TILE || t->rank || !s->u.sassert.cond->cval) {
            diag_error(c->d, s->u.sassert.cond->span,
                       "static_assert needs a compile-time condition (over literals and const parameters)");
        } else if (sym_is_int(s->u.sassert.cond->cval, &v) && !v) {
            diag_error(c->d, s->span, "static assertion failed%s%s", s->u.sassert.msg ? ": " : "",
                       s->u.sassert.msg ? s->u.sassert.msg : "");
        }
        return;
    }
    case ST_PRINT:
        if (s->u.print.value) {
            Type *t = check_expr(c, s->u.print.value);
            if (!ty_is_err(t) && t->kind != TY_TILE)
                diag_error(c->d, s->u.print.value->span, "print needs a value (a tile or a scalar), got %s",
                           type_str(c->a, t));
        }
        return;
    case ST_BREAK:
    case ST_CONTINUE:
        if (c->loop_depth == 0)
            diag_error(c->d, s->span, "%s outside a loop (or inside static_for)",
                       s->kind == ST_BREAK ? "break" : "continue");
        return;
    }
}

static void check_block(Ctx *c, Block *b)
{
    scope_push(c);
    for (int i = 0; i < b->n; i++)
        check_stmt(c, b->stmts[i], i == b->n - 1);
    scope_pop(c);
}

/* ---------------------------------------------------------- functions */

static bool key_match(const InstKey *k, FnDecl *fn, Type **args, Sym **cvals, int n)
{
    if (k->fn != fn || k->n != n)
        return false;
    for (int i = 0; i < n; i++) {
        const Type *x = k->args[i], *y = args[i];
        if (x->kind != y->kind || x->dt != y->dt || x->weak != y->weak || !shape_eq(x, y) ||
            k->cvals[i] != cvals[i])
            return false;
    }
    return true;
}

static Type *param_type(Ctx *c, Param *p, Type *arg, Expr *argx)
{
    if (!p->ty)
        return arg;
    switch (p->ty->kind) {
    case TE_DTYPE:
        return ty_new(c, TY_TILE, p->ty->dt, arg->rank, arg->shape);
    case TE_INT:
        if (!argx->cval || arg->rank) {
            diag_error(c->d, argx->span, "parameter '%s' is 'int': pass a compile-time integer", p->name);
            return ty_error(c);
        }
        return arg;
    default:
        diag_error(c->d, p->ty->span, "fn parameters take an element type (f32) or int, not a shape");
        return ty_error(c);
    }
}

FnInst *instantiate(Ctx *c, FnDecl *fn, Expr *call, Type **args, Sym **cvals, int n)
{
    for (int i = 0; i < c->insts.n; i++) {
        InstKey *k = c->insts.v[i];
        if (!key_match(k, fn, args, cvals, n))
            continue;
        if (!k->inst && !k->failed) {
            diag_error(c->d, call->span, "'%s' calls itself; fns are inlined and cannot recurse", fn->name);
            k->failed = true;
        }
        return k->failed ? NULL : k->inst;
    }
    InstKey *key = arena_alloc(c->a, sizeof *key);
    *key = (InstKey){.fn = fn, .args = args, .cvals = cvals, .n = n};
    vec_push(c->a, c->insts, key);
    if (c->depth > 64) {
        diag_error(c->d, call->span, "fns nested more than 64 deep");
        key->failed = true;
        return NULL;
    }
    FnInst *inst = arena_alloc(c->a, sizeof *inst);
    inst->fn = fn;
    inst->body = clone_block(c->a, fn->body);
    inst->params = arena_alloc(c->a, sizeof(Binding *) * (size_t)(n ? n : 1));
    inst->ret = ty_void(c);
    int errors = c->d->nerrors;
    Scope *saved_scope = c->scope;
    FnInst *saved_fn = c->fn;
    int saved_loops = c->loop_depth;
    c->scope = c->globals;
    c->fn = inst;
    c->loop_depth = 0;
    c->depth++;
    scope_push(c);
    for (int i = 0; i < n; i++) {
        Param *p = &fn->params[i];
        Expr *argx = call->u.call.args[i].value;
        Binding *b;
        if (args[i]->kind == TY_TENSOR) {
            if (p->ty)
                diag_error(c->d, p->ty->span, "'%s' receives the tensor '%s'; leave it untyped", p->name,
                           argx->u.name.bind->name);
            b = bind_new(c, BIND_TENSOR, p->name, p->span, args[i]);
            b->index = argx->u.name.bind->index;
        } else {
            b = bind_new(c, BIND_LET, p->name, p->span, param_type(c, p, args[i], argx));
            b->cval = cvals[i];
        }
        inst->params[i] = b;
        bind_declare(c, b);
    }
    check_block(c, inst->body);
    scope_pop(c);
    c->depth--;
    c->scope = saved_scope;
    c->fn = saved_fn;
    c->loop_depth = saved_loops;
    if (fn->ret && fn->ret->kind == TE_DTYPE && inst->ret->kind == TY_TILE)
        inst->ret = ty_new(c, TY_TILE, fn->ret->dt, inst->ret->rank, inst->ret->shape);
    else if (fn->ret && inst->ret->kind == TY_VOID)
        diag_error(c->d, fn->span, "'%s' declares a result but does not end with 'return value;'", fn->name);
    if (c->d->nerrors > errors) {
        diag_note(c->d, call->span, "in the call to '%s' here", fn->name);
        key->failed = true;
        return NULL;
    }
    key->inst = inst;
    return inst;
}

/* ------------------------------------------------------------ kernels */

static Define *find_define(Define *defs, int ndefs, const char *name)
{
    for (int i = 0; i < ndefs; i++)
        if (strcmp(defs[i].name, name) == 0)
            return &defs[i];
    return NULL;
}

static bool parse_int(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 0);
    if (errno || end == s || *end)
        return false;
    *v = x;
    return true;
}

/* An int or bool const whose default is not a literal: declare_consts
 * evaluates it after every literal and -D value is known. */
static bool const_deferred(const ConstInfo *ci, const Param *p)
{
    if (!p->deflt || (ci->kind == TE_DTYPE && ci->dt != DT_BOOL))
        return false;
    Expr *e = p->deflt;
    Expr *lit = e->kind == EX_UNARY && e->u.unary.op == U_NEG ? e->u.unary.x : e;
    return lit->kind != EX_INT && lit->kind != EX_BOOL;
}

/* A const's value from -D text or from its default expression. */
static void const_value(Ctx *c, ConstInfo *ci, Param *p, Define *def)
{
    if (def) {
        def->used = true;
        char *end;
        bool ok = true;
        if (ci->kind == TE_INT) {
            ok = parse_int(def->value, &ci->ival);
        } else if (ci->dt == DT_BOOL) {
            ok = !strcmp(def->value, "true") || !strcmp(def->value, "false") || !strcmp(def->value, "1") ||
                 !strcmp(def->value, "0");
            ci->ival = !strcmp(def->value, "true") || !strcmp(def->value, "1");
        } else {
            ci->fval = strtod(def->value, &end);
            ok = end != def->value && !*end;
        }
        if (!ok)
            diag_error(c->d, p->span, "-D %s=%s: not a valid %s", def->name, def->value,
                       ci->kind == TE_INT ? "integer" : dtype_info[ci->dt].name);
        ci->has_value = ok;
        return;
    }
    if (!p->deflt) {
        diag_error(c->d, p->span, "const parameter '%s' needs a default value (or -D %s=...)", p->name, p->name);
        return;
    }
    Expr *e = p->deflt;
    bool neg = e->kind == EX_UNARY && e->u.unary.op == U_NEG;
    Expr *lit = neg ? e->u.unary.x : e;
    if (const_deferred(ci, p))
        return;
    if (ci->kind == TE_INT && lit->kind == EX_INT) {
        ci->ival = neg ? -lit->u.ival : lit->u.ival;
    } else if (ci->dt == DT_BOOL && lit->kind == EX_BOOL && !neg) {
        ci->ival = lit->u.bval;
    } else if (ci->kind == TE_DTYPE && dtype_is_float(ci->dt) && (lit->kind == EX_FLOAT || lit->kind == EX_INT)) {
        ci->fval = lit->kind == EX_FLOAT ? lit->u.fval : (double)lit->u.ival;
        ci->fval = neg ? -ci->fval : ci->fval;
    } else {
        diag_error(c->d, e->span, "the default of '%s' must be a literal %s", p->name,
                   ci->kind == TE_INT ? "integer" : dtype_info[ci->dt].name);
        return;
    }
    ci->has_value = true;
}

/* The default of an int or bool const given as an expression of the other
 * consts: integer and bool literals, const names, unary and binary operators
 * and where(c, a, b), e.g. `BLOCK_N: int = where(D >= 128, 128, 64)`.
 * state[i]: 0 not yet valued, 1 being evaluated (a cycle), 2 valued. */
static bool const_default(Ctx *c, KernelDecl *kd, int i, char *state);

static bool const_expr(Ctx *c, KernelDecl *kd, Expr *e, char *state, int64_t *v)
{
    int64_t a, b, x;
    switch (e->kind) {
    case EX_INT: *v = e->u.ival; return true;
    case EX_BOOL: *v = e->u.bval; return true;
    case EX_NAME:
        for (int j = 0; j < kd->nconsts; j++)
            if (!strcmp(kd->consts[j].name, e->u.name.id)) {
                if (c->k->consts[j].kind == TE_DTYPE && c->k->consts[j].dt != DT_BOOL)
                    break;
                if (!const_default(c, kd, j, state))
                    return false;
                *v = c->k->consts[j].ival;
                return true;
            }
        if (!strcmp(e->u.name.id, "ARCH")) {   /* the GPU's compute capability (a const shadows it) */
            *v = c->arch;
            return true;
        }
        break;
    case EX_UNARY:
        if (!const_expr(c, kd, e->u.unary.x, state, &a))
            return false;
        if (e->u.unary.op == U_NEG && a == INT64_MIN) {
            diag_error(c->d, e->span, "a const default overflows 64 bits");
            return false;
        }
        *v = e->u.unary.op == U_NEG ? -a : e->u.unary.op == U_NOT ? !a : ~a;
        return true;
    case EX_BINARY:
        if (!const_expr(c, kd, e->u.binary.l, state, &a) || !const_expr(c, kd, e->u.binary.r, state, &b))
            return false;
        switch (e->u.binary.op) {
        case B_ADD: case B_SUB: case B_MUL:
            if (e->u.binary.op == B_ADD ? __builtin_add_overflow(a, b, v)
                : e->u.binary.op == B_SUB ? __builtin_sub_overflow(a, b, v) : __builtin_mul_overflow(a, b, v)) {
                diag_error(c->d, e->span, "a const default overflows 64 bits");
                return false;
            }
            return true;
        case B_DIV: case B_MOD:
            if (b == 0 || (a == INT64_MIN && b == -1)) {
                diag_error(c->d, e->span, "a const default divides by zero (or overflows)");
                return false;
            }
            *v = e->u.binary.op == B_DIV ? a / b : a % b;
            return true;
        case B_LT: *v = a < b; return true;
        case B_LE: *v = a <= b; return true;
        case B_GT: *v = a > b; return true;
        case B_GE: *v = a >= b; return true;
        case B_EQ: *v = a == b; return true;
        case B_NE: *v = a != b; return true;
        case B_LAND: *v = a && b; return true;
        case B_LOR: *v = a || b; return true;
        case B_AND: *v = a & b; return true;
        case B_OR: *v = a | b; return true;
        case B_XOR: *v = a ^ b; return true;
        case B_SHL: case B_SHR:
            if (b < 0 || b > 62 || (e->u.binary.op == B_SHL && (a < 0 || a > (INT64_MAX >> b)))) {
                diag_error(c->d, e->span, "a const default shifts out of range");
                return false;
            }
            *v = e->u.binary.op == B_SHL ? a << b : a >> b;
            return true;
        default: break;
        }
        break;
    case EX_CALL:
        if (e->u.call.fn->kind == EX_NAME && !strcmp(e->u.call.fn->u.name.id, "where") && e->u.call.nargs == 3 &&
            !e->u.call.args[0].kw && !e->u.call.args[1].kw && !e->u.call.args[2].kw) {
            if (!const_expr(c, kd, e->u.call.args[0].value, state, &x))
                return false;
            return const_expr(c, kd, e->u.call.args[x ? 1 : 2].value, state, v);
        }
        break;
    default: break;
    }
    diag_error(c->d, e->span, "a const default is a literal or an expression of literals, other int or bool "
                              "consts, ARCH, operators and where(c, a, b)");
    return false;
}

static bool const_default(Ctx *c, KernelDecl *kd, int i, char *state)
{
    ConstInfo *ci = &c->k->consts[i];
    if (state[i] == 2)
        return ci->has_value;
    if (state[i] == 1) {
        diag_error(c->d, kd->consts[i].span, "the default of '%s' depends on itself", ci->name);
        return false;
    }
    state[i] = 1;
    int64_t v = 0;
    bool ok = const_expr(c, kd, kd->consts[i].deflt, state, &v);
    if (ok) {
        ci->ival = ci->dt == DT_BOOL ? v != 0 : v;
        ci->has_value = true;
    }
    state[i] = 2;
    return ok;
}

static void declare_consts(Ctx *c, KernelDecl *kd, Define *defs, int ndefs)
{
    KernelInfo *k = c->k;
    k->nconsts = kd->nconsts;
    k->consts = arena_alloc(c->a, sizeof(ConstInfo) * (size_t)(kd->nconsts ? kd->nconsts : 1));
    for (int i = 0; i < kd->nconsts; i++) {
        Param *p = &kd->consts[i];
        ConstInfo *ci = &k->consts[i];
        ci->name = p->name;
        ci->span = p->span;
        ci->kind = p->ty->kind;
        ci->dt = p->ty->kind == TE_INT ? DT_I32 : p->ty->dt;
        if (p->ty->kind == TE_SHAPED || (p->ty->kind == TE_DTYPE && dtype_is_int(p->ty->dt))) {
            diag_error(c->d, p->ty->span, "a const parameter is 'int', 'bool' or a float type");
            ci->kind = TE_INT;
        }
        const_value(c, ci, p, find_define(defs, ndefs, p->name));
    }
    char *state = arena_alloc(c->a, (size_t)(kd->nconsts ? kd->nconsts : 1));
    for (int i = 0; i < kd->nconsts; i++)
        state[i] = k->consts[i].has_value || !const_deferred(&k->consts[i], &kd->consts[i]) ||
                           find_define(defs, ndefs, kd->consts[i].name)
                       ? 2
                       : 0;
    for (int i = 0; i < kd->nconsts; i++)
        if (!state[i])
            const_default(c, kd, i, state);
    for (int i = 0; i < kd->nconsts; i++) {
        Param *p = &kd->consts[i];
        ConstInfo *ci = &k->consts[i];
        ci->sym = sym_param(c->syms, i, p->name);
        Type *t = ty_scalar(c, ci->kind == TE_INT ? DT_I32 : ci->dt);
        t->weak = ci->kind == TE_INT;
        Binding *b = bind_new(c, BIND_CONST, p->name, p->span, t);
        b->index = i;
        b->cval = ci->kind == TE_INT ? ci->sym : NULL;
        bind_declare(c, b);
    }
}

static int find_dim(KernelInfo *k, const char *name)
{
    for (int i = 0; i < k->ndims; i++)
        if (strcmp(k->dims[i].name, name) == 0)
            return i;
    return -1;
}

typedef Vec(DimInfo) DimVec;

static void declare_tensor_dims(Ctx *c, ParamInfo *pi, TypeExpr *te, Define *defs, int ndefs, DimVec *dims)
{
    pi->rank = te->ndims;
    pi->strided = te->strided;
    pi->dims = arena_alloc(c->a, sizeof(TensorDim) * (size_t)(te->ndims ? te->ndims : 1));
    for (int j = 0; j < te->ndims; j++) {
        Expr *de = te->dims[j];
        TensorDim *td = &pi->dims[j];
        td->dim = -1;
        if (de->kind == EX_INT) {
            if (de->u.ival < 0)
                diag_error(c->d, de->span, "a tensor dim cannot be negative");
            td->size = sym_int(c->syms, de->u.ival);
            continue;
        }
        if (de->kind != EX_NAME) {
            diag_error(c->d, de->span, "a tensor dim is a name or an integer literal");
            td->size = sym_int(c->syms, 1);
            continue;
        }
        Binding *b = scope_find(c, de->u.name.id);
        if (b && b->kind == BIND_CONST && c->k->consts[b->index].kind == TE_INT) {
            td->size = b->cval;
            continue;
        }
        if (b && b->kind != BIND_DIM) {
            diag_error(c->d, de->span, "'%s' cannot be a dim: it is already a parameter", de->u.name.id);
            td->size = sym_int(c->syms, 1);
            continue;
        }
        c->k->dims = dims->v;
        c->k->ndims = dims->n;
        int d = find_dim(c->k, de->u.name.id);
        if (d < 0) {
            DimInfo di = {.name = de->u.name.id, .span = de->span};
            Define *def = find_define(defs, ndefs, di.name);
            if (def) {
                def->used = true;
                di.specialized = parse_int(def->value, &di.value) && di.value >= 0;
                if (!di.specialized)
                    diag_error(c->d, de->span, "-D %s=%s: a dim needs a non-negative integer", def->name,
                               def->value);
            }
            d = dims->n;
            vec_push(c->a, *dims, di);
            Binding *nb = bind_new(c, BIND_DIM, di.name, di.span, ty_scalar(c, DT_I64));
            nb->index = d;
            bind_declare(c, nb);
        }
        td->dim = d;
    }
}

static void declare_params(Ctx *c, KernelDecl *kd, Define *defs, int ndefs)
{
    KernelInfo *k = c->k;
    DimVec dims = {0};
    k->nparams = kd->nparams;
    k->params = arena_alloc(c->a, sizeof(ParamInfo) * (size_t)(kd->nparams ? kd->nparams : 1));
    for (int i = 0; i < kd->nparams; i++) {
        Param *p = &kd->params[i];
        ParamInfo *pi = &k->params[i];
        pi->name = p->name;
        pi->span = p->span;
        pi->dt = p->ty->dt;
        pi->is_tensor = p->ty->kind == TE_SHAPED;
        if (p->ty->kind == TE_INT) {
            diag_error(c->d, p->ty->span, "'int' is for const parameters <...>; a run-time scalar is i32 or i64");
            pi->dt = DT_I32;
        }
        Binding *b = scope_lookup(c->scope, p->name, true);
        if (b && b->kind == BIND_DIM) {
            diag_error(c->d, p->span, "'%s' is already a dim of an earlier tensor", p->name);
            continue;
        }
        b = bind_new(c, pi->is_tensor ? BIND_TENSOR : BIND_SCALAR, p->name, p->span,
                     ty_new(c, pi->is_tensor ? TY_TENSOR : TY_TILE, pi->dt, 0, NULL));
        b->index = i;
        bind_declare(c, b);
        if (pi->is_tensor)
            declare_tensor_dims(c, pi, p->ty, defs, ndefs, &dims);
    }
    k->dims = dims.v;
    k->ndims = dims.n;
}

/* ------------------------------------------------------------ launch options */

const char *const sema_launch_names[LO_N] = { "warps", "stages", "specialize", "persistent", "blocks",
                                                "fast_exp2", "cluster", "llvm" };

int sema_launch_opt(const char *name)
{
    for (int o = 0; o < LO_N; o++)
        if (!strcmp(name, sema_launch_names[o]))
            return o;
    return -1;
}

/* Does launch option o take true / false? */
static bool launch_switch(int o)
{
    return o == LO_SPECIALIZE || o == LO_PERSISTENT || o == LO_FAST_EXP2 || o == LO_LLVM;
}

/* NULL when x is a value of launch option o, else what it must be: warps a
 * power of two up to 32 (a block of at most 1024 threads) or 12 (three
 * warpgroups: stdlib sdpa_bf16's 192-row blocks at D=128), stages 1..16,
 * blocks 1..32 (a multiprocessor holds at most 32 blocks) or 0 for no hint,
 * the switches 0 or 1. */
static const char *launch_range(int o, int64_t x)
{
    switch (o) {
    case LO_WARPS:
        return x >= 1 && x <= 32 && (!(x & (x - 1)) || x == 12) ? NULL : "a power of two from 1 to 32, or 12";
    case LO_STAGES:
        return x >= 1 && x <= 16 ? NULL : "from 1 to 16";
    case LO_BLOCKS:
        return x >= 0 && x <= 32 ? NULL : "from 1 to 32 (or 0: no hint)";
    case LO_CLUSTER:
        return x == 1 || x == 2 ? NULL : "1 or 2";
    default:
        return x == 0 || x == 1 ? NULL : "true or false (1 or 0)";
    }
}

/* A launch option's value in @launch or @autotune (attr): an integer
 * literal, or for the switches also true / false.  Reports and returns
 * false when it is not one. */
static bool launch_value(Ctx *c, const char *attr, int o, Expr *v, int64_t *x)
{
    bool sw = launch_switch(o);
    if (v->kind != EX_INT && !(sw && v->kind == EX_BOOL)) {
        diag_error(c->d, v->span, "%s values are %s literals", attr, sw ? "true, false or integer" : "integer");
        return false;
    }
    *x = v->kind == EX_BOOL ? v->u.bval : v->u.ival;
    const char *want = launch_range(o, *x);
    if (want)
        diag_error(c->d, v->span, "%s must be %s, got %lld", sema_launch_names[o], want, (long long)*x);
    return !want;
}

/* @launch(warps = 8, stages = 3, specialize = true, persistent = true,
 * blocks = 2): fixed launch options. */
static void check_launch(Ctx *c, Attr *at)
{
    KernelInfo *k = c->k;
    for (int j = 0; j < at->nargs; j++) {
        Arg *a = &at->args[j];
        int o = a->kw ? sema_launch_opt(a->kw) : -1;
        int64_t x;
        if (o < 0) {
            char names[128] = "";           /* "warps, stages, ... and fast_exp2" */
            for (int n = 0; n < LO_N; n++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                         n == 0 ? "" : n == LO_N - 1 ? " and " : ", ", sema_launch_names[n]);
            diag_error(c->d, a->kw ? a->kw_span : a->value->span, "@launch takes %s%s%s%s", names,
                       a->kw ? ", not '" : "", a->kw ? a->kw : "", a->kw ? "'" : "");
            continue;
        }
        if (!launch_value(c, "@launch", o, a->value, &x))
            continue;
        if (k->launch[o] >= 0)
            diag_error(c->d, a->kw_span, "%s is set twice", a->kw);
        k->launch[o] = (int)x;
    }
}

/* -D warps=8, -D specialize=true: launch options of every kernel (over
 * @launch's), into c->dlaunch. */
static void launch_defines(Ctx *c, Define *defs, int ndefs)
{
    for (int o = 0; o < LO_N; o++) {
        Define *def = find_define(defs, ndefs, sema_launch_names[o]);
        c->dlaunch[o] = -1;
        if (!def)
            continue;
        def->used = true;
        int64_t x = 0;
        bool num = parse_int(def->value, &x), sw = launch_switch(o);
        if (sw && !num && (!strcmp(def->value, "true") || !strcmp(def->value, "false")))
            num = true, x = !strcmp(def->value, "true");
        const char *want = num ? launch_range(o, x) : sw ? "true or false (1 or 0)" : "an integer";
        if (want)
            diag_error(c->d, (Span){0}, "-D %s=%s: %s must be %s", def->name, def->value, def->name, want);
        else
            c->dlaunch[o] = (int)x;
    }
}

typedef Vec(TuneAxis) TuneAxes;

/* @autotune(NAME = [values, ...], ...): a space of variants, the Cartesian
 * product of its axes; a kernel's several @autotune give the union. */
static void check_autotune(Ctx *c, Attr *at, TuneAxes *axes, int space)
{
    KernelInfo *k = c->k;
    int first = axes->n;
    for (int j = 0; j < at->nargs; j++) {
        Arg *a = &at->args[j];
        TuneAxis ax = {.name = a->kw, .konst = -1, .launch = -1, .space = space};
        if (!a->kw) {
            diag_error(c->d, a->value->span, "@autotune takes NAME = [values, ...]");
            continue;
        }
        Binding *b = scope_find(c, a->kw);
        if (b && b->kind == BIND_CONST && k->consts[b->index].kind == TE_INT)
            ax.konst = b->index;
        else if ((ax.launch = sema_launch_opt(a->kw)) < 0) {
            diag_error(c->d, a->kw_span, "unknown kernel option '%s' in @autotune (an int const parameter, "
                       "warps, stages, specialize, persistent, blocks, fast_exp2, cluster or llvm)", a->kw);
            continue;
        }
        bool twice = false;
        for (int i = first; i < axes->n; i++)
            twice |= !strcmp(axes->v[i].name, a->kw);
        if (twice) {
            diag_error(c->d, a->kw_span, "'%s' is listed twice in one @autotune", a->kw);
            continue;
        }
        Expr *l = a->value;
        if (l->kind != EX_LIST || l->u.list.n == 0) {
            diag_error(c->d, l->span, "@autotune values are a non-empty list of integers");
            continue;
        }
        ax.values = arena_alloc(c->a, sizeof(int64_t) * (size_t)l->u.list.n);
        bool ok = true;
        for (int m = 0; ok && m < l->u.list.n; m++) {
            Expr *v = l->u.list.elts[m];
            if (ax.konst < 0)
                ok = launch_value(c, "@autotune", ax.launch, v, &ax.values[ax.n]);
            else if (v->kind != EX_INT)
                diag_error(c->d, v->span, "@autotune values are integer literals"), ok = false;
            else
                ax.values[ax.n] = v->u.ival;
            ax.n += ok;
        }
        if (ok)
            vec_push(c->a, *axes, ax);
    }
}

static void check_attrs(Ctx *c, KernelDecl *kd)
{
    TuneAxes axes = {0};
    for (int o = 0; o < LO_N; o++)
        c->k->launch[o] = -1;
    for (int i = 0; i < kd->nattrs; i++) {
        Attr *at = &kd->attrs[i];
        if (!strcmp(at->name, "autotune"))
            check_autotune(c, at, &axes, c->k->nspaces++);
        else if (!strcmp(at->name, "launch"))
            check_launch(c, at);
        else
            diag_error(c->d, at->span, "unknown attribute '@%s' (tkc knows @autotune and @launch)", at->name);
    }
    for (int o = 0; o < LO_N; o++)
        if (c->dlaunch[o] >= 0)
            c->k->launch[o] = c->dlaunch[o];
    c->k->tune = axes.v;
    c->k->ntune = axes.n;
}

static void check_header(Ctx *c, KernelDecl *kd)
{
    c->in_header = true;
    if (kd->ngrid == 0)
        diag_error(c->d, kd->span, "kernel '%s' needs a grid(...) clause", kd->name);
    if (kd->ngrid > 3)
        diag_error(c->d, kd->grid_span, "a grid has at most 3 dims");
    for (int i = 0; i < kd->ngrid; i++) {
        Type *t = check_expr(c, kd->grid[i]);
        if (!ty_is_err(t) && (t->kind != TY_TILE || t->rank || !dtype_is_int(t->dt)))
            diag_error(c->d, kd->grid[i]->span, "a grid size must be a scalar integer, got %s", type_str(c->a, t));
    }
    for (int i = 0; i < kd->nrequires; i++)
        check_scalar_cond(c, kd->requires[i], "a require condition");
    c->in_header = false;
}

static KernelInfo *check_kernel(Ctx *c, KernelDecl *kd, bool in_main, Define *defs, int ndefs)
{
    KernelInfo *k = arena_alloc(c->a, sizeof *k);
    k->decl = kd;
    k->name = kd->name;
    k->in_main = in_main;
    k->syms = sym_tab_new(c->a);
    c->k = k;
    c->syms = k->syms;
    c->insts.n = 0;
    c->scope = c->globals;
    scope_push(c);
    declare_consts(c, kd, defs, ndefs);
    declare_params(c, kd, defs, ndefs);
    check_attrs(c, kd);
    check_header(c, kd);
    check_block(c, kd->body);
    scope_pop(c);
    return k;
}

static void declare_globals(Ctx *c, Program *p)
{
    c->scope = NULL;
    scope_push(c);
    c->globals = c->scope;
    Vec(KernelDecl *) kernels = {0};
    for (int f = 0; f < p->nfiles; f++) {
        for (int i = 0; i < p->files[f]->nitems; i++) {
            Item *it = p->files[f]->items[i];
            if (it->kind == IT_FN) {
                FnDecl *fn = it->u.fn;
                for (int j = 0; j < fn->nparams; j++)
                    for (int m = 0; m < j; m++)
                        if (strcmp(fn->params[j].name, fn->params[m].name) == 0)
                            diag_error(c->d, fn->params[j].span, "duplicate parameter '%s' of '%s'",
                                       fn->params[j].name, fn->name);
                Binding *b = bind_new(c, BIND_FN, it->u.fn->name, it->u.fn->span, ty_void(c));
                b->fn = it->u.fn;
                bind_declare(c, b);
            } else if (it->kind == IT_KERNEL) {
                for (int j = 0; j < kernels.n; j++)
                    if (strcmp(kernels.v[j]->name, it->u.kernel->name) == 0) {
                        diag_error(c->d, it->u.kernel->span, "duplicate definition of kernel '%s'", it->u.kernel->name);
                        diag_note(c->d, kernels.v[j]->span, "'%s' was defined here", it->u.kernel->name);
                    }
                vec_push(c->a, kernels, it->u.kernel);
            }
        }
    }
    static const char *const values[] = {"inf", "nan"};
    for (int i = 0; i < 2; i++) {
        Type *t = ty_scalar(c, DT_F32);
        t->weak = true;
        Binding *b = bind_new(c, BIND_VALUE, values[i], (Span){0}, t);
        b->fval = i == 0 ? __builtin_inf() : __builtin_nan("");
        if (!scope_lookup(c->globals, values[i], true))
            scope_add(c, c->globals, b);
    }
}

int sema_arch_of(const char *arch)
{
    if (!arch || strncmp(arch, "sm_", 3) || !isdigit((unsigned char)arch[3]))
        return 90;
    return (int)strtol(arch + 3, NULL, 10);
}

SemaResult *sema_check(Program *p, Define *defs, int ndefs, int arch, Diag *d)
{
    Ctx c = {.a = p->arena, .d = d, .prog = p, .arch = arch};
    declare_globals(&c, p);
    launch_defines(&c, defs, ndefs);
    Vec(KernelInfo *) ks = {0};
    for (int f = 0; f < p->nfiles; f++)
        for (int i = 0; i < p->files[f]->nitems; i++)
            if (p->files[f]->items[i]->kind == IT_KERNEL)
                vec_push(c.a, ks, check_kernel(&c, p->files[f]->items[i]->u.kernel, f == 0, defs, ndefs));
    for (int i = 0; i < ndefs; i++)
        if (!defs[i].used)
            diag_error(d, (Span){0}, "-D %s: no kernel has a const parameter or dim named '%s'", defs[i].name,
                       defs[i].name);
    SemaResult *r = arena_alloc(c.a, sizeof *r);
    r->kernels = ks.v;
    r->nkernels = ks.n;
    return r;
}
