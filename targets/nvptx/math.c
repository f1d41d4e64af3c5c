/*
 * targets/nvptx/math.c — the float functions PE_MATH needs, as LLVM IR
 * built inline at each use: no libdevice (that would need a CUDA toolkit).
 *
 * Everything is branch-free (selects) and uses fma.  f32 follows
 * targets/c/vmath.h, whose formulas tkc's run tests already validate
 * (about 2 ulp for exp, exp2, log, log2, sigmoid; 3e-7 absolute for tanh,
 * erf), with rint instead of vmath's SSE2-friendly rounding and results
 * scaled by two powers of two so that subnormal results are not flushed.
 * sin and cos reduce by pi/2 in three fma steps (Cody-Waite; accurate for
 * |x| below about 1e5 in f32) and use the classic minimax polynomials on
 * [-pi/4, pi/4].  pow (f32 and f64) is exp2(y * log2|x|) in f64, with C's
 * special cases for zero, negative x and integer y.  f64 uses the same
 * reductions with Taylor polynomials long enough for about 2-4 ulp; f64 erf
 * is its Taylor series below 2.5 and the erfc continued fraction above.
 * Float remainder (fmod) is exact for quotients below 2^53.  On the GPU
 * (not the stand-in's host code) f32 takes 2^r and reciprocals from the
 * special function unit where the ranges allow (see mufu): at worst 1.3e-7,
 * 2.7e-7 and 2.4e-7 relative for exp, tanh and erf on
 * tests/gpu/nvptx_math.c's arguments (doc/bench/h100-s18-mufu2.log).
 */
#include <math.h>

#include "ll.h"

typedef struct M {
    Ll *l;
    LLVMBuilderRef b;
    LLVMTypeRef t, it;         /* the float type and the integer of its width */
    bool dbl;
} M;

static M m_of(Ll *l, bool dbl)
{
    return (M){ l, l->b, dbl ? l->t_f64 : l->t_f32, dbl ? l->t_i64 : l->t_i32, dbl };
}

static LLVMValueRef K(M *m, double v) { return LLVMConstReal(m->t, v); }
static LLVMValueRef add(M *m, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFAdd(m->b, a, b, ""); }
static LLVMValueRef sub(M *m, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFSub(m->b, a, b, ""); }
static LLVMValueRef mul(M *m, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFMul(m->b, a, b, ""); }
static LLVMValueRef dvd(M *m, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFDiv(m->b, a, b, ""); }
static LLVMValueRef neg(M *m, LLVMValueRef a) { return LLVMBuildFNeg(m->b, a, ""); }
static LLVMValueRef sel(M *m, LLVMValueRef c, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildSelect(m->b, c, a, b, ""); }
static LLVMValueRef lt(M *m, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFCmp(m->b, LLVMRealOLT, a, b, ""); }
static LLVMValueRef gt(M *m, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFCmp(m->b, LLVMRealOGT, a, b, ""); }
static LLVMValueRef eq(M *m, LLVMValueRef a, LLVMValueRef b) { return LLVMBuildFCmp(m->b, LLVMRealOEQ, a, b, ""); }
static LLVMValueRef isnan_(M *m, LLVMValueRef a) { return LLVMBuildFCmp(m->b, LLVMRealUNO, a, a, ""); }

static LLVMValueRef call1(M *m, const char *name, LLVMValueRef a)
{
    return ll_intrinsic(m->l, name, &m->t, 1, &a, 1);
}

static LLVMValueRef fma3(M *m, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
    LLVMValueRef x[3] = { a, b, c };
    return ll_intrinsic(m->l, "llvm.fma", &m->t, 1, x, 3);
}

static LLVMValueRef fabs_(M *m, LLVMValueRef a) { return call1(m, "llvm.fabs", a); }
static LLVMValueRef rint_(M *m, LLVMValueRef a) { return call1(m, "llvm.rint", a); }
static LLVMValueRef trunc_(M *m, LLVMValueRef a) { return call1(m, "llvm.trunc", a); }

static LLVMValueRef copysign_(M *m, LLVMValueRef a, LLVMValueRef s)
{
    LLVMValueRef x[2] = { a, s };
    return ll_intrinsic(m->l, "llvm.copysign", &m->t, 1, x, 2);
}

