/*
 * targets/nvptx/gen.c — per-thread IR (lower/pir.h) to LLVM IR.
 *
 * One PirFunc becomes one kernel function of the ptx_kernel calling
 * convention (and the nvvm.annotations entry LLVM 19's NVPTX backend still
 * reads), with `maxntidx` = the block size as __launch_bounds__ gives it.
 * Tensors are `ptr addrspace(1)` parameters, noalias/readonly from the
 * PIR flags, so loads of read-only tensors become ld.global.nc as NVRTC
 * makes them.  Dynamic shared memory is @tk_smem, an external
 * addrspace(3) array.
 *
 * A scalar local whose only definition is its declaration's initial value
 * (most of them: PIR names every subexpression) is that value itself;
 * other locals, and the elements of register arrays, are SSA values whose
 * phis gen.c places as it builds the structured statements (see "locals").
 * Pure expressions are numbered while building: an
 * operation on the same operands as one built before, in a block that
 * dominates the current one, is that earlier value (the PIR trees repeat
 * index and mask arithmetic many times over).  Both keep the module small,
 * and the optimizer's and code generator's time grows with its size.
 * Loops marked unroll are unrolled
 * here, while building: their counter is bound to a constant per iteration,
 * so indices into register arrays fold to constants as they are built and
 * the optimizer sees straight-line code (cheaper than asking LoopFullUnroll
 * to do it).  A loop that cannot be unrolled that way (a break or continue
 * in it, bounds that do not fold, too many iterations) is built as a loop
 * with llvm.loop.unroll.full metadata.
 *
 * Masked global loads and `if (c) store` to global memory are predicated
 * ld / st in inline asm (pred_load, pred_store); other masked loads branch
 * around the access (the address may be out of bounds), on a freeze of the
 * mask that llvm.c removes after the optimizer (see masked_load); every
 * other expression is straight-line.  Float add, sub and mul
 * carry the `contract` flag: a mul feeding an add may become an fma, as
 * nvcc/NVRTC contract by default.
 */
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "ll.h"
#include "../../lower/gpu.h"

#define MAX_UNROLL 4096        /* iterations unrolled while building */

/* A write to a slot, undone by undo(): the slot and its value before. */
typedef struct Undo { int slot; LLVMValueRef old; } Undo;

/* A branch into a join block: the block it leaves and the n slots whose
 * values it changed since the join's mark, with their values (see join). */
typedef struct Edge {
    LLVMBasicBlockRef from;
    int n;
    int *slot;
    LLVMValueRef *v;
} Edge;

typedef struct Loop {
    LLVMBasicBlockRef brk, cont;
    struct Loop *up;
    int mark;                  /* the undo log's length at the top of the body */
    int phi0, phi1;            /* its header phis: Gen.phis[phi0 .. phi1) */
    Vec(Edge) brks, conts;     /* the breaks and continues taken so far */
} Loop;

/* A pure operation already built: its key and value (see num_*). */
typedef struct Num {
    struct Num *next;          /* in its bucket, newest first */
    unsigned h;
    int kind, op, lane;
    PirTy ty, aty;
    bool nsw;
    LLVMValueRef x[3], v;
} Num;

#define NUM_BUCKETS 4096

typedef struct Gen {
    Ll *l;
    LLVMBuilderRef b;
    const PirFunc *f;
    LLVMValueRef fn;
    LLVMValueRef *param;       /* the function's arguments, by PIR param index */
    LLVMValueRef *slot;        /* per local in memory: its alloca */
    LLVMValueRef *bound;       /* per local: its value (an unrolled loop's counter, a
                                * single-definition local), or NULL: read the slot */
    bool *single;              /* per local: defined only by its declaration's init */
    LLVMValueRef **elem;       /* per register array in memory: its elements' addresses, made once */
    int *first;                /* per local: its first slot, or -1 (single-definition, or in memory) */
    LLVMValueRef *val;         /* per slot: its current value, NULL while undefined */
    LLVMTypeRef *sty;          /* per slot: its type */
    Vec(Undo) log;             /* every write to a slot, oldest first, back to the last undo */
    unsigned *seen, epoch;     /* per slot: scratch of capture, join and loop_back */
    int *pos;
    Vec(LLVMValueRef) phis;    /* the loops' header phis (NULL: pruned) */
    Vec(int) phislot;          /* and their slots */
    bool *mem;                 /* per local: in memory (an array indexed by a variable) */
    bool retry;                /* a local found to need memory: build again */
    int ssa;                   /* TKC_NVPTX_SSA (lower/knob.c) */
    LLVMBuilderRef eb;         /* at the end of the entry block (allocas, element addresses) */
    Loop *loop;
    Num **num;                 /* NUM_BUCKETS chains of the operations in scope */
    Vec(Num *) nums;           /* every one in scope, oldest first */
    Diag *d;
    bool ok;
} Gen;

static LLVMValueRef ex(Gen *g, const PirExpr *e);
static void stmts(Gen *g, const PirBlock *b);

static void fail(Gen *g, const char *what)
{
    if (g->ok)
        diag_error(g->d, (Span){0}, "internal error: nvptx: %s in kernel %s", what, g->f->name);
    g->ok = false;
}

static LLVMBasicBlockRef block(Gen *g, const char *name)
{
    return LLVMAppendBasicBlockInContext(g->l->c, g->fn, name);
}

static bool is_const_int(LLVMValueRef v)
{
    return LLVMIsAConstantInt(v) != NULL;
}

/* ------------------------------------------------------------ numbering */

/* The operations numbered: no effects, no memory, no control flow across
 * them (math.c's functions are selects).  Shuffles are not: they read
 * other lanes, and a barrier-free reuse is fine, but they are few. */
static bool numbered(PirExprKind k)
{
    switch (k) {
    case PE_SPECIAL: case PE_UN: case PE_BIN: case PE_SELECT: case PE_CONV: case PE_BITCAST:
    case PE_MATH: case PE_PTRADD: case PE_PTRINT: case PE_SADDR:
        return true;
    default:
        return false;
    }
}

/* e's key: its operation and its operands' values (x[] of e->a, b, c). */
static Num num_key(const PirExpr *e, LLVMValueRef *x)
{
    Num k = { .kind = e->kind, .op = e->op, .lane = e->lane, .ty = e->ty, .nsw = e->nsw,
              .aty = e->a ? e->a->ty : PT_VOID, .x = { x[0], x[1], x[2] } };
    uintptr_t h = (uintptr_t)k.kind * 31u + (uintptr_t)k.op * 7u + (uintptr_t)k.ty * 131u + (uintptr_t)k.aty;
    for (int i = 0; i < 3; i++)
        h = h * 1000003u ^ (uintptr_t)x[i] >> 4;
    k.h = (unsigned)(h ^ h >> 17);
    return k;
}

static bool num_same(const Num *a, const Num *b)
{
    return a->h == b->h && a->kind == b->kind && a->op == b->op && a->lane == b->lane && a->ty == b->ty &&
           a->aty == b->aty && a->nsw == b->nsw && a->x[0] == b->x[0] && a->x[1] == b->x[1] && a->x[2] == b->x[2];
}

static LLVMValueRef num_find(Gen *g, const Num *k)
{
    for (Num *n = g->num[k->h % NUM_BUCKETS]; n; n = n->next)
        if (num_same(n, k))
            return n->v;
    return NULL;
}

static void num_add(Gen *g, const Num *k, LLVMValueRef v)
{
    if (LLVMIsAConstant(v))
        return;
    Num *n = arena_alloc(g->f->a, sizeof *n);
    *n = *k;
    n->v = v;
    n->next = g->num[k->h % NUM_BUCKETS];
    g->num[k->h % NUM_BUCKETS] = n;
    vec_push(g->f->a, g->nums, n);
}

/* Scopes: what is built after num_scope() and before num_end(mark) lies
 * in blocks that do not dominate what follows (an if's arm, a loop body). */
static int num_scope(Gen *g)
{
    return g->nums.n;
}

static void num_end(Gen *g, int mark)
{
    while (g->nums.n > mark) {     /* newest first: each is its bucket's head */
        Num *n = g->nums.v[--g->nums.n];
        g->num[n->h % NUM_BUCKETS] = n->next;
    }
}

/* ------------------------------------------------------------ memory */

static unsigned bytes_of(PirTy t)
{
    return (unsigned)(pir_ty_bits[t] / 8);
}

/* The address of m's element (of m.ty). */
static LLVMValueRef addr(Gen *g, const PirMem *m)
{
    Ll *l = g->l;
    LLVMTypeRef et = ll_mem_type(l, m->ty);
    LLVMValueRef idx = ex(g, m->idx);
    if (m->space == PSP_GLOBAL) {
        /* not inbounds: a masked-off lane's address may lie outside the
         * tensor, and lowering may look at it (alignment tests) */
        return LLVMBuildGEP2(g->b, et, ex(g, m->ptr), &idx, 1, "");
    }
    LLVMValueRef base = ll_i32(l, m->base);
    LLVMValueRef p = LLVMBuildInBoundsGEP2(g->b, l->t_i8, l->smem, &base, 1, "");
    return LLVMBuildInBoundsGEP2(g->b, et, p, &idx, 1, "");
}

static LLVMValueRef load_mem(Gen *g, const PirMem *m)
{
    Ll *l = g->l;
    LLVMValueRef v = LLVMBuildLoad2(g->b, ll_mem_type(l, m->ty), addr(g, m), "");
    LLVMSetAlignment(v, bytes_of(m->ty));
    if (m->ty == PT_BOOL)
        v = LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstInt(l->t_i8, 0, 0), "");
    return v;
}

/* A global access of by bytes in a predicated instruction: the integer
 * type of its register (u8 in a 16-bit one), that register's asm
 * constraint letter and the instruction's type suffix. */
static LLVMTypeRef pred_width(const Ll *l, int by, char *con, const char **sfx)
{
    *con = by == 8 ? 'l' : by == 4 ? 'r' : 'h';
    *sfx = by == 8 ? "b64" : by == 4 ? "b32" : by == 2 ? "b16" : "u8";
    return by == 8 ? l->t_i64 : by == 4 ? l->t_i32 : l->t_i16;
}

/* A call of inline asm tx (constraints cons) on args[0 .. n) returning rt,
 * with side effects: LLVM neither moves nor merges it (pred_load,
 * pred_store). */
static LLVMValueRef pred_asm(Gen *g, LLVMTypeRef rt, const char *tx, const char *cons, LLVMValueRef *args, int n)
{
    LLVMTypeRef argt[8];
    for (int i = 0; i < n; i++)
        argt[i] = LLVMTypeOf(args[i]);
    LLVMTypeRef ft = LLVMFunctionType(rt, argt, (unsigned)n, 0);
    LLVMValueRef fn = LLVMGetInlineAsm(ft, tx, strlen(tx), cons, strlen(cons), 1, 0, LLVMInlineAsmDialectATT, 0);
    return LLVMBuildCall2(g->b, ft, fn, args, (unsigned)n, "");
}

