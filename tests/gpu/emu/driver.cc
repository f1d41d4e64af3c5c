/*
 * tests/gpu/emu/driver.cc — a stand-in libcuda.so.1 that runs kernels on
 * the CPU (see emu.h).  It implements the driver calls tkc's launchers make,
 * with the checks a real driver would make where tkc could get them wrong:
 * block size, dynamic shared memory against the opted-in limit, unknown
 * kernel names, freed or foreign device pointers in copies.  Device memory
 * is host memory.  TKC_EMU_LOG=1 prints each launch.
 *
 * A module's kernels are the library's own table (tk_emu_kernels, the
 * test's device code) unless the shared object holding the module's image
 * has a table of its own, tk_emu_module_kernels: so under tkc
 * --max-autotune every variant's harness carries its kernels (tests/gpu/emu/
 * cc.sh builds it).  Events time on the host clock (launches are
 * synchronous).  TKC_EMU_MAX_THREADS=N makes kernels with blocks of more
 * than N threads fail to launch as if they needed too many registers.
 */
#include <cstdio>
#include <ctime>
#include <dlfcn.h>
#include <atomic>
#include <cstdlib>
#include <map>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "emu.h"


thread_local dim3 threadIdx;
dim3 blockIdx, gridDim;
alignas(16) unsigned char tk_smem[256 * 1024];
uint64_t tk_emu_slots[1024];
static pthread_barrier_t barrier, warp_barrier[32], wg_barrier[8];
/* named barriers: counted by hand, since bar.arrive counts without waiting */
static int named_n[16];                  /* 0: named barrier i not used in this launch */
static int named_in[16];                 /* arrivals of its current phase */
static unsigned named_gen[16];           /* its completed phases */
static std::mutex named_lock;
static std::condition_variable named_cv;
static std::map<std::string, int> max_smem;
static std::map<uintptr_t, size_t> allocs;
static thread_local void *current;
static int primary;
struct emu_stream { void *ctx; };   /* the context current when it was made */

void tk_emu_sync(void) { pthread_barrier_wait(&barrier); }
/* __syncthreads_and: the and of x over the block (one block runs at a time) */
int tk_emu_sync_and(int x)
{
    static std::atomic<int> all;
    if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)   /* the last call's readers are past */
        all = 1;
    pthread_barrier_wait(&barrier);
    if (!x)
        all = 0;
    pthread_barrier_wait(&barrier);
    return all.load();
}
void tk_emu_warp_sync(void) { pthread_barrier_wait(&warp_barrier[threadIdx.x / 32]); }
void tk_emu_wg_sync(void) { pthread_barrier_wait(&wg_barrier[threadIdx.x / 128]); }
/* One arrival on named barrier id of n threads; wait: until its phase completes. */
static void named_bar(int id, int n, bool wait, const char *what)
{
    if (id < 1 || id > 15 || n <= 0 || n % 32) {
        fprintf(stderr, "tk_emu: %s %d, %d (needs 1..15 and a multiple of 32)\n", what, id, n);
        abort();
    }
    std::unique_lock<std::mutex> g(named_lock);
    if (named_n[id] == 0) {
        named_n[id] = n;
        named_in[id] = 0;
    } else if (named_n[id] != n) {
        fprintf(stderr, "tk_emu: named barrier %d used with %d and %d threads\n", id, named_n[id], n);
        abort();
    }
    unsigned gen = named_gen[id];
    if (++named_in[id] == n) {
        named_in[id] = 0;
        named_gen[id]++;
        named_cv.notify_all();
        return;
    }
    if (wait)
        named_cv.wait(g, [&] { return named_gen[id] != gen; });
}
void tk_emu_bar(int id, int n) { named_bar(id, n, true, "bar.sync"); }
void tk_emu_bar_arrive(int id, int n) { named_bar(id, n, false, "bar.arrive"); }

static bool owned(uintptr_t p, size_t n)
{
    auto it = allocs.upper_bound(p);
    if (it == allocs.begin())
        return false;
    --it;
    return p >= it->first && p + n <= it->first + it->second;
}

