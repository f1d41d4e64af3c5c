/*
 * targets/expr.c — scalar expressions of the tile IR as C, for every target
 * that prints C: the C target's kernels and entry points, the CUDA target's
 * device code (CUDA C++) and host launcher (C11).
 *
 * The CUDA device prelude defines the names the host gets from <math.h>,
 * <stdint.h> and the runtime prelude (INFINITY, INT64_C, tk_round_f16,
 * tk_sigmoidf, ...), so one printer serves all three.  Where they differ a
 * CxStyle says how: the prefix of the integer helpers (tk_div_i32 or, on
 * the CUDA host, tkh_div_i32) and the names of the float functions (the C
 * target's own vectorizable tk_expf ...).  Integer + - * wrap (through
 * unsigned), x / 0 == 0, shift counts are masked, float -> int casts
 * saturate and NaN gives 0: the printed code has no undefined behaviour.
 */
#include <math.h>
#include <string.h>

#include "target.h"

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

const char *cx_math(Op op, bool dbl)
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

char *cx_op(Arena *a, const TirKernel *k, const Instr *in, char **x, const CxStyle *st)
{
    const char *hp = st->hp;
    const char *(*fn)(Op, bool) = st->math ? st->math : cx_math;
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
        return S("%s(%s)", fn(op, dbl), x[0]);
    case OP_FLOOR: case OP_CEIL:
        return fl ? S("%s(%s)", fn(op, dbl), x[0]) : x[0];
    case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2: case OP_SQRT: case OP_RSQRT:
    case OP_SIN: case OP_COS: case OP_TANH: case OP_ERF: case OP_SIGMOID:
        if (!fl)
            return cx_conv(a, S("%s((double)(%s))", fn(op, true), x[0]), DT_F64, rt, hp);
        return S("%s(%s)", fn(op, dbl), x[0]);
    case OP_ADD: case OP_SUB: case OP_MUL:
        if (fl)
            return S("(%s %s %s)", x[0], infix(op), x[1]);
        return S("((%s)((%s)(%s) %s (%s)(%s)))", T, U, x[0], infix(op), U, x[1]);
    case OP_DIV:
        return fl ? S("(%s / %s)", x[0], x[1]) : S("%sdiv_%s(%s, %s)", hp, rn, x[0], x[1]);
    case OP_MOD:
        return fl ? S("%s(%s, %s)", fn(op, dbl), x[0], x[1])
                  : S("%smod_%s(%s, %s)", hp, rn, x[0], x[1]);
    case OP_MIN: case OP_MAX:
        if (fl)
            return S("%s(%s, %s)", fn(op, dbl), x[0], x[1]);
        return S("((%s) %s (%s) ? (%s) : (%s))", x[0], op == OP_MIN ? "<" : ">", x[1], x[0], x[1]);
    case OP_POW:
        if (fl)
            return S("%s(%s, %s)", fn(op, dbl), x[0], x[1]);
        return cx_conv(a, S("pow((double)(%s), (double)(%s))", x[0], x[1]), DT_F64, rt, hp);
    case OP_AND: case OP_OR: case OP_XOR:
        if (rt == DT_BOOL)   /* as unsigned: clang warns on bitwise & of bools with calls */
            return S("((bool)((unsigned)(%s) %s (unsigned)(%s)))", x[0], infix(op), x[1]);
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
            return S("%s(%s, %s, %s)", fn(op, dbl), x[0], x[1], x[2]);
        return S("((%s)((%s)(%s) * (%s)(%s) + (%s)(%s)))", T, U, x[0], U, x[1], U, x[2]);
    default:
        return NULL;
    }
}
