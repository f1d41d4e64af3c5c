#!/usr/bin/env python3
"""tests/gpu/s27/mkpf.py DIR — DIR/rp_pf.tk: stdlib/attention.tk with
relpos_bf16's rel_h column loaded one key row ahead (a loop-carried bh,
its load at the top of the iteration before, consumed a whole iteration
later), for timing against the kernel as it is."""
import sys

src = open("stdlib/attention.tk").read()
old = """    for kh in range(0, KH) {
        let rn = kh * KW + c;
        let bh = rel_h_col(rel_h, b, h, rm, S, kh, true);
        // s = x + bh"""
new = """    var bh = rel_h_col(rel_h, b, h, rm, S, 0, true);
    for kh in range(0, KH) {
        let rn = kh * KW + c;
        let bh_next = rel_h_col(rel_h, b, h, rm, S, kh + 1, kh + 1 < KH);
        // s = x + bh"""
assert src.count(old) == 1
src = src.replace(old, new)
old2 = """        acc = dot(p as bf16, load(v[b, h, rn, rd]), acc * alpha[:, None]);
        m   = m_new;
    }
    store(o[b, h, rm, rd], normalise_rcp(acc, l));
}

// relpos_rows_bf16 four key rows at a time"""
new2 = """        acc = dot(p as bf16, load(v[b, h, rn, rd]), acc * alpha[:, None]);
        m   = m_new;
        bh  = bh_next;
    }
    store(o[b, h, rm, rd], normalise_rcp(acc, l));
}

// relpos_rows_bf16 four key rows at a time"""
assert src.count(old2) == 1
src = src.replace(old2, new2)
open(sys.argv[1] + "/rp_pf.tk", "w").write(src)
