/*
 * lower/gpu_wgdt.c — wgmma on tf32 and s8 operands (sm_90a).
 *
 * A pipelined K loop whose dot is on f32 operands with allow_tf32 (f32
 * result) or on i8 operands (i32 result) runs on wgmma m64nNk8 .tf32 or
 * m64nNk32 .s8 like the 16-bit dots (gpu_wgmma.c, gpu_mma.c "pipelined K
 * loops"), with two differences PTX imposes:
 *
 *   - Both operands must be K-major: wgmma has no transpose for 4-byte and
 *     1-byte types.  A [M, K] is (rows of K); B [K, N] as loaded is not.
 *     Its stage stays N-major (swizzled like a 16-bit B, so the pipeline's
 *     copies and TMA are unchanged), and before the MMAs the block rewrites
 *     it K-major, [N, K] in the A layout, into one of two transposed
 *     buffers after the stages (alternating per iteration: the MMAs of the
 *     iteration before may still read the other one).
 *   - tkc's tf32 is f32 rounded to nearest, ties to even, but wgmma reads
 *     the raw bits from shared memory (and drops the low ones): A is
 *     rounded in place and B while it is transposed (or, where both come
 *     by TMA on a K-major B, by the TMA unit: "TMA rounds" below).
 *
 * Then a proxy fence (generic writes, async-proxy reads) and a barrier,
 * and the MMAs as for 16-bit types.  Byte for byte the swizzled layouts
 * are the 16-bit ones: a [R, C] tile of es-byte elements is laid out as a
 * [R, C es / 2] tile of 16-bit ones, and a k step of 8 tf32 or 32 s8 is
 * the 32 bytes of 16 bf16; so widths (gpu_wg_width) and the descriptors
 * are computed in 16-bit units.
 *
 * The transpose works in units of 4 rows of k by one 16-byte chunk of n (4
 * f32 or 16 i8): four 16-byte loads, then per n one 4-element run of k (a
 * 16-byte store for f32, a word for i8).  For f32 the units are ordered so
 * that the 8 lanes of a 16-byte phase hit 8 different chunks both when
 * loading (rows of 128-byte swizzled B) and storing (rows of K-major Bt);
 * for i8 a warp's lanes run along k, so that its word stores hit 32 banks.
 *
 * On an H100 (doc/bench/h100-s5-dtype-*.log) matmul_i8 at 128 x 256 x 64
 * runs at 542 / 593 TOP/s at 4096^3 / 8192^3 (mma.sync 250 / 261), while
 * matmul_tf32 reaches 141 TFLOP/s (mma.sync 110): the rewrite is what
 * costs (without it, wrong but timed, 244), and where TMA cannot take the
 * operands (rows not 16-byte aligned) tf32 falls to 0.58x mma.sync.  So
 * TKC_WG_DTYPE defaults to s8 only.  What should help tf32: A from
 * registers (ldmatrix from the swizzled stage, rounded there, wgmma's
 * register A), which leaves only B's rewrite: TKC_WGDT_RA=1 (the MMAs of
 * the iteration before are waited for before the registers are reloaded;
 * checked on the emulator, not yet run on a GPU).
 *
 * A kernel given B transposed (B = trans(x), x [N, K]: stdlib
 * matmul_tf32_nt) needs no rewrite: x's tiles are staged K-major as they
 * are and only rounded in place, A in registers ("K-major B", at the
 * end).  On an H100, 128 x 256 tiles, warp-specialized and persistent:
 * 236.6 / 240.5 TFLOP/s at 4096^3 / 8192^3, 216.6 / 232.2 with the
 * transpose of B before it, where matmul_tf32 takes 151.1 / 153.9 and
 * cuBLAS 388.8 / 356.4 (doc/bench/h100-s11-tf32-3.log).  Not rounding
 * (TKC_WGDT_ROUND=0, truncated: wrong) 343-378 / 360-367: the rounding's
 * shared-memory traffic (B's 32 KB read and written per 128 x 256 x 32
 * step, next to the 80 KB the MMAs read) is what is left; operands rounded
 * once before the kernel (by the transpose, and a pass over A) would
 * remove it, but the language cannot say that a tensor holds tf32 values.
 * TMA can round as it copies, with tensor maps of data type TFLOAT32:
 * TKC_WGDT_TMAROUND ("TMA rounds", below; on by default since a GPU run
 * showed it rounds to nearest even, tkc's rounding).
 */
