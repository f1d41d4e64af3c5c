#!/bin/sh
# tests/gpu/s15/final.sh — session 15's closing run: the attention benchmark
# (sdpa at the issue's shape and sdpa_relpos at SAM's, PTX from NVRTC and
# from LLVM, rivals in the same run), then the run tests this session's
# changes reach that no earlier call ran on the GPU, the cuda and the nvptx
# passes side by side, each also under compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_BLOCKS=def timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|FAIL|ratio' $OUT/bench.txt | cut -c1-100
T=${TESTS:-attention_d128 attention_d128_causal attention_d128_causal_wide attention_d80_causal relpos_bf16 relpos_bf16_d128 mma_ws}
mkdir -p build/nv && ln -sfn ../tkc build/nv/tkc
( for t in $T; do TKC_GPU_NVPTX=0 timeout 120 sh tests/gpu/run.sh $t 2>&1 | grep -E '^PASS|^FAIL|^SKIP|^ '; done >$OUT/cuda.txt ) &
p1=$!
( for t in $T; do TKC=build/nv/tkc TKC_GPU_NVPTX=only timeout 120 sh tests/gpu/run.sh $t 2>&1 | grep -E '^PASS|^FAIL|^SKIP|^ '; done >$OUT/nvptx.txt ) &
p2=$!
while kill -0 $p1 2>/dev/null || kill -0 $p2 2>/dev/null; do
    [ $(($(date +%s) - t0)) -gt ${TTO:-500} ] && { echo "time limit: stopped" | tee -a $OUT/cuda.txt >>$OUT/nvptx.txt; pkill -f tests/gpu/run.sh; break; }
    sleep 2
done
for f in $OUT/cuda.txt $OUT/nvptx.txt; do echo "== $f"; grep -v '^SKIP\|gpu-nvptx/math' "$f" | cut -c1-150 | head -30; done
echo "total $(($(date +%s) - t0)) s"
