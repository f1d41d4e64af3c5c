#!/usr/bin/env python3
"""tests/gpu/sass_loops.py FILE.sass [KERNEL] — the loops of each kernel in
cuobjdump -sass output (every backward branch: its target .. the branch),
with their instruction counts and those of the instructions that matter in
tkc's MMA loops (HGMMA, MUFU, the FP32 ops, spills, shared memory,
barriers).  The counts are static: a branch inside a loop that skips a
block at run time (sdpa_bf16's key mask, `if n >= n_full`) still counts
that block.  tests/gpu/sass_local.sh makes FILE.sass from a .tk file
without a GPU."""
import re
import sys

KEYS = ["HGMMA", "MUFU", "FFMA", "FADD", "FMUL", "FMNMX", "F2FP", "SHFL", "STL", "LDL", "LDS", "STS", "BAR", "SYNCS"]


def opcode(text):
    words = text.split()
    op = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
    return op.split(".")[0]


def main():
    text = open(sys.argv[1]).read()
    want = sys.argv[2] if len(sys.argv) > 2 else None
    parts = re.split(r"\n\s*Function : (\S+)", text)
    for i in range(1, len(parts), 2):
        name, body = parts[i], parts[i + 1]
        if want and name != want:
            continue
        ins = []
        for line in body.split("\n"):
            m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
            if m:
                ins.append((int(m.group(1), 16), m.group(2).strip()))
        at = {a: k for k, (a, _) in enumerate(ins)}
        print(f"== {name}: {len(ins)} instructions")
        for k, (a, t) in enumerate(ins):
            m = re.search(r"BRA (?:\S+, )?0x([0-9a-f]+)", t)
            if not m or int(m.group(1), 16) >= a or int(m.group(1), 16) not in at:
                continue
            top = int(m.group(1), 16)
            count = {}
            for _, x in ins[at[top]:k + 1]:
                count[opcode(x)] = count.get(opcode(x), 0) + 1
            print(f"  loop {top:#x}-{a:#x}: {k + 1 - at[top]} instructions; "
                  + " ".join(f"{key}={count.get(key, 0)}" for key in KEYS))


if __name__ == "__main__":
    main()
