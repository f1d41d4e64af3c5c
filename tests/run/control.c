/* Run test: while / break / continue, static_for, if-else chains, 3-D grid,
 * run-time loop steps. */
#include "control.h"
#include "tkt.h"

static void collatz_case(int64_t n)
{
    int32_t *x = TKT_NEW(int32_t, n), *s = TKT_OUT(int32_t, n);
    for (int64_t i = 0; i < n; i++) x[i] = (int32_t)tkt_int(1, 3000);
    tkt_status("collatz", collatz(x, s, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = x[i], k = 0;
        while (v > 1) { v = v % 2 ? 3 * v + 1 : v / 2; k++; }
        tkt_eq_i64("collatz steps", s[i], k, i);
    }
    tkt_check_guards();
    tkt_reset();
}

static void scalar_case(int64_t P)
{
    int32_t *n = TKT_NEW(int32_t, P), *out = TKT_OUT(int32_t, P);
    for (int64_t i = 0; i < P; i++) n[i] = (int32_t)tkt_int(-5, 1100000);
    tkt_status("scalar_loop", scalar_loop(n, out, P), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < P; i++) {
        int32_t want = -1;
        for (int k = 1; k <= 1000; k++) {
            if (k % 5 == 0) continue;
            if (k * k > n[i]) { want = k; break; }
        }
        tkt_eq_i64("scalar_loop", out[i], want, i);
    }
    tkt_check_guards();
    tkt_reset();
}

static void poly_case(int64_t n)
{
    float *x = TKT_NEW(float, n), *c = TKT_NEW(float, 8), *y = TKT_OUT(float, n);
    double *ref = calloc(1, sizeof(double) * (size_t)(n + 1));
    tkt_fill(x, n, -1.5, 1.5);
    tkt_fill(c, 8, -1, 1);
    tkt_status("poly", poly(x, c, y, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        double acc = 0;
        for (int d = 5; d >= 0; d--) acc = acc * x[i] + c[d];
        ref[i] = acc;
    }
    tkt_close("poly", y, ref, n, 1e-5, 1e-5);
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

static void branchy_case(int64_t n)
{
    float *x = TKT_NEW(float, n), *y = TKT_OUT(float, n);
    tkt_fill(x, n, -1, 1);
    tkt_status("branchy", branchy(x, y, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        int64_t pid = i / 16;
        float want = pid % 2 == 0 ? x[i] * (pid == 0 ? 3.0f : 1.0f) : pid % 3 == 0 ? x[i] + 100.0f : -x[i];
        TKT_CHECK(y[i] == want, "y[%lld] = %g, expected %g (program %lld)", (long long)i, y[i], want, (long long)pid);
    }
    tkt_check_guards();
    tkt_reset();
}

static void grid3_case(int64_t A, int64_t B, int64_t C)
{
    int32_t *ids = TKT_OUT(int32_t, A * B * C * 4);
    tkt_status("grid3", grid3(ids, A, B, C), TK_OK, tk_last_error(), (char *)0);
    for (int64_t a = 0; a < A; a++)
        for (int64_t b = 0; b < B; b++)
            for (int64_t c = 0; c < C; c++) {
                int32_t *p = ids + ((a * B + b) * C + c) * 4;
                int64_t k = (a * B + b) * C + c;
                tkt_eq_i64("grid3 a", p[0], a, k);
                tkt_eq_i64("grid3 b", p[1], b, k);
                tkt_eq_i64("grid3 c", p[2], c, k);
                tkt_eq_i64("grid3 total", p[3], A * B * C, k);
            }
    tkt_check_guards();
    tkt_reset();
}

static void strided_sum_case(int64_t n, int32_t step)
{
    float *x = TKT_NEW(float, n), *out = TKT_OUT(float, 1);
    tkt_fill(x, n, -1, 1);
    tkt_status("strided_sum", strided_sum(x, out, step, n), TK_OK, tk_last_error(), (char *)0);
    double s = 0;
    for (int64_t i = 0; i < n; i += step) s += x[i];
    TKT_CHECK(tkt_near(out[0], s, 1e-4, 1e-5), "strided_sum step %d = %g, expected %g", step, out[0], s);
    tkt_check_guards();
    tkt_snapshot();
    tkt_status("strided_sum step 0", strided_sum(x, out, 0, n), TK_ERR_REQUIRE, tk_last_error(), "step", (char *)0);
    tkt_unchanged();
    tkt_reset();
}

int main(void)
{
    char name[64];
    for (int s = 0; s < TKT_NSIZES; s++) {
        int64_t n = tkt_sizes[s];
        snprintf(name, sizeof name, "N=%lld", (long long)n);
        tkt_case = name;
        collatz_case(n);
        scalar_case(n);
        poly_case(n);
        branchy_case(n);
        strided_sum_case(n, 1);
        strided_sum_case(n, 3);
        strided_sum_case(n, 1000);
    }
    static const int64_t abc[][3] = {{0, 1, 1}, {1, 1, 1}, {2, 3, 5}, {7, 1, 2}, {1, 13, 1}, {4, 4, 0}};
    for (size_t k = 0; k < sizeof abc / sizeof abc[0]; k++) {
        snprintf(name, sizeof name, "grid %lldx%lldx%lld", (long long)abc[k][0], (long long)abc[k][1], (long long)abc[k][2]);
        tkt_case = name;
        grid3_case(abc[k][0], abc[k][1], abc[k][2]);
    }
    return tkt_done("control");
}
