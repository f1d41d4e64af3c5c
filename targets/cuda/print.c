/*
 * targets/cuda/print.c — the per-thread IR (lower/pir.h) as CUDA C.
 *
 * lower/gpu.c decides layouts and builds a PirFunc per kernel; this file
 * only prints it, plus the device prelude every module starts with: the
 * conversion, division, saturation, shuffle and store helpers the printed
 * code calls, and the tensor-core helpers of the PA_* asm statements.  The
 * CPU emulator of the GPU tests (tests/gpu/emu) defines the same helpers.
 *
 * Integer arithmetic that may wrap goes through unsigned types (C would
 * call signed overflow undefined); index arithmetic marked nsw prints as
 * plain C.  Locals print as hint_id, which no parameter name matches.
 */
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "../../lower/gpu.h"

const char cuda_device_prelude[] =
    "/* tkc CUDA device prelude: no headers needed */\n"
    "typedef signed char int8_t;\n"
    "typedef short int16_t;\n"
    "typedef int int32_t;\n"
    "typedef long long int64_t;\n"
    "typedef unsigned char uint8_t;\n"
    "typedef unsigned short uint16_t;\n"
    "typedef unsigned int uint32_t;\n"
    "typedef unsigned long long uint64_t;\n"
    "#define INT8_MIN (-128)\n#define INT8_MAX 127\n"
    "#define INT16_MIN (-32768)\n#define INT16_MAX 32767\n"
    "#define INT32_MIN (-2147483647 - 1)\n#define INT32_MAX 2147483647\n"
    "#define INT64_MIN (-9223372036854775807LL - 1)\n#define INT64_MAX 9223372036854775807LL\n"
    "#define UINT8_MAX 255\n#define UINT32_MAX 4294967295u\n"
    "#define INT64_C(c) c##LL\n"
    "#define INFINITY __int_as_float(0x7f800000)\n"
    "#define NAN __int_as_float(0x7fc00000)\n"
    "#define TK_D static __device__ __forceinline__\n"
    "#define TK_ASSUME(c) __builtin_assume(c)\n"
    "TK_D float tk_f16_to_f32(uint16_t h) { float f; asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f; }\n"
    "TK_D uint16_t tk_f32_to_f16(float f) { uint16_t h; asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n"
    "TK_D float tk_bf16_to_f32(uint16_t h) { return __uint_as_float((uint32_t)h << 16); }\n"
    "TK_D uint16_t tk_f32_to_bf16(float f) { uint16_t h; asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n"
    "TK_D float tk_round_f16(float f) { return tk_f16_to_f32(tk_f32_to_f16(f)); }\n"
    "TK_D float tk_round_bf16(float f) { return tk_bf16_to_f32(tk_f32_to_bf16(f)); }\n"
    "TK_D float tk_sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }\n"
    "TK_D double tk_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }\n"
    "TK_D float tk_rsqrtf(float x) { return 1.0f / sqrtf(x); }\n"
    "TK_D double tk_rsqrt(double x) { return 1.0 / sqrt(x); }\n"
    "TK_D float tk_exp2_ftzf(float x) { float y; asm(\"ex2.approx.ftz.f32 %0, %1;\" : \"=f\"(y) : \"f\"(x)); return y; }\n"
    "#define TK_DEF_SAT(N, T, LO, HI1, HI) \\\n"
    "    TK_D T tk_sat_##N(double x) \\\n"
    "    { return x != x ? (T)0 : x <= (double)(LO) ? (T)(LO) : x >= (HI1) ? (T)(HI) : (T)x; }\n"
    "TK_DEF_SAT(i8, int8_t, INT8_MIN, 128.0, INT8_MAX)\n"
    "TK_DEF_SAT(i16, int16_t, INT16_MIN, 32768.0, INT16_MAX)\n"
    "TK_DEF_SAT(i32, int32_t, INT32_MIN, 2147483648.0, INT32_MAX)\n"
    "TK_DEF_SAT(i64, int64_t, INT64_MIN, 9223372036854775808.0, INT64_MAX)\n"
    "TK_DEF_SAT(u8, uint8_t, 0, 256.0, UINT8_MAX)\n"
    "TK_DEF_SAT(u32, uint32_t, 0, 4294967296.0, UINT32_MAX)\n"
    "#define TK_DEF_DIV(N, T, MIN) \\\n"
    "    TK_D T tk_div_##N(T a, T b) { return b == 0 ? (T)0 : (b == (T)-1 && a == MIN) ? a : (T)(a / b); } \\\n"
    "    TK_D T tk_mod_##N(T a, T b) { return (b == 0 || b == (T)-1) ? (T)0 : (T)(a % b); }\n"
    "#define TK_DEF_UDIV(N, T) \\\n"
    "    TK_D T tk_div_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \\\n"
    "    TK_D T tk_mod_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }\n"
    "TK_DEF_DIV(i8, int8_t, INT8_MIN)\n"
    "TK_DEF_DIV(i16, int16_t, INT16_MIN)\n"
    "TK_DEF_DIV(i32, int32_t, INT32_MIN)\n"
    "TK_DEF_DIV(i64, int64_t, INT64_MIN)\n"
    "TK_DEF_UDIV(u8, uint8_t)\n"
    "TK_DEF_UDIV(u32, uint32_t)\n"
    "TK_DEF_UDIV(bool, bool)\n"
    "/* 16- and 8-byte global stores; _m: ordered with the other memory accesses */\n"
    "TK_D void tk_st16(void *p, uint32_t a, uint32_t b, uint32_t c, uint32_t d)\n"
    "{ asm volatile(\"st.global.v4.b32 [%0], {%1, %2, %3, %4};\" :: \"l\"(p), \"r\"(a), \"r\"(b), \"r\"(c), \"r\"(d)); }\n"
    "TK_D void tk_st16_m(void *p, uint32_t a, uint32_t b, uint32_t c, uint32_t d)\n"
    "{ asm volatile(\"st.global.v4.b32 [%0], {%1, %2, %3, %4};\" :: \"l\"(p), \"r\"(a), \"r\"(b), \"r\"(c), \"r\"(d) : \"memory\"); }\n"
    "TK_D void tk_st8(void *p, uint32_t a, uint32_t b)\n"
    "{ asm volatile(\"st.global.v2.b32 [%0], {%1, %2};\" :: \"l\"(p), \"r\"(a), \"r\"(b)); }\n"
    "TK_D void tk_st8_m(void *p, uint32_t a, uint32_t b)\n"
    "{ asm volatile(\"st.global.v2.b32 [%0], {%1, %2};\" :: \"l\"(p), \"r\"(a), \"r\"(b) : \"memory\"); }\n"
    "/* butterfly shuffles for every compute type */\n"
    "TK_D float tk_shfl(float x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D double tk_shfl(double x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D int32_t tk_shfl(int32_t x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D uint32_t tk_shfl(uint32_t x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D int64_t tk_shfl(int64_t x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }\n"
    "TK_D int8_t tk_shfl(int8_t x, int o) { return (int8_t)__shfl_xor_sync(0xffffffffu, (int)x, o); }\n"
    "TK_D int16_t tk_shfl(int16_t x, int o) { return (int16_t)__shfl_xor_sync(0xffffffffu, (int)x, o); }\n"
    "TK_D uint8_t tk_shfl(uint8_t x, int o) { return (uint8_t)__shfl_xor_sync(0xffffffffu, (int)x, o); }\n"
    "TK_D bool tk_shfl(bool x, int o) { return __shfl_xor_sync(0xffffffffu, (int)x, o) != 0; }\n"
    "/* end of the tkc device prelude */\n";