/* Horner: c[0] x^(n-1) + ... + c[n-1], with fma. */
static LLVMValueRef poly(M *m, LLVMValueRef x, const double *c, int n)
{
    LLVMValueRef p = K(m, c[0]);
    for (int i = 1; i < n; i++)
        p = fma3(m, p, x, K(m, c[i]));
    return p;
}

/* 2^n for an integer-valued float n inside the normal exponent range. */
static LLVMValueRef pow2i(M *m, LLVMValueRef n)
{
    int mant = m->dbl ? 52 : 23, bias = m->dbl ? 1023 : 127;
    LLVMValueRef i = LLVMBuildFPToSI(m->b, n, m->it, "");
    i = LLVMBuildAdd(m->b, i, LLVMConstInt(m->it, (unsigned long long)bias, 0), "");
    i = LLVMBuildShl(m->b, i, LLVMConstInt(m->it, (unsigned long long)mant, 0), "");
    return LLVMBuildBitCast(m->b, i, m->t, "");
}

/* p * 2^n in two steps (n/2 and the rest), so that results below the
 * normal range come out subnormal and 2^n itself may overflow the type. */
static LLVMValueRef ldexp_(M *m, LLVMValueRef p, LLVMValueRef n)
{
    LLVMValueRef h = call1(m, "llvm.floor", mul(m, n, K(m, 0.5)));
    return mul(m, mul(m, p, pow2i(m, h)), pow2i(m, sub(m, n, h)));
}

/* f32 on the GPU (not the stand-in's host code): the special function
 * unit's ex2 and rcp (ex2.approx, rcp.approx: about 2 and 1 ulp) where the
 * argument's range keeps them exact (2^r for |r| <= 1/2; 1 / a for a in
 * [1, 2^126]), as CUDA's own expf / erff / tanhf use them.  The Taylor
 * polynomial and the IEEE division (div.rn: eight instructions and a
 * call to a slow path) made bias_gelu_residual's loop 1847 SASS
 * instructions to NVRTC's 1030, 2351 vs 2826 GB/s on an H100
 * (doc/bench/h100-s18-bench.log). */
static bool mufu(const M *m)
{
    return !m->dbl && !m->l->host;
}

/* 2^x by the special function unit (ex2.approx.ftz: subnormal results 0) */
static LLVMValueRef ex2_approx(M *m, LLVMValueRef x)
{
    return ll_intrinsic(m->l, "llvm.nvvm.ex2.approx.ftz.f", NULL, 0, &x, 1);
}

/* 1 / a for a in [1, 2^126] */
static LLVMValueRef rcp_(M *m, LLVMValueRef a)
{
    if (!mufu(m))
        return dvd(m, K(m, 1), a);
    return ll_intrinsic(m->l, "llvm.nvvm.rcp.approx.ftz.f", NULL, 0, &a, 1);
}

/* e^z for z that can neither overflow nor matter when subnormal (erf's
 * e^(q - a^2), tanh's e^(2 min(|x|, 20))); f32 on the GPU: ex2.approx of
 * z log2 e, the product's rounding error (lo, by fma) applied after as
 * 1 + lo ln 2 (ex2.approx flushes subnormal results: 1 - erfc is 1 there;
 * z below -150 taken as -150, so that -inf gives 0, not inf - inf in lo);
 * else exp_. */
static LLVMValueRef exp_(M *m, LLVMValueRef x);
static LLVMValueRef exp_inner(M *m, LLVMValueRef z)
{
    if (!mufu(m))
        return exp_(m, z);
    z = sel(m, lt(m, z, K(m, -150)), K(m, -150), z);   /* -inf: lo would be inf - inf */
    LLVMValueRef hi = mul(m, z, K(m, 1.4426950408889634));
    LLVMValueRef lo = fma3(m, z, K(m, 1.9259629911266175e-08), fma3(m, z, K(m, 1.4426950408889634), neg(m, hi)));
    LLVMValueRef e = ex2_approx(m, hi);
    return mul(m, e, fma3(m, lo, K(m, 0.6931471805599453), K(m, 1)));
}

/* e^r * 2^n for |r| <= ln2/2 (Taylor; degree 7 in f32, 13 in f64; on the
 * GPU in f32 2^(r log2 e) by ex2.approx). */
