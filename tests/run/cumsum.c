/* Run test: cumsum along each axis, f32 and i32. */
#include "cumsum.h"
#include "tkt.h"

static void rows_case(int64_t M, int64_t N)
{
    float *x = TKT_NEW(float, M * N), *y = TKT_OUT(float, M * N);
    double *ref = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    tkt_fill(x, M * N, -1, 1);
    int st = cumsum_rows(x, y, M, N);
    if (N > 128) {
        tkt_status("cumsum_rows N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
    } else {
        tkt_status("cumsum_rows", st, TK_OK, tk_last_error(), (char *)0);
        for (int64_t i = 0; i < M; i++) {
            double s = 0;
            for (int64_t j = 0; j < N; j++)
                ref[i * N + j] = s += x[i * N + j];
        }
        tkt_close("cumsum_rows y", y, ref, M * N, 1e-5, 1e-5);
    }
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

static void twod_case(int64_t M, int64_t N)
{
    float *x = TKT_NEW(float, M * N), *dn = TKT_OUT(float, M * N), *ac = TKT_OUT(float, M * N);
    double *ref = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    tkt_fill(x, M * N, -1, 1);
    int st = cumsum_2d(x, dn, ac, M, N);
    if (M > 16) {
        tkt_status("cumsum_2d M > BM", st, TK_ERR_REQUIRE, tk_last_error(), "M", (char *)0);
    } else {
        tkt_status("cumsum_2d", st, TK_OK, tk_last_error(), (char *)0);
        for (int64_t j = 0; j < N; j++) {
            double s = 0;
            for (int64_t i = 0; i < M; i++)
                ref[i * N + j] = s += x[i * N + j];
        }
        tkt_close("cumsum axis 0", dn, ref, M * N, 1e-5, 1e-5);
        /* Along axis 1 the prefix restarts at every block of 8 columns. */
        for (int64_t i = 0; i < M; i++) {
            double s = 0;
            for (int64_t j = 0; j < N; j++) {
                if (j % 8 == 0) s = 0;
                ref[i * N + j] = s += x[i * N + j];
            }
        }
        tkt_close("cumsum axis 1", ac, ref, M * N, 1e-5, 1e-5);
    }
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

static void int_case(int64_t N)
{
    int32_t *x = TKT_NEW(int32_t, N), *y = TKT_OUT(int32_t, N);
    for (int64_t i = 0; i < N; i++) x[i] = (int32_t)tkt_int(-1000, 1000);
    int st = cumsum_int(x, y, N);
    if (N > 32) {
        tkt_status("cumsum_int N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
    } else {
        tkt_status("cumsum_int", st, TK_OK, tk_last_error(), (char *)0);
        int64_t s = 0;
        for (int64_t i = 0; i < N; i++) {
            s += x[i];
            tkt_eq_i64("cumsum_int", y[i], s, i);
        }
    }
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    static const int64_t ms[] = {0, 1, 2, 7, 16, 17};
    char name[80];
    for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
        for (int s = 0; s < TKT_NSIZES; s++) {
            snprintf(name, sizeof name, "M=%lld N=%lld", (long long)ms[a], (long long)tkt_sizes[s]);
            tkt_case = name;
            rows_case(ms[a], tkt_sizes[s]);
            twod_case(ms[a], tkt_sizes[s]);
        }
    for (int s = 0; s < TKT_NSIZES; s++) {
        snprintf(name, sizeof name, "int N=%lld", (long long)tkt_sizes[s]);
        tkt_case = name;
        int_case(tkt_sizes[s]);
    }
    return tkt_done("cumsum");
}
