/*
 * targets/c/emit.c — the C target: tile IR to OpenMP C.
 *
 * Each kernel becomes two static functions: NAME__program runs one program
 * (the body block), NAME checks its arguments, evaluates the head (grid and
 * require values) and runs every program under one `omp parallel for`.
 *
 * Values: a rank-0 value is a C local `vN`; a tile is a row-major local
 * array `vN[numel]` only where it must be (see below); views (broadcast,
 * expand_dims, trans, reshape) never copy: an operand is reached through a
 * chain of views as (base, per-loop-variable coefficients), so `x[:, None] +
 * y[None, :]` reads both bases with stride 0 on the broadcast dim.  arange
 * and constants are expressions, never arrays.
 *
 * Fusion: in a block, consecutive elementwise instructions with one lane
 * shape (OPF_E ops, loads, stores, tile var_sets) form a run, emitted as one
 * loop nest at the position of its last member; a member is a scalar
 * temporary `tN` inside the loop and gets an array only when something
 * outside the run (or a different lane of it) reads it.  Instructions that
 * cannot join a run (reductions, dot, control flow) end it; rank-0 pure
 * instructions between members are emitted in place, before the loop.  A run
 * also ends where fusing would reorder memory effects (a load after a store
 * to the same tensor, ...) or read a member at another lane (trans).
 *
 * Vars live at the top of the program function.  A tile var_get reads the
 * var's storage directly when no var_set of that var can happen between it
 * and its last use (positions in a preorder numbering; a use in a nested
 * loop counts as the whole loop); otherwise it is copied.  The pattern
 * var_get acc -> dot(a, b, acc) -> var_set acc accumulates in place.
 *
 * The emitter is planned in passes over the kernel (positions, liveness,
 * views to materialize, in-place dots, runs and var aliases to a fixed
 * point, arrays), then printed in one walk.  Integer arithmetic wraps
 * through unsigned types, division by zero gives 0, float-to-int casts
 * saturate: the generated code has no undefined behaviour on any input.
 */
#include <math.h>
#include <string.h>

#include "../target.h"
#include "../../lower/pir.h"

/* ------------------------------------------------------------ runtime */

/* Helpers every C kernel may call; printed once per header. */
static const char c_helpers[] =
    "#ifndef TKC_C_HELPERS\n"
    "#define TKC_C_HELPERS 1\n"
    "/* Loops the C target asks to vectorize.  clang reports a forced\n"
    " * vectorization that it cannot do (expf, max reductions) as a warning,\n"
    " * so with clang only sums are forced and the rest is left to its own\n"
    " * vectorizer. */\n"
    "#if defined(__clang__)\n"
    "#define TK_VEC\n"
    "#define TK_VEC_RED(op, x)\n"
    "#else\n"
    "#define TK_VEC TK_SIMD\n"
    "#define TK_VEC_RED(op, x) TK_PRAGMA(omp simd reduction(op:x))\n"
    "#endif\n"
    "#define TK_VEC_SUM(x) TK_PRAGMA(omp simd reduction(+:x))\n"
    "/* float -> int casts saturate; NaN gives 0 */\n"
    "#define TK_DEF_SAT(N, T, LO, HI1, HI) \\\n"
    "    static inline TK_UNUSED T tk_sat_##N(double x) \\\n"
    "    { return x != x ? (T)0 : x <= (double)(LO) ? (T)(LO) : x >= (HI1) ? (T)(HI) : (T)x; }\n"
    "TK_DEF_SAT(i8, int8_t, INT8_MIN, 128.0, INT8_MAX)\n"
    "TK_DEF_SAT(i16, int16_t, INT16_MIN, 32768.0, INT16_MAX)\n"
    "TK_DEF_SAT(i32, int32_t, INT32_MIN, 2147483648.0, INT32_MAX)\n"
    "TK_DEF_SAT(i64, int64_t, INT64_MIN, 9223372036854775808.0, INT64_MAX)\n"
    "TK_DEF_SAT(u8, uint8_t, 0, 256.0, UINT8_MAX)\n"
    "TK_DEF_SAT(u32, uint32_t, 0, 4294967296.0, UINT32_MAX)\n"
    "/* integer division: x / 0 == 0, MIN / -1 == MIN, x % 0 == 0 */\n"
    "#define TK_DEF_DIV(N, T, MIN) \\\n"
    "    static inline TK_UNUSED T tk_div_##N(T a, T b) \\\n"
    "    { return b == 0 ? (T)0 : (b == (T)-1 && a == MIN) ? a : (T)(a / b); } \\\n"
    "    static inline TK_UNUSED T tk_mod_##N(T a, T b) \\\n"
    "    { return (b == 0 || b == (T)-1) ? (T)0 : (T)(a % b); }\n"
    "#define TK_DEF_UDIV(N, T) \\\n"
    "    static inline TK_UNUSED T tk_div_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \\\n"
    "    static inline TK_UNUSED T tk_mod_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }\n"
    "TK_DEF_DIV(i8, int8_t, INT8_MIN)\n"
    "TK_DEF_DIV(i16, int16_t, INT16_MIN)\n"
    "TK_DEF_DIV(i32, int32_t, INT32_MIN)\n"
    "TK_DEF_DIV(i64, int64_t, INT64_MIN)\n"
    "TK_DEF_UDIV(u8, uint8_t)\n"
    "TK_DEF_UDIV(u32, uint32_t)\n"
    "TK_DEF_UDIV(bool, bool)\n"
    "/* atomic_add of floats and atomic_max: a compare-and-swap loop on the\n"
    " * element (atomic_add of integers is __atomic_fetch_add); relaxed, or\n"
    " * acq_rel where atomic_add is used as a value (tk_fetch_add_*: the old element) */\n"
    "#define TK_DEF_CAS_ADD(F, T, ORDER) \\\n"
    "    static inline TK_UNUSED T F(T *p, T v) \\\n"
    "    { T o, n; __atomic_load(p, &o, __ATOMIC_RELAXED); \\\n"
    "      do n = o + v; while (!__atomic_compare_exchange(p, &o, &n, 1, ORDER, __ATOMIC_RELAXED)); \\\n"
    "      return o; }\n"
    "#define TK_DEF_ATOMIC_MAX(N, T) \\\n"
    "    static inline TK_UNUSED void tk_atomic_max_##N(T *p, T v) \\\n"
    "    { T o; __atomic_load(p, &o, __ATOMIC_RELAXED); \\\n"
    "      while (v > o && !__atomic_compare_exchange(p, &o, &v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {} }\n"
    "TK_DEF_CAS_ADD(tk_atomic_add_f32, float, __ATOMIC_RELAXED)\n"
    "TK_DEF_CAS_ADD(tk_atomic_add_f64, double, __ATOMIC_RELAXED)\n"
    "TK_DEF_CAS_ADD(tk_fetch_add_f32, float, __ATOMIC_ACQ_REL)\n"
    "TK_DEF_CAS_ADD(tk_fetch_add_f64, double, __ATOMIC_ACQ_REL)\n"
    "TK_DEF_ATOMIC_MAX(i32, int32_t)\n"
    "TK_DEF_ATOMIC_MAX(u32, uint32_t)\n"
    "TK_DEF_ATOMIC_MAX(i64, int64_t)\n"
    "TK_DEF_ATOMIC_MAX(f32, float)\n"
    "TK_DEF_ATOMIC_MAX(f64, double)\n"
    "\n"
    "/* dot: C[M,N] += A[M,K] B[K,N], all row-major and contiguous.  f32 has a\n"
    " * register-blocked micro-kernel: TK_MR rows x 2 vectors of C held in\n"
    " * registers while k runs. */\n"
    "#if defined(__AVX512F__)\n"
    "#include <immintrin.h>\n"
    "typedef __m512 tk_vf;\n"
    "#define TK_VW 16\n"
    "#define TK_MR 8\n"
    "#define tk_vld(p) _mm512_loadu_ps(p)\n"
    "#define tk_vst(p, v) _mm512_storeu_ps((p), (v))\n"
    "#define tk_vfma(a, b, c) _mm512_fmadd_ps(_mm512_set1_ps(a), (b), (c))\n"
    "#elif defined(__AVX2__) && defined(__FMA__)\n"
    "#include <immintrin.h>\n"
    "typedef __m256 tk_vf;\n"
    "#define TK_VW 8\n"
    "#define TK_MR 6\n"
    "#define tk_vld(p) _mm256_loadu_ps(p)\n"
    "#define tk_vst(p, v) _mm256_storeu_ps((p), (v))\n"
    "#define tk_vfma(a, b, c) _mm256_fmadd_ps(_mm256_set1_ps(a), (b), (c))\n"
    "#elif defined(__GNUC__)\n"
    "typedef float tk_vf __attribute__((vector_size(16)));\n"
    "#define TK_VW 4\n"
    "#define TK_MR 6\n"
    "static inline TK_UNUSED tk_vf tk_vld(const float *p) { tk_vf v; memcpy(&v, p, sizeof v); return v; }\n"
    "#define tk_vst(p, v) do { tk_vf tk_v_ = (v); memcpy((p), &tk_v_, sizeof tk_v_); } while (0)\n"
    "#define tk_vfma(a, b, c) ((c) + (tk_vf){(a), (a), (a), (a)} * (b))\n"
    "#endif\n"
    "#ifdef TK_VW\n"
    "#define TK_NR (2 * TK_VW)\n"
    "#define TK_MK_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) TK_MK_ROWS8(X)\n"
    "#if TK_MR == 8\n"
    "#define TK_MK_ROWS8(X) X(6) X(7)\n"
    "#else\n"
    "#define TK_MK_ROWS8(X)\n"
    "#endif\n"
    "/* TK_MR x TK_NR block of C at c (row stride ldc) */\n"
    "static inline TK_UNUSED void tk_mk_f32(int K, const float *restrict a, int lda,\n"
    "                                       const float *restrict b, int ldb, float *restrict c, int ldc)\n"
    "{\n"
    "#define TK_MK_LD(r) tk_vf c##r##0 = tk_vld(c + r * ldc), c##r##1 = tk_vld(c + r * ldc + TK_VW);\n"
    "    TK_MK_ROWS(TK_MK_LD)\n"
    "    for (int k = 0; k < K; k++) {\n"
    "        const tk_vf b0 = tk_vld(b + (size_t)k * ldb), b1 = tk_vld(b + (size_t)k * ldb + TK_VW);\n"
    "#define TK_MK_FMA(r) { const float ar = a[r * lda + k]; c##r##0 = tk_vfma(ar, b0, c##r##0); \\\n"
    "                     c##r##1 = tk_vfma(ar, b1, c##r##1); }\n"
    "        TK_MK_ROWS(TK_MK_FMA)\n"
    "    }\n"
    "#define TK_MK_ST(r) tk_vst(c + r * ldc, c##r##0); tk_vst(c + r * ldc + TK_VW, c##r##1);\n"
    "    TK_MK_ROWS(TK_MK_ST)\n"
    "}\n"
    "#endif\n"
    "/* the rest: rows i0.., columns j0.. of C, plain loops */\n"
    "#define TK_DEF_DOT_EDGE(N, T) \\\n"
    "    static inline TK_UNUSED void tk_dot_edge_##N(int i0, int M, int j0, int N, int K, \\\n"
    "        const T *restrict A, const T *restrict B, T *restrict C) \\\n"
    "    { \\\n"
    "        for (int i = i0; i < M; i++) \\\n"
    "            for (int k = 0; k < K; k++) { \\\n"
    "                const T a = A[(ptrdiff_t)i * K + k]; \\\n"
    "                TK_VEC \\\n"
    "                for (int j = j0; j < N; j++) \\\n"
    "                    C[(ptrdiff_t)i * N + j] += a * B[(ptrdiff_t)k * N + j]; \\\n"
    "            } \\\n"
    "    }\n"
    "TK_DEF_DOT_EDGE(f32, float)\n"
    "TK_DEF_DOT_EDGE(f64, double)\n"
    "static inline TK_UNUSED void tk_dot_edge_i32(int i0, int M, int j0, int N, int K,\n"
    "    const int32_t *restrict A, const int32_t *restrict B, int32_t *restrict C)\n"
    "{\n"
    "    for (int i = i0; i < M; i++)\n"
    "        for (int k = 0; k < K; k++) {\n"
    "            const uint32_t a = (uint32_t)A[(ptrdiff_t)i * K + k];\n"
    "            TK_VEC\n"
    "            for (int j = j0; j < N; j++)\n"
    "                C[(ptrdiff_t)i * N + j] = (int32_t)((uint32_t)C[(ptrdiff_t)i * N + j] + a * (uint32_t)B[(ptrdiff_t)k * N + j]);\n"
    "        }\n"
    "}\n"
    "/* x rounded to tf32 (10 mantissa bits): to nearest, ties to even */\n"
    "static inline TK_UNUSED float tk_tf32(float x)\n"
    "{\n"
    "    uint32_t u;\n"
    "    memcpy(&u, &x, sizeof u);\n"
    "    if ((u & 0x7f800000u) != 0x7f800000u)\n"
    "        u = (u + 0xfffu + (u >> 13 & 1u)) & 0xffffe000u;\n"
    "    memcpy(&x, &u, sizeof x);\n"
    "    return x;\n"
    "}\n"
    "static inline TK_UNUSED void tk_dot_f32(int M, int N, int K, const float *restrict A,\n"
    "                                        const float *restrict B, float *restrict C)\n"
    "{\n"
    "    int m = 0;\n"
    "#ifdef TK_VW\n"
    "    const int n = N - N % TK_NR;\n"
    "    for (; m + TK_MR <= M; m += TK_MR)\n"
    "        for (int j = 0; j < n; j += TK_NR)\n"
    "            tk_mk_f32(K, A + (ptrdiff_t)m * K, K, B + j, N, C + (ptrdiff_t)m * N + j, N);\n"
    "    if (n < N)\n"
    "        tk_dot_edge_f32(0, m, n, N, K, A, B, C);\n"
    "#endif\n"
    "    tk_dot_edge_f32(m, M, 0, N, K, A, B, C);\n"
    "}\n"
    "static inline TK_UNUSED void tk_dot_f64(int M, int N, int K, const double *restrict A,\n"
    "                                        const double *restrict B, double *restrict C)\n"
    "{\n"
    "    tk_dot_edge_f64(0, M, 0, N, K, A, B, C);\n"
    "}\n"
    "static inline TK_UNUSED void tk_dot_i32(int M, int N, int K, const int32_t *restrict A,\n"
    "                                        const int32_t *restrict B, int32_t *restrict C)\n"
    "{\n"
    "    tk_dot_edge_i32(0, M, 0, N, K, A, B, C);\n"
    "}\n"
    "#endif /* TKC_C_HELPERS */\n";

