# tests/bench/torch_sdpa.py — PyTorch's CPU SDPA as a rival for tests/bench/run.sh's
# attention section: f32 scaled_dot_product_attention on B H S T D shapes, with
# torch's threads set to OMP_NUM_THREADS.  Times the median of repeated calls
# after a warm-up and prints, per case, "NAME ms GFLOP/s" with the FLOPs
# counted as bench_attn.c counts them (4 D per visible query-key pair).
#
#   python3 tests/bench/torch_sdpa.py NAME:B:H:S:T:D:CAUSAL ...
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", os.cpu_count() or 1)))
for case in sys.argv[1:]:
    name, b, h, s, t, d, causal = case.split(":")
    b, h, s, t, d, causal = int(b), int(h), int(s), int(t), int(d), causal == "true"
    g = torch.Generator().manual_seed(1)
    q = torch.rand(b, h, s, d, generator=g) * 2 - 1
    k = torch.rand(b, h, t, d, generator=g) * 2 - 1
    v = torch.rand(b, h, t, d, generator=g) * 2 - 1
    # torch's is_causal is top-left aligned; with S == T (these cases) it is tkc's rule
    pairs = sum(min(t, max(0, i + (t - s) + 1)) for i in range(s)) if causal else s * t
    flops = 4.0 * b * h * pairs * d
    with torch.no_grad():
        F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        times = []
        for _ in range(7):
            t0 = time.perf_counter()
            F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            times.append(time.perf_counter() - t0)
    ms = statistics.median(times) * 1e3
    print("%s %.3f %.2f" % (name, ms, flops / (ms * 1e-3) / 1e9))
