/*
 * tests/gpu/emu/mma.h — the tensor-core helpers (the PA_* asm statements of
 * lower/pir.h, as targets/cuda/print.c prints them) on the CPU stand-in:
 * ldmatrix and mma.sync (m16n8k16, m16n8k8 tf32, m16n8k32 s8) as exchanges between the threads of a warp
 * through memory between two barriers of the warp (like the shuffles in emu.h), with
 * PTX's fragment layouts, so the emulator checks the layout logic of tkc's
 * tensor-core path.  Shared addresses are offsets in tk_smem.
 */
#ifndef TKC_EMU_MMA_H
#define TKC_EMU_MMA_H
#define TK_EMU_MMA 1
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

inline uint32_t tk_emu_mma_x[1024][6];   /* per thread: an address, or A (4) and B (2) registers */

TK_D uint32_t tk_smem_u32(const void *p) { return (uint32_t)((const unsigned char *)p - tk_smem); }

/* ldmatrix .x4 (.trans): lanes 8i..8i+7 give the rows of matrix i; thread l
 * gets row l/4, columns 2(l%4), +1 of each (transposed: rows 2(l%4), +1 of
 * column l/4). */
TK_D void tk_emu_ldsm(uint32_t *r, uint32_t p, bool tr)
{
    unsigned t = threadIdx.x, w = t & ~31u, l = t & 31;
    tk_emu_mma_x[t][0] = p;
    tk_emu_warp_sync();
    for (unsigned i = 0; i < 4; i++) {
        uint16_t h[2];
        for (unsigned e = 0; e < 2; e++) {
            unsigned row = tr ? 2 * (l & 3) + e : l >> 2, col = tr ? l >> 2 : 2 * (l & 3) + e;
            memcpy(&h[e], tk_smem + tk_emu_mma_x[w + 8 * i + row][0] + 2 * col, 2);
        }
        r[i] = h[0] | (uint32_t)h[1] << 16;
    }
    tk_emu_warp_sync();
}
TK_D void tk_ldsm4(uint32_t &a, uint32_t &b, uint32_t &c, uint32_t &d, uint32_t p)
{
    uint32_t r[4];
    tk_emu_ldsm(r, p, false);
    a = r[0], b = r[1], c = r[2], d = r[3];
}
TK_D void tk_ldsm4t(uint32_t &a, uint32_t &b, uint32_t &c, uint32_t &d, uint32_t p)
{
    uint32_t r[4];
    tk_emu_ldsm(r, p, true);
    a = r[0], b = r[1], c = r[2], d = r[3];
}

TK_D uint32_t tk_pack_bf16x2(float lo, float hi) { return tk_f32_to_bf16(lo) | (uint32_t)tk_f32_to_bf16(hi) << 16; }
/* only ever given a value the same in every lane of the warp: itself */
TK_D uint32_t tk_warp_uniform(uint32_t x) { return x; }
TK_D uint32_t tk_pack_f16x2(float lo, float hi) { return tk_f32_to_f16(lo) | (uint32_t)tk_f32_to_f16(hi) << 16; }
TK_D float tk_round_f16w(float x) { return tk_f16_to_f32(tk_f32_to_f16(x)); }
TK_D int32_t tk_opaque(int32_t x) { return x; }   /* PA_OPAQUE: only optimizers see a difference */
TK_D int64_t tk_opaque64(int64_t x) { return x; }
/* PA_VOTE_ANY: the thread's own vote (the code it guards gives the same result either way) */
TK_D uint32_t tk_vote_any(uint32_t x) { return x != 0; }

/* What one mma.sync multiplies: E elements of the operands a register
 * (bf16/f16 2, tf32 1, s8 4), k = 8E per instruction. */
enum { TK_EMU_BF16, TK_EMU_F16, TK_EMU_TF32, TK_EMU_S8 };
/* PA_CVT_TF32: to nearest, ties to even, to 10 mantissa bits (inf and NaN
 * as they are) */
TK_D uint32_t tk_cvt_tf32(float x)
{
    uint32_t u = tk_f32_bits(x);
    return (u & 0x7f800000u) == 0x7f800000u ? u : (u + 0xfffu + (u >> 13 & 1u)) & 0xffffe000u;
}
/* An operand register of mma tf32: a finite value must come rounded
 * (tk_cvt_tf32), as tkc promises; the GPU would silently drop the bits. */