/* tensor cores: the PA_* asm of lower/pir.h (the emulator defines these too).
 * tk_smem_u32 by NVVM's own conversion: NVVM sees tk_smem is shared and
 * keeps a 32-bit shared address (an asm cvta.to.shared of the generic
 * pointer made ptxas build the 64-bit generic address first, from
 * SR_SWINHI, for every mbarrier and wgmma descriptor).  SASS of sdpa_bf16's
 * key loop D=128 578 -> 551 instructions; H100, same run
 * (doc/bench/h100-s17-g1.log, with gpu_wgmma.c gpu_wg_head): D=128 560.7 / 566.1
 * TFLOP/s (two builds) vs 550.5, causal 472.9 / 476.4 vs 461.8, D=64
 * 483.1 / 462.0 vs 456.1, causal 430.8 / 415.5 vs 397.7; matmul_bf16 the
 * same (0.990 / 1.017 of cuBLAS vs 0.990 / 1.015). */
const char cuda_mma_prelude[] =
    "#ifndef TK_EMU_MMA\n"
    "/* tensor cores: the PA_* asm of lower/pir.h (lower/gpu_mma.c) */\n"
    "TK_D uint32_t tk_smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }\n"
    "TK_D void tk_ldsm4(uint32_t &a, uint32_t &b, uint32_t &c, uint32_t &d, uint32_t p)\n"
    "{ asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
    "               : \"=r\"(a), \"=r\"(b), \"=r\"(c), \"=r\"(d) : \"r\"(p) : \"memory\"); }\n"
    "TK_D void tk_ldsm4t(uint32_t &a, uint32_t &b, uint32_t &c, uint32_t &d, uint32_t p)\n"
    "{ asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\"\n"
    "               : \"=r\"(a), \"=r\"(b), \"=r\"(c), \"=r\"(d) : \"r\"(p) : \"memory\"); }\n"
    "TK_D uint32_t tk_pack_bf16x2(float lo, float hi)\n"
    "{ uint32_t r; asm(\"cvt.rn.bf16x2.f32 %0, %1, %2;\" : \"=r\"(r) : \"f\"(hi), \"f\"(lo)); return r; }\n"
    "TK_D uint32_t tk_pack_f16x2(float lo, float hi)\n"
    "{ uint32_t r; asm(\"cvt.rn.f16x2.f32 %0, %1, %2;\" : \"=r\"(r) : \"f\"(hi), \"f\"(lo)); return r; }\n"
    "TK_D float tk_round_f16w(float x)\n"
    "{ float r; asm(\"{ .reg .b16 h; .reg .b32 w; cvt.rn.f16.f32 h, %1; cvt.u32.u16 w, h; \"\n"
    "               \"prmt.b32 w, w, 0, 0x1010; cvt.u16.u32 h, w; cvt.f32.f16 %0, h; }\" : \"=f\"(r) : \"f\"(x)); return r; }\n"
    "TK_D uint32_t tk_warp_uniform(uint32_t x) { return __shfl_sync(0xffffffffu, x, 0); }\n"
    "#define TK_DEF_MMA(N) \\\n"
    "    TK_D void tk_mma_##N(float &d0, float &d1, float &d2, float &d3, uint32_t a0, uint32_t a1, \\\n"
    "                         uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1) \\\n"
    "    { asm(\"mma.sync.aligned.m16n8k16.row.col.f32.\" #N \".\" #N \".f32 \" \\\n"
    "          \"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\" \\\n"
    "          : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3) \\\n"
    "          : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1)); }\n"
    "TK_DEF_MMA(bf16)\n"
    "TK_DEF_MMA(f16)\n"
    "TK_D uint32_t tk_cvt_tf32(float x)   /* to nearest, ties to even (PA_CVT_TF32) */\n"
    "{ uint32_t u = __float_as_uint(x); return (u & 0x7f800000u) == 0x7f800000u ? u : (u + 0xfffu + (u >> 13 & 1u)) & 0xffffe000u; }\n"
    "TK_D void tk_mma_tf32(float &d0, float &d1, float &d2, float &d3, uint32_t a0, uint32_t a1,\n"
    "                      uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1)\n"
    "{ asm(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 \"\n"
    "      \"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\"\n"
    "      : \"+f\"(d0), \"+f\"(d1), \"+f\"(d2), \"+f\"(d3)\n"
    "      : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1)); }\n"
    "TK_D void tk_mma_s8(int &d0, int &d1, int &d2, int &d3, uint32_t a0, uint32_t a1,\n"
    "                    uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1)\n"
    "{ asm(\"mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 \"\n"
    "      \"{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\"\n"
    "      : \"+r\"(d0), \"+r\"(d1), \"+r\"(d2), \"+r\"(d3)\n"
    "      : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1)); }\n"
    "TK_D void tk_cp_async(uint32_t s, const void *g, uint32_t n)\n"
    "{ asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\" :: \"r\"(s), \"l\"(g), \"r\"(n) : \"memory\"); }\n"
    "/* atomic_add used as a value (PA_FETCH_ADD_*): acq_rel at device scope */\n"
    "#define TK_DEF_FETCH_ADD(N, T, C) \\\n"
    "    TK_D T tk_fetch_add_##N(void *p, T v) \\\n"
    "    { T o; asm volatile(\"atom.acq_rel.gpu.global.add.\" #N \" %0, [%1], %2;\" : \"=\" C(o) : \"l\"(p), C(v) : \"memory\"); return o; }\n"
    "TK_DEF_FETCH_ADD(u32, uint32_t, \"r\")\n"
    "TK_DEF_FETCH_ADD(u64, uint64_t, \"l\")\n"
    "TK_DEF_FETCH_ADD(f32, float, \"f\")\n"
    "TK_DEF_FETCH_ADD(f64, double, \"d\")\n"
    "TK_D void tk_cp_commit(void) { asm volatile(\"cp.async.commit_group;\" ::: \"memory\"); }\n"
    "TK_D int32_t tk_opaque(int32_t x) { int32_t r; asm volatile(\"mov.b32 %0, %1;\" : \"=r\"(r) : \"r\"(x) : \"memory\"); return r; }\n"
    "TK_D int64_t tk_opaque64(int64_t x) { int64_t r; asm volatile(\"mov.b64 %0, %1;\" : \"=l\"(r) : \"l\"(x) : \"memory\"); return r; }\n"
    "TK_D uint32_t tk_vote_any(uint32_t x) { return __any_sync(0xffffffffu, x != 0); }\n"
    "#define tk_cp_wait(n) asm volatile(\"cp.async.wait_group %0;\" :: \"n\"(n) : \"memory\")\n"
    "TK_D void tk_wg_commit(void) { asm volatile(\"wgmma.commit_group.sync.aligned;\" ::: \"memory\"); }\n"
    "TK_D void tk_fence_proxy(void) { asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\"); }\n"
    "/* TMA and mbarriers (sm_90) */\n"
    "struct __align__(64) tk_tmap { unsigned long long x[16]; };\n"
    "TK_D void tk_mbar_init(uint32_t b, uint32_t n)\n"
    "{ asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\" :: \"r\"(b), \"r\"(n) : \"memory\"); }\n"
    "TK_D void tk_mbar_fence(void) { asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\"); }\n"
    "TK_D void tk_mbar_expect(uint32_t b, uint32_t n)\n"
    "{ asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\" :: \"r\"(b), \"r\"(n) : \"memory\"); }\n"
    "TK_D void tk_mbar_wait(uint32_t b, uint32_t par)\n"
    "{ asm volatile(\"{ .reg .pred p; TK_WAIT: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; \"\n"
    "               \"@!p bra TK_WAIT; }\" :: \"r\"(b), \"r\"(par) : \"memory\"); }\n"
    "TK_D void tk_mbar_wait_s(uint32_t b, uint32_t par, uint32_t ns)\n"
    "{ asm volatile(\"{ .reg .pred p; TK_WAIT: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1, %2; \"\n"
    "               \"@!p bra TK_WAIT; }\" :: \"r\"(b), \"r\"(par), \"r\"(ns) : \"memory\"); }\n"
    "TK_D void tk_tma_load2(uint32_t s, uint64_t map, int c0, int c1, uint32_t b)\n"
    "{ asm volatile(\"cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes \"\n"
    "               \"[%0], [%1, {%2, %3}], [%4];\" :: \"r\"(s), \"l\"(map), \"r\"(c0), \"r\"(c1), \"r\"(b) : \"memory\"); }\n"
    "TK_D void tk_tma_load4(uint32_t s, uint64_t map, int c0, int c1, int c2, int c3, uint32_t b)\n"
    "{ asm volatile(\"cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes \"\n"
    "               \"[%0], [%1, {%2, %3, %4, %5}], [%6];\" :: \"r\"(s), \"l\"(map), \"r\"(c0), \"r\"(c1), \"r\"(c2), \"r\"(c3), \"r\"(b) : \"memory\"); }\n"
    "TK_D void tk_tma_store2(uint32_t s, uint64_t map, int c0, int c1)\n"
    "{ asm volatile(\"cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%1, {%2, %3}], [%0];\"\n"
    "               :: \"r\"(s), \"l\"(map), \"r\"(c0), \"r\"(c1) : \"memory\"); }\n"
    "TK_D void tk_bulk_commit(void) { asm volatile(\"cp.async.bulk.commit_group;\" ::: \"memory\"); }\n"
    "#define tk_bulk_wait_read(n) asm volatile(\"cp.async.bulk.wait_group.read %0;\" :: \"n\"(n) : \"memory\")\n"
    "#define tk_bulk_wait(n) asm volatile(\"cp.async.bulk.wait_group %0;\" :: \"n\"(n) : \"memory\")\n"
    "/* warp specialization (sm_90a): releases, registers, barriers of some warps */\n"
    "TK_D void tk_mbar_arrive(uint32_t b)\n"
    "{ asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\" :: \"r\"(b) : \"memory\"); }\n"
    "TK_D void tk_cp_mbar_arrive(uint32_t b)\n"
    "{ asm volatile(\"cp.async.mbarrier.arrive.shared::cta.b64 [%0];\" :: \"r\"(b) : \"memory\"); }\n"
    "#define tk_nreg_inc(n) asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %0;\" :: \"n\"(n) : \"memory\")\n"
    "#define tk_nreg_dec(n) asm volatile(\"setmaxnreg.dec.sync.aligned.u32 %0;\" :: \"n\"(n) : \"memory\")\n"
    "TK_D void tk_bar(int id, int n) { asm volatile(\"bar.sync %0, %1;\" :: \"r\"(id), \"r\"(n) : \"memory\"); }\n"
    "TK_D void tk_nbar_sync(int id, int n) { asm volatile(\"bar.sync %0, %1;\" :: \"r\"(id), \"r\"(n) : \"memory\"); }\n"
    "TK_D void tk_nbar_arrive(int id, int n) { asm volatile(\"bar.arrive %0, %1;\" :: \"r\"(id), \"r\"(n) : \"memory\"); }\n"
    "/* pairs of blocks in a cluster (sm_90; lower/gpu_mma.c, \"pairs of blocks\") */\n"
    "TK_D uint32_t tk_cl_ncta(void) { uint32_t r; asm volatile(\"mov.u32 %0, %%cluster_nctarank;\" : \"=r\"(r) :: \"memory\"); return r; }\n"
    "TK_D uint32_t tk_mapa(uint32_t a, uint32_t rank)\n"
    "{ uint32_t r; asm volatile(\"mapa.shared::cluster.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(a), \"r\"(rank) : \"memory\"); return r; }\n"
    "TK_D void tk_cl_arrive(uint32_t b)\n"
    "{ asm volatile(\"mbarrier.arrive.shared::cluster.b64 _, [%0];\" :: \"r\"(b) : \"memory\"); }\n"
    "TK_D void tk_cl_arrive_rel(uint32_t b)\n"
    "{ asm volatile(\"mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\" :: \"r\"(b) : \"memory\"); }\n"
    "TK_D void tk_cl_st(uint32_t a, uint32_t v) { asm volatile(\"st.shared::cluster.u32 [%0], %1;\" :: \"r\"(a), \"r\"(v) : \"memory\"); }\n"
    "TK_D void tk_cl_wait(uint32_t b, uint32_t par)\n"
    "{ asm volatile(\"{ .reg .pred p; TK_WAIT: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1; \"\n"
    "               \"@!p bra TK_WAIT; }\" :: \"r\"(b), \"r\"(par) : \"memory\"); }\n"
    "TK_D uint32_t tk_ld_sh(uint32_t a) { uint32_t r; asm volatile(\"ld.shared.u32 %0, [%1];\" : \"=r\"(r) : \"r\"(a) : \"memory\"); return r; }\n"
    "TK_D void tk_cl_sync(void)\n"
    "{ asm volatile(\"barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;\" ::: \"memory\"); }\n"
    "TK_D void tk_tma_load2_mc(uint32_t s, uint64_t map, int c0, int c1, uint32_t b)\n"
    "{ asm volatile(\"{ .reg .b16 tkm; mov.b16 tkm, 3; cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes\"\n"
    "               \".multicast::cluster [%0], [%1, {%2, %3}], [%4], tkm; }\" :: \"r\"(s), \"l\"(map), \"r\"(c0), \"r\"(c1), \"r\"(b) : \"memory\"); }\n"
    "#endif\n";