#include "gpu_mm.h"



/* TKC_WG_DTYPE: bit 0 tf32, bit 1 s8; both by default, but tf32 only in a
 * kernel's TMA version (NAME): on an H100 tf32 on wgmma is 1.28x mma.sync
 * at 4096^3 but 0.58x at 4095^3 where TMA is off (rows not 16-byte aligned:
 * the cp.async stages plus the rewrite cost more than mma.sync's loop,
 * doc/bench/h100-s5-dtype-*.log), so NAME__nomap keeps mma.sync; since the
 * launcher repacks such tensors for TMA (gpu_stage.c) 4095^3 mostly runs
 * NAME too (h100-s8-mm-1.log: 150.7 / 116.6 TFLOP/s at 4096^3 / 4095^3
 * against mma.sync's 109.0 / 52.7).  TKC_WG_DTYPE=2 gives the old default
 * (s8 only). */
bool gpu_wgdt_on(const GpuMma *m, const Instr *dot, DType a)
{
    int on = tkc_knob("TKC_WG_DTYPE", 3);
    if (a == DT_F32)
        return (on & 1) && dot->ival && dot->ty.dt == DT_F32 && (m->k->tma_version != 2 || on == 1);
    return (on & 2) && a == DT_I8 && dot->ty.dt == DT_I32;
}

int gpu_wgdt_es(DType dt) { return dt == DT_F32 ? 4 : dt == DT_I8 ? 1 : 2; }

/* for (c = 0; c < n; c++), unrolled; the body is current. */
static PirExpr *loop(GpuMma *m, const char *hint, int64_t n)
{
    PirLocal *c = pir_local(F, hint, PT_I32, 0);
    PirStmt *s = pir_for(F, CUR, c, ci(m, 0), ci(m, n), ci(m, 1), true);
    s->next = add(m, ref(m, c), ci(m, 1));
    gpu_push(m->e, s->body);
    return ref(m, c);
}

/* Word j of array u rounded to tf32 (its f32 bits in, U32 out).  wgmma
 * ignores the low 13 bits, so adding just under half a tf32 ulp (0xfff)
 * plus the last kept bit (bit 13) rounds to nearest, ties to even, in
 * integer ops; inf and NaN stay as they are.  TKC_WGDT_CVT=1: PA_CVT_TF32
 * instead (the same rounding, the low bits cleared). */
static PirExpr *tf32(GpuMma *m, PirLocal *u, PirExpr *j)
{
    if (!tkc_knob("TKC_WGDT_CVT", 0)) {
        PirExpr *x = pir_elem(F, u, j);
        PirExpr *fin = op(m, PB_NE, op(m, PB_AND, x, pir_int(F, PT_U32, 0x7f800000)), pir_int(F, PT_U32, 0x7f800000));
        PirExpr *lsb = op(m, PB_AND, op(m, PB_SHR, pir_elem(F, u, j), pir_int(F, PT_U32, 13)), pir_int(F, PT_U32, 1));
        PirExpr *half = op(m, PB_ADD, lsb, pir_int(F, PT_U32, 0xfff));
        return op(m, PB_ADD, pir_elem(F, u, j), pir_select(F, fin, half, pir_int(F, PT_U32, 0)));
    }
    PirLocal *r = pir_local(F, "r", PT_U32, 0);
    pir_decl(F, CUR, r, NULL);
    PirStmt *s = pir_asm_stmt(F, CUR, PA_CVT_TF32);
    s->out[0] = ref(m, r);
    s->in[0] = pir_bitcast(F, PT_F32, pir_elem(F, u, j));
    return ref(m, r);
}

/* 4 words from byte offset at (16-aligned) into u[4 i ..]. */
static void ld16(GpuMma *m, PirLocal *u, int i, PirExpr *at)
{
    PirStmt *s = pir_stmt(F, CUR, PS_LOADV);
    s->mem = pir_smem(PT_U32, 0, op(m, PB_SHR, at, ci(m, 2)));
    s->nw = 4;
    s->local = u;
    s->dst0 = 4 * i;
}

