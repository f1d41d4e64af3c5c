#!/bin/sh
# tests/gpu/s17/final.sh — session 17's closing run: the attention benchmark
# (sdpa at the issue's shape and sdpa_relpos at SAM's, PTX from NVRTC and
# from LLVM, rivals in the same run), matmul_bf16 in turns with cuBLAS, then
# every GPU run test (tests/gpu/run.sh: cuda and nvptx passes; SANITIZE=0
# unless SAN=1: this session's changes reach every tensor-core kernel's
# shared addresses, so all of them, memcheck on the g1 subset).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_BLOCKS=def ATTN_RELPOS=global timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|FAIL|ratio' $OUT/bench.txt | cut -c1-100
VARIANTS="def:-:" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-10} OUT=$OUT/mm \
    timeout ${MTO:-150} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -iE "^pair|FAIL" $OUT/mm.txt | cut -c1-140
SANITIZE=${SAN:-0} timeout ${TTO:-280} sh tests/gpu/run.sh >$OUT/tests.txt 2>&1
echo "tests rc $? ($(($(date +%s) - t0)) s)"; grep -E '^FAIL|passed|failed|^SKIP' $OUT/tests.txt | tail -8
echo "total $(($(date +%s) - t0)) s"