/* A masked load from global memory as one predicated ld in inline asm (0
 * where mask is false, then other), as Triton emits them, instead of a
 * branch around the load and a phi: the tensor-core kernels' fallback
 * copies (NAME__nomap) and edge tiles hold a hundred or more such loads,
 * each two blocks for the optimizer and the instruction selector.  Over
 * every stdlib kernel and run test (242 kernels, this 2-core machine, two
 * runs each way): 25.7 / 26.2 -> 23.9 / 24.0 ms a kernel; sdpa_bf16 D=128
 * 64-67 -> 58-59.  ptxas: the same registers, fewer spills in
 * sdpa_relpos_bf16__nomap (40 + 68 -> 28 + 36 bytes).  The asm has side
 * effects (not moved across stores, not merged: it reads memory LLVM cannot
 * see it read).  On the H100 (doc/bench/h100-s17-ploads.log) masks,
 * mma_odd, softmax, strided, relpos_bf16, attention_d80, misc pass in the
 * nvptx pass.  The mask is the asm's predicate operand ("b"): LLVM passes
 * the setp it has anyway (a 32-bit copy and a setp inside the asm, as
 * first built, were 2088 zexts in attention_d128_n176's module and 5% of
 * the compile time over the 242 kernels).  TKC_NVPTX_PLOAD=0: the branch.
 * The CPU stand-in (host) keeps the branch (it cannot run PTX), and so do
 * pointers. */
static LLVMValueRef pred_load(Gen *g, const PirMem *m, LLVMValueRef mask, LLVMValueRef other)
{
    Ll *l = g->l;
    Arena *a = g->f->a;
    int by = bytes_of(m->ty);
    char con;
    const char *sfx;
    LLVMTypeRef it = pred_width(l, by, &con, &sfx);
    const char *tx = arena_printf(a, "mov.b%d $0, 0;\n\t@$2 ld.global.%s $0, [$1];", by == 8 ? 64 : by == 4 ? 32 : 16, sfx);
    LLVMValueRef args[2] = { addr(g, m), mask };
    LLVMValueRef v = pred_asm(g, it, tx, arena_printf(a, "=%c,l,b", con), args, 2);
    LLVMTypeRef mt = ll_mem_type(l, m->ty);
    if (by == 1)
        v = LLVMBuildTrunc(g->b, v, mt, "");
    else if (LLVMTypeOf(v) != mt)
        v = LLVMBuildBitCast(g->b, v, mt, "");
    if (m->ty == PT_BOOL)
        v = LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstInt(l->t_i8, 0, 0), "");
    return LLVMIsNull(other) ? v : LLVMBuildSelect(g->b, mask, v, other, "");
}

/* mask ? m : other (NULL: 0), touching memory only when mask holds: from
 * global memory by pred_load, else (shared memory, the stand-in) by a
 * branch around the load.
 *
 * The branch is on freeze(mask), and llvm.c takes the freeze out again
 * after the optimizer.  Meanwhile it hides the condition
 * from InstCombine's dominating-condition cache, which otherwise lists
 * every branch under each value its condition compares (the tensor
 * sizes, the tile's row and column bases: in the hundreds of masked loads
 * of a tensor-core kernel's fallback path, all of them) and walks that
 * list, testing dominance, on every known-bits question about such a
 * value: quadratic, a third of InstCombine's time in matmul_bf16.  The
 * facts it would find hold only inside the one-load blocks, where they
 * change nothing: the PTX is byte for byte the same for every stdlib
 * kernel.  (Left in, the freeze itself changes the code generator's
 * output, for better and for worse; hence llvm.c's unfreeze.) */
static LLVMValueRef masked_load(Gen *g, const PirExpr *e)
{
    if (!e->a)
        return load_mem(g, &e->mem);
    LLVMValueRef mask = ex(g, e->a), other = e->b ? ex(g, e->b) : LLVMConstNull(ll_reg_type(g->l, e->ty));
    if (is_const_int(mask))
        return LLVMConstIntGetZExtValue(mask) ? load_mem(g, &e->mem) : other;
    if (!g->l->host && e->mem.space == PSP_GLOBAL && e->mem.ty != PT_PTR && tkc_knob("TKC_NVPTX_PLOAD", 1))
        return pred_load(g, &e->mem, mask, other);
    LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b), yes = block(g, "ld"), join = block(g, "ld.end");
    LLVMBuildCondBr(g->b, LLVMBuildFreeze(g->b, mask, ""), yes, join);
    LLVMPositionBuilderAtEnd(g->b, yes);
    int mark = num_scope(g);
    LLVMValueRef v = load_mem(g, &e->mem);
    num_end(g, mark);
    LLVMBasicBlockRef yes_end = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, join);
    LLVMPositionBuilderAtEnd(g->b, join);
    LLVMValueRef phi = LLVMBuildPhi(g->b, LLVMTypeOf(v), "");
    LLVMValueRef vals[2] = { v, other };
    LLVMBasicBlockRef from2[2] = { yes_end, from };
    LLVMAddIncoming(phi, vals, from2, 2);
    return phi;
}

/* ------------------------------------------------------------ locals */

/* Locals are SSA values, placed here rather than by SROA (which took 40%
 * of the optimizer's time on the allocas it was handed): every local that
 * is not single-definition, and every element of a register array, has a
 * slot holding its current value.  The statements are structured, so the
 * phis are known as they are built: an if's arms meet at its end, a loop's
 * header has a phi for each slot its body writes (found by scanning the
 * body first; prune_phis removes those that stay trivial), and a break or
 * continue carries the values it changed to the loop's exit or next
 * iteration.  Writes go through an undo log, so that the end of an arm or
 * a jump can tell what changed since the join's mark.  An array indexed
 * by a value that does not fold to a constant in range needs memory: the
 * function is then built again with that array in an alloca (nvptx_gen;
 * no stdlib kernel or test has one). */

static LLVMValueRef slot_get(Gen *g, int s)
{
    return g->val[s] ? g->val[s] : LLVMGetUndef(g->sty[s]);
}

static void slot_set(Gen *g, int s, LLVMValueRef v)
{
    vec_push(g->f->a, g->log, ((Undo){ s, g->val[s] }));
    g->val[s] = v;
}

/* Back to the state of when the log had mark entries. */
static void undo(Gen *g, int mark)
{
    while (g->log.n > mark) {
        Undo u = g->log.v[--g->log.n];
        g->val[u.slot] = u.old;
    }
}

/* The address of lc[idx] of a local in memory: for a constant index, one
 * GEP in the entry block per element, shared by every access. */
static LLVMValueRef elem_ptr(Gen *g, const PirLocal *lc, const PirExpr *idx)
{
    Ll *l = g->l;
    LLVMValueRef ix[2] = { ll_i32(l, 0), ex(g, idx) };
    LLVMTypeRef at = LLVMArrayType2(ll_reg_type(l, lc->ty), (uint64_t)lc->n);
    if (!is_const_int(ix[1]))
        return LLVMBuildInBoundsGEP2(g->b, at, g->slot[lc->id], ix, 2, "");
    long long i = LLVMConstIntGetSExtValue(ix[1]);
    if (i < 0 || i >= lc->n)      /* out of bounds: left to LLVM as it is */
        return LLVMBuildInBoundsGEP2(g->b, at, g->slot[lc->id], ix, 2, "");
    if (!g->elem[lc->id])
        g->elem[lc->id] = arena_alloc(g->f->a, sizeof **g->elem * (size_t)lc->n);
    LLVMValueRef *p = &g->elem[lc->id][i];
    if (!*p)
        *p = LLVMBuildInBoundsGEP2(g->eb, at, g->slot[lc->id], ix, 2, "");
    return *p;
}

/* The slot of lc[idx] (idx NULL: of the scalar lc), lc not in memory; -1
 * when the index is not a constant in range: lc then needs memory, and
 * the build stops to start again. */
static int slot_of(Gen *g, const PirLocal *lc, const PirExpr *idx)
{
    int s = g->first[lc->id];
    if (!idx)
        return s;
    LLVMValueRef i = ex(g, idx);
    if (is_const_int(i) && g->ssa != 2) {
        long long k = LLVMConstIntGetSExtValue(i);
        if (k >= 0 && k < lc->n)
            return s + (int)k;
    }
    g->mem[lc->id] = true;
    g->retry = true;
    return -1;
}

/* lc, or lc[idx] */
static LLVMValueRef read_local(Gen *g, const PirLocal *lc, const PirExpr *idx)
{
    if (!idx && g->bound[lc->id])
        return g->bound[lc->id];
    LLVMTypeRef t = ll_reg_type(g->l, lc->ty);
    if (g->first[lc->id] < 0)
        return LLVMBuildLoad2(g->b, t, idx ? elem_ptr(g, lc, idx) : g->slot[lc->id], "");
    int s = slot_of(g, lc, idx);
    return s < 0 ? LLVMGetUndef(t) : slot_get(g, s);
}

static void write_local(Gen *g, const PirLocal *lc, const PirExpr *idx, LLVMValueRef v)
{
    if (!idx && (g->bound[lc->id] || g->single[lc->id]))
        fail(g, "assignment to an unrolled loop's counter or a single-definition local");
    else if (g->first[lc->id] < 0)
        LLVMBuildStore(g->b, v, idx ? elem_ptr(g, lc, idx) : g->slot[lc->id]);
    else {
        int s = slot_of(g, lc, idx);
        if (s >= 0)
            slot_set(g, s, v);
    }
}

/* PS_DECL of lc (in a loop body: each iteration's is a new, undefined one) */
static void declare_local(Gen *g, const PirLocal *lc)
{
    int s = g->first[lc->id];
    for (int64_t i = 0; s >= 0 && i < (lc->n ? lc->n : 1); i++)
        if (g->val[s + i])
            slot_set(g, s + (int)i, NULL);
}

/* An asm output or input lvalue: PE_LOCAL or PE_ELEM. */
static void write_lvalue(Gen *g, const PirExpr *e, LLVMValueRef v)
{
    if (e->kind == PE_LOCAL)
        write_local(g, e->local, NULL, v);
    else if (e->kind == PE_ELEM)
        write_local(g, e->local, e->a, v);
    else
        fail(g, "an asm output that is not a local");
}

/* The slots changed since the log's mark, with their values now, as an
 * edge from the block being built. */
static Edge capture(Gen *g, int mark)
{
    Edge e = { LLVMGetInsertBlock(g->b), 0, NULL, NULL };
    int n = g->log.n - mark;
    if (n <= 0)
        return e;
    e.slot = arena_alloc(g->f->a, sizeof *e.slot * (size_t)n);
    e.v = arena_alloc(g->f->a, sizeof *e.v * (size_t)n);
    g->epoch++;
    for (int i = mark; i < g->log.n; i++) {
        int s = g->log.v[i].slot;
        if (g->seen[s] != g->epoch) {
            g->seen[s] = g->epoch;
            e.slot[e.n] = s;
            e.v[e.n++] = g->val[s];
        }
    }
    return e;
}

/* Continue in bb, reached by the edges es[0..n) only, each carrying its
 * changes to the state now: a slot that an edge changed gets the value all
 * edges agree on, else a phi.  (No edges: bb is unreachable.) */
