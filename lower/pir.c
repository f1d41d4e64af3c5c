/*
 * lower/pir.c — the per-thread IR: constructors and the --emit=pir printer.
 *
 * Constructors check nothing that lowering cannot get wrong by typing; they
 * fold the few identities that keep index arithmetic readable (x + 0,
 * x * 1, conversions to the same type).
 */
#include <string.h>

#include "pir.h"

const char *const pir_ty_name[PT_COUNT] = {
#define X(n, s, b) s,
    PIR_TYPES(X)
#undef X
};
const int pir_ty_bits[PT_COUNT] = {
#define X(n, s, b) b,
    PIR_TYPES(X)
#undef X
};
const char *const pir_math_name[PM_COUNT] = {
#define X(n, s, k) s,
    PIR_MATHS(X)
#undef X
};
const int pir_math_nargs[PM_COUNT] = {
#define X(n, s, k) k,
    PIR_MATHS(X)
#undef X
};
const PirAsmInfo pir_asm[PA_COUNT] = {
#define X(n, s, no, ni, t, c, v) { s, no, ni, t, c, v },
    PIR_ASMS(X)
#undef X
};

bool pir_ty_float(PirTy t) { return t == PT_F32 || t == PT_F64; }
bool pir_ty_signed(PirTy t) { return t >= PT_I8 && t <= PT_I64; }
bool pir_ty_int(PirTy t) { return t >= PT_I8 && t <= PT_U64; }

PirTy pir_ty_of(DType dt)
{
    static const PirTy m[DT_COUNT] = {
        [DT_BOOL] = PT_BOOL, [DT_I8] = PT_I8, [DT_I16] = PT_I16, [DT_I32] = PT_I32,
        [DT_I64] = PT_I64, [DT_U8] = PT_U8, [DT_U32] = PT_U32, [DT_F16] = PT_F16,
        [DT_BF16] = PT_BF16, [DT_F32] = PT_F32, [DT_F64] = PT_F64,
    };
    return m[dt];
}

PirTy pir_ty_compute(DType dt) { return dt == DT_F16 || dt == DT_BF16 ? PT_F32 : pir_ty_of(dt); }

/* ------------------------------------------------------------ functions */

PirFunc *pir_func(Arena *a, const char *name)
{
    PirFunc *f = arena_alloc(a, sizeof *f);
    f->a = a;
    f->name = name;
    f->body = pir_block(f);
    return f;
}

int pir_add_param(PirFunc *f, PirParamKind kind, PirTy ty, unsigned flags, const char *name,
                  int index, int axis)
{
    PirParam p = { .kind = kind, .ty = ty, .flags = flags, .name = name, .index = index, .axis = axis };
    vec_push(f->a, f->params, p);
    return f->params.n - 1;
}

PirLocal *pir_local(PirFunc *f, const char *hint, PirTy ty, int64_t n)
{
    PirLocal *l = arena_alloc(f->a, sizeof *l);
    *l = (PirLocal){ f->locals.n, hint, ty, n };
    vec_push(f->a, f->locals, l);
    return l;
}

PirBlock *pir_block(PirFunc *f) { return arena_alloc(f->a, sizeof(PirBlock)); }

/* ------------------------------------------------------------ expressions */

static PirExpr *node(PirFunc *f, PirExprKind k, PirTy ty)
{
    PirExpr *e = arena_alloc(f->a, sizeof *e);
    e->kind = k;
    e->ty = ty;
    return e;
}

PirExpr *pir_int(PirFunc *f, PirTy ty, int64_t v)
{
    PirExpr *e = node(f, PE_CONST, ty);
    e->ival = v;
    return e;
}

PirExpr *pir_float(PirFunc *f, PirTy ty, double v)
{
    PirExpr *e = node(f, PE_CONST, ty);
    e->fval = v;
    return e;
}

PirExpr *pir_ref(PirFunc *f, PirLocal *l)
{
    PirExpr *e = node(f, PE_LOCAL, l->ty);
    e->local = l;
    return e;
}

PirExpr *pir_elem(PirFunc *f, PirLocal *l, PirExpr *idx)
{
    PirExpr *e = node(f, PE_ELEM, l->ty);
    e->local = l;
    e->a = idx;
    return e;
}

