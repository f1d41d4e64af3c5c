/* Run test: stdlib matmul_bf16 and matmul_f16 with their default launch
 * options at odd, unaligned shapes (primes, one row, pitches of 2 bytes mod 4
 * and of 4 bytes mod 16: the NAME__nomap kernels), then at shapes whose rows
 * TMA can copy (on sm_90a matmul_bf16's warp-specialized persistent kernel,
 * several programs per block on the CPU stand-in's 2 multiprocessors; tails
 * of M and N; K = 0), against float64 on the rounded inputs. */
#include "mma_odd.h"
#include "tkt.h"
#include "mma_check.h"

static void one(int64_t M, int64_t N, int64_t K)
{
    MmaIn x = mma_in(M, N, K);
    tk_bf16 *c1 = TKT_OUT(tk_bf16, M * N);
    tk_f16 *c2 = TKT_OUT(tk_f16, M * N);
    double tol = 1e-5 * (double)(K + 1);
    MMA_EXPECT(&x, "matmul_bf16", matmul_bf16(x.a, x.b, c1, M, K, N), c1, tk_bf16_to_f32, rb, tol, 8e-3);
    MMA_EXPECT(&x, "matmul_f16", matmul_f16(x.ah, x.bh, c2, M, K, N), c2, tk_f16_to_f32, rh, tol, 2e-3);
    tkt_check_guards();
    mma_free(&x);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {17, 17, 17}, {131, 257, 263}, {130, 300, 77}, {200, 266, 138}, {3, 131, 514},
        {256, 512, 320}, {640, 520, 136}, {200, 264, 72}, {128, 256, 0}, {384, 1024, 64},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("mma_odd");
}