static void st16(GpuMma *m, PirExpr *at, PirExpr **w)
{
    PirStmt *st = pir_stmt(F, CUR, PS_STORE);
    st->mem = pir_smem(PT_U32, 0, op(m, PB_SHR, at, ci(m, 2)));
    st->nw = 4;
    for (int i = 0; i < 4; i++)
        st->w[i] = w[i];
    st->val = w[0];
}

/* The 16-byte chunk u of shared memory from base on (inside the d loops
 * that units / units_n opened over the thread's chunks, closed here)
 * rounded to tf32 in place, through x (4 words). */
static void round_chunk(GpuMma *m, PirLocal *x, PirLocal *base, PirLocal *u, int d)
{
    PirLocal *at = let(m, "at", add(m, ref(m, base), mul(m, ref(m, u), ci(m, 16))));
    ld16(m, x, 0, ref(m, at));
    PirExpr *w[4];
    for (int j = 0; j < 4; j++)
        w[j] = tf32(m, x, ci(m, j));
    st16(m, ref(m, at), w);
    while (d--)
        gpu_pop(m->e);
}

/* Open the loop over this thread's units (n of them, T a round, over
 * threads t0 .. t0 + T - 1); *u: the unit. */
static int units_n(GpuMma *m, int64_t n, int t0, int64_t T, PirLocal **u)
{
    PirExpr *q = loop(m, "q", (n + T - 1) / T);
    PirExpr *t = t0 ? op(m, PB_SUB, gpu_tid(m->e), ci(m, t0)) : gpu_tid(m->e);
    *u = let(m, "u", add(m, mul(m, q, ci(m, T)), t));
    if (n % T == 0)
        return 1;
    gpu_push(m->e, pir_if(F, CUR, op(m, PB_LT, ref(m, *u), ci(m, n)))->body);
    return 2;
}

/* units over threads t0 .. T - 1 */
static int units(GpuMma *m, int64_t n, int t0, PirLocal **u) { return units_n(m, n, t0, m->T - t0, u); }

bool gpu_wgdt_ra(DType dt) { return dt == DT_F32 && tkc_knob("TKC_WGDT_RA", 0) == 1; }

PirLocal *gpu_wgdt_fa(GpuMma *m, const GpuGrid *g, PirExpr *ea, int64_t M, int64_t K)
{
    int64_t Ea = gpu_wg_width(K * 2), gm = g->WM / 4;
    PirExpr *tid = gpu_tid(m->e), *l = op(m, PB_AND, tid, ci(m, 31));
    /* this lane's row of ldmatrix: matrices 0-3 are rows 0-7, 8-15 at k 0-3, then at k 4-7 */
    PirExpr *row = add(m, add(m, mul(m, op(m, PB_REM, op(m, PB_SHR, tid, ci(m, 7)), ci(m, gm)), ci(m, 64)),
                              mul(m, op(m, PB_AND, op(m, PB_SHR, tid, ci(m, 5)), ci(m, 3)), ci(m, 16))),
                       add(m, op(m, PB_AND, l, ci(m, 7)), mul(m, op(m, PB_AND, op(m, PB_SHR, l, ci(m, 3)), ci(m, 1)), ci(m, 8))));
    PirLocal *r = let(m, "ar", row), *h = let(m, "ah", mul(m, op(m, PB_SHR, l, ci(m, 4)), ci(m, 8)));
    PirLocal *a = let(m, "ea", ea);
    PirLocal *fa = pir_local(F, "fa", PT_U32, K / 2), *u = pir_local(F, "u", PT_U32, 4);
    pir_decl(F, CUR, fa, NULL);
    pir_decl(F, CUR, u, NULL);
    for (int64_t j = 0; j < K / 8; j++) {
        PirStmt *s = pir_asm_stmt(F, CUR, PA_LDSM4);
        for (int i = 0; i < 4; i++)
            s->out[i] = pir_elem(F, u, ci(m, i));
        PirExpr *kh = add(m, ref(m, h), ci(m, 16 * j));
        s->in[0] = pir_saddr(F, add(m, ref(m, a), gpu_wg_at(m, M, Ea, ref(m, r), kh)));
        for (int i = 0; i < 4; i++)
            pir_assign(F, CUR, fa, ci(m, 4 * j + i), tf32(m, u, ci(m, i)));
    }
    return fa;
}

