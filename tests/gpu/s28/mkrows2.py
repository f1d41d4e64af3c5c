#!/usr/bin/env python3
"""tests/gpu/s28/mkrows2.py DIR — DIR/rp_rows2.tk: stdlib/attention.tk with
sdpa_relpos_bf16 walking two key rows an iteration where 2 KW <= BLOCK_N <
4 KW (SAM global at BLOCK_N = 128: KW = 64): two KW-wide q k^T dots sharing
the one rel_w tile in registers, one running maximum, rescale and row sum
per two rows, p v as a chain of two dots (as relpos_rows4_bf16 does for
four short rows)."""
import sys

src = open("stdlib/attention.tk").read()
fn = '''
fn relpos_rows2_bf16(BM: int, D: int, WN: int, qt, k, v, rel_h, rel_w, o, qk_scale, b, h, rm, S, T, KH, KW) {
    let rd = arange(D);
    let c  = arange(WN);
    let bw = where(c[None, :] < KW,
                   (unchecked load(rel_w[b, h, rm[:, None], c[None, :]],
                                   mask = (rm[:, None] < S) && (c[None, :] < KW)) as f32) * 1.4426950408889634,
                   -inf);
    var m   = full([BM], -inf);
    var l   = zeros(f32, [BM]);
    var acc = zeros(f32, [BM, D]);
    for kh in range(0, KH, 2) {
        let r0 = kh * KW + c;
        let r1 = r0 + KW;
        let b0 = rel_h_col(rel_h, b, h, rm, S, kh, true);
        let b1 = rel_h_col(rel_h, b, h, rm, S, kh + 1, kh + 1 < KH);
        let x0 = dot(qt, trans(load(k[b, h, r0, rd]))) * qk_scale + bw;
        let x1 = dot(qt, trans(load(k[b, h, r1, rd]))) * qk_scale + bw;
        let m_new = max(m, max(max(x0, axis = 1) + b0, max(x1, axis = 1) + b1));
        let m_sub = safe_max(m_new);
        let p0    = exp2(x0 - (m_sub - b0)[:, None]);
        let p1    = exp2(x1 - (m_sub - b1)[:, None]);
        let alpha = exp2(m - m_sub);
        l   = l * alpha + (sum(p0, axis = 1) + sum(p1, axis = 1));
        acc = dot(p1 as bf16, load(v[b, h, r1, rd]), dot(p0 as bf16, load(v[b, h, r0, rd]), acc * alpha[:, None]));
        m   = m_new;
    }
    store(o[b, h, rm, rd], normalise_rcp(acc, l));
}
'''
anchor = "// relpos_rows_bf16 four key rows at a time"
assert src.count(anchor) == 1
src = src.replace(anchor, fn.lstrip("\n") + "\n" + anchor)
old = """            relpos_rows_bf16(BLOCK_M, D, BLOCK_N / 2, qt, k, v, rel_h, rel_w, o, qk_scale, b, h, rm, S, T, KH, KW);"""
assert src.count(old) == 1
src = src.replace(old, old.replace("relpos_rows_bf16(", "relpos_rows2_bf16("))
open(sys.argv[1] + "/rp_rows2.tk", "w").write(src)
