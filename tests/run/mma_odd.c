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
    MMA_PAIR(M, N, K, matmul_bf16, matmul_f16);
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
