#!/bin/sh
# tests/gpu/s14/final2.sh — the attention and relpos run tests final.sh did
# not finish (its one run.sh call ran past its 330 s and printed nothing),
# one run.sh call per test so that each result is kept: the cuda and the
# nvptx passes side by side (as tests/gpu/s13/final_gpu.sh), each test also
# under compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T=${TESTS:-attention_d128_causal attention_d128_causal_wide attention_d64 attention_d64_causal_wide attention_d80_causal relpos_bf16_d128 relpos_bf16_d80 relpos_bf16_n128 relpos_bf16_n32}
mkdir -p build/nv && ln -sfn ../tkc build/nv/tkc
( for t in $T; do TKC_GPU_NVPTX=0 timeout 120 sh tests/gpu/run.sh $t 2>&1 | grep -E '^PASS|^FAIL|^SKIP|^ '; done >$OUT/cuda.txt ) &
p1=$!
( for t in $T; do TKC=build/nv/tkc TKC_GPU_NVPTX=only timeout 120 sh tests/gpu/run.sh $t 2>&1 | grep -E '^PASS|^FAIL|^SKIP|^ '; done >$OUT/nvptx.txt ) &
p2=$!
while kill -0 $p1 2>/dev/null || kill -0 $p2 2>/dev/null; do
    [ $(($(date +%s) - t0)) -gt ${TTO:-270} ] && { echo "time limit: stopped" | tee -a $OUT/cuda.txt >>$OUT/nvptx.txt; pkill -f tests/gpu/run.sh; break; }
    sleep 2
done
for f in $OUT/cuda.txt $OUT/nvptx.txt; do echo "== $f"; cat "$f" | cut -c1-150 | head -30; done
echo "total $(($(date +%s) - t0)) s"
