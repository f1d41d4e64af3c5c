/* Run test: the CUDA target's warp-specialized (and persistent) K loops of
 * tensor-core matmuls chosen by launch options, against float64 on the
 * rounded inputs, at shapes that take the TMA path and the cp.async one. */
#include "mma_ws.h"
#include "tkt.h"
#include "mma_check.h"

static void one(int64_t M, int64_t N, int64_t K)
{
    MmaIn x = mma_in(M, N, K);
    tk_bf16 *c1 = TKT_OUT(tk_bf16, M * N);
    float *c2 = TKT_OUT(float, M * N), *got = TKT_OUT(float, M * N);
    tk_f16 *c3 = TKT_OUT(tk_f16, M * N);
    double tol = 1e-5 * (double)(K + 1);
    tkt_status("ws_persist", ws_persist(x.a, x.b, c1, M, K, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M * N; i++)
        got[i] = tk_bf16_to_f32(c1[i]);
    tkt_close("ws_persist c", got, x.rb, M * N, tol, 8e-3);
    tkt_status("ws_wide", ws_wide(x.a, x.b, c2, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("ws_wide c", c2, x.rb, M * N, tol, 1e-5);
    tkt_status("ws_f16", ws_f16(x.ah, x.bh, c3, M, K, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M * N; i++)
        got[i] = tk_f16_to_f32(c3[i]);
    tkt_close("ws_f16 c", got, x.rh, M * N, tol, 2e-3);
    tkt_check_guards();
    mma_free(&x);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {200, 264, 136}, {256, 384, 520}, {129, 257, 200}, {5, 7, 3}, {72, 136, 0}, {300, 136, 72},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("mma_ws");
}
