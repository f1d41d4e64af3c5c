/* Run test: a loop-carried row vector read by a dot's fragments (var_rows.tk). */
#include "var_rows.h"
#include "tkt.h"

static void var_rows_case(int64_t M, int64_t N, int64_t K, int64_t J)
{
    tk_bf16 *a = TKT_NEW(tk_bf16, M * K), *b = TKT_NEW(tk_bf16, K * N);
    float *r = TKT_NEW(float, M * J), *o = TKT_OUT(float, M * N);
    double *ref = calloc(1, sizeof(double) * (size_t)(M * N + 1));
    for (int64_t i = 0; i < M * K; i++)
        a[i] = tk_f32_to_bf16((float)tkt_unif(-1, 1));
    for (int64_t i = 0; i < K * N; i++)
        b[i] = tk_f32_to_bf16((float)tkt_unif(-1, 1));
    tkt_fill(r, M * J, -4, 4);
    tkt_status("var_rows", var_rows(a, b, r, o, M, K, N, J), TK_OK, tk_last_error(), (char *)0);
    for (int64_t i = 0; i < M; i++)
        for (int64_t n = 0; n < N; n++) {
            double x = 0, acc = 0;
            for (int64_t k = 0; k < K; k++)
                x += (double)tk_bf16_to_f32(a[i * K + k]) * tk_bf16_to_f32(b[k * N + n]);
            for (int64_t j = 0; j < J; j++)
                acc = acc * 0.5 + x + r[i * J + j];
            ref[i * N + n] = acc;
        }
    tkt_close("o", o, ref, M * N, 1e-4, 1e-4);
    free(ref);
    tkt_check_guards();
    tkt_reset();
}

int main(void)
{
    static const int64_t shapes[][4] = {
        {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 5, 16, 0}, {7, 13, 5, 3}, {64, 64, 16, 4},
        {65, 70, 33, 5}, {130, 17, 40, 2}, {200, 129, 48, 7},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tkt_casef("M=%lld N=%lld K=%lld J=%lld", (long long)shapes[s][0], (long long)shapes[s][1],
                  (long long)shapes[s][2], (long long)shapes[s][3]);
        var_rows_case(shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]);
    }
    return tkt_done("var_rows");
}
