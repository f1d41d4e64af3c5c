#!/bin/sh
# tests/gpu/s22/m3.sh — session 22: the tensor maps' L2 promotion
# (TKC_TMAP_L2: 2 = 128B, tkc's default; 3 = 256B; 0 = none) for
# matmul_bf16's few-rows tile (64 x 128 x 64, 8 stages; m1/m2 read ~2.9
# TB/s of B where cuBLAS reads 3.8) and the default tile at 4096^3 / 8192^3,
# in turns with cuBLAS.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
F="-D BM=64 -D BN=128 -D BK=64 -D warps=4 -D stages=8 -D specialize=true -D persistent=false"
VARIANTS="m128:-:$F
m128p3:TKC_TMAP_L2=3:$F
m128p0:TKC_TMAP_L2=0:$F
m128p1:TKC_TMAP_L2=1:$F
def:-:
defp3:TKC_TMAP_L2=3:" SIZES="1x8192x8192 16x8192x8192 128x8192x8192 256x8192x8192 4096 8192" PAIR_ROUNDS=8 OUT=$OUT GPU_DIR=gpu-m3 \
    timeout ${BTO:-400} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