void gpu_wgdt_prep(GpuMma *m, DType dt, PirExpr *ea, int64_t M, int64_t K, PirExpr *eb, int64_t N, int64_t Eb,
                   PirExpr *et)
{
    int es = gpu_wgdt_es(dt), ce = 16 / es;
    int64_t Et = gpu_wg_width(K * es / 2);
    /* TKC_WGDT_W0=1: warp 0 (whose thread 0 issues the TMA copies) takes no
     * part, so that its proxy fence does not wait for copies in flight:
     * slower on an H100 (tf32 117 vs 141 TFLOP/s, i8 458 vs 542 TOP/s) */
    int t0 = tkc_knob("TKC_WGDT_W0", 0) == 1 && m->T > 32 ? 32 : 0, open = 0;
    if (t0) {
        gpu_push(m->e, pir_if(F, CUR, op(m, PB_GE, gpu_tid(m->e), ci(m, t0)))->body);
        open = 1;
    }
    if (!tkc_knob("TKC_WGDT_PREP", 1)) {     /* timing only: wrong results */
        ea = eb = et = NULL;
        goto fence;
    }
    PirLocal *u, *x = pir_local(F, "x", PT_U32, 16);
    pir_decl(F, CUR, x, NULL);
    if (dt == DT_F32 && !gpu_wgdt_ra(dt)) {    /* A rounded in place, a chunk at a time */
        PirLocal *a = let(m, "ra", ea);
        int d = units(m, M * K / ce, t0, &u);
        round_chunk(m, x, a, u, d);
    }
    PirLocal *b = let(m, "rb", eb), *t = let(m, "rt", et);
    int64_t nnc = N / ce, nkc = K / 4;
    int d = units(m, nnc * nkc, t0, &u);
    PirExpr *nc, *kc;
    if (dt == DT_F32 && nnc % 8 == 0 && nkc % 4 == 0) {
        /* lane L of a phase of 8: chunk 8 (p % (nnc / 8)) + L of n, and k chunk
         * h with its low two bits XORed with L / 2, h = p / (nnc / 8) */
        PirLocal *L = let(m, "L", op(m, PB_AND, ref(m, u), ci(m, 7)));
        PirLocal *p = let(m, "p", op(m, PB_SHR, ref(m, u), ci(m, 3)));
        PirLocal *h = let(m, "h", op(m, PB_DIV, ref(m, p), ci(m, nnc / 8)));
        nc = add(m, mul(m, op(m, PB_REM, ref(m, p), ci(m, nnc / 8)), ci(m, 8)), ref(m, L));
        kc = op(m, PB_XOR, ref(m, h), op(m, PB_SHR, ref(m, L), ci(m, 1)));
    } else if (dt == DT_F32) {
        nc = op(m, PB_REM, ref(m, u), ci(m, nnc));
        kc = op(m, PB_DIV, ref(m, u), ci(m, nnc));
    } else {                                   /* lanes along k: the word stores hit 32 banks */
        kc = op(m, PB_REM, ref(m, u), ci(m, nkc));
        nc = op(m, PB_DIV, ref(m, u), ci(m, nkc));
    }
    /* n0, k0: the unit's first n and k; in 16-bit units n0 es / 2 = 8 nc, k0 es / 2 = 2 es kc */
    PirLocal *kc4 = let(m, "kc", kc), *ncl = let(m, "nc", nc), *n0 = let(m, "n0", mul(m, ref(m, ncl), ci(m, ce)));
    PirLocal *k0 = let(m, "k0", mul(m, ref(m, kc4), ci(m, 4)));
    for (int r = 0; r < 4; r++)                /* x[4 r + j]: word j of row k0 + r */
        ld16(m, x, r, add(m, ref(m, b), gpu_wg_at(m, K, Eb, add(m, ref(m, k0), ci(m, r)), mul(m, ref(m, ncl), ci(m, 8)))));
    for (int j = 0; j < ce; j++) {
        PirExpr *n = add(m, ref(m, n0), ci(m, j));
        PirExpr *at = add(m, ref(m, t), gpu_wg_at(m, N, Et, n, mul(m, ref(m, kc4), ci(m, 2 * es))));
        if (dt == DT_F32) {
            PirExpr *w[4];
            for (int r = 0; r < 4; r++)
                w[r] = tf32(m, x, ci(m, 4 * r + j));
            st16(m, at, w);
            continue;
        }
        /* byte j % 4 of word j / 4 of each row: the word of n's 4 k */
        PirExpr *w = NULL;
        for (int r = 0; r < 4; r++) {
            PirExpr *v = op(m, PB_AND, op(m, PB_SHR, pir_elem(F, x, ci(m, 4 * r + j / 4)), pir_int(F, PT_U32, 8 * (j % 4))),
                            pir_int(F, PT_U32, 0xff));
            v = r ? op(m, PB_SHL, v, pir_int(F, PT_U32, 8 * r)) : v;
            w = w ? op(m, PB_OR, w, v) : v;
        }
        pir_store(F, CUR, pir_smem(PT_U32, 0, op(m, PB_SHR, at, ci(m, 2))), w);
    }
    while (d--)
        gpu_pop(m->e);
fence:
    if (tkc_knob("TKC_WGDT_FENCE", 1))       /* 0: timing only (unordered) */
        pir_asm_stmt(F, CUR, PA_FENCE_PROXY);  /* generic writes, read by wgmma */
    while (open--)
        gpu_pop(m->e);
    pir_barrier(F, CUR);
}