static void join(Gen *g, LLVMBasicBlockRef bb, const Edge *es, int n)
{
    LLVMPositionBuilderAtEnd(g->b, bb);
    int total = 0, nu = 0;
    for (int i = 0; i < n; i++)
        total += es[i].n;
    if (!total)
        return;
    Arena *a = g->f->a;
    int *u = arena_alloc(a, sizeof *u * (size_t)total);
    g->epoch++;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < es[i].n; j++) {
            int s = es[i].slot[j];
            if (g->seen[s] != g->epoch) {
                g->seen[s] = g->epoch;
                g->pos[s] = nu;
                u[nu++] = s;
            }
        }
    LLVMValueRef *v = arena_alloc(a, sizeof *v * (size_t)nu * (size_t)n);
    LLVMBasicBlockRef *from = arena_alloc(a, sizeof *from * (size_t)n);
    for (int k = 0; k < nu; k++)
        for (int i = 0; i < n; i++)
            v[(size_t)k * (size_t)n + (size_t)i] = g->val[u[k]];
    for (int i = 0; i < n; i++) {
        from[i] = es[i].from;
        for (int j = 0; j < es[i].n; j++)
            v[(size_t)g->pos[es[i].slot[j]] * (size_t)n + (size_t)i] = es[i].v[j];
    }
    for (int k = 0; k < nu; k++) {
        int s = u[k];
        LLVMValueRef *x = v + (size_t)k * (size_t)n;
        bool same = true;
        for (int i = 1; i < n; i++)
            same &= x[i] == x[0];
        if (same) {
            if (x[0] != g->val[s])
                slot_set(g, s, x[0]);
            continue;
        }
        for (int i = 0; i < n; i++)
            if (!x[i])
                x[i] = LLVMGetUndef(g->sty[s]);
        LLVMValueRef phi = LLVMBuildPhi(g->b, g->sty[s], "");
        LLVMAddIncoming(phi, x, from, (unsigned)n);
        slot_set(g, s, phi);
    }
}

/* Does the block being built have a way in?  (After a break it does not.) */
static bool live(Gen *g)
{
    LLVMBasicBlockRef bb = LLVMGetInsertBlock(g->b);
    return !LLVMGetBasicBlockTerminator(bb) && LLVMGetFirstUse(LLVMBasicBlockAsValue(bb));
}

/* The end of an if's arm or a loop's body, the state back at mark: 1 and
 * *e, the edge of a branch to `to`, when the block has a way in; else 0
 * (the block ends unreachable). */
static int arm_end(Gen *g, int mark, LLVMBasicBlockRef to, Edge *e)
{
    int n = 0;
    if (live(g)) {
        *e = capture(g, mark);
        LLVMBuildBr(g->b, to);
        n = 1;
    } else if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->b))) {
        LLVMBuildUnreachable(g->b);
    }
    undo(g, mark);
    return n;
}

/* What a statement does to a local, for each_write's callers. */
enum { W_DECL, W_INIT, W_SET, W_FOR, W_ACC };   /* declared, declared with a value, written, loop counter, an asm accumulator */

/* Call fn(ctx, local, what) for every local the statements of b (and the
 * blocks inside them) declare or write. */
static void each_write(const PirBlock *b, void (*fn)(void *, int, int), void *ctx)
{
    for (int i = 0; b && i < b->s.n; i++) {
        const PirStmt *s = b->s.v[i];
        switch (s->kind) {
        case PS_DECL:
            fn(ctx, s->local->id, s->init ? W_INIT : W_DECL);
            break;
        case PS_FOR:
            fn(ctx, s->local->id, W_FOR);
            break;
        case PS_ASSIGN: case PS_LOADV:
            fn(ctx, s->local->id, W_SET);
            break;
        case PS_ASM:
            for (int o = 0; o < pir_asm[s->asm_op].nout; o++)
                if (s->out[o] && s->out[o]->local)
                    fn(ctx, s->out[o]->local->id, W_SET);
            if (s->nacc)
                fn(ctx, s->acc->id, W_ACC);
            break;
        default:
            break;
        }
        each_write(s->body, fn, ctx);
        each_write(s->els, fn, ctx);
    }
}

/* each_write for loop_head: w[] marks (1) the locals a loop body writes
 * and (2) those it declares (each iteration's own: no phi for them at the
 * header). */
static void mark_write(void *ctx, int id, int what)
{
    ((unsigned char *)ctx)[id] |= what == W_SET || what == W_ACC ? 1 : 2;
}

/* Enter a loop whose body is b (and counter ctr, or NULL) at head: a phi
 * there for every slot the body writes, its value from before; the
 * loop's mark after them. */
static void loop_head(Gen *g, const PirBlock *b, const PirLocal *ctr, LLVMBasicBlockRef head, Loop *lp)
{
    const PirFunc *f = g->f;
    if (LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->b)))
        LLVMPositionBuilderAtEnd(g->b, block(g, "dead"));
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b);
    LLVMBuildBr(g->b, head);
    LLVMPositionBuilderAtEnd(g->b, head);
    unsigned char *w = arena_alloc(f->a, (size_t)f->locals.n + 1);
    each_write(b, mark_write, w);
    if (ctr)
        w[ctr->id] = 1;
    lp->phi0 = g->phis.n;
    for (int i = 0; i < f->locals.n; i++) {
        int s = g->first[i];
        if (w[i] != 1 || s < 0)
            continue;
        for (int64_t k = 0; k < (f->locals.v[i]->n ? f->locals.v[i]->n : 1); k++, s++) {
            LLVMValueRef phi = LLVMBuildPhi(g->b, g->sty[s], ""), in = slot_get(g, s);
            LLVMAddIncoming(phi, &in, &pre, 1);
            vec_push(f->a, g->phis, phi);
            vec_push(f->a, g->phislot, s);
            slot_set(g, s, phi);
        }
    }
    lp->phi1 = g->phis.n;
    lp->mark = g->log.n;
}

/* An edge back to lp's header: each phi's value along it. */
static void loop_back(Gen *g, const Loop *lp, const Edge *e)
{
    g->epoch++;
    for (int j = 0; j < e->n; j++) {
        g->seen[e->slot[j]] = g->epoch;
        g->pos[e->slot[j]] = j;
    }
    for (int k = lp->phi0; k < lp->phi1; k++) {
        int s = g->phislot.v[k];
        LLVMValueRef phi = g->phis.v[k], v = g->seen[s] == g->epoch ? e->v[g->pos[s]] : phi;
        if (!v)
            v = LLVMGetUndef(g->sty[s]);
        LLVMBasicBlockRef from = e->from;
        LLVMAddIncoming(phi, &v, &from, 1);
    }
}

/* After a loop (the state back at its mark): continue at end, reached from
 * the test in block `test` (NULL: none) and by the breaks. */
static void loop_exit(Gen *g, Loop *lp, LLVMBasicBlockRef test, LLVMBasicBlockRef end)
{
    undo(g, lp->mark);
    Edge *es = arena_alloc(g->f->a, sizeof *es * (size_t)(lp->brks.n + 1));
    int n = 0;
    if (test)
        es[n++] = (Edge){ test, 0, NULL, NULL };
    for (int i = 0; i < lp->brks.n; i++)
        es[n++] = lp->brks.v[i];
    join(g, end, es, n);
}

/* The loops' header phis that stayed trivial (every value along the back
 * edges the phi itself or the one from before) become that value, and
 * those without uses go. */
static void prune_phis(Gen *g)
{
    for (bool again = true; again;) {
        again = false;
        for (int k = 0; k < g->phis.n; k++) {
            LLVMValueRef phi = g->phis.v[k], same = NULL;
            if (!phi)
                continue;
            bool trivial = true;
            for (unsigned i = 0, n = LLVMCountIncoming(phi); i < n && trivial; i++) {
                LLVMValueRef x = LLVMGetIncomingValue(phi, i);
                if (x != phi && x != same)
                    trivial = !same, same = x;
            }
            if (!trivial && LLVMGetFirstUse(phi))
                continue;
            if (LLVMGetFirstUse(phi))
                LLVMReplaceAllUsesWith(phi, same ? same : LLVMGetUndef(LLVMTypeOf(phi)));
            LLVMInstructionEraseFromParent(phi);
            g->phis.v[k] = NULL;
            again = true;
        }
    }
}

/* ------------------------------------------------------------ operators */

static LLVMValueRef contract(LLVMValueRef v)
{
    if (LLVMIsAInstruction(v))
        LLVMSetFastMathFlags(v, LLVMFastMathAllowContract);
    return v;
}

/* Integer a / b and a % b without traps: x / 0 == 0, MIN / -1 == MIN
 * (wrapping), x % 0 == x % -1 == 0. */
static LLVMValueRef int_divrem(Gen *g, bool rem, bool sgn, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = g->b;
    LLVMTypeRef t = LLVMTypeOf(a);
    if (is_const_int(b) && !LLVMIsNull(b) && !(sgn && LLVMConstIntGetSExtValue(b) == -1))
        return rem ? (sgn ? LLVMBuildSRem(B, a, b, "") : LLVMBuildURem(B, a, b, ""))   /* no special case */
                   : (sgn ? LLVMBuildSDiv(B, a, b, "") : LLVMBuildUDiv(B, a, b, ""));
    LLVMValueRef zero = LLVMConstInt(t, 0, 0), one = LLVMConstInt(t, 1, 0), m1 = LLVMConstAllOnes(t);
    LLVMValueRef is0 = LLVMBuildICmp(B, LLVMIntEQ, b, zero, "");
    LLVMValueRef ism1 = sgn ? LLVMBuildICmp(B, LLVMIntEQ, b, m1, "") : LLVMConstInt(g->l->t_i1, 0, 0);
    LLVMValueRef safe = LLVMBuildSelect(B, LLVMBuildOr(B, is0, ism1, ""), one, b, "");
    LLVMValueRef q = rem ? (sgn ? LLVMBuildSRem(B, a, safe, "") : LLVMBuildURem(B, a, safe, ""))
                         : (sgn ? LLVMBuildSDiv(B, a, safe, "") : LLVMBuildUDiv(B, a, safe, ""));
    if (rem)
        return LLVMBuildSelect(B, LLVMBuildOr(B, is0, ism1, ""), zero, q, "");
    q = LLVMBuildSelect(B, ism1, LLVMBuildNeg(B, a, ""), q, "");
    return LLVMBuildSelect(B, is0, zero, q, "");
}

static LLVMValueRef minmax(Gen *g, bool max, PirTy t, LLVMValueRef a, LLVMValueRef b)
{
    const char *n = pir_ty_float(t) ? (max ? "llvm.maxnum" : "llvm.minnum")
                  : pir_ty_signed(t) ? (max ? "llvm.smax" : "llvm.smin")
                  : (max ? "llvm.umax" : "llvm.umin");
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef args[2] = { a, b };
    return ll_intrinsic(g->l, n, &ty, 1, args, 2);
}

static LLVMValueRef compare(Gen *g, PirBinOp op, PirTy t, LLVMValueRef a, LLVMValueRef b)
{
    if (pir_ty_float(t)) {
        static const LLVMRealPredicate fp[] = { LLVMRealOLT, LLVMRealOLE, LLVMRealOGT, LLVMRealOGE,
                                                LLVMRealOEQ, LLVMRealUNE };
        return LLVMBuildFCmp(g->b, fp[op - PB_LT], a, b, "");
    }
    static const LLVMIntPredicate si[] = { LLVMIntSLT, LLVMIntSLE, LLVMIntSGT, LLVMIntSGE, LLVMIntEQ, LLVMIntNE };
    static const LLVMIntPredicate ui[] = { LLVMIntULT, LLVMIntULE, LLVMIntUGT, LLVMIntUGE, LLVMIntEQ, LLVMIntNE };
    return LLVMBuildICmp(g->b, (pir_ty_signed(t) ? si : ui)[op - PB_LT], a, b, "");
}

