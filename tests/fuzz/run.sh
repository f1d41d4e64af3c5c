#!/bin/sh
# tests/fuzz/run.sh — run the libFuzzer target (`make fuzz FUZZ_SECONDS=N`).
#
#   sh tests/fuzz/run.sh SECONDS [FUZZER]     (FUZZER: build/fuzz/fuzz_tkc)
#
# The corpus lives in build/fuzz/corpus/; it starts from every .tk of the
# tree (tests, stdlib, examples) and keeps what the fuzzer adds between
# runs.  One process (2 shared cores): no -jobs/-workers.  A crash, hang
# (10 s per input) or sanitizer report leaves build/fuzz/crash-* etc.; make
# it a regression test under tests/robust/ once fixed.  The log is
# build/fuzz/fuzz.log; its last lines give executions, cov: and ft:.
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${1:-60}
fuzzer=${2:-build/fuzz/fuzz_tkc}
corpus=build/fuzz/corpus
mkdir -p "$corpus"
for f in tests/*/*.tk stdlib/*.tk examples/*.tk; do
    [ -f "$f" ] || continue
    # Seeds by content, so renamed files are not kept twice.
    cp "$f" "$corpus/seed-$(cksum <"$f" | cut -d' ' -f1).tk"
done
"$fuzzer" -dict=tests/fuzz/tk.dict -max_total_time="$secs" -timeout=10 -max_len=16384 \
    -rss_limit_mb=2048 -artifact_prefix=build/fuzz/ -print_final_stats=1 \
    "$corpus" >build/fuzz/fuzz.log 2>&1
rc=$?
grep -E '^#[0-9]+' build/fuzz/fuzz.log | tail -1
grep -E '^stat::(number_of_executed_units|peak_rss_mb)' build/fuzz/fuzz.log
if [ $rc -ne 0 ]; then
    grep -E 'ERROR|SUMMARY|Test unit written' build/fuzz/fuzz.log | head -5
    echo "fuzz: failed (exit $rc): see build/fuzz/fuzz.log"
fi
exit $rc
