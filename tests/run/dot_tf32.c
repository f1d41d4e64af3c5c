/* Run test: dot with allow_tf32 (tests/run/dot_tf32.tk) at odd shapes,
 * against float64 sums of the operands rounded to tf32 (to nearest, ties to
 * even) and, for `exact`, of the operands themselves.  A tie case (a = 1 +
 * 2^-11 and 1 + 3 2^-11, b = 1) tells the rounding modes apart exactly. */
#include "dot_tf32.h"
#include "tkt.h"

/* c[i, j] = sum over k < k1 of a[i, k] b[k, j] (rounded to tf32 or not), each
 * K block of blk scaled by 0.5 per later block (blk 0: none) */
static void ref(double *c, const float *a, const float *b, int64_t M, int64_t N, int64_t K, int64_t k1,
                int64_t blk, bool round)
{
    int64_t nb = blk ? (K + blk - 1) / blk : 0;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            for (int64_t k = 0; k < k1; k++) {
                double x = round ? tkt_tf32(a[i * K + k]) : a[i * K + k], y = round ? tkt_tf32(b[k * N + j]) : b[k * N + j];
                s += x * y * (blk ? ldexp(1.0, -(int)(nb - 1 - k / blk)) : 1.0);
            }
            c[i * N + j] = s;
        }
}

static void one(int64_t M, int64_t N, int64_t K)
{
    float *a = TKT_NEW(float, M * K), *b = TKT_NEW(float, K * N), *bt = TKT_NEW(float, N * K);
    tkt_fill(a, M * K, -1, 1);
    tkt_fill(b, K * N, -1, 1);
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++)
            bt[j * K + k] = b[k * N + j];
    double *r = calloc(1, sizeof(double) * (size_t)(M * N + 1)), *rx = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    double *rd = calloc(1, sizeof(double) * (size_t)(M * N + 1)), *ro = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    ref(r, a, b, M, N, K, K, 0, true);
    ref(rx, a, b, M, N, K, K, 0, false);
    ref(rd, a, b, M, N, K, K, 8, true);
    ref(ro, a, b, M, N, K, K < 64 ? K : 64, 0, true);
    for (int64_t i = 0; i < M * N; i++)
        ro[i] = 2 * ro[i] + 1;
    /* f32 sums of K products of [-1, 1) values; the tf32 rounding itself
     * moves a sum by ~1e-4 sqrt(K), well outside these */
    double atol = 1e-6 * (double)K + 1e-5, rtol = 1e-5;
    float *c[8];
    for (int i = 0; i < 8; i++)
        c[i] = TKT_OUT(float, M * N);
    tkt_status("tf_pipe", tf_pipe(a, b, c[0], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_pipe c", c[0], r, M * N, atol, rtol);
    tkt_status("tf_big", tf_big(a, b, c[1], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_big c", c[1], r, M * N, atol, rtol);
    tkt_status("tf_bt", tf_bt(a, bt, c[2], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_bt c", c[2], r, M * N, atol, rtol);
    tkt_status("tf_bt_wg", tf_bt_wg(a, bt, c[7], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_bt_wg c", c[7], r, M * N, atol, rtol);
    tkt_status("tf_decay", tf_decay(a, b, c[3], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_decay c", c[3], rd, M * N, atol, rtol);
    tkt_status("tf_once", tf_once(a, b, c[4], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_once c", c[4], ro, M * N, 2 * atol, rtol);
    tkt_status("tf_fma", tf_fma(a, b, c[5], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_fma c", c[5], r, M * N, atol, rtol);
    tkt_status("exact", exact(a, b, c[6], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("exact c", c[6], rx, M * N, atol, rtol);
    tkt_check_guards();
    free(r);
    free(rx);
    free(rd);
    free(ro);
    tkt_reset();
}

/* b = 1, a = 1 + 2^-11 at even k, 1 + 3 2^-11 at odd k: both halfway between
 * two tf32 values, the first below an even one (rounded to even: 1; ties
 * away: 1 + 2^-10), the second below an even one above it (1 + 2^-9 either
 * way; truncated: 1 + 2^-10).  Without allow_tf32 the products are a. */
static void ties(int64_t M, int64_t N, int64_t K)
{
    float *a = TKT_NEW(float, M * K), *b = TKT_NEW(float, K * N), *bt = TKT_NEW(float, N * K);
    for (int64_t i = 0; i < M * K; i++)
        a[i] = i % K % 2 ? 1.0f + 0x3p-11f : 1.0f + 0x1p-11f;
    for (int64_t i = 0; i < K * N; i++)
        b[i] = bt[i] = 1.0f;
    double *r = calloc(1, sizeof(double) * (size_t)(M * N + 1)), *rx = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M * N; i++) {
        r[i] = (double)(K / 2) * (1 + 0x1p-9) + (double)(K - K / 2);
        rx[i] = (double)(K / 2) * (1 + 0x3p-11) + (double)(K - K / 2) * (1 + 0x1p-11);
    }
    float *c[6];
    for (int i = 0; i < 6; i++)
        c[i] = TKT_OUT(float, M * N);
    tkt_status("tf_pipe", tf_pipe(a, b, c[0], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_pipe ties", c[0], r, M * N, 0, 0);
    tkt_status("tf_big", tf_big(a, b, c[1], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_big ties", c[1], r, M * N, 0, 0);
    tkt_status("tf_bt", tf_bt(a, bt, c[2], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_bt ties", c[2], r, M * N, 0, 0);
    tkt_status("tf_bt_wg", tf_bt_wg(a, bt, c[5], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_bt_wg ties", c[5], r, M * N, 0, 0);
    tkt_status("tf_fma", tf_fma(a, b, c[3], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("tf_fma ties", c[3], r, M * N, 0, 0);
    tkt_status("exact", exact(a, b, c[4], M, K, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("exact ties", c[4], rx, M * N, 0, 0);
    tkt_check_guards();
    free(r);
    free(rx);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {5, 7, 3}, {17, 33, 19}, {64, 64, 64}, {67, 131, 97}, {129, 257, 200},
        {200, 130, 8}, {5, 67, 4093}, {33, 17, 1021}, {131, 96, 480},  /* the last: TMA on sm_90a */
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    tkt_casef("ties M=70 N=40 K=40");
    ties(70, 40, 40);
    return tkt_done("dot_tf32");
}