static LLVMValueRef binary(Gen *g, const PirExpr *e, LLVMValueRef a, LLVMValueRef b)
{
    LLVMBuilderRef B = g->b;
    PirTy t = e->a->ty;
    bool fl = pir_ty_float(t), sgn = pir_ty_signed(t);
    LLVMValueRef r;
    switch ((PirBinOp)e->op) {
    case PB_ADD: case PB_SUB: case PB_MUL:
        if (fl) {
            r = e->op == PB_ADD ? LLVMBuildFAdd(B, a, b, "") : e->op == PB_SUB ? LLVMBuildFSub(B, a, b, "")
                                                                : LLVMBuildFMul(B, a, b, "");
            return contract(r);
        }
        r = e->op == PB_ADD ? LLVMBuildAdd(B, a, b, "") : e->op == PB_SUB ? LLVMBuildSub(B, a, b, "")
                                                         : LLVMBuildMul(B, a, b, "");
        if (e->nsw && sgn && LLVMIsAInstruction(r))
            LLVMSetNSW(r, 1);
        return r;
    case PB_DIV: case PB_REM:
        if (fl)
            return e->op == PB_DIV ? LLVMBuildFDiv(B, a, b, "") : nvptx_fmod(g->l, t, a, b);
        if (e->nsw)        /* a >= 0, b > 0: no special case, and unsigned is the same */
            return e->op == PB_DIV ? LLVMBuildUDiv(B, a, b, "") : LLVMBuildURem(B, a, b, "");
        return int_divrem(g, e->op == PB_REM, sgn, a, b);
    case PB_MIN: case PB_MAX:
        return minmax(g, e->op == PB_MAX, t, a, b);
    case PB_AND: return LLVMBuildAnd(B, a, b, "");
    case PB_OR:  return LLVMBuildOr(B, a, b, "");
    case PB_XOR: return LLVMBuildXor(B, a, b, "");
    case PB_SHL: case PB_SHR: {
        LLVMValueRef n = LLVMBuildAnd(B, b, LLVMConstInt(LLVMTypeOf(b), (unsigned long long)pir_ty_bits[t] - 1, 0), "");
        if (e->op == PB_SHL)
            return LLVMBuildShl(B, a, n, "");
        return sgn ? LLVMBuildAShr(B, a, n, "") : LLVMBuildLShr(B, a, n, "");
    }
    case PB_LT: case PB_LE: case PB_GT: case PB_GE: case PB_EQ: case PB_NE:
        return compare(g, (PirBinOp)e->op, t, a, b);
    }
    fail(g, "unknown binary operator");
    return LLVMGetUndef(LLVMTypeOf(a));
}

