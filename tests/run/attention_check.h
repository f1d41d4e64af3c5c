/*
 * tests/run/attention_check.h — the body of the attention run tests
 * (stdlib/attention.tk).  Each driver tests/run/attention_*.c defines
 *
 *   ATT_D        the head dim its header was made with (-D D=..)
 *   ATT_CAUSAL   1 when made with -D CAUSAL=true
 *   ATT_RELPOS   1 when sdpa_relpos is in the header
 *   ATT_HALF_ONLY  1 when the header has only sdpa_bf16 and sdpa_f16 (a
 *                test's own kernels under those names and signatures)
 *
 * includes its generated header and tkt.h, then this file, and calls
 * att_main().  Every result is compared with a float64 naive attention
 * (scores, softmax, weighted sum, one query row at a time).  q, k, v and o
 * are strided views: slices of a packed [B, S, 3, H, D] (or [B, T, 2, H, D])
 * projection and an o laid out as [B, S, H, D + 3], whose gap elements must
 * stay untouched.  A row that sees no key has o = 0 and lse = -inf.
 */
#ifndef ATT_D
#error "define ATT_D (and ATT_CAUSAL, ATT_RELPOS) before including attention_check.h"
#endif

#ifndef ATT_LONG
#define ATT_LONG 0                /* 1: also sdpa_bf16 / sdpa_f16 at S = 4097 */
#endif
#ifndef ATT_HALF_ONLY
#define ATT_HALF_ONLY 0
#endif
#define ATT_PAD 3                 /* o's rows are D + ATT_PAD wide */

/* A 4-D strided view: element (b, h, i, d) at p[b*s[0] + h*s[1] + i*s[2] + d*s[3]]. */
typedef struct {
    const float *p;
    int64_t s[4];
} AttView;

static double att_at(const AttView *x, int64_t b, int64_t h, int64_t i, int64_t d)
{
    return x->p[b * x->s[0] + h * x->s[1] + i * x->s[2] + d * x->s[3]];
}

/* The additive bias of logit (b, h, i, j): none, a mask view, or SAM's
 * decomposed relative position (rel_h[.., j / KW] + rel_w[.., j % KW]). */
typedef struct {
    int kind;                     /* 0 none, 1 mask, 2 relpos */
    AttView mask, rel_h, rel_w;
    int64_t kw;
} AttBias;

static double att_bias(const AttBias *bias, int64_t b, int64_t h, int64_t i, int64_t j)
{
    if (bias->kind == 1)
        return att_at(&bias->mask, b, h, i, j);
    if (bias->kind == 2)
        return att_at(&bias->rel_h, b, h, i, j / bias->kw) + att_at(&bias->rel_w, b, h, i, j % bias->kw);
    return 0;
}

/* The float64 reference: ro [B, H, S, D] and rlse [B, H, S], contiguous. */
static void att_ref(int64_t B, int64_t H, int64_t S, int64_t T, const AttView *q, const AttView *k,
                    const AttView *v, const AttBias *bias, double scale, int causal, double *ro,
                    double *rlse)
{
    double *x = malloc(sizeof(double) * (size_t)(T ? T : 1));
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t i = 0; i < S; i++) {
                double m = -INFINITY;
                for (int64_t j = 0; j < T; j++) {
                    x[j] = -INFINITY;
                    if (causal && j > i + (T - S))
                        continue;
                    double dot = 0;
                    for (int64_t d = 0; d < ATT_D; d++)
                        dot += att_at(q, b, h, i, d) * att_at(k, b, h, j, d);
                    x[j] = scale * dot + att_bias(bias, b, h, i, j);
                    if (x[j] > m)
                        m = x[j];
                }
                double *o = ro + ((b * H + h) * S + i) * ATT_D;
                for (int64_t d = 0; d < ATT_D; d++)
                    o[d] = 0;
                if (m == -INFINITY) {
                    rlse[(b * H + h) * S + i] = -INFINITY;
                    continue;
                }
                double l = 0;
                for (int64_t j = 0; j < T; j++) {
                    if (x[j] == -INFINITY)
                        continue;
                    double p = exp(x[j] - m);
                    l += p;
                    for (int64_t d = 0; d < ATT_D; d++)
                        o[d] += p * att_at(v, b, h, j, d);
                }
                for (int64_t d = 0; d < ATT_D; d++)
                    o[d] /= l;
                rlse[(b * H + h) * S + i] = m + log(l);
            }
    free(x);
}

