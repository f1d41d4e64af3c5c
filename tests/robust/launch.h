/*
 * tests/robust/launch.h — the generic launcher test that gen_driver.c's
 * drivers share.  Include it after the generated header (with TKC_DLPACK).
 *
 * A driver describes each kernel as a TlKernel (its tensors' dtypes and
 * shapes over the run-time dims, how to call NAME and NAME_dl); tl_kernel
 * then, knowing nothing of what the kernel computes:
 *
 *   - runs it on odd shapes (every dim 0, 1, primes, powers of two and just
 *     over them; one dim at a time where all at once would be too big) and
 *     checks that inputs are unchanged and nothing outside any tensor is
 *     written: each buffer has guard bytes both sides, filled with a pattern
 *     and, under ASan, poisoned, so a stray read or write is reported where
 *     it happens;
 *     a call that fails (a `require`) must say why and write nothing;
 *   - calls it with bad arguments: each tensor NULL, each dim negative or
 *     above 2^62, and through NAME_dl a NULL DLTensor, a wrong dtype, a wrong
 *     rank, a negative size and, for each dim two tensors share, sizes that
 *     disagree: each must fail with TK_ERR_ARG, a message, and write nothing.
 *
 * Prints "FAIL ..." lines for what went wrong and exits 1 (tl_done).
 */
#ifndef TL_LAUNCH_H
#define TL_LAUNCH_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TL_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TL_ASAN 1
#endif
#ifdef TL_ASAN
#include <sanitizer/asan_interface.h>
#define TL_POISON(p, n) __asan_poison_memory_region((p), (n))
#define TL_UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define TL_POISON(p, n) ((void)(p), (void)(n))
#define TL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define TL_MAXT 16             /* tensors per kernel */
#define TL_MAXD 16             /* run-time dims per kernel */
#define TL_GUARD 64            /* bytes each side of a buffer */
#define TL_CAP (1 << 16)       /* most elements of one tensor in a shape case */

typedef struct TlTensor {
    const char *name;
    int es;                    /* bytes per element */
    int fill;                  /* 0: float in [-1, 1), 1: f16, 2: bf16, 3: small int, 4: bool */
    int code, bits;            /* DLPack dtype */
    int rank;
    int dim[4];                /* run-time dim index, or -1 ... */
    int64_t size[4];           /* ... then this size */
} TlTensor;

typedef struct TlKernel {
    const char *name;
    int nt, nd;
    TlTensor t[TL_MAXT];
    const char *dname[TL_MAXD];
    int64_t fixed[TL_MAXD];    /* -D specialized value, or -1 */
    tk_status (*call)(void **p, const int64_t *d, const int64_t *const *st);
    tk_status (*dl)(DLTensor **t);
} TlKernel;

static int tl_failures;
static const TlKernel *tl_k;
static char tl_case[160];

