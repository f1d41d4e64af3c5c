/*
 * lower/gpu.h — what lower/gpu.c (the block layout) and lower/gpu_mma.c
 * (the tensor-core dot) share.  Not an interface: lower/pir.h is.
 */
#ifndef TKC_GPU_H
#define TKC_GPU_H

#include "pir.h"
#include "tir.h"

typedef struct GL GL;

/* The m16n8 accumulator layout of a warp grid (see gpu_mma.c): W = WM * WN
 * warps tile [M, N]; a warp's TM x TN piece is MI x NI fragments of 16 x 8. */
typedef struct GpuGrid {
    int64_t M, N;
    int WM, WN;            /* warps along M and N */
    int64_t TM, TN;        /* a warp's piece */
    int MI, NI;            /* its 16 x 8 fragments */
} GpuGrid;

/* Where a tile's elements live (gpu.c, "layouts"):
 *   GL_BLOCK  gpu.c's block layout: groups of V consecutive flat elements
 *   GL_FRAG   [M, N] in grid g's fragments: slot (mi * NI + ni) * 4 + c
 *   GL_ROW    [M] or [M, 1] as the rows of g's fragments: a thread holds
 *             its rows r0 + mi * 16 + 8 * h in slot mi * 2 + h (what a
 *             reduction along N of a GL_FRAG tile gives; replicated over
 *             the 4 lanes of a quad and the WN warps of a row) */
typedef enum { GL_BLOCK, GL_FRAG, GL_ROW } GpuLayKind;
/* tr (GL_FRAG, stores only): the lanes of a store of trans(x), x in the
 * fragments of g: a thread stores its own elements of x transposed
 * (gpu.c, store_lay) */
typedef struct GpuLay { GpuLayKind kind; GpuGrid g; bool tr; } GpuLay;
bool gpu_grid_eq(const GpuGrid *a, const GpuGrid *b);

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
/* Tile v (rank 2) at (i0, i1), F32 for floats (integers in their register
 * type); own: the slot of that element in v's block layout when the
 * reading thread holds it (else NULL). */
PirExpr *gpu_at(GL *e, int v, PirExpr *i0, PirExpr *i1, PirExpr *own);
PirExpr *gpu_at_raw(GL *e, int v, PirExpr *i0, PirExpr *i1);   /* in v's own type */
PirLocal *gpu_value(GL *e, int v, int64_t n);  /* declare v's registers: n of its register type */
PirLocal *gpu_var(GL *e, int var);             /* var's registers */
PirExpr *gpu_i(GL *e, int64_t v);              /* an I32 constant */
PirExpr *gpu_add(GL *e, PirExpr *a, PirExpr *b);   /* nsw I32 arithmetic */
PirExpr *gpu_mul(GL *e, PirExpr *a, PirExpr *b);
PirExpr *gpu_op(GL *e, PirBinOp op, PirExpr *a, PirExpr *b);   /* plain */
PirLocal *gpu_let(GL *e, const char *hint, PirExpr *init);     /* declared and set */
/* Value v's registers (in v's layout) are now local l (a loop counter that
 * pipelined loops advance, a dot's result in fragments); returns the
 * previous local. */
PirLocal *gpu_bind(GL *e, int v, PirLocal *l);
/* May load v (a 2-D tile) be issued at loop's head, iterations ahead: a
 * reloadable load whose offsets and masks use aranges, scalars defined
 * before the loop, the loop's counter (and outer loops') and pure scalars
 * of the body over those only? */
bool gpu_async_ok(GL *e, int v, const Instr *loop);
/* Around code that reads loop's body at the counter's current binding:
 * compute those body scalars anew, then put the old ones back. */
PirLocal **gpu_ahead_scalars(GL *e, const Instr *loop);
void gpu_ahead_done(GL *e, const Instr *loop, PirLocal **old);
/* Load v's 16 bytes at row i0, columns i1 .. (i1 a multiple of the 16
 * bytes' elements) as one piece: *ptr its global address, *ok "all
 * unmasked" (NULL: always); false when its offsets do not step by one
 * along the row. */
