/* Run test: 16-bit matmul with f32 accumulation (tensor cores on the CUDA
 * target) at odd shapes, against float64 on the rounded inputs. */
#include "mma.h"
#include "tkt.h"
#include "mma_check.h"

static double gelu(double x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }

static void one(int64_t M, int64_t N, int64_t K)
{
    MmaIn x = mma_in(M, N, K);
    tk_f16 *bth = TKT_NEW(tk_f16, N * K);
    float *bias = TKT_NEW(float, N);
    tk_bf16 *c1 = TKT_OUT(tk_bf16, M * N);
    float *c2 = TKT_OUT(float, M * N), *c3 = TKT_OUT(float, M * N), *c4 = TKT_OUT(float, M * N);
    float *c5 = TKT_OUT(float, M * N), *c6 = TKT_OUT(float, M * N), *got = TKT_OUT(float, M * N);
    size_t rn = sizeof(double) * (size_t)(M * N + 1);
    double *rg = calloc(1, rn), *rd = calloc(1, rn), *ro = calloc(1, rn);
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++)
            bth[j * K + k] = x.bh[k * N + j];
    tkt_fill(bias, N, -1, 1);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double sb = x.rb[i * N + j], sd = 0, blk = 0;
            for (int64_t k = 0; k < K; k++) {
                blk += mma_ab(&x, i, j, k);
                if (k % 32 == 31 || k == K - 1) {      /* mm_decay's BK = 32 */
                    sd = sd * 0.5 + blk;
                    blk = 0;
                }
            }
            rg[i * N + j] = gelu(sb + bias[j]);
            rd[i * N + j] = sd;
            ro[i * N + j] = (double)tk_bf16_to_f32(tk_f32_to_bf16((float)sb)) + 1.0;
        }
    double tol = 1e-5 * (double)(K + 1);
    tkt_status("mm_bf16", mm_bf16(x.a, x.b, c1, M, K, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M * N; i++)
        got[i] = tk_bf16_to_f32(c1[i]);
    tkt_close("mm_bf16 c", got, x.rb, M * N, tol, 1e-2);
    tkt_status("mm_f16", mm_f16(x.ah, x.bh, c2, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("mm_f16 c", c2, x.rh, M * N, tol, 1e-5);
    tkt_status("mm_bias_gelu", mm_bias_gelu(x.a, x.b, bias, c3, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("mm_bias_gelu c", c3, rg, M * N, tol, 1e-5);
    tkt_status("mm_decay", mm_decay(x.a, x.b, c4, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("mm_decay c", c4, rd, M * N, tol, 1e-5);
    tkt_status("mm_bt", mm_bt(x.ah, bth, c5, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("mm_bt c", c5, x.rh, M * N, tol, 1e-5);
    if (K <= 64) {
        tkt_status("mm_once", mm_once(x.a, x.b, c6, M, K, N), TK_OK, tk_last_error(), (char *)0);
        /* a product that lands next to a bf16 rounding boundary may round either way */
        tkt_close("mm_once c", c6, ro, M * N, tol + 1.0 / 128, 1.0 / 128);
    }
    tkt_check_guards();
    mma_free(&x);
    free(rg);
    free(rd);
    free(ro);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {0, 0, 0}, {1, 1, 1}, {1, 7, 13}, {17, 33, 31}, {64, 64, 64}, {127, 65, 33},
        {100, 130, 257}, {129, 200, 70}, {3, 129, 100}, {40, 9, 48},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1],
                  (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("mma");
}
