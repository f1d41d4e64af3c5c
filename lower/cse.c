/*
 * lower/cse.c — common subexpression elimination for pure ops.
 *
 * A scoped hash table: walking a block in order, a pure instruction equal
 * to one already visible (same op, type, operands and attributes) is
 * replaced by it.  Entries made inside a nested block are dropped when the
 * walk leaves it, so a value is only reused where it dominates.  Loads are
 * not merged (a store may come between); neither are variables or loops.
 */
#include <string.h>

#include "tir.h"

#define NBUCKET 4096

typedef struct Cse {
    TirKernel *k;
    int *repl;
    int head[NBUCKET];
    Vec(int) next;      /* chain links by entry */
    Vec(int) ids;       /* entry -> instr id */
    Vec(int) bucket;    /* entry -> bucket */
} Cse;

static bool cse_able(const Instr *in)
{
    return (op_flags[in->op] & OPF_P) && in->op != OP_LOAD && in->op != OP_LOOPVAR;
}

static unsigned hash_instr(const Instr *in)
{
    uint64_t h = (uint64_t)in->op * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < in->nargs; i++)
        h = (h ^ (uint64_t)in->args[i]) * 0x100000001b3ull;
    h ^= (uint64_t)in->ival * 31 + (uint64_t)in->index * 7 + (uint64_t)in->axis;
    h ^= (uint64_t)in->ty.dt << 7;
    for (int i = 0; i < in->ty.rank; i++)
        h = (h ^ (uint64_t)in->ty.dim[i]) * 0x100000001b3ull;
    return (unsigned)(h ^ (h >> 29)) % NBUCKET;
}

static bool same(const Instr *a, const Instr *b)
{
    return a->op == b->op && a->nargs == b->nargs && tty_eq(&a->ty, &b->ty) &&
           memcmp(a->args, b->args, sizeof a->args) == 0 && a->ival == b->ival &&
           memcmp(&a->fval, &b->fval, sizeof a->fval) == 0 && a->index == b->index && a->axis == b->axis &&
           memcmp(a->perm, b->perm, sizeof a->perm) == 0 && a->rkind == b->rkind;
}

static void cse_block(Cse *c, TBlock *b)
{
    int mark = c->ids.n;
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = c->k->instrs.v[b->ins.v[i]];
        for (int j = 0; j < in->nargs; j++)
            in->args[j] = tir_resolve(c->repl, in->args[j]);
        if (cse_able(in)) {
            unsigned h = hash_instr(in);
            int e = c->head[h];
            while (e >= 0 && !same(c->k->instrs.v[c->ids.v[e]], in))
                e = c->next.v[e];
            if (e >= 0) {
                c->repl[in->id] = c->ids.v[e];
                continue;
            }
            vec_push(c->k->arena, c->ids, in->id);
            vec_push(c->k->arena, c->next, c->head[h]);
            vec_push(c->k->arena, c->bucket, (int)h);
            c->head[h] = c->ids.n - 1;
        }
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                cse_block(c, in->blocks[j]);
    }
    while (c->ids.n > mark) {   /* leave the scope: undo this block's entries */
        int e = --c->ids.n;
        c->head[c->bucket.v[e]] = c->next.v[e];
        c->next.n--;
        c->bucket.n--;
    }
}

void lower_cse(TirKernel *k)
{
    Cse *c = arena_alloc(k->arena, sizeof *c);
    c->k = k;
    c->repl = arena_alloc(k->arena, sizeof(int) * (size_t)(k->instrs.n + 1));
    memset(c->head, -1, sizeof c->head);
    cse_block(c, k->body);
    tir_apply_repl(k, c->repl);   /* grid, requires; the dead duplicates go in dce */
}
