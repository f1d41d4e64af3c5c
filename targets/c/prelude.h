/* ---- tkc runtime prelude: shared by every header tkc generates ---- */
#ifndef TKC_RUNTIME_PRELUDE
#define TKC_RUNTIME_PRELUDE 1
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Status of every generated entry point; TK_OK is 0. */
typedef enum tk_status {
    TK_OK = 0,
    TK_ERR_ARG = 1,        /* NULL pointer, negative or too large size */
    TK_ERR_REQUIRE = 2,    /* a kernel's `require` failed */
    TK_ERR_NO_DEVICE = 3,  /* no CUDA driver or GPU */
    TK_ERR_DEVICE = 4,     /* a CUDA call failed */
    TK_ERR_NOMEM = 5
} tk_status;

/* 16-bit float storage types; convert with the helpers below. */
typedef uint16_t tk_f16;
typedef uint16_t tk_bf16;

static inline float tk_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t tk_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static inline float tk_bf16_to_f32(tk_bf16 h) { return tk_bits_f32((uint32_t)h << 16); }

static inline tk_bf16 tk_f32_to_bf16(float f)
{
    uint32_t u = tk_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)          /* NaN stays a quiet NaN */
        return (tk_bf16)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);              /* round to nearest even */
    return (tk_bf16)(u >> 16);
}

static inline float tk_f16_to_f32(tk_f16 h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f)
        return tk_bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0) {                                  /* zero or subnormal */
        float v = (float)m * 5.9604644775390625e-8f;   /* m * 2^-24 */
        return sign ? -v : v;
    }
    return tk_bits_f32(sign | ((e + 112u) << 23) | (m << 13));
}

static inline tk_f16 tk_f32_to_f16(float f)
{
    uint32_t u = tk_f32_bits(f), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (tk_f16)(sign | 0x7e00u);
    if (a >= 0x477ff000u)                          /* rounds to >= 65520: inf */
        return (tk_f16)(sign | 0x7c00u);
    if (a < 0x38800000u) {                         /* below 2^-14: subnormal */
        float v = tk_bits_f32(a) * 16777216.0f;    /* in units of 2^-24 */
        return (tk_f16)(sign | (uint32_t)lrintf(v));
    }
    uint32_t r = a + 0xfffu + ((a >> 13) & 1u) - (112u << 23);
    return (tk_f16)(sign | (r >> 13));
}

/* Round a value held in f32 to the nearest f16 / bf16 value. */
static inline float tk_round_f16(float f) { return tk_f16_to_f32(tk_f32_to_f16(f)); }
static inline float tk_round_bf16(float f) { return tk_bf16_to_f32(tk_f32_to_bf16(f)); }

static inline float tk_sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }
static inline double tk_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static inline float tk_rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double tk_rsqrt(double x) { return 1.0 / sqrt(x); }
static inline int64_t tk_cdiv(int64_t a, int64_t b) { return b ? (a + b - 1) / b : 0; }

/* The last error message of the calling thread.  The buffer and the
 * function are weak so that several headers, and several translation units
 * including them, share one. */
#if defined(__GNUC__) || defined(__clang__)
#define TK_WEAK __attribute__((weak))
#define TK_UNUSED __attribute__((unused))
#else
#define TK_WEAK
#define TK_UNUSED
#endif
TK_WEAK _Thread_local char tk_error_buf[512];
TK_WEAK const char *tk_last_error(void) { return tk_error_buf; }

TK_UNUSED static tk_status tk_fail(tk_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tk_error_buf, sizeof tk_error_buf, fmt, ap);
    va_end(ap);
    return st;
}

/* OpenMP only when compiled with -fopenmp (no unknown-pragma warnings). */
#ifdef _OPENMP
#define TK_PRAGMA(x) _Pragma(#x)
#else
#define TK_PRAGMA(x)
#endif
#define TK_SIMD TK_PRAGMA(omp simd)
#endif /* TKC_RUNTIME_PRELUDE */

/* DLPack: with TKC_DLPACK defined before a header is included, each kernel
 * NAME also has NAME_dl(const DLTensor *..., scalars), which checks every
 * tensor and calls NAME.  <dlpack/dlpack.h> (Debian: libdlpack-dev) is
 * included unless DLPack's types are declared already. */
