/* Run test: const bool/float params, scalar bool params,
 * small integer and bool tensors, empty ranges, scalar helpers. */
#include "misc.h"
#include "tkt.h"

static void odds_case(int64_t n, bool flag)
{
    float *x = TKT_NEW(float, n), *y = TKT_OUT(float, n);
    int8_t *b = TKT_OUT(int8_t, n);
    int16_t *h = TKT_OUT(int16_t, n);
    bool *pos = TKT_OUT(bool, n);
    int64_t *s = TKT_OUT(int64_t, 4);
    tkt_fill(x, n, -3, 3);
    tkt_status("odds", odds(x, flag, y, b, h, pos, s, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        float want = -(x[i] / 2.0f) * (flag ? 0.5f : 1.0f);
        TKT_CHECK(y[i] == want, "y[%lld] = %g, expected %g", (long long)i, y[i], want);
        tkt_eq_i64("as i8", b[i], (int8_t)(x[i] * 10.0f), i);
        tkt_eq_i64("as i16", h[i], (int16_t)(x[i] * 1000.0f), i);
        tkt_eq_i64("bool", pos[i], x[i] > 0.0f, i);
    }
    if (n > 0) {
        int64_t want[4] = {(n + 15) / 16, n < 5 ? n : 5, n > 5 ? n : 5, 7};
        for (int k = 0; k < 4; k++)
            tkt_eq_i64("scalars", s[k], want[k], k);
    } else {
        for (int k = 0; k < 4; k++)
            TKT_CHECK(tkt_untouched(s, (size_t)k, sizeof(int64_t)), "s[%d] written with no programs", k);
    }
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    char name[40];
    for (int s = 0; s < TKT_NSIZES; s++) {
        snprintf(name, sizeof name, "N=%lld", (long long)tkt_sizes[s]);
        tkt_case = name;
        odds_case(tkt_sizes[s], true);
        odds_case(tkt_sizes[s], false);
    }
    return tkt_done("misc");
}
