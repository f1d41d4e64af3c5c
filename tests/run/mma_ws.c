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
    float *c2 = TKT_OUT(float, M * N);
    tk_f16 *c3 = TKT_OUT(tk_f16, M * N);
    double tol = 1e-5 * (double)(K + 1);
    MMA_EXPECT(&x, "ws_persist", ws_persist(x.a, x.b, c1, M, K, N), c1, tk_bf16_to_f32, rb, tol, 8e-3);
    MMA_EXPECT(&x, "ws_wide", ws_wide(x.a, x.b, c2, M, K, N), c2, mma_f32, rb, tol, 1e-5);
    MMA_EXPECT(&x, "ws_f16", ws_f16(x.ah, x.bh, c3, M, K, N), c3, tk_f16_to_f32, rh, tol, 2e-3);
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
