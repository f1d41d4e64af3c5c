/*
 * sema/check.h — sema's private interface between its files
 * (sema.c: declarations, statements, functions; expr.c: expressions).
 */
#ifndef TKC_SEMA_CHECK_H
#define TKC_SEMA_CHECK_H

#include "sema.h"

typedef struct Scope {
    struct Scope *up;
    Vec(Binding *) names;
    Binding **tab;         /* names hashed, open addressing; tabcap slots, a power of 2 */
    int tabcap;
} Scope;

typedef struct InstKey {
    FnDecl *fn;
    Type **args;
    Sym **cvals;
    int n;
    FnInst *inst;          /* NULL while being checked (recursion) or after errors */
    bool failed;
} InstKey;

typedef struct Ctx {
    Arena *a;
    Diag *d;
    Program *prog;
    KernelInfo *k;         /* the kernel being checked */
    SymTab *syms;
    Scope *globals;        /* fns */
    int arch;              /* ARCH in const defaults (sema_arch_of) */
    Scope *scope;
    int loop_depth;
    bool in_header;        /* grid(...) / require: no tiles, loads or program ids */
    FnInst *fn;            /* the function instance being checked, or NULL */
    int depth;             /* nested instantiations */
    Vec(InstKey *) insts;
    int dlaunch[LO_N];     /* launch options set by -D, else -1 */
} Ctx;

/* types */
Type *ty_new(Ctx *c, TypeKind kind, DType dt, int rank, Sym **shape);
Type *ty_scalar(Ctx *c, DType dt);
Type *ty_error(Ctx *c);
Type *ty_void(Ctx *c);
bool ty_is_err(const Type *t);
bool shape_eq(const Type *a, const Type *b);

/* scopes */
void scope_push(Ctx *c);
void scope_pop(Ctx *c);
Binding *scope_find(Ctx *c, const char *name);
Binding *bind_new(Ctx *c, BindKind kind, const char *name, Span span, Type *t);
bool bind_declare(Ctx *c, Binding *b);   /* false (and an error) on redefinition */

/* expressions (expr.c) */
Type *check_expr(Ctx *c, Expr *e);
bool check_int_const(Ctx *c, Expr *e, const char *what, Sym **out);
bool check_scalar_cond(Ctx *c, Expr *e, const char *what);
Type *convert_for_assign(Ctx *c, Type *to, Type *from, Span at, const char *what);

/* functions (sema.c) */
FnInst *instantiate(Ctx *c, FnDecl *fn, Expr *call, Type **args, Sym **cvals, int n);

#endif
