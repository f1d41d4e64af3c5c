#!/bin/sh
# tests/gpu/s17/final.sh — session 17's closing run: the attention benchmark
# (sdpa at the issue's shape and sdpa_relpos at SAM's, PTX from NVRTC and
# from LLVM, rivals in the same run), matmul_bf16 in turns with cuBLAS, then
# every GPU run test, tensor-core ones first (tests/gpu/run_both.sh: cuda
# and nvptx passes side by side, each test on its own so that what ran is
# kept when the time runs out; SANITIZE=0 unless SAN=1: this session's
# changes reach every tensor-core kernel's shared addresses, so all of
# them, memcheck on g1's subset).  The session ran the tests in a call of
# their own (doc/bench/h100-s17-tests.log): one tests/gpu/run.sh over all of
# them printed nothing before its time limit.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_BLOCKS=def ATTN_RELPOS=global timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|FAIL|ratio' $OUT/bench.txt | cut -c1-100
VARIANTS="def:-:" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-10} OUT=$OUT/mm \
    timeout ${MTO:-150} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -iE "^pair|FAIL" $OUT/mm.txt | cut -c1-140
first="mma mma_odd mma_pipe mma_pp mma_repack mma_skinny mma_trstore mma_ws matmul matmul_dtypes dot_i8
       dot_tf32 tf32_nt tf32_round attention_d64 attention_d64_causal attention_d64_causal_wide attention_d80
       attention_d80_causal attention_d128_causal_wide attention_d128_n176 relpos_bf16_d128 relpos_bf16_d80
       relpos_bf16_n128 relpos_bf16_n32"
rest=$(for c in tests/run/*.c; do n=$(basename "$c" .c); [ -f "tests/run/$n.tk" ] || continue
       case " $(echo $first) " in *" $n "*) ;; *) echo "$n" ;; esac; done)
SANITIZE=${SAN:-0} OUT=$OUT TTO=${TTO:-280} sh tests/gpu/run_both.sh $first $rest >$OUT/both.txt 2>&1
echo "tests ($(($(date +%s) - t0)) s)"; grep -c '^PASS' $OUT/cuda.txt $OUT/nvptx.txt; grep -h '^FAIL\|time limit' $OUT/cuda.txt $OUT/nvptx.txt
echo "total $(($(date +%s) - t0)) s"
