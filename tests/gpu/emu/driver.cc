/*
 * tests/gpu/emu/driver.cc — a stand-in libcuda.so.1 that runs kernels on
 * the CPU (see emu.h).  It implements the driver calls tkc's launchers make,
 * with the checks a real driver would make where tkc could get them wrong:
 * block size, dynamic shared memory against the opted-in limit, unknown
 * kernel names, freed or foreign device pointers in copies.  Device memory
 * is host memory.  TKC_EMU_LOG=1 prints each launch.
 */
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "emu.h"


thread_local dim3 threadIdx;
dim3 blockIdx, gridDim;
alignas(16) unsigned char tk_smem[256 * 1024];
uint64_t tk_emu_slots[1024];
static pthread_barrier_t barrier;
static std::map<std::string, int> max_smem;
static std::map<uintptr_t, size_t> allocs;
static thread_local void *current;
static int primary;
struct emu_stream { void *ctx; };   /* the context current when it was made */

void tk_emu_sync(void) { pthread_barrier_wait(&barrier); }

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
int cuModuleLoadData(void **m, const void *image)
{
    static int mod;
    if (getenv("TKC_EMU_LOG"))
        fprintf(stderr, "emu: module from %s\n", !memcmp(image, "\177ELF", 4) ? "cubin" : "PTX");
    *m = &mod;
    return 0;
}
int cuModuleGetFunction(void **f, void *, const char *name)
{
    for (int i = 0; i < tk_emu_nkernels; i++)
        if (!strcmp(tk_emu_kernels[i].name, name)) {
            *f = (void *)&tk_emu_kernels[i];
            return 0;
        }
    return 500;   /* CUDA_ERROR_NOT_FOUND */
}
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
    if (getenv("TKC_EMU_LOG"))
        fprintf(stderr, "emu: %s<<<%u, %u, %u>>>\n", k->name, gx, bx, smem);
    gridDim = dim3{gx < 3 ? gx : 3, 1, 1};    /* the kernel loops over the rest */
    pthread_barrier_init(&barrier, NULL, bx);
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
int cuStreamGetCtx(void *s, void **c)
{
    *c = (uintptr_t)s <= 2 ? current : ((emu_stream *)s)->ctx;
    return 0;
}
}
