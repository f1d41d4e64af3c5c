/*
 * targets/cuda/check.c — a kernel's argument checks and head, as one host
 * function:
 *
 *   static tk_status NAME__check(<the C entry point's params>, int64_t tk_grid[3])
 *
 * It rejects what the C target's entry point rejects, with the same
 * messages (negative dims, NULL or oversized tensors, bad strides, failed
 * requires, bad grids), then stores the grid.  The CUDA launchers call it;
 * it does not depend on the CUDA target, so the C entry point can call it
 * too (it is guarded by TKC_CHECK_NAME and printed once per header).
 */
#include <string.h>

#include "cuda.h"

#define S(...) arena_printf(a, __VA_ARGS__)

/* ------------------------------------------------------------ names */

static const char *const c_words[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "bool", "true", "false", "NULL",
    "INFINITY", "NAN", "alignas", "alignof", "noreturn", "static_assert", "thread_local", "asm",
    "typeof", "main", "errno", "assert", "stdin", "stdout", "stderr", "size_t", "ptrdiff_t",
};

static bool clashes(const char *s)
{
    for (size_t i = 0; i < sizeof c_words / sizeof *c_words; i++)
        if (!strcmp(s, c_words[i]))
            return true;
    size_t n = strlen(s);
    return s[0] == '_' || !strncmp(s, "tk_", 3) || !strncmp(s, "TK_", 3) || !strncmp(s, "tkh_", 4)
        || (n > 2 && !strcmp(s + n - 2, "_t"));
}

static bool taken(const char **names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (names[i] && !strcmp(names[i], s))
            return true;
    return false;
}

/* A C name for s, distinct from the n names so far. */
static const char *c_name(Arena *a, const char *s, const char **names, int n)
{
    const char *r = clashes(s) ? S("%s_", s) : s;
    while (taken(names, n, r))
        r = S("%s_", r);
    return r;
}

HostNames cuda_host_names(Arena *a, const KernelInfo *ki)
{
    int total = ki->nparams + ki->ndims, n = 0;
    for (int i = 0; i < ki->nparams; i++)
        total += ki->params[i].rank;
    const char **all = arena_alloc(a, sizeof(char *) * (size_t)(total + 1));
    HostNames h;
    h.pname = arena_alloc(a, sizeof(char *) * (size_t)(ki->nparams + 1));
    h.dname = arena_alloc(a, sizeof(char *) * (size_t)(ki->ndims + 1));
    h.sname = arena_alloc(a, sizeof(char **) * (size_t)(ki->nparams + 1));
    for (int i = 0; i < ki->nparams; i++) {
        h.pname[i] = c_name(a, ki->params[i].name, all, n);
        all[n++] = h.pname[i];
    }
    for (int i = 0; i < ki->ndims; i++) {
        h.dname[i] = c_name(a, ki->dims[i].name, all, n);
        all[n++] = h.dname[i];
    }
    for (int i = 0; i < ki->nparams; i++) {
        const ParamInfo *p = &ki->params[i];
        if (!p->is_tensor || !p->strided)
            continue;
        h.sname[i] = arena_alloc(a, sizeof(char *) * (size_t)(p->rank + 1));
        for (int j = 0; j < p->rank; j++) {
            h.sname[i][j] = c_name(a, S("%s_stride%d", p->name, j), all, n);
            all[n++] = h.sname[i][j];
        }
    }
    return h;
}

char *cuda_param_list(Arena *a, const KernelInfo *ki, const HostNames *hn, bool decl)
{
    Buf b = { .a = a };
    buf_puts(&b, "");
    const char *sep = "";
    for (int i = 0; i < ki->nparams; i++, sep = ", ") {
        const ParamInfo *p = &ki->params[i];
        buf_puts(&b, sep);
        if (decl && p->is_tensor)
            buf_printf(&b, "%s%s *", p->stored ? "" : "const ", dtype_info[p->dt].c_storage);
        else if (decl)
            buf_printf(&b, "%s ", dtype_info[p->dt].c_storage);
        buf_puts(&b, hn->pname[i]);
    }
    for (int d = 0; d < ki->ndims; d++)
        if (!ki->dims[d].specialized) {
            buf_printf(&b, "%s%s%s", sep, decl ? "int64_t " : "", hn->dname[d]);
            sep = ", ";
        }
    for (int i = 0; i < ki->nparams; i++)
        for (int j = 0; hn->sname[i] && j < ki->params[i].rank; j++) {
            buf_printf(&b, "%s%s%s", sep, decl ? "int64_t " : "", hn->sname[i][j]);
            sep = ", ";
        }
    return b.s;
}

