/*
 * lower/dce.c — remove pure instructions whose values are unused.
 *
 * Use counts include the kernel's grid and require values.  Blocks are
 * walked backwards, nested blocks before their owner, so every use of a
 * value is seen before the value: removing an instruction releases its
 * operands, and a dead chain disappears in one walk.  Loops and ifs left
 * with nothing inside go too.
 */
#include "tir.h"

typedef struct Dce { TirKernel *k; int *uses; } Dce;

static void count(TirKernel *k, Instr *in, void *ctx)
{
    int *uses = ctx;
    for (int i = 0; i < in->nargs; i++)
        uses[in->args[i]]++;
    (void)k;
}

static bool empty(const TBlock *b) { return !b || b->ins.n == 0; }

static bool removable(const Dce *d, const Instr *in)
{
    if (in->op == OP_NONE)
        return true;
    if (in->op == OP_IF)
        return empty(in->blocks[0]) && empty(in->blocks[1]);
    if (in->op == OP_FOR)   /* only the LOOPVAR left, unused */
        return in->blocks[0]->ins.n == 0 ||
               (in->blocks[0]->ins.n == 1 && d->uses[in->blocks[0]->ins.v[0]] == 0);
    return (op_flags[in->op] & OPF_P) && d->uses[in->id] == 0;
}

static void dce_block(Dce *d, TBlock *b)
{
    int n = b->ins.n;
    bool *dead = arena_alloc(d->k->arena, (size_t)(n ? n : 1));
    for (int i = n - 1; i >= 0; i--) {
        Instr *in = d->k->instrs.v[b->ins.v[i]];
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                dce_block(d, in->blocks[j]);
        if (removable(d, in) && in->op != OP_LOOPVAR) {
            dead[i] = true;
            for (int j = 0; j < in->nargs; j++)
                d->uses[in->args[j]]--;
        }
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!dead[i])
            b->ins.v[m++] = b->ins.v[i];
    b->ins.n = m;
}

void lower_dce(TirKernel *k)
{
    Dce d = {k, arena_alloc(k->arena, sizeof(int) * (size_t)(k->instrs.n + 1))};
    tir_walk(k, k->body, count, d.uses);
    for (int i = 0; i < k->ngrid; i++)
        d.uses[k->grid[i]]++;
    for (int i = 0; i < k->requires.n; i++)
        d.uses[k->requires.v[i].cond]++;
    dce_block(&d, k->body);
}
