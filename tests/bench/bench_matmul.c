/* bench_matmul NAME M N K: c[M,N] = a[M,K] @ b[K,N] in f32; prints "GFLOPS MS ERR".
 *
 * Two builds of this file:
 *   -DTK_HEADER='"matmul.h"' -DTK_FN=matmul  times the tkc kernel
 *   -DUSE_CBLAS ... -lopenblas                times cblas_sgemm
 * run.sh runs the two alternately, a few rounds each (one process each time:
 * OpenBLAS's threads keep spinning after a call and would slow a kernel timed
 * in the same process), and prints the table line from the medians.  Each run
 * first checks its result, on a sample of entries, against a double
 * reference; a wrong result prints FAIL on stderr and exits 1. */
#include "bench.h"

#ifdef TK_HEADER
#include TK_HEADER   /* the generated header, named by run.sh */
#endif

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
    if (argc < 5) {
        fprintf(stderr, "usage: bench_matmul NAME M N K\n");
        return 2;
    }
    const char *name = argv[1];
    int64_t m = atoll(argv[2]), n = atoll(argv[3]), k = atoll(argv[4]);
    float *a = bench_alloc(sizeof(float) * (size_t)(m * k));
    float *b = bench_alloc(sizeof(float) * (size_t)(k * n));
    float *c = bench_alloc(sizeof(float) * (size_t)(m * n));
    bench_fill(a, m * k, 21, -1, 1);
    bench_fill(b, k * n, 22, -1, 1);
    bench_fill(c, m * n, 23, 100, 200);       /* garbage the kernel must overwrite */

    int st = CALL(a, b, c, m, n, k);
    if (st != 0) {
#ifndef USE_CBLAS
        fprintf(stderr, "%s: FAIL: status %d: %s\n", name, st, tk_last_error());
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
        fprintf(stderr, "%s: FAIL: relative error %.3g vs double reference\n", name, err);
        return 1;
    }

    double t;
    double flops = 2.0 * (double)m * (double)n * (double)k;
    int runs = flops > 4e9 ? 5 : 11;
    BENCH_TIME(t, 1, runs, CALL(a, b, c, m, n, k));
    printf("%.3f %.3f %.1e\n", flops / t * 1e-9, t * 1e3, err);
    free(a); free(b); free(c);
    return 0;
}
