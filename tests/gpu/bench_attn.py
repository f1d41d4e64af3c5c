# tests/gpu/bench_attn.py CONFIGS — the PyTorch side of tests/gpu/bench_attn.sh.
#
# CONFIGS has one line per tkc build: NAME KIND(sdpa|relpos) D CAUSAL BM BN LIB.
# Each LIB is tests/gpu/bench_attn.c around a generated header; it is called
# through ctypes with torch's device pointers, strides and current stream,
# so tkc and torch run on the same tensors in this one process.  Before any
# timing every result is checked against a float32 reference on a slice
# (batch 0, two heads) and tkc against torch on the whole output; a wrong
# result prints FAIL and the script exits 1 (ATTN_TURNS=N: every shape's
# candidates, torch's and tkc's, timed again in N interleaved rounds, see
# in_turns; sdpa_relpos's next to torch's no-bias SDPA; ATTN_FORCE=1: a wrong
# result is timed all the same, for experiments that drop work; ATTN_RELH_T=1:
# each relpos build also checked and timed with rel_h laid out query-major, a
# strided view).  Times: median of 7 rounds (CUDA events) after warm-up.  "extra" is the peak memory a call allocates
# beyond what exists before it (its output included).
import ctypes
import math
import os
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print("SKIP bench_attn: no torch")
    sys.exit(0)
if not torch.cuda.is_available():
    print("SKIP bench_attn: torch sees no CUDA device")
    sys.exit(0)
from bench_util import median_ms

try:
    from torch.nn.attention import SDPBackend, sdpa_kernel
except ImportError:
    SDPBackend = sdpa_kernel = None

dev = "cuda"
bf16 = torch.bfloat16
failed = False


def fail(what):
    global failed
    failed = True
    print("FAIL " + what)


def bench(fn):
    """Median ms of one call: 7 rounds of n calls, n chosen for ~50 ms rounds."""
    return median_ms(fn, warmup=2, round_ms=50.0, max_reps=20)


def extra_peak(fn):
    """Bytes allocated at the peak of one call beyond what was allocated before."""
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    out = fn()
    torch.cuda.synchronize()
    peak = torch.cuda.max_memory_allocated() - base
    del out
    return peak


def gib(x):
    return "%.2f GiB" % (x / 2**30) if x >= 2**28 else "%.1f MiB" % (x / 2**20)


class Tkc:
    """One tkc configuration's launcher (tests/gpu/bench_attn.c)."""

    def __init__(self, path, kind):
        self.lib = ctypes.CDLL(path)
        self.lib.tkb_error.restype = ctypes.c_char_p
        i64, u64, f32 = ctypes.c_int64, ctypes.c_uint64, ctypes.c_float
        if kind == "relpos":
            self.fn = self.lib.tkb_relpos
            self.fn.argtypes = [u64] * 6 + [f32] + [i64] * 6 + [ctypes.POINTER(i64), ctypes.c_void_p]
        else:
            self.fn = self.lib.tkb_sdpa
            self.fn.argtypes = [u64] * 4 + [f32] + [i64] * 4 + [ctypes.POINTER(i64), ctypes.c_void_p]
        self.fn.restype = ctypes.c_int

    def _call(self, tensors, scale, dims):
        strides = [s for t in tensors for s in t.stride()]
        st = (ctypes.c_int64 * len(strides))(*strides)
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
        r = self.fn(*[t.data_ptr() for t in tensors], scale, *dims, st, stream)
        if r != 0:
            raise RuntimeError("tkc: status %d: %s" % (r, self.lib.tkb_error().decode()))

    def sdpa(self, q, k, v, scale):
        o = torch.empty(q.shape, dtype=q.dtype, device=q.device)
        B, H, S, _ = q.shape
        self._call([q, k, v, o], scale, [B, H, S, k.shape[2]])
        return o

    def relpos(self, q, k, v, rel_h, rel_w, scale):
        o = torch.empty(q.shape, dtype=q.dtype, device=q.device)
        B, H, S, _ = q.shape
        self._call([q, k, v, rel_h, rel_w, o], scale,
                   [B, H, S, k.shape[2], rel_h.shape[3], rel_w.shape[3]])
        return o


