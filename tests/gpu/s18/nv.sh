#!/bin/sh
# tests/gpu/s18/nv.sh — session 18's check of the nvptx target on the GPU:
# every GPU run test (tests/run/NAME.c with NAME.tk) in the nvptx pass only
# (--target=c,nvptx: PTX from LLVM), SHARDS processes side by side, each
# test in its own tests/gpu/run.sh call (what ran is kept when the time
# runs out), no memcheck; then the tests of MEMCHECK under
# compute-sanitizer memcheck, nvptx pass.  TKC_NVPTX_* settings pass
# through (TENV).  Prints each shard's PASS/FAIL lines and the counts.
# NVPASS=0: the cuda pass (PTX from NVRTC) instead; =1 both.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
all=$(for c in tests/run/*.c; do n=$(basename "$c" .c); [ -f "tests/run/$n.tk" ] && echo "$n"; done)
S=${SHARDS:-4}
i=0
for s in $(seq 0 $((S - 1))); do
    list=$(echo "$all" | awk -v s=$s -v S=$S 'NR % S == s')
    # each shard its own tkc directory: tests/gpu/run.sh builds next to it
    mkdir -p build/nv$s && ln -sfn ../tkc build/nv$s/tkc
    ( for t in $list; do env ${TENV:-} TKC=build/nv$s/tkc TKC_GPU_NVPTX=${NVPASS:-only} SANITIZE=0 timeout 150 sh tests/gpu/run.sh $t 2>&1 |
          grep -aE '^PASS|^FAIL|^ ' | grep -v 'gpu-nvptx/math'; done >$OUT/nv$s.txt ) &
done
while [ "$(jobs -p | wc -l)" -gt 0 ]; do
    [ $(($(date +%s) - t0)) -gt ${TTO:-400} ] && { echo "time limit: stopped"; pkill -f tests/gpu/run.sh; break; }
    sleep 2
done
wait
cat $OUT/nv*.txt | cut -c1-150
echo "pass (TKC_GPU_NVPTX=${NVPASS:-only}): $(cat $OUT/nv*.txt | grep -c '^PASS') passed, $(cat $OUT/nv*.txt | grep -c '^FAIL') failed of $(echo "$all" | wc -l) ($(($(date +%s) - t0)) s)"
if [ -n "${MEMCHECK:-}" ]; then
    for t in $MEMCHECK; do
        env ${TENV:-} TKC=build/nv0/tkc TKC_GPU_NVPTX=${NVPASS:-only} timeout 120 sh tests/gpu/run.sh $t 2>&1 | grep -aE '^PASS|^FAIL|^ ' | grep -v 'gpu-nvptx/math'
        [ $(($(date +%s) - t0)) -gt ${MTO:-540} ] && { echo "memcheck: time limit"; break; }
    done
fi
echo "total $(($(date +%s) - t0)) s"
