# tests/gpu/s22/prof.py — which cuBLAS kernels torch.matmul runs for the
# few-rows shapes (name, grid, block, time), from torch.profiler's trace.
import json, os, tempfile
import torch
from torch.profiler import profile, ProfilerActivity

for (m, n, k) in [(1, 8192, 8192), (16, 8192, 8192), (64, 8192, 8192), (128, 8192, 8192), (200, 8192, 8192),
                  (256, 8192, 8192), (16, 4096, 4096), (4096, 4096, 4096)]:
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    for _ in range(3):
        torch.matmul(a, b)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        torch.matmul(a, b)
        torch.cuda.synchronize()
    f = tempfile.mktemp(suffix=".json")
    p.export_chrome_trace(f)
    ev = [e for e in json.load(open(f))["traceEvents"] if e.get("cat") == "kernel"]
    for e in ev:
        ar = e.get("args", {})
        print("%dx%dx%d %8.1f us grid %s block %s smem %s regs %s %s" % (m, n, k, e.get("dur", 0), ar.get("grid"), ar.get("block"),
              ar.get("shared memory"), ar.get("registers per thread"), e["name"][:150]))
    os.unlink(f)
