#!/usr/bin/env python3
"""tests/gpu/s26/mkrp.py OUTDIR — variants of stdlib/attention.tk for timing
sdpa_relpos_bf16 at SAM's global attention (KW = 64 = BLOCK_N): each copy's
sdpa_relpos_bf16 body keeps only the one-key-row-per-block walk (so that
ptxas allocates registers for that path alone), calling
  rp_global.tk  relpos_rows_bf16 (the code that runs now)
  rp_ahead.tk   rows_ahead: q k^T of key row kh issued, then p v of row
                kh - 1 (p and alpha carried over), then row kh's softmax
                (sdpa_tc's loop at D >= 128, FlashAttention-3's order)
  rp_mma2.tk    rows2_mma: two key rows an iteration (two WN-wide dots, WN =
                BLOCK_N / 2), rel_w added by the tensor cores: its [BM, WN]
                tile in f16 times a WN x WN identity times 1 / scale (f16),
                chained into each q k^T's accumulator
  rp_r2.tk      rows2r: KW = BLOCK_N / 2 (SAM global at 128-wide blocks): two
                key rows an iteration as one BLOCK_N-wide block of contiguous
                keys (one n = 128 dot), rel_w added by the tensor cores (its
                tile times [I I] / scale, f16), rel_h per half-row folded
                into the two halves' maxima and subtractions
Timing only: other key-row widths store zeros (wrong)."""
import os, re, sys

out = sys.argv[1]
src = open(os.path.join(os.path.dirname(__file__), "../../../stdlib/attention.tk")).read()

ahead = '''
fn rows_ahead(BM: int, D: int, WN: int, qt, k, v, rel_h, rel_w, o, qk_scale, b, h, rm, S, T, KH, KW) {
    let rd = arange(D);
    let c  = arange(WN);
    let bw = where(c[None, :] < KW,
                   (unchecked load(rel_w[b, h, rm[:, None], c[None, :]],
                                   mask = (rm[:, None] < S) && (c[None, :] < KW)) as f32) * 1.4426950408889634,
                   -inf);
    var m   = full([BM], -inf);
    var l   = zeros(f32, [BM]);
    var acc = zeros(f32, [BM, D]);
    var p   = zeros(bf16, [BM, WN]);
    var alpha = full([BM], 1.0);
    for kh in range(0, KH) {
        let rn = kh * KW + c;
        let bh = rel_h_col(rel_h, b, h, rm, S, kh, true);
        let a0 = acc * alpha[:, None];
        let x0 = dot(qt, trans(load(k[b, h, rn, rd])));
        acc = dot(p, load(v[b, h, rn - KW, rd]), a0);
        let x  = x0 * qk_scale + bw;
        let m_new = max(m, max(x, axis = 1) + bh);
        let m_sub = safe_max(m_new);
        let pf    = exp2(x - (m_sub - bh)[:, None]);
        alpha = exp2(m - m_sub);
        l   = l * alpha + sum(pf, axis = 1);
        p   = pf as bf16;
        m   = m_new;
    }
    acc = dot(p, load(v[b, h, (KH - 1) * KW + c, rd]), acc * alpha[:, None]);
    store(o[b, h, rm, rd], normalise_rcp(acc, l));
}
'''

mma2 = '''
fn rows2_mma(BM: int, D: int, WN: int, qt, k, v, rel_h, rel_w, o, qk_scale, b, h, rm, S, T, KH, KW) {
    let scale = qk_scale / 1.4426950408889634;
    let rd = arange(D);
    let c  = arange(WN);
    let bwa = where(c[None, :] < KW,
                    unchecked load(rel_w[b, h, rm[:, None], c[None, :]],
                                   mask = (rm[:, None] < S) && (c[None, :] < KW)) as f32,
                    -30000.0) as f16;
    let eye = where(c[:, None] == c[None, :], 1.0 / scale, 0.0) as f16;
    let cs  = max(qk_scale, 1.0e-30);
    var m   = full([BM], -inf);
    var l   = zeros(f32, [BM]);
    var acc = zeros(f32, [BM, D]);
    for kh in range(0, KH, 2) {
        let r0 = kh * KW + c;
        let r1 = r0 + KW;
        let b0 = rel_h_col(rel_h, b, h, rm, S, kh, true);
        let b1 = rel_h_col(rel_h, b, h, rm, S, kh + 1, kh + 1 < KH);
        let x0 = dot(bwa, eye, dot(qt, trans(load(k[b, h, r0, rd]))));
        let x1 = dot(bwa, eye, dot(qt, trans(load(k[b, h, r1, rd]))));
        let m_new = max(m, max(max(x0, axis = 1) * cs + b0, max(x1, axis = 1) * cs + b1));
        let m_sub = safe_max(m_new);
        let p0    = exp2(x0 * cs - (m_sub - b0)[:, None]);
        let p1    = exp2(x1 * cs - (m_sub - b1)[:, None]);
        let alpha = exp2(m - m_sub);
        l   = l * alpha + (sum(p0, axis = 1) + sum(p1, axis = 1));
        acc = dot(p1 as bf16, load(v[b, h, r1, rd]), dot(p0 as bf16, load(v[b, h, r0, rd]), acc * alpha[:, None]));
        m   = m_new;
    }
    store(o[b, h, rm, rd], normalise_rcp(acc, l));
}
'''