/* Float to integer, saturating, NaN to 0: llvm.fpto[su]i.sat. */
static LLVMValueRef float_to_int(Gen *g, LLVMValueRef v, PirTy to)
{
    LLVMTypeRef ts[2] = { ll_reg_type(g->l, to), LLVMTypeOf(v) };
    return ll_intrinsic(g->l, pir_ty_signed(to) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", ts, 2, &v, 1);
}

/* f32 -> bf16 bits, round to nearest even, NaN kept quiet (cvt.rn.bf16.f32). */
static LLVMValueRef bf16_bits(Gen *g, LLVMValueRef v)
{
    Ll *l = g->l;
    LLVMBuilderRef B = g->b;
    LLVMValueRef u = LLVMBuildBitCast(B, v, l->t_i32, "");
    LLVMValueRef odd = LLVMBuildAnd(B, LLVMBuildLShr(B, u, ll_i32(l, 16), ""), ll_i32(l, 1), "");
    LLVMValueRef r = LLVMBuildAdd(B, u, LLVMBuildAdd(B, odd, ll_i32(l, 0x7fff), ""), "");
    LLVMValueRef nan = LLVMBuildICmp(B, LLVMIntUGT, LLVMBuildAnd(B, u, ll_i32(l, 0x7fffffff), ""),
                                     ll_i32(l, 0x7f800000), "");
    r = LLVMBuildSelect(B, nan, LLVMBuildOr(B, u, ll_i32(l, 0x400000), ""), r, "");
    return LLVMBuildTrunc(B, LLVMBuildLShr(B, r, ll_i32(l, 16), ""), l->t_i16, "");
}

/* PE_CONV (pir.h lists the pairs). */
static LLVMValueRef convert(Gen *g, LLVMValueRef v, PirTy from, PirTy to)
{
    Ll *l = g->l;
    LLVMBuilderRef B = g->b;
    LLVMTypeRef tt = ll_reg_type(l, to);
    if (from == to)
        return v;
    if (to == PT_BOOL)
        return pir_ty_float(from) ? LLVMBuildFCmp(B, LLVMRealUNE, v, LLVMConstReal(LLVMTypeOf(v), 0), "")
                                  : LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    if (from == PT_BOOL)
        return pir_ty_float(to) ? LLVMBuildUIToFP(B, v, tt, "") : LLVMBuildZExt(B, v, tt, "");
    if (from == PT_F16 || from == PT_BF16) {
        if (from == PT_BF16) {        /* exact: the bits are the high half of an f32 */
            LLVMValueRef w = LLVMBuildShl(B, LLVMBuildZExt(B, v, l->t_i32, ""), ll_i32(l, 16), "");
            return convert(g, LLVMBuildBitCast(B, w, l->t_f32, ""), PT_F32, to);
        }
        return convert(g, LLVMBuildFPExt(B, LLVMBuildBitCast(B, v, l->t_half, ""), l->t_f32, ""), PT_F32, to);
    }
    if (to == PT_F16 || to == PT_BF16) {
        if (from != PT_F32)
            v = convert(g, v, from, PT_F32);
        if (l->host && to == PT_BF16)       /* no __truncsfbf2 in older libgcc */
            return bf16_bits(g, v);
        LLVMValueRef h = LLVMBuildFPTrunc(B, v, to == PT_F16 ? l->t_half : l->t_bf16, "");
        return LLVMBuildBitCast(B, h, l->t_i16, "");
    }
    if (pir_ty_float(from) && pir_ty_float(to))
        return to == PT_F64 ? LLVMBuildFPExt(B, v, tt, "") : LLVMBuildFPTrunc(B, v, tt, "");
    if (pir_ty_float(to))
        return pir_ty_signed(from) ? LLVMBuildSIToFP(B, v, tt, "") : LLVMBuildUIToFP(B, v, tt, "");
    if (pir_ty_float(from))
        return float_to_int(g, v, to);
    if (pir_ty_bits[to] == pir_ty_bits[from])
        return v;
    if (pir_ty_bits[to] < pir_ty_bits[from])
        return LLVMBuildTrunc(B, v, tt, "");
    return pir_ty_signed(from) ? LLVMBuildSExt(B, v, tt, "") : LLVMBuildZExt(B, v, tt, "");
}

static LLVMValueRef math(Gen *g, const PirExpr *e, LLVMValueRef *x)
{
    Ll *l = g->l;
    LLVMTypeRef t = LLVMTypeOf(x[0]);
    switch ((PirMath)e->op) {
    case PM_SQRT:  return ll_intrinsic(l, "llvm.sqrt", &t, 1, x, 1);
    case PM_FABS:  return ll_intrinsic(l, "llvm.fabs", &t, 1, x, 1);
    case PM_FLOOR: return ll_intrinsic(l, "llvm.floor", &t, 1, x, 1);
    case PM_CEIL:  return ll_intrinsic(l, "llvm.ceil", &t, 1, x, 1);
    case PM_FMA:   return ll_intrinsic(l, "llvm.fma", &t, 1, x, 3);
    case PM_RSQRT: return LLVMBuildFDiv(g->b, ll_f(l, t, 1), ll_intrinsic(l, "llvm.sqrt", &t, 1, x, 1), "");
    case PM_EXP2:
        /* @launch(fast_exp2 = true): ex2.approx.ftz, one MUFU.EX2, as the
         * cuda target's tk_exp2_ftzf (the host build of the CPU stand-in
         * keeps the polynomial, whose results differ only below 2^-126) */
        if (e->ty == PT_F32 && g->f->fast_exp2 && !l->host)
            return ll_intrinsic(l, "llvm.nvvm.ex2.approx.ftz.f", NULL, 0, x, 1);
        return nvptx_math(l, PM_EXP2, e->ty, x);
    default:       return nvptx_math(l, (PirMath)e->op, e->ty, x);
    }
}

/* A warp butterfly shuffle of any register type, through 32-bit words. */
static LLVMValueRef shuffle(Gen *g, LLVMValueRef v, PirTy t, int lane)
{
    Ll *l = g->l;
    LLVMBuilderRef B = g->b;
    if (l->host && pir_ty_bits[t] == 32) {
        LLVMValueRef args[2] = { t == PT_F32 ? LLVMBuildBitCast(B, v, l->t_i32, "") : v, ll_i32(l, lane) };
        LLVMTypeRef ts[2] = { l->t_i32, l->t_i32 };
        LLVMValueRef r = ll_call(l, "tk_nvx_shfl", l->t_i32, ts, args, 2);
        return t == PT_F32 ? LLVMBuildBitCast(B, r, l->t_f32, "") : r;
    }
    if (t == PT_F32 || pir_ty_bits[t] == 32) {
        bool f = t == PT_F32;
        LLVMValueRef args[4] = { LLVMConstInt(l->t_i32, 0xffffffffu, 0), v, ll_i32(l, lane), ll_i32(l, 0x1f) };
        return ll_intrinsic(l, f ? "llvm.nvvm.shfl.sync.bfly.f32" : "llvm.nvvm.shfl.sync.bfly.i32", NULL, 0,
                            args, 4);
    }
    if (pir_ty_bits[t] == 64) {
        LLVMValueRef u = t == PT_F64 ? LLVMBuildBitCast(B, v, l->t_i64, "") : v;
        LLVMValueRef lo = shuffle(g, LLVMBuildTrunc(B, u, l->t_i32, ""), PT_U32, lane);
        LLVMValueRef hi = shuffle(g, LLVMBuildTrunc(B, LLVMBuildLShr(B, u, LLVMConstInt(l->t_i64, 32, 0), ""),
                                                    l->t_i32, ""), PT_U32, lane);
        LLVMValueRef w = LLVMBuildOr(B, LLVMBuildZExt(B, lo, l->t_i64, ""),
                                     LLVMBuildShl(B, LLVMBuildZExt(B, hi, l->t_i64, ""),
                                                  LLVMConstInt(l->t_i64, 32, 0), ""), "");
        return t == PT_F64 ? LLVMBuildBitCast(B, w, l->t_f64, "") : w;
    }
    LLVMValueRef w = shuffle(g, LLVMBuildZExt(B, v, l->t_i32, ""), PT_U32, lane);
    if (t == PT_BOOL)
        return LLVMBuildICmp(B, LLVMIntNE, w, ll_i32(l, 0), "");
    return LLVMBuildTrunc(B, w, LLVMTypeOf(v), "");
}

static LLVMValueRef special(Gen *g, PirSpecial s)
{
    if (g->l->host) {
        LLVMValueRef w = ll_i32(g->l, s);
        return ll_call(g->l, "tk_nvx_sreg", g->l->t_i32, &g->l->t_i32, &w, 1);
    }
    static const char *const n[] = { "llvm.nvvm.read.ptx.sreg.tid.x", "llvm.nvvm.read.ptx.sreg.ctaid.x",
                                     "llvm.nvvm.read.ptx.sreg.nctaid.x" };
    return ll_intrinsic(g->l, n[s], NULL, 0, NULL, 0);
}

static LLVMValueRef constant(Gen *g, const PirExpr *e)
{
    LLVMTypeRef t = ll_reg_type(g->l, e->ty);
    if (pir_ty_float(e->ty))
        return LLVMConstReal(t, e->fval);
    return LLVMConstInt(t, (unsigned long long)e->ival, pir_ty_signed(e->ty));
}

/* A numbered operation on operand values x[] (of e->a, b, c). */
static LLVMValueRef operation(Gen *g, const PirExpr *e, LLVMValueRef *x)
{
    Ll *l = g->l;
    LLVMBuilderRef B = g->b;
    switch (e->kind) {
    case PE_SPECIAL:
        return special(g, (PirSpecial)e->op);
    case PE_UN:
        if (e->op == PU_NEG)
            return pir_ty_float(e->ty) ? LLVMBuildFNeg(B, x[0], "") : LLVMBuildNeg(B, x[0], "");
        return LLVMBuildNot(B, x[0], "");      /* PU_NOT on i1, PU_BITNOT */
    case PE_BIN:
        return binary(g, e, x[0], x[1]);
    case PE_SELECT:
        if (is_const_int(x[0]))
            return LLVMConstIntGetZExtValue(x[0]) ? x[1] : x[2];
        return LLVMBuildSelect(B, x[0], x[1], x[2], "");
    case PE_CONV:
        return convert(g, x[0], e->a->ty, e->ty);
    case PE_BITCAST: {
        LLVMTypeRef t = ll_reg_type(l, e->ty);
        return LLVMTypeOf(x[0]) == t ? x[0] : LLVMBuildBitCast(B, x[0], t, "");
    }
    case PE_MATH:
        return math(g, e, x);
    case PE_PTRADD:
        return LLVMBuildGEP2(B, ll_mem_type(l, e->a->elem), x[0], &x[1], 1, "");
    case PE_PTRINT:
        return LLVMBuildPtrToInt(B, x[0], l->t_i64, "");
    case PE_SADDR: {
        if (l->host)       /* the stand-in's shared addresses are offsets in tk_smem */
            return x[0];
        LLVMValueRef p = LLVMBuildInBoundsGEP2(B, l->t_i8, l->smem, &x[0], 1, "");
        return LLVMBuildPtrToInt(B, p, l->t_i32, "");
    }
    default:
        break;
    }
    fail(g, "unknown expression");
    return LLVMGetUndef(l->t_i32);
}

static LLVMValueRef ex(Gen *g, const PirExpr *e)
{
    Ll *l = g->l;
    LLVMBuilderRef B = g->b;
    if (numbered(e->kind)) {
        LLVMValueRef x[3] = { e->a ? ex(g, e->a) : NULL, e->b ? ex(g, e->b) : NULL, e->c ? ex(g, e->c) : NULL };
        Num k = num_key(e, x);
        LLVMValueRef v = num_find(g, &k);
        if (!v) {
            v = operation(g, e, x);
            num_add(g, &k, v);
        }
        return v;
    }
    switch (e->kind) {
    case PE_CONST:
        return constant(g, e);
    case PE_LOCAL:
        return read_local(g, e->local, NULL);
    case PE_ELEM:
        return read_local(g, e->local, e->a);
    case PE_PARAM:       /* a tensor map: its address (device: cvta.param, grid_constant) */
        if (g->f->params.v[e->index].kind == PP_TMAP)
            return LLVMBuildPtrToInt(B, g->param[e->index], l->t_i64, "");
        return g->param[e->index];
    case PE_SHFL_XOR:
        return shuffle(g, ex(g, e->a), e->a->ty, e->lane);
    case PE_BAR_AND: {   /* bar.red.and.pred: nonzero -> 1 */
        LLVMValueRef a = ex(g, e->a);
        LLVMTypeRef t = g->l->t_i32;
        LLVMValueRef r = g->l->host ? ll_call(g->l, "tk_nvx_sync_and", t, &t, &a, 1)
                                    : ll_intrinsic(g->l, "llvm.nvvm.barrier0.and", NULL, 0, &a, 1);
        return LLVMBuildZExt(g->b, LLVMBuildICmp(g->b, LLVMIntNE, r, ll_i32(g->l, 0), ""), t, "");
    }
    case PE_LOAD:
        return masked_load(g, e);
    default:
        break;
    }
    fail(g, "unknown expression");
    return LLVMGetUndef(l->t_i32);
}

/* ------------------------------------------------------------ inline PTX */

/* GCC's %N to LLVM's $N; a literal $ doubled. */
static char *asm_text(Arena *a, const char *s)
{
    Buf b = { .a = a };
    buf_puts(&b, "");
    for (; *s; s++) {
        if (*s == '%' && s[1] >= '0' && s[1] <= '9')
            buf_putc(&b, '$');
        else if (*s == '%' && s[1] == '%')
            buf_putc(&b, *s++);
        else if (*s == '$')
            buf_puts(&b, "$$");
        else
            buf_putc(&b, *s);
    }
    return b.s;
}

static LLVMTypeRef cons_type(Ll *l, char c)
{
    switch (c) {
    case 'f': return l->t_f32;
    case 'd': return l->t_f64;
    case 'l': return l->t_i64;
    case 'h': return l->t_i16;
    default:  return l->t_i32;      /* r */
    }
}

/* PS_ASM on the stand-in: tk_nvx_NAME(out[], the untied inputs) with the
 * outputs (tied ones holding their current values) in a buffer. */
static void host_asm(Gen *g, const PirStmt *s, const PirAsmInfo *info, LLVMTypeRef *outt,
                     LLVMValueRef *args, LLVMTypeRef *argt, int nargs)
{
    Ll *l = g->l;
    /* no outputs (cp.async and its group ops): no buffer argument */
    LLVMTypeRef bt = LLVMArrayType2(info->nout ? outt[0] : l->t_i32, (uint64_t)(info->nout ? info->nout : 1));
    LLVMValueRef buf = info->nout ? LLVMBuildAlloca(g->b, bt, "") : NULL;
    LLVMValueRef cargs[16] = { buf };
    LLVMTypeRef ct[16] = { LLVMPointerTypeInContext(l->c, 0) };
    int nc = info->nout ? 1 : 0, tied = 0;
    for (const char *c = info->cons; *c; c += strcspn(c, ",") + (c[strcspn(c, ",")] == ','))
        tied += *c >= '0' && *c <= '9';
    for (int i = 0; i < nargs; i++) {
        if (i >= nargs - tied) {       /* the tied inputs come last: their outputs' slots */
            int o = i - (nargs - tied);
            LLVMValueRef ix[2] = { ll_i32(l, 0), ll_i32(l, o) };
            LLVMBuildStore(g->b, args[i], LLVMBuildInBoundsGEP2(g->b, bt, buf, ix, 2, ""));
            continue;
        }
        cargs[nc] = args[i], ct[nc++] = argt[i];
    }
    ll_call(l, arena_printf(g->f->a, "tk_nvx_%s", info->name), l->t_void, ct, cargs, nc);
    for (int i = 0; i < info->nout; i++) {
        LLVMValueRef ix[2] = { ll_i32(l, 0), ll_i32(l, i) };
        write_lvalue(g, s->out[i], LLVMBuildLoad2(g->b, outt[i], LLVMBuildInBoundsGEP2(g->b, bt, buf, ix, 2, ""), ""));
    }
}

/* PS_ASM bound to a register array (pir.h: PirStmt.acc): the elements are
 * outputs after the table's (none so far) with tied inputs after the
 * others; on the stand-in tk_nvx_NAME(elements[], nacc, inputs).  On the
 * GPU the ns statements at s (consecutive, bound to the same elements,
 * bound_run) become one asm: a wgmma dot's fence and k steps bind 64
 * accumulators each, and one call per step made sdpa_bf16 D=128's module
 * 6400 extractvalues of its ~20000 instructions. */
static void asm_bound(Gen *g, const PirStmt *const *s, int ns)
{
    Ll *l = g->l;
    Arena *a = g->f->a;
    int n = s[0]->nacc, nargs = 0, nin = 0;
    for (int j = 0; j < ns; j++)
        nin += pir_asm[s[j]->asm_op].nin;
    LLVMTypeRef *outt = arena_alloc(a, sizeof *outt * (size_t)n);
    LLVMTypeRef *argt = arena_alloc(a, sizeof *argt * (size_t)(n + nin + 2));
    LLVMValueRef *args = arena_alloc(a, sizeof *args * (size_t)(n + nin + 2));
    PirExpr *el = arena_alloc(a, sizeof *el * (size_t)n), *ix = arena_alloc(a, sizeof *ix * (size_t)n);
    bool ia = s[0]->acc->ty == PT_I32;    /* wgmma s8's accumulators */
    LLVMTypeRef et = ia ? l->t_i32 : l->t_f32;
    for (int i = 0; i < n; i++) {
        outt[i] = et;
        ix[i] = (PirExpr){ .kind = PE_CONST, .ty = PT_I32, .ival = s[0]->acc0 + i };
        el[i] = (PirExpr){ .kind = PE_ELEM, .ty = ia ? PT_I32 : PT_F32, .local = s[0]->acc, .a = &ix[i] };
    }
    LLVMTypeRef bt = LLVMArrayType2(et, (uint64_t)n);
    LLVMValueRef buf = NULL;
    if (l->host) {
        buf = LLVMBuildAlloca(g->b, bt, "");
        args[nargs] = buf, argt[nargs++] = LLVMPointerTypeInContext(l->c, 0);
        args[nargs] = ll_i32(l, n), argt[nargs++] = l->t_i32;
    }
    for (int j = 0; j < ns; j++)
        for (int i = 0; i < pir_asm[s[j]->asm_op].nin; i++) {
            args[nargs] = ex(g, s[j]->in[i]);
            argt[nargs] = LLVMTypeOf(args[nargs]);
            nargs++;
        }
    if (l->host) {
        for (int i = 0; i < n; i++) {
            LLVMValueRef at[2] = { ll_i32(l, 0), ll_i32(l, i) };
            LLVMBuildStore(g->b, ex(g, &el[i]), LLVMBuildInBoundsGEP2(g->b, bt, buf, at, 2, ""));
        }
        ll_call(l, arena_printf(a, "tk_nvx_%s", pir_asm[s[0]->asm_op].name), l->t_void, argt, args, nargs);
        for (int i = 0; i < n; i++) {
            LLVMValueRef at[2] = { ll_i32(l, 0), ll_i32(l, i) };
            write_lvalue(g, &el[i], LLVMBuildLoad2(g->b, et, LLVMBuildInBoundsGEP2(g->b, bt, buf, at, 2, ""), ""));
        }
        return;
    }
    for (int i = 0; i < n; i++)
        args[nargs] = ex(g, &el[i]), argt[nargs++] = et;
    Buf text = { .a = a };
    buf_puts(&text, "");
    bool memory = false;
    for (int j = 0, first = n; j < ns; first += pir_asm[s[j]->asm_op].nin, j++) {
        buf_printf(&text, "%s%s", j ? "\n\t" : "", pir_asm_text_at(a, s[j], first));
        memory |= pir_asm[s[j]->asm_op].memory;
    }
    const char *cons = pir_asm_cons_run(a, s, ns);
    if (memory)
        cons = arena_printf(a, "%s,~{memory}", cons);
    const char *tx = asm_text(a, text.s);
    LLVMTypeRef rt = LLVMStructTypeInContext(l->c, outt, (unsigned)n, 0);
    LLVMTypeRef ft = LLVMFunctionType(rt, argt, (unsigned)nargs, 0);
    LLVMValueRef fn = LLVMGetInlineAsm(ft, tx, strlen(tx), cons, strlen(cons), 1, 0,
                                       LLVMInlineAsmDialectATT, 0);
    LLVMValueRef r = LLVMBuildCall2(g->b, ft, fn, args, (unsigned)nargs, "");
    for (int i = 0; i < n; i++)
        write_lvalue(g, &el[i], LLVMBuildExtractValue(g->b, r, (unsigned)i, ""));
}

/* The number of statements from b's i-th that asm_bound makes one asm of:
 * PS_ASMs bound to the same elements, the later ones without outputs of
 * their own, none reading the elements in its inputs (the asm's inputs are
 * all read before its first instruction), on the GPU. */
static int bound_run(const Gen *g, const PirBlock *b, int i)
{
    const PirStmt *s = b->s.v[i];
    int j = i + 1;
    if (g->l->host)
        return 1;
    for (; j < b->s.n; j++) {
        const PirStmt *t = b->s.v[j];
        if (t->kind != PS_ASM || t->acc != s->acc || t->acc0 != s->acc0 || t->nacc != s->nacc
            || pir_asm[t->asm_op].nout)
            break;
        bool reads = false;
        for (int k = 0; k < pir_asm[t->asm_op].nin; k++)
            reads |= pir_uses(t->in[k], s->acc);
        if (reads)
            break;
    }
    return j - i;
}

/* PS_ASM: outputs as a struct (or one value); a constraint that is a digit
 * ties that input to the output of that number, and takes its current value. */
static void asm_stmt(Gen *g, const PirStmt *s)
{
    Ll *l = g->l;
    const PirAsmInfo *info = &pir_asm[s->asm_op];
    if (s->nacc) {
        asm_bound(g, &s, 1);
        return;
    }
    if (s->asm_op == PA_OPAQUE) {      /* LLVM's own allocation does better with the value shared */
        write_lvalue(g, s->out[0], ex(g, s->in[0]));
        return;
    }
    LLVMTypeRef outt[4], argt[16];
    LLVMValueRef args[16];
    int nargs = 0, nin = 0;
    const char *c = info->cons;
    for (int i = 0; *c; i++) {
        size_t len = strcspn(c, ",");
        if (i < info->nout) {
            outt[i] = cons_type(l, c[1]);      /* "=f" */
        } else if (*c >= '0' && *c <= '9') {
            int o = *c - '0';
            args[nargs] = ex(g, s->out[o]);
            argt[nargs++] = outt[o];
        } else {
            args[nargs] = ex(g, s->in[nin++]);
            argt[nargs] = LLVMTypeOf(args[nargs]);
            nargs++;
        }
        c += len + (c[len] == ',');
    }
    Arena *a = g->f->a;
    if (l->host) {
        host_asm(g, s, info, outt, args, argt, nargs);
        return;
    }
    /* no leading comma when there are no operands: LLVM's IR parser
     * (opt, llc on --emit=llvm's text) rejects ",~{memory}" */
    const char *cons = info->memory ? arena_printf(a, "%s%s~{memory}", info->cons, *info->cons ? "," : "")
                                    : info->cons;
    const char *text = asm_text(a, info->ptx);
    LLVMTypeRef rt = info->nout == 0 ? l->t_void
                   : info->nout == 1 ? outt[0] : LLVMStructTypeInContext(l->c, outt, (unsigned)info->nout, 0);
    LLVMTypeRef ft = LLVMFunctionType(rt, argt, (unsigned)nargs, 0);
    LLVMValueRef fn = LLVMGetInlineAsm(ft, text, strlen(text), cons, strlen(cons), info->memory, 0,
                                       LLVMInlineAsmDialectATT, 0);
    LLVMValueRef r = LLVMBuildCall2(g->b, ft, fn, args, (unsigned)nargs, "");
    for (int i = 0; i < info->nout; i++)
        write_lvalue(g, s->out[i], info->nout == 1 ? r : LLVMBuildExtractValue(g->b, r, (unsigned)i, ""));
}

/* ------------------------------------------------------------ statements */

/* PS_LOADV: nw 32-bit words at mem into local[dst0 ..], the words' bits
 * reinterpreted as the local's element type (two f16 per word, ...). */
static void loadv(Gen *g, const PirStmt *s)
{
    Ll *l = g->l;
    LLVMBuilderRef B = g->b;
    LLVMTypeRef vt = s->nw == 1 ? l->t_i32 : LLVMVectorType(l->t_i32, (unsigned)s->nw);
    LLVMValueRef v = LLVMBuildLoad2(B, vt, addr(g, &s->mem), "");
    LLVMSetAlignment(v, 4 * (unsigned)s->nw);
    PirTy et = s->local->ty;
    unsigned k = (unsigned)(32 * s->nw / pir_ty_bits[et]);
    LLVMTypeRef rt = ll_reg_type(l, et);
    v = LLVMBuildBitCast(B, v, k == 1 ? rt : LLVMVectorType(rt, k), "");
    for (unsigned i = 0; i < k; i++) {
        LLVMValueRef x = k == 1 ? v : LLVMBuildExtractElement(B, v, ll_i32(l, i), "");
        PirExpr idx = { .kind = PE_CONST, .ty = PT_I32, .ival = s->dst0 + (int64_t)i };
        write_local(g, s->local, &idx, x);
    }
}

static void store(Gen *g, const PirStmt *s)
{
    Ll *l = g->l;
    LLVMBuilderRef B = g->b;
    if (s->nw == 0) {
        LLVMValueRef v = ex(g, s->val);
        if (s->mem.ty == PT_BOOL)
            v = LLVMBuildZExt(B, v, l->t_i8, "");
        LLVMSetAlignment(LLVMBuildStore(B, v, addr(g, &s->mem)), bytes_of(s->mem.ty));
        return;
    }
    LLVMTypeRef vt = LLVMVectorType(l->t_i32, (unsigned)s->nw);
    LLVMValueRef v = LLVMGetUndef(vt);
    for (int i = 0; i < s->nw; i++)
        v = LLVMBuildInsertElement(B, v, ex(g, s->w[i]), ll_i32(l, i), "");
    LLVMSetAlignment(LLVMBuildStore(B, v, addr(g, &s->mem)), 4 * (unsigned)s->nw);
}

/* A relaxed read-modify-write of one element (NVPTX: atom.global, or red
 * where the old value is unused). */
static void atomic(Gen *g, const PirStmt *s)
{
    bool sg = pir_ty_signed(s->mem.ty);
    LLVMAtomicRMWBinOp op = s->aop == PAT_ADD ? (pir_ty_float(s->mem.ty) ? LLVMAtomicRMWBinOpFAdd : LLVMAtomicRMWBinOpAdd)
                          : s->aop == PAT_MAX ? (sg ? LLVMAtomicRMWBinOpMax : LLVMAtomicRMWBinOpUMax)
                                              : (sg ? LLVMAtomicRMWBinOpMin : LLVMAtomicRMWBinOpUMin);
    LLVMValueRef r = LLVMBuildAtomicRMW(g->b, op, addr(g, &s->mem), ex(g, s->val), LLVMAtomicOrderingMonotonic, 0);
    LLVMSetAlignment(r, bytes_of(s->mem.ty));
}

/* s as a constant C string: a generic pointer (NVPTX: the .const space) */
static LLVMValueRef cstring(Ll *l, const char *s)
{
    size_t n = strlen(s);
    LLVMValueRef gv = LLVMAddGlobalInAddressSpace(l->m, LLVMArrayType(l->t_i8, (unsigned)n + 1), "tk_str",
                                                  l->host ? 0 : 4);
    LLVMSetInitializer(gv, LLVMConstStringInContext(l->c, s, (unsigned)n, 0));
    LLVMSetGlobalConstant(gv, 1);
    LLVMSetLinkage(gv, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(gv, LLVMGlobalUnnamedAddr);
    return l->host ? gv : LLVMConstAddrSpaceCast(gv, LLVMPointerTypeInContext(l->c, 0));
}

/* print: CUDA's vprintf(format, arguments), the arguments in a buffer at
 * their natural alignment as CUDA's printf packs them (a struct of them);
 * the CPU stand-in calls printf itself. */
static void print_line(Gen *g, const PirStmt *s)
{
    Ll *l = g->l;
    LLVMBuilderRef B = g->b;
    LLVMValueRef v[10];
    LLVMTypeRef t[10];
    int n = 0;
    PirTy vt = s->val ? s->val->ty : PT_VOID;
    const char *cast;
    const char *f = pir_print_format(g->f->a, s->nw, vt, &cast);
    for (int i = 0; i < 3; i++, n++)
        t[n] = l->t_i64, v[n] = LLVMBuildSExt(B, ex(g, s->in[i]), l->t_i64, "");
    for (int d = 0; d < s->nw; d++, n++)
        t[n] = l->t_i32, v[n] = ex(g, s->in[3 + d]);
    t[n] = LLVMPointerTypeInContext(l->c, 0), v[n++] = cstring(l, s->label);
    if (s->val) {                             /* as cast says: double, int (a bool) or long long */
        LLVMValueRef x = ex(g, s->val);
        if (pir_ty_float(vt))
            t[n] = l->t_f64, v[n] = LLVMBuildFPExt(B, x, l->t_f64, "");
        else if (vt == PT_BOOL)
            t[n] = l->t_i32, v[n] = LLVMBuildZExt(B, x, l->t_i32, "");
        else
            t[n] = l->t_i64, v[n] = pir_ty_bits[vt] == 64 ? x : pir_ty_signed(vt) ? LLVMBuildSExt(B, x, l->t_i64, "")
                                                                                   : LLVMBuildZExt(B, x, l->t_i64, "");
        n++;
    }
    LLVMTypeRef pt = LLVMPointerTypeInContext(l->c, 0);
    LLVMValueRef fmt = cstring(l, arena_printf(g->f->a, "%s\n", f));
    if (l->host) {
        LLVMTypeRef ft = LLVMFunctionType(l->t_i32, &pt, 1, 1);
        LLVMValueRef fn = LLVMGetNamedFunction(l->m, "printf");
        if (!fn)
            fn = LLVMAddFunction(l->m, "printf", ft);
        LLVMValueRef a[11] = { fmt };
        memcpy(a + 1, v, sizeof *v * (size_t)n);
        LLVMBuildCall2(B, ft, fn, a, (unsigned)n + 1, "");
        return;
    }
    LLVMTypeRef st = LLVMStructTypeInContext(l->c, t, (unsigned)n, 0);
    LLVMValueRef buf = LLVMBuildAlloca(g->eb, st, "");
    for (int i = 0; i < n; i++)
        LLVMBuildStore(B, v[i], LLVMBuildStructGEP2(B, st, buf, (unsigned)i, ""));
    LLVMTypeRef at[2] = { pt, pt };
    LLVMValueRef a[2] = { fmt, buf };
    ll_call(l, "vprintf", l->t_i32, at, a, 2);
}

/* May e be built where the PIR builds it only under a condition?  Not
 * with a load without its own mask (the condition may be what keeps its
 * address in bounds), nor a shuffle or a block-wide vote (every thread
 * must take part); and not a tree too large to look at (*budget nodes). */
static bool hoistable(const PirExpr *e, int *budget)
{
    if (!e)
        return true;
    if (--*budget < 0 || e->kind == PE_SHFL_XOR || e->kind == PE_BAR_AND || (e->kind == PE_LOAD && !e->a))
        return false;
    if (e->kind == PE_LOAD && !(hoistable(e->mem.ptr, budget) && hoistable(e->mem.idx, budget)))
        return false;
    return hoistable(e->a, budget) && hoistable(e->b, budget) && hoistable(e->c, budget);
}

/* `if (c) store` to global memory as one predicated st in inline asm, as
 * pred_load does for loads: the tensor-core kernels' epilogues store each
 * element behind its mask (NAME__nomap: 192 such one-store blocks in
 * matmul_bf16), each two blocks and a branch condition for the optimizer
 * and the instruction selector.  The value and address are built
 * unconditionally, so the store's expressions must be hoistable.  The
 * asm clobbers memory: it stays in order with every other access.  Not on
 * the CPU stand-in (host), which cannot run PTX; TKC_NVPTX_PSTORE=0: the
 * branch. */
static bool pred_store(Gen *g, const PirStmt *s, LLVMValueRef c)
{
    Ll *l = g->l;
    const PirStmt *st = s->body->s.n == 1 ? s->body->s.v[0] : NULL;
    if (l->host || s->els || !st || st->kind != PS_STORE || st->mem.space != PSP_GLOBAL || st->mem.ty == PT_PTR
        || !tkc_knob("TKC_NVPTX_PSTORE", 1))
        return false;
    int budget = 512;
    bool ok = hoistable(st->mem.ptr, &budget) && hoistable(st->mem.idx, &budget);
    for (int i = 0; ok && i < (st->nw ? st->nw : 1); i++)
        ok = hoistable(st->nw ? st->w[i] : st->val, &budget);
    if (!ok)
        return false;
    Arena *a = g->f->a;
    LLVMValueRef args[6];
    const char *tx, *cons;
    int n = 0;
    args[n++] = addr(g, &st->mem);
    if (st->nw) {
        for (int i = 0; i < st->nw; i++)
            args[n++] = ex(g, st->w[i]);
        tx = st->nw == 2 ? "@$3 st.global.v2.b32 [$0], {$1, $2};" : "@$5 st.global.v4.b32 [$0], {$1, $2, $3, $4};";
        cons = st->nw == 2 ? "l,r,r,b,~{memory}" : "l,r,r,r,r,b,~{memory}";
    } else {
        int by = bytes_of(st->mem.ty);
        char con;
        const char *sfx;
        LLVMTypeRef it = pred_width(l, by, &con, &sfx);
        LLVMValueRef v = ex(g, st->val);
        args[n++] = st->mem.ty == PT_BOOL || by == 1 ? LLVMBuildZExt(g->b, v, it, "") : LLVMBuildBitCast(g->b, v, it, "");
        tx = arena_printf(a, "@$2 st.global.%s [$0], $1;", sfx);
        cons = arena_printf(a, "l,%c,b,~{memory}", con);
    }
    args[n++] = c;
    pred_asm(g, l->t_void, tx, cons, args, n);
    return true;
}

/* An elidable guard (gpu_mma.c, gpu_mma_loop_post: the K loop's last wgmma
 * wait "only after a loop that ran") is dropped: ptxas cannot tell that the
 * test fails only where no wgmma is in flight, and with NVPTX's block
 * layout it then serializes every wgmma of the function (C7514).
 * Unguarded, the wait is a no-op there.  (NVRTC's CUDA C keeps it: NVVM
 * needs it against C7515.) */
static void if_stmt(Gen *g, const PirStmt *s)
{
    if (s->elidable) {
        stmts(g, s->body);
        return;
    }
    LLVMValueRef c = ex(g, s->cond);
    if (is_const_int(c)) {
        const PirBlock *b = LLVMConstIntGetZExtValue(c) ? s->body : s->els;
        if (b)
            stmts(g, b);
        return;
    }
    if (pred_store(g, s, c))
        return;
    LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b), then = block(g, "then"),
                      els = s->els ? block(g, "else") : NULL, end = block(g, "endif");
    LLVMBuildCondBr(g->b, c, then, els ? els : end);
    int mark = g->log.n, nmark = num_scope(g), n = 0;
    Edge es[2];
    LLVMPositionBuilderAtEnd(g->b, then);
    stmts(g, s->body);
    num_end(g, nmark);
    n += arm_end(g, mark, end, &es[n]);
    if (els) {
        LLVMPositionBuilderAtEnd(g->b, els);
        stmts(g, s->els);
        num_end(g, nmark);
        n += arm_end(g, mark, end, &es[n]);
    } else {
        es[n++] = (Edge){ from, 0, NULL, NULL };
    }
    join(g, end, es, n);
}

/* Does b break out of, or continue, the loop whose body it is? */
static bool jumps(const PirBlock *b)
{
    for (int i = 0; b && i < b->s.n; i++) {
        const PirStmt *s = b->s.v[i];
        if (s->kind == PS_BREAK || s->kind == PS_CONTINUE)
            return true;
        if ((s->kind == PS_IF || s->kind == PS_BLOCK) && (jumps(s->body) || jumps(s->els)))
            return true;
    }
    return false;
}

/* The loop's iterations as constants, or -1 when they do not all fold. */
static int64_t unroll_count(Gen *g, const PirStmt *s, LLVMValueRef lo, LLVMValueRef hi)
{
    if (!s->unroll || jumps(s->body) || !is_const_int(lo) || !is_const_int(hi))
        return -1;
    bool sgn = pir_ty_signed(s->local->ty);
    int64_t n = 0, h = sgn ? LLVMConstIntGetSExtValue(hi) : (int64_t)LLVMConstIntGetZExtValue(hi);
    LLVMValueRef c = lo;
    for (; (sgn ? LLVMConstIntGetSExtValue(c) : (int64_t)LLVMConstIntGetZExtValue(c)) < h; n++) {
        if (n >= MAX_UNROLL)
            return -1;
        g->bound[s->local->id] = c;
        c = ex(g, s->next);
        g->bound[s->local->id] = NULL;
        if (!is_const_int(c))
            return -1;
    }
    return n;
}

static void set_unroll_full(Gen *g, LLVMValueRef br)
{
    LLVMContextRef c = g->l->c;
    LLVMMetadataRef tmp = LLVMTemporaryMDNode(c, NULL, 0);
    LLVMMetadataRef full = LLVMMDStringInContext2(c, "llvm.loop.unroll.full", 21);
    LLVMMetadataRef opt = LLVMMDNodeInContext2(c, &full, 1);
    LLVMMetadataRef ops[2] = { tmp, opt };
    LLVMMetadataRef loop = LLVMMDNodeInContext2(c, ops, 2);
    LLVMMetadataReplaceAllUsesWith(tmp, loop);
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c, "llvm.loop", 9), LLVMMetadataAsValue(c, loop));
}

