/*
 * lower/tir.c — building tile IR and printing it (--emit=tir).
 *
 * The op tables come from the X-macro in ops.h, so names, arity and flags
 * can never disagree with the enum.  tir_new is the one way to create an
 * instruction: it gives it the next id (instrs.v[0] is a placeholder so
 * that id 0 means "no value") and appends it to its block.
 *
 * The printer writes one instruction a line, nested blocks indented by two
 * spaces, in a form that is stable from run to run so golden tests can diff
 * it:
 *
 *   kernel softmax consts(BLOCK=1024) grid(%3)
 *     require %5  // N <= BLOCK
 *     var acc: f32[64, 64]
 *   {
 *     %1 = dim i64 #1
 *     %12 = add f32[128] %10, %11
 *     for %20, %21, %22 {
 *       %23 = loopvar i32
 *       ...
 *     }
 *   }
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tir.h"

const char *const op_name[OP_COUNT] = {
    "none",
#define X(name, s, n, f) s,
    TIR_OPS(X)
#undef X
};

const int op_nargs[OP_COUNT] = {
    0,
#define X(name, s, n, f) n,
    TIR_OPS(X)
#undef X
};

const int op_flags[OP_COUNT] = {
    0,
#define X(name, s, n, f) f,
    TIR_OPS(X)
#undef X
};

static const char *const rkind_name[] = { "sum", "max", "min", "argmax", "argmin" };

Instr *tir_new(TirKernel *k, TBlock *b, Op op, TTy ty)
{
    if (k->instrs.n == 0)
        vec_push(k->arena, k->instrs, (Instr *)arena_alloc(k->arena, sizeof(Instr)));
    Instr *in = arena_alloc(k->arena, sizeof *in);
    in->op = op;
    in->id = k->instrs.n;
    in->ty = ty;
    in->nargs = op_nargs[op];
    in->parent = b;
    vec_push(k->arena, k->instrs, in);
    if (b)
        vec_push(k->arena, b->ins, in->id);
    return in;
}

TBlock *tir_block(TirKernel *k, Instr *owner)
{
    TBlock *b = arena_alloc(k->arena, sizeof *b);
    b->owner = owner;
    return b;
}

bool tty_eq(const TTy *a, const TTy *b)
{
    if (a->dt != b->dt || a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (a->dim[i] != b->dim[i])
            return false;
    return true;
}

/* Do shapes a and b differ in size-1 dims only (a reshape between them is
 * an expand_dims / squeeze that keeps every element's index)? */
bool tty_same_but_ones(const TTy *a, const TTy *b)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < a->rank && a->dim[i] == 1)
            i++;
        while (j < b->rank && b->dim[j] == 1)
            j++;
        if (i == a->rank || j == b->rank)
            return i == a->rank && j == b->rank;
        if (a->dim[i++] != b->dim[j++])
            return false;
    }
}

int64_t tty_numel(const TTy *t)
{
    int64_t n = 1;
    for (int i = 0; i < t->rank; i++)
        n *= t->dim[i];
    return n;
}

static void count_block(const TirKernel *k, const TBlock *b, int *uses)
{
    for (int i = 0; i < b->ins.n; i++) {
        const Instr *in = k->instrs.v[b->ins.v[i]];
        for (int j = 0; j < in->nargs; j++)
            if (in->args[j] > 0 && in->args[j] < k->instrs.n)
                uses[in->args[j]]++;
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                count_block(k, in->blocks[j], uses);
    }
}

const Instr *tir_loop_of(const Instr *in)
{
    for (const TBlock *b = in->parent; b && b->owner; b = b->owner->parent)
        if (b->owner->op == OP_FOR || b->owner->op == OP_WHILE)
            return b->owner;
    return NULL;
}

/* Only instructions reachable from the body count: a pass may leave
 * detached instructions behind in k->instrs. */
int *tir_use_counts(const TirKernel *k)
{
    int *uses = arena_alloc(k->arena, sizeof(int) * (size_t)(k->instrs.n + 1));
    for (int i = 0; i < k->ngrid; i++)
        uses[k->grid[i]]++;
    for (int i = 0; i < k->requires.n; i++)
        uses[k->requires.v[i].cond]++;
    if (k->body)
        count_block(k, k->body, uses);
    return uses;
}

/* ---------------------------------------------------------------- liveness */

bool tir_is_root(Op op) { return !(op_flags[op] & OPF_P) && op != OP_VAR_GET; }

static void mark_live(const TirKernel *k, bool *live, int v)
{
    if (v <= 0 || v >= k->instrs.n || live[v])
        return;
    live[v] = true;
    const Instr *in = k->instrs.v[v];
    for (int j = 0; j < in->nargs; j++)
        mark_live(k, live, in->args[j]);
}

