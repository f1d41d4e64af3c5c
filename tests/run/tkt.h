/*
 * tests/run/tkt.h — the harness every run-test driver shares.  Include it
 * after the generated header (it uses the prelude's tk_f16/tk_bf16 helpers).
 *
 *   float *y = TKT_OUT(float, n);      guarded buffer: sentinel bytes before
 *                                      and after, and inside until written
 *   tkt_check_guards("case");          after each call: nothing written outside
 *   tkt_casef("M=%lld", (long long)M)  names the case in failure lines
 *   tkt_close("y", got, ref, n, atol, rtol)   compare with a float64 reference
 *   tkt_snapshot(); ...; tkt_unchanged("case")  error calls write nothing
 *   tkt_reset();                       free every buffer of the case
 *   return tkt_done();                 "ok" and 0, or a count and 1
 *
 * Random data comes from one xorshift64 stream with a fixed seed.
 */
#ifndef TKT_H
#define TKT_H
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TKT_FN static __attribute__((unused))

TKT_FN int tkt_failures;
TKT_FN const char *tkt_case = "";       /* printed with every failure */

TKT_FN void tkt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
TKT_FN void tkt_fail(const char *fmt, ...)
{
    va_list ap;
    if (++tkt_failures > 40)
        return;
    printf("FAIL [%s] ", tkt_case);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

#define TKT_CHECK(cond, ...) do { if (!(cond)) tkt_fail(__VA_ARGS__); } while (0)

/* tkt_case from a format: tkt_casef("M=%lld", (long long)M). */
TKT_FN char tkt_case_buf[160];
TKT_FN void tkt_casef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
TKT_FN void tkt_casef(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tkt_case_buf, sizeof tkt_case_buf, fmt, ap);
    va_end(ap);
    tkt_case = tkt_case_buf;
}

/* ------------------------------------------------------------ random */

TKT_FN uint64_t tkt_rng = 0x9E3779B97F4A7C15ull;
TKT_FN void tkt_seed(uint64_t s) { tkt_rng = s ? s : 1; }
TKT_FN uint64_t tkt_next(void)
{
    tkt_rng ^= tkt_rng << 13;
    tkt_rng ^= tkt_rng >> 7;
    tkt_rng ^= tkt_rng << 17;
    return tkt_rng;
}
TKT_FN double tkt_unif(double lo, double hi)  /* [lo, hi) */
{
    return lo + (hi - lo) * (double)(tkt_next() >> 11) * (1.0 / 9007199254740992.0);
}
TKT_FN int64_t tkt_int(int64_t lo, int64_t hi)   /* [lo, hi] */
{
    return lo + (int64_t)(tkt_next() % (uint64_t)(hi - lo + 1));
}
TKT_FN void tkt_fill(float *x, int64_t n, double lo, double hi)
{
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)tkt_unif(lo, hi);
}

/* ref[M x N] = c0 + a[M x K] b[K x N] in float64 (c0 NULL: 0) */
TKT_FN void tkt_matmul_ref(double *ref, const float *a, const float *b, const float *c0, int64_t M, int64_t N,
                           int64_t K)
{
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double s = c0 ? c0[i * N + j] : 0;
            for (int64_t k = 0; k < K; k++)
                s += (double)a[i * K + k] * b[k * N + j];
            ref[i * N + j] = s;
        }
}

/* h[i] = x[i] rounded to bf16 (the header's tk_f32_to_bf16) for n
 * elements; with keep, x[i] takes the rounded value too */
#define TKT_TO_BF16(x, h, n, keep)                           \
    do {                                                     \
        for (int64_t i_ = 0; i_ < (n); i_++) {               \
            (h)[i_] = tk_f32_to_bf16((x)[i_]);               \
            if (keep)                                        \
                (x)[i_] = tk_bf16_to_f32((h)[i_]);           \
        }                                                    \
    } while (0)

/* ----------------------------------------------- guarded buffers */

#define TKT_GUARD 256            /* bytes each side */
#define TKT_MAXBUF 64
TKT_FN unsigned char tkt_pat(size_t i) { return (unsigned char)(0xA5u ^ (i * 31u)); }

typedef struct {
    unsigned char *raw, *copy;
    size_t bytes;
    const char *what;
} TktBuf;
TKT_FN TktBuf tkt_bufs[TKT_MAXBUF];
TKT_FN int tkt_nbufs;

/* n elements of es bytes, every byte (guards and data) set to the sentinel
 * pattern.  Never NULL, also for n == 0. */
TKT_FN void *tkt_alloc(size_t n, size_t es, const char *what)
{
    size_t bytes = n * es;
    unsigned char *raw = malloc(bytes + 2 * TKT_GUARD);
    if (!raw || tkt_nbufs == TKT_MAXBUF) {
        printf("tkt: out of memory or buffers\n");
        exit(1);
    }
    for (size_t i = 0; i < bytes + 2 * TKT_GUARD; i++)
        raw[i] = tkt_pat(i);
    tkt_bufs[tkt_nbufs++] = (TktBuf){raw, NULL, bytes, what};
    return raw + TKT_GUARD;
}
#define TKT_OUT(T, n) ((T *)tkt_alloc((size_t)(n), sizeof(T), #T "[" #n "]"))
#define TKT_NEW(T, n) TKT_OUT(T, n)

