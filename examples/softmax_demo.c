/* softmax_demo: call the softmax kernel of stdlib/nn.tk from C.
 *
 *   tkc ../stdlib/nn.tk --kernel=softmax --target=c -o build/softmax.h
 *   gcc -std=c11 -O3 -march=native -ffp-contract=fast -fopenmp -Ibuild softmax_demo.c -lm
 *
 * Fills a 4096 x 1000 f32 matrix (1000: not a multiple of the kernel's
 * 1024-wide block, so the last lanes of every row are masked), runs softmax
 * over its rows, checks rows against a double-precision reference, and times
 * the call.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "softmax.h"   /* tk_status softmax(const float *x, float *y, int64_t M, int64_t N); */

enum { M = 4096, N = 1000, RUNS = 15 };

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Softmax of one row in double; returns the largest |got - ref|. */
static double check_row(const float *x, const float *y, int64_t n)
{
    double mx = -INFINITY, s = 0, err = 0;
    for (int64_t j = 0; j < n; j++)
        mx = x[j] > mx ? x[j] : mx;
    for (int64_t j = 0; j < n; j++)
        s += exp((double)x[j] - mx);
    for (int64_t j = 0; j < n; j++) {
        double e = fabs((double)y[j] - exp((double)x[j] - mx) / s);
        err = e > err ? e : err;
    }
    return err;
}

int main(void)
{
    float *x = malloc(sizeof(float) * M * N), *y = malloc(sizeof(float) * M * N);
    if (!x || !y) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uint32_t seed = 12345;
    for (int64_t i = 0; i < (int64_t)M * N; i++) {
        seed = seed * 1664525u + 1013904223u;             /* LCG: values in [-8, 8) */
        x[i] = (float)((seed >> 8) * (16.0 / 16777216.0) - 8.0);
    }

    tk_status st = softmax(x, y, M, N);
    if (st != TK_OK) {
        fprintf(stderr, "softmax failed (%d): %s\n", (int)st, tk_last_error());
        return 1;
    }

    /* Check the first, last and a spread of rows against the reference. */
    double maxerr = 0;
    for (int64_t r = 0; r < M; r += 97) {
        double e = check_row(x + r * N, y + r * N, N);
        maxerr = e > maxerr ? e : maxerr;
    }
    double e = check_row(x + (int64_t)(M - 1) * N, y + (int64_t)(M - 1) * N, N);
    maxerr = e > maxerr ? e : maxerr;
    double rowsum = 0;
    for (int64_t j = 0; j < N; j++)
        rowsum += y[j];

    printf("softmax %dx%d (f32), stdlib/nn.tk compiled by tkc --target=c\n", M, N);
    char last[32];
    snprintf(last, sizeof last, "y[%d][%d]", M - 1, N - 1);
    printf("  %-14s = %.6g %.6g %.6g %.6g\n", "y[0][0..3]", y[0], y[1], y[2], y[3]);
    printf("  %-14s = %.6g\n", last, y[(int64_t)M * N - 1]);
    printf("  %-14s = %.7f\n", "sum of row 0", rowsum);
    printf("  max |err| vs double reference (%d rows) = %.3g\n", M / 97 + 2, maxerr);

    /* Timing: one warm-up call, then the median of RUNS calls. */
    double t[RUNS];
    softmax(x, y, M, N);
    for (int i = 0; i < RUNS; i++) {
        double t0 = now_s();
        softmax(x, y, M, N);
        t[i] = now_s() - t0;
    }
    qsort(t, RUNS, sizeof t[0], cmp_double);
    double med = t[RUNS / 2], bytes = 2.0 * sizeof(float) * M * N;  /* read x, write y */
    printf("  time: %.3f ms (median of %d), %.1f GB/s\n", med * 1e3, RUNS, bytes / med * 1e-9);

    /* Bad arguments give an error status and a message, never a crash. */
    st = softmax(x, y, 2, 5000);
    printf("  softmax(N=5000) -> status %d: %s\n", (int)st, tk_last_error());

    int ok = maxerr < 1e-6;
    printf("%s\n", ok ? "OK" : "FAILED: error too large");
    free(x);
    free(y);
    return ok ? 0 : 1;
}
