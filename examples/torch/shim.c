/* examples/torch/shim.c — a shared object exporting the generated DLPack entry
 * points (they are static in the header) so Python can call them with ctypes. */
#define TKC_DLPACK 1
#include "xpy2.h"

int tk_xpy2_cuda_dl(const DLTensor *x, const DLTensor *y, const DLTensor *out, void *stream)
{
    return xpy2_cuda_dl(x, y, out, stream);
}

int tk_xpy2_dl(const DLTensor *x, const DLTensor *y, const DLTensor *out) { return xpy2_dl(x, y, out); }

const char *tk_error(void) { return tk_last_error(); }
