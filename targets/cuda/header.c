/*
 * targets/cuda/header.c — the CUDA target: device code through NVRTC into a
 * header that launches it.
 *
 * A header holds one module (every kernel's device code compiled together):
 * its PTX as a string and, when ptxas was found, a cubin for --arch.  The
 * PTX comes from NVRTC (emit.c's CUDA C) or, with TargetOptions.llvm
 * (--target=nvptx, --codegen=llvm), from LLVM (targets/nvptx); nothing else
 * in the header depends on which.  Per
 * kernel it has NAME__check (check.c) and
 *
 *   tk_status NAME_cuda(<the C entry point's params>, void *stream);
 *
 * taking device pointers.  A shared runtime block (guarded, so several
 * headers can meet in one translation unit) declares the few driver API
 * functions it needs — no cuda.h — and loads libcuda.so.1 (TKC_CUDA_LIBNAME)
 * with dlopen, or binds the linked functions when TKC_CUDA_LINKED is
 * defined.  A stream must belong to the current context.  The module
 * is loaded once per context under a spin lock (C11 atomics, no pthreads);
 * with no current context the primary context of device 0 is made current.
 * No launcher ever exits: errors come back as tk_status with a message.
 *
 * With TKC_CUDA_HOST_COPY defined before the include, each kernel also gets
 * NAME_cuda_host(<the C entry point's params>) taking host pointers: it
 * copies every tensor to the device inside guard bytes, runs NAME_cuda,
 * waits, checks the guards and copies stored tensors back.  It is slow; it
 * exists for tests and quick experiments.
 */
#include <string.h>

#include "cuda.h"
#include "../../lang/timing.h"
#include "../nvptx/nvptx.h"
#include "../../lower/gpu.h"

/* The integer helpers for the head (CxStyle.hp "tkh_"): the same definitions
 * the C target prints as tk_*, under tkh_ so both targets can share one header. */
static const char host_helpers[] =
    "#ifndef TKC_CUDA_HOST_HELPERS\n"
    "#define TKC_CUDA_HOST_HELPERS 1\n"
    "#define TKH_DEF_SAT(N, T, LO, HI1, HI) \\\n"
    "    static inline TK_UNUSED T tkh_sat_##N(double x) \\\n"
    "    { return x != x ? (T)0 : x <= (double)(LO) ? (T)(LO) : x >= (HI1) ? (T)(HI) : (T)x; }\n"
    "TKH_DEF_SAT(i8, int8_t, INT8_MIN, 128.0, INT8_MAX)\n"
    "TKH_DEF_SAT(i16, int16_t, INT16_MIN, 32768.0, INT16_MAX)\n"
    "TKH_DEF_SAT(i32, int32_t, INT32_MIN, 2147483648.0, INT32_MAX)\n"
    "TKH_DEF_SAT(i64, int64_t, INT64_MIN, 9223372036854775808.0, INT64_MAX)\n"
    "TKH_DEF_SAT(u8, uint8_t, 0, 256.0, UINT8_MAX)\n"
    "TKH_DEF_SAT(u32, uint32_t, 0, 4294967296.0, UINT32_MAX)\n"
    "#define TKH_DEF_DIV(N, T, MIN) \\\n"
    "    static inline TK_UNUSED T tkh_div_##N(T a, T b) \\\n"
    "    { return b == 0 ? (T)0 : (b == (T)-1 && a == MIN) ? a : (T)(a / b); } \\\n"
    "    static inline TK_UNUSED T tkh_mod_##N(T a, T b) \\\n"
    "    { return (b == 0 || b == (T)-1) ? (T)0 : (T)(a % b); }\n"
    "#define TKH_DEF_UDIV(N, T) \\\n"
    "    static inline TK_UNUSED T tkh_div_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); } \\\n"
    "    static inline TK_UNUSED T tkh_mod_##N(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }\n"
    "TKH_DEF_DIV(i8, int8_t, INT8_MIN)\n"
    "TKH_DEF_DIV(i16, int16_t, INT16_MIN)\n"
    "TKH_DEF_DIV(i32, int32_t, INT32_MIN)\n"
    "TKH_DEF_DIV(i64, int64_t, INT64_MIN)\n"
    "TKH_DEF_UDIV(u8, uint8_t)\n"
    "TKH_DEF_UDIV(u32, uint32_t)\n"
    "TKH_DEF_UDIV(bool, bool)\n"
    "#endif /* TKC_CUDA_HOST_HELPERS */\n";

