# tests/gpu/ncu_sass.py SASS.CSV — a summary of Nsight Compute's per-SASS-
# instruction counters (tests/gpu/ncu_attn.sh with SASS=1: --page source
# --print-source sass --csv): warp instructions executed and stall samples
# by opcode, the share of the hottest loop (the instructions executed most
# often, all the same number of times: a key loop's body) and of the rest,
# and the rest's most executed instructions (spin loops, per-program code).
import collections
import csv
import re
import sys

lines = [l for l in open(sys.argv[1]) if l.startswith('"0x') or l.startswith('"Address"')]
r = csv.reader(lines)
ix = {h: i for i, h in enumerate(next(r))}
rows = []
for row in r:
    rows.append((int(row[0], 16), row[1].strip(), int(row[ix["Instructions Executed"]] or 0),
                 int(row[ix["Warp Stall Sampling (All Samples)"]] or 0)))
base = rows[0][0]
tot = sum(x[2] for x in rows) or 1
ts = sum(x[3] for x in rows) or 1


def opcode(s):
    return re.sub(r'^@!?U?P\w+\s+', '', s).split()[0].split('.')[0] if s else ''


def table(rs, n):
    h, hs = collections.Counter(), collections.Counter()
    for _, s, e, m in rs:
        h[opcode(s)] += e
        hs[opcode(s)] += m
    for k, v in h.most_common(n):
        print("  %-10s %12d %5.1f%%  samples %5.1f%%" % (k, v, 100 * v / tot, 100 * hs[k] / ts))


print("warp instructions executed %d, stall samples %d" % (tot, ts))
table(rows, 30)
hot = max((e for _, _, e, _ in rows), key=lambda e: sum(x[2] == e for x in rows) * e)
loop = [x for x in rows if x[2] == hot]
rest = [x for x in rows if x[2] != hot and x[2] > 0]
print("\nhottest loop (each executed %d times): %d instructions, %.1f%% of the executed, %.1f%% of the samples"
      % (hot, len(loop), 100 * sum(x[2] for x in loop) / tot, 100 * sum(x[3] for x in loop) / ts))
print("the rest: %.1f%% of the executed, %.1f%% of the samples"
      % (100 * sum(x[2] for x in rest) / tot, 100 * sum(x[3] for x in rest) / ts))
table(rest, 15)
print("the rest's most executed instructions (offset, executed, samples):")
for a, s, e, m in sorted(rest, key=lambda x: -x[2])[:12]:
    print("  %6x %10d %5d  %s" % (a - base, e, m, s[:80]))
