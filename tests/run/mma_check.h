/*
 * tests/run/mma_check.h — the inputs and float64 references the 16-bit
 * matmul run tests share (tests/run/mma.c, mma_pipe.c).  Include it after
 * the generated header and tkt.h.
 *
 *   MmaIn x = mma_in(M, N, K);     bf16 a, b and f16 ah, bh in [-1, 1), and
 *                                  rb = a b, rh = ah bh in float64
 *   mma_ab(&x, i, j, k)            one term a[i, k] b[k, j] of rb
 *   mma_free(&x);                  the references (tkt_reset frees the rest)
 *   MMA_EXPECT(&x, "label", call, out, conv, rb or rh, tol, rel)
 *                                  call (a kernel call writing out, M x N)
 *                                  returns TK_OK and out, widened by conv,
 *                                  is within tol + rel * |ref| of x.ref
 */
#ifndef MMA_CHECK_H
#define MMA_CHECK_H

typedef struct {
    int64_t M, N, K;
    tk_bf16 *a, *b;              /* [M, K], [K, N] */
    tk_f16 *ah, *bh;
    double *rb, *rh;             /* [M, N] */
} MmaIn;

static double mma_ab(const MmaIn *x, int64_t i, int64_t j, int64_t k)
{
    return (double)tk_bf16_to_f32(x->a[i * x->K + k]) * tk_bf16_to_f32(x->b[k * x->N + j]);
}

static MmaIn mma_in(int64_t M, int64_t N, int64_t K)
{
    MmaIn x = { M, N, K, TKT_NEW(tk_bf16, M * K), TKT_NEW(tk_bf16, K * N), TKT_NEW(tk_f16, M * K),
                TKT_NEW(tk_f16, K * N), calloc(1, sizeof(double) * (size_t)(M * N + 1)),
                calloc(1, sizeof(double) * (size_t)(M * N + 1)) };
    for (int64_t i = 0; i < M * K; i++) {
        x.a[i] = tk_f32_to_bf16((float)tkt_unif(-1, 1));
        x.ah[i] = tk_f32_to_f16((float)tkt_unif(-1, 1));
    }
    for (int64_t i = 0; i < K * N; i++) {
        x.b[i] = tk_f32_to_bf16((float)tkt_unif(-1, 1));
        x.bh[i] = tk_f32_to_f16((float)tkt_unif(-1, 1));
    }
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double sb = 0, sh = 0;
            for (int64_t k = 0; k < K; k++) {
                sb += mma_ab(&x, i, j, k);
                sh += (double)tk_f16_to_f32(x.ah[i * K + k]) * tk_f16_to_f32(x.bh[k * N + j]);
            }
            x.rb[i * N + j] = sb;
            x.rh[i * N + j] = sh;
        }
    return x;
}

#define MMA_EXPECT(x, label, call, out, conv, ref, tol, rel)                            \
    do {                                                                                 \
        tkt_status(label, (call), TK_OK, tk_last_error(), (char *)0);                    \
        int64_t n_ = (x)->M * (x)->N;                                                    \
        float *got_ = TKT_OUT(float, n_);                                                \
        for (int64_t i_ = 0; i_ < n_; i_++)                                              \
            got_[i_] = conv((out)[i_]);                                                  \
        tkt_close(label " c", got_, (x)->ref, n_, tol, rel);                             \
    } while (0)

/* One shape through a bf16 kernel and an f16 one, both called as
 * KERNEL(a, b, c, M, K, N) (stdlib matmul_bf16 / matmul_f16 or variants of
 * them), each against float64 on the rounded inputs, then the guards.  An
 * empty result (M or N 0) still gets one element, a non-NULL pointer. */
#define MMA_PAIR(M, N, K, bf16_kernel, f16_kernel)                                         \
    do {                                                                                 \
        MmaIn x_ = mma_in(M, N, K);                                                      \
        int64_t n_c_ = (M) * (N) + ((M) * (N) == 0);                                     \
        tk_bf16 *c1_ = TKT_OUT(tk_bf16, n_c_);                                           \
        tk_f16 *c2_ = TKT_OUT(tk_f16, n_c_);                                             \
        double tol_ = 1e-5 * (double)((K) + 1);                                          \
        MMA_EXPECT(&x_, #bf16_kernel, bf16_kernel(x_.a, x_.b, c1_, M, K, N), c1_, tk_bf16_to_f32, rb, \
                   tol_, 8e-3);                                                          \
        MMA_EXPECT(&x_, #f16_kernel, f16_kernel(x_.ah, x_.bh, c2_, M, K, N), c2_, tk_f16_to_f32, rh, \
                   tol_, 2e-3);                                                          \
        tkt_check_guards();                                                              \
        mma_free(&x_);                                                                   \
        tkt_reset();                                                                     \
    } while (0)

static inline float mma_f32(float v) { return v; }

static void mma_free(MmaIn *x)
{
    free(x->rb);
    free(x->rh);
}

#endif
