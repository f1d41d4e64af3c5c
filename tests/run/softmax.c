/* Run test: softmax (row fits a block) and online softmax (any row length). */
#include "softmax.h"
#include "tkt.h"

static void reference(const float *x, double *ref, int64_t M, int64_t N)
{
    for (int64_t i = 0; i < M; i++) {
        double mx = -INFINITY, s = 0;
        for (int64_t j = 0; j < N; j++)
            mx = fmax(mx, x[i * N + j]);
        for (int64_t j = 0; j < N; j++)
            s += exp(x[i * N + j] - mx);
        for (int64_t j = 0; j < N; j++)
            ref[i * N + j] = exp(x[i * N + j] - mx) / s;
    }
}

static void one(int64_t M, int64_t N, double scale)
{
    float *x = TKT_NEW(float, M * N), *y = TKT_OUT(float, M * N), *y2 = TKT_OUT(float, M * N);
    double *ref = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    tkt_fill(x, M * N, -scale, scale);
    reference(x, ref, M, N);
    if (N <= 128) {
        tkt_status("softmax", softmax(x, y, M, N), TK_OK, tk_last_error(), (char *)0);
        tkt_close("softmax y", y, ref, M * N, 1e-7, 2e-5);
    } else {
        tkt_snapshot();
        tkt_status("softmax N > BLOCK", softmax(x, y, M, N), TK_ERR_REQUIRE, tk_last_error(),
                   "softmax", "N", "BLOCK", (char *)0);
        tkt_unchanged();
    }
    tkt_status("softmax_online", softmax_online(x, y2, M, N), TK_OK, tk_last_error(), (char *)0);
    tkt_close("softmax_online y", y2, ref, M * N, 1e-7, 2e-5);
    tkt_check_guards();
    free(ref);
    tkt_reset();
}

int main(void)
{
    static const int64_t ms[] = {0, 1, 3, 17};
    char name[80];
    for (size_t a = 0; a < sizeof ms / sizeof ms[0]; a++)
        for (int s = 0; s < TKT_NSIZES; s++) {
            snprintf(name, sizeof name, "M=%lld N=%lld", (long long)ms[a], (long long)tkt_sizes[s]);
            tkt_case = name;
            one(ms[a], tkt_sizes[s], 5);
        }
    tkt_case = "large values";
    one(5, 100, 80);            /* exp would overflow without the max */
    one(5, 1000, 80);
    tkt_case = "N=5000";
    one(4, 5000, 3);

    tkt_case = "errors";
    float *x = TKT_NEW(float, 64), *y = TKT_OUT(float, 64);
    tkt_snapshot();
    tkt_status("softmax NULL x", softmax(NULL, y, 8, 8), TK_ERR_ARG, tk_last_error(), "x", (char *)0);
    tkt_status("softmax NULL y", softmax(x, NULL, 8, 8), TK_ERR_ARG, tk_last_error(), "y", (char *)0);
    tkt_status("softmax M<0", softmax(x, y, -1, 8), TK_ERR_ARG, tk_last_error(), "M", (char *)0);
    tkt_status("softmax N<0", softmax(x, y, 8, -8), TK_ERR_ARG, tk_last_error(), "N", (char *)0);
    tkt_status("online N<0", softmax_online(x, y, 8, -8), TK_ERR_ARG, tk_last_error(), "N", (char *)0);
    tkt_status("softmax N>BLOCK", softmax(x, y, 1, 129), TK_ERR_REQUIRE, tk_last_error(),
               "N <= BLOCK", (char *)0);
    tkt_unchanged();
    tkt_check_guards();
    return tkt_done("softmax");
}