typedef struct PE {
    const PirFunc *f;
    Arena *a;
    Buf *o;
    int indent;
} PE;

#define S(...) arena_printf(p->a, __VA_ARGS__)

static const char *ctype(PirTy t)
{
    static const char *const n[PT_COUNT] = {
        [PT_VOID] = "void", [PT_BOOL] = "bool", [PT_I8] = "int8_t", [PT_I16] = "int16_t",
        [PT_I32] = "int32_t", [PT_I64] = "int64_t", [PT_U8] = "uint8_t", [PT_U16] = "uint16_t",
        [PT_U32] = "uint32_t", [PT_U64] = "uint64_t", [PT_F16] = "uint16_t", [PT_BF16] = "uint16_t",
        [PT_F32] = "float", [PT_F64] = "double", [PT_PTR] = "void *",
    };
    return n[t];
}

/* The type a wrapping operation on t computes in. */
static const char *utype(PirTy t) { return pir_ty_bits[t] == 64 ? "uint64_t" : "uint32_t"; }

/* The suffix of the prelude's integer helpers (tk_div_i32, tk_sat_u8). */
static const char *hname(PirTy t)
{
    switch (t) {
    case PT_BOOL: return "bool";
    case PT_I8:   return "i8";
    case PT_I16:  return "i16";
    case PT_I32:  return "i32";
    case PT_I64:  return "i64";
    case PT_U8:   return "u8";
    default:      return "u32";
    }
}

