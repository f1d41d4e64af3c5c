#!/bin/sh
# tests/gpu/s11/run2.sh — s11-attn call 2: the attention run tests with
# TKC_ROW_ACC=$ACC (cuda + memcheck), then bench_attn.sh with TKC_ROW_ACC
# variants in one run (base2: a second build of the default).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ACC=${ACC:-4}
( TKC_ROW_ACC=$ACC TKC_GPU_NVPTX=0 timeout ${TTO:-110} sh tests/gpu/run.sh attention_d64 attention_d128 attention_d128_causal attention_d80 relpos_bf16 >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc ' $OUT/tests.txt | tail -14
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_RELPOS=global ATTN_VARIANTS="${VARS:-a2:TKC_ROW_ACC=2 a4:TKC_ROW_ACC=4 a8:TKC_ROW_ACC=8 a4p:TKC_ROW_ACC=4,TKC_WG_PAIR=1 ff4:TKC_ROW_ACC=4,SRC=tests/gpu/s11/ffma128.tk base2:TKC_ROW_ACC=1}" \
    timeout ${BTO:-115} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"
grep -E '^sdpa|^  tkc|^  torch (flash|cudnn|cuDNN)|FAIL|ratio|relpos|^  \(c\)|^  tkc' $OUT/bench.txt | cut -c1-110 | head -70
