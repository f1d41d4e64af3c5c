/* stdlib_check: every kernel of stdlib/ on awkward sizes, against double references.
 *
 * Includes the three stdlib headers (all kernels of vec.tk, nn.tk and matmul.tk)
 * in one translation unit.  Sizes are 1, primes and non-multiples of every
 * block size; each output buffer has a guard zone after it that must stay
 * untouched.  Prints one line per kernel and exits 1 on any mismatch.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"
#include "nn.h"
#include "matmul.h"

#define GUARD 64
static const float CANARY = 12345.0f;

static int failures;
static uint32_t seed = 1;

static float frand(void)   /* [-2, 2) */
{
    seed = seed * 1664525u + 1013904223u;
    return (float)((seed >> 8) * (4.0 / 16777216.0) - 2.0);
}

/* n random floats followed by GUARD canaries. */
static float *buf(int64_t n)
{
    float *p = malloc(sizeof(float) * (size_t)(n + GUARD));
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (int64_t i = 0; i < n; i++) p[i] = frand();
    for (int64_t i = 0; i < GUARD; i++) p[n + i] = CANARY;
    return p;
}

static double gelu_ref(double x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }

/* Compare n results with a reference; checks the guard zone too. */
static void expect(const char *what, tk_status st, const float *got, const double *ref,
                   int64_t n, double tol)
{
    double err = 0;
    int guard_ok = 1;
    for (int64_t i = 0; i < n; i++) {
        double e = fabs(got[i] - ref[i]) / (1.0 + fabs(ref[i]));
        err = (e > err || e != e) ? e : err;
    }
    for (int64_t i = 0; i < GUARD; i++)
        guard_ok &= got[n + i] == CANARY;
    int ok = st == TK_OK && err <= tol && guard_ok;
    failures += !ok;
    printf("%-4s %-40s err %.2e%s%s\n", ok ? "ok" : "FAIL", what, err,
           st == TK_OK ? "" : "  (bad status)", guard_ok ? "" : "  (wrote past the end)");
    if (st != TK_OK)
        printf("     %s\n", tk_last_error());
}

static void check_vec(int64_t n)
{
    float *x = buf(n), *y = buf(n), *out = buf(n);
    double *ref = malloc(sizeof(double) * (size_t)(n + 1));
    char what[80];

    for (int64_t i = 0; i < n; i++) ref[i] = (double)x[i] + y[i];
    snprintf(what, sizeof what, "add N=%lld", (long long)n);
    expect(what, add(x, y, out, n), out, ref, n, 1e-6);

    for (int64_t i = 0; i < n; i++) ref[i] = 2.5 * x[i];
    snprintf(what, sizeof what, "scale N=%lld", (long long)n);
    expect(what, scale(2.5f, x, out, n), out, ref, n, 1e-6);

    for (int64_t i = 0; i < n; i++) ref[i] = -0.75 * x[i] + y[i];
    snprintf(what, sizeof what, "axpy N=%lld", (long long)n);
    expect(what, axpy(-0.75f, x, y, n), y, ref, n, 1e-6);
    free(x); free(y); free(out); free(ref);
}

