#!/bin/sh
# tests/gpu/s21/a2.sh — session 21: sdpa_bf16 at D=128 with a persistent
# grid (-D persistent=true: one block an SM looping over the programs, the
# producer warpgroup loading the next program's k and v during the
# epilogue) next to the default, at S = 1024 (B=16), 2048 (B=8), 4096
# (B=4), H=16, causal and not; 6 interleaved rounds with torch's backends.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sh in "16 16 1024" "8 16 2048" "4 16 4096"; do
    ATTN_SHAPE="$sh" ATTN_TURNS=6 ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS="def" ATTN_LLVM=0 \
    ATTN_VARIANTS="pers:DEFS=persistent:true,BLOCKS=def" \
        timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
    echo "== S: $sh rc $? ($(($(date +%s) - t0)) s)"
    grep -E 'turns|FAIL|^sdpa' $OUT/attn.txt | cut -c1-150
    cat $OUT/attn.txt >>$OUT/all.txt
done
echo "total $(($(date +%s) - t0)) s"
