/* bench_attn NAME B H S T [causal]: sdpa (stdlib/attention.tk) in f32 next to a
 * straightforward C implementation; prints the table line (GFLOP/s).
 *
 * Built by run.sh with -DTK_HEADER='"NAME.h"' (sdpa, its D given by -DATT_D to
 * this file and by -D D=.. to tkc; -D CAUSAL=true when the last argument is
 * "causal").  The rival is what one would write in C without tiling: one
 * OpenMP task per query row, the row's T scores (dot products vectorized
 * with `omp simd`), their softmax, then the weighted sum of v rows — the S x T scores are never stored either, but
 * every row streams all of k and v.  q, k, v, o are contiguous [B, H, S, D].
 * Both results are checked against a double reference on sampled rows
 * before anything is timed.  FLOPs: 4 B H S T D (2 B H S T D on average under
 * causal masking, counting only the visible pairs). */
#include "bench.h"

#include TK_HEADER   /* the generated header, named by run.sh */

#ifndef ATT_D
#define ATT_D 64
#endif

/* The rival: o[b, h, i] = softmax_j(scale q_i . k_j) v_j, one row at a time. */
static void ref_sdpa(const float *q, const float *k, const float *v, float *o, float scale,
                     int64_t BH, int64_t S, int64_t T, int causal)
{
#pragma omp parallel
    {
        float *x = malloc(sizeof(float) * (size_t)T);
#pragma omp for schedule(static)
        for (int64_t r = 0; r < BH * S; r++) {
            int64_t bh = r / S, i = r % S;
            int64_t nt = causal ? i + (T - S) + 1 : T;
            if (nt > T) nt = T;
            const float *qi = q + r * ATT_D, *kb = k + bh * T * ATT_D, *vb = v + bh * T * ATT_D;
            float *oi = o + r * ATT_D;
            float m = -INFINITY, l = 0;
            for (int64_t j = 0; j < nt; j++) {
                float s = 0;
#pragma omp simd reduction(+ : s)
                for (int d = 0; d < ATT_D; d++)
                    s += qi[d] * kb[j * ATT_D + d];
                x[j] = s * scale;
                m = x[j] > m ? x[j] : m;
            }
            for (int d = 0; d < ATT_D; d++)
                oi[d] = 0;
            for (int64_t j = 0; j < nt; j++) {
                float p = expf(x[j] - m);
                l += p;
                for (int d = 0; d < ATT_D; d++)
                    oi[d] += p * vb[j * ATT_D + d];
            }
            for (int d = 0; d < ATT_D; d++)
                oi[d] = nt > 0 ? oi[d] / l : 0;
        }
        free(x);
    }
}

/* Largest error of o over 64 sampled rows, relative to max |v|. */
static double check(const float *q, const float *k, const float *v, const float *o, float scale,
                    int64_t BH, int64_t S, int64_t T, int causal)
{
    double err = 0, *x = malloc(sizeof(double) * (size_t)T);
    for (int t = 0; t < 64; t++) {
        int64_t r = t == 0 ? 0 : t == 1 ? BH * S - 1 : ((int64_t)t * 2654435761u) % (BH * S);
        int64_t bh = r / S, i = r % S, nt = causal ? i + (T - S) + 1 : T;
        if (nt > T) nt = T;
        double m = -INFINITY, l = 0;
        for (int64_t j = 0; j < nt; j++) {
            double s = 0;
            for (int d = 0; d < ATT_D; d++)
                s += (double)q[r * ATT_D + d] * k[(bh * T + j) * ATT_D + d];
            x[j] = s * scale;
            m = x[j] > m ? x[j] : m;
        }
        for (int64_t j = 0; j < nt; j++)
            l += exp(x[j] - m);
        for (int d = 0; d < ATT_D; d++) {
            double ref = 0;
            for (int64_t j = 0; j < nt; j++)
                ref += exp(x[j] - m) / l * v[(bh * T + j) * ATT_D + d];
            err = bench_worse(err, fabs(ref - o[r * ATT_D + d]));
        }
    }
    free(x);
    return err;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: bench_attn NAME B H S T [causal]\n");
        return 2;
    }
    const char *name = argv[1];
    int64_t B = atoll(argv[2]), H = atoll(argv[3]), S = atoll(argv[4]), T = atoll(argv[5]);
    int causal = argc > 6 && strcmp(argv[6], "causal") == 0;
    const int64_t D = ATT_D;
    float *q = bench_alloc(sizeof(float) * (size_t)(B * H * S * D));
    float *k = bench_alloc(sizeof(float) * (size_t)(B * H * T * D));
    float *v = bench_alloc(sizeof(float) * (size_t)(B * H * T * D));
    float *o = bench_alloc(sizeof(float) * (size_t)(B * H * S * D));
    float *o2 = bench_alloc(sizeof(float) * (size_t)(B * H * S * D));
    bench_fill(q, B * H * S * D, 31, -2, 2);
    bench_fill(k, B * H * T * D, 32, -2, 2);
    bench_fill(v, B * H * T * D, 33, -1, 1);
    bench_fill(o, B * H * S * D, 34, 100, 200);    /* garbage the kernel must overwrite */
    float scale = 1.0f / sqrtf((float)D);

#define CALL()                                                                                \
    sdpa(q, k, v, o, scale, B, H, S, T, H * S * D, S * D, D, 1, H * T * D, T * D, D, 1,      \
         H * T * D, T * D, D, 1, H * S * D, S * D, D, 1)
    int st = CALL();
    if (st != TK_OK) {
        bench_fail(name, tk_last_error());
        return 1;
    }
    double err = check(q, k, v, o, scale, B * H, S, T, causal);
    ref_sdpa(q, k, v, o2, scale, B * H, S, T, causal);
    double err2 = check(q, k, v, o2, scale, B * H, S, T, causal);
    if (!(err < 1e-4) || !(err2 < 1e-4)) {
        char why[96];
        snprintf(why, sizeof why, "max error %.3g (tkc), %.3g (C reference) vs double", err, err2);
        bench_fail(name, why);
        return 1;
    }

    /* Visible (query, key) pairs: S T, or under causal masking the sum over
     * rows of min(T, max(0, i + T - S + 1)). */
    double pairs = 0;
    for (int64_t i = 0; i < S; i++) {
        int64_t nt = causal ? i + (T - S) + 1 : T;
        pairs += (double)(nt < 0 ? 0 : nt > T ? T : nt);
    }
    double flops = 4.0 * (double)(B * H) * pairs * (double)D;
    double t_tkc, t_ref;
    int runs = flops > 2e10 ? 3 : 7;
    BENCH_TIME(t_tkc, 1, runs, CALL());
    BENCH_TIME(t_ref, 1, runs, (ref_sdpa(q, k, v, o2, scale, B * H, S, T, causal), 0));
    char label[64];
    snprintf(label, sizeof label, "%s[GFLOP/s]", name);
    bench_report(label, flops / t_tkc * 1e-9, flops / t_ref * 1e-9, 1.0, ">=1.0");
    printf("%-38s   (tkc %.2f ms, C reference %.2f ms; max abs err %.1e)\n", "", t_tkc * 1e3,
           t_ref * 1e3, err);
    free(q); free(k); free(v); free(o); free(o2);
    return 0;
}