/* ------------------------------------------------------------ state */

typedef enum { CL_SKIP, CL_SCALAR, CL_LANE, CL_BREAK } Class;

typedef struct Run {
    TTy shape;               /* the lane shape (dt unused) */
    Vec(int) members;
    int last;                /* the member whose position prints the loop */
} Run;

typedef struct Use { int user; bool ident; } Use;

/* How an operand is reached from a loop nest: the value holding the data
 * and the linear index into it, as coefficients of the loop variables. */
typedef int64_t Rows[TIR_MAXRANK][TIR_MAXRANK];

typedef struct Acc {
    int base;
    bool ident;              /* lane for lane: rows are the identity */
    bool lin;                /* reached through a reshape: only c is known */
    int64_t c[TIR_MAXRANK];
    Rows r;                  /* the base's index rows (when !lin) */
} Acc;

typedef struct CE {
    TirKernel *k;
    const KernelInfo *ki;
    Arena *a;
    Buf *o;
    Diag *d;
    bool ok;
    int n;                   /* value ids are 1 .. n-1 */
    int *pos, *end;          /* preorder position; last position in the subtree */
    bool *live;
    Vec(Use) *uses;          /* per base value: live users */
    int *run;                /* run index or -1 */
    int *nrun_uses;          /* uses by members of the same run */
    bool *array;             /* has array storage, named store[v] */
    const char **store;
    bool *alias;             /* tile var_get reading the var's storage */
    bool *mat;               /* view copied into an array */
    bool *inplace;           /* dot into the var that the next var_set writes */
    bool *skipset;           /* var_set made redundant by an in-place dot */
    bool *recomp;            /* integer index arithmetic: an expression at each use */
    bool *norecomp;
    Vec(Run) runs;
    const char **pname;      /* C names: params, dims, strides */
    const char **dname;
    const char ***sname;
    int indent;
    bool entry;              /* printing the launcher: values are head values */
} CE;

static Instr *I(const CE *e, int v) { return e->k->instrs.v[v]; }
static const TTy *ty(const CE *e, int v) { return &e->k->instrs.v[v]->ty; }

static bool is_view(Op op)
{
    return op == OP_BROADCAST || op == OP_EXPAND_DIMS || op == OP_RESHAPE || op == OP_TRANS;
}

static void fail(CE *e, const Instr *in, const char *what)
{
    if (e->ok)
        diag_error(e->d, in ? in->span : (Span){0}, "C target: %s%s%s", what,
                   in ? " in " : "", in ? op_name[in->op] : "");
    e->ok = false;
}

#define line(e, ...) buf_linef((e)->o, (e)->indent, __VA_ARGS__)

#define S(...) arena_printf(e->a, __VA_ARGS__)

/* ------------------------------------------------------------ C types */

static const char *ct(DType dt) { return dtype_info[dt].c_compute; }
static const char *st(DType dt) { return dtype_info[dt].c_storage; }
static bool is_f64(DType dt) { return dt == DT_F64; }
static const char *ut(DType dt) { return dtype_info[dt].bits == 64 ? "uint64_t" : "uint32_t"; }

static void row_strides(const TTy *t, int64_t *s)
{
    int64_t m = 1;
    for (int d = t->rank - 1; d >= 0; d--) {
        s[d] = m;
        m *= t->dim[d];
    }
}

static bool same_shape(const TTy *a, const TTy *b)
{
    if (a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dim[i] != b->dim[i])
            return false;
    return true;
}

/* Literals and conversions: targets/expr.c, with the C target's tk_ helpers. */
static char *lit_float(CE *e, double v, DType dt) { return cx_lit_float(e->a, v, dt); }
static char *lit_int(CE *e, int64_t v, DType dt) { return cx_lit_int(e->a, v, dt); }
static char *lit_zero(CE *e, DType dt) { return cx_lit_zero(e->a, dt); }
static char *from_storage(CE *e, const char *x, DType dt) { return cx_from_storage(e->a, x, dt); }

static char *conv(CE *e, const char *x, DType from, DType to)
{
    return cx_conv(e->a, x, from, to, "tk_");
}

static char *to_storage(CE *e, const char *x, DType from, DType to)
{
    return cx_to_storage(e->a, x, from, to, "tk_");
}

/* ------------------------------------------------------------ names */

static const char *const reserved[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "bool", "true", "false", "NULL",
    "INFINITY", "NAN", "alignas", "alignof", "noreturn", "static_assert", "thread_local", "asm",
    "typeof", "exp", "expf", "exp2", "exp2f", "log", "logf", "log2", "log2f", "sqrt", "sqrtf",
    "sin", "sinf", "cos", "cosf", "tanh", "tanhf", "erf", "erff", "fabs", "fabsf", "floor",
    "floorf", "ceil", "ceilf", "fmin", "fminf", "fmax", "fmaxf", "fmod", "fmodf", "pow", "powf",
    "fma", "fmaf", "lrintf", "memcpy", "memset", "main", "errno", "assert", "stdin", "stdout",
    "stderr", "va_list", "size_t", "ptrdiff_t", "PTRDIFF_MAX", "EOF",
};

/* Internal names are `tk_...` or lowercase letters and digits (v12, i0):
 * a user name that could meet one of those, a keyword or a libm function
 * gets a trailing underscore. */