#define line(p, ...) buf_linef((p)->o, (p)->indent, __VA_ARGS__)

static const char *lname(PE *p, const PirLocal *l) { return S("%s_%d", l->hint, l->id); }

/* Constants print as the host's do (expr.c) where a tile dtype has the type. */
static char *lit(PE *p, const PirExpr *e)
{
    static const DType dt[PT_COUNT] = {
        [PT_BOOL] = DT_BOOL, [PT_I8] = DT_I8, [PT_I16] = DT_I16, [PT_I32] = DT_I32, [PT_I64] = DT_I64,
        [PT_U8] = DT_U8, [PT_U32] = DT_U32, [PT_F32] = DT_F32, [PT_F64] = DT_F64,
    };
    if (pir_ty_float(e->ty))
        return cx_lit_float(p->a, e->fval, dt[e->ty]);
    if (e->ty == PT_U64)
        return S("%lluull", (unsigned long long)e->ival);
    if (e->ty == PT_U16 || e->ty == PT_F16 || e->ty == PT_BF16)
        return S("((uint16_t)%d)", (int)(uint16_t)e->ival);
    return cx_lit_int(p->a, e->ival, dt[e->ty]);
}

static char *ex(PE *p, const PirExpr *e);

/* The address of m as a pointer to its type (const for loads). */
static char *addr(PE *p, const PirMem *m, bool ld)
{
    const char *T = ctype(m->ty), *c = ld ? "const " : "";
    if (m->space == PSP_SHARED)
        return S("((%s%s *)(tk_smem + %lld) + %s)", c, T, (long long)m->base, ex(p, m->idx));
    char *ptr = ex(p, m->ptr);
    if (m->ptr->elem != m->ty)
        ptr = S("((%s%s *)%s)", c, T, ptr);
    return pir_is_int(m->idx, 0) ? ptr : S("(%s + %s)", ptr, ex(p, m->idx));
}

