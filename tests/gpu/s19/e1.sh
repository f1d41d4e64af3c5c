#!/bin/sh
# tests/gpu/s19/e1.sh — session 19, first call: what the acc rescale costs.
# nr: stdlib/attention.tk with every `acc * alpha[:, None]` replaced by acc
# (wrong results, ATTN_FORCE=1: the time with the rescale gone, the most a
# skipped rescale can give); then sdpa_bf16 at sdpa_relpos's shape (B=8
# H=12 S=T=4096) beside torch's no-bias SDPA, rivals in the same run.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
sed 's/acc \* alpha\[:, None\]/acc/' stdlib/attention.tk >build/nr.tk
grep -c "alpha\[:, None\]" build/nr.tk
ATTN_FORCE=1 ATTN_BLOCKS=def ATTN_RELPOS=global ATTN_LLVM=0 ATTN_VARIANTS="nr:SRC=$PWD/build/nr.tk" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|^  \(|FAIL|ratio|rc ' $OUT/attn.txt | cut -c1-120
ATTN_SHAPE="8 12 4096" ATTN_ONLY=sdpa ATTN_BLOCKS=def ATTN_LLVM=0 \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/attn2.txt 2>&1
echo "attn2 rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|FAIL|ratio|rc ' $OUT/attn2.txt | cut -c1-120
echo "total $(($(date +%s) - t0)) s"