static void live_block(const TirKernel *k, bool *live, const TBlock *b)
{
    for (int i = 0; i < b->ins.n; i++) {
        const Instr *in = k->instrs.v[b->ins.v[i]];
        if (tir_is_root(in->op) || in->op == OP_LOOPVAR)
            mark_live(k, live, in->id);
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                live_block(k, live, in->blocks[j]);
    }
}

bool *tir_live(Arena *a, const TirKernel *k)
{
    bool *live = arena_alloc(a, (size_t)k->instrs.n + 1);
    if (k->body)
        live_block(k, live, k->body);
    return live;
}

/* ---------------------------------------------------------------- printer */

static void print_ty(FILE *out, const TTy *t)
{
    fputs(dtype_info[t->dt].name, out);
    if (t->rank == 0)
        return;
    fputc('[', out);
    for (int i = 0; i < t->rank; i++)
        fprintf(out, "%s%" PRId64, i ? ", " : "", t->dim[i]);
    fputc(']', out);
}

static void print_fval(FILE *out, double v)
{
    if (isnan(v))
        fputs("nan", out);
    else if (isinf(v))
        fputs(v < 0 ? "-inf" : "inf", out);
    else
        fprintf(out, "%.17g", v);
}

/* The attributes an op reads, after its operands. */
static void print_attrs(FILE *out, const TirKernel *k, const Instr *in)
{
    const KernelInfo *ki = k->info;
    switch (in->op) {
    case OP_CONST:
        if (dtype_is_float(in->ty.dt))
            fputc(' ', out), print_fval(out, in->fval);
        else if (in->ty.dt == DT_BOOL)
            fputs(in->ival ? " true" : " false", out);
        else
            fprintf(out, " %" PRId64, in->ival);
        break;
    case OP_ARANGE:
        fprintf(out, " start=%" PRId64, in->ival);
        break;
    case OP_DOT:
        if (in->ival)
            fputs(" tf32", out);
        break;
    case OP_DIM:
        if (ki && in->index >= 0 && in->index < ki->ndims)
            fprintf(out, " %s", ki->dims[in->index].name);
        else
            fprintf(out, " #%d", in->index);
        break;
    case OP_ARG:
    case OP_LOAD:
    case OP_STORE:
    case OP_ATOMIC:
        if (in->op == OP_ATOMIC)
            fputs(in->rkind == RK_MAX ? " max" : " add", out);
        if (ki && in->index >= 0 && in->index < ki->nparams)
            fprintf(out, " @%s", ki->params[in->index].name);
        else
            fprintf(out, " @#%d", in->index);
        if (in->unchecked)
            fputs(" unchecked", out);
        break;
    case OP_PRINT:
        fprintf(out, " %s", arena_cquote(k->arena, in->label));
        break;
    case OP_STRIDE:
        if (ki && in->index >= 0 && in->index < ki->nparams)
            fprintf(out, " @%s axis=%d", ki->params[in->index].name, in->axis);
        else
            fprintf(out, " @#%d axis=%d", in->index, in->axis);
        break;
    case OP_VAR_GET:
    case OP_VAR_SET:
        if (in->index >= 0 && in->index < k->vars.n && k->vars.v[in->index].name)
            fprintf(out, " $%s", k->vars.v[in->index].name);
        else
            fprintf(out, " $%d", in->index);
        break;
    case OP_PROGRAM_ID:
    case OP_EXPAND_DIMS:
    case OP_CUMSUM:
        fprintf(out, " axis=%d", in->axis);
        break;
    case OP_REDUCE:
        fprintf(out, " %s axis=%d",
                (unsigned)in->rkind < 5 ? rkind_name[in->rkind] : "?", in->axis);
        break;
    case OP_TRANS:
        fputs(" perm=[", out);
        for (int i = 0; i < in->ty.rank; i++)
            fprintf(out, "%s%d", i ? ", " : "", in->perm[i]);
        fputc(']', out);
        break;
    default:
        break;
    }
}

/* Ops whose result type carries no information. */
static bool op_has_value(Op op)
{
    switch (op) {
    case OP_STORE: case OP_ATOMIC: case OP_PRINT: case OP_VAR_SET: case OP_FOR: case OP_IF: case OP_WHILE:
    case OP_YIELD: case OP_BREAK: case OP_CONTINUE:
        return false;
    default:
        return true;
    }
}

static void print_block(FILE *out, const TirKernel *k, const TBlock *b, int depth);