extern "C" {
int cuInit(unsigned) { return 0; }
int cuDeviceGetCount(int *n) { *n = 1; return 0; }
int cuDeviceGet(int *d, int i) { *d = i; return i == 0 ? 0 : 101; }
int cuCtxGetCurrent(void **c) { *c = current; return 0; }
int cuCtxSetCurrent(void *c) { current = c; return 0; }
int cuDevicePrimaryCtxRetain(void **c, int) { *c = &primary; return 0; }
struct emu_module { const tk_emu_kernel *ks; int n; };
int cuModuleLoadData(void **m, const void *image)
{
    emu_module *mod = new emu_module{ tk_emu_kernels, tk_emu_nkernels };
    Dl_info info;
    void *h = dladdr(image, &info) && info.dli_fname ? dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD) : NULL;
    const tk_emu_kernel *ks = h ? (const tk_emu_kernel *)dlsym(h, "tk_emu_module_kernels") : NULL;
    const int *n = h ? (const int *)dlsym(h, "tk_emu_module_nkernels") : NULL;
    if (ks && n)
        *mod = emu_module{ ks, *n };
    if (getenv("TKC_EMU_LOG"))
        fprintf(stderr, "emu: module from %s%s\n", !memcmp(image, "\177ELF", 4) ? "cubin" : "PTX",
                ks && n ? " with its own kernels" : "");
    *m = mod;
    return 0;
}
int cuModuleGetFunction(void **f, void *m, const char *name)
{
    const emu_module *mod = (const emu_module *)m;
    for (int i = 0; i < mod->n; i++)
        if (!strcmp(mod->ks[i].name, name)) {
            *f = (void *)&mod->ks[i];
            return 0;
        }
    return 500;   /* CUDA_ERROR_NOT_FOUND */
}
static int max_threads(void)
{
    const char *s = getenv("TKC_EMU_MAX_THREADS");
    return s && atoi(s) > 0 ? atoi(s) : 1024;
}
int cuFuncGetAttribute(int *v, int attr, void *)
{
    switch (attr) {
    case 0: *v = max_threads(); return 0;     /* CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK */
    case 1: *v = 0; return 0;                 /* SHARED_SIZE_BYTES (static) */
    case 4: *v = max_threads() < 1024 ? 128 : 32; return 0;   /* NUM_REGS */
    }
    return 1;
}
int cuDeviceGetName(char *s, int n, int d)
{
    snprintf(s, (size_t)n, "tkc CPU emulator");
    return d == 0 ? 0 : 101;
}
int cuDeviceGetAttribute(int *v, int attr, int)
{
    /* sm_90, 1 MiB L2, 2 SMs (persistent grids: 2 blocks, each loops over programs) */
    *v = attr == 75 ? 9 : attr == 76 ? 0 : attr == 38 ? 1 << 20 : attr == 16 ? 2 : 0;
    return 0;
}
int cuDriverGetVersion(int *v) { *v = 13000; return 0; }
/* NVRTC looks for the driver and asks it for this private table: none here
 * (without the function it crashes when the stand-in is on the library path). */
