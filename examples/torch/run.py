"""Call a tkc kernel on PyTorch tensors through DLPack (examples/torch).

    python3 run.py path/to/libxpy2.so

Each torch tensor is exported with torch.utils.dlpack.to_dlpack; the capsule
holds a DLManagedTensor whose first member is the DLTensor the generated
NAME_cuda_dl / NAME_dl entry points take.  The result is checked against
torch's own x + 2 * y, on the GPU when there is one and on the CPU.
"""
import ctypes
import sys

import torch
import torch.utils.dlpack

lib = ctypes.CDLL(sys.argv[1])
lib.tk_error.restype = ctypes.c_char_p
get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
get_pointer.restype = ctypes.c_void_p
get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def dltensor(t):
    cap = torch.utils.dlpack.to_dlpack(t)
    return cap, ctypes.c_void_p(get_pointer(cap, b"dltensor"))  # keep the capsule alive


def check(device, n):
    x = torch.randn(n, device=device)
    y = torch.randn(n, device=device)
    out = torch.full((n,), float("nan"), device=device)
    caps = [dltensor(t) for t in (x, y, out)]
    args = [p for _, p in caps]
    if device == "cuda":
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        st = lib.tk_xpy2_cuda_dl(*args, stream)
        torch.cuda.synchronize()
    else:
        st = lib.tk_xpy2_dl(*args)
    if st != 0:
        print(f"{device} n={n}: status {st}: {lib.tk_error().decode()}")
        return False
    err = (out - (x + 2 * y)).abs().max().item() if n else 0.0
    print(f"{device} n={n}: max |tkc - torch| = {err:.3g}")
    return err <= 1e-6


ok = all(check("cpu", n) for n in (0, 1, 1000, 4099))
if torch.cuda.is_available():
    ok = all(check("cuda", n) for n in (0, 1, 1000, 1 << 20, (1 << 20) + 3)) and ok
    # a CPU tensor handed to the CUDA entry point is refused, not crashed on
    caps = [dltensor(torch.zeros(4)) for _ in range(3)]
    st = lib.tk_xpy2_cuda_dl(*[p for _, p in caps], None)
    print(f"cpu tensors to xpy2_cuda_dl: status {st}: {lib.tk_error().decode()}")
    ok = ok and st != 0
else:
    print("no CUDA device: GPU part skipped")
print("OK" if ok else "FAILED")
sys.exit(0 if ok else 1)
