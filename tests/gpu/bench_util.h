/*
 * tests/gpu/bench_util.h — what the GPU benchmark drivers (bench.c,
 * bench_mm.c, bench_dtype.c) share: a seeded random generator, loading
 * the module, device buffers, and the time of one call as the median of 7
 * rounds.  Include it after the generated
 * header (it uses the CUDA launcher's tk_cu table), with _POSIX_C_SOURCE
 * defined first for clock_gettime.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* xorshift64: the same inputs in every run (and in every driver). */
static uint64_t bench_rng = 88172645463325252ull;
static inline uint64_t bench_next(void)
{
    bench_rng ^= bench_rng << 13;
    bench_rng ^= bench_rng >> 7;
    bench_rng ^= bench_rng << 17;
    return bench_rng;
}

/* x rounded to tf32 as tkc's dot(..., allow_tf32 = true) does: to nearest,
 * ties to even (inf and NaN kept) */
static inline double bench_tf32(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0xfffu + (u >> 13 & 1u)) & 0xffffe000u;
    memcpy(&x, &u, 4);
    return x;
}

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The module's first kernel loaded (NVRTC/driver errors show here, not
 * in the first timed call); false after printing why. */
static int bench_load(tk_cuda_module *mod, const char *who)
{
    void *fn;
    if (tk_cuda_function(mod, 0, &fn) != TK_OK) {
        printf("%s: %s\n", who, tk_last_error());
        return 0;
    }
    return 1;
}

/* bytes of device memory holding h's bytes (h NULL: uninitialized). */
static tk_CUdeviceptr bench_upload(const void *h, size_t bytes, const char *who)
{
    tk_CUdeviceptr p = 0;
    if (tk_cu.MemAlloc(&p, bytes) != 0 || (h && tk_cu.MemcpyHtoD(p, h, bytes) != 0)) {
        printf("%s: out of device memory\n", who);
        exit(1);
    }
    return p;
}

/* Seconds per call(ctx): the median of 7 rounds of reps calls, each round
 * ended by a synchronize; < 0 after printing that the kernel failed. */
static double bench_median(tk_status (*call)(void *), void *ctx, int reps, const char *who)
{
    double t[7];
    for (int r = 0; r < 7; r++) {
        double t0 = bench_now();
        for (int i = 0; i < reps; i++)
            call(ctx);
        if (tk_cu.CtxSynchronize() != 0) {
            printf("%s: the kernel failed\n", who);
            return -1;
        }
        t[r] = (bench_now() - t0) / reps;
    }
    qsort(t, 7, sizeof *t, bench_cmp);
    return t[3];
}

#endif