static char *mem(PE *p, const PirMem *m, bool ld)
{
    if (m->space == PSP_SHARED)
        return S("((%s%s *)(tk_smem + %lld))[%s]", ld ? "const " : "", ctype(m->ty), (long long)m->base,
                 ex(p, m->idx));
    char *ptr = ex(p, m->ptr);
    if (m->ptr->elem != m->ty)
        ptr = S("((%s%s *)%s)", ld ? "const " : "", ctype(m->ty), ptr);
    return S("%s[%s]", ptr, ex(p, m->idx));
}

static const char *const infix[] = {
    [PB_ADD] = "+", [PB_SUB] = "-", [PB_MUL] = "*", [PB_AND] = "&", [PB_OR] = "|", [PB_XOR] = "^",
    [PB_LT] = "<", [PB_LE] = "<=", [PB_GT] = ">", [PB_GE] = ">=", [PB_EQ] = "==", [PB_NE] = "!=",
};

static char *bin(PE *p, const PirExpr *e)
{
    PirTy t = e->a->ty;
    const char *T = ctype(t), *U = utype(t);
    char *a = ex(p, e->a), *b = ex(p, e->b);
    bool fl = pir_ty_float(t), d = t == PT_F64;
    bool pos = e->nsw || (e->b->kind == PE_CONST && !fl && e->b->ival > 0);
    switch ((PirBinOp)e->op) {
    case PB_ADD: case PB_SUB: case PB_MUL:
        if (fl || e->nsw)
            return S("(%s %s %s)", a, infix[e->op], b);
        return S("((%s)((%s)%s %s (%s)%s))", T, U, a, infix[e->op], U, b);
    case PB_DIV:
        if (fl || pos)
            return S("(%s / %s)", a, b);
        return S("tk_div_%s(%s, %s)", hname(t), a, b);
    case PB_REM:
        if (fl)
            return S("%s(%s, %s)", d ? "fmod" : "fmodf", a, b);
        if (pos)
            return S("(%s %% %s)", a, b);
        return S("tk_mod_%s(%s, %s)", hname(t), a, b);
    case PB_MIN: case PB_MAX:
        if (fl)
            return S("%s%s(%s, %s)", e->op == PB_MIN ? "fmin" : "fmax", d ? "" : "f", a, b);
        return S("(%s %s %s ? %s : %s)", a, e->op == PB_MIN ? "<" : ">", b, a, b);
    case PB_AND: case PB_OR: case PB_XOR:
        return S("((%s)(%s %s %s))", T, a, infix[e->op], b);
    case PB_SHL: case PB_SHR: {
        int w = pir_ty_bits[t];
        const char *o = e->op == PB_SHL ? "<<" : ">>";
        char *c = e->b->kind == PE_CONST ? S("%d", (int)(e->b->ival & (w - 1))) : S("((%s)%s & %du)", U, b, w - 1);
        return e->op == PB_SHL ? S("((%s)((%s)%s %s %s))", T, U, a, o, c) : S("((%s)(%s %s %s))", T, a, o, c);
    }
    default:
        return S("(%s %s %s)", a, infix[e->op], b);
    }
}