PirExpr *pir_param(PirFunc *f, int index)
{
    const PirParam *p = &f->params.v[index];
    PirExpr *e = node(f, PE_PARAM, p->kind == PP_TENSOR ? PT_PTR : p->kind == PP_TMAP ? PT_U64 : p->ty);
    e->elem = p->kind == PP_TENSOR ? p->ty : PT_VOID;
    e->index = index;
    return e;
}

PirExpr *pir_special(PirFunc *f, PirSpecial s)
{
    PirExpr *e = node(f, PE_SPECIAL, PT_I32);
    e->op = s;
    return e;
}

PirExpr *pir_un(PirFunc *f, PirUnOp op, PirExpr *a)
{
    PirExpr *e = node(f, PE_UN, a->ty);
    e->op = op;
    e->a = a;
    return e;
}

bool pir_is_int(const PirExpr *e, int64_t v)
{
    return e->kind == PE_CONST && !pir_ty_float(e->ty) && e->ival == v;
}

PirExpr *pir_bin(PirFunc *f, PirBinOp op, PirExpr *a, PirExpr *b)
{
    if (pir_ty_int(a->ty)) {
        if ((op == PB_ADD || op == PB_SUB) && pir_is_int(b, 0))
            return a;
        if (op == PB_ADD && pir_is_int(a, 0))
            return b;
        if ((op == PB_MUL || op == PB_DIV) && pir_is_int(b, 1))
            return a;
        if (op == PB_MUL && pir_is_int(a, 1))
            return b;
    }
    PirExpr *e = node(f, PE_BIN, op >= PB_LT ? PT_BOOL : a->ty);
    e->op = op;
    e->a = a;
    e->b = b;
    return e;
}

PirExpr *pir_nsw(PirFunc *f, PirBinOp op, PirExpr *a, PirExpr *b)
{
    PirExpr *e = pir_bin(f, op, a, b);
    if (e != a && e != b)
        e->nsw = true;
    return e;
}

PirExpr *pir_select(PirFunc *f, PirExpr *c, PirExpr *a, PirExpr *b)
{
    PirExpr *e = node(f, PE_SELECT, a->ty);
    e->a = c;
    e->b = a;
    e->c = b;
    return e;
}

PirExpr *pir_conv(PirFunc *f, PirTy to, PirExpr *a)
{
    if (a->ty == to)
        return a;
    if (a->kind == PE_CONST && pir_ty_int(a->ty) && pir_ty_int(to)
        && (pir_ty_bits[to] == 64 || (a->ival >= 0 && a->ival < ((int64_t)1 << (pir_ty_bits[to] - 1)))))
        return pir_int(f, to, a->ival);
    PirExpr *e = node(f, PE_CONV, to);
    e->a = a;
    return e;
}

PirExpr *pir_bitcast(PirFunc *f, PirTy to, PirExpr *a)
{
    PirExpr *e = node(f, PE_BITCAST, to);
    e->a = a;
    return e;
}

PirExpr *pir_math(PirFunc *f, PirMath fn, PirExpr *a, PirExpr *b, PirExpr *c)
{
    PirExpr *e = node(f, PE_MATH, a->ty);
    e->op = fn;
    e->a = a;
    e->b = b;
    e->c = c;
    return e;
}

PirExpr *pir_bar_and(PirFunc *f, PirExpr *a)
{
    PirExpr *e = node(f, PE_BAR_AND, PT_I32);
    e->a = a;
    return e;
}

PirExpr *pir_shfl_xor(PirFunc *f, PirExpr *a, int lane)
{
    PirExpr *e = node(f, PE_SHFL_XOR, a->ty);
    e->a = a;
    e->lane = lane;
    return e;
}

PirExpr *pir_load(PirFunc *f, PirMem m, PirExpr *mask, PirExpr *other)
{
    PirExpr *e = node(f, PE_LOAD, m.ty);
    e->mem = m;
    e->a = mask;
    e->b = other;
    return e;
}

PirExpr *pir_ptradd(PirFunc *f, PirExpr *p, PirExpr *i)
{
    if (pir_is_int(i, 0))
        return p;
    PirExpr *e = node(f, PE_PTRADD, PT_PTR);
    e->elem = p->elem;
    e->a = p;
    e->b = i;
    return e;
}

PirExpr *pir_ptrint(PirFunc *f, PirExpr *p)
{
    PirExpr *e = node(f, PE_PTRINT, PT_U64);
    e->a = p;
    return e;
}

