#!/bin/sh
# tests/gpu/ci.sh — the CUDA target's checks that need no GPU (for tests/run.sh).
#
#   sh tests/gpu/ci.sh                      # TKC=build/asan/tkc works too
#
# For every tests/run/*.tk and stdlib/*.tk:
#   ptx      --target=cuda PTX that ptxas accepts for sm_90a and sm_80
#   header   the --target=cuda and --target=c,cuda headers compile with
#            gcc -std=c11 -Wall -Wextra -Werror and no CUDA headers, also with
#            TKC_CUDA_HOST_COPY; a launch without a driver (none here, or a
#            driver-less libcuda search path) returns TK_ERR_NO_DEVICE cleanly
#   emu      the GPU run tests (tests/gpu/run.sh) on the CPU stand-in for
#            libcuda (tests/gpu/emu), when g++ is around; TKC_GPU_EMU=0 skips
# Without NVRTC or ptxas the affected checks print a visible SKIP line.
# Prints PASS/FAIL/SKIP lines and `N passed, N failed`; exits 1 on failures.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
D=$(dirname "$TKC")/gpu-ci
CC=${CC:-gcc}
HW="-std=c11 -Wall -Wextra -Werror"
mkdir -p "$D"
flags_of() { sed -n '1s|^// *tkc-flags: *||p' "$1"; }
show() { sed -n "1,${2:-20}s/^/    /p" "$1"; }

PTXAS=""
for p in "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ptxas; do
    if command -v "$p" >/dev/null 2>&1; then PTXAS=$p; break; fi
done

# NVRTC present?  tkc says so in a fixed message when it is not.
"$TKC" tests/run/vadd.tk --target=cuda --emit=ptx >"$D/probe.ptx" 2>"$D/probe.err"
if grep -q "needs NVRTC" "$D/probe.err"; then NVRTC=0; else NVRTC=1; fi

check_file() {
    f=$1; n=$(basename "$(dirname "$f")")/$(basename "$f" .tk); d=$D/$(echo "$n" | tr / -)
    mkdir -p "$d"
    if [ $NVRTC = 0 ]; then
        echo "SKIP cuda/$n: no NVRTC (libnvrtc.so.13 not found; set CUDA_HOME)"; return
    fi
    # shellcheck disable=SC2046
    if [ -z "$PTXAS" ]; then
        echo "SKIP cuda-ptx/$n: no ptxas"
    else
        bad=""
        for arch in sm_90a sm_80; do
            # shellcheck disable=SC2046
            if ! "$TKC" "$f" --target=cuda --arch=$arch --emit=ptx $(flags_of "$f") >"$d/$arch.ptx" 2>"$d/$arch.err"; then
                bad="$bad $arch(tkc)"; continue
            fi
            "$PTXAS" -arch=$arch -o "$d/$arch.cubin" "$d/$arch.ptx" >"$d/$arch.err" 2>&1 || bad="$bad $arch"
        done
        if [ -z "$bad" ]; then echo "PASS cuda-ptx/$n"; else
            echo "FAIL cuda-ptx/$n"; echo "    rejected:$bad"; show "$d/sm_90a.err"; fi
    fi
    bad=""
    for t in cuda c,cuda; do
        h=$d/k.$t.h
        # shellcheck disable=SC2046
        if ! "$TKC" "$f" --target=$t $(flags_of "$f") -o "$h" >"$d/tkc.$t.log" 2>&1; then
            bad="$bad tkc--target=$t"; cp "$d/tkc.$t.log" "$d/why"; continue
        fi
        printf '#include "%s"\n' "${h##*/}" >"$d/plain.c"
        printf '#define TKC_CUDA_HOST_COPY 1\n#include "%s"\n' "${h##*/}" >"$d/copy.c"
        for u in plain copy; do
            if ! $CC $HW -O1 -I "$d" -c -o "$d/$u.o" "$d/$u.c" >"$d/$u.log" 2>&1; then
                bad="$bad $t/$u"; cp "$d/$u.log" "$d/why"
            fi
        done
    done
    if [ -z "$bad" ]; then echo "PASS cuda-header/$n"; else
        echo "FAIL cuda-header/$n"; echo "    failed:$bad"; show "$d/why"; fi
}

# Without a driver: vadd_cuda and vadd_cuda_host answer TK_ERR_NO_DEVICE.
check_nodriver() {
    d=$D/nodriver; mkdir -p "$d"
    [ $NVRTC = 1 ] || { echo "SKIP cuda-nodriver: no NVRTC"; return; }
    "$TKC" tests/run/vadd.tk --target=cuda -o "$d/vadd.h" >"$d/log" 2>&1 || { echo "FAIL cuda-nodriver"; show "$d/log"; return; }
    cat >"$d/t.c" <<'EOF'
#define TKC_CUDA_HOST_COPY 1
#include "vadd.h"
int main(void)
{
    float x[3] = {1, 2, 3}, y[3] = {1, 1, 1}, z[3] = {0};
    int a = vadd_cuda(x, y, z, 3, NULL);
    printf("%d %s\n", a, tk_last_error());
    int b = vadd_cuda_host(x, y, z, 3);
    printf("%d %s\n", b, tk_last_error());
    int c = vadd_cuda(NULL, y, z, 3, NULL);
    printf("%d %s\n", c, tk_last_error());
    return !(a == TK_ERR_NO_DEVICE && b == TK_ERR_NO_DEVICE && c == TK_ERR_ARG && z[0] == 0);
}
EOF
    if ! $CC $HW -o "$d/t" "$d/t.c" -lm -ldl >"$d/cc.log" 2>&1; then
        echo "FAIL cuda-nodriver"; echo "    does not compile"; show "$d/cc.log"; return
    fi
    # An empty library path hides a real driver only if it is not in the
    # default search path: where one is installed, the test says so.
    if [ -e /usr/lib/x86_64-linux-gnu/libcuda.so.1 ] || [ -e /usr/lib64/libcuda.so.1 ]; then
        echo "SKIP cuda-nodriver: a CUDA driver is installed"; return
    fi
    if "$d/t" >"$d/out" 2>&1; then echo "PASS cuda-nodriver"; else
        echo "FAIL cuda-nodriver"; show "$d/out"; fi
}

{
    for f in tests/run/*.tk stdlib/*.tk; do check_file "$f"; done
    check_nodriver
    if [ "${TKC_GPU_EMU:-1}" = 0 ]; then
        echo "SKIP cuda-emu: TKC_GPU_EMU=0"
    elif [ $NVRTC = 0 ]; then
        echo "SKIP cuda-emu: no NVRTC"
    elif ! command -v g++ >/dev/null 2>&1; then
        echo "SKIP cuda-emu: no g++"
    else
        TKC_GPU_EMU=1 TKC=$TKC sh tests/gpu/run.sh | sed -n 's/^\(PASS\|FAIL\) gpu\//\1 cuda-emu\//p; s/^SKIP gpu/SKIP cuda-emu/p; /^    /p'
    fi
} >"$D/results" 2>&1
cat "$D/results"
npass=$(grep -c '^PASS ' "$D/results")
nfail=$(grep -c '^FAIL ' "$D/results")
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