static const char runtime[] =
    "#ifndef TKC_CUDA_RUNTIME\n"
    "#define TKC_CUDA_RUNTIME 1\n"
    "/* The CUDA driver API as far as tkc launchers use it, declared here so\n"
    " * that no CUDA header is needed. */\n"
    "#include <stdatomic.h>\n"
    "#ifndef TKC_CUDA_LINKED\n"
    "#include <dlfcn.h>\n"
    "#endif\n"
    "#ifndef TKC_CUDA_LIBNAME\n"
    "#define TKC_CUDA_LIBNAME \"libcuda.so.1\"   /* the driver library dlopen'ed */\n"
    "#endif\n"
    "typedef int tk_CUresult;\n"
    "typedef unsigned long long tk_CUdeviceptr;\n"
    "typedef struct tk_cumemcpy2d {   /* CUDA_MEMCPY2D */\n"
    "    size_t srcXInBytes, srcY;\n"
    "    int srcMemoryType;\n"
    "    const void *srcHost;\n"
    "    tk_CUdeviceptr srcDevice;\n"
    "    void *srcArray;\n"
    "    size_t srcPitch, dstXInBytes, dstY;\n"
    "    int dstMemoryType;\n"
    "    void *dstHost;\n"
    "    tk_CUdeviceptr dstDevice;\n"
    "    void *dstArray;\n"
    "    size_t dstPitch, WidthInBytes, Height;\n"
    "} tk_cumemcpy2d;\n"
    "typedef struct tk_cuda_api {\n"
    "    int state;     /* 0 not tried, 1 ready, -1 no driver, -2 no device */\n"
    "    tk_CUresult (*Init)(unsigned);\n"
    "    tk_CUresult (*DeviceGetCount)(int *);\n"
    "    tk_CUresult (*DeviceGet)(int *, int);\n"
    "    tk_CUresult (*CtxGetCurrent)(void **);\n"
    "    tk_CUresult (*CtxSetCurrent)(void *);\n"
    "    tk_CUresult (*DevicePrimaryCtxRetain)(void **, int);\n"
    "    tk_CUresult (*ModuleLoadData)(void **, const void *);\n"
    "    tk_CUresult (*ModuleGetFunction)(void **, void *, const char *);\n"
    "    tk_CUresult (*FuncSetAttribute)(void *, int, int);\n"
    "    tk_CUresult (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned,\n"
    "                                unsigned, unsigned, void *, void **, void **);\n"
    "    tk_CUresult (*GetErrorName)(tk_CUresult, const char **);\n"
    "    tk_CUresult (*MemAlloc)(tk_CUdeviceptr *, size_t);\n"
    "    tk_CUresult (*MemFree)(tk_CUdeviceptr);\n"
    "    tk_CUresult (*MemcpyHtoD)(tk_CUdeviceptr, const void *, size_t);\n"
    "    tk_CUresult (*MemcpyDtoH)(void *, tk_CUdeviceptr, size_t);\n"
    "    tk_CUresult (*MemsetD8)(tk_CUdeviceptr, unsigned char, size_t);\n"
    "    tk_CUresult (*CtxSynchronize)(void);\n"
    "    tk_CUresult (*StreamGetCtx)(void *, void **);\n"
    "    tk_CUresult (*TensorMapEncodeTiled)(void *, int, unsigned, void *, const uint64_t *, const uint64_t *,\n"
    "                                        const unsigned *, const unsigned *, int, int, int, int);\n"
    "    tk_CUresult (*DeviceGetAttribute)(int *, int, int);   /* or NULL */\n"
    "    tk_CUresult (*MemAllocAsync)(tk_CUdeviceptr *, size_t, void *);   /* the three or NULL */\n"
    "    tk_CUresult (*MemFreeAsync)(tk_CUdeviceptr, void *);\n"
    "    tk_CUresult (*Memcpy2DAsync)(const tk_cumemcpy2d *, void *);\n"
    "    tk_CUresult (*LaunchKernelEx)(const void *, void *, void **, void **);   /* or NULL */\n"
    "} tk_cuda_api;\n"
    "#define TK_CUDA_MAXCTX 8\n"
    "/* One header's module: loaded once per context, functions cached. */\n"
    "typedef struct tk_cuda_module {\n"
    "    const char *ptx;\n"
    "    const unsigned char *cubin;      /* for the --arch it was built for, or NULL */\n"
    "    size_t ncubin;\n"
    "    int nk;\n"
    "    const char *const *names;\n"
    "    const int64_t *smem;             /* dynamic shared memory per kernel */\n"
    "    void *ctx[TK_CUDA_MAXCTX], *mod[TK_CUDA_MAXCTX];\n"
    "    void **fn;                       /* [TK_CUDA_MAXCTX][nk] */\n"
    "} tk_cuda_module;\n"
    "static tk_cuda_api tk_cu;\n"
    "static atomic_flag tk_cu_lock = ATOMIC_FLAG_INIT;\n"
    "#ifdef TKC_CUDA_LINKED\n"
    "#ifndef CUDA_VERSION   /* without cuda.h: the exported names and our types */\n"
    "tk_CUresult cuInit(unsigned);\n"
    "tk_CUresult cuDeviceGetCount(int *);\n"
    "tk_CUresult cuDeviceGet(int *, int);\n"
    "tk_CUresult cuCtxGetCurrent(void **);\n"
    "tk_CUresult cuCtxSetCurrent(void *);\n"
    "tk_CUresult cuDevicePrimaryCtxRetain(void **, int);\n"
    "tk_CUresult cuModuleLoadData(void **, const void *);\n"
    "tk_CUresult cuModuleGetFunction(void **, void *, const char *);\n"
    "tk_CUresult cuFuncSetAttribute(void *, int, int);\n"
    "tk_CUresult cuLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,\n"
    "                           unsigned, void *, void **, void **);\n"
    "tk_CUresult cuGetErrorName(tk_CUresult, const char **);\n"
    "tk_CUresult cuMemAlloc_v2(tk_CUdeviceptr *, size_t);\n"
    "tk_CUresult cuMemFree_v2(tk_CUdeviceptr);\n"
    "tk_CUresult cuMemcpyHtoD_v2(tk_CUdeviceptr, const void *, size_t);\n"
    "tk_CUresult cuMemcpyDtoH_v2(void *, tk_CUdeviceptr, size_t);\n"
    "tk_CUresult cuMemsetD8_v2(tk_CUdeviceptr, unsigned char, size_t);\n"
    "tk_CUresult cuCtxSynchronize(void);\n"
    "tk_CUresult cuStreamGetCtx(void *, void **);\n"
    "tk_CUresult cuTensorMapEncodeTiled(void *, int, unsigned, void *, const uint64_t *, const uint64_t *,\n"
    "                                   const unsigned *, const unsigned *, int, int, int, int);\n"
    "tk_CUresult cuDeviceGetAttribute(int *, int, int);\n"
    "tk_CUresult cuMemAllocAsync(tk_CUdeviceptr *, size_t, void *);\n"
    "tk_CUresult cuMemFreeAsync(tk_CUdeviceptr, void *);\n"
    "tk_CUresult cuMemcpy2DAsync_v2(const tk_cumemcpy2d *, void *);\n"
    "tk_CUresult cuLaunchKernelEx(const void *, void *, void **, void **);\n"
    "#endif\n"
    "#define TK_CU_SYM(f, s) do { void (*tk_p_)(void) = (void (*)(void))s; \\\n"
    "                             memcpy(&tk_cu.f, &tk_p_, sizeof tk_p_); } while (0)\n"
    "#else\n"
    "#define TK_CU_SYM(f, s) do { void *tk_p_ = dlsym(tk_h, #s); if (!tk_p_) return -1; \\\n"
    "                             memcpy(&tk_cu.f, &tk_p_, sizeof tk_p_); } while (0)\n"
    "#endif\n"
    "static TK_UNUSED int tk_cuda_bind(void)\n"
    "{\n"
    "#ifndef TKC_CUDA_LINKED\n"
    "    void *tk_h = dlopen(TKC_CUDA_LIBNAME, RTLD_NOW | RTLD_LOCAL);\n"
    "    if (!tk_h)\n"
    "        return -1;\n"
    "#endif\n"
    "    TK_CU_SYM(Init, cuInit);\n"
    "    TK_CU_SYM(DeviceGetCount, cuDeviceGetCount);\n"
    "    TK_CU_SYM(DeviceGet, cuDeviceGet);\n"
    "    TK_CU_SYM(CtxGetCurrent, cuCtxGetCurrent);\n"
    "    TK_CU_SYM(CtxSetCurrent, cuCtxSetCurrent);\n"
    "    TK_CU_SYM(DevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain);\n"
    "    TK_CU_SYM(ModuleLoadData, cuModuleLoadData);\n"
    "    TK_CU_SYM(ModuleGetFunction, cuModuleGetFunction);\n"
    "    TK_CU_SYM(FuncSetAttribute, cuFuncSetAttribute);\n"
    "    TK_CU_SYM(LaunchKernel, cuLaunchKernel);\n"
    "    TK_CU_SYM(GetErrorName, cuGetErrorName);\n"
    "    TK_CU_SYM(MemAlloc, cuMemAlloc_v2);\n"
    "    TK_CU_SYM(MemFree, cuMemFree_v2);\n"
    "    TK_CU_SYM(MemcpyHtoD, cuMemcpyHtoD_v2);\n"
    "    TK_CU_SYM(MemcpyDtoH, cuMemcpyDtoH_v2);\n"
    "    TK_CU_SYM(MemsetD8, cuMemsetD8_v2);\n"
    "    TK_CU_SYM(CtxSynchronize, cuCtxSynchronize);\n"
    "    TK_CU_SYM(StreamGetCtx, cuStreamGetCtx);\n"
    "#ifdef TKC_CUDA_LINKED\n"
    "    TK_CU_SYM(TensorMapEncodeTiled, cuTensorMapEncodeTiled);\n"
    "    TK_CU_SYM(DeviceGetAttribute, cuDeviceGetAttribute);\n"
    "    TK_CU_SYM(MemAllocAsync, cuMemAllocAsync);\n"
    "    TK_CU_SYM(MemFreeAsync, cuMemFreeAsync);\n"
    "    TK_CU_SYM(Memcpy2DAsync, cuMemcpy2DAsync_v2);\n"
    "    TK_CU_SYM(LaunchKernelEx, cuLaunchKernelEx);\n"
    "#else   /* CUDA 12 on: without it kernels take their cp.async path */\n"
    "    void *tk_tm_ = dlsym(tk_h, \"cuTensorMapEncodeTiled\");\n"
    "    if (tk_tm_)\n"
    "        memcpy(&tk_cu.TensorMapEncodeTiled, &tk_tm_, sizeof tk_tm_);\n"
    "    void *tk_da_ = dlsym(tk_h, \"cuDeviceGetAttribute\");   /* persistent grids: else a full grid */\n"
    "    if (tk_da_)\n"
    "        memcpy(&tk_cu.DeviceGetAttribute, &tk_da_, sizeof tk_da_);\n"
    "    void *tk_ma_ = dlsym(tk_h, \"cuMemAllocAsync\"), *tk_mf_ = dlsym(tk_h, \"cuMemFreeAsync\");\n"
    "    void *tk_mc_ = dlsym(tk_h, \"cuMemcpy2DAsync_v2\");   /* repacking (tk_cuda_repack) */\n"
    "    if (tk_ma_ && tk_mf_ && tk_mc_) {\n"
    "        memcpy(&tk_cu.MemAllocAsync, &tk_ma_, sizeof tk_ma_);\n"
    "        memcpy(&tk_cu.MemFreeAsync, &tk_mf_, sizeof tk_mf_);\n"
    "        memcpy(&tk_cu.Memcpy2DAsync, &tk_mc_, sizeof tk_mc_);\n"
    "    }\n"
    "    void *tk_lx_ = dlsym(tk_h, \"cuLaunchKernelEx\");   /* clusters: else blocks one by one */\n"
    "    if (tk_lx_)\n"
    "        memcpy(&tk_cu.LaunchKernelEx, &tk_lx_, sizeof tk_lx_);\n"
    "#endif\n"
    "    return 1;\n"
    "}\n"
    "/* A CUtensorMap (TMA) of a strided rank-n (2..4) tensor d[0] x .. x d[n-1]\n"
    " * (outermost first, strides st[] in elements, d[n-1] contiguous: st[n-1] == 1)\n"
    " * of es-byte elements (2: 16-bit, 4: f32, 1: i8) at base, boxes of box1\n"
    " * elements of d[n-2] by box0 of d[n-1] (1 of the others), swizzled in rows of\n"
    " * es box0 bytes; 1 when built, 0 (a zeroed map) when TMA cannot take the\n"
    " * tensor: a stride or the base not a multiple of 16 bytes, a size out of its\n"
    " * range, or the driver refuses. */\n"
    "typedef struct tk_cutmap { _Alignas(64) uint64_t x[16]; } tk_cutmap;\n"
    "#define TK_TMAP_TF32 256u   /* or'ed into es (4): data type TFLOAT32, TMA rounds f32 to tf32 */\n"
    "static TK_UNUSED int tk_cuda_tmapn(tk_cutmap *m, const void *base, int n, const int64_t *d, const int64_t *st,\n"
    "                                   unsigned box0, unsigned box1, unsigned es)\n"
    "{\n"
    "    uint64_t dim[4], pitch[3];\n"
    "    unsigned box[4], step[4] = { 1, 1, 1, 1 }, tf32 = es & TK_TMAP_TF32;\n"
    "    es &= ~TK_TMAP_TF32;\n"
    "    memset(m, 0, sizeof *m);\n"
    "    if (!tk_cu.TensorMapEncodeTiled || ((uintptr_t)base & 15) || n < 2 || n > 4 || st[n - 1] != 1)\n"
    "        return 0;\n"
    "    for (int i = 0; i < n; i++) {          /* i: the map's dim, innermost first */\n"
    "        int j = n - 1 - i;\n"
    "        if (d[j] <= 0 || d[j] > INT64_C(4294967295))\n"
    "            return 0;\n"
    "        if (i > 0 && (st[j] <= 0 || st[j] > (INT64_C(1) << 36) || st[j] * (int64_t)es % 16))\n"
    "            return 0;\n"
    "        dim[i] = (uint64_t)d[j];\n"
    "        if (i > 0)\n"
    "            pitch[i - 1] = (uint64_t)st[j] * es;\n"
    "        box[i] = i == 0 ? box0 : i == 1 ? box1 : 1;\n"
    "    }\n"
    "    int swz = box0 * es == 128 ? 3 : box0 * es == 64 ? 2 : 1;   /* CU_TENSOR_MAP_SWIZZLE_128B, _64B, _32B */\n"
    "    /* CU_TENSOR_MAP_DATA_TYPE_UINT16 (FLOAT32, TFLOAT32, UINT8), no interleave, L2 promotion 128B, zeros outside */\n"
    "    int dt = es == 4 ? (tf32 ? 11 : 7) : es == 1 ? 0 : 1;\n"
    "    return tk_cu.TensorMapEncodeTiled(m, dt, (unsigned)n, (void *)base, dim, pitch, box, step, 0, swz, TK_TMAP_L2, 0) == 0;\n"
    "}\n"
    "/* The same of a rows x cols matrix whose rows are rp bytes apart. */\n"
    "static TK_UNUSED int tk_cuda_tmapp(tk_cutmap *m, const void *base, int64_t rows, int64_t cols, size_t rp,\n"
    "                                   unsigned box0, unsigned box1, unsigned es)\n"
    "{\n"
    "    unsigned eb = es & ~TK_TMAP_TF32;     /* the element bytes */\n"
    "    int64_t d[2] = { rows, cols }, st[2] = { (int64_t)(rp / eb), 1 };\n"
    "    if (rp % eb || rp / eb > (size_t)INT64_MAX)\n"
    "        st[0] = 0;                       /* refused */\n"
    "    return tk_cuda_tmapn(m, base, 2, d, st, box0, box1, es);\n"
    "}\n"
    "/* ... of a contiguous one: rows cols * es bytes apart */\n"
    "static TK_UNUSED int tk_cuda_tmap(tk_cutmap *m, const void *base, int64_t rows, int64_t cols,\n"
    "                                  unsigned box0, unsigned box1, unsigned es)\n"
    "{\n"
    "    int64_t d[2] = { rows, cols }, st[2] = { cols, 1 };\n"
    "    return tk_cuda_tmapn(m, base, 2, d, st, box0, box1, es);\n"
    "}\n"
    "/* A kernel of pairs of blocks (lower/gpu_mma.c, \"pairs of blocks\"): n\n"
    " * blocks rounded up to even in clusters of two (cuLaunchKernelEx's config\n"
    " * and cluster-dimension attribute as CUDA 12's cuda.h lays them out), or\n"
    " * without cuLaunchKernelEx each block on its own (it then has no partner). */\n"
    "static TK_UNUSED tk_CUresult tk_cuda_launch2(void *fn, unsigned n, unsigned threads, unsigned smem,\n"
    "                                             void *stream, void **args)\n"
    "{\n"
    "    if (!tk_cu.LaunchKernelEx)\n"
    "        return tk_cu.LaunchKernel(fn, n, 1, 1, threads, 1, 1, smem, stream, args, NULL);\n"
    "    struct { int id, pad; union { char b[64]; unsigned dim[3]; } v; } at;\n"
    "    memset(&at, 0, sizeof at);\n"
    "    at.id = 4;   /* CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION */\n"
    "    at.v.dim[0] = 2, at.v.dim[1] = at.v.dim[2] = 1;\n"
    "    struct { unsigned grid[3], block[3], smem; void *stream, *attrs; unsigned nattrs; } cfg = {\n"
    "        { n + (n & 1), 1, 1 }, { threads, 1, 1 }, smem, stream, &at, 1 };\n"
    "    return tk_cu.LaunchKernelEx(&cfg, fn, args, NULL);\n"
    "}\n"
    "/* The blocks of a persistent kernel's grid: one per multiprocessor of\n"
    " * device 0 (the launcher's), at most n; n when unknown. */\n"
    "static TK_UNUSED unsigned tk_cuda_persist(unsigned n)\n"
    "{\n"
    "    int dev = 0, sms = 0;\n"
    "    if (!tk_cu.DeviceGetAttribute || tk_cu.DeviceGet(&dev, 0) != 0\n"
    "        || tk_cu.DeviceGetAttribute(&sms, 16, dev) != 0 || sms <= 0)   /* MULTIPROCESSOR_COUNT */\n"
    "        return n;\n"
    "    return (unsigned)sms < n ? (unsigned)sms : n;\n"
    "}\n"
    "/* Repacking (lower/gpu_stage.c): a tensor that got no map copied into a\n"
    " * buffer with 16-byte-aligned rows, its maps built on that.  Off with\n"
    " * TKC_REPACK=0 or TKC_TMA=0 in the environment; TKC_REPACK=1: every call.\n"
    " * Else where the dot's work (flop: 2 M N K) is at least TK_REPACK_INTENSITY\n"
    " * times the bytes the copies move (bytes: read and written, a stored tensor\n"
    " * twice), or, when the work is not known (flop 0), for a grid of np >= one\n"
    " * program per multiprocessor: on less the copies cost more than\n"
    " * NAME__nomap's cp.async path loses. */\n"
    "#ifndef TK_REPACK_INTENSITY   /* H100, bf16 matmuls repacked (A, B): faster than NAME__nomap\n"
    "                                * at every shape measured, from 0.5 (one row: 1 x 4095^2, 0.099\n"
    "                                * against 0.346 ms, doc/bench/h100-s8-mm-3.log) and 31 (64 x\n"
    "                                * 4095^2: 21.5 against 6.0 TFLOP/s) to 1024 (4095^2 x 64: 27.7 /\n"
    "                                * 26.4; h100-s8-mm-2.log): so every matmul (2 M N K over at\n"
    "                                * least 4 N K bytes) */\n"
    "#define TK_REPACK_INTENSITY 0.25\n"
    "#endif\n"
    "static TK_UNUSED int tk_cuda_repack_on(int64_t np, double flop, double bytes)\n"
    "{\n"
    "    const char *e = getenv(\"TKC_REPACK\"), *t = getenv(\"TKC_TMA\");\n"
    "    if (!tk_cu.MemAllocAsync || (e && !strcmp(e, \"0\")) || (t && !strcmp(t, \"0\")))\n"
    "        return 0;\n"
    "    if (e && !strcmp(e, \"1\"))\n"
    "        return 1;\n"
    "    if (flop > 0)\n"
    "        return flop >= TK_REPACK_INTENSITY * bytes;\n"
    "    unsigned sms = tk_cuda_persist(2147483647u);   /* 2^31 - 1 when unknown */\n"
    "    return sms < 2147483647u && np >= (int64_t)sms;\n"
    "}\n"
    "/* rows of width bytes from src (a row every spitch bytes) to dst (every\n"
    " * dpitch), device to device, on stream. */\n"
    "static TK_UNUSED tk_CUresult tk_cuda_copy2d(tk_CUdeviceptr dst, size_t dpitch, tk_CUdeviceptr src, size_t spitch,\n"
    "                                            size_t width, size_t rows, void *stream)\n"
    "{\n"
    "    tk_cumemcpy2d c;\n"
    "    memset(&c, 0, sizeof c);\n"
    "    c.srcMemoryType = c.dstMemoryType = 2;   /* CU_MEMORYTYPE_DEVICE */\n"
    "    c.srcDevice = src;\n"
    "    c.srcPitch = spitch;\n"
    "    c.dstDevice = dst;\n"
    "    c.dstPitch = dpitch;\n"
    "    c.WidthInBytes = width;\n"
    "    c.Height = rows;\n"
    "    return tk_cu.Memcpy2DAsync(&c, stream);\n"
    "}\n"
    "/* The rows x cols tensor of es-byte elements at base (rows packed) copied on\n"
    " * stream into a new buffer *buf whose rows start every *rp bytes (a multiple\n"
    " * of 16); 0 when done (else *buf is 0). */\n"
    "static TK_UNUSED tk_CUresult tk_cuda_repack(tk_CUdeviceptr *buf, size_t *rp, const void *base, int64_t rows,\n"
    "                                            int64_t cols, unsigned es, void *stream)\n"
    "{\n"
    "    *buf = 0;\n"
    "    *rp = ((size_t)(cols > 0 ? cols : 0) * es + 15) & ~(size_t)15;\n"
    "    if (rows <= 0 || cols <= 0)\n"
    "        return 1;   /* CUDA_ERROR_INVALID_VALUE */\n"
    "    tk_CUresult r = tk_cu.MemAllocAsync(buf, *rp * (size_t)rows, stream);\n"
    "    if (r != 0) {\n"
    "        *buf = 0;\n"
    "        return r;\n"
    "    }\n"
    "    size_t w = (size_t)cols * es;\n"
    "    if ((r = tk_cuda_copy2d(*buf, *rp, (tk_CUdeviceptr)(uintptr_t)base, w, w, (size_t)rows, stream)) != 0) {\n"
    "        tk_cu.MemFreeAsync(*buf, stream);\n"
    "        *buf = 0;\n"
    "    }\n"
    "    return r;\n"
    "}\n"
    "/* The copy at buf (if any) back into the tensor at base (NULL: not stored by\n"
    " * the kernel), then freed; all on stream. */\n"
    "static TK_UNUSED tk_CUresult tk_cuda_unpack(tk_CUdeviceptr buf, size_t rp, void *base, int64_t rows,\n"
    "                                            int64_t cols, unsigned es, void *stream)\n"
    "{\n"
    "    tk_CUresult r = 0;\n"
    "    if (!buf)\n"
    "        return 0;\n"
    "    if (base) {\n"
    "        size_t w = (size_t)cols * es;\n"
    "        r = tk_cuda_copy2d((tk_CUdeviceptr)(uintptr_t)base, w, buf, rp, w, (size_t)rows, stream);\n"
    "    }\n"
    "    tk_CUresult f = tk_cu.MemFreeAsync(buf, stream);\n"
    "    return r ? r : f;\n"
    "}\n"
    "static TK_UNUSED tk_status tk_cuda_error(const char *kernel, const char *call, tk_CUresult r)\n"
    "{\n"
    "    const char *name = NULL;\n"
    "    if (tk_cu.GetErrorName)\n"
    "        tk_cu.GetErrorName(r, &name);\n"
    "    return tk_fail(TK_ERR_DEVICE, \"%s: %s failed: %s\", kernel, call, name ? name : \"unknown CUDA error\");\n"
    "}\n"
    "/* The driver, a device and a current context; under the lock. */\n"
    "static TK_UNUSED tk_status tk_cuda_context(const char *kernel, void **ctx)\n"
    "{\n"
    "    int n = 0, dev = 0;\n"
    "    tk_CUresult r;\n"
    "    if (tk_cu.state == 0) {\n"
    "        tk_cu.state = tk_cuda_bind();\n"
    "        if (tk_cu.state == 1 && (tk_cu.Init(0) != 0 || tk_cu.DeviceGetCount(&n) != 0 || n == 0))\n"
    "            tk_cu.state = -2;\n"
    "    }\n"
    "    if (tk_cu.state == -1)\n"
    "        return tk_fail(TK_ERR_NO_DEVICE, \"%s: no CUDA driver (\" TKC_CUDA_LIBNAME \" not found)\", kernel);\n"
    "    if (tk_cu.state != 1)\n"
    "        return tk_fail(TK_ERR_NO_DEVICE, \"%s: no CUDA device\", kernel);\n"
    "    if ((r = tk_cu.CtxGetCurrent(ctx)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuCtxGetCurrent\", r);\n"
    "    if (*ctx)\n"
    "        return TK_OK;\n"
    "    if ((r = tk_cu.DeviceGet(&dev, 0)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuDeviceGet\", r);\n"
    "    if ((r = tk_cu.DevicePrimaryCtxRetain(ctx, dev)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuDevicePrimaryCtxRetain\", r);\n"
    "    if ((r = tk_cu.CtxSetCurrent(*ctx)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuCtxSetCurrent\", r);\n"
    "    return TK_OK;\n"
    "}\n"
    "/* The module's slot for the current context, loading it there once. */\n"
    "static TK_UNUSED tk_status tk_cuda_slot(tk_cuda_module *m, const char *kernel, void *ctx, int *slot)\n"
    "{\n"
    "    for (int i = 0; i < TK_CUDA_MAXCTX; i++) {\n"
    "        if (m->ctx[i] == ctx) {\n"
    "            *slot = i;\n"
    "            return TK_OK;\n"
    "        }\n"
    "        if (m->ctx[i])\n"
    "            continue;\n"
    "        void *mod = NULL;\n"
    "        tk_CUresult r = 1;\n"
    "        if (m->cubin)\n"
    "            r = tk_cu.ModuleLoadData(&mod, m->cubin);\n"
    "        if (r != 0 && (r = tk_cu.ModuleLoadData(&mod, m->ptx)) != 0)\n"
    "            return tk_cuda_error(kernel, \"cuModuleLoadData\", r);\n"
    "        m->ctx[i] = ctx;\n"
    "        m->mod[i] = mod;\n"
    "        *slot = i;\n"
    "        return TK_OK;\n"
    "    }\n"
    "    return tk_fail(TK_ERR_DEVICE, \"%s: more than %d CUDA contexts\", kernel, TK_CUDA_MAXCTX);\n"
    "}\n"
    "/* Kernel k of module m in the current context. */\n"
    "static TK_UNUSED tk_status tk_cuda_function(tk_cuda_module *m, int k, void **fn)\n"
    "{\n"
    "    const char *kernel = m->names[k];\n"
    "    void *ctx = NULL;\n"
    "    int slot = 0;\n"
    "    while (atomic_flag_test_and_set_explicit(&tk_cu_lock, memory_order_acquire))\n"
    "        ;\n"
    "    tk_status st = tk_cuda_context(kernel, &ctx);\n"
    "    if (st == TK_OK)\n"
    "        st = tk_cuda_slot(m, kernel, ctx, &slot);\n"
    "    if (st == TK_OK && !(*fn = m->fn[slot * m->nk + k])) {\n"
    "        tk_CUresult r = tk_cu.ModuleGetFunction(fn, m->mod[slot], kernel);\n"
    "        if (r == 0 && m->smem[k] > 48 * 1024)   /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */\n"
    "            r = tk_cu.FuncSetAttribute(*fn, 8, (int)m->smem[k]);\n"
    "        if (r == 0)\n"
    "            m->fn[slot * m->nk + k] = *fn;\n"
    "        else\n"
    "            st = tk_cuda_error(kernel, \"loading the kernel\", r);\n"
    "    }\n"
    "    atomic_flag_clear_explicit(&tk_cu_lock, memory_order_release);\n"
    "    return st;\n"
    "}\n"
    "/* A stream must belong to the current context, where the module and the\n"
    " * tensors are (0, 1 and 2 are the default, legacy and per-thread streams). */\n"
    "static TK_UNUSED tk_status tk_cuda_stream(const char *kernel, void *stream)\n"
    "{\n"
    "    void *ctx = NULL, *sctx = NULL;\n"
    "    tk_CUresult r;\n"
    "    if ((uintptr_t)stream <= 2)\n"
    "        return TK_OK;\n"
    "    if ((r = tk_cu.CtxGetCurrent(&ctx)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuCtxGetCurrent\", r);\n"
    "    if ((r = tk_cu.StreamGetCtx(stream, &sctx)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuStreamGetCtx (is the stream valid?)\", r);\n"
    "    if (sctx != ctx)\n"
    "        return tk_fail(TK_ERR_DEVICE, \"%s: the stream belongs to another CUDA context than the current one\", kernel);\n"
    "    return TK_OK;\n"
    "}\n"
    "#ifdef TKC_CUDA_HOST_COPY\n"
    "#ifndef TKC_CUDA_HOST_GUARD\n"
    "#define TKC_CUDA_HOST_GUARD 256   /* bytes around each device copy, checked after */\n"
    "#endif\n"
    "/* The device copy keeps the host pointer's offset from 16 bytes (off), so\n"
    " * that a tensor the caller passes unaligned is unaligned on the device too\n"
    " * (the NAME__nomap kernels). */\n"
    "typedef struct tk_cuda_buf { tk_CUdeviceptr base; size_t bytes, off; } tk_cuda_buf;\n"
    "static TK_UNUSED tk_status tk_cuda_copy_in(const char *kernel, tk_cuda_buf *b, const void *host,\n"
    "                                           size_t bytes, tk_CUdeviceptr *dev)\n"
    "{\n"
    "    const size_t g = TKC_CUDA_HOST_GUARD;\n"
    "    tk_CUresult r;\n"
    "    b->bytes = bytes;\n"
    "    b->off = (uintptr_t)host & 15;\n"
    "    *dev = 0;\n"
    "    if (bytes == 0)\n"
    "        return TK_OK;\n"
    "    if ((r = tk_cu.MemAlloc(&b->base, bytes + 2 * g + 16)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuMemAlloc\", r);\n"
    "    if ((r = tk_cu.MemsetD8(b->base, 0xA5, bytes + 2 * g + 16)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuMemsetD8\", r);\n"
    "    if ((r = tk_cu.MemcpyHtoD(b->base + g + b->off, host, bytes)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuMemcpyHtoD\", r);\n"
    "    *dev = b->base + g + b->off;\n"
    "    return TK_OK;\n"
    "}\n"
    "/* Guards intact?  Then copy back to host (NULL: an input). */\n"
    "static TK_UNUSED tk_status tk_cuda_copy_out(const char *kernel, const char *what, tk_cuda_buf *b,\n"
    "                                            void *host)\n"
    "{\n"
    "    const size_t g = TKC_CUDA_HOST_GUARD;\n"
    "    unsigned char guard[2 * TKC_CUDA_HOST_GUARD + 1];\n"
    "    tk_CUresult r;\n"
    "    if (b->bytes == 0)\n"
    "        return TK_OK;\n"
    "    if (g && ((r = tk_cu.MemcpyDtoH(guard, b->base + b->off, g)) != 0\n"
    "              || (r = tk_cu.MemcpyDtoH(guard + g, b->base + g + b->off + b->bytes, g)) != 0))\n"
    "        return tk_cuda_error(kernel, \"cuMemcpyDtoH\", r);\n"
    "    for (size_t i = 0; i < 2 * g; i++)\n"
    "        if (guard[i] != 0xA5)\n"
    "            return tk_fail(TK_ERR_DEVICE, \"%s: the kernel wrote outside %s\", kernel, what);\n"
    "    if (host && (r = tk_cu.MemcpyDtoH(host, b->base + g + b->off, b->bytes)) != 0)\n"
    "        return tk_cuda_error(kernel, \"cuMemcpyDtoH\", r);\n"
    "    return TK_OK;\n"
    "}\n"
    "static TK_UNUSED void tk_cuda_free_all(tk_cuda_buf *b, int n)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        if (b[i].base)\n"
    "            tk_cu.MemFree(b[i].base);\n"
    "}\n"
    "#endif /* TKC_CUDA_HOST_COPY */\n"
    "#endif /* TKC_CUDA_RUNTIME */\n";