int cuGetExportTable(const void **t, const void *)
{
    *t = NULL;
    return 500;
}
struct emu_event { double t; };
static double now_ms(void)
{
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}
int cuEventCreate(void **e, unsigned) { *e = new emu_event{ 0 }; return 0; }
int cuEventRecord(void *e, void *) { ((emu_event *)e)->t = now_ms(); return 0; }
int cuEventSynchronize(void *) { return 0; }
int cuEventElapsedTime(float *ms, void *a, void *b)
{
    *ms = (float)(((emu_event *)b)->t - ((emu_event *)a)->t);
    return 0;
}
int cuEventDestroy_v2(void *e) { delete (emu_event *)e; return 0; }
int cuFuncSetAttribute(void *f, int attr, int v)
{
    if (attr != 8 || v > 227 * 1024)
        return 1;
    max_smem[((const tk_emu_kernel *)f)->name] = v;
    return 0;
}
int cuGetErrorName(int r, const char **s)
{
    *s = r == 500 ? "CUDA_ERROR_NOT_FOUND" : r == 701 ? "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"
       : r == 1 ? "CUDA_ERROR_INVALID_VALUE" : r == 201 ? "CUDA_ERROR_INVALID_CONTEXT"
       : r == 400 ? "CUDA_ERROR_INVALID_HANDLE" : "CUDA_ERROR_UNKNOWN";
    return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                   unsigned bz, unsigned smem, void *stream, void **args, void **extra)
{
    const tk_emu_kernel *k = (const tk_emu_kernel *)f;
    if ((uintptr_t)stream > 2 && ((emu_stream *)stream)->ctx != current)
        return 400;   /* CUDA_ERROR_INVALID_HANDLE */
    int lim = max_smem.count(k->name) ? max_smem[k->name] : 48 * 1024;
    if (gx == 0 || gy != 1 || gz != 1 || by != 1 || bz != 1 || bx == 0 || bx > 1024 || bx % 32
        || extra || (int)smem > lim)
        return 1;
    if ((int)bx > max_threads())
        return 701;   /* CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES */
    if (getenv("TKC_EMU_LOG"))
        fprintf(stderr, "emu: %s<<<%u, %u, %u>>>\n", k->name, gx, bx, smem);
    gridDim = dim3{gx < 3 ? gx : 3, 1, 1};    /* the kernel loops over the rest */
    pthread_barrier_init(&barrier, NULL, bx);
    for (unsigned w = 0; w < bx / 32; w++)
        pthread_barrier_init(&warp_barrier[w], NULL, 32);
    for (unsigned g = 0; g < (bx + 127) / 128; g++)
        pthread_barrier_init(&wg_barrier[g], NULL, bx - 128 * g < 128 ? bx - 128 * g : 128);
    for (unsigned b = 0; b < gridDim.x; b++) {
        blockIdx = dim3{b, 0, 0};
        memset(tk_smem, 0xCD, sizeof tk_smem);
        std::vector<std::thread> ts;
        for (unsigned t = 0; t < bx; t++)
            ts.emplace_back([=] { threadIdx = dim3{t, 0, 0}; k->run(args); });
        for (auto &t : ts)
            t.join();
    }
    pthread_barrier_destroy(&barrier);
    for (unsigned w = 0; w < bx / 32; w++)
        pthread_barrier_destroy(&warp_barrier[w]);
    for (unsigned g = 0; g < (bx + 127) / 128; g++)
        pthread_barrier_destroy(&wg_barrier[g]);
    for (int i = 0; i < 16; i++) {
        if (named_n[i] && named_in[i]) {
            fprintf(stderr, "tk_emu: named barrier %d ends the launch with %d of %d arrivals\n", i, named_in[i], named_n[i]);
            abort();
        }
        named_n[i] = 0;
    }
    return 0;
}
int cuMemAlloc_v2(uint64_t *p, size_t n)
{
    void *m = malloc(n ? n : 1);
    if (!m)
        return 2;
    allocs[(uintptr_t)m] = n;
    *p = (uint64_t)(uintptr_t)m;
    return 0;
}
int cuMemFree_v2(uint64_t p)
{
    if (!allocs.erase((uintptr_t)p))
        return 1;
    free((void *)(uintptr_t)p);
    return 0;
}
int cuMemcpyHtoD_v2(uint64_t d, const void *h, size_t n)
{
    if (!owned((uintptr_t)d, n))
        return 1;
    memcpy((void *)(uintptr_t)d, h, n);
    return 0;
}
int cuMemcpyDtoH_v2(void *h, uint64_t d, size_t n)
{
    if (!owned((uintptr_t)d, n))
        return 1;
    memcpy(h, (void *)(uintptr_t)d, n);
    return 0;
}
int cuMemsetD8_v2(uint64_t d, unsigned char v, size_t n)
{
    if (!owned((uintptr_t)d, n))
        return 1;
    memset((void *)(uintptr_t)d, v, n);
    return 0;
}
/* stream-ordered: launches and copies are synchronous here */
int cuMemAllocAsync(uint64_t *p, size_t n, void *) { return cuMemAlloc_v2(p, n); }
int cuMemFreeAsync(uint64_t p, void *) { return cuMemFree_v2(p); }
struct emu_memcpy2d {   /* CUDA_MEMCPY2D */
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    uint64_t srcDevice;
    void *srcArray;
    size_t srcPitch, dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    uint64_t dstDevice;
    void *dstArray;
    size_t dstPitch, WidthInBytes, Height;
};
int cuMemcpy2DAsync_v2(const emu_memcpy2d *c, void *)
{
    if (c->srcMemoryType != 2 || c->dstMemoryType != 2 || c->srcXInBytes || c->srcY || c->dstXInBytes || c->dstY
        || c->srcPitch < c->WidthInBytes || c->dstPitch < c->WidthInBytes || !c->Height)
        return 1;
    size_t sn = c->srcPitch * (c->Height - 1) + c->WidthInBytes, dn = c->dstPitch * (c->Height - 1) + c->WidthInBytes;
    if (!owned((uintptr_t)c->srcDevice, sn) || !owned((uintptr_t)c->dstDevice, dn))
        return 1;
    for (size_t y = 0; y < c->Height; y++)
        memcpy((char *)(uintptr_t)c->dstDevice + y * c->dstPitch, (const char *)(uintptr_t)c->srcDevice + y * c->srcPitch,
               c->WidthInBytes);
    return 0;
}
int cuCtxSynchronize(void) { return 0; }
/* contexts besides the primary one, and streams (emu_stream) */
int cuCtxCreate_v2(void **c, unsigned, int dev)
{
    if (dev != 0)
        return 101;   /* CUDA_ERROR_INVALID_DEVICE */
    *c = current = new int(0);
    return 0;
}
int cuCtxDestroy_v2(void *c)
{
    if (!c || c == &primary)
        return 1;
    if (current == c)
        current = nullptr;
    delete (int *)c;
    return 0;
}
int cuStreamCreate(void **s, unsigned)
{
    if (!current)
        return 201;   /* CUDA_ERROR_INVALID_CONTEXT */
    *s = new emu_stream{current};
    return 0;
}
int cuStreamDestroy_v2(void *s)
{
    delete (emu_stream *)s;
    return 0;
}
int cuStreamSynchronize(void *) { return 0; }
/* tkc's maps: rank 2 (or 4: a strided rank-4 tensor, boxes 1 deep in dims 2
 * and 3, x[8..11] its outer dims and strides, x[12] the rank), 16-bit elements (CU_TENSOR_MAP_DATA_TYPE_UINT16; FLOAT32
 * and UINT8 for tf32 and s8: x[7] holds the element bytes; TFLOAT32 and
 * TFLOAT32_FTZ, whose loads round f32 to tf32: x[13] 1 and 2),
 * 16-byte aligned base and pitch, a box row of at most the swizzle width
 * (CU_TENSOR_MAP_SWIZZLE_32B/64B/128B), at most 256 box rows; the fields as
 * emu.h's tk_tmap lists them. */
