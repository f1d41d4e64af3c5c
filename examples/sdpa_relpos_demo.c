/*
 * sdpa_relpos_demo — SAM's image-encoder attention (decomposed relative-position
 * bias) on the GPU, from a header tkc made with --target=c,cuda:
 *
 *   tkc ../stdlib/attention.tk --kernel=sdpa_relpos --target=c,cuda -o build/sdpa_relpos.h
 *   gcc -std=c11 -O3 -fopenmp -Ibuild sdpa_relpos_demo.c -o build/sdpa_relpos_demo -lm -ldl
 *   ./build/sdpa_relpos_demo [GRID [HEADS]]        (default 32: 32 x 32 tokens, 12 heads)
 *
 * The header holds both entry points of one kernel:
 *
 *   sdpa_relpos(...)               the C target, host pointers, OpenMP
 *   sdpa_relpos_cuda(..., stream)  the CUDA target, device pointers; the PTX /
 *                                  cubin is inside the header and libcuda is
 *                                  loaded with dlopen (no CUDA headers needed)
 *
 * As in SAM, q, k and v are views of one qkv projection laid out
 * [B, S, 3, H, D] (strides passed, no copies), and the bias of query (qh, qw)
 * and key (kh, kw) is rel_h[.., q, kh] + rel_w[.., q, kw], tables computed
 * from q and the learned rel_pos_h / rel_pos_w.  The kernel adds the bias
 * inside its flash loop: the S x T bias (and the S x T scores) never exist
 * in memory.  Without a GPU (no driver or no device) the demo says so and
 * runs the C entry point instead.  Either way the result is checked on
 * sampled rows against a double-precision reference.
 */
#define _POSIX_C_SOURCE 199309L
#include "sdpa_relpos.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define D 64                     /* the kernel's head dim (tkc -D D=..) */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static float unif(float lo, float hi)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (hi - lo) * (float)(rng >> 40) * (1.0f / 16777216.0f);
}

