/*
 * tests/gpu/launch.c — the CUDA launcher's error paths on a device (or on
 * the emulator, tests/gpu/emu): tests/gpu/run.sh builds it against
 * `tkc tests/gpu/launch.tk --target=cuda`.
 *
 *   - a good launch on the default stream and on a stream of the current
 *     context gives the right result;
 *   - NULL tensors, a negative dim, a dim above 2^62, a failed `require`
 *     and a stream of another context each return an error status with a
 *     message and leave the output untouched;
 *   - built with -DNO_DRIVER (and TKC_CUDA_LIBNAME naming a library that
 *     does not exist): every launch returns TK_ERR_NO_DEVICE with a message.
 *
 * Prints FAIL lines and exits 1 when something is wrong.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

#define N 1000
#define SENTINEL 12345.0f

static int fails;

static void fail(const char *what, int st)
{
    printf("FAIL %s: status %d, %s\n", what, st, tk_last_error());
    fails++;
}

/* st must be `want`, with a message naming the kernel. */
static void expect(const char *what, int st, int want, const char *kernel)
{
    if (st != want || !strstr(tk_last_error(), kernel))
        fail(what, st);
}

#ifdef NO_DRIVER
int main(void)
{
    float x = 1, y = 2, z = 0;
    expect("vadd without a driver", vadd_cuda(&x, &y, &z, 1, NULL), TK_ERR_NO_DEVICE, "vadd");
    expect("twice4 without a driver", twice4_cuda(&x, &z, 4, NULL), TK_ERR_NO_DEVICE, "twice4");
    if (!strstr(tk_last_error(), "no CUDA driver"))
        fail("the message says no CUDA driver", 0);
    if (z != 0)
        fail("nothing written without a driver", 0);
    printf("%s\n", tk_last_error());
    return fails != 0;
}
#else

typedef int (*CtxCreate)(void **, unsigned, int);
typedef int (*CtxOp)(void *);
typedef int (*StreamCreate)(void **, unsigned);
typedef int (*StreamOp)(void *);

static void *sym(void *h, const char *name)
{
    void *p = dlsym(h, name);
    if (!p) {
        printf("FAIL the driver has no %s\n", name);
        exit(1);
    }
    return p;
}

static tk_CUdeviceptr upload(const float *h, size_t n)
{
    tk_CUdeviceptr p = 0;
    if (tk_cu.MemAlloc(&p, n * sizeof(float)) != 0 || tk_cu.MemcpyHtoD(p, h, n * sizeof(float)) != 0) {
        printf("FAIL device allocation\n");
        exit(1);
    }
    return p;
}

/* The output must hold x + y (sum) or only the sentinel (untouched). */
static void check_out(const char *what, tk_CUdeviceptr out, const float *x, const float *y, bool sum)
{
    static float h[N];
    tk_cu.CtxSynchronize();
    if (tk_cu.MemcpyDtoH(h, out, sizeof h) != 0) {
        printf("FAIL %s: copy back\n", what);
        fails++;
        return;
    }
    for (int i = 0; i < N; i++)
        if (h[i] != (sum ? x[i] + y[i] : SENTINEL)) {
            printf("FAIL %s: out[%d] = %g\n", what, i, h[i]);
            fails++;
            return;
        }
}

int main(void)
{
    static float x[N], y[N], s[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 0.5f * (float)(i % 7);
        s[i] = SENTINEL;
    }
    /* The first launch binds the driver and makes a context current. */
    void *fn = NULL;
    int st = tk_cuda_function(&tk_cuda_mod_TKC_LAUNCH_TK, 0, &fn);
    if (st != TK_OK) {
        printf("%s\n", tk_last_error());
        return st == TK_ERR_NO_DEVICE ? 3 : 1;
    }
    void *h = dlopen(TKC_CUDA_LIBNAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("FAIL dlopen %s\n", TKC_CUDA_LIBNAME);
        return 1;
    }
    CtxCreate ctx_create = (CtxCreate)sym(h, "cuCtxCreate_v2");
    CtxOp ctx_destroy = (CtxOp)sym(h, "cuCtxDestroy_v2"), ctx_set = (CtxOp)sym(h, "cuCtxSetCurrent");
    StreamCreate stream_create = (StreamCreate)sym(h, "cuStreamCreate");
    StreamOp stream_destroy = (StreamOp)sym(h, "cuStreamDestroy_v2");
    StreamOp stream_sync = (StreamOp)sym(h, "cuStreamSynchronize");
    void *ctx = NULL;
    tk_cu.CtxGetCurrent(&ctx);

    tk_CUdeviceptr dx = upload(x, N), dy = upload(y, N), dout = upload(s, N);
    const float *px = (const float *)(uintptr_t)dx, *py = (const float *)(uintptr_t)dy;
    float *pout = (float *)(uintptr_t)dout;

    /* bad arguments: nothing written */
    expect("NULL x", vadd_cuda(NULL, py, pout, N, NULL), TK_ERR_ARG, "vadd");
    expect("NULL out", vadd_cuda(px, py, NULL, N, NULL), TK_ERR_ARG, "vadd");
    expect("negative N", vadd_cuda(px, py, pout, -1, NULL), TK_ERR_ARG, "vadd");
    expect("N above 2^62", vadd_cuda(px, py, pout, (int64_t)1 << 62 | 1, NULL), TK_ERR_ARG, "vadd");
    expect("require N % 4 == 0", twice4_cuda(px, pout, N - 1, NULL), TK_ERR_REQUIRE, "twice4");
    check_out("bad arguments write nothing", dout, x, y, false);

    /* a stream of another context: refused, nothing written */
    void *other = NULL, *ostream = NULL;
    if (ctx_create(&other, 0, 0) != 0 || stream_create(&ostream, 0) != 0) {
        printf("FAIL creating a second context and a stream in it\n");
        return 1;
    }
    ctx_set(ctx);
    st = vadd_cuda(px, py, pout, N, ostream);
    expect("a stream of another context", st, TK_ERR_DEVICE, "vadd");
    if (!strstr(tk_last_error(), "another CUDA context"))
        fail("the message names the other context", st);
    check_out("a stream of another context writes nothing", dout, x, y, false);
    stream_destroy(ostream);
    ctx_destroy(other);
    ctx_set(ctx);

    /* good launches: the default stream, then a stream of this context */
    st = vadd_cuda(px, py, pout, N, NULL);
    if (st != TK_OK)
        fail("vadd on the default stream", st);
    check_out("vadd on the default stream", dout, x, y, true);
    tk_cu.MemcpyHtoD(dout, s, sizeof s);
    void *stream = NULL;
    if (stream_create(&stream, 0) != 0) {
        printf("FAIL cuStreamCreate\n");
        return 1;
    }
    st = vadd_cuda(px, py, pout, N, stream);
    if (st != TK_OK)
        fail("vadd on a stream of the current context", st);
    stream_sync(stream);
    check_out("vadd on a stream of the current context", dout, x, y, true);
    stream_destroy(stream);
    tk_cu.MemFree(dx);
    tk_cu.MemFree(dy);
    tk_cu.MemFree(dout);
    if (!fails)
        printf("launch: all error paths return a status and write nothing\n");
    return fails != 0;
}
#endif