/* q, k, v as views of packed projections: [B, S, 3, H, D] when `packed`
 * (needs S == T), else q contiguous [B, H, S, D] and k, v from a packed
 * [B, T, 2, H, D]. */
typedef struct {
    AttView q, k, v;
} AttQkv;

/* o's strides, [B, H, S, D] order (att_out; att_half_case sets its own) */
static int64_t att_os[4];

#if !ATT_HALF_ONLY
static AttQkv att_qkv(int64_t B, int64_t H, int64_t S, int64_t T, int packed, double lo, double hi)
{
    AttQkv r;
    const int64_t D = ATT_D;
    if (packed) {
        float *buf = TKT_NEW(float, B * S * 3 * H * D);
        tkt_fill(buf, B * S * 3 * H * D, lo, hi);
        r.q = (AttView){buf, {S * 3 * H * D, D, 3 * H * D, 1}};
        r.k = (AttView){buf + H * D, {S * 3 * H * D, D, 3 * H * D, 1}};
        r.v = (AttView){buf + 2 * H * D, {S * 3 * H * D, D, 3 * H * D, 1}};
    } else {
        float *qb = TKT_NEW(float, B * H * S * D), *kv = TKT_NEW(float, B * T * 2 * H * D);
        tkt_fill(qb, B * H * S * D, lo, hi);
        tkt_fill(kv, B * T * 2 * H * D, lo, hi);
        r.q = (AttView){qb, {H * S * D, S * D, D, 1}};
        r.k = (AttView){kv, {T * 2 * H * D, D, 2 * H * D, 1}};
        r.v = (AttView){kv + H * D, {T * 2 * H * D, D, 2 * H * D, 1}};
    }
    return r;
}

/* o as a [B, S, H, D + ATT_PAD] buffer; the view is [B, H, S, D]. */
static float *att_out(int64_t B, int64_t H, int64_t S)
{
    const int64_t DP = ATT_D + ATT_PAD;
    att_os[0] = S * H * DP;
    att_os[1] = DP;
    att_os[2] = H * DP;
    att_os[3] = 1;
    return TKT_OUT(float, B * S * H * DP);
}

/* Compare o (and lse when given) with the reference; the pad elements of o
 * must be untouched. */
static void att_compare(const char *what, int64_t B, int64_t H, int64_t S, const float *o,
                        const double *ro, const float *lse, const double *rlse, double atol,
                        double rtol)
{
    const int64_t DP = ATT_D + ATT_PAD;
    int bad = 0;
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t i = 0; i < S; i++)
                for (int64_t d = 0; d < DP; d++) {
                    int64_t at = b * att_os[0] + h * att_os[1] + i * att_os[2] + d;
                    if (d >= ATT_D) {
                        if (!tkt_untouched(o, (size_t)at, sizeof(float)) && bad++ < 5)
                            tkt_fail("%s: o pad element (%lld,%lld,%lld,%lld) written", what,
                                     (long long)b, (long long)h, (long long)i, (long long)d);
                        continue;
                    }
                    double want = ro[((b * H + h) * S + i) * ATT_D + d];
                    if (!tkt_near(o[at], want, atol, rtol) && bad++ < 5)
                        tkt_fail("%s: o[%lld,%lld,%lld,%lld] = %.9g, expected %.9g", what,
                                 (long long)b, (long long)h, (long long)i, (long long)d, o[at], want);
                }
    if (bad > 5)
        tkt_fail("%s: %d elements of o wrong", what, bad);
    if (lse)
        tkt_close("lse", lse, rlse, B * H * S, 1e-4, 1e-5);
}
#endif

