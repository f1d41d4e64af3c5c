/*
 * lower/pipeline.c — the pass list, flat.  `-d<passes>` (or --emit=tir)
 * prints the IR after the named passes; "(unchanged)" is not tracked, the
 * dump is cheap enough to diff.
 */
#include <string.h>

#include "tir.h"

typedef struct Pass { const char *name; void (*run)(TirKernel *); } Pass;

static const Pass passes[] = {
    {"fold", lower_fold},
    {"cse", lower_cse},
    {"dce", lower_dce},
    {"masks", lower_masks},
    {"fold", lower_fold},
    {"splat", lower_splat},
    {"cse", lower_cse},
    {"dce", lower_dce},
    {"licm", lower_licm},
    {"cse", lower_cse},
    {"dce", lower_dce},
};

static bool wanted(const char *dump, const char *name)
{
    if (!dump)
        return false;
    if (strcmp(dump, "all") == 0)
        return true;
    size_t n = strlen(name);
    for (const char *p = dump; (p = strstr(p, name)); p += n)
        if ((p == dump || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
            return true;
    return false;
}

/* TKC_LOGS=masks / perf_hints: what is left of each load's and store's checks. */
static void report_mask(TirKernel *k, Instr *in, void *ctx)
{
    (void)ctx;
    if (in->op != OP_LOAD && in->op != OP_STORE)
        return;
    int mask = in->op == OP_LOAD ? in->args[1] : in->args[2], line = 0, col = 0;
    const char *what = in->op == OP_LOAD ? "load from" : "store to";
    const char *t = k->info->params[in->index].name, *path = in->span.src ? in->span.src->path : "?";
    span_linecol(in->span, &line, &col);
    if (!mask) {
        tir_log("masks", "%s:%d:%d: %s: %s %s: no bound check left", path, line, col, k->name, what, t);
        return;
    }
    tir_log("masks", "%s:%d:%d: %s: %s %s keeps a mask", path, line, col, k->name, what, t);
    tir_log("perf_hints", "%s:%d:%d: %s: the %s %s is masked; specializing its dims (-D N=...) or "
            "`require N %% BLOCK == 0` with grid(cdiv(N, BLOCK)) or range(0, N, BLOCK) lets tkc drop "
            "the bound check", path, line, col, k->name, what, t);
}

void tir_optimize(TirKernel *k, const char *dump, FILE *log)
{
    if (wanted(dump, "lower")) {
        fprintf(log, "// after lower\n");
        tir_print(log, k);
    }
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++) {
        passes[i].run(k);
        if (wanted(dump, passes[i].name)) {
            fprintf(log, "// after %s\n", passes[i].name);
            tir_print(log, k);
        }
    }
    tir_walk(k, k->body, report_mask, NULL);
}
