/*
 * tests/gpu/bench_dtype.c — time tkc's tf32 and i8 matmuls (stdlib
 * matmul_tf32, matmul_i8; the header built by tests/gpu/bench_dtype.sh):
 *
 *   bench_dtype tf32|i8 M N K [M N K ...]
 *
 * Per shape: random inputs (f32 in [-1, 1), or i8 over -128 .. 127), one
 * run checked at 512 sampled elements (corners included) against float64
 * sums of the operands rounded to tf32 (nearest, ties to even), or exact integer sums,
 * then the median of 7 rounds.  Prints "tkc DTYPE MxNxK ms TFLOP/s (TOP/s
 * for i8) maxerr".
 */
#define _POSIX_C_SOURCE 199309L
#include "bench.h"
#include "bench_util.h"
#include <math.h>
#include <string.h>

typedef struct {
    bool i8;
    tk_CUdeviceptr a, b, c;
    int64_t M, N, K;
} Mm;

static tk_status call(void *ctx)
{
    const Mm *m = ctx;
    if (m->i8)
        return matmul_i8_cuda((const int8_t *)(uintptr_t)m->a, (const int8_t *)(uintptr_t)m->b,
                              (int32_t *)(uintptr_t)m->c, m->M, m->K, m->N, NULL);
    return matmul_tf32_cuda((const float *)(uintptr_t)m->a, (const float *)(uintptr_t)m->b,
                            (float *)(uintptr_t)m->c, m->M, m->K, m->N, NULL);
}

static int shape(bool i8, int64_t M, int64_t N, int64_t K)
{
    size_t es = i8 ? 1 : 4, na = (size_t)(M * K), nb = (size_t)(K * N), nc = (size_t)(M * N);
    void *a = malloc(na * es), *b = malloc(nb * es), *c = malloc(nc * 4);
    if (!a || !b || !c) {
        printf("bench_dtype: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < na + nb; i++) {
        uint64_t r = bench_next();
        if (i8)
            (i < na ? (int8_t *)a : (int8_t *)b)[i < na ? i : i - na] = (int8_t)(r >> 56);
        else
            (i < na ? (float *)a : (float *)b)[i < na ? i : i - na] =
                (float)((double)(r >> 11) / 9007199254740992.0 * 2 - 1);
    }
    const char *who = "bench_dtype";
    Mm d = { i8, bench_upload(a, na * es, who), bench_upload(b, nb * es, who), bench_upload(NULL, nc * 4, who),
             M, N, K };
    if (call(&d) != TK_OK || tk_cu.CtxSynchronize() != 0) {
        printf("bench_dtype: %s\n", tk_last_error());
        return 1;
    }
    tk_cu.MemcpyDtoH(c, d.c, nc * 4);
    double maxerr = 0;
    int bad = 0;
    for (int s = 0; s < 512; s++) {
        int64_t i = s == 0 ? 0 : s == 1 ? M - 1 : (int64_t)(bench_next() % (uint64_t)M);
        int64_t j = s == 0 ? 0 : s == 1 ? N - 1 : (int64_t)(bench_next() % (uint64_t)N);
        double r = 0, got, err;
        if (i8) {
            for (int64_t k = 0; k < K; k++)
                r += (double)((int8_t *)a)[i * K + k] * ((int8_t *)b)[k * N + j];
            got = ((int32_t *)c)[i * N + j];
            err = fabs(got - r);
            bad += err != 0;
        } else {
            for (int64_t k = 0; k < K; k++)
                r += bench_tf32(((float *)a)[i * K + k]) * bench_tf32(((float *)b)[k * N + j]);
            got = ((float *)c)[i * N + j];
            err = fabs(got - r);
            bad += err > 1e-6 * (double)K + 1e-5 * fabs(r);
        }
        if (err > maxerr)
            maxerr = err;
    }
    double t0 = bench_now();
    call(&d);
    tk_cu.CtxSynchronize();
    double one = bench_now() - t0;
    int reps = one > 0.02 ? 1 : (int)(0.02 / (one + 1e-6)) + 1;
    double t = bench_median(call, &d, reps, who);
    if (t < 0)
        return 1;
    printf("tkc   %-5s %lldx%lldx%lld %10.3f ms %8.1f %s  maxerr %.3g%s\n", i8 ? "i8" : "tf32", (long long)M,
           (long long)N, (long long)K, t * 1e3, 2.0 * M * N * K / t / 1e12, i8 ? "TOP/s  " : "TFLOP/s",
           maxerr, bad ? "  CHECK FAILED" : "  check ok");
    tk_cu.MemFree(d.a);
    tk_cu.MemFree(d.b);
    tk_cu.MemFree(d.c);
    free(a);
    free(b);
    free(c);
    return bad != 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !bench_load(&BENCH_MODULE, "bench_dtype"))
        return 3;
    bool i8 = !strcmp(argv[1], "i8");
    int rc = 0;
    for (int i = 2; i + 2 < argc; i += 3)
        rc |= shape(i8, atoll(argv[i]), atoll(argv[i + 1]), atoll(argv[i + 2]));
    return rc;
}