/* 0.0: 1/sqrt(D); -0.2: a negative scale (sdpa_tc negates q for it) */
static const double att_scales[] = {0.125, 1.0, 0.0, 0.3, -0.2};
static double att_scale(int which)
{
    double s = att_scales[which % 5];
    return s != 0 ? s : 1.0 / sqrt((double)ATT_D);
}

#if !ATT_HALF_ONLY
/* ---- sdpa, sdpa_lse: f32 ---- */

static void att_sdpa_case(int with_lse, int64_t B, int64_t H, int64_t S, int64_t T, int which)
{
    char name[120];
    snprintf(name, sizeof name, "%s D=%d%s B=%lld H=%lld S=%lld T=%lld", with_lse ? "sdpa_lse" : "sdpa",
             ATT_D, ATT_CAUSAL ? " causal" : "", (long long)B, (long long)H, (long long)S, (long long)T);
    tkt_case = name;
    double scale = att_scale(which);
    AttQkv x = att_qkv(B, H, S, T, S == T && which % 2 == 0, -2, 2);
    float *o = att_out(B, H, S);
    float *lse = with_lse ? TKT_OUT(float, B * H * S) : NULL;
    double *ro = malloc(sizeof(double) * (size_t)(B * H * S * ATT_D + 1));
    double *rlse = malloc(sizeof(double) * (size_t)(B * H * S + 1));
    AttBias none = {0};
    int st;
    if (with_lse)
        st = sdpa_lse(x.q.p, x.k.p, x.v.p, o, lse, (float)scale, B, H, S, T, x.q.s[0], x.q.s[1],
                      x.q.s[2], x.q.s[3], x.k.s[0], x.k.s[1], x.k.s[2], x.k.s[3], x.v.s[0], x.v.s[1],
                      x.v.s[2], x.v.s[3], att_os[0], att_os[1], att_os[2], att_os[3]);
    else
        st = sdpa(x.q.p, x.k.p, x.v.p, o, (float)scale, B, H, S, T, x.q.s[0], x.q.s[1], x.q.s[2],
                  x.q.s[3], x.k.s[0], x.k.s[1], x.k.s[2], x.k.s[3], x.v.s[0], x.v.s[1], x.v.s[2],
                  x.v.s[3], att_os[0], att_os[1], att_os[2], att_os[3]);
    tkt_status(name, st, TK_OK, tk_last_error(), (char *)0);
    att_ref(B, H, S, T, &x.q, &x.k, &x.v, &none, scale, ATT_CAUSAL, ro, rlse);
    att_compare(name, B, H, S, o, ro, lse, rlse, 2e-5, 2e-4);
    tkt_check_guards();
    free(ro);
    free(rlse);
    tkt_reset();
}

/* ---- sdpa_mask ---- */

/* bcast: one [S, T] mask for every batch and head (strides 0, 0, T, 1);
 * else a full [B, H, S, T] mask with rows T + 5 apart.  Some entries are
 * -inf, every row i with i % 7 == 3 is -inf throughout (no visible key),
 * and rows with i % 7 == 5 hide their first T / 2 + 1 keys (whole key blocks). */
