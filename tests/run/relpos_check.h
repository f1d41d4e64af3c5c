/* tests/run/relpos_check.h — sdpa_relpos_bf16 against a float64 reference
 * on the bf16-rounded inputs; odd sizes (query and key tails).  A test's .c
 * includes its generated header, then this file (with RELPOS_CHECK_NO_MAIN
 * defined: run() without the main() that calls it on every shape). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef D
#define D 64     /* the head dim: a test may define its own */
#endif

static double frand(unsigned *s, double lo, double hi)
{
    *s = *s * 1664525u + 1013904223u;
    return lo + (hi - lo) * (double)(*s >> 8) / (double)(1u << 24);
}

static tk_bf16 *fill(int64_t n, unsigned *s, double lo, double hi)
{
    tk_bf16 *r = malloc(sizeof *r * (size_t)(n + 1));
    for (int64_t i = 0; i < n; i++)
        r[i] = tk_f32_to_bf16((float)frand(s, lo, hi));
    return r;
}

static double f(tk_bf16 x) { return tk_bf16_to_f32(x); }

/* The scale of the next runs: 1 / 8 (D = 64's), or one whose reciprocal is
 * not a bf16 (sdpa_relpos_bf16 adds rel_w on the tensor cores only when
 * 1 / scale is exact in bf16). */
static float scale = 0.125f;

static int run(int64_t B, int64_t H, int64_t QH, int64_t QW, int64_t KH, int64_t KW)
{
    int64_t S = QH * QW, T = KH * KW;
    unsigned s = 12345u + (unsigned)(S * 31 + T);
    tk_bf16 *q = fill(B * H * S * D, &s, -1.5, 1.5), *k = fill(B * H * T * D, &s, -1.5, 1.5);
    tk_bf16 *v = fill(B * H * T * D, &s, -1.5, 1.5);
    tk_bf16 *rh = fill(B * H * S * KH, &s, -2, 2), *rw = fill(B * H * S * KW, &s, -2, 2);
    tk_bf16 *o = calloc((size_t)(B * H * S * D + 1), sizeof *o);
    double *p = malloc(sizeof *p * (size_t)(T + 1));
    int st = sdpa_relpos_bf16(q, k, v, rh, rw, o, scale, B, H, S, T, KH, KW,
                              H * S * D, S * D, D, 1, H * T * D, T * D, D, 1, H * T * D, T * D, D, 1,
                              H * S * KH, S * KH, KH, 1, H * S * KW, S * KW, KW, 1, H * S * D, S * D, D, 1);
    if (st != TK_OK) {
        printf("FAIL sdpa_relpos_bf16: status %d: %s\n", st, tk_last_error());
        return 1;
    }
    double worst = 0;
    for (int64_t bh = 0; bh < B * H; bh++)
        for (int64_t i = 0; i < S; i++) {
            double mx = -INFINITY, l = 0;
            for (int64_t j = 0; j < T; j++) {
                double x = 0;
                for (int d = 0; d < D; d++)
                    x += f(q[(bh * S + i) * D + d]) * f(k[(bh * T + j) * D + d]);
                p[j] = x * scale + f(rh[(bh * S + i) * KH + j / KW]) + f(rw[(bh * S + i) * KW + j % KW]);
                mx = p[j] > mx ? p[j] : mx;
            }
            for (int64_t j = 0; j < T; j++)
                l += p[j] = exp(p[j] - mx);
            for (int d = 0; d < D; d++) {
                double r = 0;
                for (int64_t j = 0; j < T; j++)
                    r += p[j] / l * f(v[(bh * T + j) * D + d]);
                double e = fabs(f(o[(bh * S + i) * D + d]) - r);
                worst = e > worst ? e : worst;
            }
        }
    int ok = worst <= 3e-2;
    printf("%s sdpa_relpos_bf16 B=%lld H=%lld q %lldx%lld k %lldx%lld scale %g: max error %.2e\n", ok ? "PASS" : "FAIL",
           (long long)B, (long long)H, (long long)QH, (long long)QW, (long long)KH, (long long)KW, scale, worst);
    free(q), free(k), free(v), free(rh), free(rw), free(o), free(p);
    return !ok;
}

#ifndef RELPOS_CHECK_NO_MAIN
int main(void)
{
    int bad = 0;
    bad += run(1, 2, 5, 5, 3, 7);
    bad += run(2, 1, 13, 11, 9, 17);
    bad += run(1, 1, 1, 1, 1, 1);
    /* key rows longer than half a block (whole, or pieces with a tail), one
     * key row, one key column, a partial last group of rows, primes, S != T */
    bad += run(1, 1, 7, 9, 3, 33);
    bad += run(1, 2, 5, 13, 2, 65);
    bad += run(1, 1, 4, 4, 4, 64);
    bad += run(1, 1, 3, 3, 1, 100);
    bad += run(1, 1, 2, 5, 70, 1);
    bad += run(2, 1, 3, 5, 31, 2);
    bad += run(1, 1, 1, 1, 17, 5);
    bad += run(1, 1, 67, 1, 5, 13);
    /* each width of the one-key-row walk (KW = 64, 32, 16 and 14: SAM's
     * global and windowed shapes, smaller), query tails */
    bad += run(2, 2, 9, 15, 5, 64);
    bad += run(1, 2, 14, 14, 14, 14);
    bad += run(1, 1, 11, 3, 6, 32);
    bad += run(2, 1, 5, 7, 9, 16);
    /* rel_w on the tensor cores (1 / scale a power of two: 4) and not (1 /
     * 0.1 is no bf16): whole key rows of 64 and of 33 with their tail */
    scale = 0.25f;
    bad += run(1, 2, 9, 15, 5, 64);
    bad += run(1, 1, 7, 9, 3, 33);
    scale = 0.1f;
    bad += run(1, 2, 9, 15, 5, 64);
    bad += run(1, 1, 7, 9, 3, 33);
    return bad != 0;
}
#endif
