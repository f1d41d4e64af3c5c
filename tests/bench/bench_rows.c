/* bench_rows NAME M N: one row-wise kernel from stdlib/nn.tk.
 *
 * Built once per kernel variant with the generated header named by
 * -DTK_HEADER='"file.h"' and the kernel chosen by macros:
 *     -DTK_FN=softmax -DKIND_SOFTMAX      softmax / softmax_online
 *     -DTK_FN=layernorm -DKIND_LAYERNORM  layernorm
 *     -DTK_FN=rmsnorm -DKIND_RMSNORM      rmsnorm
 *     -DSPEC_N                            the header was built with -D N=...: no N argument
 * Reports GB/s counting x read once and y written once, next to memcpy from x
 * to y (the same bytes and buffers).  The kernel and the copies run
 * interleaved, so both see the same machine load; the rival is the better of
 * a one-thread memcpy and an OpenMP one.  Checks a spread of rows against a
 * double reference before timing. */
#include "bench.h"

#ifdef TK_HEADER
#include TK_HEADER   /* the generated header, named by run.sh */
#endif

#ifdef SPEC_N
#define DIMS(m, n) (m)
#else
#define DIMS(m, n) (m), (n)
#endif

#if defined(KIND_SOFTMAX)
#define CALL(x, w, b, y, m, n) TK_FN((x), (y), DIMS(m, n))
#elif defined(KIND_LAYERNORM)
#define CALL(x, w, b, y, m, n) TK_FN((x), (w), (b), (y), 1e-5f, DIMS(m, n))
#elif defined(KIND_RMSNORM)
#define CALL(x, w, b, y, m, n) TK_FN((x), (w), (y), 1e-5f, DIMS(m, n))
#else
#error "define KIND_SOFTMAX, KIND_LAYERNORM or KIND_RMSNORM"
#endif

/* Reference for one row in double; returns the max error relative to max |ref|. */
static double check_row(const float *x, const float *w, const float *b, const float *y,
                        int64_t n)
{
    double *r = malloc(sizeof(double) * (size_t)n), scale = 0, err = 0;
#if defined(KIND_SOFTMAX)
    double mx = -INFINITY, s = 0;
    for (int64_t j = 0; j < n; j++) mx = x[j] > mx ? x[j] : mx;
    for (int64_t j = 0; j < n; j++) s += (r[j] = exp(x[j] - mx));
    for (int64_t j = 0; j < n; j++) r[j] /= s;
    (void)w; (void)b;
#elif defined(KIND_LAYERNORM)
    double mean = 0, var = 0;
    for (int64_t j = 0; j < n; j++) mean += x[j];
    mean /= (double)n;
    for (int64_t j = 0; j < n; j++) var += (x[j] - mean) * (x[j] - mean);
    var /= (double)n;
    for (int64_t j = 0; j < n; j++) r[j] = (x[j] - mean) / sqrt(var + 1e-5) * w[j] + b[j];
#else
    double ss = 0;
    for (int64_t j = 0; j < n; j++) ss += (double)x[j] * x[j];
    double rs = 1.0 / sqrt(ss / (double)n + 1e-5);
    for (int64_t j = 0; j < n; j++) r[j] = x[j] * rs * w[j];
    (void)b;
#endif
    for (int64_t j = 0; j < n; j++) {
        scale = fabs(r[j]) > scale ? fabs(r[j]) : scale;
        err = bench_worse(err, fabs(r[j] - y[j]));
    }
    free(r);
    return scale > 0 ? err / scale : err;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: bench_rows NAME M N\n");
        return 2;
    }
    const char *name = argv[1];
    int64_t m = atoll(argv[2]), n = atoll(argv[3]);
    size_t elems = (size_t)m * (size_t)n;
    float *x = bench_alloc(elems * sizeof(float)), *y = bench_alloc(elems * sizeof(float));
    float *w = bench_alloc((size_t)n * sizeof(float)), *b = bench_alloc((size_t)n * sizeof(float));
    bench_fill(x, (int64_t)elems, 11, -4.0f, 6.0f);   /* nonzero mean: exercises layernorm */
    bench_fill(y, (int64_t)elems, 12, 0.0f, 1.0f);
    bench_fill(w, n, 13, 0.5f, 1.5f);
    bench_fill(b, n, 14, -0.5f, 0.5f);

    int st = CALL(x, w, b, y, m, n);
    if (st != 0) {
        char why[600];
        snprintf(why, sizeof why, "status %d: %s", st, tk_last_error());
        bench_fail(name, why);
        return 1;
    }
    double err = 0;
    for (int64_t r = 0; r < m; r += m / 61 + 1) {
        double e = check_row(x + r * n, w, b, y + r * n, n);
        err = bench_worse(err, e);
    }
    double e = check_row(x + (m - 1) * n, w, b, y + (m - 1) * n, n);
    err = bench_worse(err, e);
    if (!(err < 1e-5)) {
        char why[100];
        snprintf(why, sizeof why, "max relative error %.3g vs double reference", err);
        bench_fail(name, why);
        return 1;
    }

    enum { WARM = 3, RUNS = 15 };
    double tk[RUNS], tp[RUNS], ts[RUNS], bytes = (double)elems * sizeof(float);
    for (int i = 0; i < WARM + RUNS; i++) {
        double t0 = bench_now();
        (void)CALL(x, w, b, y, m, n);
        double t1 = bench_now();
        bench_parallel_copy(y, x, elems * sizeof(float));
        double t2 = bench_now();
        memcpy(y, x, elems * sizeof(float));
        double t3 = bench_now();
        if (i >= WARM) {
            tk[i - WARM] = t1 - t0;
            tp[i - WARM] = t2 - t1;
            ts[i - WARM] = t3 - t2;
        }
    }
    double t = bench_median(tk, RUNS), par = bench_median(tp, RUNS), one = bench_median(ts, RUNS);
    double gbps = 2 * bytes / t * 1e-9, gpar = 2 * bytes / par * 1e-9, gone = 2 * bytes / one * 1e-9;
    char label[200];
    snprintf(label, sizeof label, "%s[GB/s]", name);
    bench_report(label, gbps, gpar > gone ? gpar : gone, 0.8, ">=0.8");
    printf("%-38s   (%.2f ms; memcpy %.1f GB/s with %d threads, %.1f with 1; max rel err %.1e)\n",
           "", t * 1e3, gpar, bench_threads(), gone, err);
    free(x); free(y); free(w); free(b);
    return 0;
}
