#!/bin/sh
# tests/gpu/bench_attn_s9.sh — session 9 (issue 5): sdpa_bf16 with the
# single wgmma dots' waits moved (TKC_WG_PAIR=1, TKC_WG_DEFER=1) and the
# softmax one key block behind q k^T (tests/gpu/s9/lag.tk on branch s9-attn, 0f8af7f with
# TKC_WG_DEFER=1), next to the tree in the same run; the SASS of the D=128
# key loops (cubins built beforehand with ptxas into tests/gpu/s9/sass/,
# when there); then run tests (cuda + memcheck) with the switches on.
#
#   S9_VARIANTS (bench_attn.sh variants)  S9_BENCH_S=120  S9_RELPOS=1
#   S9_RELPOS_VARIANTS  S9_TESTS="ENV:test ..." (ENV: A=1,B=2 or -)
#   S9_ALT=FILE.tk S9_ALT_TESTS="ENV:test ..." (in a tree whose attention.tk is FILE.tk)
set -u
cd "$(dirname "$0")/../.." || exit 2
echo "# bench_attn_s9 $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
if [ -d tests/gpu/s9/sass ] && command -v cuobjdump >/dev/null 2>&1; then
    for c in tests/gpu/s9/sass/*.cubin; do
        n=$(basename "$c" .cubin)
        cuobjdump -sass "$c" >"${OUT:-/tmp}/$n.sass" 2>/dev/null || continue
        # the key loop of sdpa_bf16 (not __nomap): order of HGMMA / MUFU.EX2 / waits / barriers
        awk '/Function : sdpa_bf16$/{f=1} /Function : sdpa_bf16__nomap/{f=0} f' "${OUT:-/tmp}/$n.sass" |
            grep -oE "HGMMA[^ ]*|MUFU.EX2|WARPGROUP.DEPBAR[^;]*|WARPGROUP.ARRIVE|BAR.SYNC[^;]*|SYNCS[^ ]*|BRA" |
            uniq -c | awk -v n="$n" 'BEGIN{printf "%s:", n} {printf " %dx%s", $1, $2} END{print ""}' | cut -c1-1500
    done
fi
ATTN_ONLY=sdpa ATTN_LLVM=0 ATTN_BLOCKS=def ATTN_VARIANTS="${S9_VARIANTS:-}" \
    timeout "${S9_BENCH_S:-120}" sh tests/gpu/bench_attn.sh
echo "bench rc=$?"
if [ "${S9_RELPOS:-1}" = 1 ]; then
    ATTN_ONLY=relpos ATTN_LLVM=0 ATTN_BLOCKS=def ATTN_VARIANTS="${S9_RELPOS_VARIANTS:-}" \
        timeout "${S9_RELPOS_S:-40}" sh tests/gpu/bench_attn.sh
    echo "relpos bench rc=$?"
fi
i=0
one() {       # one ENV:test [root]
    i=$((i + 1)); d=$PWD/build/s9t$i; root=${2:-.}
    mkdir -p "$d" && cp build/tkc "$d/tkc"
    envs=$(echo "${1%%:*}" | tr , ' '); [ "$envs" = - ] && envs=""
    # shellcheck disable=SC2086
    (cd "$root" && echo "[$root $envs]" && env $envs TKC="$d/tkc" TKC_GPU_NVPTX=0 timeout "${S9_TEST_S:-70}" \
        sh tests/gpu/run.sh "${1#*:}" 2>&1; echo "rc=$?") >"$d/log" 2>&1 &
}
for t in ${S9_TESTS:-}; do one "$t"; done
if [ -n "${S9_ALT:-}" ]; then
    alt=build/s9alt; rm -rf $alt; mkdir -p $alt/build
    tar -cf - stdlib tests | tar -xf - -C $alt && cp "$S9_ALT" $alt/stdlib/attention.tk && cp build/tkc $alt/build/tkc
    for t in ${S9_ALT_TESTS:-}; do one "$t" $alt; done
fi
wait
for j in $(seq 1 $i); do grep -E "^\[|^(PASS|FAIL)|^    |rc=" build/s9t$j/log | head -12; done