bool gpu_load_chunk(GL *e, int v, PirExpr *i0, PirExpr *i1, PirExpr **ptr, PirExpr **ok);
/* gpu_stage.c: unaligned 16-byte chunks (of elements of es bytes) staged
 * through registers.  gpu_stage_raw: the U32 words a chunk needs in the
 * register array, 0 when es is not 2 or 4, or outside the kernel for tensors
 * without tensor maps (TirKernel.tma_version 2; TKC_UNALIGNED overrides).
 * gpu_stage_load: when mask holds, load the chunk at ptr (a gpu_load_chunk
 * address, in the tensor) into raw[at ..] (else zeros); returns what
 * gpu_stage_words needs to know of its address (BOOL).  gpu_stage_words:
 * the chunk's 4 words from raw[at ..] and that flag. */
int gpu_stage_raw(const TirKernel *k, int es);
PirExpr *gpu_stage_load(GL *e, PirExpr *ptr, int es, PirExpr *mask, PirLocal *raw, PirExpr *at);
void gpu_stage_words(GL *e, int es, PirLocal *raw, PirExpr *at, PirExpr *odd, PirExpr *w[4]);
/* The registers of tile v when it is in grid g's fragment layout (read at
 * its own index), else NULL. */
PirLocal *gpu_frag(GL *e, int v, const GpuGrid *g);
/* The registers of tile v ([g.M, K], 16-bit) when its fragments can feed
 * mma.sync's A operand of a dot on grid g directly: a GL_FRAG tile of a
 * grid with WN = 1 and g's rows.  NULL otherwise. */
PirLocal *gpu_frag_a(GL *e, int v, const GpuGrid *g, GpuGrid *ga);
/* Is value v in g's fragments, var x in the same layout? */
bool gpu_in_frags(const GL *e, int v, int x, const GpuGrid *g);
bool gpu_packed(const GL *e, int v);   /* the read of a var kept two 16-bit values to a word */

/* wgmma's swizzled tiles and TMA stores' boxes start 1024-aligned: regions
 * holding them reserve 1024 bytes more and round their offset up. */
static inline int64_t al1k(int64_t x) { return (x + 1023) / 1024 * 1024; }

