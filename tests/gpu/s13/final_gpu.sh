#!/bin/sh
# tests/gpu/s13/final_gpu.sh — the session's closing `make test-gpu`: the cuda
# and the nvptx passes side by side (each with compute-sanitizer memcheck), then
# a short summary; full outputs in $OUT.
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# the nvptx pass through a tkc in another folder: run.sh keeps its work
# (build/gpu: probes, headers, results) beside the tkc it runs
mkdir -p build/nv && ln -sfn ../tkc build/nv/tkc
( TKC_GPU_NVPTX=0 timeout ${TTO:-420} sh tests/gpu/run.sh >$OUT/cuda.txt 2>&1; echo "rc $?" >>$OUT/cuda.txt ) &
TKC=build/nv/tkc TKC_GPU_NVPTX=only timeout ${TTO:-420} sh tests/gpu/run.sh >$OUT/nvptx.txt 2>&1; echo "rc $?" >>$OUT/nvptx.txt
wait
for f in $OUT/cuda.txt $OUT/nvptx.txt; do echo "== $f"; grep -E '^FAIL|^SKIP' "$f" | head -20; tail -2 "$f"; done