TK_D float tk_emu_tf32(uint32_t u)
{
    if ((u & 0x1fffu) && (u & 0x7f800000u) != 0x7f800000u) {
        fprintf(stderr, "tk_emu: an mma.tf32 operand not rounded to tf32 (0x%08x)\n", u);
        abort();
    }
    return tk_bits_f32(u);
}
/* D = A B + C for the warp, k = 8E: A(r, k) is in lane (r%8)*4 + (k%4E)/E,
 * register r/8 + 2(k/4E), element k%E; B(k, n) in lane n*4 + (k%4E)/E,
 * register k/4E, element k%E; thread l holds D(l/4 + 8(c/2), 2(l%4) + c%2)
 * in acc[c] (float; s8: int, wrapping). */
TK_D float tk_emu_elem(uint32_t w, unsigned e, int kind)
{
    switch (kind) {
    case TK_EMU_BF16: return tk_bf16_to_f32((uint16_t)(w >> 16 * e));
    case TK_EMU_F16: return tk_f16_to_f32((uint16_t)(w >> 16 * e));
    default: return tk_emu_tf32(w);
    }
}
TK_D void tk_emu_mma(void *acc, const uint32_t a[4], uint32_t b0, uint32_t b1, int kind)
{
    float *d = (float *)acc;
    int *di = (int *)acc;
    unsigned t = threadIdx.x, w = t & ~31u, l = t & 31;
    unsigned E = kind == TK_EMU_S8 ? 4 : kind == TK_EMU_TF32 ? 1 : 2;
    for (int i = 0; i < 4; i++)
        tk_emu_mma_x[t][i] = a[i];
    tk_emu_mma_x[t][4] = b0;
    tk_emu_mma_x[t][5] = b1;
    tk_emu_warp_sync();
    for (unsigned c = 0; c < 4; c++) {
        unsigned r = (l >> 2) + 8 * (c >> 1), n = 2 * (l & 3) + (c & 1);
        float s = kind == TK_EMU_S8 ? 0 : d[c];
        uint32_t si = kind == TK_EMU_S8 ? (uint32_t)di[c] : 0;
        for (unsigned k = 0; k < 8 * E; k++) {
            unsigned q = (k % (4 * E)) / E, e = k % E;
            uint32_t wa = tk_emu_mma_x[w + (r & 7) * 4 + q][(r >> 3) + 2 * (k / (4 * E))];
            uint32_t wb = tk_emu_mma_x[w + n * 4 + q][4 + k / (4 * E)];
            if (kind == TK_EMU_S8)
                si += (uint32_t)((int32_t)(int8_t)(wa >> 8 * e) * (int8_t)(wb >> 8 * e));
            else
                s += tk_emu_elem(wa, e, kind) * tk_emu_elem(wb, e, kind);
        }
        if (kind != TK_EMU_S8)
            d[c] = s;
        else
            di[c] = (int)si;
    }
    tk_emu_warp_sync();
}
#define TK_EMU_DEF_MMA(N, T, KIND) \
    TK_D void tk_mma_##N(T &d0, T &d1, T &d2, T &d3, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, \
                         uint32_t b0, uint32_t b1) \
    { \
        T d[4] = { d0, d1, d2, d3 }; \
        uint32_t a[4] = { a0, a1, a2, a3 }; \
        tk_emu_mma(d, a, b0, b1, KIND); \
        d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3]; \
    }
TK_EMU_DEF_MMA(bf16, float, TK_EMU_BF16)
TK_EMU_DEF_MMA(f16, float, TK_EMU_F16)
TK_EMU_DEF_MMA(tf32, float, TK_EMU_TF32)
TK_EMU_DEF_MMA(s8, int, TK_EMU_S8)

/* cp.async: the copy happens at once (n bytes, the rest of 16 zeroed), so
 * commit and wait have nothing to do; the barriers tkc puts between a copy
 * and its readers order it as on the GPU. */
