/*
 * lang/lang.h — the core every stage of tkc shares.
 *
 * Sections, in the order a compilation meets them: memory (arenas and
 * growable arrays), sources and diagnostics, symbolic integers (tile
 * shapes over const parameters), element types, the AST, and the loader
 * that parses a file together with its imports.  Everything a stage
 * exports lives in its own header (parser/parse.h, sema/sema.h,
 * lower/tir.h, targets/target.h); this one holds what they all speak.
 */
#ifndef TKC_LANG_H
#define TKC_LANG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TKC_VERSION "0.1.0"

/* ---------------------------------------------------------------- memory */

/* All allocation goes through tk_alloc (calloc semantics) so tests can make
 * it fail.  Arenas are never freed piecemeal: one arena per compilation. */
typedef struct Arena Arena;
extern void *(*tk_alloc_hook)(size_t n);
void *tk_alloc(size_t n);                 /* aborts with a message on OOM */
Arena *arena_new(void);
void arena_free(Arena *a);
void *arena_alloc(Arena *a, size_t n);    /* zeroed, 16-byte aligned */
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
char *arena_printf(Arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);
/* s as a C string literal, quotes included (control bytes as octal escapes) */
char *arena_cquote(Arena *a, const char *s);

/* Growable arrays: any struct with members v, n, cap. */
#define Vec(T) struct { T *v; int n, cap; }
void vec_grow_(Arena *a, void **v, int *cap, size_t elem);
#define vec_push(a, vec, x)                                                   \
    do {                                                                      \
        if ((vec).n == (vec).cap)                                             \
            vec_grow_((a), (void **)&(vec).v, &(vec).cap, sizeof *(vec).v);   \
        (vec).v[(vec).n++] = (x);                                             \
    } while (0)