/* ------------------------------------------------------------ printing */

typedef struct CK {
    TirKernel *k;
    const KernelInfo *ki;
    const HostNames *hn;
    Arena *a;
    Buf *o;
    Diag *d;
    bool ok;
} CK;

#define out(c, ...) buf_linef((c)->o, 1, __VA_ARGS__)

/* Text for a C string literal used as a printf format. */
static char *fmt_text(Arena *a, const char *s)
{
    Buf b = { .a = a };
    buf_puts(&b, "");
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            buf_putc(&b, '\\'), buf_putc(&b, *s);
        else if (*s == '%')
            buf_puts(&b, "%%");
        else if (*s == '\n' || *s == '\t')
            buf_putc(&b, ' ');
        else if ((unsigned char)*s >= 32)
            buf_putc(&b, *s);
    }
    return b.s;
}

static bool is_word_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

static bool has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = text; p && (p = strstr(p, w)); p += n)
        if ((p == text || !is_word_char(p[-1])) && !is_word_char(p[n]))
            return true;
    return false;
}

/* Dim j of tensor param i as a C expression, or NULL. */
static const char *dim_size(CK *c, const ParamInfo *p, int j)
{
    Arena *a = c->a;
    int64_t v = 0;
    if (p->dims[j].dim >= 0 && !c->ki->dims[p->dims[j].dim].specialized)
        return c->hn->dname[p->dims[j].dim];
    if (p->dims[j].dim >= 0)
        return S("INT64_C(%lld)", (long long)c->ki->dims[p->dims[j].dim].value);
    if (p->dims[j].size && sym_eval(p->dims[j].size, c->k->cvals, c->ki->nconsts, &v) && v >= 0)
        return S("INT64_C(%lld)", (long long)v);
    return NULL;
}

static void check_tensor(CK *c, int i, const char *kn)
{
    Arena *a = c->a;
    const ParamInfo *p = &c->ki->params[i];
    const char *pn = fmt_text(a, p->name), *name = c->hn->pname[i];
    const char *stype = dtype_info[p->dt].c_storage;
    out(c, "int64_t tk_n%d = 1;", i);
    Buf b = { .a = a };
    buf_puts(&b, "");
    for (int j = 0; j < p->rank; j++) {
        const char *size = dim_size(c, p, j);
        if (!size) {
            diag_error(c->d, p->span, "CUDA target: cannot evaluate the size of dim %d of %s", j, p->name);
            c->ok = false;
            return;
        }
        buf_printf(&b, "%s__builtin_mul_overflow(tk_n%d, (int64_t)%s, &tk_n%d)", b.n ? " || " : "",
                   i, size, i);
    }
    if (!p->strided)
        buf_printf(&b, "%stk_n%d > (int64_t)(PTRDIFF_MAX / sizeof(%s))", b.n ? " || " : "", i, stype);
    if (b.n)
        out(c, "if (%s) return tk_fail(TK_ERR_ARG, \"%s: %s is too large\");", b.s, kn, pn);
    out(c, "if (tk_n%d > 0 && !%s) return tk_fail(TK_ERR_ARG, \"%s: %s is NULL\");", i, name, kn, pn);
    if (!p->strided || !c->hn->sname[i])
        return;
    for (int j = 0; j < p->rank; j++)
        out(c, "if (%s < 0) return tk_fail(TK_ERR_ARG, \"%s: stride %d of %s = %%lld is negative\", (long long)%s);",
            c->hn->sname[i][j], kn, j, pn, c->hn->sname[i][j]);
    out(c, "if (tk_n%d > 0) {", i);
    out(c, "    int64_t tk_o = 0, tk_t;");
    Buf s = { .a = a };
    for (int j = 0; j < p->rank; j++)
        buf_printf(&s, "%s__builtin_mul_overflow((int64_t)%s - 1, %s, &tk_t) || __builtin_add_overflow(tk_o, tk_t, &tk_o)",
                   s.n ? " || " : "", dim_size(c, p, j), c->hn->sname[i][j]);
    out(c, "    if (%s || tk_o >= (int64_t)(PTRDIFF_MAX / sizeof(%s)))", s.s, stype);
    out(c, "        return tk_fail(TK_ERR_ARG, \"%s: %s is too large for its strides\");", kn, pn);
    out(c, "}");
}