static void for_stmt(Gen *g, const PirStmt *s)
{
    const PirLocal *ctr = s->local;
    LLVMValueRef lo = ex(g, s->lo), hi = ex(g, s->hi);
    int64_t n = unroll_count(g, s, lo, hi);
    if (n >= 0) {
        LLVMValueRef c = lo;
        for (int64_t i = 0; i < n && g->ok; i++) {
            g->bound[ctr->id] = c;
            stmts(g, s->body);
            c = ex(g, s->next);
        }
        g->bound[ctr->id] = NULL;
        return;
    }
    LLVMBasicBlockRef head = block(g, "for"), body = block(g, "for.body"), next = block(g, "for.next"),
                      end = block(g, "for.end");
    write_local(g, ctr, NULL, lo);
    Loop lp = { .brk = end, .cont = next, .up = g->loop };
    loop_head(g, s->body, ctr, head, &lp);
    int mark = num_scope(g);
    LLVMValueRef cond = LLVMBuildICmp(g->b, pir_ty_signed(ctr->ty) ? LLVMIntSLT : LLVMIntULT,
                                      read_local(g, ctr, NULL), hi, "");
    LLVMBuildCondBr(g->b, cond, body, end);
    LLVMPositionBuilderAtEnd(g->b, body);
    g->loop = &lp;
    stmts(g, s->body);
    g->loop = lp.up;
    Edge e;
    if (arm_end(g, lp.mark, next, &e))
        vec_push(g->f->a, lp.conts, e);
    join(g, next, lp.conts.v, lp.conts.n);
    write_local(g, ctr, NULL, ex(g, s->next));
    e = capture(g, lp.mark);
    LLVMValueRef br = LLVMBuildBr(g->b, head);
    if (s->unroll)
        set_unroll_full(g, br);
    loop_back(g, &lp, &e);
    num_end(g, mark);
    loop_exit(g, &lp, head, end);
}