static void att_mask_case(int bcast, int64_t B, int64_t H, int64_t S, int64_t T, int which)
{
    char name[120];
    snprintf(name, sizeof name, "sdpa_mask%s D=%d%s B=%lld H=%lld S=%lld T=%lld",
             bcast ? " broadcast" : "", ATT_D, ATT_CAUSAL ? " causal" : "", (long long)B, (long long)H,
             (long long)S, (long long)T);
    tkt_case = name;
    double scale = att_scale(which);
    AttQkv x = att_qkv(B, H, S, T, S == T, -2, 2);
    const int64_t TP = T + 5;
    int64_t n = bcast ? S * T : B * H * S * TP;
    float *mask = TKT_NEW(float, n);
    tkt_fill(mask, n, -3, 3);
    AttBias bias = {.kind = 1};
    bias.mask = bcast ? (AttView){mask, {0, 0, T, 1}} : (AttView){mask, {H * S * TP, S * TP, TP, 1}};
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t i = 0; i < S; i++)
                for (int64_t j = 0; j < T; j++) {
                    float *e = mask + (b * bias.mask.s[0] + h * bias.mask.s[1] + i * bias.mask.s[2] + j);
                    if (i % 7 == 3 || (i % 7 == 5 && j <= T / 2) || (i * 5 + j * 3) % 11 == 0)
                        *e = -INFINITY;
                }
    float *o = att_out(B, H, S);
    double *ro = malloc(sizeof(double) * (size_t)(B * H * S * ATT_D + 1));
    double *rlse = malloc(sizeof(double) * (size_t)(B * H * S + 1));
    int st = sdpa_mask(x.q.p, x.k.p, x.v.p, mask, o, (float)scale, B, H, S, T, x.q.s[0], x.q.s[1],
                       x.q.s[2], x.q.s[3], x.k.s[0], x.k.s[1], x.k.s[2], x.k.s[3], x.v.s[0],
                       x.v.s[1], x.v.s[2], x.v.s[3], bias.mask.s[0], bias.mask.s[1], bias.mask.s[2],
                       bias.mask.s[3], att_os[0], att_os[1], att_os[2], att_os[3]);
    tkt_status(name, st, TK_OK, tk_last_error(), (char *)0);
    att_ref(B, H, S, T, &x.q, &x.k, &x.v, &bias, scale, ATT_CAUSAL, ro, rlse);
    att_compare(name, B, H, S, o, ro, NULL, NULL, 2e-5, 2e-4);
    tkt_check_guards();
    free(ro);
    free(rlse);
    tkt_reset();
}

#endif

/* ---- sdpa_bf16, sdpa_f16: 16-bit storage ---- */

/* Round a float buffer to bf16 (f16) storage, and the float copy to the
 * rounded values the reference then uses. */
static tk_bf16 *att_to_bf16(float *x, int64_t n)
{
    tk_bf16 *r = TKT_NEW(tk_bf16, n);
    for (int64_t i = 0; i < n; i++) {
        r[i] = tk_f32_to_bf16(x[i]);
        x[i] = tk_bf16_to_f32(r[i]);
    }
    return r;
}
static tk_f16 *att_to_f16(float *x, int64_t n)
{
    tk_f16 *r = TKT_NEW(tk_f16, n);
    for (int64_t i = 0; i < n; i++) {
        r[i] = tk_f32_to_f16(x[i]);
        x[i] = tk_f16_to_f32(r[i]);
    }
    return r;
}

/* Elements before the packed [B, T, 2, H, D] of att_half_case (S != T): 1
 * puts k and v 2 bytes off 16-byte alignment, where the GPU launcher builds
 * no tensor maps (the kernels' NAME__nomap versions run). */
static int att_kv_shift;

/* q, k, v slices of one packed [B, S, 3, H, D] (S == T) or q [B, H, S, D]
 * with a packed [B, T, 2, H, D]; o [B, S, H, D + ATT_PAD], 16-bit. */
