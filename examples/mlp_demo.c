/* mlp_demo: two generated headers in one program.
 *
 *   tkc ../stdlib/matmul.tk --kernel=matmul_bias_gelu --target=c -o build/matmul_bias_gelu.h
 *   tkc ../stdlib/nn.tk     --kernel=layernorm        --target=c -o build/layernorm.h
 *
 * One transformer-style block on odd sizes:  h = gelu(x @ w + b);  y = layernorm(h).
 * Sizes are deliberately not multiples of any tile size.  Both results are
 * checked against a double-precision reference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "matmul_bias_gelu.h"  /* matmul_bias_gelu(a, b, bias, c, M, K, N) */
#include "layernorm.h"         /* layernorm(x, weight, bias, y, eps, M, N)  */

enum { M = 301, K = 257, N = 383 };

static float frand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)((*s >> 8) * (2.0 / 16777216.0) - 1.0);    /* [-1, 1) */
}

int main(void)
{
    float *x = malloc(sizeof(float) * M * K), *w = malloc(sizeof(float) * K * N);
    float *b = malloc(sizeof(float) * N), *h = malloc(sizeof(float) * M * N);
    float *g = malloc(sizeof(float) * N), *be = malloc(sizeof(float) * N);
    float *y = malloc(sizeof(float) * M * N);
    double *href = malloc(sizeof(double) * M * N);
    if (!x || !w || !b || !h || !g || !be || !y || !href) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    uint32_t s = 7;
    for (int i = 0; i < M * K; i++) x[i] = frand(&s);
    for (int i = 0; i < K * N; i++) w[i] = frand(&s) * 0.1f;
    for (int i = 0; i < N; i++) {
        b[i] = frand(&s);
        g[i] = 1.0f + 0.5f * frand(&s);
        be[i] = 0.1f * frand(&s);
    }

    if (matmul_bias_gelu(x, w, b, h, M, K, N) != TK_OK ||
        layernorm(h, g, be, y, 1e-5f, M, N) != TK_OK) {
        fprintf(stderr, "kernel failed: %s\n", tk_last_error());
        return 1;
    }

    /* Reference in double. */
    double err_h = 0, err_y = 0;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++) {
            double acc = b[j];
            for (int k = 0; k < K; k++)
                acc += (double)x[i * K + k] * w[k * N + j];
            href[i * N + j] = 0.5 * acc * (1.0 + erf(acc / sqrt(2.0)));
            double e = fabs(href[i * N + j] - h[i * N + j]);
            err_h = e > err_h ? e : err_h;
        }
        /* layernorm of the kernel's own h, so the two errors stay separate */
        double mean = 0, var = 0;
        for (int j = 0; j < N; j++) mean += h[i * N + j];
        mean /= N;
        for (int j = 0; j < N; j++) var += (h[i * N + j] - mean) * (h[i * N + j] - mean);
        var /= N;
        for (int j = 0; j < N; j++) {
            double r = (h[i * N + j] - mean) / sqrt(var + 1e-5) * g[j] + be[j];
            double e = fabs(r - y[i * N + j]);
            err_y = e > err_y ? e : err_y;
        }
    }

    printf("mlp block %dx%d @ %dx%d: h = gelu(x @ w + b), y = layernorm(h)\n", M, K, K, N);
    printf("  h[0][0..2] = %.6f %.6f %.6f\n", h[0], h[1], h[2]);
    printf("  y[0][0..2] = %.6f %.6f %.6f\n", y[0], y[1], y[2]);
    printf("  max |err| matmul_bias_gelu = %.3g, layernorm = %.3g\n", err_h, err_y);
    int ok = err_h < 1e-4 && err_y < 1e-4;
    printf("%s\n", ok ? "OK" : "FAILED: error too large");
    free(x); free(w); free(b); free(h); free(g); free(be); free(y); free(href);
    return ok ? 0 : 1;
}
