/*
 * targets/cuda/expr.c — scalar expressions of the tile IR as C.
 *
 * The device code (CUDA C++) and the host launcher (C11) print the same
 * expressions: the device prelude defines the names the host gets from
 * <math.h>, <stdint.h> and the runtime prelude (INFINITY, INT64_C,
 * tk_round_f16, tk_sigmoidf, ...), so one printer serves both.  Only the
 * integer helpers differ in prefix (see cuda.h).  The semantics are the C
 * target's: integer + - * wrap (through unsigned), x / 0 == 0, shift counts
 * are masked, float -> int casts saturate and NaN gives 0.
 */
#include <math.h>
#include <string.h>

#include "cuda.h"

#define S(...) arena_printf(a, __VA_ARGS__)

const char *cx_ctype(DType dt) { return dtype_info[dt].c_compute; }

const char *cx_stype(DType dt)
{
    return dt == DT_F16 || dt == DT_BF16 ? "uint16_t" : dtype_info[dt].c_storage;
}

static const char *utype(DType dt) { return dtype_info[dt].bits == 64 ? "uint64_t" : "uint32_t"; }

char *cx_lit_float(Arena *a, double v, DType dt)
{
    bool d = dt == DT_F64;
    if (isnan(v))
        return d ? "((double)NAN)" : "NAN";
    if (isinf(v))
        return v < 0 ? (d ? "(-(double)INFINITY)" : "(-INFINITY)")
                     : (d ? "((double)INFINITY)" : "INFINITY");
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d ? v : (double)(float)v);
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    return S("%s%s%s%s", v < 0 ? "(" : "", buf, d ? "" : "f", v < 0 ? ")" : "");
}

char *cx_lit_int(Arena *a, int64_t v, DType dt)
{
    switch (dt) {
    case DT_BOOL: return v ? "true" : "false";
    case DT_I64:  return v == INT64_MIN ? "INT64_MIN" : S("INT64_C(%lld)", (long long)v);
    case DT_U32:  return S("%lluu", (unsigned long long)(uint32_t)v);
    case DT_U8:   return S("((uint8_t)%d)", (int)(uint8_t)v);
    case DT_I8:   return S("((int8_t)%d)", (int)(int8_t)v);
    case DT_I16:  return S("((int16_t)%d)", (int)(int16_t)v);
    default:
        if ((int32_t)v == INT32_MIN)
            return "INT32_MIN";
        return (int32_t)v < 0 ? S("(%d)", (int)(int32_t)v) : S("%d", (int)(int32_t)v);
    }
}

char *cx_lit_zero(Arena *a, DType dt)
{
    return dtype_is_float(dt) ? cx_lit_float(a, 0, dt) : cx_lit_int(a, 0, dt);
}

char *cx_conv(Arena *a, const char *x, DType from, DType to, const char *hp)
{
    if (from == to)
        return (char *)x;
    if (to == DT_BOOL)
        return S("((%s) != 0)", x);
    if (to == DT_F16 || to == DT_BF16)
        return S("tk_round_%s((float)(%s))", to == DT_F16 ? "f16" : "bf16", x);
    if (dtype_is_float(to)) {
        if (dtype_is_float(from) && strcmp(cx_ctype(from), cx_ctype(to)) == 0)
            return (char *)x;
        return S("((%s)(%s))", cx_ctype(to), x);
    }
    if (dtype_is_float(from))
        return S("%ssat_%s((double)(%s))", hp, dtype_info[to].name, x);
    return S("((%s)(%s))", cx_ctype(to), x);
}

char *cx_to_storage(Arena *a, const char *x, DType from, DType to, const char *hp)
{
    if (to == DT_F16 || to == DT_BF16) {
        const char *f = dtype_is_float(from) ? x : cx_conv(a, x, from, DT_F32, hp);
        return S("tk_f32_to_%s((float)(%s))", to == DT_F16 ? "f16" : "bf16", f);
    }
    return cx_conv(a, x, from, to, hp);
}

char *cx_from_storage(Arena *a, const char *x, DType dt)
{
    if (dt == DT_F16)
        return S("tk_f16_to_f32(%s)", x);
    if (dt == DT_BF16)
        return S("tk_bf16_to_f32(%s)", x);
    return (char *)x;
}

