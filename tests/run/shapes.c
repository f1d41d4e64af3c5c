/* Run test: transposes, broadcasts, reshapes and gathers. */
#include "shapes.h"
#include "tkt.h"

static void transpose_case(int64_t M, int64_t N)
{
    float *x = TKT_NEW(float, M * N), *y = TKT_OUT(float, M * N);
    tkt_fill(x, M * N, -5, 5);
    tkt_status("transpose", transpose(x, y, M, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++)
            TKT_CHECK(y[j * M + i] == x[i * N + j], "y[%lld, %lld] = %g, expected %g",
                      (long long)j, (long long)i, y[j * M + i], x[i * N + j]);
    tkt_check_guards();
    tkt_reset();
}

static void outer_case(int64_t M, int64_t N)
{
    float *a = TKT_NEW(float, M), *b = TKT_NEW(float, N);
    float *o = TKT_OUT(float, M * N), *bc = TKT_OUT(float, M * N), *s = TKT_OUT(float, M * N);
    tkt_fill(a, M, -3, 3);
    tkt_fill(b, N, -3, 3);
    tkt_status("outer", outer(a, b, o, bc, s, M, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            int64_t k = i * N + j;
            TKT_CHECK(o[k] == a[i] * b[j], "outer[%lld,%lld] = %g, expected %g", (long long)i, (long long)j, o[k], a[i] * b[j]);
            TKT_CHECK(bc[k] == a[i], "bcast[%lld,%lld] = %g, expected %g", (long long)i, (long long)j, bc[k], a[i]);
            TKT_CHECK(s[k] == a[i] + b[j], "sum_ab[%lld,%lld] = %g, expected %g", (long long)i, (long long)j, s[k], a[i] + b[j]);
        }
    tkt_check_guards();
    tkt_reset();
}

static void reshape_case(int64_t P)
{
    float *x = TKT_NEW(float, P * 32), *y = TKT_OUT(float, P * 32);
    tkt_fill(x, P * 32, -1, 1);
    tkt_status("reshape_rows", reshape_rows(x, y, P, 32), TK_OK, tk_last_error(), (char *)0);
    for (int64_t p = 0; p < P; p++)
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 8; j++) {
                float want = x[p * 32 + i * 8 + j] * 2.0f + (float)i, got = y[p * 32 + i * 8 + j];
                TKT_CHECK(got == want, "y[%lld,%d,%d] = %g, expected %g", (long long)p, i, j, got, want);
            }
    tkt_check_guards();
    tkt_snapshot();
    tkt_status("reshape_rows S != BM*BN", reshape_rows(x, y, P, 31), TK_ERR_REQUIRE, tk_last_error(),
               "S", (char *)0);
    tkt_unchanged();
    tkt_reset();
}

static void gather_case(int64_t N, int64_t T)
{
    int32_t *idx = TKT_NEW(int32_t, N), *sc = TKT_OUT(int32_t, T);
    float *table = TKT_NEW(float, T), *out = TKT_OUT(float, N);
    int32_t *owner = calloc(1, sizeof(int32_t) * (size_t)(T + 1));
    tkt_fill(table, T, 1, 2);
    for (int64_t t = 0; t < T; t++) owner[t] = -1;
    /* Indices in [-T-3, 2T+3], each in-range target used at most once so the
     * scatter is deterministic. */
    for (int64_t i = 0; i < N; i++) {
        int32_t v = (int32_t)tkt_int(-T - 3, 2 * T + 3);
        if (v >= 0 && v < T && owner[v] >= 0) v = (int32_t)(T + 1 + i);   /* out of range */
        idx[i] = v;
        if (v >= 0 && v < T) owner[v] = (int32_t)i;
    }
    tkt_status("gather_scatter", gather_scatter(idx, table, out, sc, N, T), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < N; i++) {
        float want = idx[i] >= 0 && idx[i] < T ? table[idx[i]] : 0.0f;
        TKT_CHECK(out[i] == want, "out[%lld] = %g, expected %g (idx %d)", (long long)i, out[i], want, idx[i]);
    }
    for (int64_t t = 0; t < T; t++) {
        if (owner[t] >= 0)
            tkt_eq_i64("scatter", sc[t], owner[t], t);
        else
            TKT_CHECK(tkt_untouched(sc, (size_t)t, sizeof(int32_t)), "scatter[%lld] written, no index points there", (long long)t);
    }
    tkt_check_guards();
    free(owner);
    tkt_reset();
}

int main(void)
{
    static const int64_t mn[][2] = {{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 17}, {17, 1}, {7, 13},
        {8, 16}, {9, 17}, {16, 8}, {127, 33}, {33, 257}};
    char name[80];
    for (size_t k = 0; k < sizeof mn / sizeof mn[0]; k++) {
        snprintf(name, sizeof name, "M=%lld N=%lld", (long long)mn[k][0], (long long)mn[k][1]);
        tkt_case = name;
        transpose_case(mn[k][0], mn[k][1]);
        outer_case(mn[k][0], mn[k][1]);
        gather_case(mn[k][0], mn[k][1]);
        gather_case(mn[k][1] * 3, mn[k][0]);
    }
    static const int64_t ps[] = {0, 1, 2, 7, 100};
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++) {
        snprintf(name, sizeof name, "reshape P=%lld", (long long)ps[k]);
        tkt_case = name;
        reshape_case(ps[k]);
    }
    return tkt_done("shapes");
}
