/*
 * targets/args.c — what an entry point does before it runs a kernel, printed
 * once for every target: the parameter list and the argument checks.
 *
 * The C target's NAME and the CUDA target's NAME__check reject the same
 * arguments with the same messages (tk_fail): negative dims, tensors whose
 * size overflows or that are NULL, negative strides or strides that reach
 * past PTRDIFF_MAX, failed requires, negative or overflowing grids.  Each
 * target prints its own head values (the scalar arithmetic the grid and
 * requires need) between args_check and args_head, and gives args_head
 * their names through ArgCheck.value.
 */
#include <string.h>

#include "target.h"

#define S(...) arena_printf(a, __VA_ARGS__)

char *args_list(Arena *a, const KernelInfo *ki, const HostNames *hn, bool decl, bool restrict_)
{
    Buf b = { .a = a };
    buf_puts(&b, "");
    const char *sep = "";
    for (int i = 0; i < ki->nparams; i++, sep = ", ") {
        const ParamInfo *p = &ki->params[i];
        buf_puts(&b, sep);
        if (decl && p->is_tensor)
            buf_printf(&b, "%s%s *%s", p->stored ? "" : "const ", dtype_info[p->dt].c_storage,
                       restrict_ ? "restrict " : "");
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

char *args_str(Arena *a, const char *s)
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

/* ------------------------------------------------------------ sizes */

/* Dim j of tensor p as a C expression; NULL when it has no value, or a
 * negative one (then *neg is set to it). */
static char *dim_expr(Arena *a, const TirKernel *k, const HostNames *hn, const ParamInfo *p, int j,
                      int64_t *neg)
{
    const KernelInfo *ki = k->info;
    int dim = p->dims[j].dim;
    int64_t v = 0;
    if (dim >= 0 && !ki->dims[dim].specialized)
        return (char *)hn->dname[dim];
    if (dim >= 0)
        return S("INT64_C(%lld)", (long long)ki->dims[dim].value);
    if (!p->dims[j].size || !sym_eval(p->dims[j].size, k->cvals, ki->nconsts, &v))
        return NULL;
    if (v < 0) {
        *neg = v;
        return NULL;
    }
    return S("INT64_C(%lld)", (long long)v);
}

char *args_dim(Arena *a, const TirKernel *k, const HostNames *hn, int param, int j)
{
    int64_t neg = 0;
    return dim_expr(a, k, hn, &k->info->params[param], j, &neg);
}

#define LINE(c, depth, ...) buf_linef((c)->o, (c)->indent + (depth), __VA_ARGS__)

/* tk_nI, the element count of tensor i, and the checks on its pointer and
 * strides; false after reporting a dim without a value. */
static bool check_tensor(const ArgCheck *c, int i, const char *kn)
{
    Arena *a = c->k->arena;
    const ParamInfo *p = &c->k->info->params[i];
    const char *pn = args_str(a, p->name), *stype = dtype_info[p->dt].c_storage;
    const char **size = arena_alloc(a, sizeof(char *) * (size_t)(p->rank + 1));
    LINE(c, 0, "int64_t tk_n%d = 1;", i);
    Buf b = { .a = a };
    buf_puts(&b, "");
    for (int j = 0; j < p->rank; j++) {
        int64_t neg = 0;
        size[j] = dim_expr(a, c->k, &c->hn, p, j, &neg);
        if (!size[j] && neg < 0)
            diag_error(c->d, p->span, "%s target: dim %d of %s is negative (%lld)", c->target, j, p->name,
                       (long long)neg);
        else if (!size[j])
            diag_error(c->d, p->span, "%s target: cannot evaluate the size of dim %d of %s", c->target, j,
                       p->name);
        if (!size[j])
            return false;
        buf_printf(&b, "%s__builtin_mul_overflow(tk_n%d, (int64_t)%s, &tk_n%d)", b.n ? " || " : "", i,
                   size[j], i);
    }
    if (!p->strided)
        buf_printf(&b, "%stk_n%d > (int64_t)(PTRDIFF_MAX / sizeof(%s))", b.n ? " || " : "", i, stype);
    if (b.n)
        LINE(c, 0, "if (%s) return tk_fail(TK_ERR_ARG, \"%s: %s is too large\");", b.s, kn, pn);
    LINE(c, 0, "if (tk_n%d > 0 && !%s) return tk_fail(TK_ERR_ARG, \"%s: %s is NULL\");", i,
         c->hn.pname[i], kn, pn);
    const char **sn = c->hn.sname[i];
    if (!p->strided || !sn)
        return true;
    for (int j = 0; j < p->rank; j++)
        LINE(c, 0, "if (%s < 0) return tk_fail(TK_ERR_ARG, \"%s: stride %d of %s = %%lld is negative\", "
             "(long long)%s);", sn[j], kn, j, pn, sn[j]);
    LINE(c, 0, "if (tk_n%d > 0) {", i);
    LINE(c, 1, "int64_t tk_o = 0, tk_t;");
    Buf s = { .a = a };
    for (int j = 0; j < p->rank; j++)
        buf_printf(&s, "%s__builtin_mul_overflow((int64_t)%s - 1, %s, &tk_t) || "
                   "__builtin_add_overflow(tk_o, tk_t, &tk_o)", s.n ? " || " : "", size[j], sn[j]);
    LINE(c, 1, "if (%s || tk_o >= (int64_t)(PTRDIFF_MAX / sizeof(%s)))", s.s, stype);
    LINE(c, 1, "    return tk_fail(TK_ERR_ARG, \"%s: %s is too large for its strides\");", kn, pn);
    LINE(c, 0, "}");
    return true;
}

bool args_check(const ArgCheck *c)
{
    Arena *a = c->k->arena;
    const KernelInfo *ki = c->k->info;
    const char *kn = args_str(a, c->name);
    for (int d = 0; d < ki->ndims; d++) {
        if (ki->dims[d].specialized)
            continue;
        const char *dn = c->hn.dname[d], *name = args_str(a, ki->dims[d].name);
        LINE(c, 0, "if (%s < 0) return tk_fail(TK_ERR_ARG, \"%s: dim %s = %%lld is negative\", "
             "(long long)%s);", dn, kn, name, dn);
        if (c->dim_limit)
            LINE(c, 0, "if (%s > INT64_C(0x4000000000000000)) return tk_fail(TK_ERR_ARG, \"%s: dim %s = "
                 "%%lld is too large (limit 2^62)\", (long long)%s);", dn, kn, name, dn);
    }
    for (int i = 0; i < ki->nparams; i++)
        if (ki->params[i].is_tensor && !check_tensor(c, i, kn))
            return false;
    return true;
}

/* ------------------------------------------------------------ head */

void args_need_value(const TirKernel *k, int v, bool *need)
{
    if (v <= 0 || v >= k->instrs.n || need[v])
        return;
    need[v] = true;
    const Instr *in = k->instrs.v[v];
    for (int j = 0; j < in->nargs; j++)
        args_need_value(k, in->args[j], need);
}

void args_need(const TirKernel *k, bool *need)
{
    for (int i = 0; i < k->ngrid; i++)
        args_need_value(k, k->grid[i], need);
    for (int i = 0; i < k->requires.n; i++)
        args_need_value(k, k->requires.v[i].cond, need);
}

static bool is_word_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* Does w stand in text as a whole word? */
static bool has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = text; p && (p = strstr(p, w)); p += n)
        if ((p == text || !is_word_char(p[-1])) && !is_word_char(p[n]))
            return true;
    return false;
}