/* A string builder in an arena, for emitters. */
typedef struct Buf { Arena *a; char *s; size_t n, cap; } Buf;
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_puts(Buf *b, const char *s);
void buf_putc(Buf *b, char c);
/* One line of generated code: 4 * indent spaces, the text, a newline. */
void buf_linef(Buf *b, int indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void buf_vlinef(Buf *b, int indent, const char *fmt, va_list ap);

/* ------------------------------------------------- sources, diagnostics */

typedef struct Src {
    const char *path;     /* as given on the command line or import */
    const char *text;     /* NUL-terminated */
    size_t len;
    Arena *arena;         /* the compilation's arena */
    int *lines, nlines;   /* offset of each line's start (src_read), or NULL */
} Src;

/* Byte offsets [lo, hi) into src->text.  A zero Span (src == NULL) means
 * "no location". */
typedef struct Span { const Src *src; int lo, hi; } Span;
Span span_join(Span a, Span b);
void span_linecol(Span s, int *line, int *col);   /* 1-based; col counts bytes */

typedef struct Diag {
    FILE *out;            /* stderr by default */
    int nerrors, nwarnings;
    int max_errors;       /* stop reporting (not compiling) after this many */
} Diag;
void diag_init(Diag *d, FILE *out);
/* GCC style: "file:line:col: error: msg", the source line, a caret line
 * (tab-aware) under the span. */
void diag_error(Diag *d, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(Diag *d, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(Diag *d, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_vreport(Diag *d, const char *kind, Span at, const char *fmt, va_list ap);

/* ---------------------------------------------------- symbolic integers */

/* A Sym is an interned integer expression over const parameters, kept as a
 * canonical polynomial: sum of coeff * product-of-atoms, where an atom is a
 * const parameter or an opaque node (div, mod, cdiv, min, max) over Syms.
 * Interning makes structural equality pointer equality: BM*BN == BN*BM. */
typedef struct Sym Sym;
typedef struct SymTab SymTab;
SymTab *sym_tab_new(Arena *a);
Sym *sym_int(SymTab *t, int64_t v);
Sym *sym_param(SymTab *t, int index, const char *name);  /* const param #index */
Sym *sym_add(SymTab *t, Sym *a, Sym *b);
Sym *sym_sub(SymTab *t, Sym *a, Sym *b);
Sym *sym_mul(SymTab *t, Sym *a, Sym *b);
Sym *sym_div(SymTab *t, Sym *a, Sym *b);   /* truncating, like C */
Sym *sym_mod(SymTab *t, Sym *a, Sym *b);
Sym *sym_cdiv(SymTab *t, Sym *a, Sym *b);
Sym *sym_min(SymTab *t, Sym *a, Sym *b);
Sym *sym_max(SymTab *t, Sym *a, Sym *b);
Sym *sym_binop(SymTab *t, int op, Sym *a, Sym *b);  /* op: a BinOp; comparisons give 0/1 */
bool sym_is_int(const Sym *s, int64_t *v);  /* a literal constant? */
/* Evaluate with params[i] the value of const param i; false on division by
 * zero or overflow. */
bool sym_eval(const Sym *s, const int64_t *params, int nparams, int64_t *out);
char *sym_str(Arena *a, const Sym *s);      /* "BM * 2", "128" */

/* ------------------------------------------------------------ types */

/*  X(enum, name, C storage type, C compute type, bits, is_float, is_signed) */
#define TK_DTYPES(X)                                                \
    X(DT_BOOL, "bool", "bool",     "bool",     8,  0, 0)            \
    X(DT_I8,   "i8",   "int8_t",   "int8_t",   8,  0, 1)            \
    X(DT_I16,  "i16",  "int16_t",  "int16_t",  16, 0, 1)            \
    X(DT_I32,  "i32",  "int32_t",  "int32_t",  32, 0, 1)            \
    X(DT_I64,  "i64",  "int64_t",  "int64_t",  64, 0, 1)            \
    X(DT_U8,   "u8",   "uint8_t",  "uint8_t",  8,  0, 0)            \
    X(DT_U32,  "u32",  "uint32_t", "uint32_t", 32, 0, 0)            \
    X(DT_F16,  "f16",  "tk_f16",   "float",    16, 1, 1)            \
    X(DT_BF16, "bf16", "tk_bf16",  "float",    16, 1, 1)            \
    X(DT_F32,  "f32",  "float",    "float",    32, 1, 1)            \
    X(DT_F64,  "f64",  "double",   "double",   64, 1, 1)

typedef enum {
#define X(e, ...) e,
    TK_DTYPES(X)
#undef X
    DT_COUNT
} DType;

typedef struct DTypeInfo {
    const char *name, *c_storage, *c_compute;
    int bits;
    bool is_float, is_signed;
} DTypeInfo;
extern const DTypeInfo dtype_info[DT_COUNT];
bool dtype_from_name(const char *name, DType *out);
#define dtype_is_float(d) (dtype_info[d].is_float)
#define dtype_is_int(d)   (!dtype_info[d].is_float && (d) != DT_BOOL)

typedef enum {
    TY_ERROR,    /* poisoned: an error was reported; silences cascades */
    TY_VOID,     /* statements, store(), fns without a result */
    TY_TILE,     /* dt + shape; rank 0 is a scalar */
    TY_TENSOR,   /* a tensor parameter: dt + rank (dims live in the Binding) */
    TY_DTYPE,    /* a type name used as a value: zeros(f32, [..]); dt */
    TY_LIST,     /* [a, b, ...] of const ints: a shape argument; rank + shape */
} TypeKind;

typedef struct Type {
    TypeKind kind;
    DType dt;
    int rank;
    Sym **shape;      /* rank entries (TY_TILE, TY_LIST) */
    bool weak;        /* an untyped literal: adopts the other operand's type */
} Type;

/* ---------------------------------------------------------------- AST */

typedef enum {
    B_ADD, B_SUB, B_MUL, B_DIV, B_MOD,
    B_LT, B_LE, B_GT, B_GE, B_EQ, B_NE,
    B_LAND, B_LOR,                     /* && || */
    B_AND, B_OR, B_XOR, B_SHL, B_SHR,  /* & | ^ << >> */
    B_COUNT
} BinOp;
extern const char *const binop_str[B_COUNT];   /* "+", "<=", ... */

typedef enum { U_NEG, U_NOT, U_BITNOT, U_COUNT } UnOp;   /* - ! ~ */
extern const char *const unop_str[U_COUNT];

typedef struct Expr Expr;
typedef struct Stmt Stmt;
typedef struct Block Block;
typedef struct Binding Binding;     /* sema/sema.h */
typedef struct FnInst FnInst;       /* sema/sema.h */

typedef struct Arg {                /* a call argument, maybe keyword */
    const char *kw;                 /* NULL when positional */
    Span kw_span;
    Expr *value;
} Arg;

typedef enum {
    EX_INT,       /* u.ival */
    EX_FLOAT,     /* u.fval (inf and nan are names resolved by sema) */
    EX_BOOL,      /* u.bval */
    EX_NAME,      /* u.name */
    EX_DTYPE,     /* u.dtype: a type name in expression position */
    EX_UNARY,     /* u.unary */
    EX_BINARY,    /* u.binary */
    EX_CAST,      /* u.cast: x as f16 */
    EX_CALL,      /* u.call: f(a, b, axis = 0) */
    EX_INDEX,     /* u.index: x[i, j], v[:, None] */
    EX_LIST,      /* u.list: [a, b] */
    EX_SLICE,     /* a bare ':' inside an index (no fields) */
    EX_NONE,      /* 'None' inside an index (no fields) */
    EX_UNCHECKED, /* u.unchecked: unchecked load(...) / unchecked store(...) */
} ExprKind;

struct Expr {
    ExprKind kind;
    Span span;
    union {
        int64_t ival;
        double fval;
        bool bval;
        DType dtype;
        struct { const char *id; Binding *bind; } name;   /* bind: sema */
        struct { UnOp op; Expr *x; } unary;
        struct { BinOp op; Expr *l, *r; } binary;
        struct { Expr *x; DType to; Span to_span;
                 const char *to_name; } cast;   /* x as NAME: NAME holds an element
                                                 * type (a fn parameter); sema sets to */
        struct {
            Expr *fn;                /* an EX_NAME */
            Arg *args; int nargs;
            int builtin;             /* sema: Builtin, or -1 for a fn */
            FnInst *inst;            /* sema: the instantiated fn */
        } call;
        struct { Expr *base; Expr **idx; int nidx; } index;
        struct { Expr **elts; int n; } list;
        struct { Expr *x; } unchecked;
    } u;
    /* set by sema */
    Type *type;
    Sym *cval;      /* compile-time integer value (int/bool consts), or NULL */
};

/* Type annotations: `int`, `bool`, `f32`, `f32[M, N]`, `strided bf16[B, S, D]`. */
typedef enum {
    TE_INT,      /* the keyword int: a compile-time integer (const params) */
    TE_DTYPE,    /* dt */
    TE_SHAPED,   /* dt[dims]; strided */
} TypeExprKind;

typedef struct TypeExpr {
    TypeExprKind kind;
    Span span;
    DType dt;
    bool strided;
    Expr **dims; int ndims;    /* each an EX_NAME or EX_INT (sema checks) */
} TypeExpr;

typedef enum {
    ST_LET,           /* u.let */
    ST_VAR,           /* u.let */
    ST_ASSIGN,        /* u.assign */
    ST_EXPR,          /* u.expr */
    ST_FOR,           /* u.for_ */
    ST_STATIC_FOR,    /* u.for_ */
    ST_IF,            /* u.if_ */
    ST_WHILE,         /* u.while_ */
    ST_RETURN,        /* u.expr, may be NULL */
    ST_BLOCK,         /* u.block */
    ST_STATIC_ASSERT, /* u.sassert */
    ST_PRINT,         /* u.print */
    ST_BREAK,         /* no fields */
    ST_CONTINUE,      /* no fields */
} StmtKind;

struct Stmt {
    StmtKind kind;
    Span span;
    union {
        struct {
            const char *name; Span name_span;
            TypeExpr *ty;            /* optional annotation */
            Expr *init;
            Binding *bind;           /* sema */
        } let;
        struct {
            Expr *target;            /* an EX_NAME */
            int op;                  /* -1 for '=', else B_ADD/B_SUB/B_MUL/B_DIV */
            Expr *value;
        } assign;
        Expr *expr;
        struct {
            const char *var; Span var_span;
            Expr *start, *end, *step;   /* range(end) gives start = step = NULL */
            Block *body;
            Binding *bind;           /* sema */
        } for_;
        struct { Expr *cond; Block *then, *else_; } if_;   /* else_ may be NULL */
        struct { Expr *cond; Block *body; } while_;
        Block *block;
        struct { Expr *cond; const char *msg; } sassert;   /* msg may be NULL */
        struct { const char *label; Expr *value; } print;  /* value may be NULL */
    } u;
};

struct Block { Stmt **stmts; int n; Span span; };

typedef struct Param {
    const char *name;
    Span span;                 /* the name */
    TypeExpr *ty;              /* NULL for an untyped fn parameter */
    Expr *deflt;               /* const params: default value, or NULL */
} Param;

typedef struct Attr {          /* @autotune(BM = [64, 128], warps = [4, 8]) */
    const char *name;
    Span span;
    Arg *args; int nargs;
} Attr;

typedef struct KernelDecl {
    const char *name;
    Span span;                 /* the name */
    Attr *attrs; int nattrs;
    Param *consts; int nconsts;    /* <BM: int = 128, ...> */
    Param *params; int nparams;    /* (x: f32[M, N], eps: f32) */
    Expr **grid; int ngrid;        /* 1..3 */
    Span grid_span;
    Expr **requires; int nrequires;
    Block *body;
} KernelDecl;

typedef struct FnDecl {
    const char *name;
    Span span;
    Param *params; int nparams;
    TypeExpr *ret;             /* optional */
    Block *body;
} FnDecl;

typedef enum { IT_KERNEL, IT_FN, IT_IMPORT } ItemKind;

typedef struct Item {
    ItemKind kind;
    union {
        KernelDecl *kernel;
        FnDecl *fn;
        struct { const char *path; Span span; } import;
    } u;
} Item;

typedef struct Ast {
    const Src *src;
    Item **items; int nitems;
} Ast;

void ast_print(FILE *out, const Ast *ast);      /* --emit=ast, S-expressions */

/* ------------------------------------------------------------- loader */

/* A program: the main file and, transitively, what it imports, each file
 * once.  Imports resolve relative to the importing file, then to each of
 * the search dirs (the stdlib's parent is one). */
typedef struct Program {
    Arena *arena;
    Ast **files; int nfiles;        /* files[0] is the main file */
} Program;

Src *src_read(Arena *a, const char *path, Diag *d, Span from);
Program *program_load(Arena *a, const char *path, const char **search, int nsearch, Diag *d);

#endif
