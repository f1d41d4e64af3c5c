/* Run test: tf32 matmuls on b [K, N] computed transposed (tests/run/tf32_tn.tk),
 * at odd shapes and shapes TMA takes, against float64 sums of the operands
 * rounded to tf32 (nearest, ties to even). */
#include "tf32_tn.h"
#include "tkt.h"

static void one(int64_t M, int64_t N, int64_t K)
{
    float *a = TKT_NEW(float, M * K), *b = TKT_NEW(float, K * N);
    float *c = TKT_OUT(float, M * N), *c2 = TKT_OUT(float, M * N);
    tkt_fill(a, M * K, -1, 1);
    tkt_fill(b, K * N, -1, 1);
    if (M * N * K > 0) {                   /* ties (low 13 bits 0x1000, even tf32): rounded to even */
        a[0] = 1.0f + 0x1p-11f;
        b[N - 1] = -1.0f - 0x1p-11f;
    }
    double *r = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            for (int64_t k = 0; k < K; k++)
                s += tkt_tf32(a[i * K + k]) * tkt_tf32(b[k * N + j]);
            r[i * N + j] = s;
        }
    tkt_status("tn_ws", tn_ws(a, b, c, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tn_ws c", c, r, M * N, 1e-6 * (double)K + 1e-5, 1e-5);
    tkt_status("tn_128", tn_128(a, b, c2, M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tn_128 c", c2, r, M * N, 1e-6 * (double)K + 1e-5, 1e-5);
    tkt_check_guards();
    free(r);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {67, 131, 97}, {130, 200, 72}, {200, 300, 0}, {1, 256, 64}, {256, 1, 64},
        /* rows of 16 bytes (TMA on sm_90a); several programs per block */
        {256, 512, 96}, {193, 272, 160}, {640, 384, 64}, {61, 16, 2048}, {520, 260, 36},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("tf32_tn");
}