static void att_half_case(int is_f16, int64_t B, int64_t H, int64_t S, int64_t T, int which)
{
    char name[120];
    snprintf(name, sizeof name, "%s D=%d%s B=%lld H=%lld S=%lld T=%lld%s", is_f16 ? "sdpa_f16" : "sdpa_bf16",
             ATT_D, ATT_CAUSAL ? " causal" : "", (long long)B, (long long)H, (long long)S, (long long)T,
             att_kv_shift && S != T ? " (k, v unaligned)" : "");
    tkt_case = name;
    const int64_t D = ATT_D, DP = ATT_D + ATT_PAD;
    double scale = att_scale(which);
    int packed = S == T;
    int64_t sh = packed ? 0 : att_kv_shift;
    int64_t nq = packed ? B * S * 3 * H * D : B * H * S * D, nkv = packed ? 0 : B * T * 2 * H * D + sh;
    float *qf = TKT_NEW(float, nq), *kvf = TKT_NEW(float, nkv);
    tkt_fill(qf, nq, -2, 2);
    tkt_fill(kvf, nkv, -2, 2);
    void *q16 = is_f16 ? (void *)att_to_f16(qf, nq) : (void *)att_to_bf16(qf, nq);
    void *kv16 = is_f16 ? (void *)att_to_f16(kvf, nkv) : (void *)att_to_bf16(kvf, nkv);
    AttQkv x;
    const uint16_t *qp = q16, *kp, *vp;
    if (packed) {
        x.q = (AttView){qf, {S * 3 * H * D, D, 3 * H * D, 1}};
        x.k = x.q;
        x.k.p = qf + H * D;
        x.v = x.q;
        x.v.p = qf + 2 * H * D;
        kp = qp + H * D;
        vp = qp + 2 * H * D;
    } else {
        x.q = (AttView){qf, {H * S * D, S * D, D, 1}};
        x.k = (AttView){kvf + sh, {T * 2 * H * D, D, 2 * H * D, 1}};
        x.v = x.k;
        x.v.p = kvf + sh + H * D;
        kp = (const uint16_t *)kv16 + sh;
        vp = kp + H * D;
    }
    uint16_t *o16 = TKT_OUT(uint16_t, B * S * H * DP);
    att_os[0] = S * H * DP;
    att_os[1] = DP;
    att_os[2] = H * DP;
    att_os[3] = 1;
    int st;
    if (is_f16)
        st = sdpa_f16((const tk_f16 *)qp, (const tk_f16 *)kp, (const tk_f16 *)vp, (tk_f16 *)o16,
                      (float)scale, B, H, S, T, x.q.s[0], x.q.s[1], x.q.s[2], x.q.s[3], x.k.s[0],
                      x.k.s[1], x.k.s[2], x.k.s[3], x.v.s[0], x.v.s[1], x.v.s[2], x.v.s[3], att_os[0],
                      att_os[1], att_os[2], att_os[3]);
    else
        st = sdpa_bf16((const tk_bf16 *)qp, (const tk_bf16 *)kp, (const tk_bf16 *)vp, (tk_bf16 *)o16,
                       (float)scale, B, H, S, T, x.q.s[0], x.q.s[1], x.q.s[2], x.q.s[3], x.k.s[0],
                       x.k.s[1], x.k.s[2], x.k.s[3], x.v.s[0], x.v.s[1], x.v.s[2], x.v.s[3], att_os[0],
                       att_os[1], att_os[2], att_os[3]);
    tkt_status(name, st, TK_OK, tk_last_error(), (char *)0);
    double *ro = malloc(sizeof(double) * (size_t)(B * H * S * D + 1));
    double *rlse = malloc(sizeof(double) * (size_t)(B * H * S + 1));
    AttBias none = {0};
    att_ref(B, H, S, T, &x.q, &x.k, &x.v, &none, scale, ATT_CAUSAL, ro, rlse);
    /* bf16: 8-bit mantissas for p and o; f16: 11 bits. */
    double atol = is_f16 ? 2e-3 : 1.2e-2, rtol = is_f16 ? 4e-3 : 2e-2;
    int bad = 0;
    for (int64_t b = 0; b < B; b++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t i = 0; i < S; i++)
                for (int64_t d = 0; d < DP; d++) {
                    int64_t at = b * att_os[0] + h * att_os[1] + i * att_os[2] + d;
                    if (d >= D) {
                        if (!tkt_untouched(o16, (size_t)at, 2) && bad++ < 5)
                            tkt_fail("o pad element %lld written", (long long)at);
                        continue;
                    }
                    double got = is_f16 ? tk_f16_to_f32(o16[at]) : tk_bf16_to_f32(o16[at]);
                    double want = ro[((b * H + h) * S + i) * D + d];
                    if (!tkt_near(got, want, atol, rtol) && bad++ < 5)
                        tkt_fail("o[%lld,%lld,%lld,%lld] = %.6g, expected %.6g", (long long)b,
                                 (long long)h, (long long)i, (long long)d, got, want);
                }
    if (bad > 5)
        tkt_fail("%d elements of o wrong", bad);
    tkt_check_guards();
    free(ro);
    free(rlse);
    tkt_reset();
}