static LLVMValueRef exp_core(M *m, LLVMValueRef r, LLVMValueRef n)
{
    if (mufu(m))
        return ldexp_(m, ex2_approx(m, mul(m, r, K(m, 1.4426950408889634))), n);
    double c[14];
    int deg = m->dbl ? 13 : 7;
    double f = 1;
    for (int k = 0; k <= deg; k++) {
        f *= k ? k : 1;
        c[deg - k] = 1 / f;
    }
    return ldexp_(m, poly(m, r, c, deg + 1), n);
}

/* The special cases of exp-like functions: 0 below lo, inf above hi, NaN kept. */
static LLVMValueRef exp_limits(M *m, LLVMValueRef x, LLVMValueRef y, double lo, double hi)
{
    y = sel(m, lt(m, x, K(m, lo)), K(m, 0), y);
    y = sel(m, gt(m, x, K(m, hi)), K(m, INFINITY), y);
    return sel(m, isnan_(m, x), x, y);
}

static LLVMValueRef clamp(M *m, LLVMValueRef x, double lo, double hi)
{
    x = sel(m, gt(m, x, K(m, hi)), K(m, hi), x);
    return sel(m, lt(m, x, K(m, lo)), K(m, lo), x);
}

static LLVMValueRef exp_(M *m, LLVMValueRef x)
{
    double lo = m->dbl ? -745.2 : -104.0, hi = m->dbl ? 709.79 : 88.73;
    double ln2hi = m->dbl ? 0.6931471805599453 : 0.6931471824645996;
    double ln2lo = m->dbl ? 2.3190468138462996e-17 : -1.9046542121259336e-09;
    LLVMValueRef c = clamp(m, x, lo, hi);
    LLVMValueRef n = rint_(m, mul(m, c, K(m, 1.4426950408889634)));
    LLVMValueRef r = fma3(m, neg(m, n), K(m, ln2hi), c);
    r = fma3(m, neg(m, n), K(m, ln2lo), r);
    return exp_limits(m, x, exp_core(m, r, n), lo, hi);
}

static LLVMValueRef exp2_(M *m, LLVMValueRef x)
{
    double lo = m->dbl ? -1075.0 : -150.0, hi = m->dbl ? 1024.0 : 128.0;
    LLVMValueRef c = clamp(m, x, lo, hi);
    LLVMValueRef n = rint_(m, c);
    LLVMValueRef r = mul(m, sub(m, c, n), K(m, 0.6931471805599453));
    LLVMValueRef y = exp_core(m, r, n);
    y = sel(m, eq(m, x, K(m, hi)), K(m, INFINITY), y);
    return exp_limits(m, x, y, lo, hi);
}

/* e^u - 1 for |u| <= 1 (Taylor, degree 18 in f64, 9 in f32). */
static LLVMValueRef expm1_small(M *m, LLVMValueRef u)
{
    double c[19];
    int deg = m->dbl ? 18 : 9;
    double f = 1;
    for (int k = 1; k <= deg; k++) {
        f *= k;
        c[deg - k] = 1 / f;
    }
    return mul(m, u, poly(m, u, c, deg));
}