static void print_instr(FILE *out, const TirKernel *k, const Instr *in, int depth)
{
    fprintf(out, "%*s", 2 * depth, "");
    if (op_has_value(in->op) || (in->op == OP_ATOMIC && in->ival)) {
        fprintf(out, "%%%d = %s ", in->id, op_name[in->op]);
        print_ty(out, &in->ty);
    } else {
        fputs(op_name[in->op], out);
    }
    int last = in->nargs;                    /* trailing absent operands: omitted */
    while (last > 0 && in->args[last - 1] == 0)
        last--;
    for (int j = 0; j < last; j++) {
        fputs(j ? ", " : " ", out);
        if (in->args[j])
            fprintf(out, "%%%d", in->args[j]);
        else
            fputs("_", out);
    }
    print_attrs(out, k, in);
    if (in->blocks[0]) {
        fputs(" {\n", out);
        print_block(out, k, in->blocks[0], depth + 1);
        fprintf(out, "%*s}", 2 * depth, "");
        if (in->blocks[1]) {
            fputs(in->op == OP_WHILE ? " do {\n" : " else {\n", out);
            print_block(out, k, in->blocks[1], depth + 1);
            fprintf(out, "%*s}", 2 * depth, "");
        }
    }
    fputc('\n', out);
}

static void print_block(FILE *out, const TirKernel *k, const TBlock *b, int depth)
{
    for (int i = 0; i < b->ins.n; i++) {
        int id = b->ins.v[i];
        if (id <= 0 || id >= k->instrs.n || !k->instrs.v[id]) {
            fprintf(out, "%*s<bad id %d>\n", 2 * depth, "", id);
            continue;
        }
        print_instr(out, k, k->instrs.v[id], depth);
    }
}

static void print_header(FILE *out, const TirKernel *k)
{
    const KernelInfo *ki = k->info;
    fprintf(out, "kernel %s", k->name ? k->name : ki ? ki->name : "?");
    if (ki && ki->nconsts > 0) {
        fputs(" consts(", out);
        for (int i = 0; i < ki->nconsts; i++) {
            fprintf(out, "%s%s=", i ? ", " : "", ki->consts[i].name);
            if (ki->consts[i].kind == TE_DTYPE && dtype_is_float(ki->consts[i].dt))
                print_fval(out, ki->consts[i].fval);
            else
                fprintf(out, "%" PRId64, k->cvals ? k->cvals[i] : ki->consts[i].ival);
        }
        fputc(')', out);
    }
    fputs(" grid(", out);
    for (int i = 0; i < k->ngrid; i++)
        fprintf(out, "%s%%%d", i ? ", " : "", k->grid[i]);
    fputs(")\n", out);
    for (int i = 0; i < k->requires.n; i++)
        fprintf(out, "  require %%%d  // %s\n", k->requires.v[i].cond,
                k->requires.v[i].text ? k->requires.v[i].text : "");
    for (int i = 0; i < k->vars.n; i++) {
        fprintf(out, "  var $%s: ", k->vars.v[i].name ? k->vars.v[i].name : "?");
        print_ty(out, &k->vars.v[i].ty);
        fputc('\n', out);
    }
}

void tir_print(FILE *out, const TirKernel *k)
{
    print_header(out, k);
    fputs("{\n", out);
    if (k->body)
        print_block(out, k, k->body, 1);
    fputs("}\n", out);
}

/* ---------------------------------------------------------------- clone */

/* b's copy in c, whose instructions (copies of k's, same ids) get it as
 * parent and their nested blocks copied too. */
static TBlock *clone_block(TirKernel *c, const TBlock *b, Instr *owner)
{
    TBlock *nb = tir_block(c, owner);
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = c->instrs.v[b->ins.v[i]];
        vec_push(c->arena, nb->ins, in->id);
        in->parent = nb;
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                in->blocks[j] = clone_block(c, in->blocks[j], in);
    }
    return nb;
}

TirKernel *tir_clone(const TirKernel *k, const char *name)
{
    TirKernel *c = arena_alloc(k->arena, sizeof *c);
    *c = *k;
    c->name = name;
    memset(&c->instrs, 0, sizeof c->instrs);
    memset(&c->requires, 0, sizeof c->requires);
    memset(&c->vars, 0, sizeof c->vars);
    for (int i = 0; i < k->instrs.n; i++) {
        Instr *in = arena_alloc(k->arena, sizeof *in);
        *in = *k->instrs.v[i];
        vec_push(c->arena, c->instrs, in);
    }
    for (int i = 0; i < k->requires.n; i++)
        vec_push(c->arena, c->requires, k->requires.v[i]);
    for (int i = 0; i < k->vars.n; i++)
        vec_push(c->arena, c->vars, k->vars.v[i]);
    /* instructions no block holds any more (removed by passes) keep k's
     * blocks, as they do in k: nothing reaches them */
    c->body = clone_block(c, k->body, NULL);
    return c;
}
