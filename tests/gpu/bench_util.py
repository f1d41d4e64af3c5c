# tests/gpu/bench_util.py — what the GPU benchmarks' PyTorch sides share
# (bench_ref.py, bench_mm.py, bench_attn.py): the time of one call as the
# median of 7 rounds, measured with CUDA events on the current stream.
import torch


def median_ms(fn, warmup, reps=None, round_ms=20.0, max_reps=None):
    """Median ms of one fn() over 7 rounds of reps calls, after warmup calls.

    reps None: as many calls as fit in round_ms, from the time of one more
    call (at least 1, at most max_reps when given)."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    if reps is None:
        a.record()
        fn()
        b.record()
        torch.cuda.synchronize()
        reps = max(1, int(round_ms / max(a.elapsed_time(b), 1e-3)))
        if max_reps is not None:
            reps = min(max_reps, reps)
    times = []
    for _ in range(7):
        a.record()
        for _ in range(reps):
            fn()
        b.record()
        torch.cuda.synchronize()
        times.append(a.elapsed_time(b) / reps)
    return sorted(times)[3]