TK_D void tk_cp_async(uint32_t s, const void *g, uint32_t n)
{
    memset(tk_smem + s, 0, 16);
    memcpy(tk_smem + s, g, n < 16 ? n : 16);
}
TK_D void tk_cp_commit(void) {}
#define tk_cp_wait(n) ((void)(n))

/* wgmma (sm_90a): each thread computes its own accumulators at once from
 * shared memory through the matrix descriptors (the same in the whole
 * warpgroup), so fence, commit and wait have nothing to do.  The byte of
 * element (r, k) of an operand: K-major (rows r of M or N, 16 k), or
 * MN-major (r along M or N in blocks of E = width / 2 elements, LBO apart;
 * rows of k `width` bytes apart, eight of them SBO apart); then the
 * swizzle XORs address bits 4.. with bits 7.. of the shared address. */
TK_D uint32_t tk_emu_wg_at(uint64_t d, bool mn, unsigned r, unsigned k)
{
    unsigned start = (unsigned)(d & 0x3fff) << 4, lbo = (unsigned)(d >> 16 & 0x3fff) << 4;
    unsigned sbo = (unsigned)(d >> 32 & 0x3fff) << 4, mode = (unsigned)(d >> 62);
    unsigned w = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
    if (!w) {
        fprintf(stderr, "tk_emu: wgmma without a swizzled layout\n");
        abort();
    }
    unsigned a = mn ? start + r / (w / 2) * lbo + r % (w / 2) * 2 + k / 8 * sbo + k % 8 * w
                    : start + r / 8 * sbo + r % 8 * w + k * 2;
    return a ^ ((a >> 7 & (w / 16 - 1)) << 4);
}
/* D (64 x 2n: warp i of the warpgroup rows 16i.., as m16n8 C fragments per 8
 * columns) = A (64 x 16) B (16 x 2n) + (sd ? D : 0) */
TK_D void tk_emu_wgmma(float *d, int n, uint64_t da, uint64_t db, int ta, int tb, int sd, bool bf)
{
    unsigned t = threadIdx.x, w = (t >> 5) & 3, l = t & 31;
    for (int i = 0; i < n; i++) {
        unsigned r = w * 16 + (l >> 2) + 8 * ((i >> 1) & 1), c = (i >> 2) * 8 + 2 * (l & 3) + (i & 1);
        float s = sd ? d[i] : 0.0f;
        for (unsigned k = 0; k < 16; k++) {
            uint16_t ha, hb;
            memcpy(&ha, tk_smem + tk_emu_wg_at(da, ta, r, k), 2);
            memcpy(&hb, tk_smem + tk_emu_wg_at(db, tb, c, k), 2);
            s += bf ? tk_bf16_to_f32(ha) * tk_bf16_to_f32(hb) : tk_f16_to_f32(ha) * tk_f16_to_f32(hb);
        }
        d[i] = s;
    }
}
TK_D void tk_wgmma_bf16(float *d, int n, uint64_t da, uint64_t db, int ta, int tb, int sd)
{
    tk_emu_wgmma(d, n, da, db, ta, tb, sd, true);
}
TK_D void tk_wgmma_f16(float *d, int n, uint64_t da, uint64_t db, int ta, int tb, int sd)
{
    tk_emu_wgmma(d, n, da, db, ta, tb, sd, false);
}
/* The same with A from registers: warp i of the warpgroup gives rows 16i..
 * in mma.sync's m16n8k16 A layout (A(r, k) in lane (r%8)*4 + (k%8)/2,
 * register r/8 + 2(k/8), half k%2), exchanged through memory like
 * tk_emu_mma's. */
