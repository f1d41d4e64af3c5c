# tests/gpu/s11/drv.py LIB... — one sdpa_bf16 launch per library (bench_attn.c
# built from a tkc header), B=4 H=16 S=T=4096 bf16, for ncu to profile.
import ctypes, sys, torch
B, H, S = 4, 16, 4096
for path in sys.argv[1:]:
    D = 128 if "d128" in path else 64
    lib = ctypes.CDLL(path)
    lib.tkb_error.restype = ctypes.c_char_p
    i64, u64, f32 = ctypes.c_int64, ctypes.c_uint64, ctypes.c_float
    fn = lib.tkb_sdpa
    fn.argtypes = [u64] * 4 + [f32] + [i64] * 4 + [ctypes.POINTER(i64), ctypes.c_void_p]
    fn.restype = ctypes.c_int
    g = torch.Generator(device="cuda").manual_seed(1)
    q, k, v = (torch.randn(B, H, S, D, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
    o = torch.empty_like(q)
    st = [s for t in (q, k, v, o) for s in t.stride()]
    sta = (i64 * 16)(*st)
    r = fn(q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), D ** -0.5, B, H, S, S, sta,
           ctypes.c_void_p(torch.cuda.current_stream().cuda_stream))
    torch.cuda.synchronize()
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    print(path, "rc", r, lib.tkb_error(), "maxerr", (o.float() - ref.float()).abs().max().item())
