/* tests/eco/dlpack_cuda.c — NAME_cuda_dl checks its DLTensors before any
 * driver call: CPU tensors are refused with TK_ERR_ARG, CUDA tensors reach the
 * launcher (TK_ERR_NO_DEVICE on a machine without a driver, TK_OK with one),
 * and the C entry point refuses CUDA tensors.  Built against
 * `tkc tests/run/vadd.tk --target=c,cuda`. */
#include <stdio.h>
#include <string.h>

#include "dlpack_min.h"
#define TKC_DLPACK 1
#include "vadd_cuda.h"

static int fails;

static void expect(const char *what, tk_status got, tk_status want, const char *text)
{
    if (got != want || !strstr(tk_last_error(), text)) {
        printf("FAIL %s: status %d (want %d), message \"%s\" (want \"%s\")\n", what, (int)got, (int)want,
               tk_last_error(), text);
        fails++;
    }
}

int main(void)
{
    float a[4] = {1, 2, 3, 4}, b[4] = {0}, c[4] = {0};
    int64_t shape[1] = {4};
    DLTensor x = {.data = a, .device = {kDLCPU, 0}, .ndim = 1, .dtype = {kDLFloat, 32, 1}, .shape = shape};
    DLTensor y = x, z = x;
    y.data = b;
    z.data = c;
    expect("cpu tensors to vadd_cuda_dl", vadd_cuda_dl(&x, &y, &z, NULL), TK_ERR_ARG, "expected 2 (kDLCUDA)");
    x.device.device_type = y.device.device_type = z.device.device_type = kDLCUDA;
    tk_status st = vadd_cuda_dl(&x, &y, &z, NULL);
    if (st != TK_ERR_NO_DEVICE && st != TK_ERR_DEVICE && st != TK_OK) {
        printf("FAIL cuda tensors: status %d: %s\n", (int)st, tk_last_error());
        fails++;
    }
    expect("cuda tensors to vadd_dl", vadd_dl(&x, &y, &z), TK_ERR_ARG, "expected 1 (kDLCPU)");
    puts(fails ? "failed" : "ok");
    return fails != 0;
}
