/* Run test: sum/max/min/argmax/argmin along both axes of a tile, whole-tile
 * reductions, and integer/bool reductions. */
#ifndef REDUCE_NAME                 /* reduce_w12.c: the same checks, its own header */
#define REDUCE_NAME "reduce"
#include "reduce.h"
#endif
#include "tkt.h"

enum { BM = 8, BN = 16 };

static void tiles_case(int64_t M, int64_t N)
{
    int64_t MB = (M + BM - 1) / BM, NB = (N + BN - 1) / BN;
    float *x = TKT_NEW(float, M * N);
    float *sum1 = TKT_OUT(float, M * NB), *max1 = TKT_OUT(float, M * NB), *min1 = TKT_OUT(float, M * NB);
    int32_t *amax1 = TKT_OUT(int32_t, M * NB), *amin1 = TKT_OUT(int32_t, M * NB);
    float *sum0 = TKT_OUT(float, MB * N), *max0 = TKT_OUT(float, MB * N), *min0 = TKT_OUT(float, MB * N);
    int32_t *amax0 = TKT_OUT(int32_t, MB * N), *amin0 = TKT_OUT(int32_t, MB * N);
    float *total = TKT_OUT(float, MB * NB), *top = TKT_OUT(float, MB * NB);
    tkt_fill(x, M * N, -100, 100);
    tkt_status("reduce_tiles", reduce_tiles(x, sum1, max1, min1, amax1, amin1, sum0, max0, min0,
               amax0, amin0, total, top, M, N, NB, MB), TK_OK, tk_last_error(), (char *)0);
    /* Along axis 1: row i, tile column bj. */
    for (int64_t i = 0; i < M; i++)
        for (int64_t bj = 0; bj < NB; bj++) {
            double s = 0, mx = -INFINITY, mn = INFINITY;
            int amx = -1, amn = -1;
            for (int64_t j = bj * BN; j < N && j < (bj + 1) * BN; j++) {
                double v = x[i * N + j];
                s += v;
                if (v > mx) mx = v, amx = (int)(j - bj * BN);
                if (v < mn) mn = v, amn = (int)(j - bj * BN);
            }
            int64_t k = i * NB + bj;
            TKT_CHECK(tkt_near(sum1[k], s, 1e-3, 1e-5), "sum1[%lld,%lld] = %g, expected %g", (long long)i, (long long)bj, sum1[k], s);
            TKT_CHECK(max1[k] == mx, "max1[%lld,%lld] = %g, expected %g", (long long)i, (long long)bj, max1[k], mx);
            TKT_CHECK(min1[k] == mn, "min1[%lld,%lld] = %g, expected %g", (long long)i, (long long)bj, min1[k], mn);
            tkt_eq_i64("amax1", amax1[k], amx, k);
            tkt_eq_i64("amin1", amin1[k], amn, k);
        }
    /* Along axis 0: tile row bi, column j. */
    for (int64_t bi = 0; bi < MB; bi++)
        for (int64_t j = 0; j < N; j++) {
            double s = 0, mx = -INFINITY, mn = INFINITY;
            int amx = -1, amn = -1;
            for (int64_t i = bi * BM; i < M && i < (bi + 1) * BM; i++) {
                double v = x[i * N + j];
                s += v;
                if (v > mx) mx = v, amx = (int)(i - bi * BM);
                if (v < mn) mn = v, amn = (int)(i - bi * BM);
            }
            int64_t k = bi * N + j;
            TKT_CHECK(tkt_near(sum0[k], s, 1e-3, 1e-5), "sum0[%lld,%lld] = %g, expected %g", (long long)bi, (long long)j, sum0[k], s);
            TKT_CHECK(max0[k] == mx, "max0[%lld,%lld] = %g, expected %g", (long long)bi, (long long)j, max0[k], mx);
            TKT_CHECK(min0[k] == mn, "min0[%lld,%lld] = %g, expected %g", (long long)bi, (long long)j, min0[k], mn);
            tkt_eq_i64("amax0", amax0[k], amx, k);
            tkt_eq_i64("amin0", amin0[k], amn, k);
        }
    /* Whole tiles. */
    for (int64_t bi = 0; bi < MB; bi++)
        for (int64_t bj = 0; bj < NB; bj++) {
            double s = 0, mx = -INFINITY;
            for (int64_t i = bi * BM; i < M && i < (bi + 1) * BM; i++)
                for (int64_t j = bj * BN; j < N && j < (bj + 1) * BN; j++)
                    s += x[i * N + j], mx = fmax(mx, x[i * N + j]);
            int64_t k = bi * NB + bj;
            TKT_CHECK(tkt_near(total[k], s, 1e-3, 1e-5), "total[%lld] = %g, expected %g", (long long)k, total[k], s);
            TKT_CHECK(top[k] == mx, "top[%lld] = %g, expected %g", (long long)k, top[k], mx);
        }
    tkt_check_guards();

    /* Inconsistent sizes fail the requires and write nothing. */
    tkt_snapshot();
    tkt_status("reduce_tiles NB wrong", reduce_tiles(x, sum1, max1, min1, amax1, amin1, sum0, max0,
               min0, amax0, amin0, total, top, M, N, NB + 1, MB), TK_ERR_REQUIRE, tk_last_error(),
               "NB", (char *)0);
    tkt_unchanged();
    tkt_reset();
}

