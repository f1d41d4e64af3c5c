/*
 * targets/cuda/check.c — a kernel's argument checks and head, as one host
 * function:
 *
 *   static tk_status NAME__check(<the C entry point's params>, int64_t tk_grid[3])
 *
 * It rejects what the C target's entry point rejects, with the same
 * messages (negative dims, NULL or oversized tensors, bad strides, failed
 * requires, bad grids: targets/args.c prints them for both), then stores
 * the grid.  The CUDA launchers call it;
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

/* A head value: a literal, or the tk_vN that head_instr printed. */
static char *head_val(void *ctx, int v)
{
    CK *c = ctx;
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

bool cuda_emit_check(Buf *o, TirKernel *k, const HostNames *hn, Diag *d)
{
    CK c = { .k = k, .ki = k->info, .hn = hn, .a = k->arena, .o = o, .d = d, .ok = true };
    ArgCheck ac = { .o = o, .indent = 1, .k = k, .hn = *hn, .name = k->name, .target = "CUDA",
                    .d = d, .value = head_val, .ctx = &c };
    Arena *a = c.a;
    const KernelInfo *ki = c.ki;
    char *params = args_list(a, ki, hn, true, false);
    buf_printf(o, "#ifndef TKC_CHECK_%s\n#define TKC_CHECK_%s 1\n", k->name, k->name);
    buf_printf(o, "static TK_UNUSED tk_status %s__check(%s%sint64_t *tk_grid)\n{\n", k->name, params,
               *params ? ", " : "");
    for (int i = 0; i < ki->nparams; i++)
        if (!ki->params[i].is_tensor)
            out(&c, "(void)%s;", hn->pname[i]);
    if (!args_check(&ac))
        return false;
    bool *need = arena_alloc(a, (size_t)k->instrs.n);
    args_need(k, need);
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
    args_head(&ac);
    out(&c, "tk_grid[0] = tk_g0;");
    out(&c, "tk_grid[1] = tk_g1;");
    out(&c, "tk_grid[2] = tk_g2;");
    out(&c, "return TK_OK;");
    buf_printf(o, "}\n#endif\n\n");
    return true;
}

bool cuda_emit_version(Buf *o, TirKernel *k, const HostNames *hn, const TirVersions *v, Diag *d)
{
    CK c = { .k = k, .ki = k->info, .hn = hn, .a = k->arena, .o = o, .d = d, .ok = true };
    Arena *a = c.a;
    const KernelInfo *ki = c.ki;
    char *params = args_list(a, ki, hn, true, false);
    buf_printf(o, "/* %s's version for these arguments: j where of its top-level ifs whose\n"
                  " * conditions are computed here only version j's holds, else 0, the whole\n"
                  " * kernel (tkc's lower/version.c) */\n", k->name);
    buf_printf(o, "static TK_UNUSED int %s__version(%s)\n{\n", k->name, *params ? params : "void");
    for (int i = 0; i < ki->nparams; i++) {
        out(&c, "(void)%s;", hn->pname[i]);
        for (int j = 0; hn->sname[i] && j < ki->params[i].rank; j++)
            out(&c, "(void)%s;", hn->sname[i][j]);
    }
    for (int i = 0; i < ki->ndims; i++)
        if (!ki->dims[i].specialized)
            out(&c, "(void)%s;", hn->dname[i]);
    bool *need = arena_alloc(a, (size_t)k->instrs.n);
    for (int j = 0; j < v->ncond; j++)
        args_need_value(k, v->cond[j], need);
    for (int i = 0; i < k->body->ins.n && c.ok; i++) {
        const Instr *in = k->instrs.v[k->body->ins.v[i]];
        if (need[in->id])
            head_instr(&c, in);
    }
    if (!c.ok)
        return false;
    out(&c, "int tk_n = 0, tk_j = 0;");
    for (int j = 0; j < v->ncond; j++) {
        if (v->ver[j])
            out(&c, "if (%s)\n        tk_n++, tk_j = %d;", head_val(&c, v->cond[j]), v->ver[j]);
        else
            out(&c, "if (%s)\n        tk_n++;", head_val(&c, v->cond[j]));
    }
    out(&c, "return tk_n == 1 ? tk_j : 0;");
    buf_printf(o, "}\n\n");
    return true;
}

char *cuda_extent(Arena *a, TirKernel *k, const HostNames *hn, int i)
{
    const ParamInfo *p = &k->info->params[i];
    Buf n = { .a = a }, x = { .a = a };
    buf_puts(&n, "(int64_t)1");
    buf_puts(&x, "(int64_t)1");
    for (int j = 0; j < p->rank; j++) {
        const char *size = args_dim(a, k, hn, i, j);
        buf_printf(&n, " * %s", size ? size : "0");
        if (p->strided && hn->sname[i])
            buf_printf(&x, " + ((int64_t)%s - 1) * %s", size ? size : "0", hn->sname[i][j]);
    }
    if (!p->strided)
        return n.s;
    return S("(%s == 0 ? (int64_t)0 : %s)", n.s, x.s);
}