PirExpr *pir_saddr(PirFunc *f, PirExpr *off)
{
    PirExpr *e = node(f, PE_SADDR, PT_U32);
    e->a = off;
    return e;
}

PirMem pir_gmem(PirTy ty, PirExpr *ptr, PirExpr *idx)
{
    return (PirMem){ .space = PSP_GLOBAL, .ty = ty, .ptr = ptr, .idx = idx };
}

PirMem pir_smem(PirTy ty, int64_t base, PirExpr *idx)
{
    return (PirMem){ .space = PSP_SHARED, .ty = ty, .base = base, .idx = idx };
}

bool pir_uses(const PirExpr *e, const PirLocal *l)
{
    if (!e)
        return false;
    if ((e->kind == PE_LOCAL || e->kind == PE_ELEM) && e->local == l)
        return true;
    return pir_uses(e->a, l) || pir_uses(e->b, l) || pir_uses(e->c, l)
           || (e->kind == PE_LOAD && (pir_uses(e->mem.ptr, l) || pir_uses(e->mem.idx, l)));
}

PirExpr *pir_subst(PirFunc *f, PirExpr *e, const PirLocal *from, PirExpr *by)
{
    if (!e || !pir_uses(e, from))
        return e;
    if (e->kind == PE_LOCAL)
        return by;
    PirExpr *r = node(f, e->kind, e->ty);
    *r = *e;
    r->a = pir_subst(f, e->a, from, by);
    r->b = pir_subst(f, e->b, from, by);
    r->c = pir_subst(f, e->c, from, by);
    r->mem.ptr = pir_subst(f, e->mem.ptr, from, by);
    r->mem.idx = pir_subst(f, e->mem.idx, from, by);
    return r;
}

/* ------------------------------------------------------------ statements */

PirStmt *pir_stmt(PirFunc *f, PirBlock *b, PirStmtKind kind)
{
    PirStmt *s = arena_alloc(f->a, sizeof *s);
    s->kind = kind;
    vec_push(f->a, b->s, s);
    return s;
}

void pir_decl(PirFunc *f, PirBlock *b, PirLocal *l, PirExpr *init)
{
    PirStmt *s = pir_stmt(f, b, PS_DECL);
    s->local = l;
    s->init = init;
}

void pir_assign(PirFunc *f, PirBlock *b, PirLocal *l, PirExpr *idx, PirExpr *val)
{
    PirStmt *s = pir_stmt(f, b, PS_ASSIGN);
    s->local = l;
    s->idx = idx;
    s->val = val;
}

PirStmt *pir_if(PirFunc *f, PirBlock *b, PirExpr *cond)
{
    PirStmt *s = pir_stmt(f, b, PS_IF);
    s->cond = cond;
    s->body = pir_block(f);
    return s;
}

PirStmt *pir_for(PirFunc *f, PirBlock *b, PirLocal *ctr, PirExpr *lo, PirExpr *hi, PirExpr *step,
                 bool unroll)
{
    PirStmt *s = pir_stmt(f, b, PS_FOR);
    s->local = ctr;
    s->lo = lo;
    s->hi = hi;
    s->next = pir_bin(f, PB_ADD, pir_ref(f, ctr), step);
    s->unroll = unroll;
    s->body = pir_block(f);
    return s;
}

void pir_store(PirFunc *f, PirBlock *b, PirMem m, PirExpr *val)
{
    PirStmt *s = pir_stmt(f, b, PS_STORE);
    s->mem = m;
    s->val = val;
}

void pir_atomic(PirFunc *f, PirBlock *b, PirMem m, PirExpr *val, PirAtomicOp op)
{
    PirStmt *s = pir_stmt(f, b, PS_ATOMIC);
    s->mem = m;
    s->val = val;
    s->aop = op;
}

const char *pir_print_format(Arena *a, int nidx, PirTy vt, const char **cast)
{
    Buf f = { .a = a };
    buf_printf(&f, "pid (%%lld, %%lld, %%lld)");
    for (int d = 0; d < nidx; d++)
        buf_printf(&f, "%s%%d%s", d ? ", " : " idx (", d == nidx - 1 ? ")" : "");
    buf_printf(&f, " %%s");
    *cast = NULL;
    if (vt == PT_VOID)
        return f.s;
    bool fl = pir_ty_float(vt);
    buf_printf(&f, ": %s", fl ? (vt == PT_F64 ? "%.15g" : "%.6g") : vt == PT_BOOL ? "%d" : "%lld");
    *cast = fl ? "double" : vt == PT_BOOL ? "int" : "long long";
    return f.s;
}

