# tests/gpu/tmap4_probe.py — does the driver build the rank-4 tensor maps of
# sdpa_bf16's key loop (TKC_KEY_TMA=1, targets/cuda/header.c tk_cuda_tmapn)
# for contiguous [B, H, T, D] and for views of a packed [B, T, 3, H, D]
# (H's stride below T's)?  Prints cuTensorMapEncodeTiled's result per case.
import ctypes
import torch

cu = ctypes.CDLL("libcuda.so.1")
enc = cu.cuTensorMapEncodeTiled
enc.restype = ctypes.c_int


def encode(t, box0, box1):
    B, H, T, D = t.shape
    sB, sH, sT, sD = t.stride()
    assert sD == 1
    m = (ctypes.c_uint64 * 16)()
    dim = (ctypes.c_uint64 * 4)(D, T, H, B)
    st = (ctypes.c_uint64 * 3)(sT * 2, sH * 2, sB * 2)
    box = (ctypes.c_uint32 * 4)(box0, box1, 1, 1)
    step = (ctypes.c_uint32 * 4)(1, 1, 1, 1)
    swz = 3 if box0 * 2 == 128 else 2 if box0 * 2 == 64 else 1
    return enc(m, 1, 4, ctypes.c_void_p(t.data_ptr()), dim, st, box, step, 0, swz, 2, 0)


torch.zeros(1, device="cuda")
for D in (64, 128, 80):
    E = 64 if D % 64 == 0 else 16
    c = torch.zeros(2, 4, 256, D, device="cuda", dtype=torch.bfloat16)
    qkv = torch.zeros(2, 256, 3, 4, D, device="cuda", dtype=torch.bfloat16)
    k = qkv[:, :, 1].transpose(1, 2)
    print("tmap4 D=%d contiguous: %d, packed-QKV view (strides %s): %d" % (D, encode(c, E, 64), k.stride(), encode(k, E, 64)))
