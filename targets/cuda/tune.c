/*
 * targets/cuda/tune.c — tkc --max-autotune on a GPU: the CUDA target's
 * TuneBackend (lang/tune.h; lang/tune.c does the rest).
 *
 * device: the driver (libcuda.so.1, dlopen'ed) names GPU 0, its compute
 * capability and the driver version; with the NVRTC version that is the
 * cache key's device.  No driver or no GPU: NULL, and tune.c falls back to
 * the tuning table or the default values.
 *
 * build (a child process, several at once): the variant's header with the
 * CUDA target (NVRTC, and ptxas when it is around; LLVM for --target=nvptx
 * and --codegen=llvm, which tune through this backend too), its device code
 * as k.cu (and k.ll) for inspection, and a harness — the entry point called with device
 * pointers — compiled by $CC into h.so.
 *
 * measure (in tkc, one variant at a time): the harness is dlopen'ed; its
 * header binds the same driver and finds the context made current here.
 * The tensors of a shape are filled once on the host with the harness's
 * deterministic data (the C backend's) and uploaded before every variant's
 * checking run, so in-place kernels and kernels that skip elements are
 * checked like on the C target.  Timing: CUDA events around each launch,
 * the L2 cache flushed before each (a memset of twice its size), median.
 * A variant whose launch fails (too many registers or too much shared
 * memory for the block) is pruned with the driver's reason.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"
#include "../../lang/tune.h"

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

/* The driver calls tkc makes itself. */
static struct {
    int state;                  /* 0 not tried, 1 ready, -1 none */
    CUresult (*Init)(unsigned);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGet)(int *, int);
    CUresult (*DeviceGetName)(char *, int, int);
    CUresult (*DeviceGetAttribute)(int *, int, int);
    CUresult (*DriverGetVersion)(int *);
    CUresult (*DevicePrimaryCtxRetain)(void **, int);
    CUresult (*CtxSetCurrent)(void *);
    CUresult (*CtxSynchronize)(void);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*EventCreate)(void **, unsigned);
    CUresult (*EventRecord)(void *, void *);
    CUresult (*EventSynchronize)(void *);
    CUresult (*EventElapsedTime)(float *, void *, void *);
    CUresult (*FuncGetAttribute)(int *, int, void *);
    CUresult (*GetErrorName)(CUresult, const char **);
} cu;

enum {                          /* driver API constants */
    ATTR_L2_CACHE_SIZE = 38, ATTR_CC_MAJOR = 75, ATTR_CC_MINOR = 76,
    FUNC_MAX_THREADS = 0, FUNC_SHARED_BYTES = 1, FUNC_NUM_REGS = 4,
};

static bool bind(void)
{
    if (cu.state)
        return cu.state > 0;
    cu.state = -1;
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return false;
    struct { const char *sym; void *dst; } syms[] = {
        { "cuInit", &cu.Init }, { "cuDeviceGetCount", &cu.DeviceGetCount },
        { "cuDeviceGet", &cu.DeviceGet }, { "cuDeviceGetName", &cu.DeviceGetName },
        { "cuDeviceGetAttribute", &cu.DeviceGetAttribute }, { "cuDriverGetVersion", &cu.DriverGetVersion },
        { "cuDevicePrimaryCtxRetain", &cu.DevicePrimaryCtxRetain }, { "cuCtxSetCurrent", &cu.CtxSetCurrent },
        { "cuCtxSynchronize", &cu.CtxSynchronize }, { "cuMemAlloc_v2", &cu.MemAlloc },
        { "cuMemFree_v2", &cu.MemFree }, { "cuMemcpyHtoD_v2", &cu.MemcpyHtoD },
        { "cuMemcpyDtoH_v2", &cu.MemcpyDtoH }, { "cuMemsetD8_v2", &cu.MemsetD8 },
        { "cuEventCreate", &cu.EventCreate }, { "cuEventRecord", &cu.EventRecord },
        { "cuEventSynchronize", &cu.EventSynchronize }, { "cuEventElapsedTime", &cu.EventElapsedTime },
        { "cuFuncGetAttribute", &cu.FuncGetAttribute }, { "cuGetErrorName", &cu.GetErrorName },
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        void *f = dlsym(h, syms[i].sym);
        if (!f)
            return false;
        memcpy(syms[i].dst, &f, sizeof f);
    }
    int n = 0, dev = 0;
    void *ctx = NULL;
    if (cu.Init(0) || cu.DeviceGetCount(&n) || n < 1 || cu.DeviceGet(&dev, 0)
        || cu.DevicePrimaryCtxRetain(&ctx, dev) || cu.CtxSetCurrent(ctx))
        return false;
    cu.state = 1;
    return true;
}

