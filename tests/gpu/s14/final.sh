#!/bin/sh
# tests/gpu/s14/final.sh — the session's closing figures and checks, rivals
# in the same run: sdpa (kernels' own blocks; NVRTC and LLVM's PTX),
# sdpa_relpos (SAM global and windowed), bf16 / f16 matmul (bench_mm.sh);
# then every attention and relpos run test and mma_ws, cuda and nvptx, each
# under compute-sanitizer memcheck.  Full outputs in $OUT.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch|^  \(c\)|ratio|vs \(c\)|^bf16|^f16|cuBLAS|Triton|TFLOP|FAIL|rc ' "$1" | cut -c1-120; }
ATTN_BLOCKS=def timeout ${ATO:-150} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1; echo "rc $?" >>$OUT/attn.txt
timeout ${MTO:-120} sh tests/gpu/bench_mm.sh >$OUT/mm.txt 2>&1; echo "rc $?" >>$OUT/mm.txt
for x in attn mm; do echo "== $x ($(($(date +%s) - t0)) s)"; f $OUT/$x.txt; done
T=$(ls tests/run/*.tk | xargs -n1 basename | sed 's/\.tk$//' | grep -E '^(attention|relpos)' | tr '\n' ' ')
( timeout ${TTO:-330} sh tests/gpu/run.sh $T mma_ws >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc |ERROR' $OUT/tests.txt | tail -32
echo "total $(($(date +%s) - t0)) s"