typedef struct GpuMma {
    TirKernel *k;
    Arena *a;
    int T, V;                  /* block size; the kernel's vector width */
    const bool *live;
    GL *e;
    bool *on;                  /* DOTs on tensor cores */
    bool *fused;               /* VAR_GET/DOT/VAR_SET of an in-place accumulator */
    bool *frag_var;            /* vars held in the fragment layout */
    int64_t need, stg;         /* the staging region: bytes, offset in shared memory */
    int need_pos;              /* 1 + the first position that uses it (0: none) */
    int64_t lead;              /* where the resident region starts: after the staging one, or
                                * at 0 when that lies in the key loops' stages (gpu.c) */
    struct GpuPipe **pipe;     /* FOR id -> its pipelined dot (gpu_mma.c), or NULL */
    bool *staged;              /* LOADs copied into shared memory by a pipelined loop */
    bool rows;                 /* prefer warp grids with WN = 1 (row reductions follow) */
    int64_t *res;              /* A operands staged once (loop invariant): their offset in
                                * the resident region, or -1 */
    int64_t res_need;          /* the resident region: bytes, after the staging region */
    int64_t *early;            /* B operands staged where they are loaded (at the top of a
                                * loop body, gpu.c), not at the dot: offset in the early
                                * region, or -1 */
    int64_t early_need;        /* the early region: bytes, after the resident region */
    bool swz;                  /* swizzled (wgmma) tiles among the resident and early regions
                                * and key stages: each at a multiple of 1024 bytes from a
                                * 1024-aligned lead, the early region too (gpu_mma.c swz_place) */
    int64_t key_base, key_area; /* the stages key loops one after the other share: offset
                                * in the early region, bytes (0: none; gpu_mma_key_place) */
    int key_end;               /* the last preorder position inside those loops */
    bool *wg;                  /* DOTs on wgmma (gpu_wgmma.c: pipelined, sm_90a) */
    bool *n8;                  /* DOTs of N % 16 == 8: on tensor cores only if on wgmma */
    bool *wg_var;              /* vars accumulated by those */
    bool *wgd;                 /* other DOTs on wgmma, one at a time (flash attention's:
                                * gpu_mma.c, "single dots on wgmma") */
    int *chain;                /* single wgmma DOT -> the single wgmma DOT that takes its
                                * result as accumulator (one MMA group for both), or 0 */
    PirLocal **chain_acc;      /* such a later DOT -> the earlier one's accumulators */
    int *pair;                 /* single wgmma DOT -> the next one in its block, after whose
                                * commit it may be waited for (plan_pair), or 0 */
    bool pairs;                /* the pairs are waited for so (TKC_WG_PAIR; gpu_mma_key_place) */
    bool turns;                /* the warpgroups take turns at the tensor cores in their key
                                * loops (TKC_PINGPONG; gpu_mma_key_place) */
    PirLocal *wgu;             /* the warpgroup index broadcast from lane 0 (gpu_wg_head), or NULL */
    PirLocal **pair_acc;       /* such a later DOT -> the earlier one's accumulators, */
    int *pair_nacc;            /* and their number */
    bool defer;                /* TKC_WG_DEFER */
    int ndefer;                /* single wgmma DOTs issued, not yet waited for (TKC_WG_DEFER) */
    int defer_id[8];           /* their ids, */
    int defer_in[8];           /* their accumulator operands (args[2]) */
    PirLocal *defer_acc[8];    /* and their accumulators */
    int defer_nacc[8];
    bool producing;            /* emitting the key producer's wait for an empty stage */
    bool *bd_set;              /* TKC_WG_BACKDEFER: the VAR_SET of a key loop's last single
                                * wgmma DOT, done after the next iteration's first DOT's wait
                                * instead (gpu_mma.c bd_plan) */
    int64_t *res_e;            /* resident operands in wgmma's swizzled layout: its width
                                * (gpu_wg_width), else 0 (rows padded for ldmatrix) */
    int64_t *early_e;          /* the same for the early region's operands */
    int64_t bar_need;          /* the mbarriers of TMA pipelines: bytes, after the early region */
    int tma_ok;                /* the PP_TMA_OK param, or -1 */
    PirLocal *tma_on;          /* its value, read once (BOOL) */
    struct GpuPipe *ws;        /* the warp-specialized TMA pipeline (gpu_mma.c), or NULL */
    int64_t ws_need;           /* its stages: bytes, after the early region (before the
                                * mbarriers) */
    bool pp;                   /* ping-pong consumers (TKC_MM_PP, gpu_mma.c "ping-pong") */
    int64_t pp_bar;            /* their two order mbarriers: offset in the mbarrier region */
    PirLocal *pp_wg;           /* the consumer warpgroup (0, 1), set by gpu.c */
    PirLocal *pp_tb;           /* its order mbarrier's parity bit */
    PirStmt *ws_if;            /* the producer's branch (its thread issuing the copies) */
    /* TKC_KEY_WS=1 (gpu_mma.c, "warp-specialized key loops"): the key
     * loops whose TMA copies a producer warpgroup issues, in program order;
     * the producer's parity bits of their shared empty mbarriers */
    struct GpuPipe *kw[4];
    int nkw;
    PirLocal *kw_pe;
    /* their stages overlaid by what follows them (gpu.c plan_overlay): the
     * "program done" mbarrier's offset in the mbarrier region (-1: none),
     * the producer's parity bit of it */
    int64_t kw_done;
    PirLocal *kw_dp;
    /* @launch(cluster = 2) (gpu_mma.c, "pairs of blocks"): the warp-
     * specialized K loop's blocks run in pairs (cl), which may share the
     * copies of operand 0 (A) and 1 (B) where cl_mc says so; the pair's
     * mailbox (an mbarrier and four U32) at cl_bar in the mbarrier region;
     * the tk_np param (gpu.c sets it); at run time: whether this block has
     * a partner, its rank in the cluster, whether the pair shares each
     * operand's copies (the producer's), the producer's iteration. */
    bool cl, cl_mc[2];
    int64_t cl_bar;
    int np;
    PirLocal *cl_pair, *cl_rank, *cl_share[2], *cl_it;
} GpuMma;

/* gpu_mma.c.  Set k, a, T, V, live, e, then plan (TKC_MMA=0 turns it off). */
void gpu_mma_plan(GpuMma *m);
/* A DOT on tensor cores; false (building nothing) when it does not fit. */
bool gpu_mma_dot(GpuMma *m, const Instr *in);
/* Before instruction in of a block (NULL: the block's end): the wait for
 * the single wgmma dots still in flight (TKC_WG_DEFER) when in reads one or
 * holds blocks.  True when it waited (the caller flushed its lanes first:
 * gpu_mma_defer_due says whether it must). */
bool gpu_mma_defer_due(const GpuMma *m, const Instr *in);
void gpu_mma_defer_wait(GpuMma *m);
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
/* Experiment switch name (an environment variable listed in lower/knob.c):
 * its integer value, or dflt when unset or empty. */
int tkc_knob(const char *name, int dflt);
/* At the top of the function, before the loop over programs: the TMA
 * pipelines' parameters, and their mbarriers initialized. */
