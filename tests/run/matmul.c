/* Run test: tiled matmul (K loop, odd sizes), bias+GELU epilogue, a @ b^T. */
#include "matmul.h"
#include "tkt.h"

static double gelu(double x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }

static void one(int64_t M, int64_t N, int64_t K)
{
    float *a = TKT_NEW(float, M * K), *b = TKT_NEW(float, K * N), *bt = TKT_NEW(float, N * K);
    float *bias = TKT_NEW(float, N);
    float *c = TKT_OUT(float, M * N), *c2 = TKT_OUT(float, M * N), *c3 = TKT_OUT(float, M * N);
    double *ref = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    double *ref2 = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    tkt_fill(a, M * K, -1, 1);
    tkt_fill(b, K * N, -1, 1);
    tkt_fill(bias, N, -1, 1);
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++)
            bt[j * K + k] = b[k * N + j];
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            for (int64_t k = 0; k < K; k++)
                s += (double)a[i * K + k] * b[k * N + j];
            ref[i * N + j] = s;
            ref2[i * N + j] = gelu(s + bias[j]);
        }
    double tol = 1e-6 * (double)(K + 1);
    tkt_status("matmul", matmul(a, b, c, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("matmul c", c, ref, M * N, tol, 1e-5);
    tkt_status("matmul_bias_gelu", matmul_bias_gelu(a, b, bias, c2, M, K, N), TK_OK,
               tk_last_error(), (char *)0);
    tkt_close("matmul_bias_gelu c", c2, ref2, M * N, tol, 1e-5);
    tkt_status("matmul_bt", matmul_bt(a, bt, c3, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("matmul_bt c", c3, ref, M * N, tol, 1e-5);
    tkt_check_guards();
    free(ref);
    free(ref2);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {0, 0, 0}, {0, 5, 3}, {5, 0, 3}, {4, 6, 0}, {1, 1, 1}, {1, 7, 13}, {13, 1, 7},
        {7, 13, 1}, {32, 32, 16}, {33, 31, 17}, {64, 64, 64}, {127, 65, 33}, {100, 3, 257},
        {3, 129, 100}, {200, 150, 70},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1],
                  (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    tkt_case = "errors";
    float *a = TKT_NEW(float, 64), *c = TKT_OUT(float, 64);
    tkt_snapshot();
    tkt_status("matmul NULL b", matmul(a, NULL, c, 8, 8, 8), TK_ERR_ARG, tk_last_error(), "b", (char *)0);
    tkt_status("matmul K<0", matmul(a, a, c, 8, -1, 8), TK_ERR_ARG, tk_last_error(), "K", (char *)0);
    tkt_status("matmul huge", matmul(a, a, c, (int64_t)1 << 62, 4, 4), TK_ERR_ARG, tk_last_error(),
               (char *)0);
    tkt_unchanged();
    /* b has no elements when K = 0: NULL is fine for it, not for c. */
    tkt_status("matmul K=0 NULL a, b", matmul(NULL, NULL, c, 8, 0, 8), TK_OK, tk_last_error(), (char *)0);
    for (int i = 0; i < 64; i++)
        TKT_CHECK(c[i] == 0.0f, "K=0: c[%d] = %g, expected 0", i, c[i]);
    return tkt_done("matmul");
}
