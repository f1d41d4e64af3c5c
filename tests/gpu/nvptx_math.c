/*
 * tests/gpu/nvptx_math.c — the nvptx target's math functions
 * (targets/nvptx/math.c) on a GPU against the host's libm in double.
 *
 *   nvptx_math MATH.PTX        (tests/unit/nvptx_pir DIR writes DIR/math.ptx)
 *
 * Kernel tk_math(x, y, xd, yd, n) writes y[f * n + i] = fn_f(x[i]) in f32
 * and yd likewise in f64, for the functions of nvptx_math.h in its order,
 * checked as that header says.  Prints the worst relative error per
 * function; exits 0 when all pass, 3 without a CUDA driver or device.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nvptx_math.h"

typedef int (*Fn)();
static Fn sym(void *h, const char *s)
{
    Fn f;
    void *p = dlsym(h, s);
    if (!p) {
        printf("libcuda has no %s\n", s);
        exit(1);
    }
    memcpy(&f, &p, sizeof f);
    return f;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = calloc((size_t)n + 1, 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n)
        n = 0;
    fclose(f);
    return s;
}

#define CK(call) do { int r_ = (call); if (r_) { printf("%s failed: %d\n", #call, r_); return 1; } } while (0)

int main(int argc, char **argv)
{
    char *ptx = argc > 1 ? slurp(argv[1]) : NULL;
    if (!ptx) {
        printf("usage: nvptx_math MATH.PTX\n");
        return 2;
    }
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) {
        printf("no CUDA driver\n");
        return 3;
    }
    int n = 0, dev = 0;
    void *ctx = NULL, *mod = NULL, *fn = NULL;
    if (sym(h, "cuInit")(0) || sym(h, "cuDeviceGetCount")(&n) || n == 0) {
        printf("no CUDA device\n");
        return 3;
    }
    CK(sym(h, "cuDeviceGet")(&dev, 0));
    CK(sym(h, "cuDevicePrimaryCtxRetain")(&ctx, dev));
    CK(sym(h, "cuCtxSetCurrent")(ctx));
    CK(sym(h, "cuModuleLoadData")(&mod, ptx));
    CK(sym(h, "cuModuleGetFunction")(&fn, mod, "tk_math"));
    int64_t N = NM_NSPECIAL + 20000;
    float *x = malloc(sizeof(float) * (size_t)N), *y = malloc(sizeof(float) * (size_t)N * NM_NFN);
    double *xd = malloc(sizeof(double) * (size_t)N), *yd = malloc(sizeof(double) * (size_t)N * NM_NFN);
    for (int64_t i = 0; i < N; i++) {
        xd[i] = nm_arg(i, N);
        x[i] = (float)xd[i];
    }
    unsigned long long dx, dy, dxd, dyd;
    Fn alloc = sym(h, "cuMemAlloc_v2"), htod = sym(h, "cuMemcpyHtoD_v2"), dtoh = sym(h, "cuMemcpyDtoH_v2");
    CK(alloc(&dx, sizeof(float) * (size_t)N));
    CK(alloc(&dy, sizeof(float) * (size_t)N * NM_NFN));
    CK(alloc(&dxd, sizeof(double) * (size_t)N));
    CK(alloc(&dyd, sizeof(double) * (size_t)N * NM_NFN));
    CK(htod(dx, x, sizeof(float) * (size_t)N));
    CK(htod(dxd, xd, sizeof(double) * (size_t)N));
    void *args[] = { &dx, &dy, &dxd, &dyd, &N };
    CK(sym(h, "cuLaunchKernel")(fn, (unsigned)((N + 127) / 128), 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CK(sym(h, "cuCtxSynchronize")());
    CK(dtoh(y, dy, sizeof(float) * (size_t)N * NM_NFN));
    CK(dtoh(yd, dyd, sizeof(double) * (size_t)N * NM_NFN));
    int bad = 0;
    for (int f = 0; f < NM_NFN; f++)
        bad += !nm_check(f, N, x, y + f * N, xd, yd + f * N);
    printf("%d of %d functions wrong\n", bad, NM_NFN);
    return bad ? 1 : 0;
}
