# tests/gpu/bench_ref.py — the PyTorch (and Triton, when importable)
# references for tests/gpu/bench.sh, same shapes and byte counts, and the
# device-to-device copy bandwidth they are all measured against.
import torch

from bench_util import median_ms

M, N = 8192, 4096
dev = "cuda"


def bench(fn, bytes_):
    ms = median_ms(fn, warmup=3, reps=20)
    return ms, bytes_ / (ms * 1e-3) / 1e9


def line(who, name, r):
    print("%-5s %-24s %8.3f ms %8.1f GB/s" % (who, name, r[0], r[1]))


x32 = torch.randn(M, N, device=dev)
y32 = torch.empty_like(x32)
line("copy", "f32 device-to-device", bench(lambda: y32.copy_(x32), 2.0 * M * N * 4))
line("torch", "softmax f32", bench(lambda: torch.softmax(x32, dim=1), 2.0 * M * N * 4))
x16 = torch.randn(M, N, device=dev, dtype=torch.float16)
w16 = torch.randn(N, device=dev, dtype=torch.float16)
b16 = torch.randn(N, device=dev, dtype=torch.float16)
line("torch", "layernorm f16",
     bench(lambda: torch.nn.functional.layer_norm(x16, (N,), w16, b16, 1e-5), 2.0 * M * N * 2 + 4.0 * N))
bias = torch.randn(N, device=dev)
res = torch.randn(M, N, device=dev)
line("torch", "bias+gelu+residual f32",
     bench(lambda: torch.nn.functional.gelu(x32 + bias) + res, 3.0 * M * N * 4 + 4.0 * N))
try:
    import triton
    import triton.language as tl

    @triton.jit
    def softmax_rows(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * n + cols, mask=cols < n, other=-float("inf"))
        e = tl.exp(v - tl.max(v, axis=0))
        tl.store(y_ptr + row * n + cols, e / tl.sum(e, axis=0), mask=cols < n)

    def tri():
        softmax_rows[(M,)](x32, y32, N, BLOCK=4096, num_warps=8)

    line("trit", "softmax f32", bench(tri, 2.0 * M * N * 4))
except Exception as e:  # no Triton: say so and go on
    print("trit  softmax f32: skipped (%s)" % type(e).__name__)
try:
    import triton
    import triton.language as tl

    # The row in registers, as stdlib layernorm_f16 with PASSES=1: statistics
    # in f32, d = x - mean kept for the output.
    @triton.jit
    def layernorm_rows(x_ptr, w_ptr, b_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        inside = cols < n
        v = tl.load(x_ptr + row * n + cols, mask=inside, other=0.0).to(tl.float32)
        mean = tl.sum(v, axis=0) / n
        d = tl.where(inside, v - mean, 0.0)
        rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n + eps)
        w = tl.load(w_ptr + cols, mask=inside, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=inside, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * n + cols, (d * rstd * w + b).to(tl.float16), mask=inside)

    y16 = torch.empty_like(x16)

    def tri_ln():
        layernorm_rows[(M,)](x16, w16, b16, y16, N, 1e-5, BLOCK=4096, num_warps=8)

    tri_ln()
    ref = torch.nn.functional.layer_norm(x16.float(), (N,), w16.float(), b16.float(), 1e-5)
    if not torch.allclose(y16.float(), ref, atol=2e-2, rtol=2e-2):
        raise ValueError("Triton layernorm disagrees with torch")
    line("trit", "layernorm f16", bench(tri_ln, 2.0 * M * N * 2 + 4.0 * N))
except Exception as e:  # no Triton: say so and go on
    print("trit  layernorm f16: skipped (%s: %s)" % (type(e).__name__, e))
