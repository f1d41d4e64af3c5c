# tests/gpu/ncu_attn.py LIB [D] [CAUSAL] — one call of a tkc sdpa_bf16 build
# (tests/gpu/bench_attn.c around a header, as bench_attn.sh builds it) and
# one of PyTorch's cuDNN SDPA on the same tensors, B=4 H=16 S=T=4096, for
# Nsight Compute (tests/gpu/ncu_attn.sh): both are warmed up first and only
# the two measured calls lie between cudaProfilerStart and Stop.
import ctypes
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

lib = ctypes.CDLL(sys.argv[1])
D = int(sys.argv[2]) if len(sys.argv) > 2 else 128
causal = len(sys.argv) > 3 and sys.argv[3] == "1"
fn = lib.tkb_sdpa
i64, u64 = ctypes.c_int64, ctypes.c_uint64
fn.argtypes = [u64] * 4 + [ctypes.c_float] + [i64] * 4 + [ctypes.POINTER(i64), ctypes.c_void_p]
fn.restype = ctypes.c_int
B, H, S = 4, 16, 4096
torch.manual_seed(0)
q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16) for _ in range(3))
o = torch.empty_like(q)
st = (i64 * 16)(*[s for t in (q, k, v, o) for s in t.stride()])


def tkc():
    r = fn(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), D ** -0.5, B, H, S, S, st,
           ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    assert r == 0, r


def cudnn():
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


for _ in range(3):
    tkc()
    ref = cudnn()
torch.cuda.synchronize()
print("max |tkc - cudnn| %.2e" % (o.float() - ref.float()).abs().max().item())
torch.cuda.profiler.start()
tkc()
cudnn()
torch.cuda.synchronize()
torch.cuda.profiler.stop()
