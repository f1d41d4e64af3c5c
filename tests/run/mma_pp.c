/* Run test: stdlib matmul_bf16 with 64 x 256 tiles of one
 * consumer warpgroup, specialized and persistent (with TKC_MM_PP=1: the
 * ping-pong consumers), against float64 on the rounded inputs: several
 * programs per warpgroup (the CPU stand-in has 2 multiprocessors), trip
 * counts of every residue mod the 4 stages, K = 0 and an unaligned shape
 * (the NAME__nomap kernel). */
#include "mma_pp.h"
#include "tkt.h"
#include "mma_check.h"

static void one(int64_t M, int64_t N, int64_t K)
{
    MmaIn x = mma_in(M, N, K);
    tk_bf16 *c1 = TKT_OUT(tk_bf16, M * N);
    MMA_EXPECT(&x, "matmul_bf16", matmul_bf16(x.a, x.b, c1, M, K, N), c1, tk_bf16_to_f32, rb,
               1e-5 * (double)(K + 1), 8e-3);
    tkt_check_guards();
    mma_free(&x);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {256, 512, 512}, {320, 520, 200}, {192, 256, 136}, {448, 264, 328}, {200, 256, 64}, {64, 256, 0},
        {131, 257, 263},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("mma_pp");
}
