/* Run test: stdlib matmul_bf16 and matmul_f16 at unaligned shapes (primes,
 * one row, K = 0, M = 0) with the CUDA launcher's repacking forced on
 * (TKC_REPACK=1, read at every call: any grid) and off (TKC_REPACK=0: the
 * NAME__nomap kernels), against float64 on the rounded inputs; the guard
 * bytes around every tensor checked after each (the copy back writes only
 * the tensor's own rows).  On the C target the variable changes nothing. */
#define _POSIX_C_SOURCE 200809L   /* setenv */
#include <stdlib.h>

#include "mma_repack.h"
#include "tkt.h"
#include "mma_check.h"

static void one(int64_t M, int64_t N, int64_t K)
{
    MMA_PAIR(M, N, K, matmul_bf16, matmul_f16);
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {2, 3, 5}, {17, 17, 17}, {131, 257, 263}, {130, 300, 77}, {3, 131, 514},
        {200, 266, 138}, {129, 255, 1}, {128, 256, 0}, {0, 17, 9}, {257, 130, 66},
    };
    static const char *const mode[] = { "1", "0" };
    for (int r = 0; r < 2; r++) {
        setenv("TKC_REPACK", mode[r], 1);
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            tkt_casef("TKC_REPACK=%s M=%lld N=%lld K=%lld", mode[r], (long long)shapes[s][0],
                      (long long)shapes[s][1], (long long)shapes[s][2]);
            one(shapes[s][0], shapes[s][1], shapes[s][2]);
        }
    }
    return tkt_done("mma_repack");
}
