/* Run test: strided tensor views (row padding, transposed, negative-free
 * general strides); nothing outside the view may change. */
#include "strided.h"
#include "tkt.h"

static void scale_case(int64_t M, int64_t N)
{
    /* x: an M x N view with row stride ldx >= N inside a bigger buffer.
     * y: a column-major M x N view (strides 1, ldy) with ldy >= M. */
    int64_t ldx = N + 3, ldy = M + 2;
    int64_t nx = M * ldx + 1, ny = N * ldy + 1;
    float *xb = TKT_NEW(float, nx), *yb = TKT_OUT(float, ny);
    tkt_fill(xb, nx, -4, 4);
    float s = 1.5f;
    tkt_status("scale_strided", scale_strided(xb + 1, yb, s, M, N, ldx, 1, 1, ldy), TK_OK,
               tk_last_error(), (char *)0);
    char *hit = calloc((size_t)ny + 1, 1);
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            float want = xb[1 + i * ldx + j] * s, got = yb[i + j * ldy];
            hit[i + j * ldy] = 1;
            TKT_CHECK(got == want, "y[%lld,%lld] = %g, expected %g", (long long)i, (long long)j, got, want);
        }
    for (int64_t k = 0; k < ny; k++)
        if (!hit[k])
            TKT_CHECK(tkt_untouched(yb, (size_t)k, sizeof(float)), "y buffer element %lld outside the view written", (long long)k);
    tkt_check_guards();
    free(hit);
    tkt_reset();
}

static void sum_case(int64_t B, int64_t R, int64_t C)
{
    /* x[b, r, c] at b*sb + r*sr + c*sc with a permuted, padded layout:
     * c slowest, then b, then r. */
    int64_t sr = 1, sb = R + 1, sc = B * sb + 2;
    int64_t nx = C * sc + 1;
    float *x = TKT_NEW(float, nx), *y = TKT_OUT(float, B * R);
    tkt_fill(x, nx, -1, 1);
    int st = sum_last(x, y, B, R, C, sb, sr, sc);
    if (C > 16) {
        tkt_status("sum_last C > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "C", (char *)0);
    } else {
        tkt_status("sum_last", st, TK_OK, tk_last_error(), (char *)0);
        for (int64_t b = 0; b < B; b++)
            for (int64_t r = 0; r < R; r++) {
                double want = 0;
                for (int64_t c = 0; c < C; c++) want += x[b * sb + r * sr + c * sc];
                TKT_CHECK(tkt_near(y[b * R + r], want, 1e-5, 1e-5), "y[%lld,%lld] = %g, expected %g",
                          (long long)b, (long long)r, y[b * R + r], want);
            }
    }
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    static const int64_t mn[][2] = {{0, 0}, {0, 4}, {4, 0}, {1, 1}, {7, 13}, {8, 8}, {9, 17}, {127, 33}};
    char name[80];
    for (size_t k = 0; k < sizeof mn / sizeof mn[0]; k++) {
        snprintf(name, sizeof name, "M=%lld N=%lld", (long long)mn[k][0], (long long)mn[k][1]);
        tkt_case = name;
        scale_case(mn[k][0], mn[k][1]);
    }
    static const int64_t brc[][3] = {{0, 3, 4}, {1, 1, 1}, {2, 3, 16}, {3, 7, 13}, {5, 2, 17}, {4, 9, 0}};
    for (size_t k = 0; k < sizeof brc / sizeof brc[0]; k++) {
        snprintf(name, sizeof name, "B=%lld R=%lld C=%lld", (long long)brc[k][0], (long long)brc[k][1], (long long)brc[k][2]);
        tkt_case = name;
        sum_case(brc[k][0], brc[k][1], brc[k][2]);
    }
    tkt_case = "errors";
    float *x = TKT_NEW(float, 16), *y = TKT_OUT(float, 16);
    tkt_snapshot();
    tkt_status("scale_strided NULL x", scale_strided(NULL, y, 1.0f, 4, 4, 4, 1, 4, 1), TK_ERR_ARG,
               tk_last_error(), "x", (char *)0);
    tkt_status("scale_strided M<0", scale_strided(x, y, 1.0f, -4, 4, 4, 1, 4, 1), TK_ERR_ARG,
               tk_last_error(), "M", (char *)0);
    tkt_unchanged();
    return tkt_done("strided");
}
