"""tests/gpu/s24/cublas_kernels.py: which kernel cuBLAS (torch.matmul, bf16)
runs at each M x N x K given as arguments, from torch.profiler's CUDA
activity: its name says the tile, the cluster shape and split-K."""
import sys
import torch
from torch.profiler import profile, ProfilerActivity

for arg in sys.argv[1:]:
    m, n, k = (int(x) for x in arg.split("x"))
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
    torch.matmul(a, b)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        torch.matmul(a, b)
        torch.cuda.synchronize()
    names = sorted({e.name for e in prof.events() if e.device_type.name == "CUDA"})
    print(f"{arg}: {' | '.join(names)}")
