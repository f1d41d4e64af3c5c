/* Checks a tuned rows.h (tests/tune/rows.tk) against a reference softmax.
 * Arguments M,N,WANT: WANT is ok (must match) or require (must return
 * TK_ERR_REQUIRE). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"

static int check(int64_t M, int64_t N, const char *want)
{
    float *x = malloc(sizeof(float) * (size_t)(M * N + 1)), *y = malloc(sizeof(float) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M * N; i++)
        x[i] = (float)((i * 7 % 19) - 9) / 4;
    tk_status st = rowsoftmax(x, y, 0.5f, M, N);
    int bad = 0;
    if (strcmp(want, "require") == 0) {
        bad = st != TK_ERR_REQUIRE;
        if (bad)
            printf("rowsoftmax %lld,%lld: status %d, want TK_ERR_REQUIRE\n", (long long)M, (long long)N, st);
    } else if (st != TK_OK) {
        printf("rowsoftmax %lld,%lld: %s\n", (long long)M, (long long)N, tk_last_error());
        bad = 1;
    }
    for (int64_t i = 0; st == TK_OK && !bad && i < M; i++) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < N; j++)
            mx = fmax(mx, 0.5 * x[i * N + j]);
        for (int64_t j = 0; j < N; j++)
            s += exp(0.5 * x[i * N + j] - mx);
        for (int64_t j = 0; j < N; j++) {
            double r = exp(0.5 * x[i * N + j] - mx) / s;
            if (fabs(y[i * N + j] - r) > 1e-5 + 1e-4 * r) {
                printf("rowsoftmax %lld,%lld: y[%lld,%lld] = %g, want %g\n", (long long)M, (long long)N,
                       (long long)i, (long long)j, y[i * N + j], r);
                bad = 1;
                break;
            }
        }
    }
    free(x), free(y);
    return bad;
}

int main(int argc, char **argv)
{
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        long long M, N;
        char want[16];
        if (sscanf(argv[i], "%lld,%lld,%15s", &M, &N, want) == 3)
            bad |= check(M, N, want);
    }
    return bad;
}
