/*
 * tests/gpu/mma_map.c — where the tensor-core dot of stdlib matmul_bf16
 * reads its operands, on the GPU: one 128 x 128 x 64 tile with index-coded
 * inputs.  With B[k][n] = (k == n) the product is A itself, so A[i][k] =
 * i + 1 (then k + 1) shows which row (column) of A lands at each output;
 * with A[i][k] = (i == k) it shows B's rows (columns) the same way.  Prints
 * the first mismatches of each probe ("got" is the index read + 1) and
 * exits 1 on any.  Built by tests/gpu/bench_mm.sh against its header.
 */
#define TKC_CUDA_HOST_COPY 1
#include "bench.h"

enum { M = 128, N = 128, K = 64 };

static uint16_t bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);     /* small integers: exact */
}

static float fb(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* probe p: 0 A's rows, 1 A's columns, 2 B's rows, 3 B's columns */
static int probe(int p)
{
    static uint16_t a[M * K], b[K * N], c[M * N];
    static const char *const what[] = { "A row", "A column", "B row", "B column" };
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++)
            a[i * K + k] = bf(p == 0 ? i + 1 : p == 1 ? k + 1 : i == k);
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++)
            b[k * N + n] = bf(p == 2 ? k + 1 : p == 3 ? n + 1 : k == n);
    tk_status s = matmul_bf16_cuda_host(a, b, c, M, K, N);
    if (s != TK_OK) {
        printf("mma_map: launch failed: %s\n", tk_last_error());
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int n = 0; n < N; n++) {
            if (p < 2 ? n >= K : i >= K)
                continue;
            float want = p == 0 ? i + 1 : p == 1 ? n + 1 : p == 2 ? i + 1 : n + 1, got = fb(c[i * N + n]);
            if (got != want && bad++ < 8)
                printf("  %s: c[%d][%d] got %g want %g\n", what[p], i, n, got, want);
        }
    printf("mma_map %s: %d bad\n", what[p], bad);
    return bad != 0;
}

int main(void)
{
    int bad = 0;
    for (int p = 0; p < 4; p++)
        bad |= probe(p);
    return bad;
}