static char *conv(PE *p, const PirExpr *e)
{
    PirTy f = e->a->ty, t = e->ty;
    char *a = ex(p, e->a);
    if (t == PT_BOOL)
        return S("(%s != 0)", a);
    if (t == PT_F16 || t == PT_BF16)
        return S("tk_f32_to_%s(%s)", t == PT_F16 ? "f16" : "bf16", a);
    if (f == PT_F16 || f == PT_BF16)
        return S("tk_%s_to_f32(%s)", f == PT_F16 ? "f16" : "bf16", a);
    if (pir_ty_float(f) && !pir_ty_float(t))
        return S("tk_sat_%s((double)%s)", hname(t), a);
    return S("((%s)%s)", ctype(t), a);
}

static char *bitcast(PE *p, const PirExpr *e)
{
    char *a = ex(p, e->a);
    switch (e->ty) {
    case PT_F32: return S("__uint_as_float(%s)", a);
    case PT_U32: return S("__float_as_uint(%s)", a);
    case PT_F64: return S("__longlong_as_double((long long)%s)", a);
    case PT_U64: return S("((uint64_t)__double_as_longlong(%s))", a);
    default:     return a;           /* 16-bit: the same C type */
    }
}

static char *math(PE *p, const PirExpr *e)
{
    bool d = e->ty == PT_F64;
    const char *n = pir_math_name[e->op];
    if (e->op == PM_RSQRT || e->op == PM_SIGMOID)
        n = S("tk_%s", n);
    /* @launch(fast_exp2 = true): ex2.approx.ftz (one MUFU.EX2; exp2f's
     * is followed by a fix-up for subnormal results) */
    if (e->op == PM_EXP2 && !d && p->f->fast_exp2)
        n = "tk_exp2_ftz";
    n = d ? n : S("%sf", n);
    if (!e->b)
        return S("%s(%s)", n, ex(p, e->a));
    if (!e->c)
        return S("%s(%s, %s)", n, ex(p, e->a), ex(p, e->b));
    return S("%s(%s, %s, %s)", n, ex(p, e->a), ex(p, e->b), ex(p, e->c));
}

static char *ex(PE *p, const PirExpr *e)
{
    static const char *const sreg[] = { "(int)threadIdx.x", "(int)blockIdx.x", "(int)gridDim.x" };
    switch (e->kind) {
    case PE_CONST:    return lit(p, e);
    case PE_LOCAL:    return (char *)lname(p, e->local);
    case PE_ELEM:     return S("%s[%s]", lname(p, e->local), ex(p, e->a));
    case PE_PARAM:
        if (p->f->params.v[e->index].kind == PP_TMAP)   /* the map's generic address */
            return S("(uint64_t)&%s", p->f->params.v[e->index].name);
        return (char *)p->f->params.v[e->index].name;
    case PE_SPECIAL:  return (char *)sreg[e->op];
    case PE_UN:
        if (e->op == PU_NOT)
            return S("(!%s)", ex(p, e->a));
        if (e->op == PU_NEG && pir_ty_float(e->ty))
            return S("(-%s)", ex(p, e->a));
        return S("((%s)(%s(%s)%s))", ctype(e->ty), e->op == PU_NEG ? "0u - " : "~", utype(e->ty), ex(p, e->a));
    case PE_BIN:      return bin(p, e);
    case PE_SELECT:   return S("(%s ? %s : %s)", ex(p, e->a), ex(p, e->b), ex(p, e->c));
    case PE_CONV:     return conv(p, e);
    case PE_BITCAST:  return bitcast(p, e);
    case PE_MATH:     return math(p, e);
    case PE_SHFL_XOR: return S("tk_shfl(%s, %d)", ex(p, e->a), e->lane);
    case PE_BAR_AND:  return S("__syncthreads_and(%s)", ex(p, e->a));
    case PE_LOAD:
        if (!e->a)
            return mem(p, &e->mem, true);
        return S("(%s ? %s : %s)", ex(p, e->a), mem(p, &e->mem, true),
                 e->b ? ex(p, e->b) : S("(%s)0", ctype(e->ty)));
    case PE_PTRADD:   return S("(%s + %s)", ex(p, e->a), ex(p, e->b));
    case PE_PTRINT:   return S("((uint64_t)%s)", ex(p, e->a));
    case PE_SADDR:    return S("tk_smem_u32(tk_smem + %s)", ex(p, e->a));
    }
    return "0";
}

static void block(PE *p, const PirBlock *b);

static void body(PE *p, const PirBlock *b)
{
    p->indent++;
    block(p, b);
    p->indent--;
}

static void store(PE *p, const PirStmt *s)
{
    const PirMem *m = &s->mem;
    if (!s->nw) {
        line(p, "%s = %s;", mem(p, m, false), ex(p, s->val));
        return;
    }
    Buf w = { .a = p->a };
    for (int i = 0; i < s->nw; i++)
        buf_printf(&w, ", %s", ex(p, s->w[i]));
    if (m->space == PSP_GLOBAL)
        line(p, "tk_st%d%s(%s%s);", 4 * s->nw, s->ordered ? "_m" : "", addr(p, m, false), w.s);
    else
        line(p, "*(uint%d *)%s = make_uint%d(%s);", s->nw, addr(p, m, false), s->nw, w.s + 2);
}

/* CUDA's atomicAdd / atomicMax / atomicMin, on the type of theirs that
 * mem.ty maps to (64-bit adds on unsigned long long: they wrap the same) */
