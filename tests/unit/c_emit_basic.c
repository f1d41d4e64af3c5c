/*
 * tests/unit/c_emit_basic.c — the C target on hand-built tile IR: a row
 * softmax (masked loads and stores, reductions, fusion), a tiled matmul
 * (for loop, var, in-place dot), an outer product through views, and the
 * launcher's argument checks.
 */
#include "c_emit_test.h"

/* softmax<BLOCK>(x: f32[M, N], y: f32[M, N]) grid(M) require N <= BLOCK */
static TirKernel *softmax_kernel(Arena *a, int64_t block)
{
    static const char *dims[] = { "M", "N" };
    KernelInfo *ki = kinfo(a, "softmax", dims, 2);
    int md[] = { 0, 1 };
    kparam_tensor(a, ki, ki->syms, "x", DT_F32, 2, md, NULL, false, false);
    kparam_tensor(a, ki, ki->syms, "y", DT_F32, 2, md, NULL, true, false);
    TirKernel *k = kkernel(a, ki, "softmax");
    TB t = { k, k->body };
    TTy v = T1(DT_F32, block), vi = T1(DT_I64, block), vb = T1(DT_BOOL, block);
    int M = kdim(&t, 0), N = kdim(&t, 1);
    int req = kbin(&t, OP_LE, T0(DT_BOOL), N, kconst_i(&t, DT_I64, block));
    k->grid[0] = M, k->ngrid = 1;
    krequire(k, req, "N <= BLOCK");
    int row = kpid(&t, 0);
    int cols = karange(&t, block, 0);
    int base = kbin(&t, OP_MUL, T0(DT_I64), kun(&t, OP_CAST, T0(DT_I64), row), N);
    int c64 = kun(&t, OP_CAST, vi, cols);
    int offs = kbin(&t, OP_ADD, vi, kbcast(&t, vi, base), c64);
    int mask = kbin(&t, OP_LT, vb, c64, kbcast(&t, vi, N));
    int x = kload(&t, v, 0, offs, mask, kbcast(&t, v, kconst_f(&t, DT_F32, -INFINITY)));
    int mx = kreduce(&t, T0(DT_F32), x, RK_MAX, 0);
    int ex = kun(&t, OP_EXP, v, kbin(&t, OP_SUB, v, x, kbcast(&t, v, mx)));
    int s = kreduce(&t, T0(DT_F32), ex, RK_SUM, 0);
    kstore(&t, 1, offs, kbin(&t, OP_DIV, v, ex, kbcast(&t, v, s)), mask);
    return k;
}

static const char softmax_driver[] =
    "#include <math.h>\n"
    "int main(void) {\n"
    "    enum { M = 37, N = 100 };\n"
    "    static float x[M * N], y[M * N];\n"
    "    for (int i = 0; i < M * N; i++) x[i] = (float)((i * 7919) % 101) / 10.0f - 5.0f;\n"
    "    if (softmax(x, y, M, N) != TK_OK) { printf(\"%s\\n\", tk_last_error()); return 1; }\n"
    "    for (int r = 0; r < M; r++) {\n"
    "        double mx = -INFINITY, s = 0;\n"
    "        for (int j = 0; j < N; j++) mx = fmax(mx, x[r * N + j]);\n"
    "        for (int j = 0; j < N; j++) s += exp(x[r * N + j] - mx);\n"
    "        for (int j = 0; j < N; j++)\n"
    "            if (fabs(exp(x[r * N + j] - mx) / s - y[r * N + j]) > 1e-6) { printf(\"bad %d %d\\n\", r, j); return 1; }\n"
    "    }\n"
    "    if (softmax(x, y, M, 200) != TK_ERR_REQUIRE) return 2;\n"
    "    if (strcmp(tk_last_error(), \"softmax: require N <= BLOCK failed (N = 200)\")) { printf(\"%s\\n\", tk_last_error()); return 3; }\n"
    "    if (softmax(x, y, -3, N) != TK_ERR_ARG) return 4;\n"
    "    if (strcmp(tk_last_error(), \"softmax: dim M = -3 is negative\")) { printf(\"%s\\n\", tk_last_error()); return 5; }\n"
    "    if (softmax(NULL, y, M, N) != TK_ERR_ARG || strcmp(tk_last_error(), \"softmax: x is NULL\")) return 6;\n"
    "    if (softmax(NULL, NULL, 0, N) != TK_OK) return 7;\n"
    "    if (softmax(x, y, INT64_MAX / 2, 4) != TK_ERR_ARG) return 8;\n"
    "    return 0;\n"
    "}\n";

/* matmul<BM, BN, BK>(a: f32[M, K], b: f32[K, N], c: f32[M, N])
 *     grid(cdiv(M, BM), cdiv(N, BN)) */
