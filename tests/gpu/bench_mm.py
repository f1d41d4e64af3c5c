# tests/gpu/bench_mm.py — the references for tests/gpu/bench_mm.sh: checks
# tkc's results (raw bf16 or f16 dumps of a, b, c) against torch's float32
# product, then times torch.matmul (cuBLAS) and, when importable, a Triton
# matmul on the same shapes.  Prints "WHO DTYPE MxNxK ms TFLOP/s".
#
#   python3 tests/gpu/bench_mm.py DUMPDIR [bf16|f16]
import glob
import os
import sys

import numpy as np
import torch

from bench_util import median_ms

dev = "cuda"
SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (4095, 4095, 4095), (16, 8192, 8192)]


def bench(fn, flop):
    ms = median_ms(fn, warmup=1, round_ms=20.0)
    return ms, flop / (ms * 1e-3) / 1e12


DT = sys.argv[2] if len(sys.argv) > 2 else "bf16"
TDT = {"bf16": torch.bfloat16, "f16": torch.float16}[DT]


def line(who, m, n, k, r):
    print("%-5s %-5s %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (who, DT, m, n, k, r[0], r[1]))


def load(path, shape):
    if DT == "f16":
        x = np.fromfile(path, dtype=np.float16).astype(np.float32)
    else:
        x = (np.fromfile(path, dtype=np.uint16).astype(np.int32) << 16).view(np.float32)
    return torch.from_numpy(x.reshape(shape)).to(dev)


# tkc's results against torch (float32 product of the same 16-bit inputs)
dump = sys.argv[1] if len(sys.argv) > 1 else None
for path in sorted(glob.glob(os.path.join(dump, "*.c"))) if dump else []:
    m, n, k = (int(v) for v in os.path.basename(path)[:-2].split("x"))
    a = load(path[:-1] + "a", (m, k))
    b = load(path[:-1] + "b", (k, n))
    c = load(path, (m, n))
    ref = a @ b
    err = (c - ref).abs()
    bad = int((err > 1e-2 * ref.abs() + 1e-2).sum())
    print("check tkc vs torch f32 %dx%dx%d: max abs err %.3g, max rel %.3g, %d bad of %d%s" % (
        m, n, k, err.max().item(), (err / ref.abs().clamp_min(1e-3)).max().item(), bad, m * n,
        "" if bad == 0 else "  CHECK FAILED"))
    del a, b, c, ref, err
    torch.cuda.empty_cache()

for (m, n, k) in SHAPES:
    a = torch.rand(m, k, device=dev, dtype=TDT) * 2 - 1
    b = torch.rand(k, n, device=dev, dtype=TDT) * 2 - 1
    line("torch", m, n, k, bench(lambda: torch.matmul(a, b), 2.0 * m * n * k))

try:
    import triton
    import triton.language as tl

    @triton.jit
    def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  GROUP: tl.constexpr):
        pid = tl.program_id(0)
        nm, nn = tl.cdiv(M, BM), tl.cdiv(N, BN)
        width = GROUP * nn
        first = pid // width * GROUP
        rows = min(nm - first, GROUP)
        pm = first + (pid % width) % rows
        pn = (pid % width) // rows
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            ka = k0 + rk
            x = tl.load(a_ptr + rm[:, None] * K + ka[None, :], mask=(rm[:, None] < M) & (ka[None, :] < K), other=0.0)
            y = tl.load(b_ptr + ka[:, None] * N + rn[None, :], mask=(ka[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc += tl.dot(x, y)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))

    for (m, n, k) in SHAPES:
        a = torch.rand(m, k, device=dev, dtype=TDT) * 2 - 1
        b = torch.rand(k, n, device=dev, dtype=TDT) * 2 - 1
        c = torch.empty(m, n, device=dev, dtype=TDT)
        bm = 16 if m <= 16 else 128
        grid = (triton.cdiv(m, bm) * triton.cdiv(n, 128),)

        def tri():
            mm_kernel[grid](a, b, c, m, n, k, BM=bm, BN=128, BK=64, GROUP=8, num_warps=8, num_stages=3)

        tri()
        ok = torch.allclose(c.float(), (a.float() @ b.float()), atol=5e-2, rtol=2e-2)
        line("trit", m, n, k, bench(tri, 2.0 * m * n * k))
        if not ok:
            print("trit  %dx%dx%d: result differs from torch" % (m, n, k))
except Exception as e:  # no Triton: say so and go on
    print("trit  skipped: %s" % str(e).splitlines()[0] if str(e) else "trit  skipped: %s" % type(e).__name__)
