# tests/gpu/s26/ncu_rp.py LIB — one call of a tkc sdpa_relpos_bf16 build
# (tests/gpu/bench_attn.c with -DKIND_RELPOS) at SAM's global attention
# (B=8 H=12, 64 x 64 tokens, D=64) between cudaProfilerStart and Stop,
# after warm-up calls, for Nsight Compute (tests/gpu/s26/ncu_rp.sh).
import ctypes
import sys

import torch

lib = ctypes.CDLL(sys.argv[1])
fn = lib.tkb_relpos
i64, u64 = ctypes.c_int64, ctypes.c_uint64
fn.argtypes = [u64] * 6 + [ctypes.c_float] + [i64] * 6 + [ctypes.POINTER(i64), ctypes.c_void_p]
fn.restype = ctypes.c_int
B, H, G, D = 8, 12, 64, 64
S = G * G
torch.manual_seed(0)
q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16) for _ in range(3))
rh, rw = (torch.randn(B, H, S, G, device="cuda", dtype=torch.bfloat16) for _ in range(2))
o = torch.empty_like(q)
st = (i64 * 24)(*[s for t in (q, k, v, rh, rw, o) for s in t.stride()])


def tkc():
    r = fn(q.data_ptr(), k.data_ptr(), v.data_ptr(), rh.data_ptr(), rw.data_ptr(), o.data_ptr(),
           D ** -0.5, B, H, S, S, G, G, st, ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    assert r == 0, r


for _ in range(3):
    tkc()
torch.cuda.synchronize()
torch.cuda.profiler.start()
tkc()
torch.cuda.synchronize()
torch.cuda.profiler.stop()
