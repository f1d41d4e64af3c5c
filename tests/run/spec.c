/* Run test: -D N=64 -D BLOCK=16.  The call passes M only (a compile error
 * otherwise), and the values of N and BLOCK show in the results. */
#include "spec.h"
#include "tkt.h"

static void one(int64_t M)
{
    float *x = TKT_NEW(float, M * 64), *y = TKT_OUT(float, M), *z = TKT_OUT(float, M * 64);
    tkt_fill(x, M * 64, -1, 1);
    tkt_status("rowsum", rowsum(x, y, z, M), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++) {
        double s = 64;
        for (int j = 0; j < 64; j++) {
            s += x[i * 64 + j];
            TKT_CHECK(z[i * 64 + j] == x[i * 64 + j] + 16.0f, "z[%lld,%d] = %g, expected x + 16",
                      (long long)i, j, z[i * 64 + j]);
        }
        TKT_CHECK(tkt_near(y[i], s, 1e-5, 1e-6), "y[%lld] = %g, expected %g", (long long)i, y[i], s);
    }
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    static const int64_t ms[] = {0, 1, 2, 7, 13, 100};
    char name[40];
    for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++) {
        snprintf(name, sizeof name, "M=%lld", (long long)ms[k]);
        tkt_case = name;
        one(ms[k]);
    }
    tkt_case = "errors";
    float *x = TKT_NEW(float, 64), *y = TKT_OUT(float, 1);
    tkt_snapshot();
    tkt_status("rowsum NULL y", rowsum(x, NULL, x, 1), TK_ERR_ARG, tk_last_error(), "y", (char *)0);
    tkt_status("rowsum M<0", rowsum(x, y, x, -1), TK_ERR_ARG, tk_last_error(), "M", (char *)0);
    tkt_unchanged();
    return tkt_done("spec");
}
