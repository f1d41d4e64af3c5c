/* Run test: explicit masks and other values; masked-off lanes must leave the
 * output exactly as it was. */
#include <stdbool.h>
#include "masks.h"
#include "tkt.h"

static void one(int64_t n)
{
    float *x = TKT_NEW(float, n), *y = TKT_OUT(float, n), *z = TKT_OUT(float, n), *u = TKT_OUT(float, n);
    bool *keep = TKT_NEW(bool, n);
    tkt_fill(x, n, -1, 1);
    for (int64_t i = 0; i < n; i++) keep[i] = tkt_next() & 1;
    float thr = 0.25f;
    tkt_status("masked", masked(x, keep, y, z, thr, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        float v = i % 2 == 0 ? x[i] : -1.0f;
        if (v < thr)
            TKT_CHECK(y[i] == v, "y[%lld] = %g, expected %g", (long long)i, y[i], v);
        else
            TKT_CHECK(tkt_untouched(y, (size_t)i, sizeof(float)), "y[%lld] written under a false mask", (long long)i);
        if (keep[i])
            TKT_CHECK(z[i] == 2.0f * x[i], "z[%lld] = %g, expected %g", (long long)i, z[i], 2.0f * x[i]);
        else
            TKT_CHECK(tkt_untouched(z, (size_t)i, sizeof(float)), "z[%lld] written under a false mask", (long long)i);
    }
    tkt_status("unchecked_copy", unchecked_copy(x, u, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++)
        TKT_CHECK(u[i] == x[i] + 1.0f, "u[%lld] = %g, expected %g", (long long)i, u[i], x[i] + 1.0f);
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    char name[40];
    for (int s = 0; s < TKT_NSIZES; s++) {
        snprintf(name, sizeof name, "N=%lld", (long long)tkt_sizes[s]);
        tkt_case = name;
        one(tkt_sizes[s]);
    }
    return tkt_done("masks");
}