/* ---- sdpa_relpos ---- */

#if ATT_RELPOS
/* Queries on a QH x QW grid, keys on KH x KW; q, k, v slices of packed
 * projections; rel_h [B, H, S, KH] contiguous, rel_w a view with rows
 * KW + 2 apart. */
static void att_relpos_case(int64_t B, int64_t H, int64_t QH, int64_t QW, int64_t KH, int64_t KW, int which)
{
    char name[120];
    int64_t S = QH * QW, T = KH * KW;
    snprintf(name, sizeof name, "sdpa_relpos D=%d B=%lld H=%lld q %lldx%lld k %lldx%lld", ATT_D,
             (long long)B, (long long)H, (long long)QH, (long long)QW, (long long)KH, (long long)KW);
    tkt_case = name;
    double scale = att_scale(which);
    AttQkv x = att_qkv(B, H, S, T, S == T, -1.5, 1.5);
    const int64_t WP = KW + 2;
    float *rh = TKT_NEW(float, B * H * S * KH), *rw = TKT_NEW(float, B * H * S * WP);
    tkt_fill(rh, B * H * S * KH, -2, 2);
    tkt_fill(rw, B * H * S * WP, -2, 2);
    AttBias bias = {.kind = 2, .kw = KW};
    bias.rel_h = (AttView){rh, {H * S * KH, S * KH, KH, 1}};
    bias.rel_w = (AttView){rw, {H * S * WP, S * WP, WP, 1}};
    float *o = att_out(B, H, S);
    double *ro = malloc(sizeof(double) * (size_t)(B * H * S * ATT_D + 1));
    double *rlse = malloc(sizeof(double) * (size_t)(B * H * S + 1));
    int st = sdpa_relpos(x.q.p, x.k.p, x.v.p, rh, rw, o, (float)scale, B, H, S, T, KH, KW,
                         x.q.s[0], x.q.s[1], x.q.s[2], x.q.s[3], x.k.s[0], x.k.s[1], x.k.s[2],
                         x.k.s[3], x.v.s[0], x.v.s[1], x.v.s[2], x.v.s[3], bias.rel_h.s[0],
                         bias.rel_h.s[1], bias.rel_h.s[2], bias.rel_h.s[3], bias.rel_w.s[0],
                         bias.rel_w.s[1], bias.rel_w.s[2], bias.rel_w.s[3], att_os[0], att_os[1],
                         att_os[2], att_os[3]);
    tkt_status(name, st, TK_OK, tk_last_error(), (char *)0);
    att_ref(B, H, S, T, &x.q, &x.k, &x.v, &bias, scale, 0, ro, rlse);
    att_compare(name, B, H, S, o, ro, NULL, NULL, 2e-5, 2e-4);
    tkt_check_guards();
    free(ro);
    free(rlse);
    tkt_reset();
}