int cuTensorMapEncodeTiled(void *map, int dt, unsigned rank, void *base, const uint64_t *dim,
                           const uint64_t *stride, const unsigned *box, const unsigned *es, int il, int swz,
                           int, int oob)
{
    unsigned sw = swz == 1 ? 32 : swz == 2 ? 64 : swz == 3 ? 128 : 0;
    unsigned eb = dt == 1 ? 2 : dt == 7 || dt == 11 || dt == 12 ? 4 : dt == 0 ? 1 : 0;
    if (!eb || (rank != 2 && rank != 4) || (uintptr_t)base % 16 || stride[0] % 16 || stride[0] < dim[0] * eb || !sw
        || box[0] * eb > sw || box[1] > 256 || es[0] != 1 || es[1] != 1 || il != 0 || oob != 0
        || !owned((uintptr_t)base, 1))
        return 1;   /* CUDA_ERROR_INVALID_VALUE */
    for (unsigned i = 2; i < rank; i++)
        if (stride[i - 1] % 16 || box[i] != 1 || es[i] != 1 || dim[i] == 0)
            return 1;
    uint64_t *x = ((tk_tmap *)map)->x;
    memset(x, 0, sizeof(tk_tmap));
    x[0] = (uint64_t)(uintptr_t)base;
    x[1] = dim[0];
    x[2] = dim[1];
    x[3] = stride[0];
    x[4] = box[0];
    x[5] = box[1];
    x[6] = sw;
    x[7] = eb;
    x[8] = x[9] = 1;
    if (rank == 4) {
        x[8] = dim[2];
        x[9] = dim[3];
        x[10] = stride[1];
        x[11] = stride[2];
    }
    x[12] = rank;
    x[13] = dt == 11 ? 1 : dt == 12 ? 2 : 0;
    return 0;
}
int cuStreamGetCtx(void *s, void **c)
{
    *c = (uintptr_t)s <= 2 ? current : ((emu_stream *)s)->ctx;
    return 0;
}
}
