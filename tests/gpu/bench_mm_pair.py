# tests/gpu/bench_mm_pair.py — matmul_bf16 variants (shared libraries built
# from tests/gpu/bench_mm_lib.c) and torch.matmul (cuBLAS) timed in turns in
# one process: per shape, after a check of every variant against torch's
# float32 product (output poisoned with NaN first) and a second of warm-up,
# PAIR_ROUNDS rounds each time a ~30 ms burst of every one (the order rotated
# from round to round).  A burst's speed drifts with the card's clock and
# temperature by several percent from one run to the next (doc/bench/
# h100-s6-mm-*.log); the ratio to cuBLAS is taken per round, between bursts
# a few milliseconds apart, and its median printed.  The burst sizes are
# taken after a first burst of each: without it the cuBLAS column at the
# first size read 348 and 360 TFLOP/s at 4096^3 (doc/bench/h100-s6-mm-2.log,
# h100-s6-persist.log) where bench_mm.py reads 737-805 — most likely
# cuBLAS's one-time set-up made its first timing so long that its bursts
# were single calls, timed with the host's launch gap.  With the first burst
# (doc/bench/h100-s7-mm-*.log) cuBLAS reads 667-683 / 652-658 TFLOP/s at
# 4096^3 / 8192^3 where bench_mm.py's timer, right after, reads 745-807 /
# 725-732: every column (tkc's too) reads lower under the ~10 s of
# back-to-back bursts; the per-round ratios are the figures to compare.
#
# PAIR_DTYPE=f16: f16 tensors (libraries built with -DTKB_F16: matmul_f16).
#
#   python3 tests/gpu/bench_mm_pair.py LABEL=lib.so ... [-- SIZE ...]   (SIZE: N for N x N x N, or MxNxK)
import ctypes
import os
import sys

import torch

ROUNDS = max(1, int(os.environ.get("PAIR_ROUNDS", "25")))
DT = torch.float16 if os.environ.get("PAIR_DTYPE", "bf16") == "f16" else torch.bfloat16
BURST_MS = float(os.environ.get("BURST_MS", "30"))
args = sys.argv[1:]
sizes = [4096, 8192]
if "--" in args:
    i = args.index("--")
    sizes = args[i + 1:]
    args = args[:i]
u64, i64 = ctypes.c_uint64, ctypes.c_int64
libs = []
for a in args:
    label, path = a.split("=", 1)
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.tkb_mm.argtypes = [u64, u64, u64, i64, i64, i64, ctypes.c_void_p]
    lib.tkb_mm.restype = ctypes.c_int
    lib.tkb_error.restype = ctypes.c_char_p
    libs.append((label, lib))


def med(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


for size in sizes:
    # a size is N (N x N x N) or MxNxK
    m_, n_, k_ = [int(x) for x in size.split("x")] if "x" in size else [int(size)] * 3
    torch.manual_seed(m_ * 7 + n_ * 3 + k_)
    a = torch.randn(m_, k_, device="cuda", dtype=DT)
    b = torch.randn(k_, n_, device="cuda", dtype=DT)
    ref = a.float() @ b.float()
    shape = "%d^3" % m_ if m_ == n_ == k_ else "%dx%dx%d" % (m_, n_, k_)
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    fns = {}
    # without out=: torch.matmul(a, b, out=c) ran at 348 TFLOP/s at 4096^3
    # where torch.matmul(a, b) runs at 740-800 (doc/bench/h100-s6-mm-2.log)
    fns["cublas"] = lambda: torch.matmul(a, b)
    for label, lib in libs:
        c = torch.empty(m_, n_, device="cuda", dtype=DT)

        def fn(lib=lib, c=c, label=label):
            r = lib.tkb_mm(a.data_ptr(), b.data_ptr(), c.data_ptr(), m_, k_, n_, stream)   # tkb_mm takes M, K, N
            if r != 0:
                raise RuntimeError("%s: status %d: %s" % (label, r, lib.tkb_error().decode()))
        fns[label] = fn
        c.fill_(float("nan"))
        fn()
        torch.cuda.synchronize()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        print("check %-8s %s rel err %.2e %s" % (label, shape, err, "ok" if err < 1e-2 else "FAILED"))
    names = list(fns)
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def burst(fn, reps):
        e0.record()
        for _ in range(reps):
            fn()
        e1.record()
        torch.cuda.synchronize()
        return e0.elapsed_time(e1) / reps

    for n in names:      # first calls (cuBLAS's set-up) before the burst sizes are taken
        burst(fns[n], 3)
    reps = {n: max(1, int(BURST_MS / burst(fns[n], 3))) for n in names}
    for _ in range(max(1, int(1000 / (BURST_MS * len(names))))):   # warm-up, ~1 s
        for n in names:
            burst(fns[n], reps[n])
    tf = {n: [] for n in names}
    flop = 2.0 * m_ * n_ * k_
    for r in range(ROUNDS):
        k = r % len(names)
        for n in names[k:] + names[:k]:
            tf[n].append(flop / (burst(fns[n], reps[n]) * 1e-3) / 1e12)
    for n in names:
        ratio = [x / y for x, y in zip(tf[n], tf["cublas"])]
        print("pair %-8s %s %7.1f TFLOP/s (min %6.1f max %6.1f)  vs cublas %.3f (rounds: min %.3f max %.3f)"
              % (n, shape, med(tf[n]), min(tf[n]), max(tf[n]), med(ratio), min(ratio), max(ratio)))