typedef struct HE {
    Arena *a;
    Buf *o;
    const char *mod;          /* the module's C name */
} HE;

/* A C string literal of s, one source line per line of s. */
static void string_lit(Buf *o, const char *s)
{
    buf_puts(o, "    \"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n') {
            buf_puts(o, s[1] ? "\\n\"\n    \"" : "\\n");
        } else if (c == '"' || c == '\\') {
            buf_putc(o, '\\');
            buf_putc(o, (char)c);
        } else if (c == '\t') {
            buf_puts(o, "\\t");
        } else if (c < 32 || c >= 127) {
            buf_printf(o, "\\%03o", c);
        } else {
            if (c == '?' && s[1] == '?')   /* no trigraphs */
                buf_puts(o, "?\"\"");
            else
                buf_putc(o, (char)c);
        }
    }
    buf_puts(o, "\"");
}

static void emit_module(HE *h, int n, const CudaKernel *ck, const CudaBinary *bin)
{
    Buf *o = h->o;
    buf_printf(o, "static const char %s_ptx[] =\n", h->mod);
    string_lit(o, bin->ptx);
    buf_puts(o, ";\n");
    if (bin->cubin) {
        buf_printf(o, "static const _Alignas(16) unsigned char %s_cubin[%zu] = {", h->mod, bin->ncubin);
        for (size_t i = 0; i < bin->ncubin; i++)
            buf_printf(o, "%s%u,", i % 24 ? "" : "\n    ", bin->cubin[i]);
        buf_puts(o, "\n};\n");
    }
    buf_printf(o, "static const char *const %s_names[%d] = {", h->mod, n);
    for (int i = 0; i < n; i++)
        buf_printf(o, " \"%s\",", ck[i].name);
    buf_printf(o, " };\nstatic const int64_t %s_smem[%d] = {", h->mod, n);
    for (int i = 0; i < n; i++)
        buf_printf(o, " %lld,", (long long)ck[i].smem);
    buf_printf(o, " };\nstatic void *%s_fn[TK_CUDA_MAXCTX * %d];\n", h->mod, n);
    buf_printf(o, "static TK_UNUSED tk_cuda_module %s = { %s_ptx, %s%s, %zu, %d, %s_names, %s_smem, "
               "{ 0 }, { 0 }, %s_fn };\n\n", h->mod, h->mod, bin->cubin ? h->mod : "NULL",
               bin->cubin ? "_cubin" : "", bin->cubin ? bin->ncubin : (size_t)0, n, h->mod, h->mod,
               h->mod);
}

