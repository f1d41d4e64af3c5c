/* Run test: i8 x i8 -> i32 dot (tests/run/dot_i8.tk) at odd shapes, compared
 * exactly with integer sums; inputs over the whole i8 range (-128 .. 127). */
#include "dot_i8.h"
#include "tkt.h"

static void check(const char *what, const int32_t *got, const int64_t *ref, int64_t n)
{
    int bad = 0;
    for (int64_t i = 0; i < n; i++)
        if (got[i] != ref[i] && bad++ < 5)
            tkt_eq_i64(what, got[i], ref[i], i);
    if (bad > 5)
        tkt_fail("%s: %d of %lld elements wrong", what, bad, (long long)n);
}

static void one(int64_t M, int64_t N, int64_t K)
{
    int8_t *a = TKT_NEW(int8_t, M * K), *b = TKT_NEW(int8_t, K * N), *bt = TKT_NEW(int8_t, N * K);
    int32_t *off = TKT_NEW(int32_t, N);
    for (int64_t i = 0; i < M * K; i++)
        a[i] = (int8_t)tkt_int(-128, 127);
    for (int64_t i = 0; i < K * N; i++)
        b[i] = (int8_t)tkt_int(-128, 127);
    for (int64_t k = 0; k < K; k++)
        for (int64_t j = 0; j < N; j++)
            bt[j * K + k] = b[k * N + j];
    for (int64_t j = 0; j < N; j++)
        off[j] = (int32_t)tkt_int(-1000000, 1000000);
    size_t rb = sizeof(int64_t) * (size_t)(M * N + 1);
    int64_t *r = malloc(rb), *rf = malloc(rb), *ro = malloc(rb);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            int64_t s = 0, s64 = 0;
            for (int64_t k = 0; k < K; k++) {
                s += (int64_t)a[i * K + k] * b[k * N + j];
                if (k == 63)
                    s64 = s;
            }
            r[i * N + j] = s;
            rf[i * N + j] = s + off[j];
            ro[i * N + j] = 3 * (K < 64 ? s : s64) - 1;
        }
    int32_t *c[5];
    for (int i = 0; i < 5; i++)
        c[i] = TKT_OUT(int32_t, M * N);
    tkt_status("i8_pipe", i8_pipe(a, b, c[0], M, K, N), TK_OK, tk_last_error(), (char *)0);
    check("i8_pipe c", c[0], r, M * N);
    tkt_status("i8_big", i8_big(a, b, off, c[1], M, K, N), TK_OK, tk_last_error(), (char *)0);
    check("i8_big c", c[1], rf, M * N);
    tkt_status("i8_bt", i8_bt(a, bt, c[2], M, K, N), TK_OK, tk_last_error(), (char *)0);
    check("i8_bt c", c[2], r, M * N);
    tkt_status("i8_once", i8_once(a, b, c[3], M, K, N), TK_OK, tk_last_error(), (char *)0);
    check("i8_once c", c[3], ro, M * N);
    tkt_status("i8_fma", i8_fma(a, b, c[4], M, K, N), TK_OK, tk_last_error(), (char *)0);
    check("i8_fma c", c[4], r, M * N);
    tkt_check_guards();
    free(r);
    free(rf);
    free(ro);
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {5, 7, 3}, {17, 33, 19}, {64, 64, 64}, {67, 131, 97}, {129, 257, 200},
        {200, 130, 32}, {5, 67, 4093}, {33, 17, 1021}, {130, 140, 33}, {131, 96, 480},  /* the last: TMA on sm_90a */
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld", (long long)shapes[s][0], (long long)shapes[s][1], (long long)shapes[s][2]);
        one(shapes[s][0], shapes[s][1], shapes[s][2]);
    }
    return tkt_done("dot_i8");
}
