#!/usr/bin/env python3
"""tests/gpu/s27/mklazy.py DIR — DIR/rp_lazy.tk: stdlib/attention.tk with
relpos_bf16's running maximum moved only when a key row raises it by more
than 8 (log2 units: p up to 2^8; FlashAttention-4's lazy rescale) and
alpha exactly 1 where it did not move, so that TKC_SKIP_ONE=1 skips the
accumulators' rescale in most iterations."""
import sys

src = open("stdlib/attention.tk").read()
old = """        let x  = dot(qt, trans(load(k[b, h, rn, rd]))) * qk_scale + bw;
        let m_new = max(m, max(x, axis = 1) + bh);
        let m_sub = safe_max(m_new);
        let p     = exp2(x - (m_sub - bh)[:, None]);
        let alpha = exp2(m - m_sub);"""
new = """        let x  = dot(qt, trans(load(k[b, h, rn, rd]))) * qk_scale + bw;
        let m_blk = max(x, axis = 1) + bh;
        let m_new = where(m_blk > m + 8.0, m_blk, m);
        let m_sub = safe_max(m_new);
        let p     = exp2(x - (m_sub - bh)[:, None]);
        let alpha = where(m_new == m, 1.0, exp2(m - m_sub));"""
assert src.count(old) == 1
open(sys.argv[1] + "/rp_lazy.tk", "w").write(src.replace(old, new))
