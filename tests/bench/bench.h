/* tests/bench/bench.h — timing and reporting helpers shared by the benchmark drivers.
 *
 * Every driver prints one table line
 *     name  tkc=X  rival=Y  ratio=Z  goal=G  [met|MISSED]
 * after checking the kernel's result once against a reference; a wrong result
 * prints a FAIL line instead of a time and the driver exits 1.
 */
#ifndef TKC_BENCH_H
#define TKC_BENCH_H

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

static inline double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double bench_median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, bench_cmp);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* Median seconds of `runs` evaluations of the expression `body` (a kernel
 * call) after `warm` warm-up evaluations. */
#define BENCH_TIME(result, warm, runs, body)                                   \
    do {                                                                       \
        double bt_[64];                                                        \
        int bn_ = (runs) < 64 ? (runs) : 64;                                   \
        for (int bi_ = 0; bi_ < (warm); bi_++) { (void)(body); }               \
        for (int bi_ = 0; bi_ < bn_; bi_++) {                                  \
            double b0_ = bench_now();                                          \
            (void)(body);                                                      \
            bt_[bi_] = bench_now() - b0_;                                      \
        }                                                                      \
        (result) = bench_median(bt_, bn_);                                     \
    } while (0)

/* The larger of two errors; NaN wins, so a NaN result can never pass. */
static inline double bench_worse(double a, double b)
{
    return (a != a || b != b) ? NAN : (a > b ? a : b);
}

static inline void *bench_alloc(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64)) {
        fprintf(stderr, "bench: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* Deterministic uniform values in [lo, hi), written in parallel so that pages
 * are first touched by the threads that later use them. */
static inline void bench_fill(float *p, int64_t n, uint32_t seed, float lo, float hi)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        uint32_t h = (uint32_t)i * 2654435761u ^ seed * 2246822519u;
        h ^= h >> 15; h *= 2246822519u; h ^= h >> 13; h *= 3266489917u; h ^= h >> 16;
        p[i] = lo + (hi - lo) * (float)(h >> 8) * (1.0f / 16777216.0f);
    }
}

static inline int bench_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/* memcpy with each OpenMP thread copying one contiguous slice. */
static inline void bench_parallel_copy(void *dst, const void *src, size_t bytes)
{
    int nt = bench_threads();
#pragma omp parallel for schedule(static)
    for (int t = 0; t < nt; t++) {
        size_t lo = bytes / (size_t)nt * (size_t)t;
        size_t hi = t == nt - 1 ? bytes : bytes / (size_t)nt * (size_t)(t + 1);
        memcpy((char *)dst + lo, (const char *)src + lo, hi - lo);
    }
}

/* One table line: ratio = tkc / rival, met when ratio >= goal. */
static inline void bench_report(const char *name, double tkc, double rival, double goal,
                                const char *goal_text)
{
    if (!(rival > 0)) {            /* no rival on this machine */
        printf("%-38s tkc=%-9.2f rival=-         ratio=-      goal=%-8s\n", name, tkc, goal_text);
    } else {
        double ratio = tkc / rival;
        printf("%-38s tkc=%-9.2f rival=%-9.2f ratio=%-6.2f goal=%-8s %s\n", name, tkc, rival,
               ratio, goal_text, ratio >= goal ? "[met]" : "[MISSED]");
    }
    fflush(stdout);
}

static inline void bench_fail(const char *name, const char *what)
{
    printf("%-38s FAIL: %s (no time reported)\n", name, what);
    fflush(stdout);
}

#endif
