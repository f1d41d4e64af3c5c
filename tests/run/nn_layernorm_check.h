/*
 * tests/run/nn_layernorm_check.h — the body of the run tests of stdlib/nn.tk's
 * layernorm_f16.  Each driver tests/run/nn_layernorm*.c defines
 *
 *   LN_BLOCK     the BLOCK its header was made with (-D BLOCK=..)
 *   LN_PASSES    its PASSES (0: one pass when N <= BLOCK, else three;
 *                1: one pass, require N <= BLOCK; 3: three passes)
 *
 * includes its generated header and tkt.h, then this file, and calls
 * ln_main().  Results are compared with a float64 layernorm of the same f16
 * inputs; rows are checked at the odd sizes of tkt_sizes, around BLOCK and
 * at 4093/4096/4097, with a zero-mean and a large-mean (100 +- 2) input, the
 * second of which a one-pass E[x^2] - E[x]^2 would get wrong.
 */
#ifndef LN_BLOCK
#error "define LN_BLOCK and LN_PASSES before including nn_layernorm_check.h"
#endif

static void ln_ref(const double *x, const double *w, const double *b, double *y, int64_t M, int64_t N,
                   double eps)
{
    for (int64_t i = 0; i < M; i++) {
        double mean = 0, var = 0;
        for (int64_t j = 0; j < N; j++) mean += x[i * N + j];
        mean /= (double)N;
        for (int64_t j = 0; j < N; j++) var += (x[i * N + j] - mean) * (x[i * N + j] - mean);
        var /= (double)N;
        for (int64_t j = 0; j < N; j++)
            y[i * N + j] = (x[i * N + j] - mean) / sqrt(var + eps) * w[j] + b[j];
    }
}

static void ln_case(int64_t M, int64_t N, double center)
{
    float eps = 1e-5f;
    tk_f16 *x = TKT_NEW(tk_f16, M * N), *w = TKT_NEW(tk_f16, N), *b = TKT_NEW(tk_f16, N);
    tk_f16 *y = TKT_OUT(tk_f16, M * N);
    double *xd = calloc(1, sizeof(double) * (size_t)(M * N + 1)), *wd = calloc(1, sizeof(double) * (size_t)(N + 1));
    double *bd = calloc(1, sizeof(double) * (size_t)(N + 1)), *ref = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    float *got = calloc(1, sizeof(float) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M * N; i++) {
        x[i] = tk_f32_to_f16((float)(center + tkt_unif(-2, 2)));
        xd[i] = tk_f16_to_f32(x[i]);
    }
    for (int64_t i = 0; i < N; i++) {
        w[i] = tk_f32_to_f16((float)tkt_unif(0.5, 1.5));
        b[i] = tk_f32_to_f16((float)tkt_unif(-1, 1));
        wd[i] = tk_f16_to_f32(w[i]);
        bd[i] = tk_f16_to_f32(b[i]);
    }
    int st = layernorm_f16(x, w, b, y, eps, M, N);
    if (LN_PASSES == 1 && N > LN_BLOCK) {
        tkt_status("layernorm_f16 N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N <= BLOCK", (char *)0);
        for (int64_t i = 0; i < M * N; i++)
            TKT_CHECK(tkt_untouched(y, (size_t)i, sizeof(tk_f16)), "layernorm_f16 wrote y after a failed require");
    } else {
        tkt_status("layernorm_f16", st, TK_OK, tk_last_error(), (char *)0);
        ln_ref(xd, wd, bd, ref, M, N, eps);
        for (int64_t i = 0; i < M * N; i++) got[i] = tk_f16_to_f32(y[i]);
        tkt_close("layernorm_f16 y", got, ref, M * N, 4e-3, 4e-3);
    }
    tkt_check_guards();
    free(xd); free(wd); free(bd); free(ref); free(got);
    tkt_reset();
}

static int ln_main(const char *test)
{
    static const int64_t big[] = {LN_BLOCK - 1, LN_BLOCK, LN_BLOCK + 1, 2 * LN_BLOCK + 3, 4093, 4096, 4097};
    static const int64_t ms[] = {0, 1, 5, 33};
    char name[80];
    for (int c = 0; c < 2; c++) {
        double center = c ? 100 : 0;
        for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
            for (int s = 1; s < TKT_NSIZES; s++) {   /* not N = 0: the mean of no elements */
                snprintf(name, sizeof name, "M=%lld N=%lld mean=%g", (long long)ms[a], (long long)tkt_sizes[s], center);
                tkt_case = name;
                ln_case(ms[a], tkt_sizes[s], center);
            }
        for (size_t s = 0; s < sizeof big / sizeof big[0]; s++) {
            snprintf(name, sizeof name, "M=3 N=%lld mean=%g", (long long)big[s], center);
            tkt_case = name;
            ln_case(3, big[s], center);
        }
    }
    return tkt_done(test);
}