void gpu_mma_kernel_head(GpuMma *m);
/* Warp specialization (gpu_mma.c, "warp specialization"): the K loop whose
 * TMA copies a producer warpgroup issues, or NULL.  gpu.c builds the
 * function as  if (tid >= T) { producer } else { consumers }:  _producer
 * opens the producer's part (its registers, its one thread; then gpu.c
 * opens the loop over programs and computes the scalars the copies read)
 * and _produce is its K loop; _consumer opens the consumers' part. */
const Instr *gpu_mma_ws_loop(const GpuMma *m);
int gpu_mma_ws_producer(GpuMma *m);                /* returns the depth to pop */
void gpu_mma_ws_produce(GpuMma *m, PirExpr *lo, PirExpr *hi, PirExpr *step);
/* Producer-rounded tf32 (gpu_wgdt.c, "K-major B"): true after opening the
 * branch of the producer's rounding warps (else nothing to do); then gpu.c
 * opens their loop over programs as the producer's and _round is their K
 * loop.  The depth to pop is 1. */
bool gpu_mma_ws_rounders(GpuMma *m);
void gpu_mma_ws_round(GpuMma *m, PirExpr *lo, PirExpr *hi, PirExpr *step);
void gpu_mma_ws_consumer(GpuMma *m);
/* Warp-specialized key loops (TKC_KEY_WS=1): their count and loops (at
 * most 4, program order); gpu.c builds  if (tid >= T) { producer } else
 * { consumers }  as for a K loop: _kw_producer opens the producer's part
 * (returns the depth to pop), _kw_produce is its copy of key loop i, with
 * the program's scalars before it built; _kw_consumer opens the consumers'. */
int gpu_mma_kw_loops(const GpuMma *m, const Instr **loops);
int gpu_mma_kw_producer(GpuMma *m);
void gpu_mma_kw_produce(GpuMma *m, int i, PirExpr *lo, PirExpr *hi, PirExpr *step);
void gpu_mma_kw_consumer(GpuMma *m);
/* With kw_done: the producer waits at the top of each program until the
 * consumers ended the one before (gpu_mma_kw_program), which they tell at
 * the end of each program, after its last barrier (gpu_mma_kw_done). */
void gpu_mma_kw_program(GpuMma *m);
void gpu_mma_kw_done(GpuMma *m);
/* Pairs of blocks: the cluster barrier every thread passes at the
 * function's end (no block may leave while its partner still signals it). */
void gpu_mma_cl_end(GpuMma *m);
/* gpu.c: instruction v's position in the kernel (program order) */
int gpu_pos(const GL *e, int v);
int gpu_end(const GL *e, int v);      /* the last position inside v (a loop) */
int gpu_building(const GL *e);        /* the instruction being built */
void gpu_mma_pp_turn(GpuMma *m);                   /* ping-pong: wait for this warpgroup's turn */
bool gpu_mma_pp(const GpuMma *m);                 /* ping-pong consumers (two warpgroups of T) */
/* gpu.c, for those: may the producer compute v (scalars of the program
 * before loop and of its body, the loop's counter, tiles recomputed from
 * those)?  Build those scalars: before loop (body false) or of its body. */
bool gpu_ws_ready(GL *e, int v, const Instr *loop);
void gpu_ws_scalars(GL *e, const Instr *loop, bool body);
/* Blocks per SM the registers should allow (0: no bound), for smem bytes
 * of shared memory per block. */
int gpu_mma_min_blocks(const GpuMma *m, int64_t smem);
/* After the definition of tile v: stage it when it is a resident operand. */
void gpu_mma_settle(GpuMma *m, int v);
/* The tile a DOT on tensor cores stages for its B operand (b, or x for
 * b = trans(x)); give it a region of its own, staged by gpu_mma_stage_early
 * right after its definition. */
int gpu_mma_bsrc(const GpuMma *m, const Instr *dot);
void gpu_mma_set_early(GpuMma *m, int v);
void gpu_mma_stage_early(GpuMma *m, const int *v, int n);   /* barrier, stage them, barrier */
/* Pipelined key loops (flash attention): copy load v, the B operand of a
 * dot in loop that nothing else reads, with cp.async one or more
 * iterations ahead (false: it cannot, stage it early instead); then place
 * the pipelines' stages once every load is in. */
