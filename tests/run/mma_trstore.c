/* Run test: a bf16 matmul stored transposed (tests/run/mma_trstore.tk), c
 * [N, M] = trans(a @ b), at odd shapes and shapes TMA takes, against float64
 * on the rounded inputs. */
#include "mma_trstore.h"
#include "tkt.h"
#include "mma_check.h"

static void one(int64_t M, int64_t N, int64_t K)
{
    MmaIn x = mma_in(M, N, K);
    tk_bf16 *c = TKT_OUT(tk_bf16, N * M);
    tkt_status("mmt", mmt(x.a, x.b, c, M, K, N), TK_OK, tk_last_error(), (char *)0);
    float *got = TKT_OUT(float, M * N);
    for (int64_t i = 0; i < M; i++)          /* back to [M, N] */
        for (int64_t j = 0; j < N; j++)
            got[i * N + j] = tk_bf16_to_f32(c[j * M + i]);
    tkt_close("mmt c", got, x.rb, M * N, 0.02, 0.01);
    tkt_check_guards();
    mma_free(&x);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {17, 131, 77}, {130, 200, 72}, {128, 128, 0},
        {256, 256, 128}, {384, 256, 64}, {200, 264, 136},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("mma_trstore");
}