/* The kernel's PP_TMAP params (lower/gpu_tma.c) and PP_TMA_OK: maps built
 * before tk_args (whose list is open: ", &map..., &tk_tma" follows). */
static void emit_tmaps(HE *h, TirKernel *k, const CudaKernel *ck, const HostNames *hn)
{
    Buf *o = h->o;
    if (!ck->f)
        return;
    for (int i = 0; i < ck->f->params.n; i++) {
        const PirParam *q = &ck->f->params.v[i];
        if (q->kind == PP_TMAP)
            buf_printf(o, ", (void *)&tk_tm%d", i);
        else if (q->kind == PP_TMA_OK)
            buf_puts(o, ", (void *)&tk_tma");
    }
}

/* Whether the kernel's maps of tensor param t are all repackable (PirParam.repack),
 * and there is one. */
static bool repack_tensor(const CudaKernel *ck, int t)
{
    bool any = false;
    for (int i = 0; ck->f && i < ck->f->params.n; i++) {
        const PirParam *q = &ck->f->params.v[i];
        if (q->kind == PP_TMAP && q->index == t) {
            if (!q->repack)
                return false;
            any = true;
        }
    }
    return any;
}

static void emit_repack(HE *h, TirKernel *k, const CudaKernel *ck, const HostNames *hn);

