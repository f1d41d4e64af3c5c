/* tests/eco/dlpack_check.c — the DLPack entry points (NAME_dl) of a tkc
 * header, on DLTensors built by hand: results through offsets and strided
 * views, and every check that rejects a tensor (NULL, device, dtype, lanes,
 * ndim, fixed dims, dims that disagree across tensors, strides, alignment).
 * Built against <dlpack/dlpack.h> when it exists, else tests/eco/dlpack_min.h
 * (-DTKT_DLPACK_MIN forces the latter).  Exits 0 when all is well. */
#if !defined(TKT_DLPACK_MIN) && defined(__has_include)
#if __has_include(<dlpack/dlpack.h>)
#include <dlpack/dlpack.h>
#endif
#endif
#ifndef DLPACK_VERSION
#include "dlpack_min.h"
#endif
#define TKC_DLPACK 1
#include "dlpack_kernels.h"

static int failures;

#define CHECK(c, ...) do { if (!(c)) { failures++; fprintf(stderr, "line %d: ", __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* The call failed with status want and a message containing text. */
static void expect_fail(int line, tk_status got, tk_status want, const char *text)
{
    if (got != want || !strstr(tk_last_error(), text)) {
        failures++;
        fprintf(stderr, "line %d: status %d (want %d), message '%s' (want '%s')\n", line, (int)got,
                (int)want, tk_last_error(), text);
    }
}
#define FAILS(call, want, text) expect_fail(__LINE__, (call), (want), (text))

static DLTensor tensor(void *data, DLDataType dt, int ndim, int64_t *shape, int64_t *strides)
{
    DLTensor t = { .data = data, .ndim = ndim, .dtype = dt, .shape = shape, .strides = strides };
    t.device.device_type = kDLCPU;
    return t;
}

static const DLDataType F32 = { 2, 32, 1 }, F64 = { 2, 64, 1 }, F16 = { 2, 16, 1 }, BOOL = { 6, 8, 1 };

static void scale_rows_cases(void)
{
    enum { M = 5, N = 37 };
    static float x[M + 1][N], w[N], y[M][N];
    for (int i = 0; i <= M; i++)
        for (int j = 0; j < N; j++)
            x[i][j] = (float)(i * 100 + j);
    for (int j = 0; j < N; j++)
        w[j] = (float)(j % 3) - 1.0f;
    int64_t xs[2] = { M, N }, ws[1] = { N }, ys[2] = { M, N };
    DLTensor tx = tensor(x, F32, 2, xs, NULL), tw = tensor(w, F32, 1, ws, NULL), ty = tensor(y, F32, 2, ys, NULL);
    tx.byte_offset = sizeof x[0];                 /* rows 1..M of x */
    CHECK(scale_rows_dl(&tx, &tw, &ty, 2.0f) == TK_OK, "scale_rows_dl: %s", tk_last_error());
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            CHECK(y[i][j] == 2.0f * x[i + 1][j] * w[j], "y[%d][%d] = %g", i, j, (double)y[i][j]);

    int64_t compact[2] = { N, 1 }, odd[2] = { 1, 1 }, rows1[2] = { 12345, 1 }, ys1[2] = { 1, N };
    ty.strides = compact;
    CHECK(scale_rows_dl(&tx, &tw, &ty, 1.0f) == TK_OK, "explicit compact strides: %s", tk_last_error());
    ty.strides = odd;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "y is not compact row-major");
    ty.strides = NULL;
    DLTensor tx1 = tx, ty1 = ty;                   /* one row: dim 0's stride does not matter */
    tx1.shape = ys1, ty1.shape = ys1, ty1.strides = rows1;
    CHECK(scale_rows_dl(&tx1, &tw, &ty1, 1.0f) == TK_OK, "size-1 dim with any stride: %s", tk_last_error());

    ws[0] = N - 1;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "inconsistent dims: N = 37, but dim 0 of w is 36");
    ws[0] = N;
    ys[0] = M - 1;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "inconsistent dims: M = 5, but dim 0 of y is 4");
    ys[0] = M;
    FAILS(scale_rows_dl(NULL, &tw, &ty, 1.0f), TK_ERR_ARG, "x is NULL");
    tw.dtype = F64;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "w has dtype code 2 bits 64 lanes 1, expected f32");
    tw.dtype = F32, tw.dtype.lanes = 4;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "lanes 4");
    tw.dtype = F32;
    tw.ndim = 2;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "w has 2 dims, expected 1");
    tw.ndim = 1;
    ty.device.device_type = kDLCUDA;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "y is on DLPack device type 2, expected 1");
    ty.device.device_type = kDLCPU;
    tx.byte_offset = 2;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "not aligned");
    tx.byte_offset = 0;
    xs[0] = -1;
    FAILS(scale_rows_dl(&tx, &tw, &ty, 1.0f), TK_ERR_ARG, "dim 0 of x is negative");
    xs[0] = M;
    /* the entry point's own checks still apply: require N <= BLOCK */
    static float big[M * 100], wbig[100];
    int64_t bs[2] = { M, 100 }, wbs[1] = { 100 };
    DLTensor tb = tensor(big, F32, 2, bs, NULL), tbw = tensor(wbig, F32, 1, wbs, NULL);
    FAILS(scale_rows_dl(&tb, &tbw, &tb, 1.0f), TK_ERR_REQUIRE, "require N <= BLOCK failed");
}

