# tests/gpu/s11rp/prof.py LIB KIND [N] — launch one tkc attention library
# (tests/gpu/bench_attn.c) N times (default 1) at SAM ViT-B global attention's
# shape (B=8 H=12 S=T=4096 D=64, bf16): for ncu, which profiles that launch.
# KIND relpos: sdpa_relpos_bf16 with rel_h / rel_w tables; sdpa: sdpa_bf16.
import ctypes, sys, torch
lib, kind = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 1
B, H, S, D, KH, KW = 8, 12, 4096, 64, 64, 64
dev = "cuda"
torch.manual_seed(0)
q, k, v = (torch.randn(B, H, S, D, device=dev, dtype=torch.bfloat16) for _ in range(3))
rel_h = torch.randn(B, H, S, KH, device=dev, dtype=torch.bfloat16)
rel_w = torch.randn(B, H, S, KW, device=dev, dtype=torch.bfloat16)
o = torch.empty_like(q)
L = ctypes.CDLL(lib)
L.tkb_error.restype = ctypes.c_char_p
i64, u64, f32 = ctypes.c_int64, ctypes.c_uint64, ctypes.c_float
if kind == "relpos":
    fn, ts, dims = L.tkb_relpos, [q, k, v, rel_h, rel_w, o], [B, H, S, S, KH, KW]
    fn.argtypes = [u64] * 6 + [f32] + [i64] * 6 + [ctypes.POINTER(i64), ctypes.c_void_p]
else:
    fn, ts, dims = L.tkb_sdpa, [q, k, v, o], [B, H, S, S]
    fn.argtypes = [u64] * 4 + [f32] + [i64] * 4 + [ctypes.POINTER(i64), ctypes.c_void_p]
st = [s for t in ts for s in t.stride()]
st = (i64 * len(st))(*st)
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
for _ in range(n):
    r = fn(*[t.data_ptr() for t in ts], D ** -0.5, *dims, st, stream)
    if r != 0:
        sys.exit("tkc: %d %s" % (r, L.tkb_error().decode()))
torch.cuda.synchronize()
print("ok", kind, lib, float(o.float().abs().mean()))
