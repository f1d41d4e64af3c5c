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
}
