/*
 * tests/gpu/bench_tf32.c — time tf32 matmul variants (tests/gpu/bench_tf32.tk,
 * the header built by tests/gpu/bench_tf32.sh):
 *
 *   bench_tf32 WHAT M N K [M N K ...]
 *
 * WHAT: base (matmul_tf32), tr (transpose_f32 of B alone), KERNEL
 * (matmul_tf32_nt, nt_256, nt_ws128) timed with the transpose of
 * B before it, as a caller of c = a @ b runs them, =KERNEL alone on B
 * transposed beforehand, or @KERNEL (mm_old, tn_plain, tn_ws: c = a @ b kernels)
 * on a and b as they are.  Per shape: random f32 inputs in [-1, 1), one run
 * checked at 512 sampled elements against float64 sums of the operands
 * rounded to tf32 (nearest, ties to even), then the median of 7 rounds.  Prints "tkc
 * WHAT MxNxK ms TFLOP/s maxerr".
 */
#define _POSIX_C_SOURCE 199309L
#include "bench.h"
#include "bench_util.h"
#include <math.h>
#include <string.h>

typedef tk_status (*MmFn)(const float *, const float *, float *, int64_t, int64_t, int64_t, void *);

static const struct { const char *name; MmFn fn; } kernels[] = {
    { "matmul_tf32_nt", matmul_tf32_nt_cuda }, { "nt_256", nt_256_cuda }, { "nt_ws128", nt_ws128_cuda },
    { "mm_old", mm_old_cuda }, { "tn_plain", tn_plain_cuda }, { "tn_ws", tn_ws_cuda },
};

typedef struct {
    int mode;               /* 0 base, 1 transpose + fn, 2 fn alone, 3 transpose alone, 4 fn on b */
    MmFn fn;
    tk_CUdeviceptr a, b, bt, c;
    int64_t M, N, K;
} Mm;

static tk_status call(void *ctx)
{
    const Mm *m = ctx;
    const float *a = (const float *)(uintptr_t)m->a, *b = (const float *)(uintptr_t)m->b;
    float *bt = (float *)(uintptr_t)m->bt, *c = (float *)(uintptr_t)m->c;
    tk_status s = TK_OK;
    if (m->mode == 0)
        return matmul_tf32_cuda(a, b, c, m->M, m->K, m->N, NULL);
    if (m->mode == 4)
        return m->fn(a, b, c, m->M, m->K, m->N, NULL);
    if (m->mode == 1 || m->mode == 3)
        s = transpose_f32_cuda(b, bt, m->K, m->N, NULL);
    if (s == TK_OK && m->mode != 3)
        s = m->fn(a, bt, c, m->M, m->K, m->N, NULL);
    return s;
}

static int shape(const char *what, int64_t M, int64_t N, int64_t K)
{
    Mm d = { .M = M, .N = N, .K = K };
    if (!strcmp(what, "base"))
        d.mode = 0;
    else if (!strcmp(what, "tr"))
        d.mode = 3;
    else {
        d.mode = what[0] == '=' ? 2 : what[0] == '@' ? 4 : 1;
        for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
            if (!strcmp(kernels[i].name, what + (what[0] == '=' || what[0] == '@')))
                d.fn = kernels[i].fn;
        if (!d.fn) {
            printf("bench_tf32: no kernel %s\n", what);
            return 1;
        }
    }
    size_t na = (size_t)(M * K), nb = (size_t)(K * N), nc = (size_t)(M * N);
    float *a = malloc(na * 4), *b = malloc(nb * 4), *c = malloc(nc * 4), *bt = malloc(nb * 4);
    if (!a || !b || !c || !bt) {
        printf("bench_tf32: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < na + nb; i++)
        (i < na ? a : b)[i < na ? i : i - na] = (float)((double)(bench_next() >> 11) / 9007199254740992.0 * 2 - 1);
    const char *who = "bench_tf32";
    d.a = bench_upload(a, na * 4, who);
    d.b = bench_upload(b, nb * 4, who);
    d.bt = bench_upload(NULL, nb * 4, who);
    d.c = bench_upload(NULL, nc * 4, who);
    if (d.mode == 2 && transpose_f32_cuda((const float *)(uintptr_t)d.b, (float *)(uintptr_t)d.bt, K, N, NULL) != TK_OK) {
        printf("bench_tf32: %s\n", tk_last_error());
        return 1;
    }
    if (call(&d) != TK_OK || tk_cu.CtxSynchronize() != 0) {
        printf("bench_tf32: %s\n", tk_last_error());
        return 1;
    }
    double maxerr = 0;
    int bad = 0;
    if (d.mode == 3) {          /* the transpose: every element */
        tk_cu.MemcpyDtoH(bt, d.bt, nb * 4);
        for (int64_t k = 0; k < K; k++)
            for (int64_t j = 0; j < N; j++)
                bad += bt[j * K + k] != b[k * N + j];
    } else {
        tk_cu.MemcpyDtoH(c, d.c, nc * 4);
        for (int s = 0; s < 512; s++) {
            int64_t i = s == 0 ? 0 : s == 1 ? M - 1 : (int64_t)(bench_next() % (uint64_t)M);
            int64_t j = s == 0 ? 0 : s == 1 ? N - 1 : (int64_t)(bench_next() % (uint64_t)N);
            double r = 0;
            for (int64_t k = 0; k < K; k++)
                r += bench_tf32(a[i * K + k]) * bench_tf32(b[k * N + j]);
            double err = fabs(c[i * N + j] - r);
            bad += err > 1e-6 * (double)K + 1e-5 * fabs(r);
            if (err > maxerr)
                maxerr = err;
        }
    }
    double t0 = bench_now();
    call(&d);
    tk_cu.CtxSynchronize();
    double one = bench_now() - t0;
    int reps = one > 0.02 ? 1 : (int)(0.02 / (one + 1e-6)) + 1;
    double t = bench_median(call, &d, reps, who);
    if (t < 0)
        return 1;
    printf("tkc   %-16s %lldx%lldx%lld %10.3f ms %8.1f TFLOP/s  maxerr %.3g%s\n", what, (long long)M, (long long)N,
           (long long)K, t * 1e3, 2.0 * M * N * K / t / 1e12, maxerr, bad ? "  CHECK FAILED" : "  check ok");
    tk_cu.MemFree(d.a);
    tk_cu.MemFree(d.b);
    tk_cu.MemFree(d.bt);
    tk_cu.MemFree(d.c);
    free(a);
    free(b);
    free(c);
    free(bt);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !bench_load(&BENCH_MODULE, "bench_tf32"))
        return 3;
    int rc = 0;
    for (int i = 2; i + 2 < argc; i += 3)
        rc |= shape(argv[1], atoll(argv[i]), atoll(argv[i + 1]), atoll(argv[i + 2]));
    return rc;
}
