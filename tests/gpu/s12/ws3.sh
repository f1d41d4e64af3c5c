#!/bin/sh
# tests/gpu/s12/ws3.sh — s12-ws call 3: (1) the new default (causal D >= 128
# in sdpa_tc's one loop) against the old two passes (tests/gpu/s12/two.tk),
# the one loop also without causal (one.tk), and TKC_KEY_WS=1 / 2, two builds
# of the default and of =1, in one bench run; (2) the run tests:
# attention_d128_causal with the default, attention_d128 and
# attention_d128_causal with TKC_KEY_WS=1 (cuda + memcheck); (3) in a bench
# of its own TKC_KEY_WS=1 with persistent blocks (the producer fetching the
# next program's first key blocks during the epilogue).
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|rc ' "$1" | cut -c1-100; }
S=tests/gpu/s12
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${VARS:-two:SRC=$S/two.tk one:SRC=$S/one.tk kw1:TKC_KEY_WS=1 kw2:TKC_KEY_WS=2 d2:TKC_KEY_WS=0 kw1b:TKC_KEY_WS=1}" \
    timeout ${BTO:-70} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $?"; f $OUT/bench.txt
( TKC_GPU_NVPTX=0 timeout ${T0:-45} sh tests/gpu/run.sh attention_d128_causal >$OUT/tests0.txt 2>&1; echo "tests (default) rc $?" >>$OUT/tests0.txt )
grep -E 'PASS|FAIL|passed|rc ' $OUT/tests0.txt | tail -6
( TKC_KEY_WS=${TWS:-1} TKC_GPU_NVPTX=0 timeout ${T1:-75} sh tests/gpu/run.sh attention_d128_causal attention_d128 >$OUT/tests1.txt 2>&1; echo "tests (TKC_KEY_WS=${TWS:-1}) rc $?" >>$OUT/tests1.txt )
grep -E 'PASS|FAIL|passed|rc ' $OUT/tests1.txt | tail -6
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa \
ATTN_VARIANTS="${PVARS:-kw1p:TKC_KEY_WS=1,TKC_PERSIST=1,TKC_PERSIST_ANY=1}" \
    timeout ${PTO:-28} sh tests/gpu/bench_attn.sh >$OUT/persist.txt 2>&1
echo "persist bench rc $?"; f $OUT/persist.txt