/* K-major B.  A dot on tf32 whose B is trans(x) with x [N, K] (a kernel
 * taking B transposed, stdlib matmul_tf32_nt) has x staged as it is, rows
 * of K in the A layout, which is what wgmma reads with the transpose bit
 * clear (gpu_mma.c plan_pipe, GpuPipe.bk; TMA boxes [BN, BK]): no rewrite,
 * and only one K-major stage per operand.  The rounding stays: B's tile
 * (with TKC_WGDT_BKRA=0 A's too; by default A is rounded in registers,
 * gpu_wgdt_bkra) is rounded in place, a 16-byte chunk a thread at a time (contiguous
 * chunks, so a warp's accesses cover 512 bytes without conflicts), then
 * the proxy fence and the barrier (warp-specialized: the consumers' named
 * barrier).  TKC_WGDT_ROUND=0 leaves the operands as loaded (wgmma then
 * drops their low mantissa bits: truncation, not tkc's tf32): timing
 * only, to see what operands rounded beforehand would give.
 * TKC_WGDT_PROUND=1 (warp-specialized only): the producer warpgroup's
 * warps 1-3 round each stage once its copies land and arrive on its
 * "ready" mbarrier, which the consumers wait for instead of the full one
 * (gpu_mma_ws_round): correct (H100 memcheck) but 2x slower, 105.1 / 110.3
 * TFLOP/s against 210.0 / 221.1 (96 threads with 40 registers round what
 * 256 did, on the critical path: doc/bench/h100-s11-tf32-2.log). */
bool gpu_wgdt_rounds(void) { return tkc_knob("TKC_WGDT_ROUND", 1) != 0; }

/* A from registers on a K-major B (gpu_mma.c, GpuPipe.bk): ldmatrix from
 * the stage, rounded there (gpu_wgdt_fa), wgmma's register A; two register
 * sets chosen by the iteration's parity (the MMAs of the iteration before,
 * in flight, read the other); only B is rounded in place.  Less shared
 * memory traffic: H100, same run, with the transpose 216.6 / 232.2 /
 * 160.9 TFLOP/s at 4096^3 / 8192^3 / 4095^3 against 210.8 / 217.3 / 152.7
 * with A rounded in place too (alone 236.6 / 240.5 / 176.0 against 223.9 /
 * 225.4 / 168.1; doc/bench/h100-s11-tf32-3.log).  TKC_WGDT_BKRA=0: A
 * rounded in place. */
bool gpu_wgdt_bkra(void) { return tkc_knob("TKC_WGDT_BKRA", 1) == 1; }

