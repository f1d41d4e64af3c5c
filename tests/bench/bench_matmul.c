/* bench_matmul NAME RIVAL_GFLOPS M N K: c[M,N] = a[M,K] @ b[K,N] in f32.
 *
 * Two builds of this file:
 *   -include matmul.h -DTK_FN=matmul   times the tkc kernel, prints a table line
 *   -DUSE_CBLAS ... -lopenblas          times cblas_sgemm, prints its GFLOP/s only
 * Either checks its result once, on a sample of entries, against a double
 * reference; a wrong result reports FAIL and no time. */
#include "bench.h"

#ifdef USE_CBLAS
#include <cblas.h>
#define CALL(a, b, c, m, n, k)                                                          \
    (cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)(m), (int)(n), (int)(k), \
                 1.0f, (a), (int)(k), (b), (int)(n), 0.0f, (c), (int)(n)), 0)
#else
#define CALL(a, b, c, m, n, k) TK_FN((a), (b), (c), (m), (k), (n))   /* dims M, K, N */
#endif

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: bench_matmul NAME RIVAL_GFLOPS M N K\n");
        return 2;
    }
    const char *name = argv[1];
    double rival = atof(argv[2]);
    int64_t m = atoll(argv[3]), n = atoll(argv[4]), k = atoll(argv[5]);
    float *a = bench_alloc(sizeof(float) * (size_t)(m * k));
    float *b = bench_alloc(sizeof(float) * (size_t)(k * n));
    float *c = bench_alloc(sizeof(float) * (size_t)(m * n));
    bench_fill(a, m * k, 21, -1, 1);
    bench_fill(b, k * n, 22, -1, 1);
    bench_fill(c, m * n, 23, 100, 200);       /* garbage the kernel must overwrite */

    int st = CALL(a, b, c, m, n, k);
    if (st != 0) {
#ifndef USE_CBLAS
        char why[600];
        snprintf(why, sizeof why, "status %d: %s", st, tk_last_error());
        bench_fail(name, why);
#endif
        return 1;
    }
    /* 4096 sampled entries, including the four corners; error relative to
     * sum_k |a_ik b_kj| (the scale of f32 rounding in any summation order). */
    double err = 0;
    uint32_t s = 99;
    for (int t = 0; t < 4096; t++) {
        s = s * 1664525u + 1013904223u;
        int64_t i = t < 4 ? (t & 1) * (m - 1) : (int64_t)(s >> 8) % m;
        s = s * 1664525u + 1013904223u;
        int64_t j = t < 4 ? (t >> 1) * (n - 1) : (int64_t)(s >> 8) % n;
        double ref = 0, mag = 0;
        for (int64_t q = 0; q < k; q++) {
            ref += (double)a[i * k + q] * b[q * n + j];
            mag += fabs((double)a[i * k + q] * b[q * n + j]);
        }
        err = bench_worse(err, fabs(ref - c[i * n + j]) / (mag + 1e-30));
    }
    if (!(err < 1e-5)) {
        char why[100];
        snprintf(why, sizeof why, "relative error %.3g vs double reference", err);
#ifdef USE_CBLAS
        fprintf(stderr, "cblas_sgemm: %s\n", why);
#else
        bench_fail(name, why);
#endif
        return 1;
    }

    double t;
    double flops = 2.0 * (double)m * (double)n * (double)k;
    int runs = flops > 4e9 ? 5 : 11;
    BENCH_TIME(t, 1, runs, CALL(a, b, c, m, n, k));
    double gflops = flops / t * 1e-9;
#ifdef USE_CBLAS
    printf("%.3f\n", gflops);
    (void)name; (void)rival;
#else
    char label[200];
    snprintf(label, sizeof label, "%s[GFLOP/s]", name);
    bench_report(label, gflops, rival, 0.7, ">=0.7");
    printf("%-38s   (%.1f ms, max rel err %.1e)\n", "", t * 1e3, err);
#endif
    free(a); free(b); free(c);
    return 0;
}