def ref32(q, k, v, scale, causal=False, bias=None):
    """float32 attention on batch 0, heads 0 and 1 (bias: [B, H, S, T] or None)."""
    q, k, v = (t[0, :2].float() for t in (q, k, v))
    s = scale * q @ k.transpose(-1, -2)
    if bias is not None:
        s = s + bias[0, :2].float()
    if causal:
        S, T = s.shape[-2:]
        s = s.masked_fill(torch.ones(S, T, dtype=torch.bool, device=dev).tril(T - S).logical_not(), -math.inf)
    return torch.softmax(s, dim=-1) @ v


def err_slice(o, ref):
    return (o[0, :2].float() - ref).abs().max().item()


def tflops(flops, ms):
    return flops / (ms * 1e-3) / 1e12


def configs(path, kind):
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) in (7, 8) and w[1] == kind:
                label = ("default" if w[4] == "def" else w[4] + "x" + w[5]) + ("" if len(w) == 7 or w[7] == "-" else " " + w[7])
                out.append(dict(name=w[0], d=int(w[2]), causal=w[3] == "true", bm=w[4], bn=w[5],
                                label=label, lib=Tkc(w[6], kind)))
    return out


# ---------------------------------------------------------------- sdpa

def torch_backends():
    if sdpa_kernel is None:
        return [("default", None)]
    return [("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION)]


def torch_sdpa(backend, q, k, v, causal):
    if backend is None:
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
    with sdpa_kernel(backend):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def strided_check(cfg):
    """tkc on slices of a packed [B, S, 3, H, D] projection equals tkc on
    contiguous copies, at an odd length (masked tails)."""
    B, H, S, D = 1, 4, 1000, cfg["d"]
    qkv = torch.randn(B, S, 3, H, D, device=dev, dtype=bf16)
    q, k, v = (qkv[:, :, i].transpose(1, 2) for i in range(3))
    scale = D ** -0.5
    a = cfg["lib"].sdpa(q, k, v, scale)
    b = cfg["lib"].sdpa(q.contiguous(), k.contiguous(), v.contiguous(), scale)
    e = err_slice(a, ref32(q, k, v, scale, cfg["causal"]))
    diff = (a.float() - b.float()).abs().max().item()
    if not diff < 1e-2 or not e < 2e-2:
        fail("%s: packed-QKV views: differ from contiguous by %.2e, error vs fp32 %.2e" % (cfg["name"], diff, e))


def in_turns(timers, flops, rounds):
    """ATTN_TURNS=N: every (label, fn) timed again in N rounds, one ~50 ms
    turn each per round, the same order every round: the clock's drift
    over the run (power, heat) then falls on every candidate alike.  The
    median per call over the rounds, its spread, and each one's ratio to the
    best torch backend's rounds, round by round."""
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    reps, per = [], [[] for _ in timers]
    for _, fn in timers:
        fn()
        torch.cuda.synchronize()
        a.record(); fn(); b.record(); torch.cuda.synchronize()
        reps.append(max(1, min(20, int(50.0 / max(a.elapsed_time(b), 1e-3)))))
    for _ in range(rounds):
        for i, (_, fn) in enumerate(timers):
            a.record()
            for _ in range(reps[i]):
                fn()
            b.record()
            torch.cuda.synchronize()
            per[i].append(a.elapsed_time(b) / reps[i])
    med = [sorted(t)[len(t) // 2] for t in per]
    torch_i = [i for i, (n, _) in enumerate(timers) if n.startswith("torch")]
    best = min(torch_i, key=lambda i: med[i]) if torch_i else None
    print("  in turns (%d rounds; median ms, TFLOP/s, min..max ms%s):" %
          (rounds, ", vs " + timers[best][0].split()[1] + " round by round" if best is not None else ""))
    for i, (n, _) in enumerate(timers):
        r = ""
        if best is not None and i != best:
            q = sorted(per[best][j] / per[i][j] for j in range(rounds))
            r = "   ratio %.3f (rounds %.3f..%.3f)" % (q[len(q) // 2], q[0], q[-1])
        print("    turns %-18s %8.3f ms %7.1f TFLOP/s  (%.3f..%.3f)%s" %
              (n, med[i], tflops(flops, med[i]), min(per[i]), max(per[i]), r))


def run_sdpa(path):
    # ATTN_SHAPE="B H S" another shape (S = T), e.g. "1 16 16384"
    B, H, S = (int(x) for x in os.environ.get("ATTN_SHAPE", "4 16 4096").split())
    cfgs = configs(path, "sdpa")
    for D in sorted({c["d"] for c in cfgs}):
        for causal in (False, True):
            mine = [c for c in cfgs if c["d"] == D and c["causal"] == causal]
            if not mine:
                continue
            torch.manual_seed(0)
            q, k, v = (torch.randn(B, H, S, D, device=dev, dtype=bf16) for _ in range(3))
            scale = D ** -0.5
            flops = 4.0 * B * H * S * S * D * (0.5 if causal else 1.0)
            print("\nsdpa bf16 B=%d H=%d S=T=%d D=%d %s: TFLOP/s counting %s" %
                  (B, H, S, D, "causal" if causal else "non-causal",
                   "half of 4 B H S T D" if causal else "4 B H S T D"))
            ref = ref32(q, k, v, scale, causal)
            best_torch, best_name, torch_out, torch_err = 0.0, "-", None, 0.0
            timers = []          # (label, fn): what ATTN_TURNS times again in turns
            for name, be in torch_backends():
                try:
                    o = torch_sdpa(be, q, k, v, causal)
                except RuntimeError as e:
                    print("  torch %-8s skipped: %s" % (name, str(e).splitlines()[0][:90]))
                    continue
                e = err_slice(o, ref)
                ms = bench(lambda: torch_sdpa(be, q, k, v, causal))
                timers.append(("torch " + name, lambda be=be: torch_sdpa(be, q, k, v, causal)))
                print("  torch %-12s %9.3f ms %8.1f TFLOP/s   (max err vs fp32 %.1e)" % (name, ms, tflops(flops, ms), e))
                if tflops(flops, ms) > best_torch:
                    best_torch, best_name = tflops(flops, ms), name
                torch_out = o if torch_out is None else torch_out
                torch_err = max(torch_err, e)
            best_tkc, best_cfg = 0.0, "-"
            for c in mine:
                try:
                    o = c["lib"].sdpa(q, k, v, scale)
                    torch.cuda.synchronize()
                except RuntimeError as e:
                    fail("%s: %s" % (c["name"], e))
                    continue
                e = err_slice(o, ref)
                tol = max(2e-2, 3 * torch_err)
                agree = (o.float() - torch_out.float()).abs().max().item() if torch_out is not None else 0.0
                if not torch.isfinite(o).all() or not e < tol or not agree < 0.1:
                    fail("%s: max error vs fp32 %.2e (limit %.0e), vs torch %.2e" % (c["name"], e, tol, agree))
                    if os.environ.get("ATTN_FORCE") != "1":
                        continue
                else:
                    strided_check(c)
                ms = bench(lambda: c["lib"].sdpa(q, k, v, scale))
                timers.append(("tkc   " + c["label"], lambda c=c: c["lib"].sdpa(q, k, v, scale)))
                print("  tkc   %-12s %9.3f ms %8.1f TFLOP/s   (max err vs fp32 %.1e, vs torch %.1e)" %
                      (c["label"], ms, tflops(flops, ms), e, agree))
                if tflops(flops, ms) > best_tkc:
                    best_tkc, best_cfg = tflops(flops, ms), c["label"]
            if best_torch > 0 and best_tkc > 0:
                print("  ratio tkc %s / torch %s: %.3f" % (best_cfg, best_name, best_tkc / best_torch))
            if int(os.environ.get("ATTN_TURNS", "0")) > 0 and timers:
                in_turns(timers, flops, int(os.environ["ATTN_TURNS"]))
            del q, k, v, ref, torch_out
            torch.cuda.empty_cache()


# ---------------------------------------------------------------- relpos

def get_rel_pos(q_size, k_size, rel_pos):
    """segment_anything/modeling/image_encoder.py (no interpolation needed here)."""
    q_coords = torch.arange(q_size, device=dev)[:, None] * max(k_size / q_size, 1.0)
    k_coords = torch.arange(k_size, device=dev)[None, :] * max(q_size / k_size, 1.0)
    rel = (q_coords - k_coords) + (k_size - 1) * max(q_size / k_size, 1.0)
    return rel_pos[rel.long()]


def run_relpos(path, what, B, NH, QH, QW, D=64):
    KH, KW = QH, QW
    S, T = QH * QW, KH * KW
    cfgs = configs(path, "relpos")
    if not cfgs:
        return
    torch.manual_seed(0)
    q, k, v = (torch.randn(B, NH, S, D, device=dev, dtype=bf16) for _ in range(3))
    rel_pos_h = (0.1 * torch.randn(2 * QH - 1, D, device=dev)).to(bf16)
    rel_pos_w = (0.1 * torch.randn(2 * QW - 1, D, device=dev)).to(bf16)
    scale = D ** -0.5
    # SAM's add_decomposed_rel_pos: per-query tables from the unscaled q.
    r_q = q.reshape(B * NH, QH, QW, D)
    rel_h = torch.einsum("bhwc,hkc->bhwk", r_q, get_rel_pos(QH, KH, rel_pos_h))   # [B*NH, QH, QW, KH]
    rel_w = torch.einsum("bhwc,wkc->bhwk", r_q, get_rel_pos(QW, KW, rel_pos_w))   # [B*NH, QH, QW, KW]
    th, tw = rel_h.reshape(B, NH, S, KH), rel_w.reshape(B, NH, S, KW)

    def bias():
        return (rel_h[:, :, :, :, None] + rel_w[:, :, :, None, :]).reshape(B, NH, S, T)

    def sdpa_bias():       # (a) the bias materialized as attn_mask
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias(), scale=scale)

    def sam_eager():       # (b) segment_anything's Attention.forward after the tables
        qf, kf, vf = (t.reshape(B * NH, S, D) for t in (q, k, v))
        attn = (qf * scale) @ kf.transpose(-2, -1)
        attn = (attn.view(B * NH, QH, QW, KH, KW) + rel_h[:, :, :, :, None]
                + rel_w[:, :, :, None, :]).view(B * NH, S, T)
        return (attn.softmax(dim=-1) @ vf).view(B, NH, S, D)

    def plain():           # (c) no bias at all: the floor
        return F.scaled_dot_product_attention(q, k, v, scale=scale)

    print("\nsdpa_relpos bf16 (SAM ViT-B %s attention): B=%d H=%d %dx%d tokens (S=T=%d) D=%d; "
          "rel_h/rel_w tables given (their einsums are not timed)" % (what, B, NH, QH, QW, S, D))
    full = bias()
    ref = ref32(q, k, v, scale, bias=full)
    del full
    rows = [("(a) SDPA + bias as attn_mask", sdpa_bias), ("(b) SAM eager", sam_eager), ("(c) SDPA, no bias", plain)]
    if os.environ.get("ATTN_COMPILE") == "1":
        try:
            rows.append(("(d) torch.compile of (a)", torch.compile(sdpa_bias, mode="max-autotune-no-cudagraphs")))
        except Exception as e:  # no compiler toolchain: say so and go on
            print("  (d) torch.compile skipped: %s" % type(e).__name__)
    times, out_a, err_a = {}, None, 0.0
    for name, fn in rows:
        try:
            o = fn()
        except Exception as e:
            print("  %-30s skipped: %s" % (name, str(e).splitlines()[0][:90]))
            continue
        e = err_slice(o, ref) if not name.startswith("(c)") else None
        if name.startswith("(a)"):
            out_a, err_a = o, e
        del o
        ms = bench(fn)
        times[name] = ms
        print("  %-30s %9.3f ms   extra %-10s (%s)" % (name, ms, gib(extra_peak(fn)),
              "no bias: not compared" if e is None else "max err vs fp32 %.1e" % e))
    def judged(what, o):
        """o's max error vs fp32 and vs (a); FAIL and False when off."""
        e = err_slice(o, ref)
        agree = (o.float() - out_a.float()).abs().max().item() if out_a is not None else 0.0
        tol = max(2e-2, 3 * err_a)
        ok = bool(torch.isfinite(o).all()) and e < tol and agree < 0.1
        if not ok:
            fail("%s: max error vs fp32 %.2e (limit %.1e), vs (a) %.2e" % (what, e, tol, agree))
        return e, agree, ok

    timers = [("torch no-bias", plain)] if "(c) SDPA, no bias" in times else []
    for c in cfgs:
        try:
            o = c["lib"].relpos(q, k, v, th, tw, scale)
            torch.cuda.synchronize()
        except RuntimeError as e:
            fail("%s: %s" % (c["name"], e))
            continue
        e, agree, ok = judged(c["name"], o)
        del o
        if not ok and os.environ.get("ATTN_FORCE") != "1":
            continue
        fn = lambda c=c: c["lib"].relpos(q, k, v, th, tw, scale)
        timers.append(("tkc " + c["label"], fn))
        ms = bench(fn)
        print("  %-30s %9.3f ms   extra %-10s (max err vs fp32 %.1e, vs (a) %.1e)" %
              ("tkc sdpa_relpos " + c["label"], ms, gib(extra_peak(fn)), e, agree))
        for name, t in times.items():
            print("      vs %-30s %6.2fx %s" % (name, t / ms, "faster" if t >= ms else "slower"))
        if os.environ.get("ATTN_RELH_T") == "1":
            # the same rel_h values laid out query-major ([B, H, KH, S]
            # memory, passed as its [B, H, S, KH] view): what an einsum
            # "bhwc,hkc->bhkw" gives; the kernel takes strided tables
            th_t = th.transpose(2, 3).contiguous().transpose(2, 3)
            o = c["lib"].relpos(q, k, v, th_t, tw, scale)
            torch.cuda.synchronize()
            e_t, _, ok_t = judged(c["name"] + " relh_t", o)
            del o
            if not ok_t and os.environ.get("ATTN_FORCE") != "1":
                del th_t
                continue
            ms_t = bench(lambda: c["lib"].relpos(q, k, v, th_t, tw, scale))
            print("  %-30s %9.3f ms   (rel_h query-major; max err vs fp32 %.1e)" %
                  ("tkc sdpa_relpos " + c["label"] + " relh_t", ms_t, e_t))
            del th_t
    if int(os.environ.get("ATTN_TURNS", "0")) > 0 and len(timers) > 1:
        in_turns(timers, 4.0 * B * NH * (QH * QW) ** 2 * D, int(os.environ["ATTN_TURNS"]))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "build/gpu-bench-attn/configs"
    print("torch %s, %s" % (torch.__version__, torch.cuda.get_device_name()))
    run_sdpa(path)
    # SAM ViT-B: 64x64 tokens in the global blocks; in the windowed ones 14x14
    # windows, 25 per image (64 padded to 70), so B * 25 of them.
    # ATTN_RELPOS=global|window picks one.
    shapes = os.environ.get("ATTN_RELPOS", "global window").split()
    if "global" in shapes:
        run_relpos(path, "global", 8, 12, 64, 64)
    if "window" in shapes:
        run_relpos(path, "windowed (14x14 windows)", 8 * 25, 12, 14, 14)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":   # (tests/gpu/s28/f32.py imports Tkc)
    main()
