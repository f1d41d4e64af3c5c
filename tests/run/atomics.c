/* Run test: atomic_add / atomic_max on every dtype they take, with bins
 * that lanes and programs share, bins out of range (dropped), masks, a
 * scalar counter per program and split-K matmuls (f32 and bf16 operands). */
#include "atomics.h"
#include "tkt.h"

static void hist_case(int64_t N, int64_t NB)
{
    tkt_casef("hist N=%lld NB=%lld", (long long)N, (long long)NB);
    int32_t *x = TKT_NEW(int32_t, N);
    float *w = TKT_NEW(float, N);
    int32_t *cnt = TKT_OUT(int32_t, NB), *imx = TKT_OUT(int32_t, NB), *progs = TKT_OUT(int32_t, 1);
    double *total = TKT_OUT(double, 1), rtotal = 0.5;
    int64_t *cnt64 = TKT_OUT(int64_t, NB);
    uint32_t *ucnt = TKT_OUT(uint32_t, NB), *umx = TKT_OUT(uint32_t, NB);
    float *sum = TKT_OUT(float, NB), *mx = TKT_OUT(float, NB);
    double *sum64 = TKT_OUT(double, NB), *mx64 = TKT_OUT(double, NB);
    double *rsum = calloc((size_t)NB + 1, sizeof(double)), *rsum64 = calloc((size_t)NB + 1, sizeof(double));
    int64_t *rcnt = calloc((size_t)NB + 1, sizeof(int64_t)), *rcnt64 = calloc((size_t)NB + 1, sizeof(int64_t));
    for (int64_t i = 0; i < N; i++) {
        x[i] = (int32_t)tkt_int(-3, NB + 2);     /* some out of range: no update */
        w[i] = (float)tkt_unif(-1, 1);
    }
    float rmx[NB + 1];
    double rmx64[NB + 1];
    int32_t rimx[NB + 1];
    uint32_t rucnt[NB + 1], rumx[NB + 1];
    for (int64_t j = 0; j < NB; j++) {
        cnt[j] = (int32_t)tkt_int(-5, 5);
        cnt64[j] = tkt_int(-1000, 1000) * ((int64_t)1 << 40);
        ucnt[j] = (uint32_t)tkt_int(0, 4000000000);
        sum[j] = (float)tkt_unif(-1, 1);
        sum64[j] = tkt_unif(-1, 1);
        mx[j] = (float)tkt_unif(-2, 0.5);        /* some bins keep it; negative maxima too */
        mx64[j] = tkt_unif(-4, 1);
        imx[j] = (int32_t)tkt_int(-2000, 500);
        umx[j] = (uint32_t)tkt_int(0, 50);
        rcnt[j] = cnt[j], rcnt64[j] = cnt64[j], rucnt[j] = ucnt[j];
        rsum[j] = sum[j], rsum64[j] = sum64[j];
        rmx[j] = mx[j], rmx64[j] = mx64[j], rimx[j] = imx[j], rumx[j] = umx[j];
    }
    progs[0] = 11;
    total[0] = 0.5;
    for (int64_t i = 0; i < N; i++) {
        rtotal += w[i];
        int64_t j = x[i];
        if (j < 0 || j >= NB)
            continue;
        rcnt[j]++;
        rcnt64[j] += i * 4096;
        rucnt[j] += 3u;
        rsum[j] += w[i];
        rsum64[j] += w[i];
        if (w[i] > rmx[j]) rmx[j] = w[i];
        if (2.0 * w[i] > rmx64[j]) rmx64[j] = 2.0 * w[i];
        int32_t iv = (int32_t)(w[i] * 1000.0f);
        if (iv > rimx[j]) rimx[j] = iv;
        if (w[i] > 0 && (uint32_t)i > rumx[j]) rumx[j] = (uint32_t)i;
    }
    int st = hist(x, w, cnt, cnt64, ucnt, sum, sum64, mx, mx64, imx, umx, progs, total, N, NB);
    tkt_status("hist", st, TK_OK, tk_last_error(), (char *)0);
    tkt_eq_i64("programs", progs[0], 11 + (N + 127) / 128, 0);
    tkt_close_d("total", total, &rtotal, 1, 1e-9, 1e-12);
    for (int64_t j = 0; j < NB; j++) {
        tkt_eq_i64("cnt", cnt[j], rcnt[j], j);
        tkt_eq_i64("cnt64", cnt64[j], rcnt64[j], j);
        tkt_eq_i64("ucnt", ucnt[j], rucnt[j], j);
        tkt_eq_i64("imx", imx[j], rimx[j], j);
        tkt_eq_i64("umx", umx[j], rumx[j], j);
        TKT_CHECK(mx[j] == rmx[j], "mx[%lld] = %.9g, want %.9g", (long long)j, mx[j], rmx[j]);
        TKT_CHECK(mx64[j] == rmx64[j], "mx64[%lld] = %.17g, want %.17g", (long long)j, mx64[j], rmx64[j]);
    }
    tkt_close("sum", sum, rsum, NB, 1e-4, 1e-5);
    tkt_close_d("sum64", sum64, rsum64, NB, 1e-9, 1e-12);
    tkt_check_guards();
    free(rsum), free(rsum64), free(rcnt), free(rcnt64);
    tkt_reset();
}

