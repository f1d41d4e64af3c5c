/*
 * tests/gpu/bench_mm_lib.c — one matmul_bf16 header's CUDA launcher as a
 * shared library for tests/gpu/bench_mm_pair.py (ctypes), as bench_attn.c
 * does for attention: PyTorch allocates the tensors, and tkc and cuBLAS run
 * in one process on one stream, so that their times are taken side by side.
 *
 *   cc -fPIC -shared -DTK_HEADER='"bench.h"' -I DIR -o lib.so tests/gpu/bench_mm_lib.c -ldl
 *
 * Tensors are device addresses (torch's data_ptr(), contiguous); the launch
 * is asynchronous on `stream`; the status says whether it was launched,
 * tkb_error() why not.
 */
#include <stdint.h>

#include TK_HEADER   /* tkc stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 */

/* -DTKB_F16: the header's matmul_f16 (f16 tensors) instead. */
int tkb_mm(uint64_t a, uint64_t b, uint64_t c, int64_t M, int64_t K, int64_t N, void *stream)
{
#ifdef TKB_F16
    return matmul_f16_cuda((const tk_f16 *)(uintptr_t)a, (const tk_f16 *)(uintptr_t)b,
                           (tk_f16 *)(uintptr_t)c, M, K, N, stream);
#else
    return matmul_bf16_cuda((const tk_bf16 *)(uintptr_t)a, (const tk_bf16 *)(uintptr_t)b,
                            (tk_bf16 *)(uintptr_t)c, M, K, N, stream);
#endif
}

const char *tkb_error(void)
{
    return tk_last_error();
}
