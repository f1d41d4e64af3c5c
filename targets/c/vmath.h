/* ---- tkc vector math: f32 exp/log/tanh/erf/sigmoid that compilers vectorize ----
 * libm calls stop a loop from vectorizing (errno, no vector variants without
 * -ffast-math), so tkc's generated loops call these branch-free versions.
 * Max error about 2 ulp (exp, log, exp2, log2, sigmoid), 3e-7 absolute
 * (tanh, erf); results below 2^-126 flush to zero.  Selects are bit masks
 * (tk_sel), not branches, so no compiler flag turns the loop scalar. */
#ifndef TKC_VMATH
#define TKC_VMATH 1
/* a * b + c: one fused instruction where the target has it (also under
 * -std=c11, which turns contraction off), else two that still vectorize. */
#ifdef __FMA__
#define TK_FMA(a, b, c) fmaf(a, b, c)
#else
#define TK_FMA(a, b, c) ((a) * (b) + (c))
#endif
/* c ? a : b without a branch, so loops stay vectorizable under any flags */
static inline float tk_sel(int c, float a, float b)
{
    uint32_t m = 0u - (uint32_t)c;
    return tk_bits_f32((tk_f32_bits(a) & m) | (tk_f32_bits(b) & ~m));
}

/* 2^n for integer-valued n in [-126, 127] */
static inline float tk_pow2i(float n) { return tk_bits_f32((uint32_t)((int32_t)n + 127) << 23); }

/* e^r * 2^n for |r| <= ln2/2 and integer-valued n, with the special cases
 * of the original argument x taken from lo/hi limits. */
static inline float tk_exp_core(float x, float n, float r, float lo, float hi)
{
    float p = 1.0f / 5040.0f;
    p = TK_FMA(p, r, 1.0f / 720.0f);
    p = TK_FMA(p, r, 1.0f / 120.0f);
    p = TK_FMA(p, r, 1.0f / 24.0f);
    p = TK_FMA(p, r, 1.0f / 6.0f);
    p = TK_FMA(p, r, 0.5f);
    p = TK_FMA(p, r, 1.0f);
    p = TK_FMA(p, r, 1.0f);
    float y = p * tk_pow2i(n);
    y = tk_sel(x < lo, 0.0f, y);
    y = tk_sel(x > hi, INFINITY, y);
    return tk_sel(x != x, x, y);
}

static inline float tk_expf(float x)
{
    float c = tk_sel(x > 88.72f, 88.72f, x);
    c = tk_sel(c < -87.33f, -87.33f, c);
    float t = c * 1.44269504088896341f;
    float n = (float)(int32_t)(t + copysignf(0.5f, t));   /* round; SSE2 has no floor */
    float r = c - n * 0.693145751953125f;                 /* ln2 split: hi exact in f32 */
    r = r - n * 1.428606765330187e-06f;
    return tk_exp_core(x, n, r, -87.33f, 88.72f);
}

static inline float tk_exp2f(float x)
{
    float c = tk_sel(x > 127.99f, 127.99f, x);
    c = tk_sel(c < -126.0f, -126.0f, c);
    float n = (float)(int32_t)(c + copysignf(0.5f, c));
    return tk_exp_core(x, n, (c - n) * 0.693147180559945309f, -126.0f, 127.99f);
}

static inline float tk_logf(float x)
{
    float sx = x * 16777216.0f;                    /* subnormals: scale by 2^24 */
    int sub = x < 1.17549435e-38f;
    float v = tk_sel(sub, sx, x);
    uint32_t u = tk_f32_bits(v);
    int32_t e = (int32_t)((u >> 23) & 0xffu) - 127;
    float m = tk_bits_f32((u & 0x7fffffu) | 0x3f800000u);   /* [1, 2) */
    int big = m > 1.41421356f;
    m = tk_sel(big, m * 0.5f, m);
    float ef = (float)(e + big) - tk_sel(sub, 24.0f, 0.0f);
    float s = (m - 1.0f) / (m + 1.0f), s2 = s * s;
    float p = 1.0f / 11.0f;
    p = TK_FMA(p, s2, 1.0f / 9.0f);
    p = TK_FMA(p, s2, 1.0f / 7.0f);
    p = TK_FMA(p, s2, 1.0f / 5.0f);
    p = TK_FMA(p, s2, 1.0f / 3.0f);
    p = TK_FMA(p, s2, 1.0f);
    float y = 2.0f * s * p + ef * 0.693147180559945309f;
    y = tk_sel(x == 0.0f, -INFINITY, y);
    y = tk_sel(x < 0.0f, NAN, y);
    y = tk_sel(x == INFINITY, INFINITY, y);
    return tk_sel(x != x, x, y);
}

static inline float tk_log2f(float x) { return tk_logf(x) * 1.44269504088896341f; }

static inline float tk_sigmoid_f(float x) { return 1.0f / (1.0f + tk_expf(-x)); }

static inline float tk_tanhf(float x)
{
    float a = tk_sel(x < 0.0f, -x, x);
    float x2 = x * x;
    /* small |x|: odd Taylor series, relative error below 2e-9 for |x| < 0.25 */
    float p = 62.0f / 2835.0f;
    p = TK_FMA(p, x2, -17.0f / 315.0f);
    p = TK_FMA(p, x2, 2.0f / 15.0f);
    p = TK_FMA(p, x2, -1.0f / 3.0f);
    float small = x + x * x2 * p;
    float e = tk_expf(2.0f * tk_sel(a > 20.0f, 20.0f, a));
    float big = 1.0f - 2.0f / (e + 1.0f);
    big = tk_sel(x < 0.0f, -big, big);
    float y = tk_sel(a < 0.25f, small, big);
    return tk_sel(x != x, x, y);
}

static inline float tk_erff(float x)
{
    float a = tk_sel(x < 0.0f, -x, x);
    float x2 = x * x;
    /* |x| < 0.5: Taylor series of erf */
    float p = -1.0f / 1320.0f;
    p = TK_FMA(p, x2, 1.0f / 216.0f);
    p = TK_FMA(p, x2, -1.0f / 42.0f);
    p = TK_FMA(p, x2, 1.0f / 10.0f);
    p = TK_FMA(p, x2, -1.0f / 3.0f);
    p = TK_FMA(p, x2, 1.0f);
    float small = 1.12837916709551257f * x * p;
    /* otherwise 1 - erfc, with the classical Chebyshev fit of erfc(x) e^{x^2}
     * (Press et al., Numerical Recipes, "erfcc"; 1.2e-7 relative) */
    float t = 1.0f / (1.0f + 0.5f * a);
    float q = 0.17087277f;
    q = TK_FMA(q, t, -0.82215223f);
    q = TK_FMA(q, t, 1.48851587f);
    q = TK_FMA(q, t, -1.13520398f);
    q = TK_FMA(q, t, 0.27886807f);
    q = TK_FMA(q, t, -0.18628806f);
    q = TK_FMA(q, t, 0.09678418f);
    q = TK_FMA(q, t, 0.37409196f);
    q = TK_FMA(q, t, 1.00002368f);
    q = TK_FMA(q, t, -1.26551223f);
    float erfc = t * tk_expf(q - a * a);
    float big = 1.0f - erfc;
    big = tk_sel(x < 0.0f, -big, big);
    float y = tk_sel(a < 0.5f, small, big);
    return tk_sel(x != x, x, y);
}
#endif /* TKC_VMATH */
/* ---- end of vector math ---- */