static void while_stmt(Gen *g, const PirStmt *s)
{
    LLVMBasicBlockRef head = block(g, "while"), body = block(g, "while.body"), end = block(g, "while.end");
    Loop lp = { .brk = end, .cont = head, .up = g->loop };
    loop_head(g, s->body, NULL, head, &lp);
    int mark = num_scope(g);
    LLVMBasicBlockRef test = NULL;
    if (s->cond) {
        LLVMValueRef c = ex(g, s->cond);
        test = LLVMGetInsertBlock(g->b);
        LLVMBuildCondBr(g->b, c, body, end);
    } else {
        LLVMBuildBr(g->b, body);
    }
    LLVMPositionBuilderAtEnd(g->b, body);
    g->loop = &lp;
    stmts(g, s->body);
    g->loop = lp.up;
    Edge e;
    if (arm_end(g, lp.mark, head, &e))
        vec_push(g->f->a, lp.conts, e);
    for (int i = 0; i < lp.conts.n; i++)
        loop_back(g, &lp, &lp.conts.v[i]);
    num_end(g, mark);
    loop_exit(g, &lp, test, end);
}

static void jump(Gen *g, bool brk)
{
    if (!g->loop) {
        fail(g, brk ? "break outside a loop" : "continue outside a loop");
        return;
    }
    Edge e = capture(g, g->loop->mark);
    if (brk)
        vec_push(g->f->a, g->loop->brks, e);
    else
        vec_push(g->f->a, g->loop->conts, e);
    LLVMBuildBr(g->b, brk ? g->loop->brk : g->loop->cont);
    LLVMPositionBuilderAtEnd(g->b, block(g, "dead"));
}