/* The es argument of PP_TMAP q's tk_cuda_tmap* call: its element bytes,
 * with TK_TMAP_TF32 for a map that rounds to tf32 (PirParam.tf32). */
static const char *tmap_es(HE *h, const PirParam *q)
{
    int es = pir_ty_bits[q->ty] / 8;
    return q->tf32 ? arena_printf(h->a, "%d | TK_TMAP_TF32", es) : arena_printf(h->a, "%d", es);
}

static void emit_tmap_build(HE *h, TirKernel *k, const CudaKernel *ck, const HostNames *hn)
{
    Buf *o = h->o;
    bool any = false, rp = false;
    for (int i = 0; ck->f && i < ck->f->params.n; i++)
        rp |= ck->f->params.v[i].kind == PP_TMAP && repack_tensor(ck, ck->f->params.v[i].index);
    /* tk_rpon: every map of a tensor that cannot be repacked built */
    const char *nr = rp ? "tk_rpon &= " : "";
    for (int i = 0; ck->f && i < ck->f->params.n; i++) {
        const PirParam *q = &ck->f->params.v[i];
        if (q->kind != PP_TMAP)
            continue;
        const char *r = args_dim(h->a, k, hn, q->index, 0), *c = args_dim(h->a, k, hn, q->index, 1);
        if (!any)
            buf_printf(o, "    int32_t tk_tma = 1;\n%s", rp ? "    int tk_rpon = 1;\n" : "");
        any = true;
        buf_printf(o, "    tk_cutmap tk_tm%d;\n", i);
        if (q->tmrank == 4) {           /* a strided rank-4 tensor (gpu_tma_match4) */
            const char **sn = hn->sname[q->index];
            buf_puts(o, "    {\n        int64_t tk_d[4] = { ");
            for (int j = 0; j < 4; j++) {
                const char *dj = args_dim(h->a, k, hn, q->index, j);
                buf_printf(o, "%s%s", j ? ", " : "", dj ? dj : "0");
            }
            buf_puts(o, " }, tk_s[4] = { ");
            for (int j = 0; j < 4; j++)
                buf_printf(o, "%s(int64_t)%s", j ? ", " : "", sn ? sn[j] : "0");
            buf_printf(o, " };\n        tk_tma &= %stk_cuda_tmapn(&tk_tm%d, (const void *)(uintptr_t)%s, 4, tk_d, tk_s, %d, %d, %d);\n    }\n",
                       nr, i, hn->pname[q->index], q->box[0], q->box[1], pir_ty_bits[q->ty] / 8);
            continue;
        }
        const char *map = arena_printf(h->a, "tk_cuda_tmap(&tk_tm%d, (const void *)(uintptr_t)%s, %s, %s, %d, %d, %s)", i,
                                       hn->pname[q->index], r ? r : "0", c ? c : "0", q->box[0], q->box[1],
                                       tmap_es(h, q));
        if (q->role == 3)       /* optional: else stored by the threads (PP_TMA_OK = 3) */
            buf_printf(o, "    int tk_st%d = %s;\n", i, map);
        else if (repack_tensor(ck, q->index))
            buf_printf(o, "    int tk_ok%d = %s;\n    tk_tma &= tk_ok%d;\n", i, map, i);
        else
            buf_printf(o, "    tk_tma &= %s%s;\n", nr, map);
    }
    if (any) {
        buf_puts(o, "    if (getenv(\"TKC_TMA\") && !strcmp(getenv(\"TKC_TMA\"), \"0\"))   /* comparisons */\n");
        buf_puts(o, "        tk_tma = 0;\n");
    }
    if (rp)
        emit_repack(h, k, ck, hn);
    Buf st = { .a = h->a };
    buf_puts(&st, "");
    for (int i = 0; ck->f && i < ck->f->params.n; i++)
        if (ck->f->params.v[i].kind == PP_TMAP && ck->f->params.v[i].role == 3)
            buf_printf(&st, "%stk_st%d", st.n ? " && " : "", i);
    if (st.n)
        buf_printf(o, "    if (tk_tma && !(%s))\n        tk_tma = 3;   /* the result stored by the threads */\n", st.s);
}

/* What the launcher's repacking code says of repackable tensor param t: its
 * maps' tk_ok tests joined by &&, its rows and cols, its element bytes. */
typedef struct RepackT { const char *ok, *rows, *cols; int es; } RepackT;

static RepackT repack_of(HE *h, TirKernel *k, const CudaKernel *ck, const HostNames *hn, int t)
{
    Buf ok = { .a = h->a };
    buf_puts(&ok, "");
    RepackT r = { 0 };
    for (int i = 0; i < ck->f->params.n; i++)
        if (ck->f->params.v[i].kind == PP_TMAP && ck->f->params.v[i].index == t) {
            buf_printf(&ok, "%stk_ok%d", ok.n ? " && " : "", i);
            r.es = pir_ty_bits[ck->f->params.v[i].ty] / 8;
        }
    r.ok = ok.s;
    r.rows = args_dim(h->a, k, hn, t, 0);
    r.cols = args_dim(h->a, k, hn, t, 1);
    r.rows = r.rows ? r.rows : "0";
    r.cols = r.cols ? r.cols : "0";
    return r;
}