static bool name_clashes(const char *s)
{
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (strcmp(s, reserved[i]) == 0)
            return true;
    if (s[0] == '_' || strncmp(s, "tk_", 3) == 0 || strncmp(s, "TK_", 3) == 0)
        return true;
    size_t n = strlen(s);
    if (n > 2 && strcmp(s + n - 2, "_t") == 0)
        return true;
    const char *p = s;
    while (*p >= 'a' && *p <= 'z')
        p++;
    if (p == s || !*p)
        return false;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == 0;
}

static bool name_taken(CE *e, const char *s, int np, int nd)
{
    for (int i = 0; i < np; i++)
        if (e->pname[i] && strcmp(e->pname[i], s) == 0)
            return true;
    for (int i = 0; i < nd; i++)
        if (e->dname[i] && strcmp(e->dname[i], s) == 0)
            return true;
    for (int i = 0; i < e->ki->nparams; i++)
        for (int j = 0; e->sname[i] && j < e->ki->params[i].rank; j++)
            if (e->sname[i][j] && strcmp(e->sname[i][j], s) == 0)
                return true;
    return false;
}

static const char *c_name(CE *e, const char *s, int np, int nd)
{
    const char *r = s;
    if (name_clashes(r))
        r = S("%s_", r);
    while (name_taken(e, r, np, nd))
        r = S("%s_", r);
    return r;
}

static void name_params(CE *e)
{
    const KernelInfo *ki = e->ki;
    e->pname = arena_alloc(e->a, sizeof(char *) * (size_t)(ki->nparams + 1));
    e->dname = arena_alloc(e->a, sizeof(char *) * (size_t)(ki->ndims + 1));
    e->sname = arena_alloc(e->a, sizeof(char **) * (size_t)(ki->nparams + 1));
    for (int i = 0; i < ki->nparams; i++)
        e->pname[i] = c_name(e, ki->params[i].name, i, 0);
    for (int i = 0; i < ki->ndims; i++)
        e->dname[i] = c_name(e, ki->dims[i].name, ki->nparams, i);
    for (int i = 0; i < ki->nparams; i++) {
        const ParamInfo *p = &ki->params[i];
        if (!p->is_tensor || !p->strided)
            continue;
        e->sname[i] = arena_alloc(e->a, sizeof(char *) * (size_t)(p->rank + 1));
        for (int j = 0; j < p->rank; j++)
            e->sname[i][j] = c_name(e, S("%s_stride%d", ki->params[i].name, j), ki->nparams,
                                    ki->ndims);
    }
}

/* ------------------------------------------------------------ views */

/* Rows for an operand of type t read in a loop nest over `lane`:
 * NumPy alignment from the right, size-1 dims broadcast. */
static void lane_rows(const TTy *t, const TTy *lane, Rows r)
{
    memset(r, 0, sizeof(Rows));
    int off = lane->rank - t->rank;
    for (int d = 0; d < t->rank; d++)
        if (d + off >= 0 && !(t->dim[d] == 1 && lane->dim[d + off] != 1))
            r[d][d + off] = 1;
}

static bool rows_ident(const TTy *t, int nl, Rows r)
{
    if (t->rank != nl)
        return false;
    for (int d = 0; d < nl; d++)
        for (int j = 0; j < nl; j++) {
            int64_t want = d == j;
            if (r[d][j] != want && !(t->dim[d] == 1 && r[d][j] == 0))
                return false;
        }
    return true;
}

static void linear(const TTy *t, int nl, Rows r, int64_t *c)
{
    int64_t s[TIR_MAXRANK];
    row_strides(t, s);
    for (int j = 0; j < nl; j++) {
        c[j] = 0;
        for (int d = 0; d < t->rank; d++)
            c[j] += s[d] * r[d][j];
    }
}

static bool stops(const CE *e, int v)
{
    return !is_view(I(e, v)->op) || e->mat[v] || e->array[v];
}

/* Follow views from v (read through rows r over nl loop variables) to the
 * value holding the data.  through: do not stop at v itself (materializing
 * it). */
static Acc resolve(const CE *e, int v, int nl, Rows rin, bool through)
{
    Rows r;
    memcpy(r, rin, sizeof r);
    Acc acc = { .base = v };
    bool lin = false;
    int64_t c[TIR_MAXRANK] = { 0 };
    for (;;) {
        const Instr *in = I(e, v);
        if (!(through && v == acc.base && !lin) && stops(e, v))
            break;
        through = false;
        int u = in->args[0];
        const TTy *ut_ = ty(e, u);
        if (lin) {                         /* only reshapes pass a linear index on */
            if (in->op != OP_RESHAPE || e->mat[v])
                break;
            v = u;
            continue;
        }
        Rows nr;
        memset(nr, 0, sizeof nr);
        switch (in->op) {
        case OP_BROADCAST:
            for (int d = 0; d < ut_->rank; d++)
                if (!(ut_->dim[d] == 1 && in->ty.dim[d] != 1))
                    memcpy(nr[d], r[d], sizeof nr[d]);
            break;
        case OP_EXPAND_DIMS:
            for (int d = 0, s = 0; d < in->ty.rank; d++)
                if (d != in->axis)
                    memcpy(nr[s++], r[d], sizeof nr[0]);
            break;
        case OP_TRANS:
            for (int i = 0; i < in->ty.rank; i++)
                if (in->perm[i] >= 0 && in->perm[i] < TIR_MAXRANK)
                    memcpy(nr[in->perm[i]], r[i], sizeof nr[0]);
            break;
        default:                           /* RESHAPE */
            if (tty_same_but_ones(ut_, &in->ty)) {
                for (int d = 0, s = 0; d < ut_->rank; d++) {
                    if (ut_->dim[d] == 1)
                        continue;
                    while (in->ty.dim[s] == 1)
                        s++;
                    memcpy(nr[d], r[s++], sizeof nr[0]);
                }
                break;
            }
            linear(&in->ty, nl, r, c);
            lin = true;
            break;
        }
        memcpy(r, nr, sizeof r);
        v = u;
    }
    acc.base = v;
    acc.lin = lin;
    if (lin) {
        memcpy(acc.c, c, sizeof c);
        acc.ident = false;
    } else {
        memcpy(acc.r, r, sizeof r);
        linear(ty(e, v), nl, r, acc.c);
        acc.ident = rows_ident(ty(e, v), nl, r);
    }
    return acc;
}

/* ------------------------------------------------------------ planning */

static void number(CE *e, TBlock *b, int *p)
{
    for (int i = 0; i < b->ins.n; i++) {
        int v = b->ins.v[i];
        Instr *in = I(e, v);
        e->pos[v] = (*p)++;
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                number(e, in->blocks[j], p);
        e->end[v] = *p - 1;
    }
}

/* The shape a lane instruction iterates over. */
static const TTy *lane_shape(const CE *e, const Instr *in)
{
    if (in->op == OP_STORE || in->op == OP_ATOMIC || in->op == OP_PRINT)
        return ty(e, in->args[0]);
    if (in->op == OP_VAR_SET)
        return &e->k->vars.v[in->index].ty;
    return &in->ty;
}

static bool var_is_tile(const CE *e, int var)
{
    return var >= 0 && var < e->k->vars.n && e->k->vars.v[var].ty.rank > 0;
}

static Class classify(const CE *e, const Instr *in)
{
    Op op = in->op;
    if (op == OP_LOOPVAR)
        return CL_SKIP;
    if (!e->live[in->id] && !tir_is_root(op))
        return CL_SKIP;
    if (op == OP_CONST || op == OP_ARANGE || e->recomp[in->id])
        return CL_SKIP;
    if (is_view(op))
        return e->mat[in->id] ? CL_BREAK : CL_SKIP;
    if (op == OP_VAR_GET)
        return !var_is_tile(e, in->index) ? CL_SCALAR : e->alias[in->id] ? CL_SKIP : CL_BREAK;
    if (op == OP_VAR_SET) {
        if (e->skipset[in->id])
            return CL_SKIP;
        return var_is_tile(e, in->index) ? CL_LANE : CL_SCALAR;
    }
    if (op == OP_DIM || op == OP_ARG || op == OP_STRIDE || op == OP_PROGRAM_ID)
        return CL_SCALAR;
    if (op_flags[op] & OPF_E)
        return in->ty.rank == 0 ? CL_SCALAR : CL_LANE;
    if (op == OP_LOAD)
        return in->ty.rank == 0 ? CL_BREAK : CL_LANE;
    if (op == OP_STORE || op == OP_ATOMIC)
        return ty(e, in->args[0])->rank == 0 ? CL_BREAK : CL_LANE;
    if (op == OP_PRINT)
        return in->args[0] > 0 && ty(e, in->args[0])->rank > 0 ? CL_LANE : CL_BREAK;
    return CL_BREAK;
}

static Acc operand(const CE *e, int v, const TTy *lane)
{
    Rows r;
    lane_rows(ty(e, v), lane, r);
    return resolve(e, v, lane->rank, r, false);
}

/* May `in` join run r without changing what the program computes? */
static bool heavy_math(const Instr *in)
{
    switch (in->op) {
    case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_TANH: case OP_ERF: case OP_SIGMOID:
        return !is_f64(in->ty.dt);
    default:
        return false;
    }
}

static bool masked_mem(const Instr *in)
{
    return (in->op == OP_LOAD && in->args[1] > 0) || (in->op == OP_STORE && in->args[2] > 0);
}

/* An atomic's or a print's loop holds nothing else: no simd (an atomic's
 * lanes may update one element; a print's lines keep their order), and no
 * load of an atomic's tensor moves across it. */
static bool alone(Op op) { return op == OP_ATOMIC || op == OP_PRINT; }

static bool alone_run(const CE *e, const Run *r)
{
    for (int i = 0; i < r->members.n; i++)
        if (alone(I(e, r->members.v[i])->op))
            return true;
    return false;
}

