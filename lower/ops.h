/*
 * lower/ops.h — the tile IR's operations, defined once.
 *
 *   X(name, "spelling", nargs, flags)
 *
 * nargs is the number of operands (value ids in Instr.args); flags:
 *   P  pure: no side effects, may be CSE'd and removed when unused
 *   E  elementwise: operands have the result's shape (or are scalars
 *      of rank 0 only where noted); lane i of the result depends only on
 *      lane i of the operands
 * Attributes each op reads are listed in its comment (Instr fields).
 */
#ifndef TKC_OPS_H
#define TKC_OPS_H

#define OPF_P 1
#define OPF_E 2

#define TIR_OPS(X)                                                                  \
    /* leaves */                                                                    \
    X(CONST,        "const",        0, OPF_P)  /* scalar; ival (ints, bool) or fval */ \
    X(DIM,          "dim",          0, OPF_P)  /* i64 run-time dim #index */        \
    X(ARG,          "arg",          0, OPF_P)  /* scalar kernel param #index */     \
    X(STRIDE,       "stride",       0, OPF_P)  /* i64 stride of tensor param #index, dim #axis */ \
    X(PROGRAM_ID,   "program_id",   0, OPF_P)  /* i32; axis */                      \
    X(ARANGE,       "arange",       0, OPF_P)  /* i32[n]: ival, ival+1, ... */      \
    X(LOOPVAR,      "loopvar",      0, OPF_P)  /* scalar; first instr of a FOR body: the induction variable */ \
    /* shape and views */                                                           \
    X(BROADCAST,    "broadcast",    1, OPF_P)  /* operand: same rank with 1s where result has n, or rank 0 */ \
    X(EXPAND_DIMS,  "expand_dims",  1, OPF_P)  /* axis: new size-1 dim */           \
    X(RESHAPE,      "reshape",      1, OPF_P)  /* row-major, same element count */   \
    X(TRANS,        "trans",        1, OPF_P)  /* perm[rank]: result dim i = operand dim perm[i] */ \
    /* elementwise */                                                               \
    X(CAST,   "cast",   1, OPF_P | OPF_E)   /* to the result dtype */                \
    X(NEG,    "neg",    1, OPF_P | OPF_E)                                           \
    X(NOT,    "not",    1, OPF_P | OPF_E)   /* bool */                              \
    X(BITNOT, "bitnot", 1, OPF_P | OPF_E)                                           \
    X(EXP,    "exp",    1, OPF_P | OPF_E)                                           \
    X(EXP2,   "exp2",   1, OPF_P | OPF_E)                                           \
    X(LOG,    "log",    1, OPF_P | OPF_E)                                           \
    X(LOG2,   "log2",   1, OPF_P | OPF_E)                                           \
    X(SQRT,   "sqrt",   1, OPF_P | OPF_E)                                           \
    X(RSQRT,  "rsqrt",  1, OPF_P | OPF_E)                                           \
    X(SIN,    "sin",    1, OPF_P | OPF_E)                                           \
    X(COS,    "cos",    1, OPF_P | OPF_E)                                           \
    X(TANH,   "tanh",   1, OPF_P | OPF_E)                                           \
    X(ERF,    "erf",    1, OPF_P | OPF_E)                                           \
    X(SIGMOID,"sigmoid",1, OPF_P | OPF_E)                                           \
    X(ABS,    "abs",    1, OPF_P | OPF_E)                                           \
    X(FLOOR,  "floor",  1, OPF_P | OPF_E)                                           \
    X(CEIL,   "ceil",   1, OPF_P | OPF_E)                                           \
    X(ADD,    "add",    2, OPF_P | OPF_E)                                           \
    X(SUB,    "sub",    2, OPF_P | OPF_E)                                           \
    X(MUL,    "mul",    2, OPF_P | OPF_E)                                           \
    X(DIV,    "div",    2, OPF_P | OPF_E)   /* ints: truncating, x/0 gives 0 */     \
    X(MOD,    "mod",    2, OPF_P | OPF_E)   /* ints: C %, x%0 gives 0; floats: fmod */ \
    X(MIN,    "min",    2, OPF_P | OPF_E)                                           \
    X(MAX,    "max",    2, OPF_P | OPF_E)                                           \
    X(POW,    "pow",    2, OPF_P | OPF_E)                                           \
    X(AND,    "and",    2, OPF_P | OPF_E)   /* bitwise; also logical on bool */     \
    X(OR,     "or",     2, OPF_P | OPF_E)                                           \
    X(XOR,    "xor",    2, OPF_P | OPF_E)                                           \
    X(SHL,    "shl",    2, OPF_P | OPF_E)                                           \
    X(SHR,    "shr",    2, OPF_P | OPF_E)   /* arithmetic for signed */             \
    X(LT,     "lt",     2, OPF_P | OPF_E)   /* comparisons: operands share a dtype, result bool */ \
    X(LE,     "le",     2, OPF_P | OPF_E)                                           \
    X(GT,     "gt",     2, OPF_P | OPF_E)                                           \
    X(GE,     "ge",     2, OPF_P | OPF_E)                                           \
    X(EQ,     "eq",     2, OPF_P | OPF_E)                                           \
    X(NE,     "ne",     2, OPF_P | OPF_E)                                           \
    X(WHERE,  "where",  3, OPF_P | OPF_E)   /* cond (bool), a, b */                 \
    X(FMA,    "fma",    3, OPF_P | OPF_E)                                           \
    /* tile-wide */                                                                 \
    X(REDUCE,       "reduce",       1, OPF_P)  /* rkind, axis; result drops dim axis */ \
    X(CUMSUM,       "cumsum",       1, OPF_P)  /* axis */                           \
    X(DOT,          "dot",          3, OPF_P)  /* a[M,K], b[K,N], acc[M,N] */       \
    /* memory */                                                                    \
    X(LOAD,         "load",         3, OPF_P)  /* tensor; offs (i64), mask (bool or 0 = none), other (or 0) */ \
    X(STORE,        "store",        3, 0)      /* tensor; offs (i64), value, mask (or 0 = none) */ \
    X(PRINT,        "print",        1, 0)      /* label; operand (or 0) printed with the program ids \
                                                  and each element's index (tkc -g only) */ \
    X(ATOMIC,       "atomic",       3, 0)      /* tensor; offs, value, mask as STORE; rkind RK_SUM \
                                                  (atomic_add) or RK_MAX (atomic_max), per element */ \
    /* mutable variables (tile-valued, per program) */                              \
    X(VAR_GET,      "var_get",      0, 0)      /* var */                            \
    X(VAR_SET,      "var_set",      1, 0)      /* var; value (same type as the var) */ \
    /* control flow: nested blocks */                                               \
    X(FOR,          "for",          3, 0)      /* start, end, step; blocks[0] body starting with LOOPVAR */ \
    X(IF,           "if",           1, 0)      /* cond; blocks[0] then, blocks[1] else (may be empty) */ \
    X(WHILE,        "while",        0, 0)      /* blocks[0] cond ending in YIELD, blocks[1] body */ \
    X(YIELD,        "yield",        1, 0)      /* the condition of a WHILE's cond block */ \
    X(BREAK,        "break",        0, 0)                                           \
    X(CONTINUE,     "continue",     0, 0)

typedef enum {
    OP_NONE,
#define X(name, s, n, f) OP_##name,
    TIR_OPS(X)
#undef X
    OP_COUNT
} Op;

typedef enum { RK_SUM, RK_MAX, RK_MIN, RK_ARGMAX, RK_ARGMIN } ReduceKind;

#endif