/* T != KH * KW: TK_ERR_REQUIRE naming the condition, nothing written. */
static void att_relpos_errors(void)
{
    tkt_case = "sdpa_relpos errors";
    const int64_t D = ATT_D, S = 6, T = 6, KH = 2, KW = 2;
    float *q = TKT_NEW(float, S * D), *k = TKT_NEW(float, T * D), *v = TKT_NEW(float, T * D);
    float *rh = TKT_NEW(float, S * KH), *rw = TKT_NEW(float, S * KW), *o = TKT_OUT(float, S * D);
    tkt_fill(q, S * D, -1, 1);
    tkt_fill(k, T * D, -1, 1);
    tkt_fill(v, T * D, -1, 1);
    tkt_snapshot();
    int st = sdpa_relpos(q, k, v, rh, rw, o, 0.125f, 1, 1, S, T, KH, KW, S * D, S * D, D, 1, T * D,
                         T * D, D, 1, T * D, T * D, D, 1, S * KH, S * KH, KH, 1, S * KW, S * KW, KW,
                         1, S * D, S * D, D, 1);
    tkt_status("sdpa_relpos T != KH*KW", st, TK_ERR_REQUIRE, tk_last_error(), "KH", (char *)0);
    st = sdpa_relpos(NULL, k, v, rh, rw, o, 0.125f, 1, 1, S, 4, KH, KW, S * D, S * D, D, 1, T * D,
                     T * D, D, 1, T * D, T * D, D, 1, S * KH, S * KH, KH, 1, S * KW, S * KW, KW, 1,
                     S * D, S * D, D, 1);
    tkt_status("sdpa_relpos NULL q", st, TK_ERR_ARG, tk_last_error(), "q", (char *)0);
    tkt_unchanged();
    tkt_reset();
}
#endif

#if !ATT_HALF_ONLY
/* NULL tensors and negative dims: an error status and nothing written. */
static void att_errors(void)
{
    tkt_case = "sdpa errors";
    const int64_t D = ATT_D, S = 5, T = 4;
    float *q = TKT_NEW(float, S * D), *k = TKT_NEW(float, T * D), *v = TKT_NEW(float, T * D);
    float *o = TKT_OUT(float, S * D);
    tkt_snapshot();
    tkt_status("sdpa NULL k", sdpa(q, NULL, v, o, 1.0f, 1, 1, S, T, S * D, S * D, D, 1, T * D,
                                   T * D, D, 1, T * D, T * D, D, 1, S * D, S * D, D, 1),
               TK_ERR_ARG, tk_last_error(), "k", (char *)0);
    tkt_status("sdpa T < 0", sdpa(q, k, v, o, 1.0f, 1, 1, S, -1, S * D, S * D, D, 1, T * D, T * D,
                                  D, 1, T * D, T * D, D, 1, S * D, S * D, D, 1),
               TK_ERR_ARG, tk_last_error(), "T", (char *)0);
    tkt_unchanged();
    tkt_reset();
    /* No keys at all: every row is 0. */
    tkt_case = "sdpa T = 0";
    q = TKT_NEW(float, S * D);
    k = TKT_NEW(float, 1);
    v = TKT_NEW(float, 1);
    o = TKT_OUT(float, S * D);
    tkt_fill(q, S * D, -1, 1);
    tkt_status("sdpa T = 0", sdpa(q, k, v, o, 1.0f, 1, 1, S, 0, S * D, S * D, D, 1, 0, 0, D, 1, 0, 0,
                                  D, 1, S * D, S * D, D, 1),
               TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < S * D; i++)
        TKT_CHECK(o[i] == 0.0f, "o[%lld] = %g, expected 0", (long long)i, o[i]);
    tkt_check_guards();
    tkt_reset();
}

#endif

