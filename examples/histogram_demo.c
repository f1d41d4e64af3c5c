/* examples/histogram_demo.c — examples/histogram.tk on the CPU: 1,000,003
 * normal samples into 37 bins of [-3, 3), counts and per-bin maxima checked
 * against a serial loop, then a bar chart. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "histogram.h"

#define NB 37

int main(void)
{
    const int64_t n = 1000003;
    float *x = malloc(sizeof(float) * (size_t)n);
    if (!x)
        return 1;
    unsigned s = 12345;
    for (int64_t i = 0; i < n; i++) {   /* Box-Muller on a small LCG */
        s = s * 1103515245u + 12345u;
        double u = ((s >> 8) + 0.5) / 16777216.0;
        s = s * 1103515245u + 12345u;
        double w = ((s >> 8) + 0.5) / 16777216.0;
        x[i] = (float)(sqrt(-2 * log(u)) * cos(6.283185307179586 * w));
    }
    const float lo = -3.0f, width = 6.0f / NB;
    int32_t count[NB] = {0}, want[NB] = {0};
    float peak[NB], wpeak[NB];
    for (int j = 0; j < NB; j++)
        peak[j] = wpeak[j] = -INFINITY;
    tk_status st = histogram(x, lo, width, count, peak, n, NB);
    if (st != TK_OK) {
        fprintf(stderr, "histogram: %s\n", tk_last_error());
        return 1;
    }
    for (int64_t i = 0; i < n; i++) {
        int b = (int)floorf((x[i] - lo) / width);
        if (b >= 0 && b < NB) {
            want[b]++;
            if (x[i] > wpeak[b])
                wpeak[b] = x[i];
        }
    }
    int bad = 0, top = 1;
    for (int j = 0; j < NB; j++) {
        bad += count[j] != want[j] || peak[j] != wpeak[j];
        if (count[j] > top)
            top = count[j];
    }
    for (int j = 0; j < NB; j++)
        printf("%6.2f %7d %.*s\n", lo + j * width, count[j], 50 * count[j] / top,
               "##################################################");
    printf("%s: %d of %d bins differ from the serial loop\n", bad ? "FAIL" : "OK", bad, NB);
    free(x);
    return bad != 0;
}