static char *cu_error(Arena *a, const char *what, CUresult r)
{
    const char *name = NULL;
    if (cu.GetErrorName(r, &name) || !name)
        name = "an unknown error";
    return arena_printf(a, "%s: %s (%d)", what, name, r);
}

static char *cuda_device(Arena *a)
{
    char name[256] = "";
    int major = 0, minor = 0, driver = 0, nvmaj = 0, nvmin = 0;
    if (!bind() || cu.DeviceGetName(name, (int)sizeof name - 1, 0))
        return NULL;
    cu.DeviceGetAttribute(&major, ATTR_CC_MAJOR, 0);
    cu.DeviceGetAttribute(&minor, ATTR_CC_MINOR, 0);
    cu.DriverGetVersion(&driver);
    cuda_nvrtc_version(a, &nvmaj, &nvmin);
    return arena_printf(a, "%s (sm_%d%d), driver %d.%d, NVRTC %d.%d", name, major, minor, driver / 1000,
                        driver % 1000 / 10, nvmaj, nvmin);
}

/* ------------------------------------------------------------ building */

static const char harness_cuda[] =
    "size_t tkc_tune_numel(int i, const int64_t *dims)\n"
    "{\n"
    "    for (int j = 0; j < TK_ND; j++)\n"
    "        tk_d[j] = dims[j];\n"
    "    return tk_numel(i);\n"
    "}\n"
    "size_t tkc_tune_esize(int i) { return tk_es[i]; }\n"
    "void tkc_tune_fill(int i, void *p, size_t n) { tk_fill(i, p, n); }\n"
    "/* t: device pointers */\n"
    "int tkc_tune_call(void *const *t, const int64_t *dims, const double *s)\n"
    "{\n"
    "    for (int i = 0; i < TK_NP; i++)\n"
    "        tk_t[i] = t[i], tk_s[i] = s[i];\n"
    "    for (int j = 0; j < TK_ND; j++)\n"
    "        tk_d[j] = dims[j];\n"
    "    return tk_call();\n"
    "}\n"
    "const char *tkc_tune_error(void) { return tk_last_error(); }\n"
    "void *tkc_tune_function(void)\n"
    "{\n"
    "    void *f = NULL;\n"
    "    return tk_cuda_function(&tk_cuda_mod_TKC_TUNE_VARIANT_H, 0, &f) == TK_OK ? f : NULL;\n"
    "}\n";

/* The device code beside the header, for inspection (and tests/gpu/emu/cc.sh):
 * the CUDA C, and with LLVM's PTX the LLVM IR too (TKC_NVPTX_HOST=1: for the
 * CPU, as the stand-in runs it). */
static void device_code(const TuneVariant *v, const TargetOptions *to, Diag *d)
{
    Arena *a = arena_new();
    TirKernel *k = v->tir;
    for (int i = 0; i < 1 + to->llvm; i++) {
        FILE *f = fopen(arena_printf(a, "%s/k.%s", v->dir, i ? "ll" : "cu"), "w");
        if (f) {
            cuda_emit_text(f, i ? "llvm" : "cuda", &k, 1, to, d);
            fclose(f);
        }
    }
    arena_free(a);
}

/* In a child: the header (NVRTC, ptxas), k.cu, the harness; exec $CC. */
static int cuda_build(const TuneVariant *v, const Target *t, const TargetOptions *to)
{
    Arena *a = arena_new();
    char *hc = arena_printf(a, "%s%s", tune_harness(a, v, arena_printf(a, "%s_cuda", v->tir->name), ", NULL"),
                            harness_cuda);
    char *argv[] = { (char *)tune_cc(), "-O1", "-shared", "-fPIC", "-o", arena_printf(a, "%s/h.so", v->dir),
                     arena_printf(a, "%s/h.c", v->dir), "-ldl", "-lm", NULL };
    return tune_build(v, t, to, hc, argv, device_code);
}

/* ------------------------------------------------------------ measuring */

