#!/usr/bin/env python3
"""tests/gpu/s28/f32.py LIB:LABEL ... — stdlib's f32 `sdpa` on the GPU at
several block sizes (one bench_attn.c library each, built with -DKIND_F32
by tests/gpu/s28/f32.sh): B=4 H=16 S=T=2048, D from the label, each
checked against torch's SDPA in float64 and timed in 10 interleaved rounds with CUDA
events next to torch's f32 SDPA (its default backend)."""
import statistics
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, "tests/gpu")
from bench_attn import Tkc  # noqa: E402  (its kind "sdpa": tkb_sdpa, which -DKIND_F32 builds)


def timed(fn, reps=10):
    fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(reps):
        fn()
    b.record()
    torch.cuda.synchronize()
    return a.elapsed_time(b) / reps


def main():
    libs = [x.split(":") for x in sys.argv[1:]]
    B, H, S = 4, 16, 2048
    for d in sorted({int(l[1].split("_")[0][1:]) for l in libs}):
        torch.manual_seed(0)
        q, k, v = (torch.randn(B, H, S, d, device="cuda", dtype=torch.float32) for _ in range(3))
        scale = d ** -0.5
        ref = F.scaled_dot_product_attention(q.double(), k.double(), v.double(), scale=scale).float()
        cands = [("torch f32", lambda: F.scaled_dot_product_attention(q, k, v, scale=scale))]
        for path, label in libs:
            if int(label.split("_")[0][1:]) != d:
                continue
            t = Tkc(path, "sdpa")
            err = (t.sdpa(q, k, v, scale) - ref).abs().max().item()
            print("  tkc %-14s max err vs float64 %.1e%s" % (label, err, "" if err < 2e-3 else "  FAIL"))
            cands.append(("tkc " + label, (lambda t=t: t.sdpa(q, k, v, scale))))
        times = {n: [] for n, _ in cands}
        for _ in range(10):
            for n, fn in cands:
                times[n].append(timed(fn))
        fl = 4 * B * H * S * S * d
        print("sdpa f32 B=%d H=%d S=T=%d D=%d, 10 interleaved rounds:" % (B, H, S, d))
        base = statistics.median(times["torch f32"])
        for n, _ in cands:
            ms = statistics.median(times[n])
            print("    %-20s %8.3f ms %7.1f TFLOP/s  vs torch %.3f" % (n, ms, fl / ms / 1e9, base / ms))


if __name__ == "__main__":
    main()