void pir_barrier(PirFunc *f, PirBlock *b) { pir_stmt(f, b, PS_BARRIER); }

PirStmt *pir_asm_stmt(PirFunc *f, PirBlock *b, PirAsmOp op)
{
    PirStmt *s = pir_stmt(f, b, PS_ASM);
    s->asm_op = op;
    return s;
}

char *pir_asm_text(Arena *a, const PirStmt *s)
{
    return pir_asm_text_at(a, s, pir_asm[s->asm_op].nout + s->nacc);
}

char *pir_asm_text_at(Arena *a, const PirStmt *s, int first)
{
    const PirAsmInfo *ai = &pir_asm[s->asm_op];
    Buf b = { .a = a };
    buf_puts(&b, "");
    for (const char *t = ai->ptx; *t; t++) {
        if (t[0] != '%' || t[1] != '{') {
            buf_putc(&b, *t);
            continue;
        }
        if (t[2] == 'A') {
            buf_putc(&b, '{');
            for (int i = 0; i < s->nacc; i++)
                buf_printf(&b, "%s%%%d", i ? ", " : "", ai->nout + i);
            buf_putc(&b, '}');
        } else if (t[2] == 'N') {
            buf_printf(&b, "%d", 2 * s->nacc);
        } else {
            buf_printf(&b, "%%%d", first + (t[2] - '0'));
        }
        t += 3;                            /* on the '}' */
    }
    return b.s;
}

char *pir_asm_cons(Arena *a, const PirStmt *s)
{
    return pir_asm_cons_run(a, &s, 1);
}

char *pir_asm_cons_run(Arena *a, const PirStmt *const *s, int ns)
{
    const PirAsmInfo *ai = &pir_asm[s[0]->asm_op];
    if (!s[0]->nacc)
        return arena_printf(a, "%s", ai->cons);
    Buf b = { .a = a };
    buf_puts(&b, "");
    const char *c = ai->cons;
    for (int i = 0; i < ai->nout; i++) {   /* the table's outputs */
        size_t n = strcspn(c, ",");
        buf_printf(&b, "%s%.*s", b.n ? "," : "", (int)n, c);
        c += n + (c[n] == ',');
    }
    for (int i = 0; i < s[0]->nacc; i++)  /* F32 accumulators, or I32 (wgmma s8) */
        buf_printf(&b, "%s=%c", b.n ? "," : "", s[0]->acc && s[0]->acc->ty == PT_I32 ? 'r' : 'f');
    for (int j = 0; j < ns; j++) {         /* each statement's inputs */
        if (j)
            c = pir_asm[s[j]->asm_op].cons;
        if (*c)
            buf_printf(&b, "%s%s", b.n ? "," : "", c);
    }
    for (int i = 0; i < s[0]->nacc; i++)
        buf_printf(&b, ",%d", ai->nout + i);
    return b.s;
}

/* ------------------------------------------------------------ printer */

static const char *const bin_name[] = {
    "add", "sub", "mul", "div", "rem", "min", "max", "and", "or", "xor", "shl", "shr",
    "lt", "le", "gt", "ge", "eq", "ne",
};
static const char *const un_name[] = { "neg", "not", "bitnot" };
static const char *const sreg_name[] = { "tid.x", "ctaid.x", "nctaid.x" };

static void pexpr(FILE *o, const PirFunc *f, const PirExpr *e);

static void pmem(FILE *o, const PirFunc *f, const PirMem *m)
{
    fprintf(o, "%s %s[", m->space == PSP_GLOBAL ? "global" : "shared", pir_ty_name[m->ty]);
    if (m->space == PSP_GLOBAL)
        pexpr(o, f, m->ptr);
    else
        fprintf(o, "%lld", (long long)m->base);
    fprintf(o, " + ");
    pexpr(o, f, m->idx);
    fprintf(o, "]");
}

