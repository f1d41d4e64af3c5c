/*
 * lower/gpu_wgmma.c — dot on sm_90a's warpgroup MMA (wgmma.mma_async).
 *
 * The pipelined K loops of gpu_mma.c (acc += dot(load(a[rm, rk]),
 * load(b[rk, rn])), both operands copied to shared memory by cp.async) run
 * their dot on wgmma when the target is sm_90a (TirKernel.wgmma) and the
 * tile fits; everything else stays on mma.sync.
 *
 *   - Warps form warpgroups of four consecutive warps.  The G = W / 4
 *     warpgroups tile [M, N] as GM x GN with M = 64 GM: a warpgroup owns 64
 *     rows (one m64 instruction per k step) and TN = N / GN columns, a
 *     multiple of 16 up to 256.  Warp i of a warpgroup holds rows 16 i ..
 *     16 i + 15 of them, its accumulators laid out as mma.sync's m16n8 C
 *     fragments over the TN columns: gpu_mma.c's grid with WM = 4 GM,
 *     TM = 16, MI = 1, so the fused epilogues read GL_FRAG as for mma.sync.
 *   - A stage holds an operand [R, C] (C contiguous: K for A, N for B) in
 *     wgmma's swizzled layout: C / E blocks of R rows of E elements, 2E
 *     bytes (128, 64 or 32: the swizzle width, the largest that divides C,
 *     or for B each warpgroup's TN), with the 16-byte chunk at byte L of a
 *     block at L ^ ((L >> 7) & (2E / 16 - 1)) << 4: the hardware XORs
 *     address bits 4.. with bits 7.. (tile bases are 1024-aligned).  A is
 *     K-major (rows of K), B N-major: the transpose bit of B is set.
 *   - Per k step of 16 one wgmma per warpgroup, with matrix descriptors of
 *     its A rows and B columns (start address >> 4, leading and stride byte
 *     offsets, swizzle mode); a fence before the first, a commit after the
 *     last; gpu_mma.c then issues the next copies and waits with
 *     wait_group 1: one iteration's MMAs stay in flight while the next
 *     one's operands land.  The pipeline copies S - 2 iterations ahead (not
 *     S - 1), so the stage it overwrites is never the one the MMAs in
 *     flight read (gpu_mma.c, "pipelined K loops").
 *   - cp.async writes shared memory through the generic proxy, wgmma reads
 *     it through the async proxy: every thread fences (fence.proxy.async)
 *     after its cp.async.wait_group, before the barrier.
 *
 * Other dots (flash attention's two, gpu_mma.c "single dots on wgmma") use
 * the same instruction one group at a time: A may also come from registers
 * (GpuWgDot.fa: per warp mma.sync's m16n8k16 A fragment of its 16 rows,
 * which is what wgmma's register A layout is), and B may be K-major (bt:
 * trans(k) staged as k's rows, transpose bit clear).
 */
#include "gpu_mm.h"


static PirExpr *u32(GpuMma *m, int64_t v) { return pir_int(F, PT_U32, v); }

static int log2i(int64_t v)
{
    int l = 0;
    while ((int64_t)1 << l < v)
        l++;
    return l;
}

bool gpu_wg_grid(const GpuMma *m, int64_t M, int64_t N, GpuGrid *g)
{
    int64_t W = m->T / 32;
    if (W % 4 || M <= 0 || N <= 0 || M % 64)
        return false;
    int64_t G = W / 4, gm = M / 64;
    if (gm > G || G % gm)
        return false;
    int64_t gn = G / gm, tn = N / gn;
    if (N % gn || tn % 8 || tn > 256)
        return false;
    *g = (GpuGrid){ .M = M, .N = N, .WM = (int)(4 * gm), .WN = (int)gn, .TM = 16, .TN = tn,
                    .MI = 1, .NI = (int)(tn / 8) };
    return true;
}

int64_t gpu_wg_width(int64_t c)
{
    return c % 64 == 0 ? 64 : c % 32 == 0 ? 32 : 16;
}

