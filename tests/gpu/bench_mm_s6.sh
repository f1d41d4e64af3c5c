#!/bin/sh
# tests/gpu/bench_mm_s6.sh — session 6's variants of matmul_bf16's K loop
# (one kernel without the NAME__nomap split, lb_plan, GM=16, warp-specialized,
# persistent) next to cuBLAS, by tests/gpu/bench_mm_var.sh (its variables
# apply: ROUNDS as the argument, ODD, PAIR_ROUNDS, VARIANTS, ...).
#
#   sh tests/gpu/bench_mm_s6.sh [ROUNDS]
S_LIST='def:-:
one:TKC_SPLIT=0:
lb:TKC_WG_LB=1:
g16:-:-D GM=16
lbg16:TKC_WG_LB=1:-D GM=16
ws:-:-D specialize=1 -D persistent=0
persist:-:-D specialize=1 -D persistent=1
pers0:-:-D specialize=0 -D persistent=1'
VARIANTS=${VARIANTS:-$S_LIST} exec sh "$(dirname "$0")/bench_mm_var.sh" "$@"