/* TMA rounds.  TKC_WGDT_TMAROUND=1: a K-major-B loop whose operands both
 * come by TMA (GpuPipe.tr: the kernel's TMA version, tma_version 1) has
 * their tensor maps encoded with CU_TENSOR_MAP_DATA_TYPE_TFLOAT32
 * (PirParam.tf32; the launcher, targets/cuda/header.c tk_cuda_tmapn), which
 * converts each f32 to tf32 as it lands in shared memory: B is not rounded
 * in place (nor A with TKC_WGDT_BKRA=0, which wgmma then reads from shared
 * memory as it is; by default A still comes from registers, where its
 * rounding is a no-op).  No fence or barrier either: the stage's full
 * mbarrier orders the copy before the MMAs, as with TKC_WGDT_ROUND=0, whose
 * timing this is meant to reach (343-378 / 360-367 TFLOP/s against 236.6 /
 * 240.5).  The H100's TMA unit rounds to nearest, ties to even
 * (tests/run/tf32_round.c on the GPU, doc/bench/h100-s11-tf32-4.log), which
 * since then is tkc's tf32 rounding everywhere (LANGUAGE.md "dot
 * precision"; it was ties away, cvt.rna, before).  Same run, H100, vs
 * cuBLAS tf32 390.9 / 363.6 TFLOP/s at 4096^3 / 8192^3: matmul_tf32_nt 352.4
 * / 355.2 (0.90x / 0.98x) against 247.4 / 250.2 rounding in place; with
 * transpose_f32 before it 336.0 / 358.2 against 218.2 / 224.7.  Default on;
 * TKC_WGDT_TMAROUND=0 rounds in place as before.  The CPU emulator's TMA
 * rounds such maps to nearest even too (tests/gpu/emu/mma.h; TK_EMU_TF32=rna:
 * ties away, which tf32_round must then reject). */
bool gpu_wgdt_tmaround(void) { return tkc_knob("TKC_WGDT_TMAROUND", 1) == 1; }

void gpu_wgdt_round(GpuMma *m, PirExpr *ea, int64_t na, PirExpr *eb, int64_t nb, int t0, int nt)
{
    if (!gpu_wgdt_rounds())
        return;
    PirLocal *x = pir_local(F, "x", PT_U32, 4);
    pir_decl(F, CUR, x, NULL);
    for (int i = 0; i < 2; i++) {
        PirLocal *base = let(m, i ? "rb" : "ra", i ? eb : ea), *u;
        int d = units_n(m, (i ? nb : na) / 16, t0, nt, &u);
        round_chunk(m, x, base, u, d);
    }
    if (tkc_knob("TKC_WGDT_FENCE", 1))
        pir_asm_stmt(F, CUR, PA_FENCE_PROXY);
    if (t0 == 0)
        pir_barrier(F, CUR);
}

/* N-major A.  c = a @ b with b [K, N] (stdlib matmul_tf32) is computed
 * transposed, c^T = b^T a^T: acc [BN, BM] += dot(trans(load(b[rk, rn])),
 * trans(load(a[rm, rk]))), then store(c[rm, rn], trans(acc)).  B of that
 * dot is a's tile, K-major as loaded ("K-major B" above: no rewrite), and
 * its A is b's tile transposed, which wgmma cannot read from shared memory
 * (4-byte operands only K-major) but takes from registers: y = b's tile
 * [K, M] (M: the dot's rows, b's n) is staged N-major like a 16-bit B
 * (TMA as it is, of data type TFLOAT32: rounded as it lands) and each
 * thread loads its fragment words with 32-bit loads.  The fragment of
 * wgmma's register A for .tf32 (m64k8, per warp 16 rows: mma.sync's
 * m16n8k8 A) holds for lane l, g = l / 4, t = l % 4, at k step j:
 * A(g, 8j + t), A(g + 8, 8j + t), A(g, 8j + t + 4), A(g + 8, 8j + t + 4),
 * rows from the warp's 16 in its warpgroup's 64; A(r, k) = y(k, r).  A
 * warp's 32 loads of one word cover 4 rows of k by 8 consecutive r (32
 * bytes): in the 128-byte swizzle the two 16-byte chunks of rows k and
 * k ^ 1 are the same two, so 2-way bank conflicts.
 *
 * H100 (doc/bench/h100-s12-tf32-2.log): the nvptx pass of tf32_tn and of
 * matmul_dtypes with stdlib matmul_tf32 in this form passed (+ memcheck);
 * the cuda pass was wrong: NVVM had merged the two register sets' loads
 * (below: the base is now opaque), and b's tile was also loaded into
 * registers each iteration (GpuMma.staged now has A = trans(y)'s load).
 * Timed with those bugs, 326.7 / 323.1 TFLOP/s at 4096^3 / 8192^3 (0.81x /
 * 0.88x cuBLAS tf32 401.8 / 365.8, same run; the old form 132.3 / 133.8).
 * The fixed code (doc/bench/h100-s12-tf32-3.log, same run): tf32_tn and
 * matmul_dtypes pass, cuda and nvptx, + memcheck; tn_ws 320.8 / 328.5
 * TFLOP/s at 4096^3 (two builds), 310.7 / 317.0 at 8192^3, 215.5 / 219.1
 * at 4095^3 against cuBLAS tf32 381.5 / 381.6 / 136.5 (0.84-0.86x /
 * 0.81-0.83x / 1.6x) and the old form's 131.2 / 133.2 / 105.5.  On by
 * default (TKC_WGDT_AN=0: mma.sync for the pattern); stdlib matmul_tf32
 * has this form. */
