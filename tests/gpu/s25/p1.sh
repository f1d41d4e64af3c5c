#!/bin/sh
# tests/gpu/s25/p1.sh — session 25: Nsight Compute (ncu, --clock-control
# none, full set) on the 88-row transposed tile at 170 x 8192 x 8192 (bf16)
# and on cuBLAS's kernel for the same product (nvjet_sm90_tst_128x88), to
# see where the 0.71-0.82 comes from; reports as text under $OUT.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
CUDA=${CUDA_HOME:-/usr/local/cuda}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1 || echo "$CUDA/bin/ncu")
echo "ncu: $NCU"
d=build/gpu-p1; mkdir -p $d
build/tkc stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 -D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 \
    -D warps=8 -D BM=88 -D stages=7 -o $d/bench.h || exit 1
gcc -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I $d -o $d/bench tests/gpu/bench_mm.c -lm -ldl || exit 1
$d/bench w88 170 8192 8192
timeout 200 "$NCU" --clock-control none --set full -k regex:matmul --launch-skip 2 --launch-count 1 \
    $d/bench w88 170 8192 8192 >$OUT/ncu_tkc.txt 2>&1
echo "ncu tkc rc $? ($(($(date +%s) - t0)) s)"
cat >$d/cub.py <<'PY'
import torch
a = torch.randn(170, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
for _ in range(4):
    c = a @ b
torch.cuda.synchronize()
PY
timeout 200 "$NCU" --clock-control none --set full -k regex:nvjet --launch-skip 2 --launch-count 1 \
    python3 $d/cub.py >$OUT/ncu_cublas.txt 2>&1
echo "ncu cublas rc $? ($(($(date +%s) - t0)) s)"
for f in $OUT/ncu_tkc.txt $OUT/ncu_cublas.txt; do
    echo "== $f"
    grep -E "^  [a-z_]+.*\(|Duration|SM Busy|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Shared Memory|Registers Per|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Executed Ipc A" $f | head -30
done
echo "total $(($(date +%s) - t0)) s"
