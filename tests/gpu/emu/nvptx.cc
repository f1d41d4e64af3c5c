/*
 * tests/gpu/emu/nvptx.cc — what the nvptx target's host-mode IR
 * (TKC_NVPTX_HOST=1, targets/nvptx/gen.c) calls on the CPU stand-in: thread
 * ids, barriers, shuffles and the inline PTX of lower/pir.h's pir_asm[],
 * each through emu.h/mma.h's helpers.  Asm outputs come and go through
 * out[] (tied inputs arrive there as the outputs' current values).
 */
#include "emu.h"

extern "C" {
int tk_nvx_sreg(int which) { return (int)(which == 0 ? threadIdx.x : which == 1 ? blockIdx.x : gridDim.x); }
void tk_nvx_sync(void) { tk_emu_sync(); }
int tk_nvx_sync_and(int x) { return tk_emu_sync_and(x); }
void tk_nvx_bar(int id, int n) { tk_emu_bar(id, n); }
uint32_t tk_nvx_shfl(uint32_t v, int lane) { return __shfl_xor_sync(0xffffffffu, v, lane); }
void tk_nvx_ldsm4(uint32_t *o, uint32_t p) { tk_ldsm4(o[0], o[1], o[2], o[3], p); }
void tk_nvx_ldsm4t(uint32_t *o, uint32_t p) { tk_ldsm4t(o[0], o[1], o[2], o[3], p); }
void tk_nvx_mma_bf16(float *d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1)
{
    tk_mma_bf16(d[0], d[1], d[2], d[3], a0, a1, a2, a3, b0, b1);
}
void tk_nvx_mma_f16(float *d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1)
{
    tk_mma_f16(d[0], d[1], d[2], d[3], a0, a1, a2, a3, b0, b1);
}
void tk_nvx_cvt_tf32(uint32_t *o, float x) { o[0] = tk_cvt_tf32(x); }
void tk_nvx_mma_tf32(float *d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1)
{
    tk_mma_tf32(d[0], d[1], d[2], d[3], a0, a1, a2, a3, b0, b1);
}
void tk_nvx_mma_s8(int *d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1)
{
    tk_mma_s8(d[0], d[1], d[2], d[3], a0, a1, a2, a3, b0, b1);
}
void tk_nvx_pack_bf16x2(uint32_t *o, float lo, float hi) { o[0] = tk_pack_bf16x2(lo, hi); }
void tk_nvx_warp_uniform(uint32_t *o, uint32_t x) { o[0] = tk_warp_uniform(x); }
void tk_nvx_pack_f16x2(uint32_t *o, float lo, float hi) { o[0] = tk_pack_f16x2(lo, hi); }
void tk_nvx_round_f16w(float *o, float x) { o[0] = tk_round_f16w(x); }
void tk_nvx_opaque(int32_t *o, int32_t x) { o[0] = tk_opaque(x); }
void tk_nvx_opaque64(int64_t *o, int64_t x) { o[0] = tk_opaque64(x); }
void tk_nvx_vote_any(uint32_t *o, uint32_t x) { o[0] = tk_vote_any(x); }
void tk_nvx_cp_async(uint32_t s, const void *g, uint32_t n) { tk_cp_async(s, g, n); }
void tk_nvx_cp_commit(void) { tk_cp_commit(); }
void tk_nvx_fetch_add_u32(uint32_t *o, void *p, uint32_t v) { o[0] = tk_fetch_add_u32(p, v); }
void tk_nvx_fetch_add_u64(uint64_t *o, void *p, uint64_t v) { o[0] = tk_fetch_add_u64(p, v); }
void tk_nvx_fetch_add_f32(float *o, void *p, float v) { o[0] = tk_fetch_add_f32(p, v); }
void tk_nvx_fetch_add_f64(double *o, void *p, double v) { o[0] = tk_fetch_add_f64(p, v); }
void tk_nvx_cp_wait(int n) { tk_cp_wait(n); }
void tk_nvx_wg_fence(float *d, int n) { tk_wg_fence(d, n); }
void tk_nvx_wgmma_bf16(float *d, int n, uint64_t a, uint64_t b, int ta, int tb, int sd) { tk_wgmma_bf16(d, n, a, b, ta, tb, sd); }
void tk_nvx_wgmma_f16(float *d, int n, uint64_t a, uint64_t b, int ta, int tb, int sd) { tk_wgmma_f16(d, n, a, b, ta, tb, sd); }
void tk_nvx_wgmma_ra_bf16(float *d, int n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint64_t b, int tb,
                          int sd)
{
    tk_wgmma_ra_bf16(d, n, a0, a1, a2, a3, b, tb, sd);
}
void tk_nvx_wgmma_ra_f16(float *d, int n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint64_t b, int tb,
                         int sd)
{
    tk_wgmma_ra_f16(d, n, a0, a1, a2, a3, b, tb, sd);
}
void tk_nvx_wgmma_tf32(float *d, int n, uint64_t a, uint64_t b, int ta, int tb, int sd) { tk_wgmma_tf32(d, n, a, b, ta, tb, sd); }
void tk_nvx_wgmma_s8(int *d, int n, uint64_t a, uint64_t b, int ta, int tb, int sd) { tk_wgmma_s8(d, n, a, b, ta, tb, sd); }
void tk_nvx_wgmma_ra_tf32(float *d, int n, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint64_t b, int tb,
                          int sd)
{
    tk_wgmma_ra_tf32(d, n, a0, a1, a2, a3, b, tb, sd);
}
void tk_nvx_wg_commit(void) { tk_wg_commit(); }
void tk_nvx_wg_wait(float *d, int n, int k) { tk_wg_wait(d, n, k); }
void tk_nvx_fence_proxy(void) { tk_fence_proxy(); }
void tk_nvx_mbar_init(uint32_t a, uint32_t n) { tk_mbar_init(a, n); }
void tk_nvx_mbar_fence(void) { tk_mbar_fence(); }
void tk_nvx_mbar_expect(uint32_t a, uint32_t n) { tk_mbar_expect(a, n); }
void tk_nvx_mbar_wait(uint32_t a, uint32_t p) { tk_mbar_wait(a, p); }
void tk_nvx_mbar_wait_s(uint32_t a, uint32_t p, uint32_t ns) { tk_mbar_wait_s(a, p, ns); }
void tk_nvx_tma_load2(uint32_t s, uint64_t map, int c0, int c1, uint32_t b) { tk_tma_load2(s, map, c0, c1, b); }
void tk_nvx_tma_load4(uint32_t s, uint64_t map, int c0, int c1, int c2, int c3, uint32_t b)
{
    tk_tma_load4(s, map, c0, c1, c2, c3, b);
}
void tk_nvx_tma_store2(uint32_t s, uint64_t map, int c0, int c1) { tk_tma_store2(s, map, c0, c1); }
void tk_nvx_bulk_commit(void) { tk_bulk_commit(); }
void tk_nvx_bulk_wait_read(int n) { tk_bulk_wait_read(n); }
void tk_nvx_bulk_wait(int n) { tk_bulk_wait(n); }
void tk_nvx_mbar_arrive(uint32_t a) { tk_mbar_arrive(a); }
void tk_nvx_cp_mbar_arrive(uint32_t a) { tk_cp_mbar_arrive(a); }
void tk_nvx_nreg_inc(int n) { tk_nreg_inc(n); }
void tk_nvx_nreg_dec(int n) { tk_nreg_dec(n); }
void tk_nvx_nbar_sync(int id, int n) { tk_nbar_sync(id, n); }
void tk_nvx_nbar_arrive(int id, int n) { tk_nbar_arrive(id, n); }
void tk_nvx_cl_ncta(uint32_t *o) { o[0] = tk_cl_ncta(); }
void tk_nvx_mapa(uint32_t *o, uint32_t a, uint32_t rank) { o[0] = tk_mapa(a, rank); }
void tk_nvx_cl_arrive(uint32_t a) { tk_cl_arrive(a); }
void tk_nvx_cl_arrive_rel(uint32_t a) { tk_cl_arrive_rel(a); }
void tk_nvx_cl_st(uint32_t a, uint32_t v) { tk_cl_st(a, v); }
void tk_nvx_cl_wait(uint32_t a, uint32_t p) { tk_cl_wait(a, p); }
void tk_nvx_ld_sh(uint32_t *o, uint32_t a) { o[0] = tk_ld_sh(a); }
void tk_nvx_cl_sync(void) { tk_cl_sync(); }
void tk_nvx_tma_load2_mc(uint32_t s, uint64_t map, int c0, int c1, uint32_t b) { tk_tma_load2_mc(s, map, c0, c1, b); }
}
