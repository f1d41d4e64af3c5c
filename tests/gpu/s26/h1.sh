#!/bin/sh
# tests/gpu/s26/h1.sh — the dispatching header of stdlib/matmul.tktune
# (58 kernels) read 0.93 of cuBLAS at 300 x 8192² where its own 152-row
# tile built alone read 1.06, with the same SASS (h200-s26-f2.log).  Here
# also a dispatching header of two lines (tests/gpu/s26/mm2.tktune: 4
# kernels, the 152-row tile among them), in turns with cuBLAS: if it reads
# as the tile alone, the kernel's place in the big cubin is what costs.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
T2="--max-autotune --tune-table tests/gpu/s26/mm2.tktune --tune M=129,K=8192,N=8192 --tune M=304,K=8192,N=8192"
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="disp:-:$T
disp2:-:$T2
w152:-:$W -D BM=152 -D stages=5
w144:-:$W -D BM=144 -D stages=6" \
SIZES="300x8192x8192 290x8192x8192" \
    PAIR_ROUNDS=9 OUT=$OUT GPU_DIR=gpu-h1 timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | grep -v "C7517\|nomap" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
