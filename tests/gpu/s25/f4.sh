#!/bin/sh
# tests/gpu/s25/f4.sh — session 25's closing check of stdlib/matmul.tktune
# with the N = K = 4096 lines of four transposed tiles (257-768 rows): the
# dispatching headers against float64 (mm_dispatch.sh, 26 shapes), then the
# bf16 header in turns with cuBLAS at N = K = 4096 from 256 to 768 rows.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 sh tests/gpu/mm_dispatch.sh 2>&1 | grep -v "note:\|^ *[0-9]* |\|^ *|" | tail -28
echo "dispatch check ($(($(date +%s) - t0)) s)"
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
VARIANTS="disp:-:$T" SIZES="256x4096x4096 270x4096x4096 300x4096x4096 330x4096x4096 370x4096x4096 400x4096x4096 470x4096x4096 512x4096x4096 570x4096x4096 600x4096x4096 660x4096x4096 720x4096x4096 768x4096x4096" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-fin timeout 200 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm bf16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm.txt | grep -v "C7517\|nomap" | sed 's/TFLOP.s (min.*vs/TF vs/; s/(rounds: min/(min/' | cut -c1-120
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