TK_D void tk_emu_wgmma_ra(float *d, int n, const uint32_t *a, uint64_t db, int tb, int sd, bool bf)
{
    unsigned t = threadIdx.x, w = t & ~31u, l = t & 31;
    for (int i = 0; i < 4; i++)
        tk_emu_mma_x[t][i] = a[i];
    tk_emu_warp_sync();
    for (int i = 0; i < n; i++) {
        unsigned r = (l >> 2) + 8 * ((i >> 1) & 1), c = (i >> 2) * 8 + 2 * (l & 3) + (i & 1);
        float s = sd ? d[i] : 0.0f;
        for (unsigned k = 0; k < 16; k++) {
            uint32_t wa = tk_emu_mma_x[w + (r & 7) * 4 + (k & 7) / 2][(r >> 3) + 2 * (k >> 3)];
            uint16_t ha = (uint16_t)(k & 1 ? wa >> 16 : wa), hb;
            memcpy(&hb, tk_smem + tk_emu_wg_at(db, tb, c, k), 2);
            s += bf ? tk_bf16_to_f32(ha) * tk_bf16_to_f32(hb) : tk_f16_to_f32(ha) * tk_f16_to_f32(hb);
        }
        d[i] = s;
    }
    tk_emu_warp_sync();
}
TK_D void tk_wgmma_ra_bf16(float *d, int n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint64_t db,
                           int tb, int sd)
{
    const uint32_t a[4] = { a0, a1, a2, a3 };
    tk_emu_wgmma_ra(d, n, a, db, tb, sd, true);
}
TK_D void tk_wgmma_ra_f16(float *d, int n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint64_t db,
                          int tb, int sd)
{
    const uint32_t a[4] = { a0, a1, a2, a3 };
    tk_emu_wgmma_ra(d, n, a, db, tb, sd, false);
}
/* wgmma on tf32 (k8; like the GPU it ignores the low 13 bits of the f32
 * words, so tkc must round them first: a missing rounding shows as
 * truncation errors) and s8 (k32, I32 accumulators, wrapping): K-major
 * operands only, as in PTX. */
TK_D void tk_emu_wgmma_k(void *acc, int n, uint64_t da, uint64_t db, int ta, int tb, int sd, bool s8)
{
    float *d = (float *)acc;
    int *di = (int *)acc;
    unsigned t = threadIdx.x, w = (t >> 5) & 3, l = t & 31, es = s8 ? 1 : 4, K = s8 ? 32 : 8;
    if (ta || tb) {
        fprintf(stderr, "tk_emu: wgmma %s with a transposed operand\n", s8 ? "s8" : "tf32");
        abort();
    }
    for (int i = 0; i < n; i++) {
        unsigned r = w * 16 + (l >> 2) + 8 * ((i >> 1) & 1), c = (i >> 2) * 8 + 2 * (l & 3) + (i & 1);
        float s = sd ? d[i] : 0.0f;
        uint32_t si = sd ? (uint32_t)di[i] : 0;
        for (unsigned k = 0; k < K; k++) {
            /* the byte of element k: tk_emu_wg_at's of 16-bit k / (2 / es), then its byte */
            uint32_t xa = 0, xb = 0;
            unsigned kh = k * es / 2, kb = k * es % 2;
            memcpy(&xa, tk_smem + tk_emu_wg_at(da, false, r, kh) + kb, es);
            memcpy(&xb, tk_smem + tk_emu_wg_at(db, false, c, kh) + kb, es);
            if (s8)
                si += (uint32_t)((int32_t)(int8_t)xa * (int8_t)xb);
            else
                s += tk_emu_tf32(xa & 0xffffe000u) * tk_emu_tf32(xb & 0xffffe000u);
        }
        if (s8)
            di[i] = (int)si;
        else
            d[i] = s;
    }
}
TK_D void tk_wgmma_tf32(float *d, int n, uint64_t da, uint64_t db, int ta, int tb, int sd)
{
    tk_emu_wgmma_k(d, n, da, db, ta, tb, sd, false);
}
TK_D void tk_wgmma_s8(int *d, int n, uint64_t da, uint64_t db, int ta, int tb, int sd)
{
    tk_emu_wgmma_k(d, n, da, db, ta, tb, sd, true);
}
/* tf32 with A from registers: warp i of the warpgroup gives rows 16i.. in
 * mma.sync's m16n8k8 tf32 A layout (A(r, k) in lane (r%8)*4 + k%4, register
 * r/8 + 2(k/4)); B K-major from shared memory; the GPU ignores the low 13
 * bits of both. */
