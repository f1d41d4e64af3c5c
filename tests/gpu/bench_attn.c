/*
 * tests/gpu/bench_attn.c — one tkc attention kernel's CUDA launcher as a
 * shared library, for tests/gpu/bench_attn.py (ctypes): PyTorch allocates
 * the tensors, tkc and PyTorch run on the same data in the same process and
 * on the same stream, so the results are compared and the times measured
 * side by side.  bench_attn.sh builds one library per configuration:
 *
 *   -DTK_HEADER='"sdpa_bf16.h"'                       tkb_sdpa: sdpa_bf16_cuda
 *   -DTK_HEADER='"sdpa_relpos_bf16.h"' -DKIND_RELPOS  tkb_relpos: sdpa_relpos_bf16_cuda
 *   -DTK_HEADER='"sdpa.h"' -DKIND_F32                 tkb_sdpa: sdpa_cuda (f32)
 *
 * Tensors are device addresses (torch's data_ptr()), strides in elements as
 * torch's stride() gives them, 4 per tensor in the kernel's parameter order.
 * The launch is asynchronous on `stream` (torch's current stream); the
 * status says whether it was launched, tkb_error() why not.
 */
#include <stdint.h>

#include TK_HEADER   /* made by bench_attn.sh: tkc --target=cuda */

#define P(T, x) ((T *)(uintptr_t)(x))

#ifdef KIND_RELPOS
/* st: q, k, v, rel_h, rel_w, o: 24 strides. */
int tkb_relpos(uint64_t q, uint64_t k, uint64_t v, uint64_t rel_h, uint64_t rel_w, uint64_t o,
               float scale, int64_t B, int64_t H, int64_t S, int64_t T, int64_t KH, int64_t KW,
               const int64_t *st, void *stream)
{
    return sdpa_relpos_bf16_cuda(P(const tk_bf16, q), P(const tk_bf16, k), P(const tk_bf16, v),
                                 P(const tk_bf16, rel_h), P(const tk_bf16, rel_w), P(tk_bf16, o),
                                 scale, B, H, S, T, KH, KW, st[0], st[1], st[2], st[3], st[4],
                                 st[5], st[6], st[7], st[8], st[9], st[10], st[11], st[12], st[13],
                                 st[14], st[15], st[16], st[17], st[18], st[19], st[20], st[21],
                                 st[22], st[23], stream);
}
#elif defined(KIND_F32)
/* st: q, k, v, o: 16 strides. */
int tkb_sdpa(uint64_t q, uint64_t k, uint64_t v, uint64_t o, float scale, int64_t B, int64_t H,
             int64_t S, int64_t T, const int64_t *st, void *stream)
{
    return sdpa_cuda(P(const float, q), P(const float, k), P(const float, v), P(float, o), scale, B, H,
                     S, T, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9], st[10],
                     st[11], st[12], st[13], st[14], st[15], stream);
}
#else
/* st: q, k, v, o: 16 strides. */
int tkb_sdpa(uint64_t q, uint64_t k, uint64_t v, uint64_t o, float scale, int64_t B, int64_t H,
             int64_t S, int64_t T, const int64_t *st, void *stream)
{
    return sdpa_bf16_cuda(P(const tk_bf16, q), P(const tk_bf16, k), P(const tk_bf16, v),
                          P(tk_bf16, o), scale, B, H, S, T, st[0], st[1], st[2], st[3], st[4],
                          st[5], st[6], st[7], st[8], st[9], st[10], st[11], st[12], st[13], st[14],
                          st[15], stream);
}
#endif

const char *tkb_error(void)
{
    return tk_last_error();
}
