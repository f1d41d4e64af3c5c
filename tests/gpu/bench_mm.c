/*
 * tests/gpu/bench_mm.c — time tkc's bf16 matmul (stdlib matmul_bf16, the
 * header built by tests/gpu/bench_mm.sh; with -DBENCH_F16 matmul_f16 on f16
 * data) on the shapes given as arguments:
 *
 *   bench_mm LABEL M N K [M N K ...]
 *
 * Per shape: random bf16 inputs in [-1, 1], one run checked against a
 * float64 reference at 512 sampled elements (corners included), then the
 * median of 7 rounds.  Prints "tkc LABEL MxNxK ms TFLOP/s maxerr".  With
 * BENCH_DUMP=DIR set, writes a, b and c as raw bf16 (f16) to
 * DIR/MxNxK.{a,b,c} for bench_mm.py's check against torch.
 */
#define _POSIX_C_SOURCE 199309L
#include "bench.h"
#include "bench_util.h"
#include <math.h>

/* -DBENCH_F16: stdlib matmul_f16 (and f16 data) instead of matmul_bf16. */
#ifdef BENCH_F16
#define DT "f16"
#define MATMUL matmul_f16_cuda
typedef tk_f16 Elem;
static Elem to_el(float f) { return tk_f32_to_f16(f); }
static double from_el(Elem h) { return tk_f16_to_f32(h); }
#else
#define DT "bf16"
#define MATMUL matmul_bf16_cuda
typedef tk_bf16 Elem;
static Elem to_el(float f) { return tk_f32_to_bf16(f); }
static double from_el(Elem h) { return tk_bf16_to_f32(h); }
#endif

/* One shape's device buffers and dims, for call(). */
typedef struct {
    tk_CUdeviceptr a, b, c;
    int64_t M, N, K;
} Mm;

static tk_status call(void *ctx)
{
    const Mm *m = ctx;
    return MATMUL((const Elem *)(uintptr_t)m->a, (const Elem *)(uintptr_t)m->b, (Elem *)(uintptr_t)m->c,
                  m->M, m->K, m->N, NULL);
}

static void dump(const char *dir, const char *name, int64_t M, int64_t N, int64_t K, const void *p, size_t bytes)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%lldx%lldx%lld.%s", dir, (long long)M, (long long)N, (long long)K, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes)
        printf("bench_mm: cannot write %s\n", path);
    if (f)
        fclose(f);
}

static int shape(const char *label, int64_t M, int64_t N, int64_t K)
{
    Elem *a = malloc((size_t)(M * K) * 2), *b = malloc((size_t)(K * N) * 2), *c = malloc((size_t)(M * N) * 2);
    if (!a || !b || !c) {
        printf("bench_mm: out of memory\n");
        exit(1);
    }
    for (int64_t i = 0; i < M * K; i++)
        a[i] = to_el((float)((double)(bench_next() >> 11) / 9007199254740992.0 * 2 - 1));
    for (int64_t i = 0; i < K * N; i++)
        b[i] = to_el((float)((double)(bench_next() >> 11) / 9007199254740992.0 * 2 - 1));
    const char *who = "bench_mm";
    Mm d = { bench_upload(a, (size_t)(M * K) * 2, who), bench_upload(b, (size_t)(K * N) * 2, who),
             bench_upload(NULL, (size_t)(M * N) * 2, who), M, N, K };
    if (call(&d) != TK_OK || tk_cu.CtxSynchronize() != 0) {
        printf("bench_mm: %s\n", tk_last_error());
        return 1;
    }
    tk_cu.MemcpyDtoH(c, d.c, (size_t)(M * N) * 2);
    double maxerr = 0;
    int bad = 0;
    for (int s = 0; s < 512; s++) {
        int64_t i = s == 0 ? 0 : s == 1 ? M - 1 : (int64_t)(bench_next() % (uint64_t)M);
        int64_t j = s == 0 ? 0 : s == 1 ? N - 1 : (int64_t)(bench_next() % (uint64_t)N);
        double r = 0;
        for (int64_t k = 0; k < K; k++)
            r += from_el(a[i * K + k]) * from_el(b[k * N + j]);
        double err = fabs(from_el(c[i * N + j]) - r);
        if (err > maxerr)
            maxerr = err;
        bad += err > 1e-2 * fabs(r) + 1e-2;
    }
    const char *dir = getenv("BENCH_DUMP");
    if (dir) {
        dump(dir, "a", M, N, K, a, (size_t)(M * K) * 2);
        dump(dir, "b", M, N, K, b, (size_t)(K * N) * 2);
        dump(dir, "c", M, N, K, c, (size_t)(M * N) * 2);
    }
    double t0 = bench_now();
    call(&d);
    tk_cu.CtxSynchronize();
    double one = bench_now() - t0;
    int reps = one > 0.02 ? 1 : (int)(0.02 / (one + 1e-6)) + 1;
    double t = bench_median(call, &d, reps, "bench_mm");
    if (t < 0)
        return 1;
    printf("tkc   %-8s %lldx%lldx%lld %10.3f ms %8.1f TFLOP/s  maxerr %.3g%s\n", label, (long long)M,
           (long long)N, (long long)K, t * 1e3, 2.0 * M * N * K / t / 1e12, maxerr,
           bad ? "  CHECK FAILED" : "  check ok");
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
    if (!bench_load(&BENCH_MODULE, "bench_mm"))
        return 3;
    int rc = 0;
    for (int i = 2; i + 2 < argc; i += 3)
        rc |= shape(argc > 1 ? argv[1] : "", atoll(argv[i]), atoll(argv[i + 1]), atoll(argv[i + 2]));
    return rc;
}
