/* Run test: atomic_add used as a value (tests/run/arrive.tk).  Tickets of
 * every dtype drawn once per program are a permutation; masked and
 * out-of-range draws return 0; split-K matmuls whose last arriving program
 * sums the partial products (f32, and bf16 on tensor cores) match a float64
 * reference, twice in a row (the counters are reset), for odd sizes. */
#include "arrive.h"
#include "tkt.h"

static void tickets_case(int64_t P)
{
    tkt_casef("tickets P=%lld", (long long)P);
    int32_t *t32 = TKT_OUT(int32_t, 1);
    uint32_t *tu = TKT_OUT(uint32_t, 1);
    int64_t *t64 = TKT_OUT(int64_t, 1), *out = TKT_OUT(int64_t, P * 6);
    float *tf = TKT_OUT(float, 1);
    double *td = TKT_OUT(double, 1);
    int64_t s32 = tkt_int(-1000, 1000), su = tkt_int(0, 4000000), s64 = tkt_int(-1000, 1000) << 36;
    int64_t sf = tkt_int(-300, 300), sd = tkt_int(-300, 300);
    t32[0] = (int32_t)s32, tu[0] = (uint32_t)su, t64[0] = s64, tf[0] = (float)sf, td[0] = (double)sd;
    int st = tickets(t32, tu, t64, tf, td, out, P);
    tkt_status("tickets", st, TK_OK, tk_last_error(), (char *)0);
    const int64_t start[5] = { s32, su, s64, sf, sd };
    for (int c = 0; c < 5; c++) {
        char *seen = calloc((size_t)P + 1, 1);
        for (int64_t p = 0; p < P; p++) {
            int64_t k = out[p * 6 + c] - start[c];
            TKT_CHECK(k >= 0 && k < P && !seen[k], "column %d: program %lld drew %lld (start %lld)", c,
                      (long long)p, (long long)out[p * 6 + c], (long long)start[c]);
            if (k >= 0 && k < P)
                seen[k] = 1;
        }
        free(seen);
    }
    for (int64_t p = 0; p < P; p++)
        tkt_eq_i64("masked", out[p * 6 + 5], 0, p);
    tkt_eq_i64("t32", t32[0], s32 + P, 0);
    tkt_eq_i64("tu", tu[0], su + P, 0);
    tkt_eq_i64("t64", t64[0], s64 + P, 0);
    tkt_eq_i64("tf", (int64_t)tf[0], sf + P, 0);
    tkt_eq_i64("td", (int64_t)td[0], sd + P, 0);
    tkt_check_guards();
    tkt_reset();
}

static void split_case(int64_t M, int64_t N, int64_t K, int bf)
{
    tkt_casef("mm_split%s M=%lld N=%lld K=%lld", bf ? "_bf16" : "", (long long)M, (long long)N, (long long)K);
    int64_t BM = bf ? 64 : 32, BN = bf ? 128 : 32, S = bf ? 2 : 3;
    int64_t T = ((M + BM - 1) / BM) * ((N + BN - 1) / BN) + 2;
    float *a = TKT_NEW(float, M * K), *b = TKT_NEW(float, K * N), *c = TKT_OUT(float, M * N);
    float *part = TKT_OUT(float, S * M * N), *got = TKT_OUT(float, M * N);
    tk_bf16 *ah = TKT_NEW(tk_bf16, M * K), *bh = TKT_NEW(tk_bf16, K * N), *ch = TKT_OUT(tk_bf16, M * N);
    int32_t *count = TKT_OUT(int32_t, T);
    double *ref = calloc((size_t)(M * N) + 1, sizeof(double));
    tkt_fill(a, M * K, -1, 1);
    tkt_fill(b, K * N, -1, 1);
    TKT_TO_BF16(a, ah, M * K, bf);
    TKT_TO_BF16(b, bh, K * N, bf);
    tkt_matmul_ref(ref, a, b, NULL, M, N, K);
    for (int64_t j = 0; j < T; j++)
        count[j] = 0;
    for (int round = 0; round < 2; round++) {
        int st = bf ? mm_split_bf16(ah, bh, ch, part, count, M, K, N, T) : mm_split(a, b, c, part, count, M, K, N, T);
        tkt_status("mm_split", st, TK_OK, tk_last_error(), (char *)0);
        for (int64_t i = 0; i < M * N; i++)
            got[i] = bf ? tk_bf16_to_f32(ch[i]) : c[i];
        if (bf)
            tkt_close("c", got, ref, M * N, 1e-3 * (1 + K / 64), 8e-3);
        else
            tkt_close("c", got, ref, M * N, 2e-5 * (1 + K / 16), 1e-5);
        for (int64_t j = 0; j < T; j++)
            tkt_eq_i64("count", count[j], 0, j);
    }
    /* too few counters: an error, nothing written */
    tkt_snapshot();
    int st = bf ? mm_split_bf16(ah, bh, ch, part, count, M, K, N, T - 3) : mm_split(a, b, c, part, count, M, K, N, T - 3);
    tkt_status("mm_split T short", st, TK_ERR_REQUIRE, tk_last_error(), "require", (char *)0);
    tkt_unchanged();
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

int main(void)
{
    static const int64_t ps[] = {1, 2, 5, 300};
    for (size_t i = 0; i < sizeof ps / sizeof *ps; i++)
        tickets_case(ps[i]);
    static const int64_t mm[][3] = {{1, 1, 1}, {33, 17, 100}, {64, 64, 257}, {70, 45, 1000}, {5, 129, 64},
                                    {40, 3, 0}, {100, 260, 300}};
    for (int bf = 0; bf < 2; bf++)
        for (size_t i = 0; i < sizeof mm / sizeof *mm; i++)
            split_case(mm[i][0], mm[i][1], mm[i][2], bf);
    return tkt_done("arrive");
}