static bool fits(const CE *e, const Run *r, const Instr *in)
{
    if (!same_shape(&r->shape, lane_shape(e, in)) || alone(in->op) || alone_run(e, r))
        return false;
    /* gcc does not vectorize a loop where the vmath functions meet a masked
     * load or store ("control flow in loop"): keep them in separate loops. */
    for (int i = 0; i < r->members.n; i++) {
        const Instr *m = I(e, r->members.v[i]);
        if ((heavy_math(in) && masked_mem(m)) || (masked_mem(in) && heavy_math(m)))
            return false;
    }
    for (int j = 0; j < in->nargs; j++) {
        int v = in->args[j];
        if (v <= 0 || ty(e, v)->rank == 0)
            continue;
        Acc acc = operand(e, v, &r->shape);
        if (e->run[acc.base] == (int)(r - e->runs.v) && !acc.ident)
            return false;
    }
    for (int i = 0; i < r->members.n; i++) {
        const Instr *m = I(e, r->members.v[i]);
        if (in->op == OP_LOAD && m->op == OP_STORE && m->index == in->index)
            return false;
        if (in->op == OP_STORE && m->op == OP_STORE && m->index == in->index)
            return false;
        if (in->op == OP_STORE && m->op == OP_LOAD && m->index == in->index
            && m->args[0] != in->args[0])
            return false;
        if (in->op == OP_VAR_SET && m->op == OP_VAR_SET && m->index == in->index)
            return false;
    }
    return true;
}

static void plan_runs(CE *e, TBlock *b)
{
    int cur = -1;
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = I(e, b->ins.v[i]);
        Class c = classify(e, in);
        if (c == CL_LANE) {
            if (cur < 0 || !fits(e, &e->runs.v[cur], in)) {
                Run r = { .shape = *lane_shape(e, in) };
                vec_push(e->a, e->runs, r);
                cur = e->runs.n - 1;
            }
            vec_push(e->a, e->runs.v[cur].members, in->id);
            e->runs.v[cur].last = in->id;
            e->run[in->id] = cur;
        } else if (c == CL_BREAK) {
            cur = -1;
        }
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                plan_runs(e, in->blocks[j]);
    }
}

static void add_use(CE *e, int base, int user, bool ident)
{
    Use u = { user, ident };
    vec_push(e->a, e->uses[base], u);
}

/* Who reads each base value, through views. */
static void collect_uses(CE *e)
{
    for (int v = 1; v < e->n; v++) {
        Instr *in = I(e, v);
        if (!e->live[v] || (is_view(in->op) && !e->mat[v]))
            continue;
        if (is_view(in->op)) {             /* a materialized view reads its source */
            Rows r;
            lane_rows(&in->ty, &in->ty, r);
            Acc acc = resolve(e, v, in->ty.rank, r, true);
            add_use(e, acc.base, v, false);
            continue;
        }
        const TTy *lane = classify(e, in) == CL_LANE ? lane_shape(e, in) : NULL;
        for (int j = 0; j < in->nargs; j++) {
            int a = in->args[j];
            if (a <= 0)
                continue;
            Acc acc = operand(e, a, lane ? lane : ty(e, a));
            add_use(e, acc.base, v, lane && acc.ident);
        }
    }
}

/* Position at which a use happens, seen from the block `home`. */
static int use_pos(const CE *e, int user, const TBlock *home)
{
    int p = e->run[user] >= 0 ? e->pos[e->runs.v[e->run[user]].last] : e->pos[user];
    const Instr *x = I(e, user);
    while (x->parent && x->parent != home && x->parent->owner)
        x = x->parent->owner;
    if (x->id != user && e->end[x->id] > p)
        p = e->end[x->id];
    return p;
}

/* var_get g ... var_set w in one fused run, every use of g reading the
 * lane being computed: lane i is read before it is written (acc = acc + x). */
static bool same_lane_update(const CE *e, int g, int w)
{
    int r = e->run[w];
    if (r < 0)
        return false;
    for (int i = 0; i < e->uses[g].n; i++)
        if (e->run[e->uses[g].v[i].user] != r || !e->uses[g].v[i].ident)
            return false;
    return true;
}

static bool alias_ok(const CE *e, int g)
{
    const Instr *gi = I(e, g);
    int hi = e->pos[g];
    for (int i = 0; i < e->uses[g].n; i++) {
        int p = use_pos(e, e->uses[g].v[i].user, gi->parent);
        if (p > hi)
            hi = p;
    }
    for (int v = 1; v < e->n; v++) {
        const Instr *w = I(e, v);
        if (e->live[v] && w->op == OP_VAR_SET && w->index == gi->index && e->pos[v] > e->pos[g]
            && e->pos[v] <= hi && !same_lane_update(e, g, v))
            return false;
    }
    return true;
}

/* Does operand v of a dot read var `var`'s storage? */
static bool reads_var(const CE *e, int v, int var)
{
    Rows r;
    lane_rows(ty(e, v), ty(e, v), r);
    Acc acc = resolve(e, v, ty(e, v)->rank, r, false);
    const Instr *b = I(e, acc.base);
    return b->op == OP_VAR_GET && b->index == var;
}

/* var_get acc -> dot(a, b, acc) -> var_set acc, nothing between. */
static void plan_inplace(CE *e, TBlock *b)
{
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = I(e, b->ins.v[i]);
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                plan_inplace(e, in->blocks[j]);
        if (in->op != OP_DOT || !e->live[in->id])
            continue;
        int g = in->args[2];
        if (g <= 0 || I(e, g)->op != OP_VAR_GET || !var_is_tile(e, I(e, g)->index)
            || e->uses[g].n != 1 || e->uses[in->id].n != 1)
            continue;
        int var = I(e, g)->index;
        const Instr *set = NULL;
        for (int k = i + 1; k < b->ins.n && !set; k++) {
            const Instr *x = I(e, b->ins.v[k]);
            Class c = classify(e, x);
            if (x->op == OP_VAR_SET)
                set = x;
            else if (c != CL_SKIP && c != CL_SCALAR)
                break;
        }
        if (!set || set->index != var || set->args[0] != in->id
            || !same_shape(&in->ty, &e->k->vars.v[var].ty) || in->ty.dt != e->k->vars.v[var].ty.dt
            || reads_var(e, in->args[0], var) || reads_var(e, in->args[1], var) || !alias_ok(e, g))
            continue;
        e->inplace[in->id] = true;
        e->skipset[set->id] = true;
    }
}

static void plan_arrays(CE *e)
{
    for (int v = 1; v < e->n; v++) {
        Instr *in = I(e, v);
        if (!e->live[v])
            continue;
        if (e->run[v] >= 0 && in->op != OP_STORE && in->op != OP_VAR_SET) {
            for (int i = 0; i < e->uses[v].n; i++) {
                Use u = e->uses[v].v[i];
                if (e->run[u.user] == e->run[v] && u.ident)
                    e->nrun_uses[v]++;
                else
                    e->array[v] = true;
            }
        } else if (in->op == OP_VAR_GET && var_is_tile(e, in->index)) {
            e->array[v] = true;
            if (e->alias[v])
                e->store[v] = S("var%d", in->index);
        } else if (in->op == OP_DOT) {
            e->array[v] = true;
            if (e->inplace[v])
                e->store[v] = S("var%d", I(e, in->args[2])->index);
        } else if (e->mat[v] || in->op == OP_CUMSUM || (in->op == OP_REDUCE && in->ty.rank > 0)) {
            e->array[v] = true;
        }
        if (e->array[v] && !e->store[v])
            e->store[v] = S("v%d", v);
    }
}

/* Integer and bool elementwise values built from aranges and scalars
 * (offsets, masks) cost less to recompute at each use than to keep in an
 * array, and recomputed they stay affine in the loop variables, so loads
 * and stores through them vectorize.  Small trees only. */
static void plan_recomp(CE *e)
{
    int *cost = arena_alloc(e->a, sizeof(int) * (size_t)e->n);
    for (bool changed = true; changed;) {
        changed = false;
        for (int v = 1; v < e->n; v++) {
            Instr *in = I(e, v);
            if (e->recomp[v] || e->norecomp[v] || !e->live[v] || !(op_flags[in->op] & OPF_E)
                || in->ty.rank == 0 || dtype_is_float(in->ty.dt))
                continue;
            int c = 1;
            bool ok = true;
            for (int j = 0; j < in->nargs && ok; j++) {
                if (in->args[j] <= 0)
                    continue;
                Acc acc = operand(e, in->args[j], &in->ty);
                const Instr *b = I(e, acc.base);
                if (acc.lin)
                    ok = false;
                else if (e->recomp[acc.base])
                    c += cost[acc.base];
                else
                    ok = b->op == OP_ARANGE || b->op == OP_CONST || b->ty.rank == 0;
            }
            if (ok && c <= 24) {
                e->recomp[v] = true;
                cost[v] = c;
                changed = true;
            }
        }
    }
}

static void plan(CE *e)
{
    int n = e->n;
    e->pos = arena_alloc(e->a, sizeof(int) * (size_t)n);
    e->end = arena_alloc(e->a, sizeof(int) * (size_t)n);
    e->live = tir_live(e->a, e->k);
    e->uses = arena_alloc(e->a, sizeof *e->uses * (size_t)n);
    e->run = arena_alloc(e->a, sizeof(int) * (size_t)n);
    e->nrun_uses = arena_alloc(e->a, sizeof(int) * (size_t)n);
    e->array = arena_alloc(e->a, (size_t)n);
    e->store = arena_alloc(e->a, sizeof(char *) * (size_t)n);
    e->alias = arena_alloc(e->a, (size_t)n);
    e->mat = arena_alloc(e->a, (size_t)n);
    e->inplace = arena_alloc(e->a, (size_t)n);
    e->skipset = arena_alloc(e->a, (size_t)n);
    e->recomp = arena_alloc(e->a, (size_t)n);
    e->norecomp = arena_alloc(e->a, (size_t)n);
    int p = 0;
    number(e, e->k->body, &p);
    for (int v = 1; v < n; v++) {
        e->run[v] = -1;
        Instr *in = I(e, v);
        if (!e->live[v])
            continue;
        if (in->op == OP_RESHAPE && !tty_same_but_ones(ty(e, in->args[0]), &in->ty)) {
            /* reshape reads its source linearly */
            int u = in->args[0];
            while (I(e, u)->op == OP_RESHAPE)
                u = I(e, u)->args[0];
            if (is_view(I(e, u)->op) && ty(e, u)->rank > 0)
                e->mat[u] = true;
            e->norecomp[u] = true;
        }
        if (in->op == OP_VAR_GET && var_is_tile(e, in->index))
            e->alias[v] = true;
    }
    plan_recomp(e);
    collect_uses(e);
    plan_inplace(e, e->k->body);
    /* Runs and aliases depend on each other; copies only shorten runs, so
     * this settles. */
    for (int iter = 0; iter < 16; iter++) {
        e->runs.n = 0;
        for (int v = 1; v < n; v++)
            e->run[v] = -1;
        plan_runs(e, e->k->body);
        bool changed = false;
        for (int v = 1; v < n; v++)
            if (e->alias[v] && !e->inplace[I(e, v)->args[0]] && !alias_ok(e, v)) {
                bool keep = false;
                for (int w = 1; w < n; w++)    /* an in-place dot's accumulator stays */
                    if (e->inplace[w] && I(e, w)->args[2] == v)
                        keep = true;
                if (!keep) {
                    e->alias[v] = false;
                    changed = true;
                }
            }
        if (!changed)
            break;
    }
    plan_arrays(e);
}

