/*
 * tests/unit/c_emit_test.h — building tile IR by hand for the C target's
 * unit tests (c_emit_*.c).  Each test builds kernels with tir_new, prints a
 * header with target_emit_header, compiles a small driver that includes it
 * with gcc and clang (-Wall -Wextra -Werror, with and without -fopenmp) and
 * runs it; main returns 0 when every driver passed.
 */
#ifndef C_EMIT_TEST_H
#define C_EMIT_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower/tir.h"
#include "targets/target.h"

typedef struct TB {
    TirKernel *k;
    TBlock *b;                 /* where new instructions go */
} TB;

static TTy T0(DType dt) { TTy t = { .dt = dt }; return t; }
static TTy T1(DType dt, int64_t a) { TTy t = { .dt = dt, .rank = 1, .dim = { a } }; return t; }
static TTy T2(DType dt, int64_t a, int64_t b) { TTy t = { .dt = dt, .rank = 2, .dim = { a, b } }; return t; }

static int ins(TB *t, Op op, TTy ty, int a0, int a1, int a2)
{
    Instr *in = tir_new(t->k, t->b, op, ty);
    in->args[0] = a0, in->args[1] = a1, in->args[2] = a2;
    return in->id;
}
static Instr *I_(TB *t, int v) { return t->k->instrs.v[v]; }
static int kconst_i(TB *t, DType dt, int64_t v) { int id = ins(t, OP_CONST, T0(dt), 0, 0, 0); I_(t, id)->ival = v; return id; }
static int kconst_f(TB *t, DType dt, double v) { int id = ins(t, OP_CONST, T0(dt), 0, 0, 0); I_(t, id)->fval = v; return id; }
static int kdim(TB *t, int d) { int id = ins(t, OP_DIM, T0(DT_I64), 0, 0, 0); I_(t, id)->index = d; return id; }
static int karg(TB *t, DType dt, int p) { int id = ins(t, OP_ARG, T0(dt), 0, 0, 0); I_(t, id)->index = p; return id; }
static int kpid(TB *t, int axis) { int id = ins(t, OP_PROGRAM_ID, T0(DT_I32), 0, 0, 0); I_(t, id)->axis = axis; return id; }
static int karange(TB *t, int64_t n, int64_t start) { int id = ins(t, OP_ARANGE, T1(DT_I32, n), 0, 0, 0); I_(t, id)->ival = start; return id; }
static int kbin(TB *t, Op op, TTy ty, int a, int b) { return ins(t, op, ty, a, b, 0); }
static int kun(TB *t, Op op, TTy ty, int a) { return ins(t, op, ty, a, 0, 0); }
static int kbcast(TB *t, TTy ty, int a) { return ins(t, OP_BROADCAST, ty, a, 0, 0); }
static int kexpand(TB *t, TTy ty, int a, int axis) { int id = ins(t, OP_EXPAND_DIMS, ty, a, 0, 0); I_(t, id)->axis = axis; return id; }
static int kreduce(TB *t, TTy ty, int a, ReduceKind rk, int axis)
{
    int id = ins(t, OP_REDUCE, ty, a, 0, 0);
    I_(t, id)->rkind = rk, I_(t, id)->axis = axis;
    return id;
}
static int kload(TB *t, TTy ty, int p, int offs, int mask, int other)
{
    int id = ins(t, OP_LOAD, ty, offs, mask, other);
    I_(t, id)->index = p;
    return id;
}
static void kstore(TB *t, int p, int offs, int val, int mask)
{
    int id = ins(t, OP_STORE, T0(DT_BOOL), offs, val, mask);
    I_(t, id)->index = p;
}
static int kvar(TB *t, const char *name, TTy ty)
{
    TVar v = { name, ty };
    vec_push(t->k->arena, t->k->vars, v);
    return t->k->vars.n - 1;
}
static int kget(TB *t, int var) { int id = ins(t, OP_VAR_GET, t->k->vars.v[var].ty, 0, 0, 0); I_(t, id)->index = var; return id; }
static void kset(TB *t, int var, int val) { int id = ins(t, OP_VAR_SET, T0(DT_BOOL), val, 0, 0); I_(t, id)->index = var; }

/* A tensor param with run-time dims (dims[] index KernelInfo.dims) or, where
 * dims[i] < 0, the size csize[i]. */
