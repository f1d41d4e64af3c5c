/* Run test: integer semantics (truncating division, shifts, wrap-around of
 * u8, i64 range, u32 comparisons). */
#include "intops.h"
#include "tkt.h"

static void i32_case(int64_t n)
{
    int32_t *a = TKT_NEW(int32_t, n), *b = TKT_NEW(int32_t, n), *out = TKT_OUT(int32_t, 10 * n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (int32_t)tkt_int(-100000, 100000);
        do b[i] = (int32_t)tkt_int(-300, 300); while (b[i] == 0);
        if (i % 5 == 0) a[i] = (int32_t)tkt_int(-20, 20);   /* small |a| < |b| too */
    }
    tkt_status("int32ops", int32ops(a, b, out, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        int32_t x = a[i], y = b[i];
        int64_t ref[10] = {
            x / y, x % y, (int32_t)((uint32_t)x << (y & 7)), x >> (y & 7),
            (x & y) | (x ^ 0x5a5a), ~x, -x * 3 + 7, (x < y ? x : y) - (x > y ? x : y),
            x > y ? x - y : y - x, (int32_t)((float)x * 0.5f),
        };
        static const char *what[10] = {"a / b", "a % b", "a << (b & 7)", "a >> (b & 7)",
            "bit ops", "~a", "-a * 3 + 7", "min - max", "where", "as f32 as i32"};
        for (int k = 0; k < 10; k++)
            tkt_eq_i64(what[k], out[k * n + i], ref[k], i);
    }
    tkt_check_guards();
    tkt_reset();
}

static void u8_case(int64_t n)
{
    uint8_t *a = TKT_NEW(uint8_t, n), *b = TKT_NEW(uint8_t, n);
    uint8_t *s = TKT_OUT(uint8_t, n), *avg = TKT_OUT(uint8_t, n), *p = TKT_OUT(uint8_t, n);
    int32_t *w = TKT_OUT(int32_t, n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = (uint8_t)tkt_int(0, 255);
        b[i] = (uint8_t)tkt_int(0, 255);
    }
    tkt_status("u8ops", u8ops(a, b, s, avg, p, w, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        tkt_eq_i64("u8 a + b", s[i], (uint8_t)(a[i] + b[i]), i);
        tkt_eq_i64("u8 (a + b) / 2", avg[i], (uint8_t)(a[i] + b[i]) / 2, i);
        tkt_eq_i64("u8 a * b", p[i], (uint8_t)(a[i] * b[i]), i);
        tkt_eq_i64("i32 a + b", w[i], a[i] + b[i], i);
    }
    tkt_check_guards();
    tkt_reset();
}

static void i64_case(int64_t n)
{
    int64_t *a = TKT_NEW(int64_t, n), *big = TKT_OUT(int64_t, n), *q = TKT_OUT(int64_t, n);
    int64_t *r = TKT_OUT(int64_t, n);
    int32_t *b = TKT_NEW(int32_t, n);
    uint32_t *hi = TKT_OUT(uint32_t, n);
    for (int64_t i = 0; i < n; i++) {
        a[i] = tkt_int(-((int64_t)1 << 40), (int64_t)1 << 40);
        do b[i] = (int32_t)tkt_int(-100000, 100000); while (b[i] == 0);
    }
    tkt_status("i64ops", i64ops(a, b, big, q, r, hi, n), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < n; i++) {
        int64_t x = a[i], y = b[i];
        tkt_eq_i64("i64 a * b + 2^40", big[i], x * y + ((int64_t)1 << 40), i);
        tkt_eq_i64("i64 a / b", q[i], x / y, i);
        tkt_eq_i64("i64 a % b", r[i], x % y, i);
        uint32_t u = (uint32_t)(x >> 20);
        tkt_eq_i64("u32 where", hi[i], u > (uint32_t)y ? u >> 3 : u << 1, i);
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
        i32_case(tkt_sizes[s]);
        u8_case(tkt_sizes[s]);
        i64_case(tkt_sizes[s]);
    }
    return tkt_done("intops");
}