static TirKernel *matmul_kernel(Arena *a, int64_t bm, int64_t bn, int64_t bk)
{
    static const char *dims[] = { "M", "K", "N" };
    KernelInfo *ki = kinfo(a, "matmul", dims, 3);
    int ad[] = { 0, 1 }, bd[] = { 1, 2 }, cd[] = { 0, 2 };
    kparam_tensor(a, ki, ki->syms, "a", DT_F32, 2, ad, NULL, false, false);
    kparam_tensor(a, ki, ki->syms, "b", DT_F32, 2, bd, NULL, false, false);
    kparam_tensor(a, ki, ki->syms, "c", DT_F32, 2, cd, NULL, true, false);
    TirKernel *k = kkernel(a, ki, "matmul");
    TB t = { k, k->body };
    int M = kdim(&t, 0), K = kdim(&t, 1), N = kdim(&t, 2);
    int cbm = kconst_i(&t, DT_I64, bm), cbn = kconst_i(&t, DT_I64, bn);
    int one = kconst_i(&t, DT_I64, 1);
    /* cdiv(M, BM) = (M + BM - 1) / BM */
    k->grid[0] = kbin(&t, OP_DIV, T0(DT_I64), kbin(&t, OP_SUB, T0(DT_I64), kbin(&t, OP_ADD, T0(DT_I64), M, cbm), one), cbm);
    k->grid[1] = kbin(&t, OP_DIV, T0(DT_I64), kbin(&t, OP_SUB, T0(DT_I64), kbin(&t, OP_ADD, T0(DT_I64), N, cbn), one), cbn);
    k->ngrid = 2;
    TTy tm = T1(DT_I64, bm), tn = T1(DT_I64, bn), tk = T1(DT_I64, bk);
    int rm = kbin(&t, OP_ADD, tm, kbcast(&t, tm, kbin(&t, OP_MUL, T0(DT_I64), kun(&t, OP_CAST, T0(DT_I64), kpid(&t, 0)), cbm)),
                  kun(&t, OP_CAST, tm, karange(&t, bm, 0)));
    int rn = kbin(&t, OP_ADD, tn, kbcast(&t, tn, kbin(&t, OP_MUL, T0(DT_I64), kun(&t, OP_CAST, T0(DT_I64), kpid(&t, 1)), cbn)),
                  kun(&t, OP_CAST, tn, karange(&t, bn, 0)));
    TTy acc_t = T2(DT_F32, bm, bn);
    int acc = kvar(&t, "acc", acc_t);
    kset(&t, acc, kbcast(&t, acc_t, kconst_f(&t, DT_F32, 0)));
    int lo = kconst_i(&t, DT_I64, 0), step = kconst_i(&t, DT_I64, bk);
    Instr *loop = tir_new(k, t.b, OP_FOR, T0(DT_BOOL));
    loop->args[0] = lo, loop->args[1] = K, loop->args[2] = step;
    loop->blocks[0] = tir_block(k, loop);
    TB in = { k, loop->blocks[0] };
    int kv = ins(&in, OP_LOOPVAR, T0(DT_I64), 0, 0, 0);
    int rk = kbin(&in, OP_ADD, tk, kbcast(&in, tk, kv), kun(&in, OP_CAST, tk, karange(&in, bk, 0)));
    TTy mk = T2(DT_I64, bm, bk), kn = T2(DT_I64, bk, bn), mkb = T2(DT_BOOL, bm, bk), knb = T2(DT_BOOL, bk, bn);
    /* a[rm, rk]: offs rm[:, None] * K + rk[None, :], mask rm < M & rk < K */
    int rm2 = kbcast(&in, mk, kexpand(&in, T2(DT_I64, bm, 1), rm, 1));
    int rk2 = kbcast(&in, mk, kexpand(&in, T2(DT_I64, 1, bk), rk, 0));
    int aoff = kbin(&in, OP_ADD, mk, kbin(&in, OP_MUL, mk, rm2, kbcast(&in, mk, K)), rk2);
    int amask = kbin(&in, OP_AND, mkb, kbin(&in, OP_LT, mkb, rm2, kbcast(&in, mk, M)),
                     kbin(&in, OP_LT, mkb, rk2, kbcast(&in, mk, K)));
    int av = kload(&in, T2(DT_F32, bm, bk), 0, aoff, amask, 0);
    int rk3 = kbcast(&in, kn, kexpand(&in, T2(DT_I64, bk, 1), rk, 1));
    int rn3 = kbcast(&in, kn, kexpand(&in, T2(DT_I64, 1, bn), rn, 0));
    int boff = kbin(&in, OP_ADD, kn, kbin(&in, OP_MUL, kn, rk3, kbcast(&in, kn, N)), rn3);
    int bmask = kbin(&in, OP_AND, knb, kbin(&in, OP_LT, knb, rk3, kbcast(&in, kn, K)),
                     kbin(&in, OP_LT, knb, rn3, kbcast(&in, kn, N)));
    int bv = kload(&in, T2(DT_F32, bk, bn), 1, boff, bmask, 0);
    int g = kget(&in, acc);
    int d = ins(&in, OP_DOT, acc_t, av, bv, g);
    kset(&in, acc, d);
    /* store(c[rm, rn], acc) */
    TTy mn = T2(DT_I64, bm, bn), mnb = T2(DT_BOOL, bm, bn);
    int rm4 = kbcast(&t, mn, kexpand(&t, T2(DT_I64, bm, 1), rm, 1));
    int rn4 = kbcast(&t, mn, kexpand(&t, T2(DT_I64, 1, bn), rn, 0));
    int coff = kbin(&t, OP_ADD, mn, kbin(&t, OP_MUL, mn, rm4, kbcast(&t, mn, N)), rn4);
    int cmask = kbin(&t, OP_AND, mnb, kbin(&t, OP_LT, mnb, rm4, kbcast(&t, mn, M)),
                     kbin(&t, OP_LT, mnb, rn4, kbcast(&t, mn, N)));
    kstore(&t, 2, coff, kget(&t, acc), cmask);
    return k;
}