static void splitk_case(int64_t M, int64_t N, int64_t K, int64_t KS, int bf)
{
    tkt_casef("matmul_splitk%s M=%lld N=%lld K=%lld KS=%lld", bf ? "_bf16" : "", (long long)M, (long long)N,
              (long long)K, (long long)KS);
    float *a = TKT_NEW(float, M * K), *b = TKT_NEW(float, K * N), *c = TKT_OUT(float, M * N);
    tk_bf16 *ah = TKT_NEW(tk_bf16, M * K), *bh = TKT_NEW(tk_bf16, K * N);
    double *ref = calloc((size_t)(M * N) + 1, sizeof(double));
    tkt_fill(a, M * K, -1, 1);
    tkt_fill(b, K * N, -1, 1);
    tkt_fill(c, M * N, -2, 2);
    TKT_TO_BF16(a, ah, M * K, bf);
    TKT_TO_BF16(b, bh, K * N, bf);
    tkt_matmul_ref(ref, a, b, c, M, N, K);
    int st = bf ? matmul_splitk_bf16(ah, bh, c, KS, M, K, N) : matmul_splitk(a, b, c, KS, M, K, N);
    tkt_status("matmul_splitk", st, TK_OK, tk_last_error(), (char *)0);
    tkt_close("c", c, ref, M * N, 2e-4 * (1 + K / 64), 1e-4);
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

static void bump_case(int64_t N)
{
    tkt_casef("bump N=%lld", (long long)N);
    int32_t *t = TKT_OUT(int32_t, N), *seen = TKT_OUT(int32_t, N * 3);
    for (int64_t j = 0; j < N; j++)
        t[j] = (int32_t)tkt_int(-100, 100);
    int32_t t0[65];
    memcpy(t0, t, sizeof *t * (size_t)N);
    int st = bump(t, seen, N);
    tkt_status("bump", st, TK_OK, tk_last_error(), (char *)0);
    for (int64_t j = 0; j < N; j++) {
        int32_t v = t0[j];
        int lanes = (2 * j < 64) + (2 * j + 1 < 64);   /* lanes 2j and 2j + 1 of the 64 */
        for (int i = 0; i < 3; i++) {
            v += lanes * (1 + i);
            tkt_eq_i64("seen", seen[j * 3 + i], v, j * 3 + i);
        }
        tkt_eq_i64("t", t[j], v, j);
    }
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    static const int64_t ns[] = {0, 1, 7, 128, 129, 1000, 4097};
    static const int64_t nbs[] = {1, 7, 64};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
        for (size_t j = 0; j < sizeof nbs / sizeof *nbs; j++)
            hist_case(ns[i], nbs[j]);
    static const int64_t mm[][4] = {{1, 1, 1, 1}, {33, 17, 100, 37}, {64, 64, 257, 64}, {70, 45, 1000, 160},
                                    {5, 129, 64, 1000}, {40, 3, 0, 16}};
    for (int bf = 0; bf < 2; bf++)
        for (size_t i = 0; i < sizeof mm / sizeof *mm; i++)
            splitk_case(mm[i][0], mm[i][1], mm[i][2], mm[i][3], bf);
    static const int64_t bs[] = {0, 1, 31, 64};
    for (size_t i = 0; i < sizeof bs / sizeof *bs; i++)
        bump_case(bs[i]);
    return tkt_done("atomics");
}
