/*
 * lower/licm.c — hoist loop-invariant pure instructions out of `for` bodies.
 *
 * Inner loops first, so an invariant climbs as far as it can.  A pure
 * instruction whose operands are all defined outside the body moves to just
 * before the loop; pure ops never trap here (integer division by zero is
 * defined), so running them when the loop runs zero times is harmless.
 * Loads stay put: a store in the loop could change what they read.
 */
#include "tir.h"

static bool inside(const TirKernel *k, int v, const TBlock *body)
{
    for (const TBlock *b = k->instrs.v[v]->parent; b; b = b->owner ? b->owner->parent : NULL)
        if (b == body)
            return true;
    return false;
}

static bool hoistable(const TirKernel *k, const Instr *in, const TBlock *body)
{
    if (!(op_flags[in->op] & OPF_P) || in->op == OP_LOOPVAR || in->op == OP_LOAD || in->blocks[0])
        return false;
    for (int i = 0; i < in->nargs; i++)
        if (in->args[i] && inside(k, in->args[i], body))
            return false;
    return true;
}

static void licm_block(TirKernel *k, TBlock *b)
{
    Vec(int) out = {0};
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = k->instrs.v[b->ins.v[i]];
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                licm_block(k, in->blocks[j]);
        if (in->op == OP_FOR) {
            TBlock *body = in->blocks[0];
            int m = 0;
            for (int j = 0; j < body->ins.n; j++) {
                Instr *x = k->instrs.v[body->ins.v[j]];
                if (hoistable(k, x, body)) {
                    x->parent = b;
                    vec_push(k->arena, out, x->id);
                } else {
                    body->ins.v[m++] = x->id;
                }
            }
            body->ins.n = m;
        }
        vec_push(k->arena, out, in->id);
    }
    b->ins.v = out.v;
    b->ins.n = out.n;
    b->ins.cap = out.cap;
}

void lower_licm(TirKernel *k) { licm_block(k, k->body); }