static void atomic(PE *p, const PirStmt *s)
{
    static const char *const fn[] = { "atomicAdd", "atomicMax", "atomicMin" };
    const char *T;
    switch (s->mem.ty) {
    case PT_I32: T = "int"; break;
    case PT_U32: T = "unsigned int"; break;
    case PT_I64: T = s->aop == PAT_ADD ? "unsigned long long" : "long long"; break;
    case PT_U64: T = "unsigned long long"; break;
    case PT_F64: T = "double"; break;
    default:     T = "float"; break;
    }
    line(p, "(void)%s((%s *)%s, (%s)(%s));", fn[s->aop], T, addr(p, &s->mem, false), T, ex(p, s->val));
}

/* print: one printf (CUDA's is per thread, lines whole) */
static void print_line(PE *p, const PirStmt *s)
{
    const char *cast;
    const char *f = pir_print_format(p->a, s->nw, s->val ? s->val->ty : PT_VOID, &cast);
    Buf a = { .a = p->a };
    for (int i = 0; i < 3; i++)
        buf_printf(&a, ", (long long)(%s)", ex(p, s->in[i]));
    for (int d = 0; d < s->nw; d++)
        buf_printf(&a, ", (int)(%s)", ex(p, s->in[3 + d]));
    buf_printf(&a, ", %s", arena_cquote(p->a, s->label));
    if (s->val)
        buf_printf(&a, ", (%s)(%s)", cast, ex(p, s->val));
    line(p, "printf(\"%s\\n\"%s);", f, a.s);
}

static void loadv(PE *p, const PirStmt *s)
{
    static const char *const f[] = { ".x", ".y", ".z", ".w" };
    const char *T = s->nw == 4 ? "uint4" : s->nw == 2 ? "uint2" : "uint32_t";
    line(p, "{");
    line(p, "    const %s tk_t = *(const %s *)%s;", T, T, addr(p, &s->mem, true));
    for (int i = 0; i < s->nw; i++)
        line(p, "    %s[%d] = tk_t%s;", lname(p, s->local), s->dst0 + i, s->nw > 1 ? f[i] : "");
    line(p, "}");
}

/* An asm statement bound to a register array: inline asm with one "+f"
 * operand per element (no helper could take a varying number); the CPU
 * emulator calls tk_NAME(array + acc0, nacc, inputs) instead. */
static void asm_inline(PE *p, const PirStmt *s)
{
    const PirAsmInfo *ai = &pir_asm[s->asm_op];
    const char *arr = lname(p, s->acc);
    Buf e = { .a = p->a }, o = { .a = p->a }, in = { .a = p->a };
    buf_printf(&e, "tk_%s(%s + %lld, %d", ai->name, arr, (long long)s->acc0, s->nacc);
    const char *c = ai->cons;
    for (int i = 0; i < ai->nin; i++) {
        size_t n = strcspn(c, ",");
        buf_printf(&e, ", %s", ex(p, s->in[i]));
        buf_printf(&in, "%s\"%.*s\"(%s)", i ? ", " : "", (int)n, c, ex(p, s->in[i]));
        c += n + (c[n] == ',');
    }
    for (int i = 0; i < s->nacc; i++)
        buf_printf(&o, "%s\"+%c\"(%s[%lld])", i ? ", " : "", s->acc->ty == PT_I32 ? 'r' : 'f', arr,
                   (long long)(s->acc0 + i));
    line(p, "#ifdef TK_EMU_MMA");
    line(p, "%s);", e.s);
    line(p, "#else");
    line(p, "asm volatile(\"%s\"", pir_asm_text(p->a, s));
    line(p, "    : %s", o.s);
    line(p, "    : %s%s);", in.n ? in.s : "", ai->memory ? " : \"memory\"" : "");
    line(p, "#endif");
}

static void asm_call(PE *p, const PirStmt *s)
{
    const PirAsmInfo *ai = &pir_asm[s->asm_op];
    if (s->nacc) {
        asm_inline(p, s);
        return;
    }
    Buf b = { .a = p->a };
    bool ret = ai->nout == 1;        /* one output: the helper returns it */
    for (int i = ret; i < ai->nout; i++)
        buf_printf(&b, "%s%s", b.n ? ", " : "", ex(p, s->out[i]));
    for (int i = 0; i < ai->nin; i++)
        buf_printf(&b, "%s%s", b.n ? ", " : "", ex(p, s->in[i]));
    if (ret)
        line(p, "%s = tk_%s(%s);", ex(p, s->out[0]), ai->name, b.n ? b.s : "");
    else
        line(p, "tk_%s(%s);", ai->name, b.n ? b.s : "");
}