static void check_rows(int64_t m, int64_t n)
{
    float *x = buf(m * n), *y = buf(m * n), *w = buf(n), *b = buf(n), *r = buf(m * n);
    double *ref = malloc(sizeof(double) * (size_t)(m * n + 1));
    char what[80];

    /* softmax (needs N <= BLOCK = 1024) and softmax_online (any N) */
    for (int64_t i = 0; i < m; i++) {
        const float *xr = x + i * n;
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < n; j++) mx = xr[j] > mx ? xr[j] : mx;
        for (int64_t j = 0; j < n; j++) s += exp(xr[j] - mx);
        for (int64_t j = 0; j < n; j++) ref[i * n + j] = exp(xr[j] - mx) / s;
    }
    if (n <= 1024) {
        snprintf(what, sizeof what, "softmax %lldx%lld", (long long)m, (long long)n);
        expect(what, softmax(x, y, m, n), y, ref, m * n, 1e-6);
    } else {
        y[0] = CANARY;
        tk_status st = softmax(x, y, m, n);
        int ok = st == TK_ERR_REQUIRE && y[0] == CANARY;   /* wrote nothing */
        failures += !ok;
        printf("%-4s softmax %lldx%lld refuses N > BLOCK: %s\n", ok ? "ok" : "FAIL",
               (long long)m, (long long)n, tk_last_error());
    }
    snprintf(what, sizeof what, "softmax_online %lldx%lld", (long long)m, (long long)n);
    expect(what, softmax_online(x, y, m, n), y, ref, m * n, 1e-6);

    /* layernorm, rmsnorm */
    for (int64_t i = 0; i < m; i++) {
        const float *xr = x + i * n;
        double mean = 0, var = 0, ss = 0;
        for (int64_t j = 0; j < n; j++) mean += xr[j], ss += (double)xr[j] * xr[j];
        mean /= (double)n;
        for (int64_t j = 0; j < n; j++) var += (xr[j] - mean) * (xr[j] - mean);
        var /= (double)n;
        for (int64_t j = 0; j < n; j++)
            ref[i * n + j] = (xr[j] - mean) / sqrt(var + 1e-5) * w[j] + b[j];
    }
    snprintf(what, sizeof what, "layernorm %lldx%lld", (long long)m, (long long)n);
    expect(what, layernorm(x, w, b, y, 1e-5f, m, n), y, ref, m * n, 1e-5);

    /* layernorm_f16: inputs rounded to f16, result compared at f16 precision */
    {
        tk_f16 *xh = malloc(sizeof(tk_f16) * (size_t)(m * n + GUARD));
        tk_f16 *yh = malloc(sizeof(tk_f16) * (size_t)(m * n + GUARD));
        tk_f16 *wh = malloc(sizeof(tk_f16) * (size_t)n), *bh = malloc(sizeof(tk_f16) * (size_t)n);
        float *yf = buf(m * n);
        for (int64_t i = 0; i < m * n; i++) xh[i] = tk_f32_to_f16(x[i]);
        for (int64_t i = 0; i < n; i++) wh[i] = tk_f32_to_f16(w[i]), bh[i] = tk_f32_to_f16(b[i]);
        for (int64_t i = 0; i < GUARD; i++) yh[m * n + i] = 0x7bffu;
        for (int64_t i = 0; i < m; i++) {
            double mean = 0, var = 0;
            for (int64_t j = 0; j < n; j++) mean += tk_f16_to_f32(xh[i * n + j]);
            mean /= (double)n;
            for (int64_t j = 0; j < n; j++) {
                double d = tk_f16_to_f32(xh[i * n + j]) - mean;
                var += d * d;
            }
            var /= (double)n;
            for (int64_t j = 0; j < n; j++)
                ref[i * n + j] = (tk_f16_to_f32(xh[i * n + j]) - mean) / sqrt(var + 1e-5) *
                                 tk_f16_to_f32(wh[j]) + tk_f16_to_f32(bh[j]);
        }
        tk_status st = layernorm_f16(xh, wh, bh, yh, 1e-5f, m, n);
        for (int64_t i = 0; i < m * n; i++) yf[i] = tk_f16_to_f32(yh[i]);
        int guard = 1;
        for (int64_t i = 0; i < GUARD; i++) guard &= yh[m * n + i] == 0x7bffu;
        snprintf(what, sizeof what, "layernorm_f16 %lldx%lld", (long long)m, (long long)n);
        expect(what, guard ? st : TK_ERR_ARG, yf, ref, m * n, 2e-3);
        free(xh); free(yh); free(wh); free(bh); free(yf);
    }

    for (int64_t i = 0; i < m; i++) {
        const float *xr = x + i * n;
        double ss = 0;
        for (int64_t j = 0; j < n; j++) ss += (double)xr[j] * xr[j];
        for (int64_t j = 0; j < n; j++) ref[i * n + j] = xr[j] / sqrt(ss / (double)n + 1e-5) * w[j];
    }
    snprintf(what, sizeof what, "rmsnorm %lldx%lld", (long long)m, (long long)n);
    expect(what, rmsnorm(x, w, y, 1e-5f, m, n), y, ref, m * n, 1e-5);

    /* bias_gelu_residual: y = gelu(x + bias[col]) + res */
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            ref[i * n + j] = gelu_ref((double)x[i * n + j] + b[j]) + r[i * n + j];
    snprintf(what, sizeof what, "bias_gelu_residual %lldx%lld", (long long)m, (long long)n);
    expect(what, bias_gelu_residual(x, b, r, y, m, n), y, ref, m * n, 1e-5);

    free(x); free(y); free(w); free(b); free(r); free(ref);
}

