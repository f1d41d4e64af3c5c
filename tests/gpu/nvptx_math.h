/*
 * tests/gpu/nvptx_math.h — what the two checks of targets/nvptx/math.c
 * share: the functions in tk_math's row order (tests/gpu/nvptx_math.tk, and
 * tests/unit/nvptx_pir.c's hand-built kernel), their libm references, the
 * arguments and the verdict.
 * tests/gpu/nvptx_math.c runs them on a GPU; tests/unit/nvptx_math.c runs
 * the same IR on the host through LLVM's JIT.
 *
 * f32 results must be within 2e-6 + 1e-5 |ref| (the run tests' tolerance),
 * f64 within 1e-300 + 1e-13 |ref|; NaN and infinities exactly where libm.
 */
#ifndef TKC_NVPTX_MATH_H
#define TKC_NVPTX_MATH_H
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

static const char *const nm_names[] = { "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "tanh",
                                        "erf", "sigmoid", "fabs", "floor", "ceil", "pow", "fma", "fmod" };
#define NM_NFN ((int)(sizeof nm_names / sizeof *nm_names))

/* Function f of argument v (p = |v| + 0.25, the positive argument). */
static double nm_ref(int f, double v, double p)
{
    switch (f) {
    case 0: return exp(v);
    case 1: return exp2(v);
    case 2: return log(p);
    case 3: return log2(p);
    case 4: return sqrt(p);
    case 5: return 1 / sqrt(p);
    case 6: return sin(v);
    case 7: return cos(v);
    case 8: return tanh(v);
    case 9: return erf(v);
    case 10: return 1 / (1 + exp(-v));
    case 11: return fabs(v);
    case 12: return floor(v);
    case 13: return ceil(v);
    case 14: return pow(p, v);
    case 15: return fma(v, p, 1.5);
    default: return fmod(v, 1.5);
    }
}

/* Argument i of n: special values first, then a sweep over [-20, 20]. */
static const double nm_special[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-30, -1e-30, 1e-40, 1e-310,
                                     88.7, -87.3, 89.0, -104.0, 709.0, -745.0, 1e4, -1e4, 123456.7, 0.5,
                                     -0.5, 0.25, 2.5, -2.5, 6.0, 1.0, -1.0, 3.0, -3.0, 1.5, 4.5, -4.5 };
#define NM_NSPECIAL ((int)(sizeof nm_special / sizeof *nm_special))
static double nm_arg(int64_t i, int64_t n)
{
    int64_t sweep = n - NM_NSPECIAL;
    return i < NM_NSPECIAL ? nm_special[i] : -20.0 + 40.0 * (double)(i - NM_NSPECIAL) / (double)sweep
                                                 + 1e-4 * (double)(i % 7);
}

/* Check function f on n arguments: y (f32 results of x) and yd (f64 of xd).
 * Prints a line; returns whether both passed. */
static bool nm_check(int f, int64_t n, const float *x, const float *y, const double *xd, const double *yd)
{
    double worst[2] = { 0, 0 };
    int64_t wi[2] = { 0, 0 }, nbad[2] = { 0, 0 };
    for (int d = 0; d < 2; d++)
        for (int64_t i = 0; i < n; i++) {
            double v = d ? xd[i] : x[i];
            double p = d ? fabs(v) + 0.25 : (double)(fabsf(x[i]) + 0.25f);
            double r = nm_ref(f, v, p), g = d ? yd[i] : y[i];
            if (!d && fabs(r) > 3.4028234663852886e38 && !isinf(r))
                r = r > 0 ? INFINITY : -INFINITY;      /* f32 overflow */
            bool ok;
            double err = 0;
            if (isnan(r) || isinf(r))
                ok = isnan(r) ? isnan(g) : g == r;
            else if (d)
                ok = fabs(g - r) <= 1e-300 + 1e-13 * fabs(r), err = fabs(g - r) / fmax(fabs(r), 1e-300);
            else
                ok = fabs(g - r) <= 2e-6 + 1e-5 * fabs(r), err = fabs(g - r) / fmax(fabs(r), 1e-30);
            if (!ok) {
                if (nbad[d]++ < 3)
                    printf("  %s %s(%.17g): got %.17g, want %.17g\n", d ? "f64" : "f32", nm_names[f], v, g, r);
            } else if (err > worst[d] && fabs(r) > (d ? 1e-290 : 1e-30)) {
                worst[d] = err, wi[d] = i;
            }
        }
    printf("%-8s f32: %s worst rel %.2e at %.9g   f64: %s worst rel %.2e at %.17g\n", nm_names[f],
           nbad[0] ? "FAIL" : "ok", worst[0], (double)x[wi[0]], nbad[1] ? "FAIL" : "ok", worst[1], xd[wi[1]]);
    return nbad[0] + nbad[1] == 0;
}
#endif