r2 = '''
fn rows2r(BM: int, D: int, WN: int, qt, k, v, rel_h, rel_w, o, qk_scale, b, h, rm, S, T, KH, KW) {
    let scale = qk_scale / 1.4426950408889634;
    let inv = 1.0 / scale;
    let rd = arange(D);
    let HW = WN / 2;
    let c  = arange(WN);
    let cw = arange(HW);
    let c16 = arange(16);
    let bwa = where(cw[None, :] < KW,
                    unchecked load(rel_w[b, h, rm[:, None], cw[None, :]],
                                   mask = (rm[:, None] < S) && (cw[None, :] < KW)) as f32,
                    -30000.0) as f16;
    let eye = where(cw[:, None] == c[None, :] % HW, inv, 0.0) as f16;
    let eyh = where((c16[:, None] == 0 && c[None, :] < HW) || (c16[:, None] == 1 && c[None, :] >= HW), inv, 0.0) as f16;
    let cs  = max(qk_scale, 1.0e-30);
    var m   = full([BM], -inf);
    var l   = zeros(f32, [BM]);
    var acc = zeros(f32, [BM, D]);
    for kh in range(0, KH, 2) {
        let rn = kh * KW + c;
        let b0 = rel_h_col(rel_h, b, h, rm, S, kh, true);
        let b1 = rel_h_col(rel_h, b, h, rm, S, kh + 1, kh + 1 < KH);
        let x = dot(bwa, eye, dot(qt, trans(load(k[b, h, rn, rd]))));
        let first = c[None, :] < HW;
        let mx0 = max(where(first, x, -inf), axis = 1);
        let mx1 = max(where(first, -inf, x), axis = 1);
        let m_new = max(m, max(mx0 * cs + b0, mx1 * cs + b1));
        let m_sub = safe_max(m_new);
        let p     = exp2(x * cs - where(first, (m_sub - b0)[:, None], (m_sub - b1)[:, None]));
        let alpha = exp2(m - m_sub);
        l   = l * alpha + sum(p, axis = 1);
        acc = dot(p as bf16, load(v[b, h, rn, rd]), acc * alpha[:, None]);
        m   = m_new;
    }
    store(o[b, h, rm, rd], normalise_rcp(acc, l));
}
'''

head, rest = src.split("@autotune(BLOCK_M = [64, 128], BLOCK_N = [32, 64, 128], warps = [4, 8], stages = [1, 2, 3])\n@launch(fast_exp2 = true, blocks = 4", 1)
sig_end = rest.index("{\n", rest.index("kernel sdpa_relpos_bf16")) + 2
kernel_head = "@launch(fast_exp2 = true, blocks = 4" + rest[:sig_end]
for name, fn, wn, cond in (("rp_global", "relpos_rows_bf16", "BLOCK_N", "2 * KW > BLOCK_N && KW <= BLOCK_N"),
                           ("rp_ahead", "rows_ahead", "BLOCK_N", "2 * KW > BLOCK_N && KW <= BLOCK_N"),
                           ("rp_mma2", "rows2_mma", "BLOCK_N / 2", "4 * KW > BLOCK_N && 2 * KW <= BLOCK_N"),
                           ("rp_r2", "rows2r", "BLOCK_N", "2 * KW == BLOCK_N")):
    body = f'''    let b  = program_id(1) / H;
    let h  = program_id(1) % H;
    let rm = program_id(0) * BLOCK_M + arange(BLOCK_M);
    let rd = arange(D);
    let qt = load(q[b, h, rm, rd]);
    let qk_scale = scale * 1.4426950408889634;
    if {cond} {{
        {fn}(BLOCK_M, D, {wn}, qt, k, v, rel_h, rel_w, o, qk_scale, b, h, rm, S, T, KH, KW);
    }} else {{
        store(o[b, h, rm, rd], zeros(f32, [BLOCK_M, D]));
    }}
}}
'''
    with open(os.path.join(out, name + ".tk"), "w") as f:
        f.write(head + ahead + mma2 + r2 + kernel_head + body)
