/*
 * tests/robust/gen_driver.c — print a launcher test for every kernel of a
 * .tk file: `gen_driver FILE.tk HEADER.h > driver.c`.
 *
 * Linked against the compiler's objects (like tests/unit), it runs the
 * front end and reads each kernel's signature from sema's KernelInfo, the
 * description the C target prints its entry points from: tensors and
 * scalars in order, then the run-time dims, then each strided tensor's
 * strides.  The driver it prints describes each kernel as a TlKernel and
 * hands it to tests/robust/launch.h, which does the testing.  Scalars get
 * a fixed value (0.5, 1, true); const parameters their defaults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/lang.h"
#include "sema/sema.h"

/* How launch.h fills a tensor of this dtype, and its DLPack code. */
static int fill_of(DType dt)
{
    if (dt == DT_F16) return 1;
    if (dt == DT_BF16) return 2;
    if (dt == DT_BOOL) return 4;
    return dtype_is_float(dt) ? 0 : 3;
}

static int dl_code(DType dt)
{
    if (dt == DT_BOOL) return 6;
    if (dt == DT_U8 || dt == DT_U32) return 1;
    if (dt == DT_BF16) return 4;
    return dtype_is_float(dt) ? 2 : 0;
}

static const char *scalar(DType dt)
{
    if (dt == DT_F16) return "tk_f32_to_f16(0.5f)";
    if (dt == DT_BF16) return "tk_f32_to_bf16(0.5f)";
    if (dt == DT_BOOL) return "true";
    return dtype_is_float(dt) ? "0.5" : "1";
}

/* Only kernels whose shapes are all known: every const has a value. */
static bool printable(const KernelInfo *k, int64_t *cv)
{
    for (int i = 0; i < k->nconsts; i++) {
        if (!k->consts[i].has_value)
            return false;
        cv[i] = k->consts[i].ival;
    }
    int nt = 0;
    for (int i = 0; i < k->nparams; i++)
        nt += k->params[i].is_tensor;
    return nt > 0 && nt <= 16 && k->ndims <= 16;
}

static void print_call(const KernelInfo *k)
{
    printf("static tk_status call_%s(void **p, const int64_t *d, const int64_t *const *st)\n{\n"
           "    (void)d, (void)st;\n    return %s(", k->name, k->name);
    const char *sep = "";
    int t = 0;
    for (int i = 0; i < k->nparams; i++, sep = ", ") {
        if (k->params[i].is_tensor)
            printf("%sp[%d]", sep, t++);
        else
            printf("%s%s", sep, scalar(k->params[i].dt));
    }
    for (int j = 0; j < k->ndims; j++, sep = ", ")
        if (!k->dims[j].specialized)
            printf("%sd[%d]", sep, j);
    t = 0;
    for (int i = 0; i < k->nparams; i++) {
        const ParamInfo *p = &k->params[i];
        for (int r = 0; p->is_tensor && p->strided && r < p->rank; r++, sep = ", ")
            printf("%sst[%d][%d]", sep, t, r);
        t += p->is_tensor;
    }
    printf(");\n}\n\n");
    printf("static tk_status dl_%s(DLTensor **t)\n{\n    (void)t;\n    return %s_dl(", k->name, k->name);
    sep = "", t = 0;
    for (int i = 0; i < k->nparams; i++, sep = ", ") {
        if (k->params[i].is_tensor)
            printf("%st[%d]", sep, t++);
        else
            printf("%s%s", sep, scalar(k->params[i].dt));
    }
    printf(");\n}\n\n");
}

static void print_desc(const KernelInfo *k, const int64_t *cv)
{
    printf("static const TlKernel tl_%s = {\n    \"%s\", ", k->name, k->name);
    int nt = 0;
    for (int i = 0; i < k->nparams; i++)
        nt += k->params[i].is_tensor;
    printf("%d, %d,\n    {\n", nt, k->ndims);
    Buf stored = { .a = arena_new() };
    buf_puts(&stored, "");
    for (int i = 0; i < k->nparams; i++) {
        const ParamInfo *p = &k->params[i];
        if (!p->is_tensor)
            continue;
        printf("        { \"%s\", %d, %d, %d, %d, %d, {", p->name, dtype_info[p->dt].bits / 8 ? dtype_info[p->dt].bits / 8 : 1,
               fill_of(p->dt), dl_code(p->dt), dtype_info[p->dt].bits, p->rank);
        for (int r = 0; r < p->rank; r++)
            printf("%s%d", r ? ", " : "", p->dims[r].dim);
        printf("}, {");
        for (int r = 0; r < p->rank; r++) {
            int64_t v = 0;
            if (p->dims[r].dim < 0 && !sym_eval(p->dims[r].size, cv, k->nconsts, &v))
                v = 0;
            printf("%s%lld", r ? ", " : "", (long long)v);
        }
        printf("} },\n");
        buf_printf(&stored, "%s%d", stored.n ? ", " : "", p->stored);
    }
    printf("    },\n    {");
    for (int j = 0; j < k->ndims; j++)
        printf("%s\"%s\"", j ? ", " : "", k->dims[j].name);
    printf("%s},\n    {", k->ndims ? "" : "0");
    for (int j = 0; j < k->ndims; j++)
        printf("%s%lld", j ? ", " : "", k->dims[j].specialized ? (long long)k->dims[j].value : -1LL);
    printf("%s},\n    call_%s, dl_%s\n};\n", k->ndims ? "" : "0", k->name, k->name);
    printf("static const int stored_%s[] = {%s};\n\n", k->name, stored.s);
    arena_free(stored.a);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_driver FILE.tk HEADER.h [tkc flags: -D NAME=VALUE ...]\n");
        return 2;
    }
    Arena *a = arena_new();
    Vec(Define) defs = {0};
    for (int i = 3; i < argc; i++) {        /* -D as tkc had it; other flags ignored */
        const char *v = !strcmp(argv[i], "-D") && i + 1 < argc ? argv[++i]
                        : !strncmp(argv[i], "-D", 2) ? argv[i] + 2 : NULL;
        const char *eq = v ? strchr(v, '=') : NULL;
        if (eq) {
            Define def = { arena_strndup(a, v, (size_t)(eq - v)), eq + 1, false };
            vec_push(a, defs, def);
        }
    }
    Diag d;
    diag_init(&d, stderr);
    const char *search[] = { "." };
    Program *p = program_load(a, argv[1], search, 1, &d);
    if (!p || d.nerrors)
        return 1;
    SemaResult *s = sema_check(p, defs.v, defs.n, sema_arch_of(NULL), &d);
    if (d.nerrors)
        return 1;
    printf("/* Generated by tests/robust/gen_driver from %s. */\n", argv[1]);
    printf("#define TKC_DLPACK 1\n#include \"%s\"\n#include \"launch.h\"\n\n", argv[2]);
    Vec(KernelInfo *) ks = {0};
    for (int i = 0; i < s->nkernels; i++) {
        KernelInfo *k = s->kernels[i];
        int64_t *cv = arena_alloc(a, sizeof(int64_t) * (size_t)(k->nconsts + 1));
        if (!k->in_main || !printable(k, cv))
            continue;
        print_call(k);
        print_desc(k, cv);
        vec_push(a, ks, k);
    }
    printf("int main(void)\n{\n");
    for (int i = 0; i < ks.n; i++)
        printf("    tl_kernel(&tl_%s, stored_%s);\n", ks.v[i]->name, ks.v[i]->name);
    printf("    return tl_done();\n}\n");
    arena_free(a);
    return 0;
}
