#!/bin/sh
# tests/gpu/ci.sh — the CUDA target's checks that need no GPU (for tests/run.sh).
#
#   sh tests/gpu/ci.sh                      # TKC=build/asan/tkc works too
#
# For every tests/run/*.tk and stdlib/*.tk:
#   ptx      --target=cuda PTX that ptxas accepts for sm_90a and sm_80 (sm_90a alone for a file marked `// tkc-archs: sm_90a`)
#   header   the --target=cuda and --target=c,cuda headers compile with
#            gcc -std=c11 -Wall -Wextra -Werror and no CUDA headers, also with
#            TKC_CUDA_HOST_COPY; a launch without a driver (none here, or a
#            driver-less libcuda search path) returns TK_ERR_NO_DEVICE cleanly
#   emu      the GPU run tests (tests/gpu/run.sh) on the CPU stand-in for
#            libcuda (tests/gpu/emu), when g++ is around; TKC_GPU_EMU=0 skips;
#            with LLVM also the nvptx target's kernels there (nvptx-emu/NAME)
#   blocks   the launch option blocks in the PTX (.minnctapersm) and fewer
#            registers from ptxas (tests/gpu/blocks.sh)
#   nvptx    the same kernels with --target=nvptx (PTX from LLVM): PTX that
#            ptxas accepts for sm_90a and sm_80, the --target=nvptx and
#            c,nvptx headers compile as above; then the compile time per
#            kernel (TKC_LOGS=nvptx) summed up; and a tkc built without LLVM
#            (build/gpu-ci/nollvm) that still builds and says so for nvptx
#            (TKC_NOLLVM_BUILD=0 skips that build); the LLVM IR is verified
#            (TKC_NVPTX_VERIFY=1)
# Without NVRTC, ptxas or LLVM the affected checks print a visible SKIP line.
# Prints PASS/FAIL/SKIP lines and `N passed, N failed`; exits 1 on failures.
set -u
cd "$(dirname "$0")/../.." || exit 2
export TKC_NVPTX_VERIFY=1           # tkc checks the LLVM IR it builds (off by default)
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
D=$(dirname "$TKC")/gpu-ci
CC=${CC:-gcc}
HW="-std=c11 -Wall -Wextra -Werror"
mkdir -p "$D"
flags_of() { sed -n '1s|^// *tkc-flags: *||p' "$1"; }
# archs_of FILE: the archs its PTX is checked for: a `// tkc-archs: ...` line
# among the first three (a kernel configured beyond sm_80's shared memory),
# else sm_90a and sm_80
archs_of() { a=$(sed -n '1,3s|^// *tkc-archs: *||p' "$1"); echo "${a:-sm_90a sm_80}"; }
show() { sed -n "1,${2:-20}s/^/    /p" "$1"; }

PTXAS=""
for p in "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ptxas; do
    if command -v "$p" >/dev/null 2>&1; then PTXAS=$p; break; fi
done

# NVRTC present?  tkc says so in a fixed message when it is not.
"$TKC" tests/run/vadd.tk --target=cuda --emit=ptx >"$D/probe.ptx" 2>"$D/probe.err"
if grep -q "needs NVRTC" "$D/probe.err"; then NVRTC=0; else NVRTC=1; fi

# check_ptx TARGET FILE NAME DIR: --emit=ptx for sm_90a and sm_80 (archs_of), each
# through ptxas (nvptx: its compile time noted for nvptx_times).
check_ptx() {
    t=$1 f=$2 n=$3 d=$4
    if [ -z "$PTXAS" ]; then echo "SKIP $t-ptx/$n: no ptxas"; return; fi
    bad=""
    for arch in $(archs_of "$f"); do
        # shellcheck disable=SC2046
        if ! TKC_LOGS=nvptx "$TKC" "$f" --target=$t --arch=$arch --emit=ptx $(flags_of "$f") >"$d/$arch.ptx" 2>"$d/$arch.err"; then
            bad="$bad $arch(tkc)"; cp "$d/$arch.err" "$d/why"; continue
        fi
        [ $arch = sm_90a ] && sed -n 's/^\[nvptx\] \([0-9]*\) kernel(s) in \([0-9.]*\) ms.*/\1 \2/p' "$d/$arch.err" >>"$D/nvptx-times"
        "$PTXAS" -arch=$arch -o "$d/$arch.cubin" "$d/$arch.ptx" >"$d/why" 2>&1 || bad="$bad $arch"
    done
    if [ -z "$bad" ]; then echo "PASS $t-ptx/$n"; else
        echo "FAIL $t-ptx/$n"; echo "    rejected:$bad"; show "$d/why"; fi
}