/* ------------------------------------------------------------ expressions */

static char *lin_str(CE *e, const int64_t *c, int nl, const char *const *iv)
{
    Buf b = { .a = e->a };
    for (int j = 0; j < nl; j++) {
        if (c[j] == 0)
            continue;
        if (b.n)
            buf_puts(&b, " + ");
        if (c[j] == 1)
            buf_puts(&b, iv[j]);
        else
            buf_printf(&b, "%lld * %s", (long long)c[j], iv[j]);
    }
    return b.n ? b.s : "0";
}

static char *scalar(CE *e, int v);
static char *op_expr(CE *e, const Instr *in, char **x);
static char *recompute(CE *e, const Acc *acc, int nl, const char *const *iv, int cur_run);

/* The value of acc at the loop variables iv. */
static char *acc_str(CE *e, const Acc *acc, int nl, const char *const *iv, int cur_run)
{
    int v = acc->base;
    const Instr *in = I(e, v);
    if (cur_run >= 0 && e->run[v] == cur_run && e->nrun_uses[v] > 0)
        return S("t%d", v);
    if (e->array[v])
        return S("%s[%s]", e->store[v], lin_str(e, acc->c, nl, iv));
    if (e->recomp[v] && !acc->lin)
        return recompute(e, acc, nl, iv, cur_run);
    if (in->op == OP_ARANGE)
        return S("((int32_t)(%lld + %s))", (long long)in->ival, lin_str(e, acc->c, nl, iv));
    if (in->ty.rank == 0)
        return scalar(e, v);
    fail(e, in, "internal error: a tile value without storage");
    return "0";
}

/* A recomputed value at the loop variables: its operands read through the
 * composition of their broadcast rows with the base's rows. */
static char *recompute(CE *e, const Acc *acc, int nl, const char *const *iv, int cur_run)
{
    const Instr *in = I(e, acc->base);
    char *x[3] = { 0 };
    for (int j = 0; j < in->nargs; j++) {
        int a = in->args[j];
        if (a <= 0)
            continue;
        if (ty(e, a)->rank == 0) {
            x[j] = scalar(e, a);
            continue;
        }
        Rows ro, r;
        lane_rows(ty(e, a), &in->ty, ro);
        memset(r, 0, sizeof r);
        for (int d = 0; d < ty(e, a)->rank; d++)
            for (int k = 0; k < in->ty.rank; k++)
                for (int l = 0; l < nl; l++)
                    r[d][l] += ro[d][k] * acc->r[k][l];
        Acc sub = resolve(e, a, nl, r, false);
        x[j] = acc_str(e, &sub, nl, iv, cur_run);
    }
    return op_expr(e, in, x);
}

static char *scalar(CE *e, int v)
{
    const Instr *in = I(e, v);
    if (in->op == OP_CONST)
        return dtype_is_float(in->ty.dt) ? lit_float(e, in->fval, in->ty.dt)
                                         : lit_int(e, in->ival, in->ty.dt);
    if (is_view(in->op) && !e->array[v]) {
        Rows r;
        memset(r, 0, sizeof r);
        Acc acc = resolve(e, v, 0, r, false);
        return acc_str(e, &acc, 0, NULL, -1);
    }
    if (in->ty.rank > 0) {
        fail(e, in, "internal error: a tile used as a scalar");
        return "0";
    }
    return S("v%d", v);
}

static const char *const loopvars[TIR_MAXRANK] = { "i0", "i1", "i2", "i3" };

/* Operand v of an instruction iterating over `lane` at loop vars i0... */
static char *lane_val(CE *e, int v, const TTy *lane, int cur_run)
{
    if (ty(e, v)->rank == 0)
        return scalar(e, v);
    Acc acc = operand(e, v, lane);
    return acc_str(e, &acc, lane->rank, loopvars, cur_run);
}

/* The float functions: the prelude's vectorizable tk_expf ... where it has
 * one (targets/c/vmath.h), <math.h>'s otherwise. */
static const char *math_fn(Op op, bool dbl)
{
    if (!dbl)
        switch (op) {
        case OP_EXP:     return "tk_expf";
        case OP_EXP2:    return "tk_exp2f";
        case OP_LOG:     return "tk_logf";
        case OP_LOG2:    return "tk_log2f";
        case OP_TANH:    return "tk_tanhf";
        case OP_ERF:     return "tk_erff";
        case OP_SIGMOID: return "tk_sigmoid_f";
        default:         break;
        }
    return cx_math(op, dbl);
}

static const CxStyle c_style = { .hp = "tk_", .math = math_fn };

/* The C expression of an elementwise op on operand expressions x[]. */
static char *op_expr(CE *e, const Instr *in, char **x)
{
    char *r = cx_op(e->a, e->k, in, x, &c_style);
    if (!r) {
        fail(e, in, "unsupported elementwise op");
        return "0";
    }
    return r;
}

static const char *tensor(CE *e, const Instr *in)
{
    if (in->index < 0 || in->index >= e->ki->nparams || !e->ki->params[in->index].is_tensor) {
        fail(e, in, "internal error: not a tensor parameter");
        return "tk_bad";
    }
    return e->pname[in->index];
}

/* A load from operand strings: offs, mask (or NULL), other (or NULL). */
static char *load_expr(CE *e, const Instr *in, char *offs, char *mask, char *other)
{
    DType tdt = e->ki->params[in->index].dt;
    const char *p = tensor(e, in);
    char *v = conv(e, from_storage(e, S("%s[%s]", p, offs), tdt), tdt, in->ty.dt);
    if (!mask)
        return v;
    return S("(%s ? %s : %s)", mask, v, other ? other : lit_zero(e, in->ty.dt));
}

static char *store_stmt(CE *e, const Instr *in, char *offs, char *val, char *mask)
{
    DType tdt = e->ki->params[in->index].dt;
    const char *p = tensor(e, in);
    char *s = S("%s[%s] = %s;", p, offs, to_storage(e, val, ty(e, in->args[1])->dt, tdt));
    return mask ? S("if (%s) %s", mask, s) : s;
}

/* atomic_add / atomic_max of one element (the tensor's dtype: sema allows
 * i32, u32, i64, f32, f64, whose storage is their compute type) */
static char *atomic_stmt(CE *e, const Instr *in, char *offs, char *val, char *mask)
{
    DType tdt = e->ki->params[in->index].dt;
    const char *p = tensor(e, in);
    char *s = in->rkind == RK_SUM && dtype_is_int(tdt)
                  ? S("(void)__atomic_fetch_add(&%s[%s], %s, __ATOMIC_RELAXED);", p, offs, val)
                  : S("tk_atomic_%s_%s(&%s[%s], %s);", in->rkind == RK_MAX ? "max" : "add", dtype_info[tdt].name,
                      p, offs, val);
    return mask ? S("if (%s) %s", mask, s) : s;
}

/* atomic_add of one element used as a value: v<id> = the old element (0
 * where masked), acq_rel: a program is one thread here */
static void fetch_add(CE *e, const Instr *in, char *offs, char *val, char *mask)
{
    DType tdt = e->ki->params[in->index].dt;
    const char *p = tensor(e, in);
    line(e, "%s v%d = 0;", ct(tdt), in->id);
    char *s = dtype_is_int(tdt) ? S("v%d = __atomic_fetch_add(&%s[%s], %s, __ATOMIC_ACQ_REL);", in->id, p, offs, val)
                                : S("v%d = tk_fetch_add_%s(&%s[%s], %s);", in->id, dtype_info[tdt].name, p, offs, val);
    line(e, "%s", mask ? S("if (%s) %s", mask, s) : s);
}

/* print: one line per element, "pid (p0, p1, p2) idx (i0, ..) label: value"
 * (no idx for a scalar, no value without one); idx are the lane loops' */
static char *print_stmt(CE *e, const Instr *in, int rank, char *val)
{
    const char *cast;
    const char *f = pir_print_format(e->a, rank, val ? pir_ty_compute(ty(e, in->args[0])->dt) : PT_VOID, &cast);
    Buf a = { .a = e->a };
    buf_printf(&a, "(long long)tk_pid0, (long long)tk_pid1, (long long)tk_pid2");
    for (int d = 0; d < rank; d++)
        buf_printf(&a, ", i%d", d);
    buf_printf(&a, ", %s", arena_cquote(e->a, in->label));
    if (val)
        buf_printf(&a, ", (%s)(%s)", cast, val);
    return S("printf(\"%s\\n\", %s);", f, a.s);
}

/* ------------------------------------------------------------ statements */

static void open_loops(CE *e, const TTy *t, bool simd)
{
    for (int d = 0; d < t->rank; d++) {
        if (d == t->rank - 1 && simd)
            line(e, "TK_VEC");
        line(e, "for (int i%d = 0; i%d < %lld; i%d++) {", d, d, (long long)t->dim[d], d);
        e->indent++;
    }
}

static void close_loops(CE *e, const TTy *t)
{
    for (int d = 0; d < t->rank; d++) {
        e->indent--;
        line(e, "}");
    }
}

static void declare_array(CE *e, int v)
{
    const Instr *in = I(e, v);
    line(e, "_Alignas(64) %s %s[%lld];", ct(in->ty.dt), e->store[v],
         (long long)tty_numel(&in->ty));
}