bool gpu_mma_key_load(GpuMma *m, int v, const Instr *loop);
void gpu_mma_key_place(GpuMma *m);
/* The key loops' shared stage area with the resident region at offset 0:
 * its first byte, *end its end (gpu.c may lay the staging region and its
 * own shared buffers over it: plan_overlay), or -1 when there is none. */
int64_t gpu_mma_key_area_at(const GpuMma *m, int64_t *end);
/* one past the MMA regions from lead on (resident, early, producer stages,
 * mbarriers) */
int64_t gpu_mma_end(const GpuMma *m);
/* The warp grid of a DOT on tensor cores (false: not on tensor cores). */
bool gpu_mma_grid(const GpuMma *m, const Instr *in, GpuGrid *g);
/* Open the unrolled loops over a thread's slots of grid g: its slot k, row
 * i0 and column i1, and with rk the slot of its row in the GL_ROW layout;
 * close with gpu_pop `depth` times. */
typedef struct GpuSlots { PirLocal *k, *i0, *i1, *rk; int depth; PirExpr *ni; } GpuSlots;
GpuSlots gpu_mma_open_frag(GpuMma *m, const GpuGrid *g, bool rk);
/* The same over the pairs of a thread's slots (c = 0, 2: k and k + 1 hold
 * columns i1 and i1 + 1 of row i0). */
GpuSlots gpu_mma_open_pairs(GpuMma *m, const GpuGrid *g);
/* The grid of var x when it is held in the fragment layout (false: not). */
bool gpu_mma_var_grid(const GpuMma *m, int x, GpuGrid *g);
/* Fragments src (grid g) into dst, the same tile in gpu.c's block layout,
 * through the staging region. */
void gpu_mma_to_block(GpuMma *m, PirLocal *src, PirLocal *dst, const GpuGrid *g);

/* gpu_wgmma.c: a pipelined dot on sm_90a's warpgroup MMA.  The grid of its
 * [M, N] result (false: does not fit); the swizzle width in elements of a
 * staged operand whose contiguous extent is c (a multiple of 16); the byte
 * offset in a staged [R, *] operand of width E of the 16-byte chunk at row
 * i0, column i1 (a multiple of 8). */
bool gpu_wg_grid(const GpuMma *m, int64_t M, int64_t N, GpuGrid *g);
int64_t gpu_wg_width(int64_t c);
PirExpr *gpu_wg_at(GpuMma *m, int64_t R, int64_t E, PirExpr *i0, PirExpr *i1);
typedef struct GpuWgDot {
    PirLocal *acc;             /* the accumulators: g's fragments */
    const GpuGrid *g;
    PirExpr *at_a, *at_b;      /* I32 byte offsets of the staged A [M, K] and B */
    int64_t K, ea, eb;         /* K; swizzle widths of A and B */
    bool bt;                   /* B staged K-major as [N, K] (else N-major [K, N]) */
    bool am;                   /* A staged M-major as [K, M] (else K-major [M, K]; 16-bit) */
    PirLocal *fa;              /* A from registers instead (at_a, ea unused): U32[K / 4],
                                * k step kk's 4 words (mma.sync's A fragment of the
                                * warp's 16 rows) at kk / 4 */
    DType dt;                  /* DT_BF16 or DT_F16 */
    bool zero;                 /* the first k step ignores acc (scale-d 0): no zeroing */
    int dinc;                  /* each k step's descriptor of B (1), also of A (2): the
                                * first one plus a constant */
} GpuWgDot;
/* fence, one wgmma per k step of 16 (A from shared memory or from d->fa),
 * commit (the caller waits: gpu_wg_wait) */
void gpu_wg_dot(GpuMma *m, const GpuWgDot *d);
/* At the top of the function, just after tid: the warpgroup index its
 * wgmma dots build their addresses from, when they take it warp-uniform. */
void gpu_wg_head(GpuMma *m);
void gpu_wg_wait(GpuMma *m, PirLocal *acc, int nacc, int n);

/* gpu_wgdt.c: wgmma on tf32 and s8.  May dot (operands of dtype a) take
 * it; the element bytes of an operand dtype; before the MMAs of an
 * iteration: A ([M, K] at byte ea) rounded to tf32 in place, B ([K, N]
 * N-major of width Eb at eb) rewritten K-major ([N, K] at et, rounded),
 * then a proxy fence and a barrier. */
bool gpu_wgdt_on(const GpuMma *m, const Instr *dot, DType a);
int gpu_wgdt_es(DType dt);
/* TKC_WGDT_RA=1: a tf32 dot's A from registers (not rounded in place):
 * gpu_wgdt_fa loads them (ldmatrix from the swizzled [M, K] stage at ea,
 * rounded), GpuWgDot.fa; the caller waits for the MMAs reading them first. */
