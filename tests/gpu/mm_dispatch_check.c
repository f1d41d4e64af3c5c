/*
 * tests/gpu/mm_dispatch_check.c — stdlib matmul_bf16 / matmul_f16 through a
 * header dispatching over stdlib/matmul.tktune (tests/gpu/mm_dispatch.sh
 * builds it, and the CPU stand-in for libcuda when TKC_GPU_EMU=1): each
 * shape's result within 1e-2 + 8e-3 |ref| (bf16; f16 2e-3) of float64, at
 * M = 1 .. 1024, odd sizes, K = 0: tiles the table names (16 x 8192 x 520
 * the transposed 16-row one, 128 x 1024 x 512 64 x 128 x 64, 1024 x 520 x
 * 264 the default, the other first sixteen mostly 64 x 128 x 128 or four
 * transposed tiles of 80 / 104 rows (301, 400 rows; 129 rows two of 72);
 * the last ten transposed tiles: two of 72 to 256 rows, four of 88 / 144
 * rows, five of 128, four of 192).
 */
#include "d.h"   /* the dispatching header */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
static double u(void) { return rand() / (double)RAND_MAX * 2 - 1; }
int main(void)
{
    static const long long sh[][3] = { {1, 1024, 512}, {16, 1024, 512}, {17, 1024, 512}, {64, 1024, 512},
        {128, 1024, 512}, {129, 1024, 512}, {200, 1024, 512}, {13, 1000, 520}, {16, 1024, 0},
        {256, 1024, 512}, {301, 1000, 264}, {400, 520, 136}, {16, 2048, 2048},
        {16, 8192, 520}, {400, 2048, 512}, {1024, 520, 264},
        /* the two-tile transposed lines (BM = 72, 88, 120, 152, 232, 256: wgmma n of
         * 8-multiples too) */
        {137, 8192, 56}, {170, 8192, 72}, {233, 8192, 64}, {300, 8192, 136}, {449, 8192, 200},
        {500, 8192, 40},
        /* four 88 / 144-row ones at N = 4096, five 128-row, four 192-row at N = 8192 */
        {352, 4096, 100}, {571, 4096, 80}, {600, 8192, 48}, {700, 8192, 24} };
    int bad = 0;
    for (unsigned s = 0; s < sizeof sh / sizeof sh[0]; s++) {
        long long M = sh[s][0], N = sh[s][1], K = sh[s][2];
        tk_bf16 *a = malloc(sizeof *a * (M * K + 1)), *b = malloc(sizeof *b * (K * N + 1)), *c = malloc(sizeof *c * M * N);
        tk_f16 *ah = malloc(sizeof *ah * (M * K + 1)), *bh = malloc(sizeof *bh * (K * N + 1)), *ch = malloc(sizeof *ch * M * N);
        for (long long i = 0; i < M * K; i++) { a[i] = tk_f32_to_bf16((float)u()); ah[i] = tk_f32_to_f16((float)u()); }
        for (long long i = 0; i < K * N; i++) { b[i] = tk_f32_to_bf16((float)u()); bh[i] = tk_f32_to_f16((float)u()); }
        tk_status r1 = matmul_bf16_cuda_host(a, b, c, M, K, N), r2 = matmul_f16_cuda_host(ah, bh, ch, M, K, N);
        double e1 = 0, e2 = 0;
        for (long long i = 0; i < M; i++)
            for (long long j = 0; j < N; j++) {
                double s1 = 0, s2 = 0;
                for (long long k = 0; k < K; k++) {
                    s1 += (double)tk_bf16_to_f32(a[i * K + k]) * tk_bf16_to_f32(b[k * N + j]);
                    s2 += (double)tk_f16_to_f32(ah[i * K + k]) * tk_f16_to_f32(bh[k * N + j]);
                }
                double d1 = fabs(tk_bf16_to_f32(c[i * N + j]) - s1) / (1e-2 + 8e-3 * fabs(s1));
                double d2 = fabs(tk_f16_to_f32(ch[i * N + j]) - s2) / (1e-2 + 2e-3 * fabs(s2));
                e1 = d1 > e1 ? d1 : e1; e2 = d2 > e2 ? d2 : e2;
            }
        int ok = r1 == TK_OK && r2 == TK_OK && e1 <= 1 && e2 <= 1;
        bad += !ok;
        printf("%s M=%lld N=%lld K=%lld: status %d %d, err/tol bf16 %.3f f16 %.3f\n", ok ? "ok  " : "FAIL", M, N, K, r1, r2, e1, e2);
        free(a); free(b); free(c); free(ah); free(bh); free(ch);
    }
    return bad != 0;
}
