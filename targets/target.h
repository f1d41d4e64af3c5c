/*
 * targets/target.h — what every target implements: print a header for a
 * list of lowered kernels.  Targets are chosen by name from a table in
 * targets/target.c (`--target=c`, later `cuda`, `nvptx`).
 */
#ifndef TKC_TARGET_H
#define TKC_TARGET_H

#include "../lower/tir.h"

typedef struct TargetOptions {
    const char *source;        /* the .tk path, for the header's comment */
    const char *guard;         /* include-guard macro name */
} TargetOptions;

typedef struct Target {
    const char *name;
    /* The body of the header for these kernels (entry points and what they
     * need), without the include guard; returns false after reporting an
     * error to d. */
    bool (*emit)(Buf *out, TirKernel **kernels, int n, const TargetOptions *o, Diag *d);
} Target;

const Target *target_find(const char *name);
/* The whole header: banner, guard, prelude, every target's code. */
bool target_emit_header(FILE *out, const Target **targets, int ntargets,
                        TirKernel **kernels, int n, const TargetOptions *o, Diag *d);

extern const Target target_c;

#endif
