/*
 * tests/gpu/nvptx_math.c — the nvptx target's math functions
 * (targets/nvptx/math.c) on a GPU against the host's libm in double.
 *
 *   tkc tests/gpu/nvptx_math.tk --target=nvptx -o DIR/tk_math.h
 *   cc -I DIR tests/gpu/nvptx_math.c -lm -ldl && ./a.out
 *
 * Kernel tk_math (nvptx_math.tk) writes y[f * n + i] = fn_f(x[i]) in f32
 * and yd likewise in f64, for the functions of nvptx_math.h in its order,
 * checked as that header says; it runs through its header's launcher, so
 * tkc alone makes the check (no LLVM where it runs: tests/gpu/run.sh).
 * Prints the worst relative error per function; exits 0 when all pass, 3
 * without a CUDA driver or device.
 */
#include <stdlib.h>

#define TKC_CUDA_HOST_COPY 1
#include "tk_math.h"
#include "nvptx_math.h"

int main(void)
{
    int64_t N = NM_NSPECIAL + 20000;
    float *x = malloc(sizeof(float) * (size_t)N), *y = malloc(sizeof(float) * (size_t)N * NM_NFN);
    double *xd = malloc(sizeof(double) * (size_t)N), *yd = malloc(sizeof(double) * (size_t)N * NM_NFN);
    if (!x || !y || !xd || !yd)
        return 1;
    for (int64_t i = 0; i < N; i++) {
        xd[i] = nm_arg(i, N);
        x[i] = (float)xd[i];
    }
    tk_status s = tk_math_cuda_host(x, xd, y, yd, N);
    if (s != TK_OK) {
        printf("tk_math: %s\n", tk_last_error());
        return s == TK_ERR_NO_DEVICE ? 3 : 1;
    }
    int bad = 0;
    for (int f = 0; f < NM_NFN; f++)
        bad += !nm_check(f, N, x, y + f * N, xd, yd + f * N);
    printf("%d of %d functions wrong\n", bad, NM_NFN);
    return bad ? 1 : 0;
}
