/*
 * tests/gpu/emu/emu.h — just enough CUDA to run tkc's device code on a CPU.
 *
 * For checking the CUDA target on machines without a GPU: the device code
 * tkc prints (--emit=cuda, its prelude stripped) is compiled as C++ after
 * this file and linked into a stand-in libcuda.so.1 (driver.cc).  A block
 * runs as one OS thread per CUDA thread; __syncthreads is a barrier of the
 * block, a named barrier (bar.sync id, n) one of n threads, and a shuffle
 * is an exchange through memory between two barriers of its warp, so each
 * must be reached by every thread that takes part, as tkc's code does.
 * Shared memory is one global buffer: blocks run one after another.
 */
#ifndef TKC_EMU_H
#define TKC_EMU_H
#include <cmath>
#include <cstdint>
#include <cstring>
#include <pthread.h>
#include <type_traits>
#include <utility>

struct dim3 { unsigned x, y, z; };
extern thread_local dim3 threadIdx;
extern dim3 blockIdx, gridDim;
extern unsigned char tk_smem[];
extern uint64_t tk_emu_slots[1024];
void tk_emu_sync(void);
int tk_emu_sync_and(int x);                 /* __syncthreads_and */
void tk_emu_warp_sync(void);               /* the 32 threads of this thread's warp */
void tk_emu_wg_sync(void);                 /* the 128 threads of this thread's warpgroup */
void tk_emu_bar(int id, int n);            /* named barrier id of n threads */
void tk_emu_bar_arrive(int id, int n);     /* an arrival there without waiting */

#define __global__
#define __device__
#define __shared__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
/* a CUtensorMap as the stand-in's cuTensorMapEncodeTiled fills it (driver.cc):
 * base, cols, rows, row pitch in bytes, box cols, box rows, swizzle bytes,
 * element bytes */
struct alignas(64) tk_tmap { uint64_t x[16]; };
#define __syncthreads() tk_emu_sync()
#define __syncthreads_and(x) tk_emu_sync_and(x)
#define TK_D static inline
/* what the device code assumes (the block size) holds here too */
#define TK_ASSUME(c) ((c) ? (void)0 : __builtin_trap())

template <typename T> static T __shfl_xor_sync(unsigned, T x, int o)
{
    static_assert(sizeof(T) <= 8, "shuffle of a wide type");
    uint64_t u = 0;
    memcpy(&u, &x, sizeof x);
    tk_emu_slots[threadIdx.x] = u;
    tk_emu_warp_sync();
    uint64_t r = tk_emu_slots[threadIdx.x ^ (unsigned)o];
    tk_emu_warp_sync();
    T y;
    memcpy(&y, &r, sizeof y);
    return y;
}

