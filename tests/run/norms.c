/* Run test: layernorm / rmsnorm, f32 and 16-bit storage, vs float64. */
#include "norms.h"
#include "tkt.h"

static void ln_ref(const double *x, const double *w, const double *b, double *y,
                   int64_t M, int64_t N, double eps)
{
    for (int64_t i = 0; i < M; i++) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < N; j++) mean += x[i * N + j];
        mean /= (double)N;
        for (int64_t j = 0; j < N; j++) var += (x[i * N + j] - mean) * (x[i * N + j] - mean);
        var /= (double)N;
        for (int64_t j = 0; j < N; j++)
            y[i * N + j] = (x[i * N + j] - mean) / sqrt(var + eps) * w[j] + (b ? b[j] : 0);
    }
}

static void rms_ref(const double *x, const double *w, double *y, int64_t M, int64_t N, double eps)
{
    for (int64_t i = 0; i < M; i++) {
        double ss = 0;
        for (int64_t j = 0; j < N; j++) ss += x[i * N + j] * x[i * N + j];
        double r = 1 / sqrt(ss / (double)N + eps);
        for (int64_t j = 0; j < N; j++) y[i * N + j] = x[i * N + j] * r * w[j];
    }
}

static double *dalloc(int64_t n) { return calloc(1, sizeof(double) * (size_t)(n + 1)); }

static void f32_case(int64_t M, int64_t N)
{
    float eps = 1e-5f;
    float *x = TKT_NEW(float, M * N), *w = TKT_NEW(float, N), *b = TKT_NEW(float, N);
    float *y = TKT_OUT(float, M * N);
    double *xd = dalloc(M * N), *wd = dalloc(N), *bd = dalloc(N), *ref = dalloc(M * N);
    tkt_fill(x, M * N, -2, 3);
    tkt_fill(w, N, 0.5, 1.5);
    tkt_fill(b, N, -1, 1);
    for (int64_t i = 0; i < M * N; i++) xd[i] = x[i];
    for (int64_t i = 0; i < N; i++) wd[i] = w[i], bd[i] = b[i];

    ln_ref(xd, wd, bd, ref, M, N, eps);
    int st = layernorm(x, w, b, y, eps, M, N);
    if (N <= 256) {
        tkt_status("layernorm", st, TK_OK, tk_last_error(), (char *)0);
        tkt_close("layernorm y", y, ref, M * N, 1e-5, 1e-4);
    } else {
        tkt_status("layernorm N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
    }
    tkt_check_guards();

    rms_ref(xd, wd, ref, M, N, eps);
    float *y2 = TKT_OUT(float, M * N), *y3 = TKT_OUT(float, M * N);
    st = rmsnorm(x, w, y2, eps, M, N);
    if (N <= 128) {
        tkt_status("rmsnorm", st, TK_OK, tk_last_error(), (char *)0);
        tkt_close("rmsnorm y", y2, ref, M * N, 1e-5, 1e-4);
    } else {
        tkt_status("rmsnorm N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
        for (int64_t i = 0; i < M * N; i++)
            TKT_CHECK(tkt_untouched(y2, (size_t)i, sizeof(float)), "rmsnorm wrote y2 after a failed require");
    }
    tkt_status("rmsnorm_loop", rmsnorm_loop(x, w, y3, eps, M, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("rmsnorm_loop y", y3, ref, M * N, 1e-5, 1e-4);
    tkt_check_guards();
    free(xd); free(wd); free(bd); free(ref);
    tkt_reset();
}

static void half_case(int64_t M, int64_t N)
{
    float eps = 1e-5f;
    tk_f16 *x = TKT_NEW(tk_f16, M * N), *w = TKT_NEW(tk_f16, N), *b = TKT_NEW(tk_f16, N);
    tk_f16 *y = TKT_OUT(tk_f16, M * N);
    tk_bf16 *xb = TKT_NEW(tk_bf16, M * N), *wb = TKT_NEW(tk_bf16, N), *yb = TKT_OUT(tk_bf16, M * N);
    double *xd = dalloc(M * N), *wd = dalloc(N), *bd = dalloc(N), *ref = dalloc(M * N);
    float *got = calloc(1, sizeof(float) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M * N; i++) {
        x[i] = tk_f32_to_f16((float)tkt_unif(-2, 3));
        xd[i] = tk_f16_to_f32(x[i]);
    }
    for (int64_t i = 0; i < N; i++) {
        w[i] = tk_f32_to_f16((float)tkt_unif(0.5, 1.5));
        b[i] = tk_f32_to_f16((float)tkt_unif(-1, 1));
        wd[i] = tk_f16_to_f32(w[i]);
        bd[i] = tk_f16_to_f32(b[i]);
    }
    ln_ref(xd, wd, bd, ref, M, N, eps);
    int st = layernorm_f16(x, w, b, y, eps, M, N);
    if (N <= 128) {
        tkt_status("layernorm_f16", st, TK_OK, tk_last_error(), (char *)0);
        for (int64_t i = 0; i < M * N; i++) got[i] = tk_f16_to_f32(y[i]);
        tkt_close("layernorm_f16 y", got, ref, M * N, 2e-3, 2e-3);
    } else {
        tkt_status("layernorm_f16 N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
    }

    for (int64_t i = 0; i < M * N; i++) {
        xb[i] = tk_f32_to_bf16((float)tkt_unif(-2, 3));
        xd[i] = tk_bf16_to_f32(xb[i]);
    }
    for (int64_t i = 0; i < N; i++) {
        wb[i] = tk_f32_to_bf16((float)tkt_unif(0.5, 1.5));
        wd[i] = tk_bf16_to_f32(wb[i]);
    }
    rms_ref(xd, wd, ref, M, N, eps);
    st = rmsnorm_bf16(xb, wb, yb, eps, M, N);
    if (N <= 64) {
        tkt_status("rmsnorm_bf16", st, TK_OK, tk_last_error(), (char *)0);
        for (int64_t i = 0; i < M * N; i++) got[i] = tk_bf16_to_f32(yb[i]);
        tkt_close("rmsnorm_bf16 y", got, ref, M * N, 1e-2, 1e-2);
    } else {
        tkt_status("rmsnorm_bf16 N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
    }
    tkt_check_guards();
    free(xd); free(wd); free(bd); free(ref); free(got);
    tkt_reset();
}

int main(void)
{
    static const int64_t ms[] = {0, 1, 5, 33};
    char name[80];
    for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
        for (int s = 0; s < TKT_NSIZES; s++) {
            snprintf(name, sizeof name, "M=%lld N=%lld", (long long)ms[a], (long long)tkt_sizes[s]);
            tkt_case = name;
            if (tkt_sizes[s] == 0)
                continue;   /* the mean of no elements is 0/0 */
            f32_case(ms[a], tkt_sizes[s]);
            half_case(ms[a], tkt_sizes[s]);
        }
    tkt_case = "errors";
    float *x = TKT_NEW(float, 16), *y = TKT_OUT(float, 16);
    tkt_snapshot();
    tkt_status("layernorm NULL w", layernorm(x, NULL, x, y, 1e-5f, 4, 4), TK_ERR_ARG, tk_last_error(),
               "w", (char *)0);
    tkt_status("rmsnorm_loop M<0", rmsnorm_loop(x, x, y, 1e-5f, -4, 4), TK_ERR_ARG, tk_last_error(),
               "M", (char *)0);
    tkt_unchanged();
    return tkt_done("norms");
}
