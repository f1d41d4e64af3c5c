/* Header test: two generated headers in one translation unit, and one of
 * them again in a second translation unit (multi_tu_other.c); everything links
 * and tk_last_error() is one per thread across headers and units. */
#include <stdio.h>
#include <string.h>

#include "hscale.h"
#include "hclamp.h"
#include "hscale.h"     /* twice: include guards */

int other_scale(float *x, long n, float s);     /* multi_tu_other.c */
int other_fail(void);

int main(void)
{
    float x[100], y[100];
    int bad = 0;
    for (int i = 0; i < 100; i++)
        x[i] = (float)i - 50.0f;
    if (hscale(x, 2.0f, 100) != TK_OK) bad |= 1;
    if (other_scale(x, 100, 0.5f) != TK_OK) bad |= 2;
    if (hclamp(x, y, -10.0f, 10.0f, 100) != TK_OK) bad |= 4;
    for (int i = 0; i < 100; i++) {
        float want = (float)i - 50.0f;
        want = want < -10 ? -10 : want > 10 ? 10 : want;
        if (y[i] != want) { bad |= 8; printf("y[%d] = %g, expected %g\n", i, y[i], want); break; }
    }
    /* A failure in the other unit shows in this unit's tk_last_error(). */
    if (other_fail() != TK_ERR_REQUIRE) bad |= 16;
    if (!strstr(tk_last_error(), "hclamp")) { bad |= 32; printf("tk_last_error: \"%s\"\n", tk_last_error()); }
    if (hscale(NULL, 1.0f, 5) == TK_OK) bad |= 64;
    if (!strstr(tk_last_error(), "x")) bad |= 128;
    if (bad) {
        printf("multi_tu: failures 0x%x\n", bad);
        return 1;
    }
    printf("ok\n");
    return 0;
}