static char *ident_lin(CE *e, const TTy *t)
{
    Rows r;
    int64_t c[TIR_MAXRANK];
    lane_rows(t, t, r);
    linear(t, t->rank, r, c);
    return lin_str(e, c, t->rank, loopvars);
}

static void emit_lane(CE *e, int ri, const Instr *in)
{
    const TTy *L = &e->runs.v[ri].shape;
    char *x[3] = { 0 };
    for (int j = 0; j < in->nargs; j++)
        if (in->args[j] > 0)
            x[j] = lane_val(e, in->args[j], L, ri);
    char *val;
    switch (in->op) {
    case OP_STORE:
        line(e, "%s", store_stmt(e, in, x[0], x[1], x[2]));
        return;
    case OP_ATOMIC:
        line(e, "%s", atomic_stmt(e, in, x[0], x[1], x[2]));
        return;
    case OP_PRINT:
        line(e, "%s", print_stmt(e, in, L->rank, x[0]));
        return;
    case OP_VAR_SET:
        line(e, "var%d[%s] = %s;", in->index, ident_lin(e, L), x[0]);
        return;
    case OP_LOAD:
        val = load_expr(e, in, x[0], x[1], x[2]);
        break;
    default:
        val = op_expr(e, in, x);
        break;
    }
    int v = in->id;
    if (e->nrun_uses[v] > 0) {
        line(e, "const %s t%d = %s;", ct(in->ty.dt), v, val);
        val = S("t%d", v);
    }
    if (e->array[v])
        line(e, "%s[%s] = %s;", e->store[v], ident_lin(e, L), val);
}

static void emit_run(CE *e, int ri)
{
    Run *r = &e->runs.v[ri];
    for (int i = 0; i < r->members.n; i++)
        if (e->array[r->members.v[i]])
            declare_array(e, r->members.v[i]);
    open_loops(e, &r->shape, !alone_run(e, r));
    for (int i = 0; i < r->members.n; i++)
        emit_lane(e, ri, I(e, r->members.v[i]));
    close_loops(e, &r->shape);
}

static const char *param_scalar(CE *e, const Instr *in)
{
    if (in->index < 0 || in->index >= e->ki->nparams || e->ki->params[in->index].is_tensor) {
        fail(e, in, "internal error: not a scalar parameter");
        return "0";
    }
    DType dt = e->ki->params[in->index].dt;
    return conv(e, from_storage(e, e->pname[in->index], dt), dt, in->ty.dt);
}

static void emit_scalar(CE *e, const Instr *in)
{
    int v = in->id;
    const char *T = ct(in->ty.dt), *val;
    char *x[3] = { 0 };
    switch (in->op) {
    case OP_VAR_SET:
        line(e, "var%d = %s;", in->index, scalar(e, in->args[0]));
        return;
    case OP_VAR_GET:
        val = S("var%d", in->index);
        break;
    case OP_DIM:
        if (in->index < 0 || in->index >= e->ki->ndims || e->ki->dims[in->index].specialized) {
            fail(e, in, "internal error: not a run-time dim");
            return;
        }
        val = conv(e, e->dname[in->index], DT_I64, in->ty.dt);
        break;
    case OP_ARG:
        val = param_scalar(e, in);
        break;
    case OP_STRIDE:
        if (in->index < 0 || in->index >= e->ki->nparams || !e->sname[in->index]
            || in->axis < 0 || in->axis >= e->ki->params[in->index].rank) {
            fail(e, in, "internal error: not a stride of a strided tensor");
            return;
        }
        val = conv(e, e->sname[in->index][in->axis], DT_I64, in->ty.dt);
        break;
    case OP_PROGRAM_ID:
        if (in->axis < 0 || in->axis > 2) {
            fail(e, in, "program_id axis out of range");
            return;
        }
        val = S("(%s)tk_pid%d", T, in->axis);
        break;
    default:
        for (int j = 0; j < in->nargs; j++)
            if (in->args[j] > 0)
                x[j] = scalar(e, in->args[j]);
        val = op_expr(e, in, x);
        break;
    }
    line(e, "const %s v%d = %s;", T, v, val);
}

/* One loop nest over t reading operand v. */
static char *nest_val(CE *e, int v, const TTy *t, bool through)
{
    Rows r;
    lane_rows(ty(e, v), t, r);
    Acc acc = resolve(e, v, t->rank, r, through);
    return acc_str(e, &acc, t->rank, loopvars, -1);
}

static void emit_copy_view(CE *e, const Instr *in)
{
    declare_array(e, in->id);
    open_loops(e, &in->ty, true);
    line(e, "%s[%s] = %s;", e->store[in->id], ident_lin(e, &in->ty),
         nest_val(e, in->id, &in->ty, true));
    close_loops(e, &in->ty);
}

static const char *red_init(CE *e, ReduceKind rk, DType dt)
{
    bool mx = rk == RK_MAX || rk == RK_ARGMAX;
    if (rk == RK_SUM)
        return lit_zero(e, dt);
    if (dtype_is_float(dt))
        return lit_float(e, mx ? -INFINITY : INFINITY, dt);
    switch (dt) {
    case DT_BOOL: return mx ? "false" : "true";
    case DT_I8:   return mx ? "INT8_MIN" : "INT8_MAX";
    case DT_I16:  return mx ? "INT16_MIN" : "INT16_MAX";
    case DT_I32:  return mx ? "INT32_MIN" : "INT32_MAX";
    case DT_I64:  return mx ? "INT64_MIN" : "INT64_MAX";
    case DT_U8:   return mx ? "0" : "UINT8_MAX";
    default:      return mx ? "0u" : "UINT32_MAX";
    }
}

/* acc = acc (op) x for the reduction kinds that do not track an index. */
static char *red_step(CE *e, ReduceKind rk, DType dt, const char *acc, const char *x)
{
    if (rk == RK_SUM) {
        if (dtype_is_float(dt))
            return S("%s + %s", acc, x);
        return S("(%s)((%s)%s + (%s)%s)", ct(dt), ut(dt), acc, ut(dt), x);
    }
    return S("%s %s %s ? %s : %s", x, rk == RK_MAX ? ">" : "<", acc, x, acc);
}

static void emit_reduce(CE *e, const Instr *in)
{
    int v = in->id, a = in->axis, src = in->args[0];
    const TTy *S_ = ty(e, src);
    DType xdt = S_->dt, rdt = in->ty.dt;
    ReduceKind rk = in->rkind;
    bool arg = rk == RK_ARGMAX || rk == RK_ARGMIN;
    DType adt = arg ? xdt : rdt;             /* accumulator type */
    if (a < 0 || a >= S_->rank) {
        fail(e, in, "reduction axis out of range");
        return;
    }
    char *x = conv(e, nest_val(e, src, S_, false), xdt, adt);
    /* result index: the loop variables without the axis */
    int64_t rs[TIR_MAXRANK] = { 0 }, c[TIR_MAXRANK] = { 0 };
    row_strides(&in->ty, rs);
    for (int d = 0, k = 0; d < S_->rank; d++)
        if (d != a)
            c[d] = rs[k++];
    char *rl = lin_str(e, c, S_->rank, loopvars);
    const char *red = rk == RK_SUM ? "+" : rk == RK_MAX ? "max" : "min";
    bool pragma = !arg && adt != DT_BOOL;
    char *out = in->ty.rank == 0 ? S("v%d", v) : S("%s[%s]", e->store[v], rl);
    if (a == S_->rank - 1) {                 /* innermost: a scalar reduction per row */
        if (in->ty.rank == 0)
            line(e, "%s v%d;", ct(rdt), v);
        else
            declare_array(e, v);
        TTy outer = *S_;
        outer.rank--;
        line(e, "{");
        e->indent++;
        open_loops(e, &outer, false);
        line(e, "%s tk_acc = %s;", ct(adt), red_init(e, rk, adt));
        if (arg)
            line(e, "int32_t tk_idx = 0;");
        if (pragma && rk == RK_SUM)
            line(e, "TK_VEC_SUM(tk_acc)");
        else if (pragma)
            line(e, "TK_VEC_RED(%s, tk_acc)", red);
        line(e, "for (int i%d = 0; i%d < %lld; i%d++) {", a, a, (long long)S_->dim[a], a);
        e->indent++;
        line(e, "const %s tk_x = %s;", ct(adt), x);
        if (arg)
            line(e, "if (tk_x %s tk_acc) { tk_acc = tk_x; tk_idx = i%d; }",
                 rk == RK_ARGMAX ? ">" : "<", a);
        else
            line(e, "tk_acc = %s;", red_step(e, rk, adt, "tk_acc", "tk_x"));
        e->indent--;
        line(e, "}");
        line(e, "%s = %s;", out, arg ? "tk_idx" : conv(e, "tk_acc", adt, rdt));
        close_loops(e, &outer);
        e->indent--;
        line(e, "}");
        return;
    }
    /* outer axis: accumulate rows into the result, vectorized over the inner dims */
    declare_array(e, v);
    if (arg)
        line(e, "_Alignas(64) %s b%d[%lld];", ct(adt), v, (long long)tty_numel(&in->ty));
    line(e, "for (int i0 = 0; i0 < %lld; i0++) {", (long long)tty_numel(&in->ty));
    line(e, "    %s[i0] = %s;", e->store[v], arg ? "0" : conv(e, red_init(e, rk, adt), adt, rdt));
    if (arg)
        line(e, "    b%d[i0] = %s;", v, red_init(e, rk, adt));
    line(e, "}");
    open_loops(e, S_, true);
    if (arg) {
        char *bl = S("b%d[%s]", v, rl);
        line(e, "const %s tk_x = %s;", ct(adt), x);
        line(e, "if (tk_x %s %s) { %s = tk_x; %s = i%d; }", rk == RK_ARGMAX ? ">" : "<", bl, bl, out, a);
    } else {
        line(e, "%s = %s;", out, conv(e, red_step(e, rk, adt, conv(e, out, rdt, adt), x), adt, rdt));
    }
    close_loops(e, S_);
}

