#!/usr/bin/env python3
"""tests/gpu/s29/mkv.py DIR — from DIR/rp_global.tk (tests/gpu/s26/mkrp.py:
sdpa_relpos_bf16 with only its global walk, `if cond { walk } else { store
zeros }`), the same walk in other shapes of the kernel body, to find what
makes the versioned kernel (sdpa_relpos_bf16__v1: the walk at the top level,
then `if KW <= 0 { store zeros }`) slower than rp_global.tk:
  gn.tk  the walk alone, no if
  gz.tk  the walk, then if KW <= 0 { store zeros }   (v1's shape)
  gi.tk  if cond { walk }, then if KW <= 0 { store zeros }
Timing only: other key-row widths are wrong."""
import os, sys
d = sys.argv[1]
src = open(os.path.join(d, "rp_global.tk")).read()
call = "        relpos_rows_bf16(BLOCK_M, D, BLOCK_N, qt, k, v, rel_h, rel_w, o, qk_scale, b, h, rm, S, T, KH, KW);\n"
old = ("    if 2 * KW > BLOCK_N && KW <= BLOCK_N {\n" + call +
       "    } else {\n        store(o[b, h, rm, rd], zeros(f32, [BLOCK_M, D]));\n    }\n")
assert old in src
zero = "    if KW <= 0 {\n        store(o[b, h, rm, rd], zeros(f32, [BLOCK_M, D]));\n    }\n"
for name, body in (("gn", call[4:]), ("gz", call[4:] + zero),
                   ("gi", "    if 2 * KW > BLOCK_N && KW <= BLOCK_N {\n" + call + "    }\n" + zero)):
    open(os.path.join(d, name + ".tk"), "w").write(src.replace(old, body))