static void int_case(int64_t M, int64_t N)
{
    int32_t *x = TKT_NEW(int32_t, M * N);
    int32_t *s = TKT_OUT(int32_t, M), *mx = TKT_OUT(int32_t, M), *mn = TKT_OUT(int32_t, M);
    int32_t *np = TKT_OUT(int32_t, M);
    for (int64_t i = 0; i < M * N; i++)
        x[i] = (int32_t)tkt_int(-1000000, 1000000);
    int st = reduce_int(x, s, mx, mn, np, M, N);
    if (N > 64) {
        tkt_status("reduce_int N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
        tkt_reset();
        return;
    }
    tkt_status("reduce_int", st, TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++) {
        int64_t rs = 0, rmx = -2147483647, rmn = 2147483647, rp = 0;
        for (int64_t j = 0; j < N; j++) {
            int32_t v = x[i * N + j];
            rs += v;
            rmx = v > rmx ? v : rmx;
            rmn = v < rmn ? v : rmn;
            rp += v > 0;
        }
        tkt_eq_i64("sum", s[i], rs, i);
        tkt_eq_i64("max", mx[i], rmx, i);
        tkt_eq_i64("min", mn[i], rmn, i);
        tkt_eq_i64("count > 0", np[i], rp, i);
    }
    tkt_check_guards();
    tkt_reset();
}

static void ties_case(int64_t M, int64_t N)
{
    int32_t *x = TKT_NEW(int32_t, M * N);
    int32_t *amax1 = TKT_OUT(int32_t, M), *amin1 = TKT_OUT(int32_t, M);
    int32_t *amax0 = TKT_OUT(int32_t, N), *amin0 = TKT_OUT(int32_t, N);
    for (int64_t i = 0; i < M * N; i++)
        x[i] = (int32_t)tkt_int(0, 3);
    tkt_status("arg_ties", arg_ties(x, amax1, amin1, amax0, amin0, M, N), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++) {
        int64_t bx = 0, bn = 0;
        for (int64_t j = 1; j < N; j++) {
            if (x[i * N + j] > x[i * N + bx]) bx = j;
            if (x[i * N + j] < x[i * N + bn]) bn = j;
        }
        tkt_eq_i64("argmax axis 1 (ties)", amax1[i], bx, i);
        tkt_eq_i64("argmin axis 1 (ties)", amin1[i], bn, i);
    }
    for (int64_t j = 0; j < N; j++) {
        int64_t bx = 0, bn = 0;
        for (int64_t i = 1; i < M; i++) {
            if (x[i * N + j] > x[bx * N + j]) bx = i;
            if (x[i * N + j] < x[bn * N + j]) bn = i;
        }
        tkt_eq_i64("argmax axis 0 (ties)", amax0[j], bx, j);
        tkt_eq_i64("argmin axis 0 (ties)", amin0[j], bn, j);
    }
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    static const int64_t ms[] = {0, 1, 7, 8, 9, 31};
    char name[80];
    for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
        for (int s = 0; s < TKT_NSIZES; s++) {
            snprintf(name, sizeof name, "M=%lld N=%lld", (long long)ms[a], (long long)tkt_sizes[s]);
            tkt_case = name;
            tiles_case(ms[a], tkt_sizes[s]);
            int_case(ms[a], tkt_sizes[s]);
        }
    static const int64_t tm[][2] = {{1, 1}, {1, 32}, {4, 32}, {3, 17}, {4, 1}, {2, 31}};
    for (size_t k = 0; k < sizeof tm / sizeof tm[0]; k++)
        for (int rep = 0; rep < 20; rep++) {
            snprintf(name, sizeof name, "ties M=%lld N=%lld", (long long)tm[k][0], (long long)tm[k][1]);
            tkt_case = name;
            ties_case(tm[k][0], tm[k][1]);
        }
    return tkt_done(REDUCE_NAME);
}
