/*
 * lower/version.c — versions of a GPU kernel by the branches its launcher
 * can decide.
 *
 * A kernel often holds several whole paths, one per case of its sizes:
 * stdlib's sdpa_relpos_bf16 walks the keys one key row per block, two or
 * four rows per block, or in pieces of long rows, by the key-row width KW.
 * Each path is an `if` at the kernel's top level whose condition uses only
 * dims, scalar parameters, strides and constants: values the launcher
 * computes anyway (the kernel's "head", as for the grid and the requires).
 * One function with every path costs each of them: ptxas allocates
 * registers and schedules for all the code, and spills where the paths
 * together need more than `blocks` allows.
 *
 * Where the top level holds two or more such ifs that contain a loop, the
 * kernel is also compiled once per such if (tir_versions): version j is the
 * kernel with if j's condition replaced by true and the conditions of all
 * the other top-level ifs the launcher can decide (with a loop or without)
 * by false, folded, so that it holds if j's code alone (and the else
 * branches of the others).  The launcher evaluates those conditions and
 * runs version j where if j's alone holds, and the whole kernel otherwise
 * (none, several, or one without a loop: the code as written).  The
 * versions are exact: a version runs only where each condition it fixed
 * has the value it was given.  The ifs without a loop are fixed too: an
 * `if KW <= 0 { store zeros }` left after sdpa_relpos_bf16's global walk
 * cost the walk 4% (doc/bench/h200-s29-v3.log).
 *
 * H200, SAM ViT-B global attention (B=8 H=12 S=T=4096 D=64), 20 rounds in
 * turns with torch's no-bias SDPA: sdpa_relpos_bf16 1.133 ms, ratio 0.849,
 * vs 1.199 (0.802) the whole kernel; windowed 0.229 vs 0.251 ms
 * (doc/bench/h200-s29-v1.log; ptxas 0 bytes of spills in the versions vs
 * 84 in the whole kernel).  The cost: more functions to compile
 * (stdlib/attention.tk's header 9.0 s instead of 7.3 on a 2-core machine).
 * TKC_VERSIONS=0 turns it off.
 */
#include <string.h>

#include "gpu.h"

#define MAX_IFS 16     /* top-level ifs with launcher-computed conditions */

/* Can the launcher compute v: dims, scalar params, strides, constants and
 * scalar arithmetic of them, all in the body's top (targets/cuda/check.c
 * prints such values)?  memo: 0 unknown, 1 yes, 2 no. */
static bool head_value(const TirKernel *k, int v, char *memo)
{
    if (v <= 0 || v >= k->instrs.n)
        return false;
    if (memo[v])
        return memo[v] == 1;
    const Instr *in = k->instrs.v[v];
    const KernelInfo *ki = k->info;
    bool ok = in->parent == k->body;
    switch (in->op) {
    case OP_CONST:
        break;
    case OP_DIM:
        ok = ok && in->index >= 0 && in->index < ki->ndims && !ki->dims[in->index].specialized;
        break;
    case OP_ARG:
        ok = ok && in->index >= 0 && in->index < ki->nparams && !ki->params[in->index].is_tensor;
        break;
    case OP_STRIDE:
        ok = ok && in->index >= 0 && in->index < ki->nparams && ki->params[in->index].is_tensor
             && ki->params[in->index].strided && in->axis >= 0 && in->axis < ki->params[in->index].rank;
        break;
    default:
        ok = ok && in->ty.rank == 0 && (op_flags[in->op] & OPF_E);
        for (int j = 0; ok && j < in->nargs; j++)
            ok = in->args[j] <= 0 || head_value(k, in->args[j], memo);
        break;
    }
    memo[v] = ok ? 1 : 2;
    return ok;
}

static bool has_loop(const TirKernel *k, const TBlock *b)
{
    for (int i = 0; b && i < b->ins.n; i++) {
        const Instr *in = k->instrs.v[b->ins.v[i]];
        if (in->op == OP_FOR || in->op == OP_WHILE || has_loop(k, in->blocks[0]) || has_loop(k, in->blocks[1]))
            return true;
    }
    return false;
}

bool tir_versions(TirKernel *k, TirVersions *v)
{
    memset(v, 0, sizeof *v);
    if (!tkc_knob("TKC_VERSIONS", 1) || !k->body)
        return false;
    char *memo = arena_alloc(k->arena, (size_t)k->instrs.n + 1);
    int ifs[MAX_IFS], *ver = arena_alloc(k->arena, sizeof(int) * MAX_IFS), n = 0, nv = 0;
    for (int i = 0; i < k->body->ins.n; i++) {
        const Instr *in = k->instrs.v[k->body->ins.v[i]];
        if (in->op != OP_IF || !head_value(k, in->args[0], memo))
            continue;
        if (n == MAX_IFS)
            return false;
        bool heavy = has_loop(k, in->blocks[0]) || has_loop(k, in->blocks[1]);
        ver[n] = heavy ? ++nv : 0;
        ifs[n++] = in->id;
    }
    if (nv < 2) {
        if (n)
            tir_log("versions", "%s: %d launcher-decided if(s), %d with a loop: no versions", k->name, n, nv);
        return false;
    }
    tir_log("versions", "%s: %d versions (%d launcher-decided ifs)", k->name, nv, n);
    v->n = nv;
    v->ncond = n;
    v->ver = ver;
    v->k = arena_alloc(k->arena, sizeof(TirKernel *) * (size_t)nv);
    v->cond = arena_alloc(k->arena, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        v->cond[i] = k->instrs.v[ifs[i]]->args[0];
    for (int j = 1; j <= nv; j++) {
        TirKernel *c = tir_clone(k, arena_printf(k->arena, "%s__v%d", k->name, j));
        Vec(int) head = { 0 };
        for (int i = 0; i < n; i++) {
            Instr *b = tir_new(c, NULL, OP_CONST, (TTy){ .dt = DT_BOOL });
            b->ival = ver[i] == j;
            b->parent = c->body;
            vec_push(c->arena, head, b->id);
            c->instrs.v[ifs[i]]->args[0] = b->id;
        }
        for (int i = 0; i < c->body->ins.n; i++)
            vec_push(c->arena, head, c->body->ins.v[i]);
        c->body->ins.v = head.v;
        c->body->ins.n = head.n;
        c->body->ins.cap = head.cap;
        lower_fold(c);
        lower_dce(c);
        v->k[j - 1] = c;
    }
    return true;
}