PirExpr *gpu_wg_at(GpuMma *m, int64_t R, int64_t E, PirExpr *i0, PirExpr *i1)
{
    GL *e = m->e;
    int64_t wb = 2 * E;
    PirExpr *blk = gpu_op(e, PB_SHR, i1, ci(m, log2i(E)));
    PirExpr *l = gpu_add(e, gpu_mul(e, i0, ci(m, wb)), gpu_mul(e, gpu_op(e, PB_AND, i1, ci(m, E - 1)), ci(m, 2)));
    PirExpr *x = gpu_op(e, PB_SHL, gpu_op(e, PB_AND, gpu_op(e, PB_SHR, l, ci(m, 7)), ci(m, wb / 16 - 1)), ci(m, 4));
    return gpu_add(e, gpu_mul(e, blk, ci(m, R * wb)), gpu_op(e, PB_XOR, l, x));
}

/* The low word of the matrix descriptor of the operand at shared address
 * addr (U32): start address >> 4, leading byte offset. */
static PirExpr *desc_lo(GpuMma *m, PirExpr *addr, int64_t lbo)
{
    PirExpr *lo = gpu_op(m->e, PB_AND, gpu_op(m->e, PB_SHR, addr, u32(m, 4)), u32(m, 0x3fff));
    return gpu_op(m->e, PB_OR, lo, u32(m, (lbo >> 4) << 16));
}

/* The descriptor of low word lo: the stride byte offset and swizzle mode
 * above it. */
static PirExpr *desc_join(GpuMma *m, PirExpr *lo, int64_t sbo, int64_t wb)
{
    uint64_t mode = wb == 128 ? 1 : wb == 64 ? 2 : 3;
    uint64_t hi = (uint64_t)(sbo >> 4) << 32 | mode << 62;
    return pir_bin(F, PB_OR, pir_conv(F, PT_U64, lo), pir_int(F, PT_U64, (int64_t)hi));
}

static PirExpr *desc(GpuMma *m, PirExpr *addr, int64_t lbo, int64_t sbo, int64_t wb)
{
    return desc_join(m, desc_lo(m, addr, lbo), sbo, wb);
}

/* The descriptor of k step 0's low word lo0 (a U32 local) advanced by off
 * bytes: the address field cannot carry (shared addresses are below 2^18),
 * so a 32-bit add on the low word. */
static PirExpr *desc_at(GpuMma *m, PirLocal *lo0, int64_t off, int64_t sbo, int64_t wb)
{
    return desc_join(m, gpu_op(m->e, PB_ADD, pir_ref(F, lo0), u32(m, off >> 4)), sbo, wb);
}

static PirStmt *bound(GpuMma *m, PirAsmOp op, PirLocal *acc, int nacc)
{
    PirStmt *s = pir_asm_stmt(F, gpu_cur(m->e), op);
    s->acc = acc;
    s->nacc = nacc;
    return s;
}

/* The wgmma of operand dtype dt (f32: tf32, i8: s8; gpu_wgdt.c). */
static PirAsmOp wg_op(DType dt)
{
    switch (dt) {
    case DT_BF16: return PA_WGMMA_BF16;
    case DT_F32:  return PA_WGMMA_TF32;
    case DT_I8:   return PA_WGMMA_S8;
    default:      return PA_WGMMA_F16;
    }
}

/* x, the same in every lane of a warp (the warpgroup index), as lane 0's:
 * ptxas cannot see that tid >> 7 is, but keeps a broadcast shuffle's
 * result in uniform registers, and with it the shared addresses and the
 * descriptors built from it (as CUTLASS's canonical_warp_group_idx).
 * SASS of sdpa_bf16's D=128 key loop 612 -> 578 instructions, matmul_bf16's
 * K loop 120 -> 107, but H200, same run: D=64 397.0 / 397.4 TFLOP/s vs
 * 405.8 without, causal 358.6 / 357.7 vs 371.1, D=128 544.1 / 546.8 vs
 * 547.7, matmul in turns with cuBLAS 0.982 / 1.016 vs 0.981 / 1.016 at
 * 4096^3 / 8192^3 (doc/bench/h200-s14-a3.log).  Nsight Compute on the
 * H100 at D=128 (doc/bench/h100-s16-ncu.log): 335 M instructions issued
 * instead of 353 M at a lower IPC (1.64 vs 1.70), 1.1 % fewer cycles; two
 * runs of two builds each, D=128 548.4, 551.9 / 547.4 vs 536.9, 536.2 /
 * 540.7 / 519.9, causal 475.2, 460.8 / 466.4 vs 443.1, 457.9 / 464.9 /
 * 459.6 (h100-s16-g5.log).  So on where the warpgroups take turns (m->turns:
 * sdpa_tc at D >= 128) and in the key loops of three consumer warpgroups
 * and a producer (sdpa_tc's 192-row blocks at D=128: the loop's wgmma
 * descriptors were built in vector registers, 48 R2UR an iteration; H200,
 * 10 interleaved rounds, 581.7 vs 564.8 TFLOP/s, causal 498.7 vs 459.7,
 * doc/bench/h200-s20-a2.log), off elsewhere; TKC_WG_UNIFORM=1 / 0:
 * everywhere / nowhere. */
