/* Checks a tuned mm.h (tests/tune/mm.tk) against a double-precision
 * reference at the shapes given as arguments, M,N,K each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mm.h"

static int check(int64_t M, int64_t N, int64_t K)
{
    float *a = malloc(sizeof(float) * (size_t)(M * K + 1)), *b = malloc(sizeof(float) * (size_t)(K * N + 1));
    float *c = malloc(sizeof(float) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M * K; i++)
        a[i] = (float)((i * 7 % 13) - 6) / 8;
    for (int64_t i = 0; i < K * N; i++)
        b[i] = (float)((i * 5 % 11) - 5) / 4;
    int bad = 0;
    if (mm(a, b, c, M, K, N) != TK_OK) {
        printf("mm %lld,%lld,%lld: %s\n", (long long)M, (long long)N, (long long)K, tk_last_error());
        bad = 1;
    }
    for (int64_t i = 0; !bad && i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double r = 0;
            for (int64_t k = 0; k < K; k++)
                r += (double)a[i * K + k] * b[k * N + j];
            if (fabs(c[i * N + j] - r) > 1e-4 * (1 + fabs(r))) {
                printf("mm %lld,%lld,%lld: c[%lld,%lld] = %g, want %g\n", (long long)M, (long long)N,
                       (long long)K, (long long)i, (long long)j, c[i * N + j], r);
                bad = 1;
                break;
            }
        }
    free(a), free(b), free(c);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        long long M, N, K;
        if (sscanf(argv[i], "%lld,%lld,%lld", &M, &N, &K) == 3)
            bad |= check(M, N, K);
    }
    return bad;
}
