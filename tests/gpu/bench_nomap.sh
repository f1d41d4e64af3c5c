#!/bin/sh
# tests/gpu/bench_nomap.sh — NAME__nomap before / after its lean copy
# (TKC_NOMAP_LEAN=0 / 1, lower/gpu_mma.c copy_lean), in one run: ptxas time and
# registers of each module, matmul_bf16 at 4095^3 and 1 x 4095^2 with TKC_REPACK=0
# at run time (rows not 16-byte aligned: NAME__nomap) and 4096^3 (NAME), sdpa_bf16
# D=128 with k, v 2 bytes off alignment (NAME__nomap) and aligned (NAME), the
# __nomap run tests (mma_repack; attention_d80 with TKC_TMA=0 at run time) under
# compute-sanitizer memcheck.  Uses build/tkc as it is.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=$PWD/build/tkc
B=$PWD/build/gpu-nomap; mkdir -p "$B"
CC=${CC:-gcc}
P=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
echo "tkc NAME__nomap lean copy ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for l in 0 1; do
    d=$B/mm$l; mkdir -p $d
    TKC_NOMAP_LEAN=$l "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 -o $d/bench.h || exit 1
    $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I $d -o $d/bench tests/gpu/bench_mm.c -lm -ldl || exit 1
    d=$B/at$l; mkdir -p $d
    TKC_NOMAP_LEAN=$l "$TKC" stdlib/attention.tk --target=cuda --kernel=sdpa_bf16 -D D=128 -o $d/attn.h || exit 1
    $CC -std=c11 -O2 -fPIC -shared -DTK_HEADER='"attn.h"' -I $d -o $d/lib.so tests/gpu/bench_attn.c -ldl || exit 1
    for k in "stdlib/matmul.tk --kernel=matmul_bf16" "stdlib/attention.tk --kernel=sdpa_bf16 -D D=128"; do
        TKC_NOMAP_LEAN=$l "$TKC" $k --target=cuda --emit=ptx -o $B/k.ptx
        s=$(date +%s.%N); "$P" -arch=sm_90a -v -o /dev/null $B/k.ptx 2>$B/ptxas.log; e=$(date +%s.%N)
        echo "LEAN=$l $k: PTX lines $(wc -l <$B/k.ptx), ptxas $(awk "BEGIN { printf \"%.2f\", $e - $s }") s; $(grep -o 'Compiling entry.*\|Used [0-9]* registers' $B/ptxas.log | tr '\n' ' ')"
    done
done
for r in 1 2; do for l in 0 1; do
    TKC_REPACK=0 $B/mm$l/bench mma 4095 4095 4095 1 4095 4095 | sed "s/^tkc  /LEAN=$l nomap /"
    $B/mm$l/bench mma 4096 4096 4096 | sed "s/^tkc  /LEAN=$l NAME /"
done; done
python3 tests/gpu/bench_nomap.py $B/at0/lib.so $B/at1/lib.so
CS=$(command -v compute-sanitizer || echo ${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer)
SANITIZE=1 TKC_GPU_NVPTX=0 sh tests/gpu/run.sh mma_repack 2>&1 | tail -2
SANITIZE=0 TKC_GPU_NVPTX=0 sh tests/gpu/run.sh attention_d64 2>&1 | tail -2
d=build/gpu/attention_d64
TKC_TMA=0 $d/attention_d64 2>&1 | tail -2
TKC_TMA=0 timeout 60 "$CS" --tool memcheck --error-exitcode 1 $d/attention_d64 >$B/memcheck.log 2>&1; echo "TKC_TMA=0 memcheck attention_d64 rc=$?"; tail -3 $B/memcheck.log
