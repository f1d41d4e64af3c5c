# tests/gpu/bench_dtype.py — the references for tests/gpu/bench_dtype.sh:
# torch.matmul on f32 with TF32 allowed (cuBLAS tf32) and torch._int_mm
# (i8 x i8 -> i32) on the same shapes (_int_mm wants K, N multiples of 8
# and M > 16: other shapes are skipped).  Prints "torch DTYPE MxNxK ms T(FL)OP/s".
import sys

import torch

from bench_util import median_ms

dev = "cuda"
torch.backends.cuda.matmul.allow_tf32 = True
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4095, 4095, 4095)]


def line(dt, m, n, k, ms, unit):
    print("torch %-5s %dx%dx%d %10.3f ms %8.1f %s" % (dt, m, n, k, ms, 2.0 * m * n * k / (ms * 1e-3) / 1e12, unit))


for (m, n, k) in SHAPES:
    a = torch.rand(m, k, device=dev) * 2 - 1
    b = torch.rand(k, n, device=dev) * 2 - 1
    line("tf32", m, n, k, median_ms(lambda: torch.matmul(a, b), warmup=1), "TFLOP/s")
    del a, b
    if k % 8 or n % 8 or m <= 16:
        print("torch i8    %dx%dx%d skipped (torch._int_mm needs K, N multiples of 8)" % (m, n, k))
        continue
    a = torch.randint(-128, 128, (m, k), device=dev, dtype=torch.int8)
    b = torch.randint(-128, 128, (k, n), device=dev, dtype=torch.int8)
    line("i8", m, n, k, median_ms(lambda: torch._int_mm(a, b), warmup=1), "TOP/s  ")
    del a, b
    torch.cuda.empty_cache()
sys.stdout.flush()
