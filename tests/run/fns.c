/* Run test: fn helpers (generic, typed, nested, imported) on 1-D and 2-D
 * tiles; the imported file's kernel is not emitted here. */
#include "fns.h"
#include "tkt.h"

/* lib_helpers.tk's kernel must not be in this header: the name is free. */
static int lib_only;

static double gelu(double x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }
static double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

static void two_d(int64_t M, int64_t N)
{
    float *x = TKT_NEW(float, M * N), *sq = TKT_OUT(float, M * N), *g = TKT_OUT(float, M * N);
    float *cl = TKT_OUT(float, M * N), *means = TKT_OUT(float, M), *lp = TKT_OUT(float, M * N);
    tk_f16 *h = TKT_OUT(tk_f16, M * N);
    tkt_fill(x, M * N, -2, 2);
    int st = fns2d(x, sq, g, cl, means, lp, h, M, N);
    if (N > 16) {
        tkt_status("fns2d N > BN", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
        tkt_reset();
        return;
    }
    tkt_status("fns2d", st, TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++) {
        double s = 0;
        for (int64_t j = 0; j < N; j++) {
            int64_t k = i * N + j;
            double v = x[k];
            s += v;
            TKT_CHECK(tkt_near(sq[k], v * v, 1e-6, 1e-6), "square[%lld] = %g", (long long)k, sq[k]);
            TKT_CHECK(tkt_near(g[k], gelu(v) * gelu(v), 1e-5, 1e-5), "sq_gelu[%lld] = %g, expected %g", (long long)k, g[k], gelu(v) * gelu(v));
            TKT_CHECK(cl[k] == clamp01(v), "clamp01[%lld] = %g", (long long)k, cl[k]);
            TKT_CHECK(tkt_near(lp[k], v * v, 1e-6, 1e-6), "lerp[%lld] = %g, expected %g", (long long)k, lp[k], v * v);
            float hv = tk_f16_to_f32(tk_f32_to_f16(x[k]));
            TKT_CHECK(tkt_near(tk_f16_to_f32(h[k]), (double)hv * hv, 1e-3, 1e-3), "f16 square[%lld] = %g, expected %g",
                      (long long)k, tk_f16_to_f32(h[k]), (double)hv * hv);
        }
        TKT_CHECK(N == 0 || tkt_near(means[i], s / (double)N, 1e-6, 1e-5), "row_mean[%lld] = %g, expected %g",
                  (long long)i, means[i], s / (double)N);
    }
    tkt_check_guards();
    tkt_reset();
}

static void one_d(int64_t n)
{
    float *x = TKT_NEW(float, n), *sq = TKT_OUT(float, n), *cl = TKT_OUT(float, n), *y = TKT_OUT(float, 2 * n);
    tkt_fill(x, n, -2, 2);
    tkt_status("fns1d", fns1d(x, sq, cl, y, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        TKT_CHECK(sq[i] == x[i] * x[i], "square[%lld] = %g", (long long)i, sq[i]);
        TKT_CHECK(cl[i] == clamp01(x[i]), "clamp01[%lld] = %g", (long long)i, cl[i]);
        TKT_CHECK(y[i] == x[i] + 1.0f, "y[0, %lld] = %g", (long long)i, y[i]);
        TKT_CHECK(y[n + i] == 4.0f, "y[1, %lld] = %g, expected 4", (long long)i, y[n + i]);
    }
    tkt_check_guards();
    tkt_reset();
}

/* fns_dtype: an element type passed to fns (`as dt`, zeros(dt, ...)) */
static void dtypes(int64_t n)
{
    float *x = TKT_NEW(float, n), *h = TKT_OUT(float, n), *b = TKT_OUT(float, n);
    int32_t *iv = TKT_OUT(int32_t, n);
    tkt_fill(x, n, -40, 40);
    tkt_status("fns_dtype", fns_dtype(x, h, b, iv, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t k = 0; k < n; k++) {
        float hv = tk_f16_to_f32(tk_f32_to_f16(x[k]));
        float bv = tk_bf16_to_f32(tk_f32_to_bf16(2 * tk_bf16_to_f32(tk_f32_to_bf16(x[k]))));
        TKT_CHECK(h[k] == hv, "as f16 [%lld] = %g, expected %g", (long long)k, h[k], hv);
        TKT_CHECK(b[k] == bv, "bf16 acc [%lld] = %g, expected %g", (long long)k, b[k], bv);
        TKT_CHECK(iv[k] == (int32_t)(x[k] * 4.0f), "i32 [%lld] = %d, expected %d", (long long)k, iv[k],
                  (int32_t)(x[k] * 4.0f));
    }
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    (void)lib_only;
    static const int64_t mn[][2] = {{0, 3}, {1, 1}, {3, 16}, {4, 7}, {9, 13}, {33, 16}, {5, 17}};
    char name[64];
    for (size_t k = 0; k < sizeof mn / sizeof mn[0]; k++) {
        snprintf(name, sizeof name, "M=%lld N=%lld", (long long)mn[k][0], (long long)mn[k][1]);
        tkt_case = name;
        two_d(mn[k][0], mn[k][1]);
    }
    for (int s = 0; s < TKT_NSIZES; s++) {
        snprintf(name, sizeof name, "N=%lld", (long long)tkt_sizes[s]);
        tkt_case = name;
        one_d(tkt_sizes[s]);
        dtypes(tkt_sizes[s]);
    }
    return tkt_done("fns");
}
