/* Run test: stdlib matmul_tf32 (operands rounded to tf32, f32 sums),
 * matmul_tf32_nt on B transposed by transpose_f32, and matmul_i8 (exact
 * i32) at odd shapes, against float64 / integer sums. */
#include "matmul_dtypes.h"
#include "tkt.h"

static void one(int64_t M, int64_t N, int64_t K)
{
    float *a = TKT_NEW(float, M * K), *b = TKT_NEW(float, K * N), *c = TKT_OUT(float, M * N);
    float *bt = TKT_OUT(float, N * K), *cn = TKT_OUT(float, M * N);
    int8_t *ai = TKT_NEW(int8_t, M * K), *bi = TKT_NEW(int8_t, K * N);
    int32_t *ci = TKT_OUT(int32_t, M * N);
    tkt_fill(a, M * K, -1, 1);
    tkt_fill(b, K * N, -1, 1);
    for (int64_t i = 0; i < M * K; i++)
        ai[i] = (int8_t)tkt_int(-128, 127);
    for (int64_t i = 0; i < K * N; i++)
        bi[i] = (int8_t)tkt_int(-128, 127);
    double *r = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    tkt_status("matmul_tf32", matmul_tf32(a, b, c, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_status("matmul_i8", matmul_i8(ai, bi, ci, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_status("transpose_f32", transpose_f32(b, bt, K, N), TK_OK, tk_last_error(), (char *)0);
    double *rt = calloc(1, sizeof(double) * (size_t)(N * K + 1));
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++)
            rt[j * K + k] = b[k * N + j];
    tkt_close("transpose_f32 bt", bt, rt, N * K, 0, 0);
    free(rt);
    tkt_status("matmul_tf32_nt", matmul_tf32_nt(a, bt, cn, M, K, N), TK_OK, tk_last_error(), (char *)0);
    int bad = 0;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            int64_t si = 0;
            for (int64_t k = 0; k < K; k++) {
                s += tkt_tf32(a[i * K + k]) * tkt_tf32(b[k * N + j]);
                si += (int64_t)ai[i * K + k] * bi[k * N + j];
            }
            r[i * N + j] = s;
            if (ci[i * N + j] != si && bad++ < 5)
                tkt_eq_i64("matmul_i8 c", ci[i * N + j], si, i * N + j);
        }
    tkt_close("matmul_tf32 c", c, r, M * N, 1e-6 * (double)K + 1e-5, 1e-5);
    tkt_close("matmul_tf32_nt c", cn, r, M * N, 1e-6 * (double)K + 1e-5, 1e-5);
    tkt_check_guards();
    free(r);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {130, 200, 72}, {67, 131, 97}, {5, 67, 1021}, {257, 129, 64},
        /* rows of 16 bytes for both dtypes (TMA on sm_90a), prime M; a long K */
        {193, 272, 160}, {61, 16, 2048}, {1, 48, 4096},
        /* K = 0; several of matmul_tf32's 256 x 128 tiles, the last ones partial */
        {200, 300, 0}, {520, 384, 64},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("matmul_dtypes");
}
