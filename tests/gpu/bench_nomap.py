"""tests/gpu/bench_nomap.py LIB_OLD LIB_LEAN — sdpa_bf16 (D=128) with k and v one
element off 16-byte alignment (no tensor maps: NAME__nomap runs) through two
launcher libraries (tests/gpu/bench_attn.c), TKC_NOMAP_LEAN=0 and 1, checked
against torch and timed side by side; then the aligned case (NAME) with each."""
import ctypes
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_util import median_ms  # noqa: E402


def lib(path):
    L = ctypes.CDLL(path)
    L.tkb_error.restype = ctypes.c_char_p
    i64, u64, f32 = ctypes.c_int64, ctypes.c_uint64, ctypes.c_float
    L.tkb_sdpa.argtypes = [u64] * 4 + [f32] + [i64] * 4 + [ctypes.POINTER(i64), ctypes.c_void_p]
    L.tkb_sdpa.restype = ctypes.c_int
    return L


def call(L, q, k, v, scale):
    o = torch.empty(q.shape, dtype=q.dtype, device=q.device)
    B, H, S, _ = q.shape
    ts = [q, k, v, o]
    st = [s for t in ts for s in t.stride()]
    arr = (ctypes.c_int64 * len(st))(*st)
    r = L.tkb_sdpa(*[t.data_ptr() for t in ts], scale, B, H, S, k.shape[2], arr,
                   ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    if r:
        raise RuntimeError(L.tkb_error().decode())
    return o


libs = [("old", lib(sys.argv[1])), ("lean", lib(sys.argv[2]))]
torch.manual_seed(0)
for B, H, S, D in [(4, 16, 4096, 128), (1, 16, 1024, 128)]:
    q = torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16)
    for shift in (1, 0):
        buf = torch.randn(2 * B * H * S * D + 8, device="cuda", dtype=torch.bfloat16)
        k = buf[shift:shift + B * H * S * D].view(B, H, S, D)
        v = buf[shift + B * H * S * D:shift + 2 * B * H * S * D].view(B, H, S, D)
        scale = D ** -0.5
        ref = F.scaled_dot_product_attention(q, k, v, scale=scale)
        # float32 on contiguous (aligned) copies: which of torch on the
        # misaligned views and tkc is off when they disagree
        ref32 = F.scaled_dot_product_attention(q.float(), k.contiguous().float(), v.contiguous().float(), scale=scale)
        fl = 4.0 * B * H * S * S * D
        tt = median_ms(lambda: F.scaled_dot_product_attention(q, k, v, scale=scale), warmup=2, round_ms=50.0, max_reps=20)
        line = "sdpa_bf16 B=%d H=%d S=T=%d D=%d k,v %s: torch %.3f ms (err vs f32 of aligned copies %.3g)" % (
            B, H, S, D, "unaligned (+2 B)" if shift else "aligned", tt, (ref.float() - ref32).abs().max().item())
        for name, L in libs:
            o = call(L, q, k, v, scale)
            err = (o.float() - ref.float()).abs().max().item()
            e32 = (o.float() - ref32).abs().max().item()
            ms = median_ms(lambda: call(L, q, k, v, scale), warmup=2, round_ms=50.0, max_reps=20)
            line += "; %s %.3f ms %.1f TFLOP/s err vs torch %.3g, vs f32 %.3g%s" % (name, ms, fl / ms / 1e9, err, e32, " FAIL" if e32 > 0.05 else "")
        print(line, flush=True)