TK_D void tk_wgmma_ra_tf32(float *d, int n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint64_t db,
                           int tb, int sd)
{
    unsigned t = threadIdx.x, w = t & ~31u, l = t & 31;
    if (tb) {
        fprintf(stderr, "tk_emu: wgmma tf32 with a transposed operand\n");
        abort();
    }
    tk_emu_mma_x[t][0] = a0, tk_emu_mma_x[t][1] = a1, tk_emu_mma_x[t][2] = a2, tk_emu_mma_x[t][3] = a3;
    tk_emu_warp_sync();
    for (int i = 0; i < n; i++) {
        unsigned r = (l >> 2) + 8 * ((i >> 1) & 1), c = (i >> 2) * 8 + 2 * (l & 3) + (i & 1);
        float s = sd ? d[i] : 0.0f;
        for (unsigned k = 0; k < 8; k++) {
            uint32_t xa = tk_emu_mma_x[w + (r & 7) * 4 + (k & 3)][(r >> 3) + 2 * (k >> 2)], xb;
            memcpy(&xb, tk_smem + tk_emu_wg_at(db, false, c, 2 * k), 4);
            s += tk_emu_tf32(xa & 0xffffe000u) * tk_emu_tf32(xb & 0xffffe000u);
        }
        d[i] = s;
    }
    tk_emu_warp_sync();
}
TK_D void tk_wg_fence(float *, int) {}
TK_D void tk_wg_fence(int *, int) {}
TK_D void tk_wg_commit(void) {}
/* wgmma runs at the call above, thread by thread; a group is done on the
 * GPU only once every warp of the warpgroup issued it, so the wait holds
 * the warpgroup together (a stage released by one thread of it after its
 * wait, as warp-specialized kernels do, is then read by none) */
TK_D void tk_wg_wait(float *, int, int) { tk_emu_wg_sync(); }
TK_D void tk_wg_wait(int *, int, int) { tk_emu_wg_sync(); }
TK_D void tk_fence_proxy(void) {}

/* mbarriers (sm_90): the state of the barrier at shared address a lives in
 * a table (its 8 shared bytes hold a mark, checked at each use, so that a
 * kernel overwriting them is caught).  A phase completes when its pending
 * arrivals are in and its expected bytes have landed; try_wait.parity P
 * returns once the phase of parity P completed: the current phase's
 * parity differs from P. */
struct tk_emu_mbar { uint32_t phase, init, pending; int64_t tx; };
inline std::map<uint32_t, tk_emu_mbar> tk_emu_mbars;
inline std::mutex tk_emu_mbar_lock;
static const uint64_t tk_emu_mbar_mark = 0x6d6261726b6d6b21ull;
TK_D tk_emu_mbar &tk_emu_mbar_at(uint32_t a)
{
    uint64_t mark;
    memcpy(&mark, tk_smem + a, 8);
    if (a % 8 || mark != tk_emu_mbar_mark || !tk_emu_mbars.count(a)) {
        fprintf(stderr, "tk_emu: no mbarrier at shared address %u (overwritten, or never initialized)\n", a);
        abort();
    }
    return tk_emu_mbars[a];
}
TK_D void tk_emu_mbar_done(tk_emu_mbar &m)
{
    if (m.pending == 0 && m.tx == 0) {
        m.phase++;
        m.pending = m.init;
    }
}
TK_D void tk_mbar_init(uint32_t a, uint32_t n)
{
    std::lock_guard<std::mutex> g(tk_emu_mbar_lock);
    memcpy(tk_smem + a, &tk_emu_mbar_mark, 8);
    tk_emu_mbars[a] = tk_emu_mbar{ 0, n, n, 0 };
}
TK_D void tk_mbar_fence(void) {}
TK_D void tk_mbar_expect(uint32_t a, uint32_t bytes)
{
    std::lock_guard<std::mutex> g(tk_emu_mbar_lock);
    tk_emu_mbar &m = tk_emu_mbar_at(a);
    if (m.pending == 0) {
        fprintf(stderr, "tk_emu: more arrivals than the mbarrier at %u counts\n", a);
        abort();
    }
    m.pending--;
    m.tx += bytes;
    tk_emu_mbar_done(m);
}
TK_D void tk_mbar_wait(uint32_t a, uint32_t parity)
{
    for (;;) {
        {
            std::lock_guard<std::mutex> g(tk_emu_mbar_lock);
            if ((tk_emu_mbar_at(a).phase & 1) != (parity & 1))
                return;
        }
        std::this_thread::yield();
    }
}
/* the suspend hint only saves issue slots on the GPU */
TK_D void tk_mbar_wait_s(uint32_t a, uint32_t parity, uint32_t) { tk_mbar_wait(a, parity); }
/* TMA, both ways: every element (r, c) of the box at tensor coordinates
 * (c1, c0) of the map, its shared address with the map's swizzle (as
 * wgmma's reads above), and whether it lies in the tensor. */