static void pexpr(FILE *o, const PirFunc *f, const PirExpr *e)
{
    const char *t = pir_ty_name[e->ty];
    switch (e->kind) {
    case PE_CONST:
        if (pir_ty_float(e->ty))
            fprintf(o, "%s %.17g", t, e->fval);
        else
            fprintf(o, "%s %lld", t, (long long)e->ival);
        return;
    case PE_LOCAL:
        fprintf(o, "%%%s%d", e->local->hint, e->local->id);
        return;
    case PE_ELEM:
        fprintf(o, "%%%s%d[", e->local->hint, e->local->id);
        pexpr(o, f, e->a);
        fprintf(o, "]");
        return;
    case PE_PARAM:
        fprintf(o, "@%s", f->params.v[e->index].name);
        return;
    case PE_SPECIAL:
        fprintf(o, "%s", sreg_name[e->op]);
        return;
    case PE_LOAD:
        fprintf(o, "(load ");
        pmem(o, f, &e->mem);
        if (e->a) {
            fprintf(o, " if ");
            pexpr(o, f, e->a);
            fprintf(o, " else ");
            if (e->b)
                pexpr(o, f, e->b);
            else
                fprintf(o, "0");
        }
        fprintf(o, ")");
        return;
    case PE_BAR_AND:
        fprintf(o, "(bar.and ");
        pexpr(o, f, e->a);
        fprintf(o, ")");
        return;
    case PE_SHFL_XOR:
        fprintf(o, "(shfl.xor ");
        pexpr(o, f, e->a);
        fprintf(o, ", %d)", e->lane);
        return;
    default:
        break;
    }
    const char *n = e->kind == PE_UN ? un_name[e->op] : e->kind == PE_BIN ? bin_name[e->op]
                  : e->kind == PE_SELECT ? "select" : e->kind == PE_CONV ? "conv"
                  : e->kind == PE_BITCAST ? "bitcast" : e->kind == PE_MATH ? pir_math_name[e->op]
                  : e->kind == PE_PTRADD ? "ptradd" : e->kind == PE_PTRINT ? "ptrint" : "saddr";
    fprintf(o, "(%s%s.%s", n, e->nsw ? ".nsw" : "", t);
    for (const PirExpr *const *x = (const PirExpr *const[]){ e->a, e->b, e->c, NULL }; *x; x++) {
        fprintf(o, " ");
        pexpr(o, f, *x);
    }
    fprintf(o, ")");
}

static void pblock(FILE *o, const PirFunc *f, const PirBlock *b, int d);