static bool wg_uniform_default(const GpuMma *m)
{
    return m->turns || (m->nkw && m->T == 384);
}

/* A new local of type t set to op's result on x (one in, one out). */
static PirLocal *asm_let(GpuMma *m, const char *name, PirTy t, PirAsmOp op, PirExpr *x)
{
    PirLocal *r = pir_local(F, name, t, 0);
    pir_decl(F, gpu_cur(m->e), r, NULL);
    PirStmt *s = pir_asm_stmt(F, gpu_cur(m->e), op);
    s->out[0] = pir_ref(F, r);
    s->in[0] = x;
    return r;
}

static PirLocal *warp_uniform(GpuMma *m, const char *name, PirExpr *x)
{
    return asm_let(m, name, PT_I32, PA_WARP_UNIFORM, x);
}

/* The broadcast once at the top of the function instead of at each dot
 * (TKC_WG_HOIST=0: at each dot): a shuffle in the key loop is a latency
 * before its first wgmma, and the shared addresses built from it are loop
 * invariant only when it is: sdpa_bf16 D=128's key loop 551 -> 541 SASS
 * instructions (H100 figures with targets/cuda/print.c's tk_smem_u32:
 * doc/bench/h100-s17-g1.log).  Not for the ping-pong consumers, whose dots
 * number their threads from tid & 127 (gpu_wg_dot). */
void gpu_wg_head(GpuMma *m)
{
    bool any = false;
    for (int v = 1; v < m->k->instrs.n; v++)
        any |= (m->wg && m->wg[v]) || (m->wgd && m->wgd[v]);
    m->wgu = any && tkc_knob("TKC_WG_UNIFORM", wg_uniform_default(m)) && tkc_knob("TKC_WG_HOIST", 1)
                 ? warp_uniform(m, "wgu", gpu_op(m->e, PB_SHR, gpu_tid(m->e), ci(m, 7))) : NULL;
}

void gpu_wg_wait(GpuMma *m, PirLocal *acc, int nacc, int n)
{
    bound(m, PA_WG_WAIT, acc, nacc)->in[0] = ci(m, n);
}

/* x in a new local.  TKC_WG_DOPAQUE=1 (an experiment, off): through
 * PA_OPAQUE, so that NVVM cannot hoist a loop-invariant operand's k step
 * descriptors out of the key loop, where they took 16 of 128 registers as
 * 64-bit pairs (the high words constants) in a relpos kernel with rel_w
 * added on the tensor cores (tests/gpu/s26/mkrp.py, rp_r2.tk: 36 spill
 * instructions in its loop, 10 with it).  H200, same runs: that kernel
 * 1.305 vs 1.333 ms, but sdpa_relpos_bf16 1.239 vs 1.229 and sdpa_bf16
 * D=128 587.5 vs 603.9 TFLOP/s (D=64 478.5 vs 481.0; doc/bench/
 * h200-s26-r2.log, -r3.log). */
static PirLocal *opaque_let(GpuMma *m, const char *name, PirExpr *x)
{
    if (!tkc_knob("TKC_WG_DOPAQUE", 0))
        return gpu_let(m->e, name, x);
    return asm_let(m, name, PT_U32, PA_OPAQUE, x);
}