bool gpu_wgdt_ra(DType dt);
PirLocal *gpu_wgdt_fa(GpuMma *m, const GpuGrid *g, PirExpr *ea, int64_t M, int64_t K);
void gpu_wgdt_prep(GpuMma *m, DType dt, PirExpr *ea, int64_t M, int64_t K, PirExpr *eb, int64_t N, int64_t Eb,
                   PirExpr *et);
/* A tf32 dot whose B is staged K-major (B = trans(x), x [N, K]): the na
 * bytes of A at ea and the nb of B at eb rounded in place by the nt
 * threads t0.. (unless TKC_WGDT_ROUND=0: gpu_wgdt_rounds false), then a
 * proxy fence and, with t0 = 0 (the block's threads), a barrier. */
bool gpu_wgdt_rounds(void);
/* ... and A from registers (gpu_wgdt_fa, two sets by the iteration's
 * parity), only B rounded in place (default; TKC_WGDT_BKRA=0: both) */
bool gpu_wgdt_bkra(void);
/* ... in a kernel's TMA version with both operands copied by TMA: their
 * maps of data type TFLOAT32 (PirParam.tf32), rounded as TMA copies them,
 * none in place (TKC_WGDT_TMAROUND; on by default, 0 rounds in place) */
bool gpu_wgdt_tmaround(void);
/* N-major A (TKC_WGDT_AN): a tf32 dot on a K-major B whose A is trans(y),
 * y [K, M] staged as it is (rows of M, width Ea in 16-bit units, at ea):
 * A's register fragments of the K / 8 k steps loaded from it a word at a
 * time (rounded to tf32 unless round is false: TMA did), GpuWgDot.fa.
 * Off by default (TKC_WGDT_AN=1: on). */
bool gpu_wgdt_an(void);
PirLocal *gpu_wgdt_fan(GpuMma *m, const GpuGrid *g, PirExpr *ea, int64_t K, int64_t Ea, bool round);
void gpu_wgdt_round(GpuMma *m, PirExpr *ea, int64_t na, PirExpr *eb, int64_t nb, int t0, int nt);

/* gpu_tma.c: TMA copies of a pipelined wgmma dot's operands.  A load that
 * TMA can fetch: tensor param, the [R, C] offset's row and column ramps
 * (values whose element (0, 0) is the box's first row and column) and their
 * rank-1 roots. */
typedef struct GpuTma { int param, row, col, rk[2]; } GpuTma;
bool gpu_tma_match(const GpuMma *m, int v, GpuTma *t);
/* A STORE that TMA can write (the same conditions; its mask, args[2], only
 * bounds the tile by the tensor). */
bool gpu_tma_match_store(const GpuMma *m, int v, GpuTma *t);
/* A PP_TMAP param for boxes of [R, E] of t's tensor; its index. */
int gpu_tma_param(GpuMma *m, const GpuTma *t, int64_t E, int64_t R);
/* Copy load v ([R, C]) into the stage at byte `at` (I32) as C / E boxes
 * of map (a param index) completing on the mbarrier at U32 address bar
 * (with mc, each box into both blocks of a pair, on the mbarrier at that
 * address in each; with half (U32), only the boxes j with j % 2 == half). */
void gpu_tma_copy(GpuMma *m, const GpuTma *t, int map, int v, int64_t E, PirExpr *at, PirExpr *bar, bool mc,
                  PirExpr *half);
/* A [R, C] tile x[b, h, rn, rd] of a strided rank-4 16-bit tensor param
 * (flash attention's k and v): its index tiles x[d] (dims 0, 1 scalars,
 * 2 the rows' ramp, 3 the columns'; element (0, 0) is the box's coordinate)
 * and the ramps' rank-1 roots; its PP_TMAP param (rank 4, one per tensor
 * and box); the copy of load v as C / E boxes of [R, E]. */
typedef struct GpuTma4 { int param, x[4], rk[2]; } GpuTma4;
bool gpu_tma_match4(const GpuMma *m, int v, GpuTma4 *t);
int gpu_tma_param4(GpuMma *m, const GpuTma4 *t, int64_t E, int64_t R);
void gpu_tma_copy4(GpuMma *m, const GpuTma4 *t, int map, int v, int64_t E, PirExpr *at, PirExpr *bar);

#endif
