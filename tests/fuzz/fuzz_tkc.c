/*
 * tests/fuzz/fuzz_tkc.c — libFuzzer target over the whole compiler short of
 * the command line: source text -> parse (+ imports) -> sema -> per kernel
 * lower and optimize -> TIR printer, C header, CUDA C text (no NVRTC) -> all
 * output thrown away.
 *
 * The loader reads files, so each input is written to a file of its own in
 * a private temporary folder (imports resolve next to it, then in the
 * current folder: run from the source tree, `import "stdlib/nn.tk"` works).
 * One arena per input, freed at the end, so nothing accumulates between
 * inputs; diagnostics go to /dev/null.  `make fuzz` builds and runs it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/lang.h"
#include "parser/parse.h"
#include "sema/sema.h"
#include "lower/tir.h"
#include "targets/target.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    char dir[] = "/tmp/tkc-fuzz-XXXXXX";
    if (!mkdtemp(dir) || !(sink = fopen("/dev/null", "w"))) {
        perror("fuzz_tkc");
        exit(2);
    }
    snprintf(path, sizeof path, "%s/in.tk", dir);
    return 0;
}

static bool write_input(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* As the driver does it: each kernel at its const parameters' defaults. */
static void lower_all(Arena *a, SemaResult *s, Diag *d)
{
    Vec(TirKernel *) ks = {0};
    for (int i = 0; i < s->nkernels; i++) {
        const KernelInfo *k = s->kernels[i];
        int64_t *cv = arena_alloc(a, sizeof(int64_t) * (size_t)(k->nconsts + 1));
        double *fv = arena_alloc(a, sizeof(double) * (size_t)(k->nconsts + 1));
        for (int j = 0; j < k->nconsts; j++) {
            cv[j] = k->consts[j].ival;
            fv[j] = k->consts[j].fval;
        }
        TirKernel *t = tir_lower(k, cv, fv, a, d);
        if (!t)
            continue;
        tir_optimize(t, NULL, NULL);
        tir_print(sink, t);
        vec_push(a, ks, t);
    }
    if (d->nerrors || ks.n == 0)
        return;
    const Target *c = &target_c;
    TargetOptions to = {.source = path, .guard = "TKC_FUZZ_H"};
    target_emit_header(sink, &c, 1, ks.v, ks.n, &to, d);
    cuda_emit_text(sink, "cuda", ks.v, ks.n, &to, d);   /* the CUDA C: no NVRTC */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!write_input(data, size))
        return 0;
    Arena *a = arena_new();
    Diag d;
    diag_init(&d, sink);
    const char *search[] = { "." };
    Program *p = program_load(a, path, search, 1, &d);
    if (p && !d.nerrors) {
        ast_print(sink, p->files[0]);
        SemaResult *s = sema_check(p, NULL, 0, sema_arch_of(NULL), &d);
        if (!d.nerrors)
            lower_all(a, s, &d);
    }
    arena_free(a);
    return 0;
}