static const char *math_name(Op op, bool dbl)
{
    switch (op) {
    case OP_EXP:     return dbl ? "exp" : "expf";
    case OP_EXP2:    return dbl ? "exp2" : "exp2f";
    case OP_LOG:     return dbl ? "log" : "logf";
    case OP_LOG2:    return dbl ? "log2" : "log2f";
    case OP_SQRT:    return dbl ? "sqrt" : "sqrtf";
    case OP_RSQRT:   return dbl ? "tk_rsqrt" : "tk_rsqrtf";
    case OP_SIN:     return dbl ? "sin" : "sinf";
    case OP_COS:     return dbl ? "cos" : "cosf";
    case OP_TANH:    return dbl ? "tanh" : "tanhf";
    case OP_ERF:     return dbl ? "erf" : "erff";
    case OP_SIGMOID: return dbl ? "tk_sigmoid" : "tk_sigmoidf";
    case OP_ABS:     return dbl ? "fabs" : "fabsf";
    case OP_FLOOR:   return dbl ? "floor" : "floorf";
    case OP_CEIL:    return dbl ? "ceil" : "ceilf";
    case OP_MIN:     return dbl ? "fmin" : "fminf";
    case OP_MAX:     return dbl ? "fmax" : "fmaxf";
    case OP_POW:     return dbl ? "pow" : "powf";
    case OP_MOD:     return dbl ? "fmod" : "fmodf";
    case OP_FMA:     return dbl ? "fma" : "fmaf";
    default:         return NULL;
    }
}

static const char *infix(Op op)
{
    switch (op) {
    case OP_ADD: return "+";  case OP_SUB: return "-";  case OP_MUL: return "*";
    case OP_AND: return "&";  case OP_OR:  return "|";  case OP_XOR: return "^";
    case OP_LT:  return "<";  case OP_LE:  return "<="; case OP_GT:  return ">";
    case OP_GE:  return ">="; case OP_EQ:  return "=="; case OP_NE:  return "!=";
    default:     return NULL;
    }
}

char *cx_op(Arena *a, const TirKernel *k, const Instr *in, char **x, const char *hp)
{
    DType rt = in->ty.dt;
    DType ot = in->nargs ? k->instrs.v[in->args[in->op == OP_WHERE ? 1 : 0]]->ty.dt : rt;
    bool fl = dtype_is_float(ot), dbl = ot == DT_F64;
    const char *T = cx_ctype(rt), *U = utype(rt), *rn = dtype_info[rt].name;
    int w = dtype_info[rt].bits;
    Op op = in->op;
    switch (op) {
    case OP_CAST:
        return cx_conv(a, x[0], ot, rt, hp);
    case OP_NEG:
        return fl ? S("(-(%s))", x[0]) : S("((%s)(0u - (%s)(%s)))", T, U, x[0]);
    case OP_NOT:
        return S("(!(%s))", x[0]);
    case OP_BITNOT:
        return rt == DT_BOOL ? S("(!(%s))", x[0]) : S("((%s)~(%s)(%s))", T, U, x[0]);
    case OP_ABS:
        if (!fl)
            return S("((%s) < 0 ? (%s)(0u - (%s)(%s)) : (%s))", x[0], T, U, x[0], x[0]);
        return S("%s(%s)", math_name(op, dbl), x[0]);
    case OP_FLOOR: case OP_CEIL:
        return fl ? S("%s(%s)", math_name(op, dbl), x[0]) : x[0];
    case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SQRT: case OP_RSQRT:
    case OP_SIN: case OP_COS: case OP_TANH: case OP_ERF: case OP_SIGMOID:
        if (!fl)
            return cx_conv(a, S("%s((double)(%s))", math_name(op, true), x[0]), DT_F64, rt, hp);
        return S("%s(%s)", math_name(op, dbl), x[0]);
    case OP_ADD: case OP_SUB: case OP_MUL:
        if (fl)
            return S("(%s %s %s)", x[0], infix(op), x[1]);
        return S("((%s)((%s)(%s) %s (%s)(%s)))", T, U, x[0], infix(op), U, x[1]);
    case OP_DIV:
        return fl ? S("(%s / %s)", x[0], x[1]) : S("%sdiv_%s(%s, %s)", hp, rn, x[0], x[1]);
    case OP_MOD:
        return fl ? S("%s(%s, %s)", math_name(op, dbl), x[0], x[1])
                  : S("%smod_%s(%s, %s)", hp, rn, x[0], x[1]);
    case OP_MIN: case OP_MAX:
        if (fl)
            return S("%s(%s, %s)", math_name(op, dbl), x[0], x[1]);
        return S("((%s) %s (%s) ? (%s) : (%s))", x[0], op == OP_MIN ? "<" : ">", x[1], x[0], x[1]);
    case OP_POW:
        if (fl)
            return S("%s(%s, %s)", math_name(op, dbl), x[0], x[1]);
        return cx_conv(a, S("pow((double)(%s), (double)(%s))", x[0], x[1]), DT_F64, rt, hp);
    case OP_AND: case OP_OR: case OP_XOR:
        return S("((%s)((%s) %s (%s)))", T, x[0], infix(op), x[1]);
    case OP_SHL:
        return S("((%s)((%s)(%s) << ((%s)(%s) & %du)))", T, U, x[0], U, x[1], w - 1);
    case OP_SHR:
        return S("((%s)((%s) >> ((%s)(%s) & %du)))", T, x[0], U, x[1], w - 1);
    case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE:
        return S("(%s %s %s)", x[0], infix(op), x[1]);
    case OP_WHERE:
        return S("(%s ? %s : %s)", x[0], x[1], x[2]);
    case OP_FMA:
        if (fl)
            return S("%s(%s, %s, %s)", math_name(op, dbl), x[0], x[1], x[2]);
        return S("((%s)((%s)(%s) * (%s)(%s) + (%s)(%s)))", T, U, x[0], U, x[1], U, x[2]);
    default:
        return NULL;
    }
}