typedef struct Harness {
    size_t (*numel)(int, const int64_t *);
    size_t (*esize)(int);
    void (*fill)(int, void *, size_t);
    int (*call)(void *const *, const int64_t *, const double *);
    const char *(*error)(void);
    void *(*function)(void);
} Harness;

/* The tensors of the shape being measured: host copies and device buffers,
 * kept from variant to variant while the sizes stay the same. */
static struct {
    const TuneShape *shape;
    int n;
    size_t *bytes;
    void **host;
    CUdeviceptr *dev;
    CUdeviceptr flush;
    size_t nflush;
    void *ev[2];
} buf;

static void release_tensors(void)
{
    for (int i = 0; i < buf.n; i++) {
        free(buf.host[i]);
        if (buf.dev[i])
            cu.MemFree(buf.dev[i]);
    }
    free(buf.bytes);
    free(buf.host);
    free(buf.dev);
    buf.bytes = NULL, buf.host = NULL, buf.dev = NULL, buf.n = 0, buf.shape = NULL;
}

/* Make the tensors for v at shape s (same shape and sizes: kept); upload
 * them all.  NULL, or why not. */
static char *tensors(Arena *a, const KernelInfo *k, const Harness *hs, const TuneShape *s)
{
    bool same = buf.shape == s && buf.n == k->nparams;
    for (int i = 0; same && i < k->nparams; i++)
        same = buf.bytes[i] == hs->numel(i, s->dims) * hs->esize(i);
    if (!same) {
        release_tensors();
        buf.n = k->nparams;
        buf.shape = s;
        buf.bytes = calloc((size_t)buf.n + 1, sizeof *buf.bytes);
        buf.host = calloc((size_t)buf.n + 1, sizeof *buf.host);
        buf.dev = calloc((size_t)buf.n + 1, sizeof *buf.dev);
        if (!buf.bytes || !buf.host || !buf.dev)
            return "out of memory";
        for (int i = 0; i < buf.n; i++) {
            size_t n = hs->numel(i, s->dims), es = hs->esize(i);
            if (!es)
                continue;
            buf.bytes[i] = n * es;
            if (!(buf.host[i] = malloc(buf.bytes[i] ? buf.bytes[i] : 1)))
                return "out of memory";
            hs->fill(i, buf.host[i], n);
            CUresult r = cu.MemAlloc(&buf.dev[i], buf.bytes[i] ? buf.bytes[i] : 1);
            if (r)
                return cu_error(a, "cuMemAlloc", r);
        }
    }
    for (int i = 0; i < buf.n; i++) {
        CUresult r = buf.bytes[i] ? cu.MemcpyHtoD(buf.dev[i], buf.host[i], buf.bytes[i]) : 0;
        if (r)
            return cu_error(a, "cuMemcpyHtoD", r);
    }
    return NULL;
}

