/* tests/eco/app.c — the program of the CMake and Makefile test projects:
 * runs saxpy from kern.tk and checks y = 2 x + 1 + BIAS, BIAS from argv[1]. */
#include <stdio.h>
#include <stdlib.h>

#include "kern.h"

int main(int argc, char **argv)
{
    enum { N = 1000 };
    static float x[N], y[N];
    float bias = argc > 1 ? strtof(argv[1], NULL) : 0.0f;
    for (int i = 0; i < N; i++)
        x[i] = (float)i, y[i] = 1.0f;
    if (saxpy(2.0f, x, y, N) != TK_OK) {
        fprintf(stderr, "saxpy: %s\n", tk_last_error());
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (y[i] != 2.0f * (float)i + 1.0f + bias) {
            fprintf(stderr, "y[%d] = %g, want %g\n", i, (double)y[i], 2.0 * i + 1.0 + bias);
            return 1;
        }
    printf("app: ok\n");
    return 0;
}
