/* The second translation unit of multi_tu.c. */
#include "hscale.h"
#include "hclamp.h"

int other_scale(float *x, long n, float s);
int other_fail(void);

int other_scale(float *x, long n, float s) { return hscale(x, s, n); }

int other_fail(void)
{
    float x[4] = {0}, y[4] = {0};
    return hclamp(x, y, 1.0f, -1.0f, 4);
}