static LLVMValueRef log_(M *m, LLVMValueRef x)
{
    bool d = m->dbl;
    int mant = d ? 52 : 23;
    double tiny = d ? 2.2250738585072014e-308 : 1.17549435e-38, scale = d ? 18014398509481984.0 : 16777216.0;
    LLVMValueRef sub_ = lt(m, x, K(m, tiny));
    LLVMValueRef v = sel(m, sub_, mul(m, x, K(m, scale)), x);   /* subnormals: scale by 2^54 / 2^24 */
    LLVMValueRef u = LLVMBuildBitCast(m->b, v, m->it, "");
    LLVMValueRef e = LLVMBuildLShr(m->b, u, LLVMConstInt(m->it, (unsigned long long)mant, 0), "");
    e = LLVMBuildAnd(m->b, e, LLVMConstInt(m->it, d ? 0x7ff : 0xff, 0), "");
    e = LLVMBuildSub(m->b, e, LLVMConstInt(m->it, d ? 1023 : 127, 0), "");
    LLVMValueRef fm = LLVMBuildAnd(m->b, u, LLVMConstInt(m->it, d ? 0xfffffffffffffull : 0x7fffffu, 0), "");
    fm = LLVMBuildOr(m->b, fm, LLVMConstInt(m->it, d ? 0x3ff0000000000000ull : 0x3f800000u, 0), "");
    LLVMValueRef mm = LLVMBuildBitCast(m->b, fm, m->t, "");            /* [1, 2) */
    LLVMValueRef big = gt(m, mm, K(m, 1.4142135623730951));
    mm = sel(m, big, mul(m, mm, K(m, 0.5)), mm);
    LLVMValueRef ef = LLVMBuildSIToFP(m->b, e, m->t, "");
    ef = add(m, ef, sel(m, big, K(m, 1), K(m, 0)));
    ef = sub(m, ef, sel(m, sub_, K(m, d ? 54 : 24), K(m, 0)));
    LLVMValueRef s = dvd(m, sub(m, mm, K(m, 1)), add(m, mm, K(m, 1))), s2 = mul(m, s, s);
    double c[12];
    int n = d ? 12 : 6;
    for (int k = 0; k < n; k++)
        c[n - 1 - k] = 1.0 / (2 * k + 1);
    LLVMValueRef p = poly(m, s2, c, n);
    LLVMValueRef y = fma3(m, ef, K(m, 0.6931471805599453), mul(m, mul(m, K(m, 2), s), p));
    if (d)
        y = fma3(m, ef, K(m, 2.3190468138462996e-17), y);
    y = sel(m, eq(m, x, K(m, 0)), K(m, -INFINITY), y);
    y = sel(m, lt(m, x, K(m, 0)), K(m, NAN), y);
    y = sel(m, eq(m, x, K(m, INFINITY)), K(m, INFINITY), y);
    return sel(m, isnan_(m, x), x, y);
}

/* sin (cos: quadrant + 1) with x reduced by pi/2. */
static LLVMValueRef sincos_(M *m, LLVMValueRef x, bool cos)
{
    bool d = m->dbl;
    double p1 = d ? 1.5707963267948966 : 1.5707963705062866;
    double p2 = d ? 6.123233995736766e-17 : -4.371138828673793e-08;
    double p3 = d ? -1.4973849048591698e-33 : -1.7151245100058819e-15;
    LLVMValueRef q = rint_(m, mul(m, x, K(m, 0.6366197723675814)));
    LLVMValueRef r = fma3(m, neg(m, q), K(m, p1), x);
    r = fma3(m, neg(m, q), K(m, p2), r);
    r = fma3(m, neg(m, q), K(m, p3), r);
    LLVMValueRef z = mul(m, r, r);
    LLVMValueRef ps, pc;
    if (d) {
        /* sin r = r + r z (s0 + z (s1 + ...)), cos r = 1 - z/2 + z^2 (c0 + z (...)) */
        double cs[8], cc[8], f = 1, fact[20];
        for (int k = 0; k < 20; k++) {
            f *= k ? k : 1;
            fact[k] = f;
        }
        for (int i = 0; i < 8; i++)      /* r^3 .. r^17 */
            cs[7 - i] = (i % 2 ? 1 : -1) / fact[2 * i + 3];
        for (int i = 0; i < 8; i++)      /* r^4 .. r^18 */
            cc[7 - i] = (i % 2 ? -1 : 1) / fact[2 * i + 4];
        ps = fma3(m, mul(m, r, z), poly(m, z, cs, 8), r);
        pc = fma3(m, mul(m, z, z), poly(m, z, cc, 8), fma3(m, z, K(m, -0.5), K(m, 1)));
    } else {
        static const double cs[] = { -1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1 };
        static const double cc[] = { 2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2 };
        ps = fma3(m, mul(m, r, z), poly(m, z, cs, 3), r);
        pc = fma3(m, mul(m, z, z), poly(m, z, cc, 3), fma3(m, z, K(m, -0.5), K(m, 1)));
    }
    LLVMValueRef qi = LLVMBuildFPToSI(m->b, q, m->l->t_i64, "");
    if (cos)
        qi = LLVMBuildAdd(m->b, qi, LLVMConstInt(m->l->t_i64, 1, 0), "");
    LLVMValueRef odd = LLVMBuildTrunc(m->b, qi, m->l->t_i1, "");
    LLVMValueRef negq = LLVMBuildTrunc(m->b, LLVMBuildLShr(m->b, qi, LLVMConstInt(m->l->t_i64, 1, 0), ""),
                                       m->l->t_i1, "");
    LLVMValueRef y = sel(m, odd, pc, ps);
    return sel(m, negq, neg(m, y), y);
}