static void stmt(PE *p, const PirStmt *s)
{
    const PirLocal *l = s->local;
    switch (s->kind) {
    case PS_DECL:
        if (l->n)
            line(p, "%s %s[%lld];", ctype(l->ty), lname(p, l), (long long)l->n);
        else if (s->init)
            line(p, "%s %s = %s;", ctype(l->ty), lname(p, l), ex(p, s->init));
        else
            line(p, "%s %s;", ctype(l->ty), lname(p, l));
        break;
    case PS_ASSIGN:
        if (s->idx)
            line(p, "%s[%s] = %s;", lname(p, l), ex(p, s->idx), ex(p, s->val));
        else
            line(p, "%s = %s;", lname(p, l), ex(p, s->val));
        break;
    case PS_IF:
        /* a constant test (a versioned kernel's fast copy: `if (true)` on
         * every vector access) prints only the arm it takes: the other's
         * element-by-element code cost NVRTC's front end and NVVM time
         * for nothing (layernorm_f16 BLOCK=4096 PASSES=1: 64 -> 55 KB of
         * CUDA C, the same SASS) */
        if (s->cond->kind == PE_CONST && tkc_knob("TKC_PRINT_DEAD", 0) == 0) {
            if (s->cond->ival || s->els) {
                line(p, "{");
                body(p, s->cond->ival ? s->body : s->els);
                line(p, "}");
            }
            break;
        }
        line(p, "if (%s) {", ex(p, s->cond));
        body(p, s->body);
        if (s->els) {
            line(p, "} else {");
            body(p, s->els);
        }
        line(p, "}");
        break;
    case PS_FOR: {
        const char *c = lname(p, l);
        if (s->unroll)
            line(p, "#pragma unroll");
        line(p, "for (%s %s = %s; %s < %s; %s = %s) {", ctype(l->ty), c, ex(p, s->lo), c, ex(p, s->hi), c,
             ex(p, s->next));
        body(p, s->body);
        line(p, "}");
        break;
    }
    case PS_WHILE:
        if (s->cond)
            line(p, "while (%s) {", ex(p, s->cond));
        else
            line(p, "for (;;) {");
        body(p, s->body);
        line(p, "}");
        break;
    case PS_BLOCK:
        line(p, "{");
        body(p, s->body);
        line(p, "}");
        break;
    case PS_BREAK:    line(p, "break;"); break;
    case PS_CONTINUE: line(p, "continue;"); break;
    case PS_BARRIER:
        if (s->nbar)
            line(p, "tk_bar(%d, %d);", s->bar, s->nbar);
        else
            line(p, "__syncthreads();");
        break;
    case PS_STORE:    store(p, s); break;
    case PS_ATOMIC:   atomic(p, s); break;
    case PS_PRINT:    print_line(p, s); break;
    case PS_LOADV:    loadv(p, s); break;
    case PS_ASM:      asm_call(p, s); break;
    }
}

static void block(PE *p, const PirBlock *b)
{
    for (int i = 0; i < b->s.n; i++)
        stmt(p, b->s.v[i]);
}

void cuda_print_func(Buf *out, const PirFunc *f)
{
    PE pe = { .f = f, .a = f->a, .o = out }, *p = &pe;
    Buf b = { .a = p->a };
    for (int i = 0; i < f->params.n; i++) {
        const PirParam *q = &f->params.v[i];
        const char *sep = i ? ", " : "";
        if (q->kind == PP_TENSOR)
            buf_printf(&b, "%s%s%s *%s%s", sep, q->flags & PIR_CONST ? "const " : "", ctype(q->ty),
                       q->flags & PIR_NOALIAS ? "__restrict__ " : "", q->name);
        else if (q->kind == PP_TMAP)
            buf_printf(&b, "%sconst __grid_constant__ tk_tmap %s", sep, q->name);
        else
            buf_printf(&b, "%s%s %s", sep, ctype(q->ty), q->name);
    }
    if (f->min_blocks)
        line(p, "extern \"C\" __global__ void __launch_bounds__(%d, %d) %s(%s)", f->threads, f->min_blocks, f->name,
             b.s);
    else
        line(p, "extern \"C\" __global__ void __launch_bounds__(%d) %s(%s)", f->threads, f->name, b.s);
    line(p, "{");
    p->indent++;
    if (f->smem > 0)
        line(p, "extern __shared__ __align__(%d) unsigned char tk_smem[];", f->smem_align > 16 ? f->smem_align : 16);
    /* The block size, which NVVM does not take from __launch_bounds__:
     * knowing the thread index small and non-negative, it folds the index
     * arithmetic of (int)threadIdx.x (signed / and % by powers of two to
     * shifts and masks, 64-bit to 32-bit), and its optimizer, whose time
     * grows with the instructions, has less to do. */
    line(p, "TK_ASSUME(threadIdx.x < %du);", f->threads);
    block(p, f->body);
    p->indent--;
    line(p, "}");
    line(p, "%s", "");
}

int cuda_lower_all(Arena *a, TirKernel **ks, int n, PirFunc ***fsp, CudaKernel *ck, int **ownp, Diag *d)
{
    /* every kernel lowered before anything is printed: no partial output on errors */
    PirFunc **fs = arena_alloc(a, sizeof *fs * (size_t)(2 * n + 1));
    int *own = arena_alloc(a, sizeof *own * (size_t)(2 * n + 1));
    int total = n;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        PirFunc *v[2];
        int m = gpu_lower_versions(ks[i], v, d);
        ok &= m > 0;
        fs[i] = m > 0 ? v[0] : NULL;
        own[i] = i;
        ck[i].alt = -1;
        if (m == 2) {
            ck[i].alt = total;
            own[total] = i;
            fs[total++] = v[1];
        }
    }
    for (int j = 0; ok && j < total; j++) {
        int alt = j < n ? ck[j].alt : -1;
        ck[j] = (CudaKernel){ fs[j]->name, fs[j]->threads, fs[j]->smem, fs[j], alt };
    }
    *fsp = fs;
    if (ownp)
        *ownp = own;
    return ok ? total : -1;
}

bool cuda_emit_pir(FILE *out, TirKernel **ks, int n, const char *arch, Diag *d)
{
    Arena *a = arena_new();
    CudaKernel *ck = arena_alloc(a, sizeof *ck * (size_t)(2 * n + 1));
    PirFunc **fs;
    for (int i = 0; i < n; i++) {
        ks[i]->wgmma = !arch || !strcmp(arch, "sm_90a");
        ks[i]->smem_max = cuda_arch_smem(arch ? arch : "sm_90a");
    }
    int total = cuda_lower_all(a, ks, n, &fs, ck, NULL, d);
    for (int j = 0; j < total; j++)
        pir_print(out, fs[j]);
    arena_free(a);
    return total >= 0;
}