/* vector types and bit casts of the 16-byte accesses */
struct uint4 { unsigned x, y, z, w; };
struct uint2 { unsigned x, y; };
TK_D uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{ x, y, z, w }; }
TK_D uint2 make_uint2(unsigned x, unsigned y) { return uint2{ x, y }; }
TK_D float __uint_as_float(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
TK_D unsigned __float_as_uint(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
TK_D double __longlong_as_double(long long u) { double f; memcpy(&f, &u, 8); return f; }
TK_D long long __double_as_longlong(double f) { long long u; memcpy(&u, &f, 8); return u; }

/* CUDA's atomics (the threads of a block are OS threads here) */
template <class T> TK_D T atomicAdd(T *p, T v)
{
    T o, n;
    __atomic_load(p, &o, __ATOMIC_RELAXED);
    do
        n = o + v;
    while (!__atomic_compare_exchange(p, &o, &n, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return o;
}
template <class T> TK_D T atomicMax(T *p, T v)
{
    T o;
    __atomic_load(p, &o, __ATOMIC_RELAXED);
    while (v > o && !__atomic_compare_exchange(p, &o, &v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return o;
}
template <class T> TK_D T atomicMin(T *p, T v)
{
    T o;
    __atomic_load(p, &o, __ATOMIC_RELAXED);
    while (v < o && !__atomic_compare_exchange(p, &o, &v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return o;
}

/* atomic_add used as a value (tkc's PA_FETCH_ADD_*): acq_rel */
#define TK_EMU_FETCH_ADD(N, T) \
    TK_D T tk_fetch_add_##N(void *p, T v) \
    { __atomic_thread_fence(__ATOMIC_SEQ_CST); T o = atomicAdd((T *)p, v); __atomic_thread_fence(__ATOMIC_SEQ_CST); return o; }
TK_EMU_FETCH_ADD(u32, uint32_t)
TK_EMU_FETCH_ADD(u64, uint64_t)
TK_EMU_FETCH_ADD(f32, float)
TK_EMU_FETCH_ADD(f64, double)

TK_D void tk_st16(void *p, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint32_t w[4] = { a, b, c, d };
    memcpy(p, w, 16);
}
TK_D void tk_st8(void *p, uint32_t a, uint32_t b)
{
    uint32_t w[2] = { a, b };
    memcpy(p, w, 8);
}
#define tk_st16_m tk_st16
#define tk_st8_m tk_st8

TK_D float tk_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
TK_D uint32_t tk_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
TK_D float tk_f16_to_f32(uint16_t h) { _Float16 x; memcpy(&x, &h, 2); return (float)x; }
TK_D uint16_t tk_f32_to_f16(float f) { _Float16 x = (_Float16)f; uint16_t h; memcpy(&h, &x, 2); return h; }
TK_D float tk_bf16_to_f32(uint16_t h) { return tk_bits_f32((uint32_t)h << 16); }
TK_D uint16_t tk_f32_to_bf16(float f)
{
    uint32_t u = tk_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}
TK_D float tk_round_f16(float f) { return tk_f16_to_f32(tk_f32_to_f16(f)); }
TK_D float tk_round_bf16(float f) { return tk_bf16_to_f32(tk_f32_to_bf16(f)); }
TK_D float tk_sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }
TK_D double tk_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
TK_D float tk_rsqrtf(float x) { return 1.0f / sqrtf(x); }
/* ex2.approx.ftz: subnormal results flushed to 0 */
TK_D float tk_exp2_ftzf(float x) { float r = exp2f(x); return r < 1.17549435e-38f ? 0.0f : r; }
TK_D double tk_rsqrt(double x) { return 1.0 / sqrt(x); }
#define TK_DEF_SAT(N, T, LO, HI1, HI) \
    TK_D T tk_sat_##N(double x) { return x != x ? (T)0 : x <= (double)(LO) ? (T)(LO) : x >= (HI1) ? (T)(HI) : (T)x; }
TK_DEF_SAT(i8, int8_t, INT8_MIN, 128.0, INT8_MAX)
TK_DEF_SAT(i16, int16_t, INT16_MIN, 32768.0, INT16_MAX)
TK_DEF_SAT(i32, int32_t, INT32_MIN, 2147483648.0, INT32_MAX)
TK_DEF_SAT(i64, int64_t, INT64_MIN, 9223372036854775808.0, INT64_MAX)
TK_DEF_SAT(u8, uint8_t, 0, 256.0, UINT8_MAX)
TK_DEF_SAT(u32, uint32_t, 0, 4294967296.0, UINT32_MAX)
#define TK_DEF_DIV(N, T, MIN) \
    TK_D T tk_div_##N(T a, T b) { return b == 0 ? (T)0 : (b == (T)-1 && a == MIN) ? a : (T)(a / b); } \
    TK_D T tk_mod_##N(T a, T b) { return (b == 0 || b == (T)-1) ? (T)0 : (T)(a % b); }
#define TK_DEF_UDIV(N, T) \
    TK_D T tk_div_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \
    TK_D T tk_mod_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }
TK_DEF_DIV(i8, int8_t, INT8_MIN)
TK_DEF_DIV(i16, int16_t, INT16_MIN)
TK_DEF_DIV(i32, int32_t, INT32_MIN)
TK_DEF_DIV(i64, int64_t, INT64_MIN)
TK_DEF_UDIV(u8, uint8_t)
TK_DEF_UDIV(u32, uint32_t)
TK_DEF_UDIV(bool, bool)
template <typename T> static T tk_shfl(T x, int o) { return __shfl_xor_sync(0xffffffffu, x, o); }

/* Calling a kernel with the driver's void *args[]. */
template <typename... A, size_t... I>
static void tk_emu_call_(void (*f)(A...), void **args, std::index_sequence<I...>)
{
    f(*(typename std::remove_reference<A>::type *)args[I]...);
}
template <typename... A> static void tk_emu_call(void (*f)(A...), void **args)
{
    tk_emu_call_(f, args, std::index_sequence_for<A...>{});
}
struct tk_emu_kernel { const char *name; void (*run)(void **args); };
extern const tk_emu_kernel tk_emu_kernels[];   /* the test's kernels, generated */
extern const int tk_emu_nkernels;
#include "mma.h"   /* tkc's tensor-core helpers */
#endif