static const char matmul_driver[] =
    "#include <math.h>\n"
    "#include <stdlib.h>\n"
    "static int run(int64_t M, int64_t N, int64_t K) {\n"
    "    float *a = malloc(sizeof(float) * (size_t)(M * K + 1)), *b = malloc(sizeof(float) * (size_t)(K * N + 1));\n"
    "    float *c = malloc(sizeof(float) * (size_t)(M * N + 1));\n"
    "    for (int64_t i = 0; i < M * K; i++) a[i] = (float)((i * 31) % 17) - 8.0f;\n"
    "    for (int64_t i = 0; i < K * N; i++) b[i] = (float)((i * 13) % 11) - 5.0f;\n"
    "    for (int64_t i = 0; i < M * N; i++) c[i] = 1e9f;\n"
    "    if (matmul(a, b, c, M, K, N) != TK_OK) { printf(\"%s\\n\", tk_last_error()); return 1; }\n"
    "    for (int64_t i = 0; i < M; i++) for (int64_t j = 0; j < N; j++) {\n"
    "        double s = 0; for (int64_t q = 0; q < K; q++) s += (double)a[i * K + q] * b[q * N + j];\n"
    "        if (fabs(s - c[i * N + j]) > 1e-3) { printf(\"bad %lld %lld: %g vs %g\\n\", (long long)i, (long long)j, s, c[i * N + j]); return 1; }\n"
    "    }\n"
    "    free(a); free(b); free(c);\n"
    "    return 0;\n"
    "}\n"
    "int main(void) {\n"
    "    return run(64, 64, 64) || run(100, 70, 33) || run(1, 1, 1) || run(130, 200, 129) || run(0, 5, 5);\n"
    "}\n";

/* outer<B>(x: f32[N], y: f32[N], z: f32[N, N]): z[i, j] = x[i] * y[j] + i32 (tanh) tricks:
 * one program, a [B, B] tile from two [B] loads through expand_dims and
 * broadcast, plus trans, argmax and cumsum. */