static void emit_cumsum(CE *e, const Instr *in)
{
    int v = in->id, a = in->axis, src = in->args[0];
    const TTy *t = &in->ty;
    DType dt = t->dt;
    if (a < 0 || a >= t->rank) {
        fail(e, in, "cumsum axis out of range");
        return;
    }
    int64_t rs[TIR_MAXRANK];
    row_strides(t, rs);
    char *x = conv(e, nest_val(e, src, t, false), ty(e, src)->dt, dt);
    char *l = ident_lin(e, t);
    char *prev = S("(i%d == 0 ? %s : %s[%s - %lld])", a, lit_zero(e, dt), e->store[v], l,
                   (long long)rs[a]);
    declare_array(e, v);
    open_loops(e, t, a != t->rank - 1);
    line(e, "%s[%s] = %s;", e->store[v], l, red_step(e, RK_SUM, dt, prev, x));
    close_loops(e, t);
}

/* A dot operand as a contiguous row-major array of the accumulator type. */
/* Operand j of dot `in` as a contiguous array of at: the value's own
 * array when it is one, else a copy (rounded to tf32 with allow_tf32). */
static const char *dot_operand(CE *e, const Instr *in, int j, DType at)
{
    int v = in->args[j];
    const TTy *t = ty(e, v);
    Rows r;
    lane_rows(t, t, r);
    Acc acc = resolve(e, v, t->rank, r, false);
    int64_t rs[TIR_MAXRANK];
    row_strides(t, rs);
    bool contig = e->array[acc.base] && strcmp(ct(ty(e, acc.base)->dt), ct(at)) == 0 && !in->ival;
    for (int d = 0; d < t->rank && contig; d++)
        contig = acc.c[d] == rs[d];
    if (contig)
        return e->store[acc.base];
    const char *name = S("%c%d", j ? 'b' : 'a', in->id);
    line(e, "_Alignas(64) %s %s[%lld];", ct(at), name, (long long)tty_numel(t));
    open_loops(e, t, true);
    const char *x = conv(e, acc_str(e, &acc, t->rank, loopvars, -1), t->dt, at);
    line(e, in->ival ? "%s[%s] = tk_tf32(%s);" : "%s[%s] = %s;", name, ident_lin(e, t), x);
    close_loops(e, t);
    return name;
}

static void emit_dot(CE *e, const Instr *in)
{
    const TTy *t = &in->ty, *ta = ty(e, in->args[0]);
    DType at = t->dt;
    const char *fn = at == DT_F32 ? "tk_dot_f32" : at == DT_F64 ? "tk_dot_f64"
                   : at == DT_I32 ? "tk_dot_i32" : NULL;
    if (!fn || t->rank != 2 || ta->rank != 2) {
        fail(e, in, "unsupported accumulator type or rank");
        return;
    }
    const char *A = dot_operand(e, in, 0, at), *B = dot_operand(e, in, 1, at);
    if (!e->inplace[in->id]) {
        declare_array(e, in->id);
        int c = in->args[2];
        open_loops(e, t, true);
        line(e, "%s[%s] = %s;", e->store[in->id], ident_lin(e, t),
             c > 0 ? conv(e, nest_val(e, c, t, false), ty(e, c)->dt, at) : lit_zero(e, at));
        close_loops(e, t);
    }
    line(e, "%s(%lld, %lld, %lld, %s, %s, %s);", fn, (long long)t->dim[0], (long long)t->dim[1],
         (long long)ta->dim[1], A, B, e->store[in->id]);
}

static void emit_block(CE *e, TBlock *b);

static void emit_body(CE *e, TBlock *b)
{
    e->indent++;
    if (b)
        emit_block(e, b);
    e->indent--;
}

static void emit_for(CE *e, const Instr *in)
{
    TBlock *body = in->blocks[0];
    if (!body || body->ins.n == 0 || I(e, body->ins.v[0])->op != OP_LOOPVAR) {
        fail(e, in, "internal error: a for body must start with loopvar");
        return;
    }
    const Instr *lv = I(e, body->ins.v[0]);
    DType dt = lv->ty.dt;
    const char *T = ct(dt), *U = ut(dt);
    char *lo = conv(e, scalar(e, in->args[0]), ty(e, in->args[0])->dt, dt);
    char *hi = conv(e, scalar(e, in->args[1]), ty(e, in->args[1])->dt, dt);
    char *sp = conv(e, scalar(e, in->args[2]), ty(e, in->args[2])->dt, dt);
    int v = lv->id;
    line(e, "{");
    e->indent++;
    line(e, "const %s e%d = %s, s%d = %s;", T, v, hi, v, sp);
    if (dtype_is_float(dt))
        line(e, "if (s%d > 0) for (%s v%d = %s; v%d < e%d; v%d += s%d) {", v, T, v, lo, v, v, v, v);
    else     /* the step never overflows: the last one lands on the end */
        line(e, "if (s%d > 0) for (%s v%d = %s; v%d < e%d; v%d = (%s)e%d - (%s)v%d <= (%s)s%d ? e%d : (%s)((%s)v%d + (%s)s%d)) {",
             v, T, v, lo, v, v, v, U, v, U, v, U, v, v, T, U, v, U, v);
    emit_body(e, body);
    line(e, "}");
    e->indent--;
    line(e, "}");
}

static void emit_other(CE *e, const Instr *in)
{
    char *x[3] = { 0 };
    switch (in->op) {
    case OP_BROADCAST: case OP_EXPAND_DIMS: case OP_RESHAPE: case OP_TRANS:
        emit_copy_view(e, in);
        break;
    case OP_VAR_GET:
        declare_array(e, in->id);
        line(e, "memcpy(%s, var%d, sizeof %s);", e->store[in->id], in->index, e->store[in->id]);
        break;
    case OP_REDUCE:
        emit_reduce(e, in);
        break;
    case OP_CUMSUM:
        emit_cumsum(e, in);
        break;
    case OP_DOT:
        emit_dot(e, in);
        break;
    case OP_LOAD:
        for (int j = 0; j < 3; j++)
            if (in->args[j] > 0)
                x[j] = scalar(e, in->args[j]);
        line(e, "const %s v%d = %s;", ct(in->ty.dt), in->id, load_expr(e, in, x[0], x[1], x[2]));
        break;
    case OP_STORE: case OP_ATOMIC:
        for (int j = 0; j < 3; j++)
            if (in->args[j] > 0)
                x[j] = scalar(e, in->args[j]);
        if (in->op == OP_ATOMIC && in->ival)
            fetch_add(e, in, x[0], x[1], x[2]);
        else
            line(e, "%s", (in->op == OP_STORE ? store_stmt : atomic_stmt)(e, in, x[0], x[1], x[2]));
        break;
    case OP_PRINT:
        line(e, "%s", print_stmt(e, in, 0, in->args[0] > 0 ? scalar(e, in->args[0]) : NULL));
        break;
    case OP_FOR:
        emit_for(e, in);
        break;
    case OP_IF:
        line(e, "if (%s) {", scalar(e, in->args[0]));
        emit_body(e, in->blocks[0]);
        if (in->blocks[1] && in->blocks[1]->ins.n > 0) {
            line(e, "} else {");
            emit_body(e, in->blocks[1]);
        }
        line(e, "}");
        break;
    case OP_WHILE:
        line(e, "for (;;) {");
        emit_body(e, in->blocks[0]);
        emit_body(e, in->blocks[1]);
        line(e, "}");
        break;
    case OP_YIELD:
        line(e, "if (!(%s))", scalar(e, in->args[0]));
        line(e, "    break;");
        break;
    case OP_BREAK:
        line(e, "break;");
        break;
    case OP_CONTINUE:
        line(e, "continue;");
        break;
    default:
        fail(e, in, "unsupported instruction");
        break;
    }
}

static void emit_block(CE *e, TBlock *b)
{
    for (int i = 0; i < b->ins.n && e->ok; i++) {
        Instr *in = I(e, b->ins.v[i]);
        switch (classify(e, in)) {
        case CL_SKIP:
            break;
        case CL_SCALAR:
            emit_scalar(e, in);
            break;
        case CL_LANE:
            if (e->runs.v[e->run[in->id]].last == in->id)
                emit_run(e, e->run[in->id]);
            break;
        case CL_BREAK:
            emit_other(e, in);
            break;
        }
    }
}

/* ------------------------------------------------------------ functions */

static bool dim_runtime(const CE *e, int d) { return !e->ki->dims[d].specialized; }

static HostNames host_names(const CE *e) { return (HostNames){ e->pname, e->dname, e->sname }; }

/* The parameter list both functions share, declarations or arguments. */
static void param_list(CE *e, Buf *b, bool decl, bool program)
{
    HostNames hn = host_names(e);
    char *s = args_list(e->a, e->ki, &hn, decl, program);
    buf_puts(b, s);
    if (program)
        buf_printf(b, "%s%s", *s ? ", " : "", decl ? "int64_t tk_pid0, int64_t tk_pid1, int64_t tk_pid2"
                                                   : "tk_pid0, tk_pid1, tk_pid2");
    else if (!*s && decl)
        buf_puts(b, "void");
}

static void mark_var(TirKernel *k, Instr *in, void *ctx)
{
    (void)k;
    if (in->op == OP_VAR_GET || in->op == OP_VAR_SET)
        ((bool *)ctx)[in->index] = true;
}

static void emit_program(CE *e)
{
    Buf b = { .a = e->a };
    param_list(e, &b, true, true);
    line(e, "static void %s__program(%s)", e->k->name, b.s);
    line(e, "{");
    e->indent++;
    const KernelInfo *ki = e->ki;
    for (int i = 0; i < ki->nparams; i++)
        line(e, "(void)%s;", e->pname[i]);
    for (int d = 0; d < ki->ndims; d++)
        if (dim_runtime(e, d))
            line(e, "(void)%s;", e->dname[d]);
    for (int i = 0; i < ki->nparams; i++)
        for (int j = 0; e->sname[i] && j < ki->params[i].rank; j++)
            line(e, "(void)%s;", e->sname[i][j]);
    line(e, "(void)tk_pid0; (void)tk_pid1; (void)tk_pid2;");
    bool *used = arena_alloc(e->a, (size_t)e->k->vars.n + 1);
    tir_walk(e->k, e->k->body, mark_var, used);
    for (int i = 0; i < e->k->vars.n; i++) {
        const TTy *t = &e->k->vars.v[i].ty;
        if (!used[i])   /* only in a branch folded away */
            continue;
        if (t->rank == 0)
            line(e, "%s var%d = %s;", ct(t->dt), i, lit_zero(e, t->dt));
        else
            line(e, "_Alignas(64) %s var%d[%lld];", ct(t->dt), i, (long long)tty_numel(t));
    }
    emit_block(e, e->k->body);
    e->indent--;
    line(e, "}");
    line(e, "%s", "");
}