static int att_main(const char *test)
{
#if !ATT_HALF_ONLY
    /* sdpa over odd lengths, T == S and T != S, B = 1 (and once B = 2). */
    static const int64_t st[][3] = {{1, 1, 2},   {17, 17, 2},  {100, 100, 2}, {257, 257, 1},
                                    {17, 100, 2}, {100, 17, 2}, {1, 257, 2},  {257, 1, 2},
                                    {64, 64, 2},  {129, 65, 1}, {1000, 1000, 1}};
    for (int c = 0; c < (int)(sizeof st / sizeof st[0]); c++)
        att_sdpa_case(0, 1, st[c][2], st[c][0], st[c][1], c);
    att_sdpa_case(0, 2, 3, 33, 40, 1);
    att_sdpa_case(0, 2, 2, 40, 40, 2);
    /* sdpa_lse */
    att_sdpa_case(1, 1, 2, 17, 17, 0);
    att_sdpa_case(1, 1, 2, 100, 37, 1);
    att_sdpa_case(1, 1, 1, 37, 100, 2);
    att_sdpa_case(1, 1, 1, 257, 257, 3);
    att_sdpa_case(1, 2, 2, 1, 5, 0);
    /* sdpa_mask */
    att_mask_case(1, 1, 2, 17, 17, 0);
    att_mask_case(0, 1, 2, 100, 257, 1);
    att_mask_case(0, 2, 1, 65, 33, 2);
    att_mask_case(1, 1, 3, 1, 100, 3);
#endif
    /* 16-bit storage */
    att_half_case(0, 1, 2, 100, 100, 0);
    att_half_case(0, 1, 2, 17, 257, 2);
    att_half_case(0, 1, 1, 257, 17, 3);
    att_half_case(1, 1, 2, 100, 100, 0);
    att_half_case(1, 1, 2, 33, 129, 3);
    att_half_case(0, 1, 2, 100, 100, 4);         /* negative scale */
    att_half_case(1, 1, 2, 33, 129, 4);
    /* 3 x 6 heads: under CAUSAL groups of 16 + 2 heads at D=64, 12 + 6 at
     * D=80, 8 + 8 + 2 at D=128 in sdpa_tc's longest-first order */
    att_half_case(0, 3, 6, 200, 200, 1);
    att_kv_shift = 1;
    att_half_case(0, 1, 2, 17, 257, 2);
    att_half_case(1, 2, 2, 33, 129, 3);
    att_kv_shift = 0;
#if ATT_LONG
    /* one long odd sequence, one past a power of two (the 4097),
     * not on the CPU stand-in of the GPU, where it takes minutes */
    if (!getenv("TKC_GPU_EMU") || strcmp(getenv("TKC_GPU_EMU"), "1")) {
        att_half_case(0, 1, 1, 4097, 4097, 1);
        att_half_case(1, 1, 1, 4097, 4096, 2);
    }
#endif
#if ATT_RELPOS
    /* sdpa_relpos on non-square and odd grids */
    att_relpos_case(1, 2, 5, 7, 6, 3, 0);
    att_relpos_case(1, 1, 1, 1, 1, 1, 1);
    att_relpos_case(1, 2, 17, 13, 9, 11, 2);
    att_relpos_case(1, 2, 14, 14, 14, 14, 0);
    att_relpos_case(2, 1, 3, 20, 20, 3, 3);
    att_relpos_case(1, 1, 32, 32, 32, 32, 2);
    /* key rows longer than half a block (whole rows, or pieces with a tail),
     * one key row, one key column, primes, S != T */
    att_relpos_case(1, 1, 7, 9, 3, 33, 1);
    att_relpos_case(1, 2, 5, 13, 2, 65, 0);
    att_relpos_case(1, 1, 4, 4, 4, 64, 3);
    att_relpos_case(1, 1, 3, 3, 1, 100, 2);
    att_relpos_case(1, 1, 2, 5, 70, 1, 1);
    att_relpos_case(2, 1, 3, 5, 31, 2, 0);
    att_relpos_case(1, 1, 1, 1, 17, 5, 3);
    att_relpos_errors();
#endif
#if !ATT_HALF_ONLY
    att_errors();
#endif
    return tkt_done(test);
}