/* The integer helpers for host code: the same definitions the C target
 * prints as tk_*, under tkh_ so both targets can share one header. */
const char cx_host_helpers[] =
    "#ifndef TKC_CUDA_HOST_HELPERS\n"
    "#define TKC_CUDA_HOST_HELPERS 1\n"
    "#define TKH_DEF_SAT(N, T, LO, HI1, HI) \\\n"
    "    static inline TK_UNUSED T tkh_sat_##N(double x) \\\n"
    "    { return x != x ? (T)0 : x <= (double)(LO) ? (T)(LO) : x >= (HI1) ? (T)(HI) : (T)x; }\n"
    "TKH_DEF_SAT(i8, int8_t, INT8_MIN, 128.0, INT8_MAX)\n"
    "TKH_DEF_SAT(i16, int16_t, INT16_MIN, 32768.0, INT16_MAX)\n"
    "TKH_DEF_SAT(i32, int32_t, INT32_MIN, 2147483648.0, INT32_MAX)\n"
    "TKH_DEF_SAT(i64, int64_t, INT64_MIN, 9223372036854775808.0, INT64_MAX)\n"
    "TKH_DEF_SAT(u8, uint8_t, 0, 256.0, UINT8_MAX)\n"
    "TKH_DEF_SAT(u32, uint32_t, 0, 4294967296.0, UINT32_MAX)\n"
    "#define TKH_DEF_DIV(N, T, MIN) \\\n"
    "    static inline TK_UNUSED T tkh_div_##N(T a, T b) \\\n"
    "    { return b == 0 ? (T)0 : (b == (T)-1 && a == MIN) ? a : (T)(a / b); } \\\n"
    "    static inline TK_UNUSED T tkh_mod_##N(T a, T b) \\\n"
    "    { return (b == 0 || b == (T)-1) ? (T)0 : (T)(a % b); }\n"
    "#define TKH_DEF_UDIV(N, T) \\\n"
    "    static inline TK_UNUSED T tkh_div_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \\\n"
    "    static inline TK_UNUSED T tkh_mod_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }\n"
    "TKH_DEF_DIV(i8, int8_t, INT8_MIN)\n"
    "TKH_DEF_DIV(i16, int16_t, INT16_MIN)\n"
    "TKH_DEF_DIV(i32, int32_t, INT32_MIN)\n"
    "TKH_DEF_DIV(i64, int64_t, INT64_MIN)\n"
    "TKH_DEF_UDIV(u8, uint8_t)\n"
    "TKH_DEF_UDIV(u32, uint32_t)\n"
    "TKH_DEF_UDIV(bool, bool)\n"
    "#endif /* TKC_CUDA_HOST_HELPERS */\n";