static LLVMValueRef tanh_(M *m, LLVMValueRef x)
{
    LLVMValueRef a = fabs_(m, x), small;
    if (m->dbl) {
        LLVMValueRef e = expm1_small(m, mul(m, K(m, 2), x));     /* |2x| < 1 where used */
        small = dvd(m, e, add(m, e, K(m, 2)));
    } else {
        static const double c[] = { 62.0 / 2835.0, -17.0 / 315.0, 2.0 / 15.0, -1.0 / 3.0 };
        LLVMValueRef x2 = mul(m, x, x);
        small = fma3(m, mul(m, x, x2), poly(m, x2, c, 4), x);
    }
    double cut = m->dbl ? 0.5 : 0.25, top = m->dbl ? 40.0 : 20.0;
    LLVMValueRef e = exp_inner(m, mul(m, K(m, 2), sel(m, gt(m, a, K(m, top)), K(m, top), a)));
    LLVMValueRef big = sub(m, K(m, 1), mul(m, K(m, 2), rcp_(m, add(m, e, K(m, 1)))));
    big = copysign_(m, big, x);
    LLVMValueRef y = sel(m, lt(m, a, K(m, cut)), small, big);
    return sel(m, isnan_(m, x), x, y);
}

static LLVMValueRef erf32(M *m, LLVMValueRef x)
{
    static const double cs[] = { -1.0 / 1320.0, 1.0 / 216.0, -1.0 / 42.0, 1.0 / 10.0, -1.0 / 3.0, 1.0 };
    static const double cq[] = { 0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807,
                                 -0.18628806, 0.09678418, 0.37409196, 1.00002368, -1.26551223 };
    LLVMValueRef a = fabs_(m, x), x2 = mul(m, x, x);
    LLVMValueRef small = mul(m, mul(m, K(m, 1.1283791670955126), x), poly(m, x2, cs, 6));
    LLVMValueRef t = rcp_(m, fma3(m, K(m, 0.5), a, K(m, 1)));
    LLVMValueRef q = poly(m, t, cq, 10);
    LLVMValueRef erfc = mul(m, t, exp_inner(m, sub(m, q, mul(m, a, a))));
    LLVMValueRef big = copysign_(m, sub(m, K(m, 1), erfc), x);
    LLVMValueRef y = sel(m, lt(m, a, K(m, 0.5)), small, big);
    return sel(m, isnan_(m, x), x, y);
}

/* f64: Taylor series below 2.5 (40 terms), the continued fraction of erfc
 * (40 steps) from 2.5 to 6, 1 above. */
static LLVMValueRef erf64(M *m, LLVMValueRef x)
{
    enum { NT = 40, NC = 40 };
    double c[NT], f = 1;
    for (int n = 0; n < NT; n++) {
        f *= n ? n : 1;
        c[NT - 1 - n] = (n % 2 ? -1 : 1) / (f * (2 * n + 1));
    }
    LLVMValueRef a = fabs_(m, x), x2 = mul(m, x, x);
    LLVMValueRef small = mul(m, mul(m, K(m, 1.1283791670955126), x), poly(m, x2, c, NT));
    LLVMValueRef ac = clamp(m, a, 2.5, 6.0), t = ac;
    for (int k = NC; k > 0; k--)
        t = add(m, ac, dvd(m, K(m, k * 0.5), t));
    LLVMValueRef erfc = dvd(m, mul(m, exp_(m, neg(m, mul(m, ac, ac))), K(m, 0.5641895835477563)), t);
    LLVMValueRef big = sub(m, K(m, 1), erfc);
    big = sel(m, gt(m, a, K(m, 6)), K(m, 1), big);
    big = copysign_(m, big, x);
    LLVMValueRef y = sel(m, lt(m, a, K(m, 2.5)), small, big);
    return sel(m, isnan_(m, x), x, y);
}

