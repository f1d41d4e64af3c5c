# tests/gpu/s30/ncu_win.py LIB — one call of a tkc sdpa_relpos_bf16 build
# (tests/gpu/bench_attn.c -DKIND_RELPOS) at SAM's windowed attention (B=200
# windows, H=12, 14 x 14 tokens, D=64) and one of torch's no-bias SDPA on
# the same q, k, v, for Nsight Compute (tests/gpu/s30/n1.sh): both warmed
# up first, only the two measured calls between cudaProfilerStart and Stop.
import ctypes
import sys

import torch
import torch.nn.functional as F

lib = ctypes.CDLL(sys.argv[1])
fn = lib.tkb_relpos
i64, u64 = ctypes.c_int64, ctypes.c_uint64
fn.argtypes = [u64] * 6 + [ctypes.c_float] + [i64] * 6 + [ctypes.POINTER(i64), ctypes.c_void_p]
fn.restype = ctypes.c_int
B, H, KH, KW, D = 200, 12, 14, 14, 64
S = KH * KW
torch.manual_seed(0)
q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16) for _ in range(3))
th = torch.randn(B, H, S, KH, device="cuda", dtype=torch.bfloat16)
tw = torch.randn(B, H, S, KW, device="cuda", dtype=torch.bfloat16)
o = torch.empty_like(q)
st = (i64 * 24)(*[s for t in (q, k, v, th, tw, o) for s in t.stride()])


def tkc():
    r = fn(q.data_ptr(), k.data_ptr(), v.data_ptr(), th.data_ptr(), tw.data_ptr(), o.data_ptr(),
           D ** -0.5, B, H, S, S, KH, KW, st, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    assert r == 0, r


def plain():
    return F.scaled_dot_product_attention(q, k, v)


for _ in range(3):
    tkc()
    plain()
torch.cuda.synchronize()
torch.cuda.profiler.start()
tkc()
plain()
torch.cuda.synchronize()
torch.cuda.profiler.stop()