/* The repacking of tensors whose maps failed (tk_cuda_repack). */
static void emit_repack(HE *h, TirKernel *k, const CudaKernel *ck, const HostNames *hn)
{
    Buf *o = h->o;
    /* Repacking: only where every map that cannot be repacked was built. */
    const KernelInfo *ki = k->info;
    for (int t = 0; t < ki->nparams; t++)
        if (repack_tensor(ck, t))
            buf_printf(o, "    tk_CUdeviceptr tk_rb%d = 0;\n    size_t tk_rq%d = 0;\n", t, t);
    /* the work: 2 M N K of the first dot's A (M x K) and B (K x N) maps */
    const char *fl = "0.0";
    int ra = -1, rb = -1, nd = 1;
    for (int i = 0; i < ck->f->params.n; i++) {
        const PirParam *q = &ck->f->params.v[i];
        if (q->kind == PP_TMAP && q->role == 1 && ra < 0)
            ra = q->index;
        if (q->kind == PP_TMAP && (q->role == 2 || q->role == 4) && rb < 0) {
            rb = q->index;
            nd = q->role == 4 ? 0 : 1;
        }
    }
    if (ra >= 0 && rb >= 0) {
        const char *m = args_dim(h->a, k, hn, ra, 0), *kk = args_dim(h->a, k, hn, ra, 1), *n = args_dim(h->a, k, hn, rb, nd);
        if (m && kk && n)
            fl = arena_printf(h->a, "2.0 * (double)(%s) * (double)(%s) * (double)(%s)", m, kk, n);
    }
    buf_puts(o, "    double tk_rbytes = 0;   /* the copies' bytes */\n");
    for (int t = 0; t < ki->nparams; t++) {
        if (!repack_tensor(ck, t))
            continue;
        RepackT r = repack_of(h, k, ck, hn, t);
        buf_printf(o, "    if (!(%s))\n        tk_rbytes += %d.0 * (double)(%s) * (double)(%s);\n", r.ok,
                   (ki->params[t].stored ? 4 : 2) * r.es, r.rows, r.cols);
    }
    buf_printf(o, "    if (!tk_tma && tk_rpon && tk_cuda_repack_on(tk_np, %s, tk_rbytes)) {\n", fl);
    buf_puts(o, "        tk_tma = 1;\n");
    for (int t = 0; t < ki->nparams; t++) {
        if (!repack_tensor(ck, t))
            continue;
        RepackT r = repack_of(h, k, ck, hn, t);
        buf_printf(o, "        if (tk_tma && !(%s)) {\n", r.ok);
        buf_printf(o, "            tk_tma = tk_cuda_repack(&tk_rb%d, &tk_rq%d, (const void *)(uintptr_t)%s, %s, %s, %d, tk_stream) == 0;\n",
                   t, t, hn->pname[t], r.rows, r.cols, r.es);
        for (int i = 0; i < ck->f->params.n; i++) {
            const PirParam *q = &ck->f->params.v[i];
            if (q->kind == PP_TMAP && q->index == t)
                buf_printf(o, "            tk_tma = tk_tma && tk_cuda_tmapp(&tk_tm%d, (const void *)(uintptr_t)tk_rb%d, %s, %s, tk_rq%d, %d, %d, %s);\n",
                           i, t, r.rows, r.cols, t, q->box[0], q->box[1], tmap_es(h, q));
        }
        buf_puts(o, "        }\n");
    }
    buf_puts(o, "        if (!tk_tma) {   /* NAME__nomap after all */\n");
    for (int t = 0; t < ki->nparams; t++)
        if (repack_tensor(ck, t))
            buf_printf(o, "            tk_cuda_unpack(tk_rb%d, 0, NULL, 0, 0, 0, tk_stream);\n            tk_rb%d = 0;\n", t, t);
    buf_puts(o, "        }\n    }\n");
}

/* After the launch: the repacked tensors the kernel stores copied back, the copies freed. */
static void emit_unpack(HE *h, TirKernel *k, const CudaKernel *ck, const HostNames *hn)
{
    const KernelInfo *ki = k->info;
    for (int t = 0; ck->f && t < ki->nparams; t++) {
        if (!repack_tensor(ck, t))
            continue;
        RepackT r = repack_of(h, k, ck, hn, t);
        buf_printf(h->o, "    tk_CUresult tk_u%d = tk_cuda_unpack(tk_rb%d, tk_rq%d, %s, %s, %s, %d, tk_stream);\n", t, t, t,
                   ki->params[t].stored ? arena_printf(h->a, "(void *)(uintptr_t)%s", hn->pname[t]) : "NULL",
                   r.rows, r.cols, r.es);
    }
    for (int t = 0; ck->f && t < ki->nparams; t++)
        if (repack_tensor(ck, t))
            buf_printf(h->o, "    if (tk_r == 0 && tk_u%d != 0)\n        return tk_cuda_error(\"%s\", \"cuMemcpy2DAsync\", tk_u%d);\n",
                       t, k->name, t);
}

/* NAME<suffix> (NAME_cuda, or a version's NAME__vJ_cuda): kernel `index`
 * of the module, or its NAME__nomap version (all[ck->alt]) when the tensors
 * got no tensor maps. */
