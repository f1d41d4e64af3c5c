/* Run test: stdlib matmul_bf16 and matmul_f16 with their default launch
 * options at shapes that take the TMA kernels (rows of a multiple of 16
 * bytes): several programs per block of the persistent grid, tails of M and
 * N, K = 0, against float64 on the rounded inputs. */
#include "mma_def.h"
#include "tkt.h"
#include "mma_check.h"

static void one(int64_t M, int64_t N, int64_t K)
{
    MmaIn x = mma_in(M, N, K);
    tk_bf16 *c1 = TKT_OUT(tk_bf16, M * N);
    tk_f16 *c2 = TKT_OUT(tk_f16, M * N);
    float *got = TKT_OUT(float, M * N);
    double tol = 1e-5 * (double)(K + 1);
    tkt_status("matmul_bf16", matmul_bf16(x.a, x.b, c1, M, K, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M * N; i++)
        got[i] = tk_bf16_to_f32(c1[i]);
    tkt_close("matmul_bf16 c", got, x.rb, M * N, tol, 8e-3);
    tkt_status("matmul_f16", matmul_f16(x.ah, x.bh, c2, M, K, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M * N; i++)
        got[i] = tk_f16_to_f32(c2[i]);
    tkt_close("matmul_f16 c", got, x.rh, M * N, tol, 2e-3);
    tkt_check_guards();
    mma_free(&x);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {256, 512, 320}, {640, 520, 136}, {200, 264, 72}, {128, 256, 0}, {384, 1024, 64},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("mma_def");
}