int main(int argc, char **argv)
{
    const int64_t G = argc > 1 ? atoll(argv[1]) : 32, H = argc > 2 ? atoll(argv[2]) : 12, B = 1;
    if (G < 1 || H < 1) {
        fprintf(stderr, "usage: sdpa_relpos_demo [GRID >= 1 [HEADS >= 1]]\n");
        return 2;
    }
    const int64_t S = G * G, T = S, KH = G, KW = G;    /* global attention: keys = queries */
    const float scale = 1.0f / sqrtf((float)D);

    /* The qkv projection's output [B, S, 3, H, D]; q, k, v are [B, H, S, D] views. */
    const int64_t nqkv = B * S * 3 * H * D;
    float *qkv = malloc(sizeof(float) * (size_t)nqkv);
    for (int64_t i = 0; i < nqkv; i++)
        qkv[i] = unif(-1, 1);
    const int64_t st[4] = {S * 3 * H * D, D, 3 * H * D, 1};     /* b, h, s, d */
    const float *q = qkv, *k = qkv + H * D, *v = qkv + 2 * H * D;

    /* SAM's get_rel_pos / add_decomposed_rel_pos for equal grids:
     * rel_h[b, h, i, kh] = q_i . rel_pos_h[qh - kh + G - 1], likewise rel_w. */
    float *rph = malloc(sizeof(float) * (size_t)((2 * G - 1) * D));
    float *rpw = malloc(sizeof(float) * (size_t)((2 * G - 1) * D));
    for (int64_t i = 0; i < (2 * G - 1) * D; i++) {
        rph[i] = unif(-0.3f, 0.3f);
        rpw[i] = unif(-0.3f, 0.3f);
    }
    float *rel_h = malloc(sizeof(float) * (size_t)(B * H * S * KH));
    float *rel_w = malloc(sizeof(float) * (size_t)(B * H * S * KW));
    for (int64_t h = 0; h < H; h++)
        for (int64_t i = 0; i < S; i++) {
            const float *qi = q + h * st[1] + i * st[2];
            for (int64_t j = 0; j < G; j++) {
                double ah = 0, aw = 0;
                for (int64_t d = 0; d < D; d++) {
                    ah += qi[d] * rph[(i / G - j + G - 1) * D + d];
                    aw += qi[d] * rpw[(i % G - j + G - 1) * D + d];
                }
                rel_h[(h * S + i) * KH + j] = (float)ah;
                rel_w[(h * S + i) * KW + j] = (float)aw;
            }
        }
    float *o = malloc(sizeof(float) * (size_t)(B * H * S * D));

#define ARGS_AFTER_TENSORS                                                                        \
    scale, B, H, S, T, KH, KW, st[0], st[1], st[2], st[3], st[0], st[1], st[2], st[3], st[0], st[1], \
        st[2], st[3], H * S * KH, S * KH, KH, 1, H * S * KW, S * KW, KW, 1, H * S * D, S * D, D, 1

    printf("sdpa_relpos: B=%lld H=%lld, %lldx%lld query and key grids (S=T=%lld), D=%d\n",
           (long long)B, (long long)H, (long long)G, (long long)G, (long long)S, D);
    double flops = 4.0 * (double)(B * H) * (double)S * (double)T * D, secs = 0;
    void *fn;
    tk_status gpu = tk_cuda_function(&tk_cuda_mod_TKC_ATTENTION_TK, 0, &fn);
    if (gpu == TK_OK) {
        /* Device copies of qkv (the views keep their strides), the tables, o. */
        tk_CUdeviceptr dqkv, drh, drw, dout;
        size_t bq = sizeof(float) * (size_t)nqkv, bh = sizeof(float) * (size_t)(B * H * S * KH),
               bw = sizeof(float) * (size_t)(B * H * S * KW), bo = sizeof(float) * (size_t)(B * H * S * D);
        if (tk_cu.MemAlloc(&dqkv, bq) || tk_cu.MemAlloc(&drh, bh) || tk_cu.MemAlloc(&drw, bw) ||
            tk_cu.MemAlloc(&dout, bo)) {
            fprintf(stderr, "out of GPU memory\n");
            return 1;
        }
        tk_cu.MemcpyHtoD(dqkv, qkv, bq);
        tk_cu.MemcpyHtoD(drh, rel_h, bh);
        tk_cu.MemcpyHtoD(drw, rel_w, bw);
        const float *dq = (const float *)(uintptr_t)dqkv;
#define CALL_GPU()                                                                        \
    sdpa_relpos_cuda(dq, dq + H * D, dq + 2 * H * D, (const float *)(uintptr_t)drh,       \
                     (const float *)(uintptr_t)drw, (float *)(uintptr_t)dout, ARGS_AFTER_TENSORS, NULL)
        tk_status s = CALL_GPU();                 /* first call: loads the module */
        if (s != TK_OK || tk_cu.CtxSynchronize() != 0) {
            fprintf(stderr, "sdpa_relpos_cuda failed: %s\n", s != TK_OK ? tk_last_error() : "the kernel faulted");
            return 1;
        }
        double t0 = now();
        for (int r = 0; r < 10; r++)
            CALL_GPU();
        tk_cu.CtxSynchronize();
        secs = (now() - t0) / 10;
        tk_cu.MemcpyDtoH(o, dout, bo);
        tk_cu.MemFree(dqkv);
        tk_cu.MemFree(drh);
        tk_cu.MemFree(drw);
        tk_cu.MemFree(dout);
        printf("GPU (sdpa_relpos_cuda): %.3f ms, %.1f GFLOP/s\n", secs * 1e3, flops / secs * 1e-9);
    } else {
        printf("no GPU (%s): running the C entry point sdpa_relpos on the CPU instead\n", tk_last_error());
        if (sdpa_relpos(q, k, v, rel_h, rel_w, o, ARGS_AFTER_TENSORS) != TK_OK) {
            fprintf(stderr, "sdpa_relpos failed: %s\n", tk_last_error());
            return 1;
        }
        double t0 = now();
        sdpa_relpos(q, k, v, rel_h, rel_w, o, ARGS_AFTER_TENSORS);
        secs = now() - t0;
        printf("CPU (sdpa_relpos): %.2f ms, %.1f GFLOP/s\n", secs * 1e3, flops / secs * 1e-9);
    }
    printf("the S x T bias it never stored: %.1f MiB per call (f32, all heads)\n",
           (double)(B * H) * (double)S * (double)T * 4 / 1048576.0);

    /* Double reference on 32 sampled (head, query) rows. */
    double err = 0, *x = malloc(sizeof(double) * (size_t)T);
    for (int t = 0; t < 32; t++) {
        int64_t h = t % H, i = t == 0 ? 0 : t == 1 ? S - 1 : (int64_t)((uint64_t)t * 2654435761u % (uint64_t)S);
        const float *qi = q + h * st[1] + i * st[2];
        double m = -INFINITY, l = 0;
        for (int64_t j = 0; j < T; j++) {
            double dot = 0;
            for (int64_t d = 0; d < D; d++)
                dot += (double)qi[d] * k[h * st[1] + j * st[2] + d];
            x[j] = scale * dot + rel_h[(h * S + i) * KH + j / KW] + rel_w[(h * S + i) * KW + j % KW];
            m = x[j] > m ? x[j] : m;
        }
        for (int64_t j = 0; j < T; j++)
            l += exp(x[j] - m);
        for (int64_t d = 0; d < D; d++) {
            double ref = 0;
            for (int64_t j = 0; j < T; j++)
                ref += exp(x[j] - m) / l * v[h * st[1] + j * st[2] + d];
            double e = fabs(ref - o[(h * S + i) * D + d]);
            err = e > err || e != e ? e : err;
        }
    }
    printf("max abs error on 32 sampled rows vs a double reference: %.2e\n", err);
    free(x);
    free(qkv);
    free(rph);
    free(rpw);
    free(rel_h);
    free(rel_w);
    free(o);
    if (!(err < 1e-4)) {
        printf("FAIL: error too large\n");
        return 1;
    }
    return 0;
}
