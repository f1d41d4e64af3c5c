/*
 * tests/gpu/bench.c — time one tkc CUDA kernel on 8192 x 4096 data
 * (built by tests/gpu/bench.sh with -DKIND=1 softmax f32, 2 layernorm f16,
 * 3 bias + GELU + residual f32, against the matching header).  Prints
 * "NAME ms GB/s" from the median of 7 rounds of 20 launches.
 */
#define _POSIX_C_SOURCE 199309L
#include "bench.h"
#include <time.h>

#define M 8192
#define N 4096

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static tk_CUdeviceptr dev(size_t bytes, int fill)
{
    tk_CUdeviceptr p = 0;
    unsigned char *h = malloc(bytes);
    if (!h || tk_cu.MemAlloc(&p, bytes) != 0) {
        printf("bench: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < bytes; i++)        /* small finite values in any float format */
        h[i] = fill ? (unsigned char)((i & 1) ? 0x3c : (i * 37) & 0x3f) : 0;
    tk_cu.MemcpyHtoD(p, h, bytes);
    free(h);
    return p;
}

#ifndef LABEL
#define LABEL "tkc"
#endif

int main(void)
{
    void *fn;
    if (tk_cuda_function(&BENCH_MODULE, 0, &fn) != TK_OK) {
        printf("bench: %s\n", tk_last_error());
        return 3;
    }
#if KIND == 1
    const char *name = "softmax f32";
    tk_CUdeviceptr x = dev((size_t)M * N * 4, 1), y = dev((size_t)M * N * 4, 0);
    double bytes = 2.0 * M * N * 4;
#define CALL() softmax_cuda((const float *)(uintptr_t)x, (float *)(uintptr_t)y, M, N, NULL)
#elif KIND == 2
    const char *name = "layernorm f16";
    tk_CUdeviceptr x = dev((size_t)M * N * 2, 1), y = dev((size_t)M * N * 2, 0);
    tk_CUdeviceptr w = dev((size_t)N * 2, 1), b = dev((size_t)N * 2, 1);
    double bytes = 2.0 * M * N * 2 + 2.0 * N * 2;
#define CALL() layernorm_f16_cuda((const tk_f16 *)(uintptr_t)x, (const tk_f16 *)(uintptr_t)w, \
        (const tk_f16 *)(uintptr_t)b, (tk_f16 *)(uintptr_t)y, 1e-5f, M, N, NULL)
#else
    const char *name = "bias+gelu+residual f32";
    tk_CUdeviceptr x = dev((size_t)M * N * 4, 1), y = dev((size_t)M * N * 4, 0);
    tk_CUdeviceptr b = dev((size_t)N * 4, 1), r = dev((size_t)M * N * 4, 1);
    double bytes = 3.0 * M * N * 4 + N * 4.0;
#define CALL() bias_gelu_residual_cuda((const float *)(uintptr_t)x, (const float *)(uintptr_t)b, \
        (const float *)(uintptr_t)r, (float *)(uintptr_t)y, M, N, NULL)
#endif
    double t[7];
    for (int i = 0; i < 3; i++)
        if (CALL() != TK_OK) {
            printf("bench: %s\n", tk_last_error());
            return 1;
        }
    tk_cu.CtxSynchronize();
    for (int r_ = 0; r_ < 7; r_++) {
        double t0 = now();
        for (int i = 0; i < 20; i++)
            CALL();
        if (tk_cu.CtxSynchronize() != 0) {
            printf("bench: the kernel failed\n");
            return 1;
        }
        t[r_] = (now() - t0) / 20;
    }
    qsort(t, 7, sizeof *t, cmp);
    printf("%-5s %-24s %8.3f ms %8.1f GB/s\n", LABEL, name, t[3] * 1e3, bytes / t[3] / 1e9);
    return 0;
}
