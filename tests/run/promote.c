/* Run test: promotion rules and low-precision dot. */
#include "promote.h"
#include "tkt.h"

static void promote_case(int64_t n)
{
    uint32_t *a = TKT_NEW(uint32_t, n), *sub = TKT_OUT(uint32_t, n);
    int32_t *b = TKT_NEW(int32_t, n), *sbb = TKT_OUT(int32_t, n);
    int64_t *c = TKT_NEW(int64_t, n), *scu = TKT_OUT(int64_t, n);
    tk_f16 *h = TKT_NEW(tk_f16, n), *lit = TKT_OUT(tk_f16, n);
    tk_bf16 *g = TKT_NEW(tk_bf16, n);
    bool *gt = TKT_OUT(bool, n);
    float *mix = TKT_OUT(float, n), *hb = TKT_OUT(float, n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (uint32_t)tkt_int(0, 4000000000LL);
        b[i] = (int32_t)tkt_int(-2000000000LL, 2000000000LL);
        if (i % 7 == 0) b[i] = -1;
        c[i] = tkt_int(-((int64_t)1 << 40), (int64_t)1 << 40);
        h[i] = tk_f32_to_f16((float)tkt_unif(-100, 100));
        g[i] = tk_f32_to_bf16((float)tkt_unif(-100, 100));
    }
    tkt_status("promote", promote(a, b, c, h, g, sub, gt, scu, sbb, mix, hb, lit, n), TK_OK,
               tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        tkt_eq_i64("u32 + i32", sub[i], (uint32_t)(a[i] + (uint32_t)b[i]), i);
        tkt_eq_i64("u32 > i32", gt[i], a[i] > (uint32_t)b[i], i);
        tkt_eq_i64("i64 + u32", scu[i], c[i] + (int64_t)a[i], i);
        tkt_eq_i64("bool + i32", sbb[i], (b[i] > 0) + b[i], i);
        double m = (double)b[i] + tk_f16_to_f32(h[i]) * 0.5;
        TKT_CHECK(tkt_near(mix[i], m, 0, 1e-6), "i32 + f32: mix[%lld] = %.9g, expected %.9g", (long long)i, mix[i], m);
        TKT_CHECK(hb[i] == tk_f16_to_f32(h[i]) + tk_bf16_to_f32(g[i]), "f16 + bf16: hb[%lld] = %g", (long long)i, hb[i]);
        tkt_eq_i64("f16 * 3 + 1", lit[i], tk_f32_to_f16(tk_f16_to_f32(h[i]) * 3.0f + 1.0f), i);
    }
    tkt_check_guards();
    tkt_reset();
}

static void dot_case(int64_t M, int64_t N, int64_t K)
{
    tk_f16 *a = TKT_NEW(tk_f16, M * K);
    tk_bf16 *b = TKT_NEW(tk_bf16, K * N);
    int8_t *p = TKT_NEW(int8_t, M * K), *q = TKT_NEW(int8_t, K * N);
    float *c = TKT_OUT(float, M * N);
    int32_t *r = TKT_OUT(int32_t, M * N);
    double *ref = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M * K; i++) {
        a[i] = tk_f32_to_f16((float)tkt_unif(-1, 1));
        p[i] = (int8_t)tkt_int(-128, 127);
    }
    for (int64_t i = 0; i < K * N; i++) {
        b[i] = tk_f32_to_bf16((float)tkt_unif(-1, 1));
        q[i] = (int8_t)tkt_int(-128, 127);
    }
    tkt_status("dot16", dot16(a, b, c, p, q, r, M, K, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            int64_t is = 0;
            for (int64_t k = 0; k < K; k++) {
                /* b is converted to f16 first */
                s += (double)tk_f16_to_f32(a[i * K + k]) * tk_f16_to_f32(tk_f32_to_f16(tk_bf16_to_f32(b[k * N + j])));
                is += p[i * K + k] * q[k * N + j];
            }
            ref[i * N + j] = s;
            tkt_eq_i64("i8 dot", r[i * N + j], is, i * N + j);
        }
    tkt_close("f16 dot", c, ref, M * N, 1e-5 * (double)(K + 1), 1e-5);
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

int main(void)
{
    char name[64];
    for (int s = 0; s < TKT_NSIZES; s++) {
        snprintf(name, sizeof name, "N=%lld", (long long)tkt_sizes[s]);
        tkt_case = name;
        promote_case(tkt_sizes[s]);
    }
    static const int64_t shapes[][3] = {{0, 0, 0}, {1, 1, 1}, {7, 13, 5}, {16, 16, 16}, {17, 33, 31}, {40, 9, 100}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        snprintf(name, sizeof name, "dot M=%lld N=%lld K=%lld", (long long)shapes[k][0], (long long)shapes[k][1], (long long)shapes[k][2]);
        tkt_case = name;
        dot_case(shapes[k][0], shapes[k][1], shapes[k][2]);
    }
    return tkt_done("promote");
}
