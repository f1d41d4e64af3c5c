/* Run test: the CUDA target's pipelined (cp.async) K loops of tensor-core
 * matmuls at odd shapes, against float64 on the rounded inputs. */
#include "mma_pipe.h"
#include "tkt.h"
#include "mma_check.h"

static void one(int64_t M, int64_t N, int64_t K, int32_t k0)
{
    MmaIn x = mma_in(M, N, K);
    float *c1 = TKT_OUT(float, M * N), *c3 = TKT_OUT(float, M * N), *got = TKT_OUT(float, M * N);
    float *c4 = TKT_OUT(float, M * N);
    tk_f16 *c2 = TKT_OUT(tk_f16, M * N);
    double *rf = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double sf = 0;
            for (int64_t k = k0; k < K; k++)
                sf += mma_ab(&x, i, j, k);
            rf[i * N + j] = sf;
        }
    double tol = 1e-5 * (double)(K + 1);
    tkt_status("pp_bf16", pp_bf16(x.a, x.b, c1, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("pp_bf16 c", c1, x.rb, M * N, tol, 1e-5);
    tkt_status("pp_big", pp_big(x.ah, x.bh, c2, M, K, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M * N; i++)
        got[i] = tk_f16_to_f32(c2[i]);
    tkt_close("pp_big c", got, x.rh, M * N, tol, 2e-3);
    tkt_status("pp_from", pp_from(x.a, x.b, c3, k0, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("pp_from c", c3, rf, M * N, tol, 1e-5);
    tkt_status("pp_grouped", pp_grouped(x.a, x.b, c4, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("pp_grouped c", c4, x.rb, M * N, tol, 1e-5);
    tkt_check_guards();
    mma_free(&x);
    free(rf);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][4] = {
        {1, 1, 1, 0}, {5, 7, 3, 0}, {33, 65, 33, 3}, {67, 131, 97, 17}, {64, 64, 128, 0},
        {128, 136, 96, 40}, {129, 257, 200, 1}, {200, 130, 64, 0}, {40, 48, 520, 100}, {17, 9, 31, 40},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld k0=%lld", (long long)shapes[s][0], (long long)shapes[s][1],
                  (long long)shapes[s][2], (long long)shapes[s][3]);
        one(shapes[s][0], shapes[s][1], shapes[s][2], (int32_t)shapes[s][3]);
    }
    return tkt_done("mma_pipe");
}
