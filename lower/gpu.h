/*
 * lower/gpu.h — what lower/gpu.c (the block layout) and lower/gpu_mma.c
 * (the tensor-core dot) share.  Not an interface: lower/pir.h is.
 */
#ifndef TKC_GPU_H
#define TKC_GPU_H

#include "pir.h"
#include "tir.h"

typedef struct GL GL;

/* gpu.c: the block layout.  A thread owns groups of gpu_vwidth(V, n)
 * consecutive elements of a tile of n elements, gpu_groups(T, V, n) of
 * them. */
int gpu_vwidth(int V, int64_t n);
int64_t gpu_groups(int T, int V, int64_t n);

/* gpu.c, for gpu_mma.c */
PirFunc *gpu_func(GL *e);
PirBlock *gpu_cur(GL *e);                  /* where statements go now */
void gpu_push(GL *e, PirBlock *b);         /* statements go to b until gpu_pop */
void gpu_pop(GL *e);
PirExpr *gpu_tid(GL *e);                   /* threadIdx.x, I32 */
/* Tile v (rank 2) at (i0, i1); own: the slot of that element in v's block
 * layout when the reading thread holds it (else NULL). */
PirExpr *gpu_at(GL *e, int v, PirExpr *i0, PirExpr *i1, PirExpr *own);
PirLocal *gpu_value(GL *e, int v, int64_t n);  /* declare v's registers: float[n] */
PirLocal *gpu_var(GL *e, int var);             /* var's registers */
PirExpr *gpu_i(GL *e, int64_t v);              /* an I32 constant */
PirExpr *gpu_add(GL *e, PirExpr *a, PirExpr *b);   /* nsw I32 arithmetic */
PirExpr *gpu_mul(GL *e, PirExpr *a, PirExpr *b);
PirExpr *gpu_op(GL *e, PirBinOp op, PirExpr *a, PirExpr *b);   /* plain */
PirLocal *gpu_let(GL *e, const char *hint, PirExpr *init);     /* declared and set */
/* For pipelined loops (gpu_mma.c): value v (a loop counter) now reads local
 * l; returns its previous local. */
PirLocal *gpu_bind(GL *e, int v, PirLocal *l);
/* May load v (a 2-D tile) be issued at loop's head, iterations ahead: a
 * reloadable load whose offsets and masks use aranges, scalars defined
 * before the loop and the loop's counter only? */
bool gpu_async_ok(GL *e, int v, const Instr *loop);
/* Load v's 16 bytes at row i0, columns i1 .. i1+7 (i1 a multiple of 8) as
 * one piece: *ptr its global address, *ok "all unmasked" (NULL: always);
 * false when its offsets do not step by one along the row. */
bool gpu_load_chunk(GL *e, int v, PirExpr *i0, PirExpr *i1, PirExpr **ptr, PirExpr **ok);

typedef struct GpuMma {
    TirKernel *k;
    Arena *a;
    int T, V;                  /* block size; the kernel's vector width */
    const bool *live;
    GL *e;
    bool *on;                  /* DOTs on tensor cores */
    bool *fused;               /* VAR_GET/DOT/VAR_SET of an in-place accumulator */
    bool *frag_var;            /* vars held in the fragment layout */
    int64_t need, off;         /* the staging region: bytes, offset in shared memory */
    struct GpuPipe **pipe;     /* FOR id -> its pipelined dot (gpu_mma.c), or NULL */
    bool *staged;              /* LOADs copied into shared memory by a pipelined loop */
} GpuMma;

/* gpu_mma.c.  Set k, a, T, V, live, e, then plan (TKC_MMA=0 turns it off). */
void gpu_mma_plan(GpuMma *m);
/* A DOT on tensor cores; false (building nothing) when it does not fit. */
bool gpu_mma_dot(GpuMma *m, const Instr *in);
/* Is `in` a VAR_GET/VAR_SET of a var in the fragment layout?  Those are
 * built by gpu_mma_var_op (a VAR_GET defines v's block-layout registers). */
bool gpu_mma_var(const GpuMma *m, const Instr *in);
void gpu_mma_var_op(GpuMma *m, const Instr *in);
/* Pipelined K loops: a FOR whose body has a fused DOT of two loads copied
 * asynchronously into S stages of shared memory.  gpu.c calls _pre before
 * the loop (the prologue), _head first in its body and _post after it;
 * each does nothing for other loops.  A staged LOAD builds nothing. */
bool gpu_mma_staged(const GpuMma *m, const Instr *in);
void gpu_mma_loop_pre(GpuMma *m, const Instr *loop, PirExpr *lo, PirExpr *hi, PirExpr *step);
void gpu_mma_loop_head(GpuMma *m, const Instr *loop);
void gpu_mma_loop_post(GpuMma *m, const Instr *loop);

#endif