static void emit_launcher(HE *h, TirKernel *k, int index, const CudaKernel *all, const HostNames *hn,
                          const char *suffix)
{
    const CudaKernel *ck = &all[index], *alt = ck->alt >= 0 ? &all[ck->alt] : NULL;
    Arena *a = h->a;
    Buf *o = h->o;
    const KernelInfo *ki = k->info;
    char *decl = args_list(a, ki, hn, true, false), *args = args_list(a, ki, hn, false, false);
    const char *sep = *args ? ", " : "";
    buf_printf(o, "static TK_UNUSED tk_status %s%s(%s%svoid *tk_stream)\n{\n", k->name, suffix, decl,
               *decl ? ", " : "");
    buf_printf(o, "    int64_t tk_grid[3] = { 0, 0, 0 };\n");
    buf_printf(o, "    tk_status tk_st = %s__check(%s%stk_grid);\n", k->name, args, sep);
    buf_printf(o, "    if (tk_st != TK_OK)\n        return tk_st;\n");
    buf_printf(o, "    int64_t tk_g0 = tk_grid[0], tk_g1 = tk_grid[1], tk_np = tk_grid[0] * tk_grid[1] * tk_grid[2];\n");
    buf_printf(o, "    if (tk_np == 0)\n        return TK_OK;\n");
    buf_printf(o, "    void *tk_fn = NULL;\n");
    buf_printf(o, "    if ((tk_st = tk_cuda_function(&%s, %d, &tk_fn)) != TK_OK\n"
                  "        || (tk_st = tk_cuda_stream(\"%s\", tk_stream)) != TK_OK)\n        return tk_st;\n",
               h->mod, index, k->name);
    emit_tmap_build(h, k, ck, hn);
    if (alt)
        buf_printf(o, "    if (!tk_tma && (tk_st = tk_cuda_function(&%s, %d, &tk_fn)) != TK_OK)\n        return tk_st;\n",
                   h->mod, ck->alt);
    buf_puts(o, "    void *tk_args[] = { ");
    for (const char *p = args; *p;) {
        size_t n = strcspn(p, ",");
        buf_printf(o, "(void *)&%.*s, ", (int)n, p);
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    buf_puts(o, "(void *)&tk_g0, (void *)&tk_g1, (void *)&tk_np");
    emit_tmaps(h, k, ck, hn);
    buf_puts(o, " };\n");
    buf_puts(o, "    unsigned tk_nb = (unsigned)(tk_np < 2147483647 ? tk_np : 2147483647);\n");
    if (ck->f && ck->f->persistent && alt && alt->f && !alt->f->persistent)   /* NAME__nomap not persistent */
        buf_puts(o, "    if (tk_tma)\n        tk_nb = tk_cuda_persist(tk_nb);\n");
    else if (ck->f && ck->f->persistent)     /* the kernel's loop over programs takes the rest */
        buf_puts(o, "    tk_nb = tk_cuda_persist(tk_nb);\n");
    const char *threads = arena_printf(h->a, "%d", ck->threads), *smem = arena_printf(h->a, "%lld", (long long)ck->smem);
    if (alt && alt->threads != ck->threads)
        threads = arena_printf(h->a, "tk_tma ? %d : %d", ck->threads, alt->threads);
    if (alt && alt->smem != ck->smem)
        smem = arena_printf(h->a, "tk_tma ? %lld : %lld", (long long)ck->smem, (long long)alt->smem);
    const char *plain = arena_printf(h->a, "tk_cu.LaunchKernel(tk_fn, tk_nb, 1, 1, %s, 1, 1, %s, tk_stream, tk_args, NULL)",
                                     threads, smem);
    if (ck->f && ck->f->cluster == 2)   /* pairs of blocks: the TMA version's (NAME__nomap has none) */
        buf_printf(o, "    tk_CUresult tk_r = %stk_cuda_launch2(tk_fn, tk_nb, %s, %s, tk_stream, tk_args)%s%s;\n",
                   alt ? "tk_tma ? " : "", threads, smem, alt ? "\n        : " : "", alt ? plain : "");
    else
        buf_printf(o, "    tk_CUresult tk_r = %s;\n", plain);
    emit_unpack(h, k, ck, hn);
    buf_printf(o, "    if (tk_r != 0)\n        return tk_cuda_error(\"%s\", \"cuLaunchKernel\", tk_r);\n", k->name);
    buf_printf(o, "    return TK_OK;\n}\n\n");
}

static void emit_host_copy(HE *h, TirKernel *k, int index, const HostNames *hn)
{
    Arena *a = h->a;
    Buf *o = h->o;
    const KernelInfo *ki = k->info;
    char *decl = args_list(a, ki, hn, true, false), *args = args_list(a, ki, hn, false, false);
    int nt = 0;
    for (int i = 0; i < ki->nparams; i++)
        nt += ki->params[i].is_tensor;
    buf_printf(o, "static TK_UNUSED tk_status %s_cuda_host(%s)\n{\n", k->name, *decl ? decl : "void");
    buf_printf(o, "    int64_t tk_grid[3] = { 0, 0, 0 };\n");
    buf_printf(o, "    tk_status tk_st = %s__check(%s%stk_grid);\n", k->name, args, *args ? ", " : "");
    buf_printf(o, "    void *tk_fn = NULL;\n");
    buf_printf(o, "    if (tk_st != TK_OK || (tk_st = tk_cuda_function(&%s, %d, &tk_fn)) != TK_OK)\n"
                  "        return tk_st;\n", h->mod, index);
    buf_printf(o, "    tk_cuda_buf tk_b[%d] = { { 0, 0, 0 } };\n", nt + 1);
    buf_printf(o, "    tk_CUdeviceptr tk_d[%d] = { 0 };\n", nt + 1);
    Buf call = { .a = a };
    buf_puts(&call, "");
    for (int i = 0, t = 0; i < ki->nparams; i++) {
        const ParamInfo *p = &ki->params[i];
        const char *st = dtype_info[p->dt].c_storage;
        if (!p->is_tensor) {
            buf_printf(&call, "%s%s", call.n ? ", " : "", hn->pname[i]);
            continue;
        }
        buf_printf(o, "    if (tk_st == TK_OK)\n        tk_st = tk_cuda_copy_in(\"%s\", &tk_b[%d], %s, "
                      "(size_t)(%s) * sizeof(%s), &tk_d[%d]);\n",
                   k->name, t, hn->pname[i], cuda_extent(a, k, hn, i), st, t);
        buf_printf(&call, "%s(%s%s *)(uintptr_t)tk_d[%d]", call.n ? ", " : "", p->stored ? "" : "const ",
                   st, t);
        t++;
    }
    for (int d = 0; d < ki->ndims; d++)
        if (!ki->dims[d].specialized)
            buf_printf(&call, "%s%s", call.n ? ", " : "", hn->dname[d]);
    for (int i = 0; i < ki->nparams; i++)
        for (int j = 0; hn->sname[i] && j < ki->params[i].rank; j++)
            buf_printf(&call, "%s%s", call.n ? ", " : "", hn->sname[i][j]);
    buf_printf(o, "    if (tk_st == TK_OK)\n        tk_st = %s_cuda(%s%sNULL);\n", k->name, call.s,
               call.n ? ", " : "");
    buf_printf(o, "    tk_CUresult tk_r;\n");
    buf_printf(o, "    if (tk_st == TK_OK && (tk_r = tk_cu.CtxSynchronize()) != 0)\n"
                  "        tk_st = tk_cuda_error(\"%s\", \"cuCtxSynchronize\", tk_r);\n", k->name);
    for (int i = 0, t = 0; i < ki->nparams; i++) {
        const ParamInfo *p = &ki->params[i];
        if (!p->is_tensor)
            continue;
        buf_printf(o, "    if (tk_st == TK_OK)\n        tk_st = tk_cuda_copy_out(\"%s\", \"%s\", &tk_b[%d], %s);\n",
                   k->name, p->name, t, p->stored ? arena_printf(a, "(void *)%s", hn->pname[i]) : "NULL");
        t++;
    }
    buf_printf(o, "    tk_cuda_free_all(tk_b, %d);\n    return tk_st;\n}\n\n", nt);
}

/* The module's C name from the include guard: unique per header. */
static char *module_name(Arena *a, const TargetOptions *o)
{
    const char *g = o && o->guard ? o->guard : "TKC_GENERATED_H";
    Buf b = { .a = a };
    buf_puts(&b, "tk_cuda_mod_");
    for (; *g; g++)
        buf_putc(&b, (*g >= 'A' && *g <= 'Z') || (*g >= 'a' && *g <= 'z') || (*g >= '0' && *g <= '9') ? *g : '_');
    return b.s;
}

static const char *arch_of(const TargetOptions *o)
{
    return o && o->arch ? o->arch : "sm_90a";
}

/* wgmma (lower/gpu_wgmma.c) on sm_90a only: the other --arch keep mma.sync. */
static void set_arch(TirKernel **ks, int n, const TargetOptions *o)
{
    for (int i = 0; i < n; i++) {
        ks[i]->wgmma = !strcmp(arch_of(o), "sm_90a");
        ks[i]->smem_max = cuda_arch_smem(arch_of(o));
    }
}

static bool smem_fits(TirKernel *k, const CudaKernel *ck, const TargetOptions *o, Diag *d)
{
    int64_t limit = cuda_arch_smem(arch_of(o));
    if (ck->smem <= limit)
        return true;
    diag_error(d, k->info->decl->span, "kernel %s needs %lld bytes of shared memory; %s has %lld",
               k->name, (long long)ck->smem, arch_of(o), (long long)limit);
    return false;
}

/* Device code of every kernel: the module's CUDA C; *total: its functions. */
static bool device_source(Arena *a, Buf *src, TirKernel **ks, int n, CudaKernel *ck, int *total,
                          const TargetOptions *o, Diag *d)
{
    set_arch(ks, n, o);
    PirFunc **fs;
    int *own;
    TkTimer t = tk_timer();
    *total = cuda_lower_all(a, ks, n, &fs, ck, &own, d);
    tk_timer_end(&t, "per-thread IR (gpu lowering)");
    if (*total < 0)
        return false;
    t = tk_timer();
    bool ok = true;
    buf_puts(src, cuda_device_prelude);
    buf_puts(src, cuda_mma_prelude);
    for (int j = 0; j < *total; j++) {
        buf_putc(src, '\n');
        cuda_print_func(src, fs[j]);
        ok &= smem_fits(ks[own[j]], &ck[j], o, d);
    }
    tk_timer_end(&t, "CUDA C (print)");
    return ok;
}

/* The module's PTX (and cubin) from LLVM; ir: its LLVM IR instead. */
static bool compile_llvm(Arena *a, TirKernel **ks, int n, CudaKernel *ck, int *total, const TargetOptions *o,
                         bool cubin, char **ir, CudaBinary *bin, Diag *d)
{
    memset(bin, 0, sizeof *bin);
    set_arch(ks, n, o);
    PirFunc **fs;
    int *own;
    TkTimer t = tk_timer();
    *total = cuda_lower_all(a, ks, n, &fs, ck, &own, d);
    tk_timer_end(&t, "per-thread IR (gpu lowering)");
    if (*total < 0)
        return false;
    if (!nvptx_compile_pir(a, fs, *total, ck, arch_of(o), ir, bin, d))
        return false;
    bool ok = true;
    for (int j = 0; j < *total; j++) {
        if (j >= n)            /* nvptx_compile_pir left every alt -1 */
            ck[own[j]].alt = j;
        ok &= smem_fits(ks[own[j]], &ck[j], o, d);
    }
    return ok && (ir || !cubin || cuda_assemble(a, bin->ptx, arch_of(o), bin, d));
}

static bool compile_all(Arena *a, TirKernel **ks, int n, CudaKernel *ck, int *total, const TargetOptions *o,
                        bool cubin, CudaBinary *bin, Diag *d)
{
    Buf src = { .a = a };
    if (!cuda_arch_ok(arch_of(o))) {
        diag_error(d, (Span){0}, "unknown CUDA architecture '%s'", arch_of(o));
        return false;
    }
    if (o->llvm)
        return compile_llvm(a, ks, n, ck, total, o, cubin, NULL, bin, d);
    if (!device_source(a, &src, ks, n, ck, total, o, d))
        return false;
    if (!cuda_compile(a, src.s, arch_of(o), cubin, o ? o->cache : NULL, bin, d))
        return false;
    if (bin->cached)
        tir_log("nvrtc", "%d kernel(s) from the cache (%s, %zu bytes of PTX%s)", *total, arch_of(o),
                strlen(bin->ptx), bin->cubin ? ", cubin" : "");
    else
        tir_log("nvrtc", "%d kernel(s) in %.1f ms (%s, %zu bytes of PTX%s)", *total, bin->ms, arch_of(o),
                strlen(bin->ptx), bin->cubin ? ", cubin" : "");
    return true;
}

/* NAME_cuda_dl(const DLTensor *..., void *stream): device kDLCUDA (2) */
static bool emit_dlpack(Buf *out, TirKernel *k, const char *name, const HostNames *hn, Diag *d)
{
    const char *cname = arena_printf(k->arena, "%s_cuda", name);
    return target_emit_dlpack(out, k, hn->pname, cname, cname, 2, ", void *stream", ", stream", d);
}

/* Does kernel k take its PTX from LLVM under o?  --codegen=llvm and
 * --target=nvptx: every kernel; --codegen=nvrtc: none; else those of
 * @launch(llvm = true), where this tkc has LLVM (else NVRTC: the option
 * is a preference, the code the same). */
static bool from_llvm(const TirKernel *k, const TargetOptions *o)
{
    return o->llvm || (k->llvm && !o->nvrtc && !nvptx_unavailable());
}

/* The kernels of one module: those whose PTX comes from one compiler. */
typedef struct Group {
    TirKernel **ks;
    int n, total;
    CudaKernel *ck;
    CudaBinary bin;
    TargetOptions o;
    HE h;
} Group;

/* The kernels with their versions (lower/version.c): ks[0 .. n) as given,
 * then kernel i's tv[i].n versions from first[i] on. */
typedef struct Versions {
    TirKernel **ks;
    int n, *first;
    TirVersions *tv;
} Versions;

static Versions versions(Arena *a, TirKernel **ks, int n)
{
    Versions v = { .first = arena_alloc(a, sizeof(int) * (size_t)(n + 1)),
                   .tv = arena_alloc(a, sizeof(TirVersions) * (size_t)(n + 1)) };
    int total = n;
    for (int i = 0; i < n; i++) {
        tir_versions(ks[i], &v.tv[i]);
        v.first[i] = total;
        total += v.tv[i].n;
    }
    v.ks = arena_alloc(a, sizeof(TirKernel *) * (size_t)(total + 1));
    for (int i = 0; i < n; i++) {
        v.ks[i] = ks[i];
        for (int j = 0; j < v.tv[i].n; j++)
            v.ks[v.first[i] + j] = v.tv[i].k[j];
    }
    v.n = total;
    return v;
}

/* NAME_cuda of a kernel with versions: the one NAME__version picks. */
static void emit_version_dispatch(Buf *o, Arena *a, const TirKernel *k, const HostNames *hn, int nv)
{
    const KernelInfo *ki = k->info;
    char *decl = args_list(a, ki, hn, true, false), *args = args_list(a, ki, hn, false, false);
    const char *sep = *args ? ", " : "";
    buf_printf(o, "static TK_UNUSED tk_status %s_cuda(%s%svoid *tk_stream)\n{\n", k->name, decl,
               *decl ? ", " : "");
    buf_printf(o, "    switch (%s__version(%s)) {\n", k->name, args);
    for (int j = 1; j <= nv; j++)
        buf_printf(o, "    case %d:\n        return %s__v%d_cuda(%s%stk_stream);\n", j, k->name, j, args, sep);
    buf_printf(o, "    default:\n        return %s__v0_cuda(%s%stk_stream);\n    }\n}\n\n", k->name, args, sep);
}

static bool cuda_emit(Buf *out, TirKernel **ks, int n, const TargetOptions *o, Diag *d)
{
    Arena *a = arena_new();
    Versions v = versions(a, ks, n);
    int nall = v.n;
    /* g[0] NVRTC's kernels, g[1] LLVM's: one module each, the second
     * named with _llvm when both have kernels */
    Group g[2];
    int *gi = arena_alloc(a, sizeof(int) * (size_t)(nall + 1)), *at = arena_alloc(a, sizeof(int) * (size_t)(nall + 1));
    bool ok = true;
    for (int j = 0; j < 2; j++) {
        g[j] = (Group){ .ks = arena_alloc(a, sizeof(TirKernel *) * (size_t)(nall + 1)), .o = *o };
        g[j].o.llvm = j == 1;
        g[j].ck = arena_alloc(a, sizeof(CudaKernel) * (size_t)(2 * nall + 1));
    }
    for (int i = 0; i < nall; i++) {
        gi[i] = from_llvm(v.ks[i], o);
        at[i] = g[gi[i]].n;
        g[gi[i]].ks[g[gi[i]].n++] = v.ks[i];
    }
    const char *mod = module_name(a, o);
    for (int j = 0; j < 2 && ok; j++) {
        g[j].h = (HE){ .a = a, .o = out, .mod = j == 1 && g[0].n ? arena_printf(a, "%s_llvm", mod) : mod };
        if (g[j].n)
            ok = compile_all(a, g[j].ks, g[j].n, g[j].ck, &g[j].total, &g[j].o, true, &g[j].bin, d);
    }
    if (ok) {
        for (int j = 0; j < 2; j++) {
            int mine = 0;      /* the kernels of the source (not their versions) */
            for (int i = 0; i < n; i++)
                mine += gi[i] == j;
            if (g[j].n)
                buf_printf(out, "/* ---- CUDA target (%s; PTX%s%s%s) ---- */\n", arch_of(o), j ? " from LLVM" : "",
                           g[j].bin.cubin ? " + cubin" : "", g[!j].n ? arena_printf(a, " for %d of %d kernels", mine, n) : "");
        }
        buf_puts(out, host_helpers);
        /* the tensor maps' L2 promotion (CU_TENSOR_MAP_L2_PROMOTION_*: 0 none,
         * 1 64B, 2 128B, 3 256B; TKC_TMAP_L2 for comparisons) */
        buf_printf(out, "#ifndef TK_TMAP_L2\n#define TK_TMAP_L2 %d\n#endif\n", tkc_knob("TKC_TMAP_L2", 2));
        buf_puts(out, runtime);
        buf_putc(out, '\n');
        for (int j = 0; j < 2; j++)
            if (g[j].n)
                emit_module(&g[j].h, g[j].total, g[j].ck, &g[j].bin);
        for (int i = 0; i < n && ok; i++) {
            Group *x = &g[gi[i]];
            HostNames hn = cuda_host_names(a, ks[i]->info);
            ok = cuda_emit_check(out, ks[i], &hn, d);
            if (!ok)
                break;
            if (!v.tv[i].n) {
                emit_launcher(&x->h, ks[i], at[i], x->ck, &hn, "_cuda");
            } else {
                /* the whole kernel as NAME__v0_cuda, version j as
                 * NAME__vj_cuda (its messages under the kernel's name) */
                emit_launcher(&x->h, ks[i], at[i], x->ck, &hn, "__v0_cuda");
                for (int j = 0; j < v.tv[i].n; j++) {
                    int c = v.first[i] + j;
                    v.ks[c]->name = ks[i]->name;
                    emit_launcher(&g[gi[c]].h, v.ks[c], at[c], g[gi[c]].ck, &hn,
                                  arena_printf(a, "__v%d_cuda", j + 1));
                }
                ok = cuda_emit_version(out, ks[i], &hn, &v.tv[i], d);
                if (!ok)
                    break;
                emit_version_dispatch(out, a, ks[i], &hn, v.tv[i].n);
            }
            if (!args_dispatched(ks[i], o))
                ok = emit_dlpack(out, ks[i], ks[i]->name, &hn, d);
            buf_puts(out, "#ifdef TKC_CUDA_HOST_COPY\n");
            emit_host_copy(&x->h, ks[i], at[i], &hn);
            buf_puts(out, "#endif\n\n");
        }
        /* tuned variants behind one entry point: NAME_cuda and NAME_cuda_host
         * dispatch on the run-time dims like the C target's NAME */
        for (int i = 0; ok && i < o->ndispatch; i++) {
            const TargetDispatch *t = &o->dispatch[i];
            HostNames hn = cuda_host_names(a, t->variants[0]->info);
            args_dispatch(out, t, &hn, "_cuda", "void *tk_stream", "tk_stream");
            ok = emit_dlpack(out, t->variants[0], t->name, &hn, d);
            buf_puts(out, "#ifdef TKC_CUDA_HOST_COPY\n");
            args_dispatch(out, t, &hn, "_cuda_host", "", "");
            buf_puts(out, "#endif\n\n");
        }
    }
    arena_free(a);
    return ok;
}

bool cuda_emit_text(FILE *f, const char *kind, TirKernel **ks0, int n0, const TargetOptions *o, Diag *d)
{
    Arena *a = arena_new();
    Versions v = versions(a, ks0, n0);
    TirKernel **ks = v.ks;
    int n = v.n;
    CudaKernel *ck = arena_alloc(a, sizeof *ck * (size_t)(2 * n + 1));
    int total = 0;
    bool ok;
    if (!strcmp(kind, "ptx")) {
        CudaBinary bin;
        ok = compile_all(a, ks, n, ck, &total, o, false, &bin, d);
        if (ok)
            fputs(bin.ptx, f);
    } else if (!strcmp(kind, "llvm")) {
        CudaBinary bin;
        char *ir = NULL;
        ok = cuda_arch_ok(arch_of(o)) && compile_llvm(a, ks, n, ck, &total, o, false, &ir, &bin, d);
        if (ok)
            fputs(ir, f);
    } else {
        Buf src = { .a = a };
        ok = device_source(a, &src, ks, n, ck, &total, o, d);
        if (ok)
            fputs(src.s, f);
    }
    arena_free(a);
    return ok;
}

static bool nvptx_emit(Buf *out, TirKernel **ks, int n, const TargetOptions *o, Diag *d)
{
    TargetOptions lo = *o;
    lo.llvm = true;
    return cuda_emit(out, ks, n, &lo, d);
}

const Target target_cuda = { "cuda", cuda_emit };
const Target target_nvptx = { "nvptx", nvptx_emit };
