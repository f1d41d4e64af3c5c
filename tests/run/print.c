/* Run test: print's lines (captured from stdout, which the C target's and
 * CUDA's printf both write to, and compared as sorted sets: programs and
 * threads print in any order) and that the kernel still stores. */
#define _GNU_SOURCE
#include <unistd.h>
#include "print.h"
#include "tkt.h"

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* the lines in buf (n of them at most), sorted */
static int split(char *buf, char **lines, int n)
{
    int k = 0;
    for (char *s = strtok(buf, "\n"); s && k < n; s = strtok(NULL, "\n"))
        lines[k++] = s;
    qsort(lines, (size_t)k, sizeof *lines, cmp);
    return k;
}

static void show_case(int64_t N)
{
    tkt_casef("show N=%lld", (long long)N);
    float *x = TKT_NEW(float, N);
    int32_t *y = TKT_OUT(int32_t, N);
    for (int64_t i = 0; i < N; i++)
        x[i] = (float)tkt_int(-40, 40) * 0.25f;
    /* what the kernel prints, in its format */
    size_t cap = 4096 + (size_t)N * 256;
    char *want = calloc(cap, 1), *got = calloc(cap, 1);
    size_t w = 0;
    int64_t P = (N + 3) / 4;
    for (int64_t p = 0; p < P; p++) {
        double s = 0;
        w += (size_t)snprintf(want + w, cap - w, "pid (%lld, 0, 0) start\n", (long long)p);
        for (int i = 0; i < 4; i++) {
            double v = p * 4 + i < N ? x[p * 4 + i] : 0;
            s += v;
            w += (size_t)snprintf(want + w, cap - w, "pid (%lld, 0, 0) idx (%d) v: %.6g\n", (long long)p, i, v);
        }
        w += (size_t)snprintf(want + w, cap - w, "pid (%lld, 0, 0) sum: %.6g\n", (long long)p, s);
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 2; j++)
                w += (size_t)snprintf(want + w, cap - w, "pid (%lld, 0, 0) idx (%d, %d) lt: %d\n", (long long)p, i, j,
                                      p * 4 + i + j < 3);
        w += (size_t)snprintf(want + w, cap - w, "pid (%lld, 0, 0) n \"%%d\" \\: %lld\n", (long long)p, (long long)N);
    }
    /* the kernel's stdout into a file */
    fflush(stdout);
    FILE *tmp = tmpfile();
    int saved = dup(1);
    if (!tmp || saved < 0 || dup2(fileno(tmp), 1) < 0) {
        tkt_fail("cannot redirect stdout");
        return;
    }
    int st = show(x, y, N);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(tmp);
    size_t n = fread(got, 1, cap - 1, tmp);
    got[n] = 0;
    fclose(tmp);
    tkt_status("show", st, TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < N; i++)
        tkt_eq_i64("y", y[i], i, i);
    int nl = (int)(cap / 8);
    char **gl = calloc((size_t)nl, sizeof *gl), **wl = calloc((size_t)nl, sizeof *wl);
    int ng = split(got, gl, nl), nw = split(want, wl, nl);
    TKT_CHECK(ng == nw, "%d lines printed, want %d", ng, nw);
    for (int i = 0; i < ng && i < nw; i++)
        TKT_CHECK(!strcmp(gl[i], wl[i]), "line %d: '%s', want '%s'", i, gl[i], wl[i]);
    tkt_check_guards();
    free(want), free(got), free(gl), free(wl);
    tkt_reset();
}

int main(void)
{
    static const int64_t ns[] = {0, 1, 5, 8, 13};
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++)
        show_case(ns[i]);
    return tkt_done("print");
}