/* Events, and a buffer twice the size of the L2 cache to flush it. */
static char *timing_setup(Arena *a)
{
    if (buf.ev[0])
        return NULL;
    int l2 = 0;
    cu.DeviceGetAttribute(&l2, ATTR_L2_CACHE_SIZE, 0);
    buf.nflush = l2 > 0 ? 2 * (size_t)l2 : (size_t)64 << 20;
    CUresult r = cu.MemAlloc(&buf.flush, buf.nflush);
    if (!r)
        r = cu.EventCreate(&buf.ev[0], 0);
    if (!r)
        r = cu.EventCreate(&buf.ev[1], 0);
    return r ? cu_error(a, "setting up the timing", r) : NULL;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* reps launches, each after an L2 flush, timed with events: the median
 * (ns), or a negative value after an error (m->status, m->error set). */
static double time_runs(Arena *a, const Harness *hs, const TuneShape *s, int reps, TuneMeasure *m)
{
    double *t = calloc((size_t)reps + 1, sizeof *t), med = -1;
    CUresult r = 0;
    for (int i = 0; t && i < reps && !r && !m->status; i++) {
        float ms = 0;
        if ((r = cu.MemsetD8(buf.flush, (unsigned char)i, buf.nflush)) || (r = cu.EventRecord(buf.ev[0], NULL)))
            break;
        if ((m->status = hs->call((void *const *)buf.dev, s->dims, s->scalars))) {
            m->error = arena_strdup(a, hs->error());
            break;
        }
        if (!(r = cu.EventRecord(buf.ev[1], NULL)) && !(r = cu.EventSynchronize(buf.ev[1])))
            r = cu.EventElapsedTime(&ms, buf.ev[0], buf.ev[1]);
        t[i] = ms * 1e6;
    }
    if (r) {
        m->status = 4;   /* TK_ERR_DEVICE */
        m->error = cu_error(a, "timing", r);
    }
    if (t && !m->status) {
        qsort(t, (size_t)reps, sizeof *t, cmp_double);
        med = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
    }
    free(t);
    return med;
}

/* A launch failed: what the function needs, for the reason. */
static const char *resources(Arena *a, const Harness *hs)
{
    void *f = hs->function();
    int regs = 0, most = 0, smem = 0;
    if (!f || cu.FuncGetAttribute(&regs, FUNC_NUM_REGS, f) || cu.FuncGetAttribute(&most, FUNC_MAX_THREADS, f))
        return "";
    cu.FuncGetAttribute(&smem, FUNC_SHARED_BYTES, f);
    return arena_printf(a, " (%d registers per thread, at most %d threads per block, %d bytes of static "
                        "shared memory)", regs, most, smem);
}

static bool load(Arena *a, const TuneVariant *v, Harness *hs, TuneMeasure *m)
{
    /* Kept loaded: its module stays in the context for confirm()'s rerun. */
    void *h = dlopen(arena_printf(a, "%s/h.so", v->dir), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!h) {
        m->error = arena_strdup(a, dlerror());
        return false;
    }
    struct { const char *sym; void *dst; } syms[] = {
        { "tkc_tune_numel", &hs->numel }, { "tkc_tune_esize", &hs->esize }, { "tkc_tune_fill", &hs->fill },
        { "tkc_tune_call", &hs->call }, { "tkc_tune_error", &hs->error }, { "tkc_tune_function", &hs->function },
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        void *f = dlsym(h, syms[i].sym);
        if (!f) {
            m->error = "the harness lacks its functions";
            return false;
        }
        memcpy(syms[i].dst, &f, sizeof f);
    }
    return true;
}

static bool cuda_measure(Arena *a, const TuneVariant *v, const TuneShape *s, double best_ns, TuneMeasure *m)
{
    const KernelInfo *k = v->tir->info;
    Harness hs;
    if (!bind()) {
        m->error = "no CUDA driver";
        return false;
    }
    if (!load(a, v, &hs, m))
        return false;
    char *why = tensors(a, k, &hs, s);
    if (!why)
        why = timing_setup(a);
    if (why) {
        m->error = why;
        return false;
    }
    CUresult r = 0;
    if ((m->status = hs.call((void *const *)buf.dev, s->dims, s->scalars))) {
        m->error = arena_printf(a, "%s%s", hs.error(), strstr(hs.error(), "cuLaunchKernel") ? resources(a, &hs) : "");
        return true;
    }
    if ((r = cu.CtxSynchronize())) {
        m->status = 4;   /* TK_ERR_DEVICE */
        m->error = cu_error(a, "running the kernel", r);
        return true;
    }
    m->outputs = calloc((size_t)k->nparams + 1, sizeof(void *));
    m->bytes = arena_alloc(a, sizeof(size_t) * (size_t)(k->nparams + 1));
    for (int i = 0; m->outputs && i < k->nparams; i++) {
        if (!k->params[i].is_tensor || !k->params[i].stored)
            continue;
        m->bytes[i] = buf.bytes[i];
        if ((m->outputs[i] = malloc(buf.bytes[i] ? buf.bytes[i] : 1)) && buf.bytes[i]
            && (r = cu.MemcpyDtoH(m->outputs[i], buf.dev[i], buf.bytes[i]))) {
            m->status = 4;
            m->error = cu_error(a, "cuMemcpyDtoH", r);
            return true;
        }
    }
    double first = time_runs(a, &hs, s, 1, m);
    int reps = first >= 0 ? tune_reps(first, best_ns) : 0;
    m->median_ns = first;
    if (reps > 0)
        m->median_ns = time_runs(a, &hs, s, reps, m);
    return true;
}

/* Every launch option changes the code, but specialize only on sm_90a
 * (the default --arch): it needs TMA and wgmma. */
static bool cuda_launch(int o, const char *arch)
{
    return o != LO_SPECIALIZE || !arch || !strcmp(arch, "sm_90a");
}

const TuneBackend cuda_tune_backend = { .target = "cuda", .launch = cuda_launch, .jobs = 16, .device = cuda_device,
                                        .build = cuda_build, .measure = cuda_measure };
