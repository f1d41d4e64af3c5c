#!/bin/sh
# tests/gpu/bench_attn_s10rp.sh — session 10 (issue 5, helper s10-rp):
# sdpa_relpos_bf16 variants (whole-file copies of stdlib/attention.tk under
# tests/gpu/s10/) next to the tree in one run, then the relpos run tests
# (cuda + compute-sanitizer memcheck) in trees whose attention.tk is a
# variant.
#
#   S10_VARIANTS (bench_attn.sh ATTN_VARIANTS)  S10_BENCH_S=100
#   S10_ALTS="b4 b4pair sdrcp:attention_d64,attention_d80"  (tests/gpu/s10/NAME.tk,
#       "tree" = the tree itself; :TESTS its own run tests instead of S10_TESTS)
#   S10_SDPA_VARIANTS  (if set, sdpa_bf16 too: ATTN_ONLY=sdpa, S10_SDPA_S=120)
#   S10_TESTS (default: the five relpos_bf16 run tests)  S10_TEST_S=110
set -u
cd "$(dirname "$0")/../.." || exit 2
echo "# bench_attn_s10rp $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
ATTN_ONLY=relpos ATTN_LLVM=0 ATTN_BLOCKS=def ATTN_VARIANTS="${S10_VARIANTS:-}" \
    timeout "${S10_BENCH_S:-100}" sh tests/gpu/bench_attn.sh 2>&1 |
    grep -vE "^      vs |^  \((a|b|d)\)"
echo "bench rc=$?"
if [ -n "${S10_SDPA_VARIANTS:-}" ]; then
    ATTN_ONLY=sdpa ATTN_LLVM=0 ATTN_BLOCKS=def ATTN_VARIANTS="$S10_SDPA_VARIANTS" \
        timeout "${S10_SDPA_S:-120}" sh tests/gpu/bench_attn.sh 2>&1 | grep -vE "^      vs "
    echo "sdpa bench rc=$?"
fi
tests=${S10_TESTS:-relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 relpos_bf16_d128}
for at in ${S10_ALTS:-}; do
    a=${at%%:*} t=$tests
    case $at in *:*) t=$(echo "${at#*:}" | tr , ' ') ;; esac
    root=$PWD/build/s10alt-$a; rm -rf "$root"; mkdir -p "$root/build"
    tar -cf - stdlib tests | tar -xf - -C "$root" && cp build/tkc "$root/build/tkc"
    [ "$a" = tree ] || cp "tests/gpu/s10/$a.tk" "$root/stdlib/attention.tk"
    # shellcheck disable=SC2086
    (cd "$root" && TKC="$root/build/tkc" TKC_GPU_NVPTX=0 timeout "${S10_TEST_S:-110}" \
        sh tests/gpu/run.sh $t >"$root/log" 2>&1; echo "rc=$?" >>"$root/log") &
done
wait
for at in ${S10_ALTS:-}; do
    a=${at%%:*}; echo "[tests $at]"; grep -E "^(PASS|FAIL)|^    |rc=|passed" "build/s10alt-$a/log" | head -16
done