check_file() {
    f=$1; n=$(basename "$(dirname "$f")")/$(basename "$f" .tk); d=$D/$(echo "$n" | tr / -)
    mkdir -p "$d"
    if [ $NVRTC = 0 ]; then
        echo "SKIP cuda/$n: no NVRTC (libnvrtc.so.13 not found; set CUDA_HOME)"; return
    fi
    check_ptx cuda "$f" "$n" "$d"
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

# The nvptx target: PTX through LLVM, no NVRTC needed.
check_nvptx() {
    f=$1; n=$(basename "$(dirname "$f")")/$(basename "$f" .tk); d=$D/nvptx-$(echo "$n" | tr / -)
    mkdir -p "$d"
    check_ptx nvptx "$f" "$n" "$d"
    bad=""
    for t in nvptx c,nvptx; do
        h=$d/k.$t.h
        # shellcheck disable=SC2046
        if ! TKC_CUBIN=0 "$TKC" "$f" --target=$t $(flags_of "$f") -o "$h" >"$d/tkc.$t.log" 2>&1; then
            bad="$bad tkc--target=$t"; cp "$d/tkc.$t.log" "$d/why"; continue
        fi
        printf '#define TKC_CUDA_HOST_COPY 1\n#include "%s"\n' "${h##*/}" >"$d/copy.c"
        if ! $CC $HW -O1 -I "$d" -c -o "$d/copy.o" "$d/copy.c" >"$d/copy.log" 2>&1; then
            bad="$bad $t"; cp "$d/copy.log" "$d/why"
        fi
    done
    if [ -z "$bad" ]; then echo "PASS nvptx-header/$n"; else
        echo "FAIL nvptx-header/$n"; echo "    failed:$bad"; show "$d/why"; fi
}

# Compile time per kernel, from the sm_90a runs above.
nvptx_times() {
    [ -s "$D/nvptx-times" ] || return
    awk '{ k += $1; ms += $2; if ($1 && $2 / $1 > worst) worst = $2 / $1 }
         END { printf "INFO nvptx compile time: %d kernels, %.1f ms/kernel on average, %.1f ms/kernel at worst (one header)\n",
               k, k ? ms / k : 0, worst }' "$D/nvptx-times"
}

# tkc built without LLVM: everything builds, --target=nvptx says why not.
check_nollvm() {
    b=$D/nollvm
    if [ "${TKC_NOLLVM_BUILD:-1}" = 0 ]; then echo "SKIP nvptx-nollvm: TKC_NOLLVM_BUILD=0"; return; fi
    if ! make -s B="$b" LLVM_CONFIG= "$b/tkc" >"$D/nollvm.log" 2>&1; then
        echo "FAIL nvptx-nollvm"; echo "    tkc does not build without LLVM"; show "$D/nollvm.log"; return
    fi
    "$b/tkc" tests/run/vadd.tk --target=nvptx -o "$D/nollvm.h" >"$D/nollvm.out" 2>&1
    rc=$?
    if [ $rc = 1 ] && grep -q "tkc was built without LLVM" "$D/nollvm.out" && [ ! -e "$D/nollvm.h" ] &&
       "$b/tkc" tests/run/vadd.tk --target=c -o /dev/null; then
        echo "PASS nvptx-nollvm"
    else
        echo "FAIL nvptx-nollvm"; echo "    exit $rc"; show "$D/nollvm.out"
    fi
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

# Built with LLVM?  tkc says so in a fixed message when it is not.
"$TKC" tests/run/vadd.tk --target=nvptx --emit=ptx >"$D/probe-nvptx.ptx" 2>"$D/probe-nvptx.err"
if grep -q "built without LLVM" "$D/probe-nvptx.err"; then LLVM=0; else LLVM=1; fi
rm -f "$D/nvptx-times"

{
    for f in tests/run/*.tk stdlib/*.tk; do check_file "$f"; done
    if [ $LLVM = 1 ]; then
        for f in tests/run/*.tk stdlib/*.tk; do check_nvptx "$f"; done
        nvptx_times
        check_nollvm
    else
        echo "SKIP nvptx: tkc was built without LLVM (make deps installs llvm-19-dev; then make)"
    fi
    check_nodriver
    TKC=$TKC sh tests/gpu/blocks.sh
    if [ "${TKC_GPU_EMU:-1}" = 0 ]; then
        echo "SKIP cuda-emu: TKC_GPU_EMU=0"
    elif [ $NVRTC = 0 ]; then
        echo "SKIP cuda-emu: no NVRTC"
    elif ! command -v g++ >/dev/null 2>&1; then
        echo "SKIP cuda-emu: no g++"
    else
        TKC_GPU_EMU=1 TKC=$TKC sh tests/gpu/run.sh | sed -n 's/^\(PASS\|FAIL\) gpu\//\1 cuda-emu\//p; s/^\(PASS\|FAIL\) gpu-nvptx\//\1 nvptx-emu\//p;
            s/^SKIP gpu-nvptx/SKIP nvptx-emu/p; s/^SKIP gpu/SKIP cuda-emu/p; /^    /p'
        # nvptx: register arrays in allocas, as an array indexed by a variable
        # is (targets/nvptx/gen.c, slot_of: the function built again)
        TKC_NVPTX_SSA=2 TKC_GPU_NVPTX=only TKC_GPU_EMU=1 TKC=$TKC sh tests/gpu/run.sh control mma_ws softmax |
            sed -n 's/^\(PASS\|FAIL\) gpu-nvptx\//\1 nvptx-emu-mem\//p; /^    /p'
        # tf32 dots on wgmma (lower/gpu_wgdt.c), off by default
        TKC_WG_DTYPE=3 TKC_GPU_NVPTX=0 TKC_GPU_EMU=1 TKC=$TKC sh tests/gpu/run.sh dot_tf32 matmul_dtypes |
            sed -n 's/^\(PASS\|FAIL\) gpu\//\1 cuda-emu-wgtf32\//p; /^    /p'
        TKC_WG_DTYPE=3 TKC_WGDT_RA=1 TKC_GPU_NVPTX=0 TKC_GPU_EMU=1 TKC=$TKC sh tests/gpu/run.sh matmul_dtypes |
            sed -n 's/^\(PASS\|FAIL\) gpu\//\1 cuda-emu-wgtf32ra\//p; /^    /p'
    fi
} >"$D/results" 2>&1
cat "$D/results"
npass=$(grep -c '^PASS ' "$D/results")
nfail=$(grep -c '^FAIL ' "$D/results")
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
