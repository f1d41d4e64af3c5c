/* Run test: bounds checks the compiler must keep (off-by-one neighbours of
 * what it can prove), and a require that lets it drop them. */
#include "elide.h"
#include "tkt.h"

static void neighbours_case(int64_t M, int64_t K)
{
    float *x = TKT_NEW(float, M), *z = TKT_NEW(float, K), *y = TKT_OUT(float, M);
    tkt_fill(x, M, 1, 2);
    tkt_fill(z, K, 1, 2);
    tkt_status("neighbours", neighbours(x, z, y, M, K), TK_OK, tk_last_error(), (char *)0);
    for (int64_t p = 0; p < M; p++) {
        float want = (p + 1 < M ? x[p + 1] : 0.0f) + (p >= 1 ? x[p - 1] : 0.0f) + (p < K ? z[p] : 0.0f);
        TKT_CHECK(tkt_near(y[p], want, 1e-6, 1e-6), "y[%lld] = %g, expected %g", (long long)p, y[p], want);
    }
    tkt_check_guards();
    tkt_reset();
}

static void other_axis_case(int64_t A, int64_t B)
{
    float *x = TKT_NEW(float, A), *y = TKT_OUT(float, A * B);
    tkt_fill(x, A, 1, 2);
    tkt_status("other_axis", other_axis(x, y, A, B), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < A; i++)
        for (int64_t j = 0; j < B; j++) {
            float want = j < A ? x[j] : -1.0f;
            TKT_CHECK(y[i * B + j] == want, "y[%lld,%lld] = %g, expected %g", (long long)i, (long long)j, y[i * B + j], want);
        }
    tkt_check_guards();
    tkt_reset();
}

static void loop_case(int64_t n)
{
    float *x = TKT_NEW(float, n), *s = TKT_OUT(float, 2);
    tkt_fill(x, n, 0, 1);
    tkt_status("loop_shift", loop_shift(x, s, n), TK_OK, tk_last_error(), (char *)0);
    double a = 0, b = 0;
    for (int64_t i = 0; i < n; i++) a += i + 1 < n ? x[i + 1] : 1000.0;
    for (int64_t i = 0; i + 1 < n; i++) b += x[i + 1];
    TKT_CHECK(tkt_near(s[0], a, 1e-3, 1e-5), "loop a = %g, expected %g", s[0], a);
    TKT_CHECK(tkt_near(s[1], b, 1e-3, 1e-5), "loop b = %g, expected %g", s[1], b);
    tkt_check_guards();
    tkt_reset();
}

static void exact_case(int64_t n)
{
    float *x = TKT_NEW(float, n), *y = TKT_OUT(float, n);
    tkt_fill(x, n, -1, 1);
    int st = exact(x, y, n);
    if (n % 16) {
        tkt_status("exact N % 16 != 0", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
        for (int64_t i = 0; i < n; i++)
            TKT_CHECK(tkt_untouched(y, (size_t)i, sizeof(float)), "y[%lld] written after a failed require", (long long)i);
    } else {
        tkt_status("exact", st, TK_OK, tk_last_error(), (char *)0);
        for (int64_t i = 0; i < n; i++)
            TKT_CHECK(y[i] == x[i] + 1.0f, "y[%lld] = %g", (long long)i, y[i]);
    }
    tkt_check_guards();
    tkt_reset();
}

static void fits_case(int64_t n)
{
    float *x = TKT_NEW(float, n), *y = TKT_OUT(float, n), *t = TKT_OUT(float, 1);
    tkt_fill(x, n, -1, 1);
    int st = fits(x, y, t, n);
    if (n > 64) {
        tkt_status("fits N > BLOCK", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
    } else {
        tkt_status("fits", st, TK_OK, tk_last_error(), (char *)0);
        double s = 0.5 * (double)(64 - n);
        for (int64_t i = 0; i < n; i++) {
            s += x[i];
            TKT_CHECK(y[i] == 2.0f * x[i], "y[%lld] = %g", (long long)i, y[i]);
        }
        TKT_CHECK(tkt_near(t[0], s, 1e-4, 1e-5), "t = %g, expected %g", t[0], s);
    }
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    char name[64];
    static const int64_t mk[][2] = {{0, 0}, {1, 0}, {1, 1}, {5, 3}, {3, 5}, {100, 100}, {100, 99}};
    for (size_t k = 0; k < sizeof mk / sizeof mk[0]; k++) {
        snprintf(name, sizeof name, "M=%lld K=%lld", (long long)mk[k][0], (long long)mk[k][1]);
        tkt_case = name;
        neighbours_case(mk[k][0], mk[k][1]);
        other_axis_case(mk[k][0], mk[k][1]);
        other_axis_case(mk[k][1], mk[k][0] + 2);
    }
    for (int s = 0; s < TKT_NSIZES; s++) {
        snprintf(name, sizeof name, "N=%lld", (long long)tkt_sizes[s]);
        tkt_case = name;
        loop_case(tkt_sizes[s]);
        exact_case(tkt_sizes[s]);
        fits_case(tkt_sizes[s]);
    }
    return tkt_done("elide");
}