/* Was element i (es bytes) of a buffer left untouched (still the sentinel)? */
TKT_FN int tkt_untouched(const void *p, size_t i, size_t es)
{
    const unsigned char *b = (const unsigned char *)p + i * es;
    for (size_t k = 0; k < es; k++)
        if (b[k] != tkt_pat(TKT_GUARD + i * es + k))
            return 0;
    return 1;
}

TKT_FN void tkt_check_guards(void)
{
    for (int i = 0; i < tkt_nbufs; i++) {
        TktBuf *b = &tkt_bufs[i];
        for (size_t k = 0; k < TKT_GUARD; k++) {
            if (b->raw[k] != tkt_pat(k)) {
                tkt_fail("buffer %d (%s): written %zu bytes before its start", i, b->what,
                         TKT_GUARD - k);
                break;
            }
        }
        for (size_t k = 0; k < TKT_GUARD; k++) {
            size_t at = TKT_GUARD + b->bytes + k;
            if (b->raw[at] != tkt_pat(at)) {
                tkt_fail("buffer %d (%s): written at byte %zu past its end", i, b->what, k);
                break;
            }
        }
    }
}

/* Remember every buffer's bytes; tkt_unchanged then checks none moved. */
TKT_FN void tkt_snapshot(void)
{
    for (int i = 0; i < tkt_nbufs; i++) {
        TktBuf *b = &tkt_bufs[i];
        free(b->copy);
        b->copy = malloc(b->bytes + 2 * TKT_GUARD);
        memcpy(b->copy, b->raw, b->bytes + 2 * TKT_GUARD);
    }
}
TKT_FN void tkt_unchanged(void)
{
    for (int i = 0; i < tkt_nbufs; i++) {
        TktBuf *b = &tkt_bufs[i];
        if (b->copy && memcmp(b->copy, b->raw, b->bytes + 2 * TKT_GUARD) != 0)
            tkt_fail("buffer %d (%s) was written by a call that failed", i, b->what);
    }
}

TKT_FN void tkt_reset(void)
{
    for (int i = 0; i < tkt_nbufs; i++) {
        free(tkt_bufs[i].raw);
        free(tkt_bufs[i].copy);
    }
    tkt_nbufs = 0;
}

/* ------------------------------------------------------ comparing */

/* |got - ref| <= atol + rtol * |ref|; NaN only where the reference is NaN,
 * infinities equal. */
TKT_FN int tkt_near(double got, double ref, double atol, double rtol)
{
    if (isnan(ref))
        return isnan(got);
    if (isinf(ref))
        return got == ref;
    return fabs(got - ref) <= atol + rtol * fabs(ref);
}

TKT_FN int tkt_close(const char *what, const float *got, const double *ref, int64_t n,
                     double atol, double rtol)
{
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!tkt_near(got[i], ref[i], atol, rtol)) {
            if (bad++ < 5)
                tkt_fail("%s[%lld] = %.9g, expected %.9g", what, (long long)i, got[i], ref[i]);
        }
    }
    if (bad > 5)
        tkt_fail("%s: %d of %lld elements wrong", what, bad, (long long)n);
    return bad == 0;
}

TKT_FN int tkt_close_d(const char *what, const double *got, const double *ref, int64_t n,
                       double atol, double rtol)
{
    int bad = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!tkt_near(got[i], ref[i], atol, rtol)) {
            if (bad++ < 5)
                tkt_fail("%s[%lld] = %.17g, expected %.17g", what, (long long)i, got[i], ref[i]);
        }
    }
    return bad == 0;
}

TKT_FN int tkt_eq_i64(const char *what, int64_t got, int64_t ref, int64_t i)
{
    if (got != ref) {
        tkt_fail("%s[%lld] = %lld, expected %lld", what, (long long)i, (long long)got,
                 (long long)ref);
        return 0;
    }
    return 1;
}

/* A failed call: the status, and a message that mentions each of the
 * NULL-terminated substrings. */
TKT_FN void tkt_status(const char *what, int got, int want, const char *msg, ...)
{
    va_list ap;
    if (got != want) {
        tkt_fail("%s: status %d, expected %d (tk_last_error: \"%s\")", what, got, want, msg);
        return;
    }
    if (want == 0)
        return;
    if (!msg || !*msg) {
        tkt_fail("%s: status %d with an empty tk_last_error()", what, got);
        return;
    }
    va_start(ap, msg);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        if (!strstr(msg, s))
            tkt_fail("%s: tk_last_error() \"%s\" does not mention \"%s\"", what, msg, s);
    va_end(ap);
}

/* Sizes most tests walk: empty, one, primes, around and across blocks. */
TKT_FN const int64_t tkt_sizes[] = {0, 1, 2, 7, 13, 31, 32, 33, 64, 127, 128, 129, 257, 1021};
#define TKT_NSIZES ((int)(sizeof tkt_sizes / sizeof tkt_sizes[0]))

/* x rounded to tf32: to nearest, ties to even (infinities and NaNs kept):
 * the reference for dot(..., allow_tf32 = true). */
TKT_FN double tkt_tf32(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0xfffu + (u >> 13 & 1u)) & 0xffffe000u;
    memcpy(&x, &u, sizeof x);
    return x;
}

TKT_FN int tkt_done(const char *name)
{
    tkt_reset();
    if (tkt_failures) {
        printf("%s: %d failure(s)\n", name, tkt_failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
#endif