static void kparam_tensor(Arena *a, KernelInfo *ki, SymTab *st, const char *name, DType dt, int rank,
                          const int *dims, const int64_t *csize, bool stored, bool strided)
{
    ParamInfo *p = &ki->params[ki->nparams++];
    memset(p, 0, sizeof *p);
    p->name = name, p->is_tensor = true, p->dt = dt, p->rank = rank, p->stored = stored;
    p->strided = strided;
    p->dims = arena_alloc(a, sizeof *p->dims * (size_t)rank);
    for (int i = 0; i < rank; i++) {
        p->dims[i].dim = dims[i];
        if (dims[i] < 0)
            p->dims[i].size = sym_int(st, csize[i]);
    }
}
static void kparam_scalar(KernelInfo *ki, const char *name, DType dt)
{
    ParamInfo *p = &ki->params[ki->nparams++];
    memset(p, 0, sizeof *p);
    p->name = name, p->dt = dt;
}
static KernelInfo *kinfo(Arena *a, const char *name, const char **dims, int ndims)
{
    KernelInfo *ki = arena_alloc(a, sizeof *ki);
    ki->name = name;
    ki->params = arena_alloc(a, sizeof(ParamInfo) * 8);
    ki->dims = arena_alloc(a, sizeof(DimInfo) * 8);
    ki->ndims = ndims;
    for (int i = 0; i < ndims; i++)
        ki->dims[i].name = dims[i];
    ki->syms = sym_tab_new(a);
    return ki;
}
static TirKernel *kkernel(Arena *a, KernelInfo *ki, const char *name)
{
    TirKernel *k = arena_alloc(a, sizeof *k);
    k->arena = a, k->info = ki, k->name = name;
    k->body = tir_block(k, NULL);
    return k;
}
static void krequire(TirKernel *k, int cond, const char *text)
{
    TRequire r = { cond, text };
    vec_push(k->arena, k->requires, r);
}

static int test_failures;

static bool sh(const char *cmd)
{
    int rc = system(cmd);
    if (rc != 0) {
        fprintf(stderr, "FAIL: %s (status %d)\n", cmd, rc);
        test_failures++;
    }
    return rc == 0;
}

/* Print kernels to dir/name.h, then compile dir/name_driver.c (driver text)
 * with several compilers and flags and run each binary. */
static void check_kernels(const char *name, TirKernel **ks, int n, const char *driver)
{
    Diag d;
    diag_init(&d, stderr);
    const char *dir = getenv("C_EMIT_TMP") ? getenv("C_EMIT_TMP") : "/tmp/tkc_c_emit";
    char path[512], cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
    if (!sh(cmd))
        return;
    snprintf(path, sizeof path, "%s/%s.h", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "FAIL: cannot write %s\n", path);
        test_failures++;
        return;
    }
    const Target *t = &target_c;
    TargetOptions o = { .source = "test.tk", .guard = "TEST_H" };
    bool ok = target_emit_header(f, &t, 1, ks, n, &o, &d);
    fclose(f);
    if (!ok) {
        fprintf(stderr, "FAIL: %s: emit failed\n", name);
        test_failures++;
        return;
    }
    if (getenv("C_EMIT_TIR"))
        for (int i = 0; i < n; i++)
            tir_print(stderr, ks[i]);
    snprintf(path, sizeof path, "%s/%s_driver.c", dir, name);
    f = fopen(path, "w");
    fprintf(f, "#include \"%s.h\"\n#include \"%s.h\"  /* twice: the guard */\n%s", name, name, driver);
    fclose(f);
    static const char *const ccs[] = {
        "gcc -std=c11 -O2 -march=native -fopenmp",
        "gcc -std=c11 -O0",
        "clang -std=c11 -O2 -march=native -fopenmp",
        "clang -std=c11 -O1",
    };
    for (size_t i = 0; i < sizeof ccs / sizeof *ccs; i++) {
        if (strncmp(ccs[i], "clang", 5) == 0 && system("command -v clang >/dev/null 2>&1") != 0)
            continue;
        snprintf(cmd, sizeof cmd, "%s -Wall -Wextra -Werror -o %s/%s_%zu %s -lm && %s/%s_%zu",
                 ccs[i], dir, name, i, path, dir, name, i);
        sh(cmd);
    }
}

#endif