void gpu_wg_dot(GpuMma *m, const GpuWgDot *d)
{
    GL *e = m->e;
    const GpuGrid *g = d->g;
    int64_t gm = g->WM / 4, M = g->M, N = g->N, K = d->K, wa = 2 * d->ea, wb = 2 * d->eb;
    int nacc = g->NI * 4;
    F->smem_align = 1024;
    PirExpr *wg = gpu_op(e, PB_SHR, gpu_tid(e), ci(m, 7));
    if (tkc_knob("TKC_WG_UNIFORM", wg_uniform_default(m)))
        wg = pir_ref(F, m->wgu && !m->pp_wg ? m->wgu : warp_uniform(m, "wg", wg));
    /* this warpgroup's 64 rows of A; its TN columns of B */
    PirExpr *ra = gpu_mul(e, gpu_op(e, PB_REM, wg, ci(m, gm)), ci(m, d->am ? 64 / d->ea * K * wa : 64 * wa));
    PirExpr *cn = gpu_op(e, PB_DIV, wg, ci(m, gm));
    PirExpr *cb = gpu_mul(e, cn, ci(m, d->bt ? g->TN * wb : g->TN / d->eb * K * wb));
    PirLocal *sa = d->fa ? NULL : gpu_let(e, "sa", pir_saddr(F, gpu_add(e, d->at_a, ra)));
    PirLocal *sb = gpu_let(e, "sb", pir_saddr(F, gpu_add(e, d->at_b, cb)));
    /* dinc (TKC_WG_DINC; default 2: A's and B's, 1: B's only, 0: none):
     * the descriptors of k step 0, and each later one that plus its byte
     * offset / 16 (the address field cannot carry: shared addresses are
     * below 2^18), instead of each built from its own address (a shift, a
     * mask and an or per descriptor, then moved to uniform registers).
     * SASS of sdpa_bf16's key loop: D=128 738 -> 674 instructions, D=64
     * 498 -> 468.  Those loops issue an instruction nearly every cycle of
     * their MMAs, so the count decides: H200, same run, D=64 408.5 vs
     * 396.9 TFLOP/s, causal 359.8 vs 352.9, D=128 520.1 vs 510.4, causal
     * 456.7 vs 446.3, sdpa_relpos SAM global 1.226 vs 1.287 ms
     * (doc/bench/h200-s14-a1.log).  (In session 6's kernel, 1244
     * instructions a loop, it measured slower: h100-s6-attn-3.log.) */
    PirLocal *da0 = NULL, *db0 = NULL;
    if (d->dinc) {
        db0 = opaque_let(m, "db", desc_lo(m, pir_ref(F, sb), d->bt ? 16 : K * wb));
        if (sa && d->dinc > 1)
            da0 = opaque_let(m, "da", desc_lo(m, pir_ref(F, sa), d->am ? K * wa : 16));
    }
    bound(m, PA_WG_FENCE, d->acc, nacc);
    for (int64_t kk = 0; kk < K; kk += 16) {
        int64_t ob = d->bt ? kk / d->eb * N * wb + kk % d->eb * 2 : kk * wb;
        PirExpr *db = db0 && ob % 16 == 0 ? desc_at(m, db0, ob, 8 * wb, wb)
                          : desc(m, gpu_op(e, PB_ADD, pir_ref(F, sb), u32(m, ob)), d->bt ? 16 : K * wb, 8 * wb, wb);
        PirStmt *s;
        if (d->fa) {
            s = bound(m, d->dt == DT_BF16 ? PA_WGMMA_RA_BF16 : d->dt == DT_F32 ? PA_WGMMA_RA_TF32 : PA_WGMMA_RA_F16,
                      d->acc, nacc);
            for (int i = 0; i < 4; i++)
                s->in[i] = pir_elem(F, d->fa, ci(m, kk / 4 + i));
            s->in[4] = db;
            s->in[5] = ci(m, d->bt ? 0 : 1);
            s->in[6] = ci(m, !(d->zero && kk == 0));
            continue;
        }
        /* A M-major (am): as a B N-major, k step kk at row kk of each block of ea columns */
        int64_t oa = d->am ? kk * wa : kk / d->ea * M * wa + kk % d->ea * 2;
        s = bound(m, wg_op(d->dt), d->acc, nacc);
        s->in[0] = da0 && oa % 16 == 0 ? desc_at(m, da0, oa, 8 * wa, wa)
                       : desc(m, gpu_op(e, PB_ADD, pir_ref(F, sa), u32(m, oa)), d->am ? K * wa : 16, 8 * wa, wa);
        s->in[1] = db;
        s->in[2] = ci(m, d->am);
        s->in[3] = ci(m, d->bt ? 0 : 1);
        s->in[4] = ci(m, !(d->zero && kk == 0));
    }
    pir_asm_stmt(F, gpu_cur(e), PA_WG_COMMIT);
}