/* pow in f64 (the f32 version converts around it). */
static LLVMValueRef pow64(M *m, LLVMValueRef x, LLVMValueRef y)
{
    LLVMBuilderRef B = m->b;
    LLVMValueRef ax = fabs_(m, x);
    LLVMValueRef l2 = mul(m, log_(m, ax), K(m, 1.4426950408889634));
    LLVMValueRef r = exp2_(m, mul(m, y, l2));
    LLVMValueRef yint = eq(m, trunc_(m, y), y);
    LLVMValueRef h = mul(m, y, K(m, 0.5));
    LLVMValueRef odd = LLVMBuildAnd(B, yint, LLVMBuildFCmp(B, LLVMRealONE, trunc_(m, h), h, ""), "");
    LLVMValueRef sign = LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildBitCast(B, x, m->it, ""),
                                      LLVMConstInt(m->it, 0, 0), "");
    r = sel(m, LLVMBuildAnd(B, sign, odd, ""), neg(m, r), r);
    LLVMValueRef bad = LLVMBuildAnd(B, lt(m, x, K(m, 0)), LLVMBuildNot(B, yint, ""), "");
    r = sel(m, bad, K(m, NAN), r);
    r = sel(m, LLVMBuildOr(B, isnan_(m, x), isnan_(m, y), ""), K(m, NAN), r);
    r = sel(m, eq(m, x, K(m, 1)), K(m, 1), r);
    return sel(m, eq(m, y, K(m, 0)), K(m, 1), r);
}

LLVMValueRef nvptx_fmod(Ll *l, PirTy ty, LLVMValueRef a, LLVMValueRef b)
{
    M md = m_of(l, true), *m = &md;
    LLVMValueRef x = ty == PT_F32 ? LLVMBuildFPExt(m->b, a, m->t, "") : a;
    LLVMValueRef y = ty == PT_F32 ? LLVMBuildFPExt(m->b, b, m->t, "") : b;
    LLVMValueRef ax = fabs_(m, x), ay = fabs_(m, y);
    LLVMValueRef q = trunc_(m, dvd(m, ax, ay));
    LLVMValueRef r = fma3(m, neg(m, q), ay, ax);            /* exact for the right q */
    r = sel(m, lt(m, r, K(m, 0)), add(m, r, ay), r);
    r = sel(m, LLVMBuildFCmp(m->b, LLVMRealOGE, r, ay, ""), sub(m, r, ay), r);
    r = sel(m, LLVMBuildFCmp(m->b, LLVMRealOEQ, ay, K(m, INFINITY), ""), ax, r);
    r = copysign_(m, r, x);
    LLVMValueRef nan = LLVMBuildOr(m->b, eq(m, ay, K(m, 0)), eq(m, ax, K(m, INFINITY)), "");
    r = sel(m, LLVMBuildOr(m->b, nan, LLVMBuildFCmp(m->b, LLVMRealUNO, x, y, ""), ""), K(m, NAN), r);
    return ty == PT_F32 ? LLVMBuildFPTrunc(m->b, r, l->t_f32, "") : r;
}

LLVMValueRef nvptx_math(Ll *l, PirMath fn, PirTy ty, LLVMValueRef *x)
{
    M md = m_of(l, ty == PT_F64), *m = &md;
    switch (fn) {
    case PM_EXP:  return exp_(m, x[0]);
    case PM_EXP2: return exp2_(m, x[0]);
    case PM_LOG:  return log_(m, x[0]);
    case PM_LOG2: return mul(m, log_(m, x[0]), K(m, 1.4426950408889634));
    case PM_SIN:  return sincos_(m, x[0], false);
    case PM_COS:  return sincos_(m, x[0], true);
    case PM_TANH: return tanh_(m, x[0]);
    case PM_ERF:  return m->dbl ? erf64(m, x[0]) : erf32(m, x[0]);
    case PM_SIGMOID:
        return dvd(m, K(m, 1), add(m, K(m, 1), exp_(m, neg(m, x[0]))));
    case PM_POW: {
        if (m->dbl)
            return pow64(m, x[0], x[1]);
        M d = m_of(l, true);
        LLVMValueRef a = LLVMBuildFPExt(l->b, x[0], l->t_f64, ""), b = LLVMBuildFPExt(l->b, x[1], l->t_f64, "");
        return LLVMBuildFPTrunc(l->b, pow64(&d, a, b), l->t_f32, "");
    }
    default:
        break;
    }
    return LLVMGetUndef(m->t);
}
