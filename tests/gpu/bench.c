/*
 * tests/gpu/bench.c — time one tkc CUDA kernel on 8192 x 4096 data
 * (built by tests/gpu/bench.sh with -DKIND=1 softmax f32, 2 layernorm f16,
 * 3 bias + GELU + residual f32, against the matching header).  Prints
 * "NAME ms GB/s" from the median of 7 rounds of 20 launches.
 */
#define _POSIX_C_SOURCE 199309L
#include "bench.h"
#include "bench_util.h"

#define M 8192
#define N 4096

static tk_CUdeviceptr dev(size_t bytes, int fill)
{
    unsigned char *h = malloc(bytes);
    if (!h) {
        printf("bench: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < bytes; i++)        /* small finite values in any float format */
        h[i] = fill ? (unsigned char)((i & 1) ? 0x3c : (i * 37) & 0x3f) : 0;
    tk_CUdeviceptr p = bench_upload(h, bytes, "bench");
    free(h);
    return p;
}

#ifndef LABEL
#define LABEL "tkc"
#endif

/* Per KIND: the buffers (SETUP), the bytes one call moves, the call. */
static struct { tk_CUdeviceptr x, y, w, b, r; } d;
#define P(T, p) ((T *)(uintptr_t)(p))
#if KIND == 1
#define NAME "softmax f32"
#define SETUP() (d.x = dev((size_t)M * N * 4, 1), d.y = dev((size_t)M * N * 4, 0))
#define BYTES (2.0 * M * N * 4)
#define CALL() softmax_cuda(P(const float, d.x), P(float, d.y), M, N, NULL)
#elif KIND == 2
#define NAME "layernorm f16"
#define SETUP() (d.x = dev((size_t)M * N * 2, 1), d.y = dev((size_t)M * N * 2, 0), \
                 d.w = dev((size_t)N * 2, 1), d.b = dev((size_t)N * 2, 1))
#define BYTES (2.0 * M * N * 2 + 2.0 * N * 2)
#define CALL() layernorm_f16_cuda(P(const tk_f16, d.x), P(const tk_f16, d.w), P(const tk_f16, d.b), \
                                  P(tk_f16, d.y), 1e-5f, M, N, NULL)
#else
#define NAME "bias+gelu+residual f32"
#define SETUP() (d.x = dev((size_t)M * N * 4, 1), d.y = dev((size_t)M * N * 4, 0), \
                 d.b = dev((size_t)N * 4, 1), d.r = dev((size_t)M * N * 4, 1))
#define BYTES (3.0 * M * N * 4 + N * 4.0)
#define CALL() bias_gelu_residual_cuda(P(const float, d.x), P(const float, d.b), P(const float, d.r), \
                                       P(float, d.y), M, N, NULL)
#endif

static tk_status call(void *ctx)
{
    (void)ctx;
    return CALL();
}

int main(void)
{
    if (!bench_load(&BENCH_MODULE, "bench"))
        return 3;
    SETUP();
    for (int i = 0; i < 3; i++)
        if (call(NULL) != TK_OK) {
            printf("bench: %s\n", tk_last_error());
            return 1;
        }
    tk_cu.CtxSynchronize();
    double t = bench_median(call, NULL, 20, "bench");
    if (t < 0)
        return 1;
    printf("%-5s %-24s %8.3f ms %8.1f GB/s\n", LABEL, NAME, t * 1e3, BYTES / t / 1e9);
    return 0;
}