#if defined(TKC_DLPACK) && !defined(TKC_DLPACK_HELPERS)
#define TKC_DLPACK_HELPERS 1
#if !defined(DLPACK_VERSION) && !defined(DLPACK_MAJOR_VERSION)
#include <dlpack/dlpack.h>
#endif
#include <stdint.h>

/* Tensor pn of kernel kn: on device type dev, of dtype dt (code, bits, 1
 * lane), ndim dims where shape[j] >= 0 is a fixed size and -1 - d run-time
 * dim d: dims[d] (-1 until a tensor sets it) must agree across tensors.
 * With strides NULL the tensor must be compact row-major (size-1 dims may
 * have any stride); otherwise its strides, in elements, are stored there.
 * *data gets the first element's address (data + byte_offset). */
static TK_UNUSED tk_status tk_dl_arg(const char *kn, const char *pn, const DLTensor *t, int dev,
                                     const char *dt, unsigned code, unsigned bits, int ndim,
                                     const int64_t *shape, int64_t *dims, const char *const *dn,
                                     int64_t *strides, void **data)
{
    if (!t)
        return tk_fail(TK_ERR_ARG, "%s: %s is NULL", kn, pn);
    if ((int)t->device.device_type != dev)
        return tk_fail(TK_ERR_ARG, "%s: %s is on DLPack device type %d, expected %d (%s)", kn, pn,
                       (int)t->device.device_type, dev, dev == 1 ? "kDLCPU" : "kDLCUDA");
    if (t->dtype.code != code || t->dtype.bits != bits || t->dtype.lanes != 1)
        return tk_fail(TK_ERR_ARG, "%s: %s has dtype code %u bits %u lanes %u, expected %s", kn, pn,
                       (unsigned)t->dtype.code, (unsigned)t->dtype.bits, (unsigned)t->dtype.lanes, dt);
    if (t->ndim != ndim)
        return tk_fail(TK_ERR_ARG, "%s: %s has %d dims, expected %d", kn, pn, (int)t->ndim, ndim);
    if (ndim > 0 && !t->shape)
        return tk_fail(TK_ERR_ARG, "%s: %s has no shape", kn, pn);
    bool empty = false;
    for (int j = 0; j < ndim; j++) {
        int64_t n = t->shape[j], want = shape[j] >= 0 ? shape[j] : dims[-1 - shape[j]];
        if (n < 0)
            return tk_fail(TK_ERR_ARG, "%s: dim %d of %s is negative (%lld)", kn, j, pn, (long long)n);
        if (want >= 0 && n != want && shape[j] >= 0)
            return tk_fail(TK_ERR_ARG, "%s: dim %d of %s is %lld, expected %lld", kn, j, pn,
                           (long long)n, (long long)want);
        if (want >= 0 && n != want)
            return tk_fail(TK_ERR_ARG, "%s: inconsistent dims: %s = %lld, but dim %d of %s is %lld", kn,
                           dn[-1 - shape[j]], (long long)want, j, pn, (long long)n);
        if (shape[j] < 0)
            dims[-1 - shape[j]] = n;
        empty |= n == 0;
    }
    uint64_t c = 1;                  /* wraps instead of overflowing; NAME rejects such sizes */
    for (int j = ndim - 1; j >= 0; j--) {
        int64_t s = t->strides ? t->strides[j] : (int64_t)c;
        if (strides)
            strides[j] = s;
        else if (s != (int64_t)c && t->shape[j] != 1 && !empty)
            return tk_fail(TK_ERR_ARG, "%s: %s is not compact row-major (stride %d is %lld, expected %lld): "
                           "copy it or declare it strided", kn, pn, j, (long long)s, (long long)c);
        c *= (uint64_t)t->shape[j];
    }
    if (bits >= 8 && ((uintptr_t)t->data + (uintptr_t)t->byte_offset) % (bits / 8))
        return tk_fail(TK_ERR_ARG, "%s: %s: data + byte_offset is not aligned to its %u-byte elements",
                       kn, pn, bits / 8);
    *data = t->data ? (char *)t->data + t->byte_offset : NULL;
    return TK_OK;
}
#endif /* TKC_DLPACK */
/* ---- end of prelude ---- */
