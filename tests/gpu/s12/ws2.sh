#!/bin/sh
# tests/gpu/s12/ws2.sh — s12-ws call 2: (1) the default against TKC_KEY_WS=2
# and tests/gpu/s12/one.tk (sdpa_tc's one-loop body, the D < 128 one, also
# at D=128: no p carried over, no spills under the consumers' 240
# registers) with and without the producer; (2) in a bench of its own (a
# deadlock would only lose that part) TKC_KEY_WS=1 with the warpgroups' turns
# (TKC_PINGPONG=1; with TKC_WG_PAIR=1 both dots issued in a turn, q k^T
# waited for after it); (3) attention_d128_causal with TKC_KEY_WS=2 on the
# GPU (cuda + memcheck).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|rc ' "$1" | cut -c1-100; }
O=SRC=tests/gpu/s12/one.tk
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${VARS:-d2:TKC_KEY_WS=0 kw2:TKC_KEY_WS=2 one:$O one1:$O,TKC_KEY_WS=1 one2:$O,TKC_KEY_WS=2}" \
    timeout ${BTO:-80} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${PVARS:-pp:TKC_KEY_WS=1,TKC_PINGPONG=1 ppp:TKC_KEY_WS=1,TKC_PINGPONG=1,TKC_WG_PAIR=1}" \
    timeout ${PTO:-50} sh tests/gpu/bench_attn.sh >$OUT/pp.txt 2>&1
echo "pp bench rc $?"; f $OUT/pp.txt
( TKC_KEY_WS=${TWS:-2} TKC_GPU_NVPTX=0 timeout ${TTO:-80} sh tests/gpu/run.sh ${TESTS:-attention_d128_causal} >$OUT/tests.txt 2>&1; echo "tests rc $?" >>$OUT/tests.txt )
grep -E 'PASS|FAIL|passed|rc ' $OUT/tests.txt | tail -14