static void check_matmul(int64_t m, int64_t k, int64_t n)
{
    float *a = buf(m * k), *b = buf(k * n), *bias = buf(n), *c = buf(m * n);
    double *ref = malloc(sizeof(double) * (size_t)(m * n + 1));
    char what[80];
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            double s = 0;
            for (int64_t q = 0; q < k; q++) s += (double)a[i * k + q] * b[q * n + j];
            ref[i * n + j] = s;
        }
    double tol = 2e-6 * (double)(k + 1);
    snprintf(what, sizeof what, "matmul %lldx%lldx%lld", (long long)m, (long long)k, (long long)n);
    expect(what, matmul(a, b, c, m, k, n), c, ref, m * n, tol);
    for (int64_t i = 0; i < m * n; i++) ref[i] = gelu_ref(ref[i] + bias[i % n]);
    snprintf(what, sizeof what, "matmul_bias_gelu %lldx%lldx%lld", (long long)m, (long long)k,
             (long long)n);
    expect(what, matmul_bias_gelu(a, b, bias, c, m, k, n), c, ref, m * n, tol);
    free(a); free(b); free(bias); free(c); free(ref);
}

int main(void)
{
    static const int64_t vec_n[] = {1, 7, 2047, 2049, 10007};
    for (size_t i = 0; i < sizeof vec_n / sizeof *vec_n; i++)
        check_vec(vec_n[i]);

    static const int64_t rows[][2] = {{1, 1}, {3, 7}, {37, 1000}, {5, 1024}, {9, 1025},
                                      {2, 3001}, {17, 513}};
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        check_rows(rows[i][0], rows[i][1]);

    static const int64_t mm[][3] = {{1, 1, 1}, {3, 5, 7}, {5, 0, 7}, {64, 64, 64}, {65, 63, 129},
                                    {130, 257, 67}};
    for (size_t i = 0; i < sizeof mm / sizeof *mm; i++)
        check_matmul(mm[i][0], mm[i][1], mm[i][2]);

    /* Empty tensors: nothing to do, TK_OK, nothing written. */
    {
        float z = CANARY;
        tk_status s1 = softmax_online(&z, &z, 0, 5), s2 = layernorm(&z, &z, &z, &z, 1e-5f, 3, 0);
        tk_status s3 = add(NULL, NULL, NULL, 0);
        int ok = s1 == TK_OK && s2 == TK_OK && s3 == TK_OK && z == CANARY;
        failures += !ok;
        printf("%-4s empty tensors (M=0, N=0, NULL with no elements) -> %d %d %d\n", ok ? "ok" : "FAIL",
               (int)s1, (int)s2, (int)s3);
    }

    /* A failed argument check writes nothing and explains itself. */
    float one = 1.0f, out = CANARY;
    tk_status st = softmax(NULL, &out, 1, 1);
    int ok = st != TK_OK && out == CANARY;
    failures += !ok;
    printf("%-4s softmax(NULL) -> status %d: %s\n", ok ? "ok" : "FAIL", (int)st, tk_last_error());
    st = add(&one, &one, &out, -1);
    ok = st != TK_OK && out == CANARY;
    failures += !ok;
    printf("%-4s add(N=-1) -> status %d: %s\n", ok ? "ok" : "FAIL", (int)st, tk_last_error());

    printf("%s: %d failure%s\n", failures ? "FAILED" : "OK", failures, failures == 1 ? "" : "s");
    return failures != 0;
}