static void copy2d_cases(void)
{
    enum { R = 13, C = 21 };
    static float a[R][C], y[C][R];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            a[i][j] = (float)(i * 1000 + j);
    int64_t ts[2] = { C, R }, tstr[2] = { 1, C }, ys[2] = { C, R };
    DLTensor tt = tensor(a, F32, 2, ts, tstr), ty = tensor(y, F32, 2, ys, NULL);
    CHECK(copy2d_dl(&tt, &ty) == TK_OK, "copy2d_dl of a transpose: %s", tk_last_error());
    for (int i = 0; i < C; i++)
        for (int j = 0; j < R; j++)
            CHECK(y[i][j] == a[j][i], "transpose y[%d][%d] = %g", i, j, (double)y[i][j]);
    /* a slice: rows 2..R-1, columns 3..C-1, row stride C */
    int64_t ss[2] = { R - 2, C - 3 }, sstr[2] = { C, 1 }, ys2[2] = { R - 2, C - 3 };
    static float y2[R - 2][C - 3];
    DLTensor ts2 = tensor(a, F32, 2, ss, sstr), ty2 = tensor(y2, F32, 2, ys2, NULL);
    ts2.byte_offset = (2 * C + 3) * sizeof(float);
    CHECK(copy2d_dl(&ts2, &ty2) == TK_OK, "copy2d_dl of a slice: %s", tk_last_error());
    for (int i = 0; i < R - 2; i++)
        for (int j = 0; j < C - 3; j++)
            CHECK(y2[i][j] == a[i + 2][j + 3], "slice y[%d][%d] = %g", i, j, (double)y2[i][j]);
    /* NULL strides: compact */
    DLTensor tc = tensor(a, F32, 2, (int64_t[2]){ R, C }, NULL), yc = tensor(y, F32, 2, (int64_t[2]){ R, C }, NULL);
    CHECK(copy2d_dl(&tc, &yc) == TK_OK, "copy2d_dl compact: %s", tk_last_error());
    CHECK(memcmp(y, a, sizeof a) == 0, "compact copy differs");
    int64_t neg[2] = { -C, 1 };
    tt.strides = neg, tt.shape = (int64_t[2]){ R, C };
    FAILS(copy2d_dl(&tt, &yc), TK_ERR_ARG, "stride 0 of x");
}

static void rows4_cases(void)
{
    enum { N = 9 };
    static tk_f16 x[N][4];
    static bool keep[N];
    static float out[N];
    for (int i = 0; i < N; i++) {
        keep[i] = i % 2;
        for (int j = 0; j < 4; j++)
            x[i][j] = tk_f32_to_f16((float)(i + j) * 0.5f);
    }
    int64_t xs[2] = { N, 4 }, ks[1] = { N }, os[1] = { N };
    DLTensor tx = tensor(x, F16, 2, xs, NULL), tk = tensor(keep, BOOL, 1, ks, NULL), to = tensor(out, F32, 1, os, NULL);
    CHECK(rows4_dl(&tx, &tk, &to) == TK_OK, "rows4_dl: %s", tk_last_error());
    for (int i = 0; i < N; i++)
        CHECK(out[i] == (i % 2 ? (float)(4 * i + 6) * 0.5f : 0.0f), "out[%d] = %g", i, (double)out[i]);
    xs[1] = 3;
    FAILS(rows4_dl(&tx, &tk, &to), TK_ERR_ARG, "dim 1 of x is 3, expected 4");
    xs[1] = 4;
    tk.dtype = (DLDataType){ 1, 8, 1 };
    FAILS(rows4_dl(&tx, &tk, &to), TK_ERR_ARG, "expected bool");
}

int main(void)
{
    scale_rows_cases();
    copy2d_cases();
    rows4_cases();
    if (failures)
        fprintf(stderr, "%d DLPack checks failed\n", failures);
    return failures != 0;
}
