/*
 * lower/pass.c — what the passes share: walking blocks, applying a
 * replacement map, finding a value's definition through views, and the
 * TKC_LOGS logger.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tir.h"

void tir_walk(TirKernel *k, TBlock *b, TirVisit f, void *ctx)
{
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = k->instrs.v[b->ins.v[i]];
        f(k, in, ctx);
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                tir_walk(k, in->blocks[j], f, ctx);
    }
}

int tir_resolve(const int *repl, int v)
{
    while (v && repl[v])
        v = repl[v];
    return v;
}

static void apply_one(TirKernel *k, Instr *in, void *ctx)
{
    (void)k;
    for (int i = 0; i < in->nargs; i++)
        in->args[i] = tir_resolve(ctx, in->args[i]);
}

void tir_apply_repl(TirKernel *k, const int *repl)
{
    tir_walk(k, k->body, apply_one, (void *)repl);
    for (int i = 0; i < k->ngrid; i++)
        k->grid[i] = tir_resolve(repl, k->grid[i]);
    for (int i = 0; i < k->requires.n; i++)
        k->requires.v[i].cond = tir_resolve(repl, k->requires.v[i].cond);
}

Instr *tir_new_before(TirKernel *k, Instr *pos, Op op, TTy ty)
{
    TBlock *b = pos->parent;
    Instr *in = tir_new(k, b, op, ty);   /* appended; move it before pos */
    int at = 0;
    while (b->ins.v[at] != pos->id)
        at++;
    memmove(b->ins.v + at + 1, b->ins.v + at, sizeof(int) * (size_t)(b->ins.n - 1 - at));
    b->ins.v[at] = in->id;
    in->span = pos->span;
    return in;
}

Instr *tir_def(const TirKernel *k, int v) { return v > 0 && v < k->instrs.n ? k->instrs.v[v] : NULL; }

static bool is_view(Op op)
{
    return op == OP_BROADCAST || op == OP_RESHAPE || op == OP_TRANS || op == OP_EXPAND_DIMS;
}

Instr *tir_source(const TirKernel *k, int v)
{
    Instr *in = tir_def(k, v);
    while (in && is_view(in->op))
        in = tir_def(k, in->args[0]);
    return in;
}

bool tir_splat_const(const TirKernel *k, int v, int64_t *iv, double *fv)
{
    Instr *in = tir_source(k, v);
    if (!in || in->op != OP_CONST)
        return false;
    if (iv)
        *iv = in->ival;
    if (fv)
        *fv = in->fval;
    return true;
}

/* TKC_LOGS=masks,autotune,... (or "all") selects topics printed to stderr. */
void tir_log(const char *topic, const char *fmt, ...)
{
    const char *want = getenv("TKC_LOGS");
    if (!want)
        return;
    size_t n = strlen(topic);
    bool on = strcmp(want, "all") == 0;
    for (const char *p = want; !on && (p = strstr(p, topic)); p += n)
        on = (p == want || p[-1] == ',') && (p[n] == 0 || p[n] == ',');
    if (!on)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "[%s] ", topic);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