/* A failed require names it and the values of the dims its text mentions. */
static void check_require(const ArgCheck *c, const TRequire *r, const char *kn)
{
    Arena *a = c->k->arena;
    const KernelInfo *ki = c->k->info;
    Buf f = { .a = a }, args = { .a = a };
    buf_puts(&f, "");
    buf_puts(&args, "");
    for (int d = 0; d < ki->ndims; d++)
        if (!ki->dims[d].specialized && r->text && has_word(r->text, ki->dims[d].name)) {
            buf_printf(&f, "%s%s = %%lld", f.n ? ", " : " (", args_str(a, ki->dims[d].name));
            buf_printf(&args, ", (long long)%s", c->hn.dname[d]);
        }
    if (f.n)
        buf_putc(&f, ')');
    LINE(c, 0, "if (!(%s))", c->value(c->ctx, r->cond));
    LINE(c, 0, "    return tk_fail(TK_ERR_REQUIRE, \"%s: require %s failed%s\"%s);", kn,
         args_str(a, r->text ? r->text : "condition"), f.s, args.s);
}

void args_head(const ArgCheck *c)
{
    const TirKernel *k = c->k;
    const char *kn = args_str(k->arena, c->name);
    for (int i = 0; i < k->requires.n; i++)
        check_require(c, &k->requires.v[i], kn);
    const char *g[3] = { "1", "1", "1" };
    for (int i = 0; i < k->ngrid && i < 3; i++)
        g[i] = c->value(c->ctx, k->grid[i]);
    LINE(c, 0, "const int64_t tk_g0 = (int64_t)%s, tk_g1 = (int64_t)%s, tk_g2 = (int64_t)%s;", g[0], g[1], g[2]);
    LINE(c, 0, "if (tk_g0 < 0 || tk_g1 < 0 || tk_g2 < 0)");
    LINE(c, 0, "    return tk_fail(TK_ERR_ARG, \"%s: negative grid size (%%lld, %%lld, %%lld)\", "
         "(long long)tk_g0, (long long)tk_g1, (long long)tk_g2);", kn);
    LINE(c, 0, "int64_t tk_np;");
    LINE(c, 0, "if (__builtin_mul_overflow(tk_g0, tk_g1, &tk_np) || __builtin_mul_overflow(tk_np, tk_g2, &tk_np))");
    LINE(c, 0, "    return tk_fail(TK_ERR_ARG, \"%s: grid too large\");", kn);
}

