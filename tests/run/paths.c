/* Run test: a kernel of paths chosen by its arguments (tests/run/paths.tk).
 * Modes 0 (no path), 1 (the first loop), 2 (the second), 3 (both, the
 * second reading the first's result), 4-7 the same with the if without a
 * loop on; sizes from 0 to 1021 (N <= 2 turns the first path off), random
 * data: every mode matches a float64 reference.  On the GPU the launcher
 * runs version 1 of the kernel for mode 1 (where N > 2), version 2 for mode
 * 2, the whole kernel for the others. */
#include "paths.h"
#include "tkt.h"

static void paths_case(int64_t N, int mode, int reps)
{
    tkt_casef("paths N=%lld mode=%d reps=%d", (long long)N, mode, reps);
    float *x = TKT_NEW(float, N), *y = TKT_OUT(float, N);
    double *ref = calloc((size_t)N + 1, sizeof(double));
    tkt_fill(x, N, -2, 2);
    for (int64_t i = 0; i < N; i++) {
        double acc = x[i];
        if (mode % 2 == 1 && N > 2)
            for (int r = 0; r < reps; r++)
                acc = acc * 0.5 + x[i];
        if (mode >= 4)
            acc += 1.0f;
        if (mode % 4 >= 2)
            for (int r = 0; r < reps + 1; r++)
                acc -= 0.25 * r;
        ref[i] = acc;
    }
    int st = paths(x, y, mode, reps, N);
    tkt_status("paths", st, TK_OK, tk_last_error(), (char *)0);
    tkt_close("y", y, ref, N, 1e-5, 1e-5);
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

int main(void)
{
    for (int i = 0; i < TKT_NSIZES; i++)
        for (int mode = 0; mode < 8; mode++)
            paths_case(tkt_sizes[i], mode, (int)tkt_int(0, 6));
    return tkt_done("paths");
}