static void pstmt(FILE *o, const PirFunc *f, const PirStmt *s, int d)
{
    fprintf(o, "%*s", 2 * d, "");
    const PirLocal *l = s->local;
    switch (s->kind) {
    case PS_DECL:
        fprintf(o, "local %%%s%d: %s", l->hint, l->id, pir_ty_name[l->ty]);
        if (l->n)
            fprintf(o, "[%lld]", (long long)l->n);
        if (s->init) {
            fprintf(o, " = ");
            pexpr(o, f, s->init);
        }
        break;
    case PS_ASSIGN:
        fprintf(o, "%%%s%d", l->hint, l->id);
        if (s->idx) {
            fprintf(o, "[");
            pexpr(o, f, s->idx);
            fprintf(o, "]");
        }
        fprintf(o, " = ");
        pexpr(o, f, s->val);
        break;
    case PS_IF:
        fprintf(o, "if%s ", s->elidable ? ".elidable" : "");
        pexpr(o, f, s->cond);
        fprintf(o, " {\n");
        pblock(o, f, s->body, d + 1);
        if (s->els) {
            fprintf(o, "%*s} else {\n", 2 * d, "");
            pblock(o, f, s->els, d + 1);
        }
        fprintf(o, "%*s}\n", 2 * d, "");
        return;
    case PS_FOR:
        fprintf(o, "for%s %%%s%d: %s = ", s->unroll ? ".unroll" : "", l->hint, l->id, pir_ty_name[l->ty]);
        pexpr(o, f, s->lo);
        fprintf(o, " while < ");
        pexpr(o, f, s->hi);
        fprintf(o, " next ");
        pexpr(o, f, s->next);
        fprintf(o, " {\n");
        pblock(o, f, s->body, d + 1);
        fprintf(o, "%*s}\n", 2 * d, "");
        return;
    case PS_WHILE:
        fprintf(o, "while ");
        if (s->cond)
            pexpr(o, f, s->cond);
        else
            fprintf(o, "true");
        fprintf(o, " {\n");
        pblock(o, f, s->body, d + 1);
        fprintf(o, "%*s}\n", 2 * d, "");
        return;
    case PS_BLOCK:
        fprintf(o, "{\n");
        pblock(o, f, s->body, d + 1);
        fprintf(o, "%*s}\n", 2 * d, "");
        return;
    case PS_BREAK:
        fprintf(o, "break");
        break;
    case PS_CONTINUE:
        fprintf(o, "continue");
        break;
    case PS_BARRIER:
        fprintf(o, "barrier");
        if (s->nbar)
            fprintf(o, " %d, %d", s->bar, s->nbar);
        break;
    case PS_PRINT:
        fprintf(o, "print %s", arena_cquote(f->a, s->label));
        for (int i = 0; i < 3 + s->nw; i++) {
            fprintf(o, i ? ", " : " ");
            pexpr(o, f, s->in[i]);
        }
        if (s->val) {
            fprintf(o, ": ");
            pexpr(o, f, s->val);
        }
        break;
    case PS_ATOMIC: {
        static const char *const name[] = { "add", "max", "min" };
        fprintf(o, "atomic.%s ", name[s->aop]);
        pmem(o, f, &s->mem);
        fprintf(o, ", ");
        pexpr(o, f, s->val);
        break;
    }
    case PS_STORE:
        fprintf(o, "store%s ", s->ordered ? ".ordered" : "");
        pmem(o, f, &s->mem);
        fprintf(o, " = ");
        if (s->nw) {
            fprintf(o, "v%d{", s->nw);
            for (int i = 0; i < s->nw; i++) {
                fprintf(o, i ? ", " : "");
                pexpr(o, f, s->w[i]);
            }
            fprintf(o, "}");
        } else {
            pexpr(o, f, s->val);
        }
        break;
    case PS_LOADV:
        fprintf(o, "%%%s%d[%d..%d] = loadv ", l->hint, l->id, s->dst0, s->dst0 + s->nw - 1);
        pmem(o, f, &s->mem);
        break;
    case PS_ASM: {
        const PirAsmInfo *ai = &pir_asm[s->asm_op];
        fprintf(o, "asm.%s {", ai->name);
        for (int i = 0; i < ai->nout; i++) {
            fprintf(o, i ? ", " : "");
            pexpr(o, f, s->out[i]);
        }
        if (s->nacc)
            fprintf(o, "%s%%%s%d[%lld..%lld]", ai->nout ? ", " : "", s->acc->hint, s->acc->id,
                    (long long)s->acc0, (long long)(s->acc0 + s->nacc - 1));
        fprintf(o, "} (");
        for (int i = 0; i < ai->nin; i++) {
            fprintf(o, i ? ", " : "");
            pexpr(o, f, s->in[i]);
        }
        fprintf(o, ")");
        break;
    }
    }
    fprintf(o, "\n");
}

static void pblock(FILE *o, const PirFunc *f, const PirBlock *b, int d)
{
    for (int i = 0; i < b->s.n; i++)
        pstmt(o, f, b->s.v[i], d);
}

void pir_print(FILE *o, const PirFunc *f)
{
    static const char *const kind[] = { "tensor", "scalar", "dim", "stride", "grid", "tmap", "tma_ok" };
    fprintf(o, "func @%s threads %d smem %lld", f->name, f->threads, (long long)f->smem);
    if (f->min_blocks)
        fprintf(o, " min_blocks %d", f->min_blocks);
    fprintf(o, "%s%s (\n", f->persistent ? " persistent" : "", f->cluster == 2 ? " cluster 2" : "");
    for (int i = 0; i < f->params.n; i++) {
        const PirParam *p = &f->params.v[i];
        fprintf(o, "  %s @%s: %s%s%s", kind[p->kind], p->name, pir_ty_name[p->ty],
                p->flags & PIR_CONST ? " const" : "", p->flags & PIR_NOALIAS ? " noalias" : "");
        if (p->kind == PP_TMAP)
            fprintf(o, " of p%d box %dx%d", p->index, p->box[0], p->box[1]);
        fprintf(o, "\n");
    }
    fprintf(o, ") {\n");
    pblock(o, f, f->body, 1);
    fprintf(o, "}\n");
}