bool gpu_wgdt_an(void) { return tkc_knob("TKC_WGDT_AN", 1) == 1; }

PirLocal *gpu_wgdt_fan(GpuMma *m, const GpuGrid *g, PirExpr *ea, int64_t K, int64_t Ea, bool round)
{
    int64_t gm = g->WM / 4;
    PirExpr *tid = gpu_tid(m->e), *l = op(m, PB_AND, tid, ci(m, 31));
    PirExpr *row = add(m, add(m, mul(m, op(m, PB_REM, op(m, PB_SHR, tid, ci(m, 7)), ci(m, gm)), ci(m, 64)),
                              mul(m, op(m, PB_AND, op(m, PB_SHR, tid, ci(m, 5)), ci(m, 3)), ci(m, 16))),
                       op(m, PB_SHR, l, ci(m, 2)));
    PirLocal *r = let(m, "ar", row), *t = let(m, "at", op(m, PB_AND, l, ci(m, 3)));
    /* the base through PA_OPAQUE: else NVVM merges the identical loads of
     * the two register sets (gpu_mma.c: one per iteration parity, the
     * other's MMAs in flight) into one set above the branch, and the next
     * iteration's loads overwrite the registers that the MMAs in flight read
     * (H100: wrong results in the CUDA pass, not on the emulator, where
     * wgmma is synchronous, nor in the nvptx pass) */
    PirLocal *a = pir_local(F, "ea", PT_I32, 0);
    pir_decl(F, CUR, a, NULL);
    PirStmt *s = pir_asm_stmt(F, CUR, PA_OPAQUE);
    s->out[0] = ref(m, a);
    s->in[0] = ea;
    PirLocal *fa = pir_local(F, "fa", PT_U32, K / 2), *u = pir_local(F, "u", PT_U32, 4);
    pir_decl(F, CUR, fa, NULL);
    pir_decl(F, CUR, u, NULL);
    for (int64_t j = 0; j < K / 8; j++) {
        for (int i = 0; i < 4; i++) {
            PirExpr *k = add(m, ref(m, t), ci(m, 8 * j + (i >> 1) * 4));
            PirExpr *n = add(m, ref(m, r), ci(m, (i & 1) * 8));
            PirExpr *at = add(m, ref(m, a), gpu_wg_at(m, K, Ea, k, mul(m, n, ci(m, 2))));
            PirExpr *x = pir_load(F, pir_smem(PT_U32, 0, op(m, PB_SHR, at, ci(m, 2))), NULL, NULL);
            pir_assign(F, CUR, round ? u : fa, ci(m, round ? i : 4 * j + i), x);
        }
        for (int i = 0; round && i < 4; i++)
            pir_assign(F, CUR, fa, ci(m, 4 * j + i), tf32(m, u, ci(m, i)));
    }
    return fa;
}
