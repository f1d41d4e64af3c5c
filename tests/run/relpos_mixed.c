/* Run test: a header with sdpa_bf16 and sdpa_relpos_bf16 (see relpos_mixed.tk). */
#include "relpos_mixed.h"
#define RELPOS_CHECK_NO_MAIN
#include "relpos_check.h"

/* sdpa_bf16 and sdpa_relpos_bf16 with zero tables (KH = T key rows of
 * KW = 1) on the same q, k, v: the same softmax(q k^T * scale) v. */
static int same(int64_t B, int64_t H, int64_t S, int64_t T)
{
    unsigned s = 777u + (unsigned)(S * 7 + T);
    tk_bf16 *q = fill(B * H * S * D, &s, -1.5, 1.5), *k = fill(B * H * T * D, &s, -1.5, 1.5);
    tk_bf16 *v = fill(B * H * T * D, &s, -1.5, 1.5);
    tk_bf16 *rh = calloc((size_t)(B * H * S * T + 1), sizeof *rh), *rw = calloc((size_t)(B * H * S + 1), sizeof *rw);
    tk_bf16 *o1 = calloc((size_t)(B * H * S * D + 1), sizeof *o1), *o2 = calloc((size_t)(B * H * S * D + 1), sizeof *o2);
    int st1 = sdpa_bf16(q, k, v, o1, scale, B, H, S, T, H * S * D, S * D, D, 1, H * T * D, T * D, D, 1,
                        H * T * D, T * D, D, 1, H * S * D, S * D, D, 1);
    int st2 = sdpa_relpos_bf16(q, k, v, rh, rw, o2, scale, B, H, S, T, T, 1,
                               H * S * D, S * D, D, 1, H * T * D, T * D, D, 1, H * T * D, T * D, D, 1,
                               H * S * T, S * T, T, 1, H * S, S, 1, 1, H * S * D, S * D, D, 1);
    double worst = 0;
    for (int64_t i = 0; i < B * H * S * D; i++) {
        double e = fabs(f(o1[i]) - f(o2[i]));
        worst = e > worst ? e : worst;
    }
    int ok = st1 == TK_OK && st2 == TK_OK && worst <= 2e-2;
    printf("%s sdpa_bf16 vs sdpa_relpos_bf16 (zero tables) B=%lld H=%lld S=%lld T=%lld: status %d / %d, "
           "max difference %.2e\n", ok ? "PASS" : "FAIL", (long long)B, (long long)H, (long long)S, (long long)T,
           st1, st2, worst);
    free(q), free(k), free(v), free(rh), free(rw), free(o1), free(o2);
    return !ok;
}

int main(void)
{
    int bad = 0;
    bad += run(2, 2, 9, 15, 5, 64);
    bad += run(1, 1, 7, 9, 3, 33);
    bad += run(2, 1, 5, 7, 9, 16);
    bad += same(2, 3, 97, 61);
    bad += same(1, 1, 1, 1);
    bad += same(1, 2, 130, 257);
    return bad != 0;
}