static void closure(const TirKernel *k, int v, bool *need)
{
    if (v <= 0 || v >= k->instrs.n || need[v])
        return;
    need[v] = true;
    const Instr *in = k->instrs.v[v];
    for (int j = 0; j < in->nargs; j++)
        closure(k, in->args[j], need);
}

static char *head_val(CK *c, int v)
{
    const Instr *in = c->k->instrs.v[v];
    if (in->op == OP_CONST)
        return dtype_is_float(in->ty.dt) ? cx_lit_float(c->a, in->fval, in->ty.dt)
                                         : cx_lit_int(c->a, in->ival, in->ty.dt);
    return arena_printf(c->a, "tk_v%d", v);
}

/* The head's integer helpers are the header's tkh_* (targets/cuda/header.c). */
static const CxStyle host_style = { .hp = "tkh_" };

static void head_instr(CK *c, const Instr *in)
{
    Arena *a = c->a;
    const KernelInfo *ki = c->ki;
    char *x[3] = { 0 }, *val = NULL;
    switch (in->op) {
    case OP_CONST:
        return;
    case OP_DIM:
        if (in->index >= 0 && in->index < ki->ndims && !ki->dims[in->index].specialized)
            val = cx_conv(a, c->hn->dname[in->index], DT_I64, in->ty.dt, "tkh_");
        break;
    case OP_ARG:
        if (in->index >= 0 && in->index < ki->nparams && !ki->params[in->index].is_tensor) {
            DType pdt = ki->params[in->index].dt;
            val = cx_conv(a, cx_from_storage(a, c->hn->pname[in->index], pdt), pdt, in->ty.dt, "tkh_");
        }
        break;
    case OP_STRIDE:
        if (in->index >= 0 && in->index < ki->nparams && c->hn->sname[in->index]
            && in->axis >= 0 && in->axis < ki->params[in->index].rank)
            val = cx_conv(a, c->hn->sname[in->index][in->axis], DT_I64, in->ty.dt, "tkh_");
        break;
    default:
        if (in->ty.rank == 0 && (op_flags[in->op] & OPF_E)) {
            for (int j = 0; j < in->nargs; j++)
                if (in->args[j] > 0)
                    x[j] = head_val(c, in->args[j]);
            val = cx_op(a, c->k, in, x, &host_style);
        }
        break;
    }
    if (!val) {
        diag_error(c->d, in->span, "CUDA target: the grid and requires may use only dims, scalar "
                   "parameters and scalar arithmetic, not %s", op_name[in->op]);
        c->ok = false;
        return;
    }
    out(c, "const %s tk_v%d = %s;", cx_ctype(in->ty.dt), in->id, val);
}

static void check_requires(CK *c, const char *kn)
{
    Arena *a = c->a;
    const KernelInfo *ki = c->ki;
    for (int i = 0; i < c->k->requires.n; i++) {
        const TRequire *r = &c->k->requires.v[i];
        Buf f = { .a = a }, args = { .a = a };
        buf_puts(&f, "");
        buf_puts(&args, "");
        for (int d = 0; d < ki->ndims; d++)
            if (!ki->dims[d].specialized && r->text && has_word(r->text, ki->dims[d].name)) {
                buf_printf(&f, "%s%s = %%lld", f.n ? ", " : " (", fmt_text(a, ki->dims[d].name));
                buf_printf(&args, ", (long long)%s", c->hn->dname[d]);
            }
        if (f.n)
            buf_putc(&f, ')');
        out(c, "if (!(%s))", head_val(c, r->cond));
        out(c, "    return tk_fail(TK_ERR_REQUIRE, \"%s: require %s failed%s\"%s);", kn,
            fmt_text(a, r->text ? r->text : "condition"), f.s, args.s);
    }
}

