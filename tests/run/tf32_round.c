/* Run test: the rounding of f32 operands to tf32 in stdlib matmul_tf32_nt
 * (tests/run/tf32_round.tk), operand by operand.  c = x @ trans(I) is x
 * and c = I @ trans(x) is trans(x), each element one product by 1 (the
 * other products exact zeros), so c holds x as the kernel rounded it.  x
 * cycles through ties (low 13 bits 0x1000) whose tf32 last bit is even
 * (nearest even rounds them down, ties away up) and odd (both up), values
 * just above and below a tie (both round up / down; truncation down), of
 * both signs and several exponents, and random values.  Every element must
 * be x rounded to nearest, ties to even (LANGUAGE.md "dot precision"); where
 * not, the failure says which rounding every element did match: "ties away
 * (cvt.rna)", "truncated", or neither.  On the GPU the kernel's operands
 * are rounded by the TMA unit as it copies them (TFLOAT32 maps,
 * TKC_WGDT_TMAROUND) or by the kernel (TKC_WGDT_TMAROUND=0); the CPU
 * emulator rounds TFLOAT32 maps to nearest even, or ties away with
 * TK_EMU_TF32=rna (then this test must fail). */
#include "tf32_round.h"
#include "tkt.h"

static uint32_t bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static float of(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* x's bits rounded: 0 ties away, 1 to nearest even, 2 truncated */
static uint32_t rnd(uint32_t u, int how)
{
    if ((u & 0x7f800000u) == 0x7f800000u)
        return u;
    uint32_t add = how == 0 ? 0x1000u : how == 1 ? 0xfffu + (u >> 13 & 1) : 0;
    return (u + add) & 0xffffe000u;
}

static const char *const names[3] = { "ties away (cvt.rna)", "nearest even", "truncated" };

/* c (n elements) against x as rounded (c[i] = x[at(i)]): which roundings
 * every element matches */
static void verdict(const char *what, const float *c, const float *x, int64_t n, int64_t S, int tr)
{
    int64_t miss[3] = { 0, 0, 0 }, ties = 0;
    for (int64_t i = 0; i < n; i++) {
        uint32_t u = bits(x[tr ? i % S * S + i / S : i]), g = bits(c[i]);
        ties += (u & 0x1fffu) == 0x1000u;
        for (int h = 0; h < 3; h++)
            miss[h] += g != rnd(u, h) && !(g == 0 && rnd(u, h) == 0x80000000u) && !(g == 0x80000000u && rnd(u, h) == 0);
    }
    if (miss[1] == 0) {
        printf("tf32_round: %s rounded to nearest even, every one of %lld elements (%lld ties)\n", what,
               (long long)n, (long long)ties);
        return;
    }
    for (int h = 0; h < 3; h += 2)
        if (miss[h] == 0)
            tkt_fail("%s rounded %s, not to nearest even: %lld of %lld elements (%lld ties) differ from it", what,
                     names[h], (long long)miss[1], (long long)n, (long long)ties);
    if (miss[0] && miss[2])
        tkt_fail("%s matches no rounding: %lld / %lld / %lld of %lld elements differ from ties away / nearest even / "
                 "truncated", what, (long long)miss[0], (long long)miss[1], (long long)miss[2], (long long)n);
}

int main(void)
{
    const int64_t S = 256;                  /* M = N = K: TMA's alignment, one 128 x 256 tile wide */
    float *x = TKT_NEW(float, S * S), *id = TKT_NEW(float, S * S);
    float *c = TKT_OUT(float, S * S);
    tkt_fill(x, S * S, -1, 1);
    static const uint32_t mant[] = {
        0x1000u,            /* a tie, even: rna up, rne down */
        0x3000u,            /* a tie, odd: both up */
        0x1001u,            /* above a tie: both up, truncation down */
        0x0fffu,            /* below: all down */
        0x7ff000u,          /* a tie, odd, carrying into the exponent */
        0x7fe000u | 0x1000u, /* a tie, even, at the top of the binade */
        0x5000u,            /* a tie, even */
        0x1fffu,            /* just below the next tf32 value: up, truncation down */
    };
    int nm = (int)(sizeof mant / sizeof mant[0]);
    for (int64_t i = 0; i < S * S; i++) {
        if (i % 3 == 2)
            continue;                      /* random values stay */
        uint32_t e = (uint32_t)(120 + i / 3 % 15) << 23, s = (uint32_t)(i / 7 % 2) << 31;
        x[i] = of(s | e | mant[i / 3 % nm]);
    }
    memset(id, 0, sizeof(float) * (size_t)(S * S));
    for (int64_t i = 0; i < S; i++)
        id[i * S + i] = 1.0f;
    tkt_casef("A: c = x @ trans(I)");
    tkt_status("matmul_tf32_nt", matmul_tf32_nt(x, id, c, S, S, S), TK_OK, tk_last_error(), (char *)0);
    verdict("A", c, x, S * S, S, 0);
    tkt_casef("B: c = I @ trans(x)");
    tkt_status("matmul_tf32_nt", matmul_tf32_nt(id, x, c, S, S, S), TK_OK, tk_last_error(), (char *)0);
    verdict("B", c, x, S * S, S, 1);
    tkt_check_guards();
    return tkt_done("tf32_round");
}
