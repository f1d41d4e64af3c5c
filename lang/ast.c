/*
 * lang/ast.c — the AST as S-expressions, for --emit=ast and the tests.
 *
 * Every node prints as (head fields... @span children...), where a span is
 * @LINE:COL-LINE:COL (1-based, the end exclusive) and an absent optional
 * field prints as nil, so two trees print alike exactly when they are
 * alike.  Items, statements and blocks go one to a line, indented by depth;
 * expressions and types stay on their statement's line.  Line numbers come
 * from a table of line starts built once per file, so printing is linear.
 */
#include <stdlib.h>
#include <string.h>

#include "lang.h"

typedef struct Printer {
    FILE *out;
    const Src *src;
    int *starts;      /* byte offset of each line's first character */
    int nlines;
} Printer;

static void line_table(Printer *p, const Src *src)
{
    p->src = src;
    p->nlines = 1;
    for (size_t i = 0; src && i < src->len; i++)
        p->nlines += src->text[i] == '\n';
    p->starts = tk_alloc(sizeof(int) * (size_t)p->nlines);
    int n = 1;
    for (size_t i = 0; src && i < src->len; i++)
        if (src->text[i] == '\n')
            p->starts[n++] = (int)i + 1;
}

static void linecol(const Printer *p, int off, int *line, int *col)
{
    int lo = 0, hi = p->nlines - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (p->starts[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    *line = lo + 1;
    *col = off - p->starts[lo] + 1;
}

/* span := '@' LINE ':' COL '-' LINE ':' COL | '@-' (no location) */
static void span(const Printer *p, Span s)
{
    if (!s.src) {
        fputs(" @-", p->out);
        return;
    }
    int l0, c0, l1, c1;
    if (s.src == p->src) {
        linecol(p, s.lo, &l0, &c0);
        linecol(p, s.hi, &l1, &c1);
    } else {
        span_linecol(s, &l0, &c0);
        span_linecol((Span){s.src, s.hi, s.hi}, &l1, &c1);
    }
    fprintf(p->out, " @%d:%d-%d:%d", l0, c0, l1, c1);
}

static void indent(const Printer *p, int depth)
{
    fputc('\n', p->out);
    for (int i = 0; i < depth; i++)
        fputs("  ", p->out);
}

static void string(const Printer *p, const char *s)
{
    fputc('"', p->out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(p->out, "\\%c", *s);
        else if (*s == '\n')
            fputs("\\n", p->out);
        else if (*s == '\t')
            fputs("\\t", p->out);
        else if ((unsigned char)*s < 0x20)
            fprintf(p->out, "\\x%02x", (unsigned char)*s);
        else
            fputc(*s, p->out);
    }
    fputc('"', p->out);
}

static void expr(const Printer *p, const Expr *e);

/* arg := E | (kw NAME @span E) */
static void args(const Printer *p, const Arg *a, int n)
{
    for (int i = 0; i < n; i++) {
        fputc(' ', p->out);
        if (a[i].kw) {
            fprintf(p->out, "(kw %s", a[i].kw);
            span(p, a[i].kw_span);
            fputc(' ', p->out);
            expr(p, a[i].value);
            fputc(')', p->out);
        } else {
            expr(p, a[i].value);
        }
    }
}

static void exprs(const Printer *p, Expr *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        fputc(' ', p->out);
        expr(p, v[i]);
    }
}

/* The fields of an expression after its head and span. */
static void expr_fields(const Printer *p, const Expr *e)
{
    switch (e->kind) {
    case EX_UNARY:
        fputc(' ', p->out);
        expr(p, e->u.unary.x);
        break;
    case EX_BINARY:
        fputc(' ', p->out);
        expr(p, e->u.binary.l);
        fputc(' ', p->out);
        expr(p, e->u.binary.r);
        break;
    case EX_CAST:
        fputc(' ', p->out);
        expr(p, e->u.cast.x);
        fprintf(p->out, " (to %s", dtype_info[e->u.cast.to].name);
        span(p, e->u.cast.to_span);
        fputc(')', p->out);
        break;
    case EX_CALL:
        fputc(' ', p->out);
        expr(p, e->u.call.fn);
        args(p, e->u.call.args, e->u.call.nargs);
        break;
    case EX_INDEX:
        fputc(' ', p->out);
        expr(p, e->u.index.base);
        exprs(p, e->u.index.idx, e->u.index.nidx);
        break;
    case EX_LIST:
        exprs(p, e->u.list.elts, e->u.list.n);
        break;
    case EX_UNCHECKED:
        fputc(' ', p->out);
        expr(p, e->u.unchecked.x);
        break;
    default:
        break;
    }
}

/* expr := (int V @s) | (float V @s) | (bool V @s) | (name ID @s)
 *       | (dtype T @s) | (unary OP @s X) | (binary OP @s L R)
 *       | (cast @s X (to T @s)) | (call @s F ARG...) | (index @s B I...)
 *       | (list @s E...) | (slice @s) | (none @s) | (unchecked @s X) | nil */
static void expr(const Printer *p, const Expr *e)
{
    if (!e) {
        fputs("nil", p->out);
        return;
    }
    FILE *o = p->out;
    switch (e->kind) {
    case EX_INT:       fprintf(o, "(int %lld", (long long)e->u.ival); break;
    case EX_FLOAT:     fprintf(o, "(float %.17g", e->u.fval); break;
    case EX_BOOL:      fprintf(o, "(bool %s", e->u.bval ? "true" : "false"); break;
    case EX_NAME:      fprintf(o, "(name %s", e->u.name.id); break;
    case EX_DTYPE:     fprintf(o, "(dtype %s", dtype_info[e->u.dtype].name); break;
    case EX_UNARY:     fprintf(o, "(unary %s", unop_str[e->u.unary.op]); break;
    case EX_BINARY:    fprintf(o, "(binary %s", binop_str[e->u.binary.op]); break;
    case EX_CAST:      fputs("(cast", o); break;
    case EX_CALL:      fputs("(call", o); break;
    case EX_INDEX:     fputs("(index", o); break;
    case EX_LIST:      fputs("(list", o); break;
    case EX_SLICE:     fputs("(slice", o); break;
    case EX_NONE:      fputs("(none", o); break;
    case EX_UNCHECKED: fputs("(unchecked", o); break;
    }
    span(p, e->span);
    expr_fields(p, e);
    fputc(')', o);
}

/* type := (type int @s) | (type DT @s) | (type [strided] DT @s (dims D...)) | nil */
static void type(const Printer *p, const TypeExpr *t)
{
    if (!t) {
        fputs("nil", p->out);
        return;
    }
    if (t->kind == TE_INT)
        fputs("(type int", p->out);
    else
        fprintf(p->out, "(type %s%s", t->strided ? "strided " : "", dtype_info[t->dt].name);
    span(p, t->span);
    if (t->kind == TE_SHAPED) {
        fputs(" (dims", p->out);
        exprs(p, t->dims, t->ndims);
        fputc(')', p->out);
    }
    fputc(')', p->out);
}

static void block(const Printer *p, const Block *b, int depth);

static const char *assign_op(int op)
{
    switch (op) {
    case B_ADD: return "+=";
    case B_SUB: return "-=";
    case B_MUL: return "*=";
    case B_DIV: return "/=";
    default:    return "=";
    }
}

static void stmt_let(const Printer *p, const Stmt *s)
{
    fprintf(p->out, "(%s %s", s->kind == ST_LET ? "let" : "var", s->u.let.name);
    span(p, s->u.let.name_span);
    span(p, s->span);
    fputc(' ', p->out);
    type(p, s->u.let.ty);
    fputc(' ', p->out);
    expr(p, s->u.let.init);
}

static void stmt_for(const Printer *p, const Stmt *s, int depth)
{
    fprintf(p->out, "(%s %s", s->kind == ST_FOR ? "for" : "static_for", s->u.for_.var);
    span(p, s->u.for_.var_span);
    span(p, s->span);
    fputc(' ', p->out);
    expr(p, s->u.for_.start);
    fputc(' ', p->out);
    expr(p, s->u.for_.end);
    fputc(' ', p->out);
    expr(p, s->u.for_.step);
    block(p, s->u.for_.body, depth + 1);
}

static void stmt_if(const Printer *p, const Stmt *s, int depth)
{
    fputs("(if", p->out);
    span(p, s->span);
    fputc(' ', p->out);
    expr(p, s->u.if_.cond);
    block(p, s->u.if_.then, depth + 1);
    block(p, s->u.if_.else_, depth + 1);
}

/* stmt := (let NAME @name @s TYPE E) | (var ...) | (assign OP @s T V)
 *       | (expr @s E) | (for VAR @var @s START END STEP BLOCK)
 *       | (static_for ...) | (if @s COND BLOCK ELSE) | (while @s COND BLOCK)
 *       | (return @s E) | (block ...) | (static_assert @s COND MSG)
 *       | (break @s) | (continue @s) */
static void stmt(const Printer *p, const Stmt *s, int depth)
{
    indent(p, depth);
    FILE *o = p->out;
    switch (s->kind) {
    case ST_LET:
    case ST_VAR:
        stmt_let(p, s);
        break;
    case ST_ASSIGN:
        fprintf(o, "(assign %s", assign_op(s->u.assign.op));
        span(p, s->span);
        fputc(' ', o);
        expr(p, s->u.assign.target);
        fputc(' ', o);
        expr(p, s->u.assign.value);
        break;
    case ST_EXPR:
    case ST_RETURN:
        fputs(s->kind == ST_EXPR ? "(expr" : "(return", o);
        span(p, s->span);
        fputc(' ', o);
        expr(p, s->u.expr);
        break;
    case ST_FOR:
    case ST_STATIC_FOR:
        stmt_for(p, s, depth);
        break;
    case ST_IF:
        stmt_if(p, s, depth);
        break;
    case ST_WHILE:
        fputs("(while", o);
        span(p, s->span);
        fputc(' ', o);
        expr(p, s->u.while_.cond);
        block(p, s->u.while_.body, depth + 1);
        break;
    case ST_BLOCK:
        fputs("(nested", o);
        span(p, s->span);
        block(p, s->u.block, depth + 1);
        break;
    case ST_PRINT:
        fputs("(print", o);
        span(p, s->span);
        fputc(' ', o);
        string(p, s->u.print.label);
        fputc(' ', o);
        if (s->u.print.value)
            expr(p, s->u.print.value);
        else
            fputs("nil", o);
        break;
    case ST_STATIC_ASSERT:
        fputs("(static_assert", o);
        span(p, s->span);
        fputc(' ', o);
        expr(p, s->u.sassert.cond);
        fputc(' ', o);
        if (s->u.sassert.msg)
            string(p, s->u.sassert.msg);
        else
            fputs("nil", o);
        break;
    case ST_BREAK:
    case ST_CONTINUE:
        fputs(s->kind == ST_BREAK ? "(break" : "(continue", o);
        span(p, s->span);
        break;
    }
    fputc(')', o);
}

/* block := (block @s STMT...) | nil, on a line of its own */
static void block(const Printer *p, const Block *b, int depth)
{
    indent(p, depth);
    if (!b) {
        fputs("nil", p->out);
        return;
    }
    fputs("(block", p->out);
    span(p, b->span);
    for (int i = 0; i < b->n; i++)
        stmt(p, b->stmts[i], depth + 1);
    fputc(')', p->out);
}

/* param := (HEAD NAME @s TYPE [DEFAULT]) */
static void param(const Printer *p, const char *head, const Param *x, bool deflt, int depth)
{
    indent(p, depth);
    fprintf(p->out, "(%s %s", head, x->name);
    span(p, x->span);
    fputc(' ', p->out);
    type(p, x->ty);
    if (deflt) {
        fputc(' ', p->out);
        expr(p, x->deflt);
    }
    fputc(')', p->out);
}

/* kernel := (kernel NAME @s (attr ...)... (const ...)... (param ...)...
 *            (grid @s E...) (require E)... BLOCK) */
static void kernel(const Printer *p, const KernelDecl *k, int depth)
{
    fprintf(p->out, "(kernel %s", k->name);
    span(p, k->span);
    for (int i = 0; i < k->nattrs; i++) {
        indent(p, depth + 1);
        fprintf(p->out, "(attr %s", k->attrs[i].name);
        span(p, k->attrs[i].span);
        args(p, k->attrs[i].args, k->attrs[i].nargs);
        fputc(')', p->out);
    }
    for (int i = 0; i < k->nconsts; i++)
        param(p, "const", &k->consts[i], true, depth + 1);
    for (int i = 0; i < k->nparams; i++)
        param(p, "param", &k->params[i], false, depth + 1);
    indent(p, depth + 1);
    fputs("(grid", p->out);
    span(p, k->grid_span);
    exprs(p, k->grid, k->ngrid);
    fputc(')', p->out);
    for (int i = 0; i < k->nrequires; i++) {
        indent(p, depth + 1);
        fputs("(require ", p->out);
        expr(p, k->requires[i]);
        fputc(')', p->out);
    }
    block(p, k->body, depth + 1);
    fputc(')', p->out);
}

/* fn := (fn NAME @s (param ...)... (ret TYPE) BLOCK) */
static void fn(const Printer *p, const FnDecl *f, int depth)
{
    fprintf(p->out, "(fn %s", f->name);
    span(p, f->span);
    for (int i = 0; i < f->nparams; i++)
        param(p, "param", &f->params[i], false, depth + 1);
    indent(p, depth + 1);
    fputs("(ret ", p->out);
    type(p, f->ret);
    fputc(')', p->out);
    block(p, f->body, depth + 1);
    fputc(')', p->out);
}

/* file := (file "PATH" ITEM...) */
void ast_print(FILE *out, const Ast *ast)
{
    Printer p = {.out = out};
    line_table(&p, ast->src);
    fputs("(file ", out);
    string(&p, ast->src && ast->src->path ? ast->src->path : "");
    for (int i = 0; i < ast->nitems; i++) {
        const Item *it = ast->items[i];
        indent(&p, 1);
        if (it->kind == IT_KERNEL) {
            kernel(&p, it->u.kernel, 1);
        } else if (it->kind == IT_FN) {
            fn(&p, it->u.fn, 1);
        } else {
            fputs("(import ", out);
            string(&p, it->u.import.path);
            span(&p, it->u.import.span);
            fputc(')', out);
        }
    }
    fputs(")\n", out);
    free(p.starts);
}
