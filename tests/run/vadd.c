/* Run test: vadd / axpy / axpby64 against float64 references, every size,
 * guards around outputs, and the argument checks. */
#include "vadd.h"
#include "tkt.h"

static void one(int64_t n)
{
    float *x = TKT_NEW(float, n), *y = TKT_NEW(float, n), *out = TKT_OUT(float, n);
    double *ref = calloc(1, sizeof(double) * (size_t)(n + 1));
    tkt_fill(x, n, -10, 10);
    tkt_fill(y, n, -10, 10);

    tkt_status("vadd", vadd(x, y, out, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++)
        ref[i] = (double)x[i] + (double)y[i];
    tkt_close("vadd out", out, ref, n, 1e-6, 1e-6);

    float alpha = (float)tkt_unif(-3, 3);
    for (int64_t i = 0; i < n; i++)
        ref[i] = (double)alpha * x[i] + y[i];
    tkt_status("axpy", axpy(alpha, x, y, n), TK_OK, tk_last_error(), (char *)0);
    tkt_close("axpy y", y, ref, n, 1e-5, 1e-6);
    tkt_check_guards();

    double *xd = TKT_NEW(double, n), *yd = TKT_NEW(double, n), *zd = TKT_OUT(double, n);
    for (int64_t i = 0; i < n; i++) {
        xd[i] = tkt_unif(-1, 1);
        yd[i] = tkt_unif(-1, 1);
    }
    double a = 1.0 / 3.0, b = -2.5e-7;
    tkt_status("axpby64", axpby64(a, xd, b, yd, zd, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++)
        ref[i] = a * xd[i] + b * yd[i] + 0.1;
    tkt_close_d("axpby64 z", zd, ref, n, 1e-15, 1e-14);   /* f64 math, not f32 */
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

static void errors(void)
{
    int64_t n = 100;
    float *x = TKT_NEW(float, n), *y = TKT_NEW(float, n), *out = TKT_OUT(float, n);
    tkt_fill(x, n, -1, 1);
    tkt_fill(y, n, -1, 1);
    tkt_snapshot();
    tkt_case = "errors";
    tkt_status("vadd NULL x", vadd(NULL, y, out, n), TK_ERR_ARG, tk_last_error(), "x", (char *)0);
    tkt_status("vadd NULL out", vadd(x, y, NULL, n), TK_ERR_ARG, tk_last_error(), "out", (char *)0);
    tkt_status("vadd N<0", vadd(x, y, out, -1), TK_ERR_ARG, tk_last_error(), "N", (char *)0);
    tkt_status("axpy NULL y", axpy(2.0f, x, NULL, n), TK_ERR_ARG, tk_last_error(), "y", (char *)0);
    tkt_status("vadd huge N", vadd(x, y, out, INT64_MAX), TK_ERR_ARG, tk_last_error(), (char *)0);
    tkt_unchanged();
    tkt_check_guards();
    /* No elements: NULL is allowed, nothing happens. */
    tkt_status("vadd NULL N=0", vadd(NULL, NULL, NULL, 0), TK_OK, tk_last_error(), (char *)0);
    tkt_status("axpy NULL N=0", axpy(1.0f, NULL, NULL, 0), TK_OK, tk_last_error(), (char *)0);
    tkt_reset();
}

int main(void)
{
    char name[64];
    for (int s = 0; s < TKT_NSIZES; s++) {
        snprintf(name, sizeof name, "N=%lld", (long long)tkt_sizes[s]);
        tkt_case = name;
        one(tkt_sizes[s]);
    }
    tkt_case = "N=100000";
    one(100000);
    errors();
    return tkt_done("vadd");
}