static void tl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tl_fail(const char *fmt, ...)
{
    va_list ap;
    if (++tl_failures > 30)
        return;
    printf("FAIL %s [%s] ", tl_k->name, tl_case);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

/* ------------------------------------------------------------ buffers */

typedef struct TlBuf { unsigned char *raw, *copy; size_t bytes; } TlBuf;
static TlBuf tl_buf[TL_MAXT];

static unsigned char tl_pat(size_t i) { return (unsigned char)(0x5Au ^ (i * 29u)); }

static uint64_t tl_rng = 0x243F6A8885A308D3ull;
static double tl_unif(void)
{
    tl_rng ^= tl_rng << 13, tl_rng ^= tl_rng >> 7, tl_rng ^= tl_rng << 17;
    return (double)(tl_rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static void tl_fill(unsigned char *p, int64_t n, const TlTensor *t)
{
    for (int64_t i = 0; i < n; i++) {
        float f = (float)tl_unif();
        unsigned char *e = p + i * t->es;
        switch (t->fill) {
        case 0:
            if (t->es == 4) memcpy(e, &f, 4);
            else { double x = f; memcpy(e, &x, 8); }
            break;
        case 1: { tk_f16 h = tk_f32_to_f16(f); memcpy(e, &h, 2); break; }
        case 2: { tk_bf16 h = tk_f32_to_bf16(f); memcpy(e, &h, 2); break; }
        default: memset(e, 0, (size_t)t->es), e[0] = f > 0; break;
        }
    }
}

/* The tensor's elements under dims d, or -1 when over TL_CAP. */
static int64_t tl_numel(const TlTensor *t, const int64_t *d)
{
    int64_t n = 1;
    for (int j = 0; j < t->rank; j++) {
        int64_t s = t->dim[j] >= 0 ? d[t->dim[j]] : t->size[j];
        if (s && n > TL_CAP / s)
            return -1;
        n *= s;
    }
    return n;
}

static void *tl_alloc(int i, int64_t n)
{
    const TlTensor *t = &tl_k->t[i];
    size_t bytes = (size_t)n * (size_t)t->es, all = bytes + 2 * TL_GUARD;
    unsigned char *raw = malloc(all);
    if (!raw) {
        printf("launch: out of memory\n");
        exit(1);
    }
    for (size_t k = 0; k < all; k++)
        raw[k] = tl_pat(k);
    tl_fill(raw + TL_GUARD, n, t);
    TL_POISON(raw, TL_GUARD);
    TL_POISON(raw + TL_GUARD + bytes, TL_GUARD);
    tl_buf[i] = (TlBuf){ raw, malloc(all), bytes };
    memcpy(tl_buf[i].copy + TL_GUARD, raw + TL_GUARD, bytes);
    return raw + TL_GUARD;
}

/* After a call: guards intact; every tensor but the stored ones unchanged
 * (or all of them, after a call that failed). */
static void tl_check(const int *stored, int failed)
{
    for (int i = 0; i < tl_k->nt; i++) {
        TlBuf *b = &tl_buf[i];
        size_t all = b->bytes + 2 * TL_GUARD;
        TL_UNPOISON(b->raw, all);
        for (size_t k = 0; k < TL_GUARD; k++) {
            if (b->raw[k] != tl_pat(k)) {
                tl_fail("%s: written %zu bytes before its start", tl_k->t[i].name, TL_GUARD - k);
                break;
            }
        }
        for (size_t k = b->bytes + TL_GUARD; k < all; k++) {
            if (b->raw[k] != tl_pat(k)) {
                tl_fail("%s: written %zu bytes past its end", tl_k->t[i].name, k - b->bytes - TL_GUARD);
                break;
            }
        }
        if ((failed || !stored[i]) && memcmp(b->raw + TL_GUARD, b->copy + TL_GUARD, b->bytes))
            tl_fail("%s: written by a call that %s", tl_k->t[i].name, failed ? "failed" : "may not");
        TL_POISON(b->raw, TL_GUARD);
        TL_POISON(b->raw + TL_GUARD + b->bytes, TL_GUARD);
    }
}

static void tl_free(void)
{
    for (int i = 0; i < tl_k->nt; i++) {
        TL_UNPOISON(tl_buf[i].raw, tl_buf[i].bytes + 2 * TL_GUARD);
        free(tl_buf[i].raw);
        free(tl_buf[i].copy);
    }
}

/* ------------------------------------------------------------ calls */

typedef struct TlArgs {
    void *p[TL_MAXT];
    int64_t d[TL_MAXD];
    int64_t st[TL_MAXT][4];
    const int64_t *stp[TL_MAXT];
    DLTensor dl[TL_MAXT];
    DLTensor *dlp[TL_MAXT];
    int64_t shape[TL_MAXT][4];
} TlArgs;

/* Buffers and contiguous strides for dims d; false if a tensor is too big. */
static bool tl_setup(TlArgs *a, const int64_t *d)
{
    memcpy(a->d, d, sizeof a->d);
    for (int i = 0; i < tl_k->nt; i++)
        if (tl_numel(&tl_k->t[i], d) < 0)
            return false;
    for (int i = 0; i < tl_k->nt; i++) {
        const TlTensor *t = &tl_k->t[i];
        a->p[i] = tl_alloc(i, tl_numel(t, d));
        int64_t s = 1;
        for (int j = t->rank - 1; j >= 0; j--) {
            a->shape[i][j] = t->dim[j] >= 0 ? d[t->dim[j]] : t->size[j];
            a->st[i][j] = s;
            s *= a->shape[i][j];
        }
        a->stp[i] = a->st[i];
        a->dl[i] = (DLTensor){ .data = a->p[i], .device = { kDLCPU, 0 }, .ndim = t->rank,
                               .dtype = { (uint8_t)t->code, (uint8_t)t->bits, 1 },
                               .shape = a->shape[i] };
        a->dlp[i] = &a->dl[i];
    }
    return true;
}

static tk_status tl_call(TlArgs *a, const int *stored, bool dl)
{
    tk_error_buf[0] = 0;
    tk_status s = dl ? tl_k->dl(a->dlp) : tl_k->call(a->p, a->d, a->stp);
    if (s != TK_OK && !tk_last_error()[0])
        tl_fail("status %d with an empty tk_last_error()", (int)s);
    if (s != TK_OK && s != TK_ERR_REQUIRE && s != TK_ERR_ARG)
        tl_fail("status %d (%s)", (int)s, tk_last_error());
    tl_check(stored, s != TK_OK);
    return s;
}

/* A call that must be refused with TK_ERR_ARG, its message naming `what`. */
static void tl_refused(TlArgs *a, const int *stored, bool dl, const char *what)
{
    tk_status s = tl_call(a, stored, dl);
    if (s != TK_ERR_ARG)
        tl_fail("status %d, expected TK_ERR_ARG", (int)s);
    else if (what && !strstr(tk_last_error(), what))
        tl_fail("message \"%s\" does not name %s", tk_last_error(), what);
}

/* ------------------------------------------------------------ cases */

static int tl_runs, tl_requires;

static void tl_shape(const int64_t *d, const int *stored)
{
    TlArgs a;
    int n = snprintf(tl_case, sizeof tl_case, "dims");
    for (int j = 0; j < tl_k->nd && n < (int)sizeof tl_case; j++)
        n += snprintf(tl_case + n, sizeof tl_case - (size_t)n, " %s=%lld", tl_k->dname[j], (long long)d[j]);
    if (!tl_setup(&a, d))
        return;
    for (int dl = 0; dl < 2; dl++) {
        tk_status s = tl_call(&a, stored, dl);
        tl_runs += s == TK_OK;
        tl_requires += s == TK_ERR_REQUIRE;
        if (s == TK_ERR_ARG)
            tl_fail("valid arguments refused: %s", tk_last_error());
    }
    tl_free();
}

static void tl_bad(const int64_t *d0, const int *stored)
{
    TlArgs a;
    int64_t d[TL_MAXD];
    memcpy(d, d0, sizeof d);
    snprintf(tl_case, sizeof tl_case, "bad arguments");
    if (!tl_setup(&a, d))
        return;
    for (int i = 0; i < tl_k->nt; i++) {
        void *p = a.p[i];
        a.p[i] = NULL;
        tl_refused(&a, stored, false, tl_k->t[i].name);
        a.p[i] = p;
        a.dlp[i] = NULL;
        tl_refused(&a, stored, true, tl_k->t[i].name);
        a.dlp[i] = &a.dl[i];
        DLTensor keep = a.dl[i];
        a.dl[i].dtype.bits = 24;
        tl_refused(&a, stored, true, tl_k->t[i].name);
        a.dl[i] = keep;
        a.dl[i].ndim = keep.ndim + 1;
        tl_refused(&a, stored, true, tl_k->t[i].name);
        a.dl[i] = keep;
        for (int j = 0; j < tl_k->t[i].rank; j++) {
            int64_t s = a.shape[i][j];
            a.shape[i][j] = -1;
            tl_refused(&a, stored, true, tl_k->t[i].name);
            a.shape[i][j] = s;
        }
    }
    static const int64_t huge[] = { -1, INT64_MIN, ((int64_t)1 << 62) + 1, INT64_MAX };
    for (int j = 0; j < tl_k->nd; j++) {
        if (tl_k->fixed[j] >= 0)
            continue;
        for (int h = 0; h < 4; h++) {
            a.d[j] = huge[h];
            tl_refused(&a, stored, false, NULL);
        }
        a.d[j] = d[j];
        /* Two tensors share dim j: a DLTensor that disagrees with the first. */
        int seen = 0;
        for (int i = 0; i < tl_k->nt; i++) {
            for (int r = 0; r < tl_k->t[i].rank; r++) {
                if (tl_k->t[i].dim[r] != j || !seen++)
                    continue;
                a.shape[i][r] = d[j] + 1;
                tl_refused(&a, stored, true, tl_k->dname[j]);
                a.shape[i][r] = d[j];
            }
        }
    }
    tl_free();
}

/* Every shape case, then the bad arguments at small sizes. */
static void tl_kernel(const TlKernel *k, const int *stored)
{
    static const int64_t vals[] = { 0, 1, 2, 3, 7, 13, 31, 32, 33, 67, 128, 129, 257, 1031, 2053 };
    int nv = (int)(sizeof vals / sizeof *vals);
    int64_t d[TL_MAXD];
    tl_k = k;
    tl_runs = tl_requires = 0;
    for (int v = 0; v < nv; v++) {
        for (int j = 0; j < k->nd; j++)
            d[j] = k->fixed[j] >= 0 ? k->fixed[j] : vals[v];
        bool fits = true;
        for (int i = 0; i < k->nt; i++)
            fits &= tl_numel(&k->t[i], d) >= 0;
        if (fits) {
            tl_shape(d, stored);
            continue;
        }
        for (int one = 0; one < k->nd; one++) {      /* one dim big, the rest 3 */
            if (k->fixed[one] >= 0)
                continue;
            for (int j = 0; j < k->nd; j++)
                d[j] = k->fixed[j] >= 0 ? k->fixed[j] : j == one ? vals[v] : 3;
            tl_shape(d, stored);
        }
    }
    for (int one = 0; one < k->nd; one++) {          /* one dim empty, the rest 5 */
        for (int j = 0; j < k->nd; j++)
            d[j] = k->fixed[j] >= 0 ? k->fixed[j] : j == one ? 0 : 5;
        tl_shape(d, stored);
    }
    for (int j = 0; j < k->nd; j++)
        d[j] = k->fixed[j] >= 0 ? k->fixed[j] : 5;
    tl_bad(d, stored);
    printf("%s: %d runs, %d refused by a require\n", k->name, tl_runs, tl_requires);
    if (tl_runs == 0)
        tl_fail("no shape case ran");
}

static int tl_done(void)
{
    if (tl_failures)
        printf("%d failure(s)\n", tl_failures);
    return tl_failures != 0;
}
#endif