/* __syncthreads, or named barrier s->bar of s->nbar threads */
static void barrier(Gen *g, const PirStmt *s)
{
    Ll *l = g->l;
    LLVMValueRef a[2] = { ll_i32(l, s->bar), ll_i32(l, s->nbar) };
    LLVMTypeRef t[2] = { l->t_i32, l->t_i32 };
    if (l->host && s->nbar)
        ll_call(l, "tk_nvx_bar", l->t_void, t, a, 2);
    else if (l->host)
        ll_call(l, "tk_nvx_sync", l->t_void, NULL, NULL, 0);
    else if (s->nbar)
        ll_intrinsic(l, "llvm.nvvm.barrier.sync.cnt", NULL, 0, a, 2);
    else
        ll_intrinsic(l, "llvm.nvvm.barrier0", NULL, 0, NULL, 0);
}

static void stmt(Gen *g, const PirStmt *s)
{
    switch (s->kind) {
    case PS_DECL:
        if (s->init && g->single[s->local->id]) {
            g->bound[s->local->id] = ex(g, s->init);
        } else {
            declare_local(g, s->local);
            if (s->init)
                write_local(g, s->local, NULL, ex(g, s->init));
        }
        break;
    case PS_ASSIGN:
        write_local(g, s->local, s->idx, ex(g, s->val));
        break;
    case PS_IF:       if_stmt(g, s); break;
    case PS_FOR:      for_stmt(g, s); break;
    case PS_WHILE:    while_stmt(g, s); break;
    case PS_BREAK:    jump(g, true); break;
    case PS_CONTINUE: jump(g, false); break;
    case PS_BARRIER:
        barrier(g, s);
        break;
    case PS_STORE:    store(g, s); break;
    case PS_ATOMIC:   atomic(g, s); break;
    case PS_PRINT:    print_line(g, s); break;
    case PS_LOADV:    loadv(g, s); break;
    case PS_ASM:      asm_stmt(g, s); break;
    case PS_BLOCK:    stmts(g, s->body); break;
    }
}

static void stmts(Gen *g, const PirBlock *b)
{
    for (int i = 0, n; i < b->s.n && g->ok && !g->retry; i += n) {
        const PirStmt *s = b->s.v[i];
        n = s->kind == PS_ASM && s->nacc ? bound_run(g, b, i) : 1;
        if (n > 1)
            asm_bound(g, (const PirStmt *const *)&b->s.v[i], n);
        else
            stmt(g, s);
    }
}

/* ------------------------------------------------------------ the function */

/* each_write for the function: w[] counts the statements that write
 * each local (a loop counter twice; an asm's accumulator not), init[]
 * marks those declared with a value. */
typedef struct {
    int *w;
    bool *init;
} Writes;

static void count_write(void *ctx, int id, int what)
{
    Writes *c = ctx;
    c->w[id] += what == W_INIT || what == W_SET ? 1 : what == W_FOR ? 2 : 0;
    c->init[id] |= what == W_INIT;
}

static void add_attr(Ll *l, LLVMValueRef fn, unsigned idx, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(l->c, kind, 0));
}

static void annotate(Ll *l, LLVMValueRef fn, const char *key, int value)
{
    LLVMValueRef ops[3] = { fn, LLVMMDStringInContext(l->c, key, (unsigned)strlen(key)), ll_i32(l, value) };
    LLVMAddNamedMetadataOperand(l->m, "nvvm.annotations", LLVMMDNodeInContext(l->c, ops, 3));
}

/* Param idx (1-based) is __grid_constant__: its address may be taken
 * without a local copy (cvta.param). */
static void grid_constant(Ll *l, LLVMValueRef fn, int idx)
{
    LLVMValueRef n = ll_i32(l, idx);
    const char *key = "grid_constant";
    LLVMValueRef ops[3] = { fn, LLVMMDStringInContext(l->c, key, (unsigned)strlen(key)),
                            LLVMMDNodeInContext(l->c, &n, 1) };
    LLVMAddNamedMetadataOperand(l->m, "nvvm.annotations", LLVMMDNodeInContext(l->c, ops, 3));
}

static LLVMValueRef declare(Ll *l, const PirFunc *f)
{
    int np = f->params.n;
    LLVMTypeRef *pt = arena_alloc(f->a, sizeof *pt * (size_t)(np + 1));
    for (int i = 0; i < np; i++) {
        PirParamKind k = f->params.v[i].kind;
        pt[i] = k == PP_TENSOR ? l->t_gptr : k == PP_TMAP ? LLVMPointerTypeInContext(l->c, 0)
                                                         : ll_reg_type(l, f->params.v[i].ty);
    }
    LLVMValueRef fn = LLVMAddFunction(l->m, f->name, LLVMFunctionType(l->t_void, pt, (unsigned)np, 0));
    if (!l->host)
        LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
    for (int i = 0; i < np; i++) {
        const PirParam *p = &f->params.v[i];
        if (p->kind == PP_TENSOR && (p->flags & PIR_NOALIAS))
            add_attr(l, fn, (unsigned)i + 1, "noalias");
        if (p->kind == PP_TENSOR && (p->flags & PIR_CONST))
            add_attr(l, fn, (unsigned)i + 1, "readonly");
        LLVMSetValueName2(LLVMGetParam(fn, (unsigned)i), p->name, strlen(p->name));
        if (p->kind == PP_TMAP) {   /* a CUtensorMap by value: 128 bytes, 64-aligned */
            const char *bv = "byval", *al = "align";
            unsigned kb = LLVMGetEnumAttributeKindForName(bv, strlen(bv));
            unsigned ka = LLVMGetEnumAttributeKindForName(al, strlen(al));
            LLVMAddAttributeAtIndex(fn, (unsigned)i + 1,
                                    LLVMCreateTypeAttribute(l->c, kb, LLVMArrayType2(l->t_i8, 128)));
            LLVMAddAttributeAtIndex(fn, (unsigned)i + 1, LLVMCreateEnumAttribute(l->c, ka, 64));
            if (!l->host)
                grid_constant(l, fn, i + 1);
        }
    }
    add_attr(l, fn, LLVMAttributeFunctionIndex, "nounwind");
    return fn;
}

/* One try at f's function, with the locals mem[] marks in memory: the
 * function, or NULL after an error; *retry when a local turned out to need
 * memory (now marked). */
static LLVMValueRef build(Ll *l, const PirFunc *f, bool *mem, bool *retry, Diag *d)
{
    Gen g = { .l = l, .b = l->b, .f = f, .d = d, .mem = mem, .ssa = tkc_knob("TKC_NVPTX_SSA", 1), .ok = true };
    g.fn = declare(l, f);
    if (f->smem_align > (int)LLVMGetAlignment(l->smem))   /* one area for the module: the largest */
        LLVMSetAlignment(l->smem, (unsigned)f->smem_align);
    size_t nl = (size_t)f->locals.n + 1;
    g.param = arena_alloc(f->a, sizeof *g.param * (size_t)(f->params.n + 1));
    g.slot = arena_alloc(f->a, sizeof *g.slot * nl);
    g.bound = arena_alloc(f->a, sizeof *g.bound * nl);
    g.single = arena_alloc(f->a, sizeof *g.single * nl);
    g.elem = arena_alloc(f->a, sizeof *g.elem * nl);
    g.first = arena_alloc(f->a, sizeof *g.first * nl);
    g.num = arena_alloc(f->a, sizeof *g.num * NUM_BUCKETS);
    int *w = arena_alloc(f->a, sizeof *w * nl);
    each_write(f->body, count_write, &(Writes){ w, g.single });
    int nslots = 0;
    for (int i = 0; i < f->locals.n; i++) {
        const PirLocal *lc = f->locals.v[i];
        g.single[i] = g.single[i] && w[i] == 1 && lc->n == 0;
        mem[i] |= !g.ssa && !g.single[i];
        g.first[i] = g.single[i] || mem[i] ? -1 : nslots;
        nslots += g.first[i] < 0 ? 0 : lc->n ? (int)lc->n : 1;
    }
    g.val = arena_alloc(f->a, sizeof *g.val * (size_t)(nslots + 1));
    g.sty = arena_alloc(f->a, sizeof *g.sty * (size_t)(nslots + 1));
    g.seen = arena_alloc(f->a, sizeof *g.seen * (size_t)(nslots + 1));
    g.pos = arena_alloc(f->a, sizeof *g.pos * (size_t)(nslots + 1));
    for (int i = 0; i < f->locals.n; i++)
        for (int k = 0; g.first[i] >= 0 && k < (f->locals.v[i]->n ? f->locals.v[i]->n : 1); k++)
            g.sty[g.first[i] + k] = ll_reg_type(l, f->locals.v[i]->ty);
    for (int i = 0; i < f->params.n; i++)
        g.param[i] = LLVMGetParam(g.fn, (unsigned)i);
    LLVMPositionBuilderAtEnd(g.b, block(&g, "entry"));
    for (int i = 0; i < f->locals.n; i++) {
        const PirLocal *lc = f->locals.v[i];
        if (!mem[i])
            continue;
        LLVMTypeRef t = ll_reg_type(l, lc->ty);
        g.slot[i] = LLVMBuildAlloca(g.b, lc->n ? LLVMArrayType2(t, (uint64_t)lc->n) : t, lc->hint ? lc->hint : "");
        l->allocas = true;
    }
    /* the entry block keeps the allocas and element addresses; the body
     * starts in the next (SimplifyCFG merges them again) */
    LLVMBasicBlockRef body = block(&g, "body");
    g.eb = LLVMCreateBuilderInContext(l->c);
    LLVMPositionBuilderBefore(g.eb, LLVMBuildBr(g.b, body));
    LLVMPositionBuilderAtEnd(g.b, body);
    stmts(&g, f->body);
    LLVMDisposeBuilder(g.eb);
    *retry = g.retry;
    if (!g.ok)
        return NULL;
    if (g.retry)
        return g.fn;
    if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g.b)))
        LLVMBuildRetVoid(g.b);
    /* blocks left open after a break ("dead") end in unreachable */
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g.fn); bb; bb = LLVMGetNextBasicBlock(bb))
        if (!LLVMGetBasicBlockTerminator(bb)) {
            LLVMPositionBuilderAtEnd(g.b, bb);
            LLVMBuildUnreachable(g.b);
        }
    prune_phis(&g);
    return g.fn;
}

LLVMValueRef nvptx_gen(Ll *l, const PirFunc *f, Diag *d)
{
    bool *mem = arena_alloc(f->a, sizeof *mem * ((size_t)f->locals.n + 1)), retry = true;
    LLVMValueRef fn = NULL;
    while (retry) {
        LLVMValueRef last = LLVMGetLastGlobal(l->m);
        if (!(fn = build(l, f, mem, &retry, d)))
            return NULL;
        if (retry) {          /* the first try's function and strings go */
            LLVMDeleteFunction(fn);
            for (LLVMValueRef gv = last ? LLVMGetNextGlobal(last) : LLVMGetFirstGlobal(l->m), nx; gv; gv = nx) {
                nx = LLVMGetNextGlobal(gv);
                LLVMDeleteGlobal(gv);
            }
        }
    }
    if (!l->host) {
        annotate(l, fn, "kernel", 1);
        annotate(l, fn, "maxntidx", f->threads);
        if (f->min_blocks)
            annotate(l, fn, "minctasm", f->min_blocks);
    }
    return fn;
}
