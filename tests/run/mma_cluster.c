/* Run test: matmuls whose blocks run in pairs sharing operand copies
 * (tests/run/mma_cluster.tk) against float64 on the rounded inputs: pairs
 * that share b (pair_b) or a (pair_a), pairs that share nothing (an odd
 * count of row / column tiles), an odd last block without a partner, one
 * program, K = 0, K not a multiple of the 64-wide steps, and odd N, K (the
 * cp.async fallback). */
#include "mma_cluster.h"
#include "tkt.h"
#include "mma_check.h"

int main(void)
{
    static const int64_t shapes[][3] = {
        {170, 1024, 256}, {200, 520, 264}, {1, 264, 136}, {97, 128, 64}, {300, 384, 72}, {192, 256, 0},
        {96, 1152, 128}, {64, 640, 200}, {129, 136, 1000}, {17, 200, 520}, {500, 896, 64}, {13, 257, 129},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int64_t M = shapes[s][0], N = shapes[s][1], K = shapes[s][2];
        tkt_casef("M=%lld N=%lld K=%lld", (long long)M, (long long)N, (long long)K);
        MMA_PAIR(M, N, K, pair_b, pair_b_f16);
        MMA_PAIR(M, N, K, pair_a, pair_a_f16);
    }
    return tkt_done("mma_cluster");
}
