/*
 * lower/splat.c — elementwise integer and bool ops on splats become scalar
 * ops, splat (TKC_SPLAT_FOLD=1; an experiment, off).
 *
 * An index expression such as k[b, h, rn, rd] lowers to tiles of
 * broadcast(b) * broadcast(stride0) + broadcast(h) * broadcast(stride1) + ...,
 * and its bound check to broadcast(b) >= 0 && broadcast(b) < broadcast(B)
 * ...: on the GPU every lane (every 16-byte chunk of a cp.async copy)
 * recomputes those products and comparisons, in 64 bits.  Here an op whose
 * every operand is a splat of a scalar is computed once on the scalars and
 * its result splat, so that b * stride0 + h * stride1 is one scalar of the
 * program.  Integers and bools only: their scalar ops are exact in every
 * target, as the lanes' are.  Runs after the masks pass, which reads the
 * tile forms of the bound checks.  SASS of sdpa_bf16's D=128 key loop
 * 1204 -> 1192 instructions; H100, same run, with the first pass's key
 * loads unchecked: D=64 305.0 TFLOP/s vs 294.6, causal 253.6 vs 243.4,
 * D=128 289.4 vs 285.8, but 128 x 128 blocks 297.3 vs 276.2 and with
 * checked loads 301.4 (doc/bench/h100-s6-attn-3.log): within what ptxas's
 * scheduling moves, so off.
 */
#include "gpu.h"

static bool intish(DType dt) { return dtype_is_int(dt) || dt == DT_BOOL; }

/* The scalar that v splats (broadcast of a rank-0 value), else 0. */
static int splat_of(const TirKernel *k, int v)
{
    const Instr *d = tir_def(k, v);
    if (!d || d->op != OP_BROADCAST || d->nargs < 1)
        return 0;
    const Instr *s = tir_def(k, d->args[0]);
    return s && s->ty.rank == 0 && s->ty.dt == d->ty.dt ? s->id : 0;
}

static void splat_block(TirKernel *k, TBlock *b)
{
    for (int i = 0; i < b->ins.n; i++) {
        Instr *in = k->instrs.v[b->ins.v[i]];
        for (int j = 0; j < 2; j++)
            if (in->blocks[j])
                splat_block(k, in->blocks[j]);
        if (in->ty.rank == 0 || in->nargs < 1 || in->nargs > 3 || in->op == OP_LOAD
            || (op_flags[in->op] & (OPF_P | OPF_E)) != (OPF_P | OPF_E) || !intish(in->ty.dt))
            continue;
        int s[3] = { 0 };
        bool ok = true;
        for (int j = 0; j < in->nargs && ok; j++) {
            s[j] = splat_of(k, in->args[j]);
            ok = s[j] && intish(tir_def(k, s[j])->ty.dt);
        }
        if (!ok)
            continue;
        Instr *x = tir_new_before(k, in, in->op, (TTy){ .dt = in->ty.dt });
        x->nargs = in->nargs;
        for (int j = 0; j < in->nargs; j++)
            x->args[j] = s[j];
        x->ival = in->ival;
        x->fval = in->fval;
        x->span = in->span;
        i++;                               /* tir_new_before put x at in's place */
        in->op = OP_BROADCAST;
        in->nargs = 1;
        in->args[0] = x->id;
        in->args[1] = in->args[2] = 0;
    }
}

void lower_splat(TirKernel *k)
{
    if (tkc_knob("TKC_SPLAT_FOLD", 0) == 1)
        splat_block(k, k->body);
}
