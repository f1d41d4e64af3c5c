/* Run test: fused elementwise kernels vs float64 references. */
#include "fused.h"
#include "tkt.h"

static double gelu(double x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }
static double sigm(double x) { return 1.0 / (1.0 + exp(-x)); }

static void bias_gelu_case(int64_t M, int64_t N)
{
    float *x = TKT_NEW(float, M * N), *b = TKT_NEW(float, N), *y = TKT_OUT(float, M * N);
    double *ref = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    tkt_fill(x, M * N, -4, 4);
    tkt_fill(b, N, -1, 1);
    tkt_status("bias_gelu", bias_gelu(x, b, y, M, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++)
            ref[i * N + j] = gelu((double)(x[i * N + j] + b[j]));
    tkt_close("bias_gelu y", y, ref, M * N, 2e-6, 2e-5);
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

static void act_case(int64_t n)
{
    float *x = TKT_NEW(float, n);
    tk_f16 *h16 = TKT_NEW(tk_f16, n);
    float *sg = TKT_OUT(float, n), *th = TKT_OUT(float, n), *lr = TKT_OUT(float, n);
    float *pos = TKT_OUT(float, n), *dbl = TKT_OUT(float, n);
    tk_f16 *h = TKT_OUT(tk_f16, n);
    tk_bf16 *hb = TKT_OUT(tk_bf16, n);
    int32_t *q = TKT_OUT(int32_t, n);
    double *ref = calloc(1, sizeof(double) * (size_t)(n + 1));
    tkt_fill(x, n, -6, 6);
    for (int64_t i = 0; i < n; i++)
        h16[i] = tk_f32_to_f16((float)tkt_unif(-100, 100));
    tkt_status("act_mix", act_mix(x, h16, sg, th, lr, pos, h, hb, q, dbl, n), TK_OK,
               tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) ref[i] = sigm(x[i]);
    tkt_close("sigmoid", sg, ref, n, 1e-6, 1e-5);
    for (int64_t i = 0; i < n; i++) ref[i] = tanh(x[i]);
    tkt_close("tanh", th, ref, n, 1e-6, 1e-5);
    for (int64_t i = 0; i < n; i++) ref[i] = x[i] > 0 ? x[i] : 0.1 * x[i];
    tkt_close("leaky relu", lr, ref, n, 1e-7, 1e-6);
    for (int64_t i = 0; i < n; i++) ref[i] = x[i] > 0 ? 1.0 : 0.0;
    tkt_close("bool as f32", pos, ref, n, 0, 0);
    for (int64_t i = 0; i < n; i++) ref[i] = 2.0 * tk_f16_to_f32(h16[i]);
    tkt_close("f16 * 2.0", dbl, ref, n, 0, 0);
    for (int64_t i = 0; i < n; i++) {
        tkt_eq_i64("x*3 as f16", h[i], tk_f32_to_f16(x[i] * 3.0f), i);
        tkt_eq_i64("x as bf16", hb[i], tk_f32_to_bf16(x[i]), i);
        tkt_eq_i64("x*10 as i32", q[i], (int32_t)(x[i] * 10.0f), i);
    }
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

static void math_case(int64_t n)
{
    float *x = TKT_NEW(float, n), *w = TKT_NEW(float, n), *y = TKT_OUT(float, 21 * n);
    double *ref = calloc(1, sizeof(double) * (size_t)(n + 1));
    static const char *names[21] = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin",
        "cos", "tanh", "erf", "sigmoid", "abs", "floor", "ceil", "pow", "fma", "min", "max",
        "fmod", "neg", "sqrt(int)"};
    tkt_fill(x, n, -3, 3);
    tkt_fill(w, n, -3, 3);
    tkt_status("mathfns", mathfns(x, w, y, n), TK_OK, tk_last_error(), (char *)0);
    for (int r = 0; r < 21; r++) {
        for (int64_t i = 0; i < n; i++) {
            double v = x[i], p = fabs(v) + 0.25, o;
            switch (r) {
            case 0: o = exp(v); break;
            case 1: o = exp2(v); break;
            case 2: o = log(p); break;
            case 3: o = log2(p); break;
            case 4: o = sqrt(p); break;
            case 5: o = 1 / sqrt(p); break;
            case 6: o = sin(v); break;
            case 7: o = cos(v); break;
            case 8: o = tanh(v); break;
            case 9: o = erf(v); break;
            case 10: o = sigm(v); break;
            case 11: o = fabs(v); break;
            case 12: o = floor(v); break;
            case 13: o = ceil(v); break;
            case 14: o = pow(p, v); break;
            case 15: o = v * p + 1.5; break;
            case 16: o = v < 0.5 ? v : 0.5; break;
            case 17: o = v > w[i] ? v : w[i]; break;
            case 18: o = fmod(v, 1.5); break;
            case 19: o = -v; break;
            default: o = sqrt((double)i); break;
            }
            ref[i] = o;
        }
        tkt_close(names[r], y + r * n, ref, n, 2e-6, 1e-5);
    }
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

int main(void)
{
    static const int64_t mn[][2] = {{0, 5}, {5, 0}, {1, 1}, {7, 13}, {13, 7}, {16, 32},
        {17, 33}, {127, 129}, {3, 1021}, {100, 1}};
    char name[64];
    for (size_t k = 0; k < sizeof mn / sizeof mn[0]; k++) {
        snprintf(name, sizeof name, "bias_gelu M=%lld N=%lld", (long long)mn[k][0], (long long)mn[k][1]);
        tkt_case = name;
        bias_gelu_case(mn[k][0], mn[k][1]);
    }
    for (int s = 0; s < TKT_NSIZES; s++) {
        snprintf(name, sizeof name, "act/math N=%lld", (long long)tkt_sizes[s]);
        tkt_case = name;
        act_case(tkt_sizes[s]);
        math_case(tkt_sizes[s]);
    }
    tkt_case = "errors";
    float *x = TKT_NEW(float, 4), *y = TKT_OUT(float, 4);
    tkt_snapshot();
    tkt_status("bias_gelu NULL bias", bias_gelu(x, NULL, y, 2, 2), TK_ERR_ARG, tk_last_error(),
               "bias", (char *)0);
    tkt_status("bias_gelu M<0", bias_gelu(x, x, y, -2, 2), TK_ERR_ARG, tk_last_error(), "M", (char *)0);
    tkt_status("bias_gelu M*N too big", bias_gelu(x, x, y, (int64_t)1 << 40, (int64_t)1 << 40),
               TK_ERR_ARG, tk_last_error(), (char *)0);
    tkt_unchanged();
    return tkt_done("fused");
}
