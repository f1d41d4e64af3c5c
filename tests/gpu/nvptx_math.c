/*
 * tests/gpu/nvptx_math.c — the nvptx target's math functions
 * (targets/nvptx/math.c) on a GPU against the host's libm in double.
 *
 *   nvptx_math MATH.PTX        (tests/unit/nvptx_pir DIR writes DIR/math.ptx)
 *
 * Kernel tk_math(x, y, xd, yd, n) writes y[f * n + i] = fn_f(x[i]) in f32
 * and yd likewise in f64, for the functions below in this order.  Each is
 * checked on a sweep of ordinary arguments plus zeros, infinities, NaN,
 * tiny and large values: f32 within 2e-6 + 1e-5 |ref| (the run tests'
 * tolerance) and f64 within 1e-300 + 1e-13 |ref|, NaN where libm gives NaN.
 * Prints the worst relative error per function; exits 0 when all pass,
 * 3 without a CUDA driver or device.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = { "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh",
                                     "erf", "sigmoid", "fabs", "floor", "ceil", "pow", "fma", "fmod" };
#define NFN ((int)(sizeof names / sizeof *names))

static double ref(int f, double v, double p)
{
    switch (f) {
    case 0: return exp(v);
    case 1: return exp2(v);
    case 2: return log(p);
    case 3: return log2(p);
    case 4: return sqrt(p);
    case 5: return 1 / sqrt(p);
    case 6: return sin(v);
    case 7: return cos(v);
    case 8: return tanh(v);
    case 9: return erf(v);
    case 10: return 1 / (1 + exp(-v));
    case 11: return fabs(v);
    case 12: return floor(v);
    case 13: return ceil(v);
    case 14: return pow(p, v);
    case 15: return fma(v, p, 1.5);
    default: return fmod(v, 1.5);
    }
}

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
    /* the arguments: a sweep and special values */
    static const double special[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-30, -1e-30, 1e-40, 1e-310,
                                      88.7, -87.3, 89.0, -104.0, 709.0, -745.0, 1e4, -1e4, 123456.7, 0.5,
                                      -0.5, 0.25, 2.5, -2.5, 6.0, 1.0, -1.0, 3.0, -3.0, 1.5, 4.5, -4.5 };
    int ns = (int)(sizeof special / sizeof *special), nsweep = 20000;
    int64_t N = ns + nsweep;
    float *x = malloc(sizeof(float) * (size_t)N), *y = malloc(sizeof(float) * (size_t)N * NFN);
    double *xd = malloc(sizeof(double) * (size_t)N), *yd = malloc(sizeof(double) * (size_t)N * NFN);
    for (int64_t i = 0; i < N; i++) {
        double v = i < ns ? special[i] : -20.0 + 40.0 * (double)(i - ns) / nsweep + 1e-4 * (double)(i % 7);
        x[i] = (float)v;
        xd[i] = v;
    }
    unsigned long long dx, dy, dxd, dyd;
    Fn alloc = sym(h, "cuMemAlloc_v2"), htod = sym(h, "cuMemcpyHtoD_v2"), dtoh = sym(h, "cuMemcpyDtoH_v2");
    CK(alloc(&dx, sizeof(float) * (size_t)N));
    CK(alloc(&dy, sizeof(float) * (size_t)N * NFN));
    CK(alloc(&dxd, sizeof(double) * (size_t)N));
    CK(alloc(&dyd, sizeof(double) * (size_t)N * NFN));
    CK(htod(dx, x, sizeof(float) * (size_t)N));
    CK(htod(dxd, xd, sizeof(double) * (size_t)N));
    void *args[] = { &dx, &dy, &dxd, &dyd, &N };
    CK(sym(h, "cuLaunchKernel")(fn, (unsigned)((N + 127) / 128), 1, 1, 128, 1, 1, 0, NULL, args, NULL));
    CK(sym(h, "cuCtxSynchronize")());
    CK(dtoh(y, dy, sizeof(float) * (size_t)N * NFN));
    CK(dtoh(yd, dyd, sizeof(double) * (size_t)N * NFN));
    int bad = 0;
    for (int f = 0; f < NFN; f++) {
        double worst[2] = { 0, 0 };
        int64_t wi[2] = { 0, 0 }, nbad[2] = { 0, 0 };
        for (int d = 0; d < 2; d++)
            for (int64_t i = 0; i < N; i++) {
                double v = d ? xd[i] : x[i];
                double p = d ? fabs(v) + 0.25 : (double)(fabsf(x[i]) + 0.25f);
                double r = ref(f, v, p), g = d ? yd[f * N + i] : y[f * N + i];
                if (!d && fabs(r) > 3.4e38 && !isinf(r))
                    r = r > 0 ? INFINITY : -INFINITY;     /* f32 overflow */
                bool ok;
                double err = 0;
                if (isnan(r) || isinf(r))
                    ok = isnan(r) ? isnan(g) : g == r;
                else if (d)
                    ok = fabs(g - r) <= 1e-300 + 1e-13 * fabs(r), err = fabs(g - r) / fmax(fabs(r), 1e-300);
                else
                    ok = fabs(g - r) <= 2e-6 + 1e-5 * fabs(r), err = fabs(g - r) / fmax(fabs(r), 1e-30);
                if (!ok) {
                    if (nbad[d]++ < 3)
                        printf("  %s %s(%.17g): got %.17g, want %.17g\n", d ? "f64" : "f32", names[f], v, g, r);
                } else if (err > worst[d] && fabs(r) > (d ? 1e-290 : 1e-30)) {
                    worst[d] = err, wi[d] = i;
                }
            }
        printf("%-8s f32: %s worst rel %.2e at %.9g   f64: %s worst rel %.2e at %.17g\n", names[f],
               nbad[0] ? "FAIL" : "ok", worst[0], (double)x[wi[0]], nbad[1] ? "FAIL" : "ok", worst[1], xd[wi[1]]);
        bad += nbad[0] + nbad[1] > 0;
    }
    printf("%d of %d functions wrong\n", bad, NFN);
    return bad ? 1 : 0;
}