static TirKernel *outer_kernel(Arena *a, int64_t B)
{
    static const char *dims[] = { "N" };
    KernelInfo *ki = kinfo(a, "outer", dims, 1);
    int d1[] = { 0 }, d2[] = { 0, 0 };
    int64_t none[] = { 0, 0 };
    kparam_tensor(a, ki, ki->syms, "x", DT_F32, 1, d1, none, false, false);
    kparam_tensor(a, ki, ki->syms, "y", DT_F16, 1, d1, none, false, false);
    kparam_tensor(a, ki, ki->syms, "z", DT_F32, 2, d2, none, true, false);
    kparam_tensor(a, ki, ki->syms, "zt", DT_F32, 2, d2, none, true, false);
    kparam_tensor(a, ki, ki->syms, "am", DT_I32, 1, d1, none, true, false);
    kparam_tensor(a, ki, ki->syms, "cs", DT_F32, 2, d2, none, true, false);
    kparam_scalar(ki, "scale", DT_F32);
    TirKernel *k = kkernel(a, ki, "outer");
    TB t = { k, k->body };
    int N = kdim(&t, 0);
    k->grid[0] = kconst_i(&t, DT_I64, 1), k->ngrid = 1;
    krequire(k, kbin(&t, OP_LE, T0(DT_BOOL), N, kconst_i(&t, DT_I64, B)), "N <= B");
    TTy vi = T1(DT_I64, B), vb = T1(DT_BOOL, B), v = T1(DT_F32, B);
    TTy mi = T2(DT_I64, B, B), mb = T2(DT_BOOL, B, B), mf = T2(DT_F32, B, B);
    int r = kun(&t, OP_CAST, vi, karange(&t, B, 0));
    int m = kbin(&t, OP_LT, vb, r, kbcast(&t, vi, N));
    int xv = kload(&t, v, 0, r, m, 0);
    int yv = kload(&t, v, 1, r, m, 0);           /* f16 storage, f32 value: compute type */
    I_(&t, yv)->ty.dt = DT_F16;
    int yf = kun(&t, OP_CAST, v, yv);
    int sc = karg(&t, DT_F32, 6);
    int zz = kbin(&t, OP_MUL, mf,
                  kbcast(&t, mf, kexpand(&t, T2(DT_F32, B, 1), xv, 1)),
                  kbcast(&t, mf, kexpand(&t, T2(DT_F32, 1, B), yf, 0)));
    zz = kbin(&t, OP_MUL, mf, zz, kbcast(&t, mf, sc));
    int ri = kbcast(&t, mi, kexpand(&t, T2(DT_I64, B, 1), r, 1));
    int ci = kbcast(&t, mi, kexpand(&t, T2(DT_I64, 1, B), r, 0));
    int off = kbin(&t, OP_ADD, mi, kbin(&t, OP_MUL, mi, ri, kbcast(&t, mi, N)), ci);
    int mm = kbin(&t, OP_AND, mb, kbin(&t, OP_LT, mb, ri, kbcast(&t, mi, N)), kbin(&t, OP_LT, mb, ci, kbcast(&t, mi, N)));
    kstore(&t, 2, off, zz, mm);
    int tr = ins(&t, OP_TRANS, mf, zz, 0, 0);
    I_(&t, tr)->perm[0] = 1, I_(&t, tr)->perm[1] = 0;
    kstore(&t, 3, off, tr, mm);
    /* am[i] = argmax over j of z[i, j] (masked lanes -inf) */
    int zm = ins(&t, OP_WHERE, mf, mm, zz, kbcast(&t, mf, kconst_f(&t, DT_F32, -INFINITY)));
    int amx = kreduce(&t, T1(DT_I32, B), zm, RK_ARGMAX, 1);
    kstore(&t, 4, r, amx, m);
    int cs = ins(&t, OP_CUMSUM, mf, zz, 0, 0);
    I_(&t, cs)->axis = 0;
    kstore(&t, 5, off, cs, mm);
    return k;
}

static const char outer_driver[] =
    "#include <math.h>\n"
    "int main(void) {\n"
    "    enum { N = 13 };\n"
    "    float x[N], z[N * N], zt[N * N], cs[N * N]; tk_f16 y[N]; int32_t am[N];\n"
    "    for (int i = 0; i < N; i++) { x[i] = (float)(i % 5) - 2.0f; y[i] = tk_f32_to_f16((float)i * 0.5f - 3.0f); }\n"
    "    if (outer(x, y, z, zt, am, cs, 2.0f, N) != TK_OK) { printf(\"%s\\n\", tk_last_error()); return 1; }\n"
    "    for (int i = 0; i < N; i++) {\n"
    "        int best = 0;\n"
    "        for (int j = 0; j < N; j++) {\n"
    "            float want = x[i] * tk_f16_to_f32(y[j]) * 2.0f;\n"
    "            if (z[i * N + j] != want) { printf(\"z %d %d\\n\", i, j); return 1; }\n"
    "            if (zt[i * N + j] != x[j] * tk_f16_to_f32(y[i]) * 2.0f) { printf(\"zt %d %d\\n\", i, j); return 1; }\n"
    "            if (want > z[i * N + best]) best = j;\n"
    "            float s = 0; for (int q = 0; q <= i; q++) s += z[q * N + j];\n"
    "            if (fabsf(cs[i * N + j] - s) > 1e-4f) { printf(\"cs %d %d\\n\", i, j); return 1; }\n"
    "        }\n"
    "        if (am[i] != best) { printf(\"am %d: %d vs %d\\n\", i, am[i], best); return 1; }\n"
    "    }\n"
    "    if (outer(x, y, z, zt, am, cs, 2.0f, 17) != TK_ERR_REQUIRE) return 2;\n"
    "    return 0;\n"
    "}\n";

int main(void)
{
    Arena *a = arena_new();
    TirKernel *sm[] = { softmax_kernel(a, 128) };
    check_kernels("c_emit_softmax", sm, 1, softmax_driver);
    TirKernel *mm[] = { matmul_kernel(a, 64, 64, 32) };
    check_kernels("c_emit_matmul", mm, 1, matmul_driver);
    TirKernel *ou[] = { outer_kernel(a, 16) };
    check_kernels("c_emit_outer", ou, 1, outer_driver);
    arena_free(a);
    printf("c_emit_basic: %s\n", test_failures ? "FAILED" : "ok");
    return test_failures != 0;
}