bool cuda_emit_check(Buf *o, TirKernel *k, const HostNames *hn, Diag *d)
{
    CK c = { .k = k, .ki = k->info, .hn = hn, .a = k->arena, .o = o, .d = d, .ok = true };
    Arena *a = c.a;
    const KernelInfo *ki = c.ki;
    const char *kn = fmt_text(a, k->name);
    char *params = cuda_param_list(a, ki, hn, true);
    buf_printf(o, "#ifndef TKC_CHECK_%s\n#define TKC_CHECK_%s 1\n", k->name, k->name);
    buf_printf(o, "static TK_UNUSED tk_status %s__check(%s%sint64_t *tk_grid)\n{\n", k->name, params,
               *params ? ", " : "");
    for (int i = 0; i < ki->nparams; i++)
        if (!ki->params[i].is_tensor)
            out(&c, "(void)%s;", hn->pname[i]);
    for (int dd = 0; dd < ki->ndims; dd++)
        if (!ki->dims[dd].specialized)
            out(&c, "if (%s < 0) return tk_fail(TK_ERR_ARG, \"%s: dim %s = %%lld is negative\", (long long)%s);",
                hn->dname[dd], kn, fmt_text(a, ki->dims[dd].name), hn->dname[dd]);
    for (int i = 0; i < ki->nparams && c.ok; i++)
        if (ki->params[i].is_tensor)
            check_tensor(&c, i, kn);
    bool *need = arena_alloc(a, (size_t)k->instrs.n);
    for (int i = 0; i < k->ngrid; i++)
        closure(k, k->grid[i], need);
    for (int i = 0; i < k->requires.n; i++)
        closure(k, k->requires.v[i].cond, need);
    for (int i = 0; i < k->body->ins.n && c.ok; i++) {
        const Instr *in = k->instrs.v[k->body->ins.v[i]];
        if (need[in->id])
            head_instr(&c, in);
    }
    for (int v = 1; v < k->instrs.n && c.ok; v++)     /* every head value is in the body's top */
        if (need[v] && k->instrs.v[v]->parent != k->body) {
            diag_error(d, k->instrs.v[v]->span, "CUDA target: internal error: a head value inside a block");
            c.ok = false;
        }
    if (!c.ok)
        return false;
    check_requires(&c, kn);
    const char *g[3] = { "1", "1", "1" };
    for (int i = 0; i < k->ngrid && i < 3; i++)
        g[i] = head_val(&c, k->grid[i]);
    out(&c, "const int64_t tk_g0 = (int64_t)%s, tk_g1 = (int64_t)%s, tk_g2 = (int64_t)%s;", g[0], g[1], g[2]);
    out(&c, "if (tk_g0 < 0 || tk_g1 < 0 || tk_g2 < 0)");
    out(&c, "    return tk_fail(TK_ERR_ARG, \"%s: negative grid size (%%lld, %%lld, %%lld)\", (long long)tk_g0, (long long)tk_g1, (long long)tk_g2);", kn);
    out(&c, "int64_t tk_np;");
    out(&c, "if (__builtin_mul_overflow(tk_g0, tk_g1, &tk_np) || __builtin_mul_overflow(tk_np, tk_g2, &tk_np))");
    out(&c, "    return tk_fail(TK_ERR_ARG, \"%s: grid too large\");", kn);
    out(&c, "tk_grid[0] = tk_g0;");
    out(&c, "tk_grid[1] = tk_g1;");
    out(&c, "tk_grid[2] = tk_g2;");
    out(&c, "return TK_OK;");
    buf_printf(o, "}\n#endif\n\n");
    return c.ok;
}

char *cuda_extent(Arena *a, TirKernel *k, const HostNames *hn, int i)
{
    CK c = { .k = k, .ki = k->info, .hn = hn, .a = a, .ok = true };
    const ParamInfo *p = &k->info->params[i];
    Buf n = { .a = a }, x = { .a = a };
    buf_puts(&n, "(int64_t)1");
    buf_puts(&x, "(int64_t)1");
    for (int j = 0; j < p->rank; j++) {
        const char *size = dim_size(&c, p, j);
        buf_printf(&n, " * %s", size ? size : "0");
        if (p->strided && hn->sname[i])
            buf_printf(&x, " + ((int64_t)%s - 1) * %s", size ? size : "0", hn->sname[i][j]);
    }
    if (!p->strided)
        return n.s;
    return S("(%s == 0 ? (int64_t)0 : %s)", n.s, x.s);
}