template <typename Fn>
static void tk_emu_tma_box(uint32_t s, uint64_t map, int c0, int c1, const char *what, Fn each, int c2 = 0,
                           int c3 = 0, unsigned rank = 2)
{
    const uint64_t *x = ((const tk_tmap *)(uintptr_t)map)->x;
    unsigned char *base = (unsigned char *)(uintptr_t)x[0];
    if (base && x[12] != rank) {
        fprintf(stderr, "tk_emu: a %u-d TMA copy with a rank-%u map\n", rank, (unsigned)x[12]);
        abort();
    }
    /* a rank-4 map: the box's plane (c2, c3), or none of it inside */
    bool plane = c2 >= 0 && (uint64_t)c2 < x[8] && c3 >= 0 && (uint64_t)c3 < x[9];
    if (rank == 4 && plane)
        base += (int64_t)c2 * (int64_t)x[10] + (int64_t)c3 * (int64_t)x[11];
    int64_t cols = (int64_t)x[1], rows = (int64_t)x[2], pitch = (int64_t)x[3];
    unsigned bc = (unsigned)x[4], br = (unsigned)x[5], sw = (unsigned)x[6], es = (unsigned)x[7];
    if (!base || s % (sw * 8)) {
        fprintf(stderr, "tk_emu: %s with a zero map, or at shared address %u (needs %u-alignment)\n", what, s, sw * 8);
        abort();
    }
    for (unsigned r = 0; r < br; r++)
        for (unsigned c = 0; c < bc; c++) {
            int64_t gr = (int64_t)c1 + r, gc = (int64_t)c0 + c;
            uint32_t a = s + r * bc * es + c * es;
            a ^= (a >> 7 & (sw / 16 - 1)) << 4;
            bool in = plane && gr >= 0 && gr < rows && gc >= 0 && gc < cols;
            each(base + (in ? gr * pitch + gc * es : 0), tk_smem + a, es, in);
        }
}
/* An f32's bits rounded to tf32 as a TFLOAT32 map's load does (x[13] 1;
 * 2: TFLOAT32_FTZ, subnormals flushed to zero first): to nearest, ties to
 * even, as the H100's TMA unit does (doc/bench/h100-s11-tf32-4.log), or
 * with TK_EMU_TF32=rna in the environment ties away from zero (a check
 * that tests/run/tf32_round.c tells them apart); inf and NaN as they are. */
static uint32_t tk_emu_tma_tf32(uint32_t v, uint64_t mode)
{
    static const int rne = !(getenv("TK_EMU_TF32") && !strcmp(getenv("TK_EMU_TF32"), "rna"));
    if ((v & 0x7f800000u) == 0x7f800000u)
        return v;
    if (mode == 2 && !(v & 0x7f800000u))
        return v & 0x80000000u;
    return rne ? tk_cvt_tf32(tk_bits_f32(v)) : (v + 0x1000u) & 0xffffe000u;
}
/* TMA load: the box lands at once (elements outside the tensor zero) and
 * its bytes complete on the mbarrier; a rank-2 map's at (c0, c1), a rank-4
 * map's at (c0, c1, c2, c3). */
