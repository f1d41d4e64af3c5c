/* Run test: matmuls computed transposed (tests/run/mma_swap.tk: the few-rows
 * "swap AB" tiles, 16 / 24 / 88 / 112 rows of a (24 also off the tensor cores), 64 / 128 columns of b, bf16 and f16)
 * against float64 on the rounded inputs, at M of 1, 16, 17, 112, 113 and
 * primes, on the TMA path (N, K multiples of 8) and the cp.async one, K = 0
 * included; and a kernel whose A alone is given transposed (tn). */
#include "mma_swap.h"
#include "tkt.h"
#include "mma_check.h"

/* tn: a given transposed, at [K, M] */
static void one_tn(int64_t M, int64_t N, int64_t K)
{
    MmaIn x = mma_in(M, N, K);
    tk_bf16 *at = TKT_NEW(tk_bf16, K * M + 1), *c = TKT_OUT(tk_bf16, M * N + 1);
    for (int64_t i = 0; i < M; i++)
        for (int64_t k = 0; k < K; k++)
            at[k * M + i] = x.a[i * K + k];
    MMA_EXPECT(&x, "tn", tn(at, x.b, c, K, M, N), c, tk_bf16_to_f32, rb, 1e-5 * (double)(K + 1), 8e-3);
    tkt_check_guards();
    mma_free(&x);
    tkt_reset();
}

static void one(int64_t M, int64_t N, int64_t K)
{
    MMA_PAIR(M, N, K, swap16, swap16_f16);
    MMA_PAIR(M, N, K, swap112, swap112_f16);
    MMA_PAIR(M, N, K, swap64w2, swap64w2_f16);
    MMA_PAIR(M, N, K, swap24, swap24_f16);
    MMA_PAIR(M, N, K, swap88, swap88_f16);
    MMA_PAIR(M, N, K, swap24_fma, swap24_fma_f16);
    one_tn(M, N, K);
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {1, 264, 136}, {16, 512, 1024}, {17, 200, 520}, {31, 136, 1000}, {16, 72, 0}, {112, 128, 256},
        {113, 384, 192}, {13, 257, 129}, {1, 7, 3}, {97, 128, 64}, {200, 520, 264}, {131, 1000, 72},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("mma_swap");
}