/* ------------------------------------------------------------ dispatch */

void args_dispatch(Buf *o, const TargetDispatch *t, const HostNames *hn, const char *suffix,
                   const char *extra_decl, const char *extra_args)
{
    const TirKernel *k0 = t->variants[0];
    const KernelInfo *ki = k0->info;
    Arena *a = k0->arena;
    char *decl = args_list(a, ki, hn, true, false), *args = args_list(a, ki, hn, false, false);
    const char *dsep = *decl && *extra_decl ? ", " : "", *asep = *args && *extra_args ? ", " : "";
    Buf x = { .a = a };
    buf_puts(&x, "");
    int nd = 0;
    for (int d = 0; d < ki->ndims; d++)
        if (!ki->dims[d].specialized)
            buf_printf(&x, "%s(double)%s", nd++ ? ", " : "", hn->dname[d]);
    buf_linef(o, 0, "static TK_UNUSED tk_status %s%s(%s%s%s)", t->name, suffix, decl, dsep, extra_decl);
    buf_linef(o, 0, "{");
    buf_linef(o, 1, "const double tk_x[%d] = {%s};", nd, x.s);
    buf_linef(o, 1, "static const double tk_t[%d][%d] = {", t->ncases, nd);
    for (int c = 0; c < t->ncases; c++) {
        Buf r = { .a = a };
        buf_puts(&r, "");
        for (int d = 0; d < ki->ndims; d++)
            if (!ki->dims[d].specialized)
                buf_printf(&r, "%s%lld.0", r.n ? ", " : "", (long long)t->shapes[c * ki->ndims + d]);
        buf_linef(o, 1, "    {%s},", r.s);
    }
    buf_linef(o, 1, "};");
    buf_linef(o, 1, "int tk_c = 0;");
    buf_linef(o, 1, "double tk_best = -1;");
    buf_linef(o, 1, "for (int tk_i = 0; tk_i < %d; tk_i++) {", t->ncases);
    buf_linef(o, 1, "    double tk_dist = 0;");
    buf_linef(o, 1, "    for (int tk_j = 0; tk_j < %d; tk_j++) {", nd);
    buf_linef(o, 1, "        double tk_a = tk_x[tk_j], tk_b = tk_t[tk_i][tk_j], tk_m = tk_a > tk_b ? tk_a : tk_b;");
    buf_linef(o, 1, "        tk_dist += tk_m > 0 ? (tk_a > tk_b ? tk_a - tk_b : tk_b - tk_a) / tk_m : 0;");
    buf_linef(o, 1, "    }");
    buf_linef(o, 1, "    if (tk_best < 0 || tk_dist < tk_best)");
    buf_linef(o, 1, "        tk_best = tk_dist, tk_c = tk_i;");
    buf_linef(o, 1, "}");
    buf_linef(o, 1, "tk_status tk_r = TK_OK;");
    buf_linef(o, 1, "switch (tk_c) {");
    for (int c = 0; c < t->ncases; c++)
        buf_linef(o, 1, "case %d: tk_r = %s%s(%s%s%s); break;", c, t->variants[t->cases[c]]->name, suffix,
                  args, asep, extra_args);
    buf_linef(o, 1, "}");
    if (t->fallback >= 0) {
        buf_linef(o, 1, "if (tk_r == TK_ERR_REQUIRE && tk_best > 0)");
        buf_linef(o, 1, "    tk_r = %s%s(%s%s%s);", t->variants[t->fallback]->name, suffix, args, asep,
                  extra_args);
    }
    buf_linef(o, 1, "return tk_r;");
    buf_linef(o, 0, "}");
    buf_linef(o, 0, "%s", "");
}

bool args_dispatched(const TirKernel *k, const TargetOptions *o)
{
    for (int i = 0; o && i < o->ndispatch; i++)
        for (int j = 0; j < o->dispatch[i].nvariants; j++)
            if (o->dispatch[i].variants[j] == k)
                return true;
    return false;
}
