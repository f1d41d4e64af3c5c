/* Run test: tensors passed to fn helpers. */
#include "fn_tensor.h"
#include "tkt.h"

int main(void)
{
    static const int64_t ns[] = {0, 1, 13, 64, 65};
    char name[40];
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int64_t n = ns[k];
        snprintf(name, sizeof name, "N=%lld", (long long)n);
        tkt_case = name;
        float *x = TKT_NEW(float, n), *y = TKT_OUT(float, 2 * n);
        tkt_fill(x, n, -1, 1);
        int st = rows2(x, y, n);
        if (n > 64) {
            tkt_status("rows2 N > 64", st, TK_ERR_REQUIRE, tk_last_error(), "N", (char *)0);
        } else {
            tkt_status("rows2", st, TK_OK, tk_last_error(), (char *)0);
            for (int64_t i = 0; i < n; i++) {
                TKT_CHECK(y[i] == 2.0f * x[i], "y[0, %lld] = %g", (long long)i, y[i]);
                TKT_CHECK(y[n + i] == 7.0f, "y[1, %lld] = %g", (long long)i, y[n + i]);
            }
        }
        tkt_check_guards();
        tkt_reset();
    }
    return tkt_done("fn_tensor");
}