/* A head value for args_head: the entry point prints the head with emit_scalar. */
static char *head_value(void *ctx, int v) { return scalar(ctx, v); }

static void emit_entry(CE *e)
{
    ArgCheck ac = { .o = e->o, .k = e->k, .hn = host_names(e), .name = e->ki->name, .target = "C",
                    .dim_limit = true, .d = e->d, .value = head_value, .ctx = e };
    Buf b = { .a = e->a };
    param_list(e, &b, true, false);
    line(e, "static TK_UNUSED tk_status %s(%s)", e->k->name, b.s);
    line(e, "{");
    e->indent++;
    ac.indent = e->indent;
    if (!args_check(&ac)) {
        e->ok = false;
        return;
    }
    /* the head: only what the grid and the requires need */
    bool *need = arena_alloc(e->a, (size_t)e->n);
    args_need(e->k, need);
    for (int v = 1; v < e->n; v++) {
        if (!need[v])
            continue;
        const Instr *in = I(e, v);
        bool ok = in->ty.rank == 0 && (in->op == OP_CONST || in->op == OP_DIM || in->op == OP_ARG
                  || in->op == OP_STRIDE || (op_flags[in->op] & OPF_E));
        if (!ok) {
            fail(e, in, "the grid and requires may use only dims, scalar parameters and scalar arithmetic, not");
            return;
        }
    }
    for (int i = 0; i < e->k->body->ins.n; i++) {
        const Instr *in = I(e, e->k->body->ins.v[i]);
        if (need[in->id] && in->op != OP_CONST)
            emit_scalar(e, in);
    }
    args_head(&ac);
    Buf args = { .a = e->a };
    param_list(e, &args, false, false);
    line(e, "TK_PRAGMA(omp parallel for schedule(static))");
    line(e, "for (int64_t tk_p = 0; tk_p < tk_np; tk_p++)");
    line(e, "    %s__program(%s%stk_p %% tk_g0, tk_p / tk_g0 %% tk_g1, tk_p / tk_g0 / tk_g1);",
         e->k->name, args.s, args.n ? ", " : "");
    line(e, "return TK_OK;");
    e->indent--;
    line(e, "}");
    line(e, "%s", "");
}

/* ------------------------------------------------------------ DLPack */

/* DLDataTypeCode: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLBool 6. */
static int dl_code(DType dt)
{
    switch (dt) {
    case DT_BOOL: return 6;
    case DT_U8: case DT_U32: return 1;
    case DT_BF16: return 4;
    default: return dtype_is_float(dt) ? 2 : 0;
    }
}

/* NAME_dl(const DLTensor *t, ..., scalars) under #ifdef TKC_DLPACK: each
 * tensor checked by the prelude's tk_dl_arg (device, dtype, shape against
 * the other tensors, strides, alignment), then callee(...) called with the C
 * target's argument order and extra_args appended. */
bool target_emit_dlpack(Buf *out, const TirKernel *k, const char *const *pname, const char *name,
                        const char *callee, int device, const char *extra_decl,
                        const char *extra_args, Diag *d)
{
    const KernelInfo *ki = k->info;
    Arena *a = k->arena;
    Buf decl = { .a = a }, chk = { .a = a }, args = { .a = a }, dn = { .a = a }, dv = { .a = a };
    buf_puts(&decl, ""), buf_puts(&chk, ""), buf_puts(&args, ""), buf_puts(&dn, ""), buf_puts(&dv, "");
    /* a tensor named like the callee would hide it: rename it */
    const char **tname = arena_alloc(a, sizeof(char *) * (size_t)(ki->nparams + 1));
    for (int i = 0; i < ki->nparams; i++) {
        tname[i] = pname[i];
        for (int j = 0; j < ki->nparams; j++)
            if (!strcmp(tname[i], callee) || (j != i && !strcmp(tname[i], pname[j])))
                tname[i] = arena_printf(a, "%s_", tname[i]), j = -1;
    }
    int nt = 0;
    for (int i = 0; i < ki->nparams; i++) {
        const ParamInfo *p = &ki->params[i];
        const char *sep = i ? ", " : "";
        if (!p->is_tensor) {
            buf_printf(&decl, "%s%s %s", sep, st(p->dt), pname[i]);
            buf_printf(&args, "%s%s", sep, pname[i]);
            continue;
        }
        buf_printf(&decl, "%sconst DLTensor *%s", sep, tname[i]);
        buf_printf(&args, "%s(%s%s *)tk_p[%d]", sep, p->stored ? "" : "const ", st(p->dt), nt);
        Buf sh = { .a = a };
        buf_puts(&sh, "");
        for (int j = 0; j < p->rank; j++) {
            int64_t v = -1 - p->dims[j].dim;
            if (p->dims[j].dim >= 0 && ki->dims[p->dims[j].dim].specialized)
                v = ki->dims[p->dims[j].dim].value;
            else if (p->dims[j].dim < 0 && !sym_eval(p->dims[j].size, k->cvals, ki->nconsts, &v)) {
                diag_error(d, p->span, "DLPack: cannot evaluate the size of dim %d of %s", j, p->name);
                return false;
            }
            buf_printf(&sh, "%s%lld", j ? ", " : "", (long long)v);
        }
        if (p->strided)
            buf_printf(&chk, "    int64_t tk_s%d[%d];\n", i, p->rank);
        buf_printf(&chk, "    if ((tk_r = tk_dl_arg(\"%s\", \"%s\", %s, %d, \"%s\", %d, %d, %d, %s%s%s, %s, %s, %s, &tk_p[%d])))\n"
                   "        return tk_r;\n", args_str(a, ki->name), args_str(a, p->name), tname[i], device,
                   dtype_info[p->dt].name, dl_code(p->dt), dtype_info[p->dt].bits, p->rank,
                   p->rank ? "(const int64_t[]){" : "NULL", sh.s, p->rank ? "}" : "",
                   ki->ndims ? "tk_d" : "NULL", ki->ndims ? "tk_dn" : "NULL",
                   p->strided ? arena_printf(a, "tk_s%d", i) : "NULL", nt);
        nt++;
    }
    for (int j = 0; j < ki->ndims; j++) {
        buf_printf(&dn, "%s\"%s\"", j ? ", " : "", args_str(a, ki->dims[j].name));
        buf_printf(&dv, "%s-1", j ? ", " : "");
        if (!ki->dims[j].specialized)
            buf_printf(&args, "%stk_d[%d]", args.n ? ", " : "", j);
    }
    for (int i = 0; i < ki->nparams; i++)
        for (int j = 0; ki->params[i].is_tensor && ki->params[i].strided && j < ki->params[i].rank; j++)
            buf_printf(&args, "%stk_s%d[%d]", args.n ? ", " : "", i, j);
    buf_printf(out, "#ifdef TKC_DLPACK\n");
    const char *xd = extra_decl ? extra_decl + (decl.n ? 0 : 2) : decl.n ? "" : "void";
    const char *xa = extra_args ? extra_args + (args.n ? 0 : 2) : "";
    buf_printf(out, "static TK_UNUSED tk_status %s_dl(%s%s)\n{\n", name, decl.s, xd);
    if (ki->ndims)
        buf_printf(out, "    static const char *const tk_dn[%d] = {%s};\n    int64_t tk_d[%d] = {%s};\n",
                   ki->ndims, dn.s, ki->ndims, dv.s);
    if (nt)
        buf_printf(out, "    void *tk_p[%d] = {0};\n    tk_status tk_r;\n%s", nt, chk.s);
    buf_printf(out, "    return %s(%s%s);\n}\n#endif\n\n", callee, args.s, xa);
    return true;
}

static bool emit_kernel(Buf *out, TirKernel *k, bool dl, Diag *d)
{
    CE e = { .k = k, .ki = k->info, .a = k->arena, .o = out, .d = d, .ok = true,
             .n = k->instrs.n };
    if (!k->body || !k->info || k->instrs.n == 0) {
        diag_error(d, (Span){0}, "C target: kernel %s has no body", k->name ? k->name : "?");
        return false;
    }
    name_params(&e);
    plan(&e);
    if (!e.ok)
        return false;
    emit_program(&e);
    if (e.ok)
        emit_entry(&e);
    if (e.ok && dl)
        e.ok = target_emit_dlpack(out, k, e.pname, k->name, k->name, 1, NULL, NULL, d);
    return e.ok;
}

/* The entry point over tuned instantiations (args_dispatch). */
static bool emit_dispatch(Buf *out, const TargetDispatch *t, Diag *dg)
{
    TirKernel *k0 = t->variants[0];
    CE e = { .k = k0, .ki = k0->info, .a = k0->arena, .o = out, .ok = true };
    name_params(&e);
    HostNames hn = host_names(&e);
    args_dispatch(out, t, &hn, "", "", "");
    return target_emit_dlpack(out, k0, e.pname, t->name, t->name, 1, NULL, NULL, dg);
}

static bool c_emit(Buf *out, TirKernel **kernels, int n, const TargetOptions *o, Diag *d)
{
    buf_puts(out, "/* ---- C target (OpenMP) ---- */\n");
    buf_puts(out, c_helpers);
    buf_putc(out, '\n');
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = emit_kernel(out, kernels[i], !args_dispatched(kernels[i], o), d) && ok;
    for (int i = 0; ok && o && i < o->ndispatch; i++)
        ok = emit_dispatch(out, &o->dispatch[i], d);
    return ok;
}

const Target target_c = { "c", c_emit };