static void tk_emu_tma_load(uint32_t s, uint64_t map, int c0, int c1, int c2, int c3, unsigned rank, uint32_t bar)
{
    int64_t bytes = 0;
    uint64_t tf = ((const tk_tmap *)(uintptr_t)map)->x[13];
    tk_emu_tma_box(s, map, c0, c1, "TMA", [&](unsigned char *g, unsigned char *sh, unsigned es, bool in) {
        uint32_t v = 0;
        if (in)
            memcpy(&v, g, es);
        if (tf)
            v = tk_emu_tma_tf32(v, tf);
        memcpy(sh, &v, es);
        bytes += es;
    }, c2, c3, rank);
    std::lock_guard<std::mutex> g(tk_emu_mbar_lock);
    tk_emu_mbar &m = tk_emu_mbar_at(bar);
    m.tx -= bytes;
    tk_emu_mbar_done(m);
}
TK_D void tk_tma_load2(uint32_t s, uint64_t map, int c0, int c1, uint32_t bar)
{
    tk_emu_tma_load(s, map, c0, c1, 0, 0, 2, bar);
}
TK_D void tk_tma_load4(uint32_t s, uint64_t map, int c0, int c1, int c2, int c3, uint32_t bar)
{
    tk_emu_tma_load(s, map, c0, c1, c2, c3, 4, bar);
}
/* TMA store: the box goes out at once (elements outside the tensor not
 * written); the bulk groups have nothing left to wait for. */
TK_D void tk_tma_store2(uint32_t s, uint64_t map, int c0, int c1)
{
    tk_emu_tma_box(s, map, c0, c1, "TMA store", [](unsigned char *g, unsigned char *sh, unsigned es, bool in) {
        if (in)
            memcpy(g, sh, es);
    });
}
TK_D void tk_bulk_commit(void) {}
#define tk_bulk_wait_read(n) ((void)(n))
#define tk_bulk_wait(n) ((void)(n))
/* Warp specialization: an arrival without bytes; the register budget of a
 * warpgroup (nothing to do on a CPU but check the operand); a named
 * barrier of n threads. */
TK_D void tk_mbar_arrive(uint32_t a)
{
    std::lock_guard<std::mutex> g(tk_emu_mbar_lock);
    tk_emu_mbar &m = tk_emu_mbar_at(a);
    if (m.pending == 0) {
        fprintf(stderr, "tk_emu: more arrivals than the mbarrier at %u counts\n", a);
        abort();
    }
    m.pending--;
    tk_emu_mbar_done(m);
}
/* cp.async's arrival on an mbarrier: the copies landed at once and the
 * arrival is not counted (+1 - 1), so only the barrier is checked. */
TK_D void tk_cp_mbar_arrive(uint32_t a)
{
    std::lock_guard<std::mutex> g(tk_emu_mbar_lock);
    (void)tk_emu_mbar_at(a);
}
TK_D void tk_emu_nreg(int n)
{
    if (n < 24 || n > 256 || n % 8) {
        fprintf(stderr, "tk_emu: setmaxnreg %d (needs a multiple of 8 in 24..256)\n", n);
        abort();
    }
}
#define tk_nreg_inc(n) tk_emu_nreg(n)
#define tk_nreg_dec(n) tk_emu_nreg(n)
TK_D void tk_bar(int id, int n) { tk_emu_bar(id, n); }
TK_D void tk_nbar_sync(int id, int n) { tk_emu_bar(id, n); }
TK_D void tk_nbar_arrive(int id, int n) { tk_emu_bar_arrive(id, n); }
/* Clusters: the stand-in has no cuLaunchKernelEx, so the launcher starts
 * every block on its own, a cluster of one (a pair's code then runs
 * alone); the other block of a pair is never addressed. */
TK_D uint32_t tk_cl_ncta(void) { return 1; }
TK_D uint32_t tk_mapa(uint32_t a, uint32_t rank)
{
    if (rank != 0) {
        fprintf(stderr, "tk_emu: mapa to block %u of a cluster of one\n", rank);
        abort();
    }
    return a;
}
TK_D void tk_cl_arrive(uint32_t a) { tk_mbar_arrive(a); }
TK_D void tk_cl_arrive_rel(uint32_t a) { tk_mbar_arrive(a); }
TK_D void tk_cl_st(uint32_t a, uint32_t v) { memcpy(tk_smem + a, &v, 4); }
TK_D void tk_cl_wait(uint32_t a, uint32_t parity) { tk_mbar_wait(a, parity); }
TK_D uint32_t tk_ld_sh(uint32_t a) { uint32_t v; memcpy(&v, tk_smem + a, 4); return v; }
TK_D void tk_cl_sync(void) { tk_emu_sync(); }
TK_D void tk_tma_load2_mc(uint32_t s, uint64_t map, int c0, int c1, uint32_t bar) { tk_tma_load2(s, map, c0, c1, bar); }
#endif
