#!/bin/sh
# tests/gpu/run.sh — every run test of the C target, on the GPU (`make test-gpu`).
#
#   sh tests/gpu/run.sh [NAME ...]          # default: every tests/run/NAME.tk with NAME.c,
#                                           # then `launch` (tests/gpu/launch.c)
#   TKC_GPU_EMU=1 sh tests/gpu/run.sh       # no GPU: a CPU stand-in for libcuda (tests/gpu/emu)
#   SANITIZE=0 sh tests/gpu/run.sh          # skip the compute-sanitizer pass
#   RACECHECK=1 sh tests/gpu/run.sh         # also racecheck + synccheck each test
#   TKC_GPU_NVPTX=0 sh tests/gpu/run.sh     # skip the --target=nvptx pass
#   TKC_GPU_NVPTX=only sh tests/gpu/run.sh  # only the --target=nvptx pass
#
# Uses build/tkc as it is (no rebuild) and compiles only C with gcc.  Each
# test's driver (tests/run/NAME.c) is compiled unchanged against a header
# made with --target=c,cuda and TKC_CUDA_HOST_COPY, where a small wrapper
# header maps every kernel call NAME(...) to NAME_cuda_host(...): the
# tensors go to the device inside guard bytes, the kernel runs there through
# the real launcher (argument checks, module load, launch), the guards are
# checked and the stored tensors come back.  So the same drivers, shapes,
# float64 references, error cases and untouched-element checks that test
# the C target test the GPU code.  Then, when compute-sanitizer is found,
# each driver runs once more under memcheck (without guard bytes, so that
# any access outside a tensor is an error).
# When tkc was built with LLVM, every test runs a second time with the header
# made by --target=c,nvptx (PTX from LLVM; the same launcher), reported as
# gpu-nvptx/NAME, so both PTX sources must give results within the drivers'
# tolerances; and gpu-nvptx/math checks every math function of
# targets/nvptx/math.c in f32 and f64 against libm (tests/gpu/nvptx_math.c
# on the kernel of tests/gpu/nvptx_math.tk).  On the CPU stand-in the
# nvptx pass runs the same LLVM IR built for the host (TKC_NVPTX_HOST=1,
# compiled with LLVM 19's llc; tests/gpu/emu/nvptx.cc) instead of the PTX.
# Prints PASS/FAIL/SKIP per test and `N passed, N failed`; exits 1 on failures.
set -u
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$ROOT/$TKC ;; esac
G=$(dirname "$TKC")/gpu
CC=${CC:-gcc}
CFLAGS="-std=c11 -O2 -Wall -Wextra -Werror"
TO=""
command -v timeout >/dev/null 2>&1 && TO="timeout"
limit() { secs=$1; shift; if [ -n "$TO" ]; then timeout "$secs" "$@"; else "$@"; fi; }
flags_of() { sed -n '1s|^// *tkc-flags: *||p' "$1"; }
show() { sed -n "1,${2:-30}s/^/    /p" "$1"; }

[ -x "$TKC" ] || { echo "tests/gpu/run.sh: no $TKC (build tkc first, or carry build/)"; exit 2; }
mkdir -p "$G"

EMU=${TKC_GPU_EMU:-0}
SAN=""
if [ "$EMU" = 1 ]; then
    command -v g++ >/dev/null 2>&1 || { echo "SKIP gpu: TKC_GPU_EMU=1 needs g++"; exit 0; }
elif [ "${SANITIZE:-1}" != 0 ]; then
    for c in compute-sanitizer "${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer"; do
        if command -v "$c" >/dev/null 2>&1; then SAN=$c; break; fi
    done
fi

# The wrapper header: the real one, then NAME(...) -> NAME_cuda_host(...).
wrap() {
    wn=$1; real=$2; out=$3
    {
        echo "/* tests/gpu: $wn's kernels on the GPU through NAME_cuda_host */"
        echo "#define TKC_CUDA_HOST_COPY 1"
        echo "#include \"$real\""
        sed -n 's/^static TK_UNUSED tk_status \([A-Za-z_][A-Za-z0-9_]*\)_cuda_host(.*/#define \1(...) \1_cuda_host(__VA_ARGS__)/p' "$real"
    } >"$out"
}

# A stand-in libcuda.so.1 holding the test's device code, for TKC_GPU_EMU=1.
emu_lib() {
    ef=$2; ed=$3
    mkdir -p "$ed"
    # shellcheck disable=SC2046
    "$TKC" "$ef" --target=cuda --emit=cuda $(flags_of "$ef") 2>"$ed/tkc.log" \
        | sed '1,/end of the tkc device prelude/d' >"$ed/kernels.cu" || return 1
    emu_link "$ed" '#include "kernels.cu"'
}

# emu_link DIR CODE [OBJ...]: DIR/libcuda.so.1 from the stand-in driver, CODE
# (the kernels, or their declarations), the table of DIR/kernels.cu's kernels
# and OBJ.
emu_link() {
    ed=$1; code=$2; shift 2
    {
        echo '#include "emu.h"'
        echo "$code"
        echo 'const tk_emu_kernel tk_emu_kernels[] = {'
        sed -n 's/^extern "C" __global__ void __launch_bounds__([0-9, ]*) \([A-Za-z_][A-Za-z0-9_]*\)(.*/    { "\1", [](void **a) { tk_emu_call(\1, a); } },/p' "$ed/kernels.cu"
        echo '    { 0, 0 } };'
        echo "const int tk_emu_nkernels = sizeof tk_emu_kernels / sizeof *tk_emu_kernels - 1;"
    } >"$ed/kernels.cc"
    g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -shared -Wl,-soname,libcuda.so.1 -I tests/gpu/emu -I "$ed" -o "$ed/libcuda.so.1" \
        tests/gpu/emu/driver.cc "$ed/kernels.cc" "$@" -lpthread -ldl >"$ed/cc.log" 2>&1
}

# The stand-in for --target=nvptx: the kernels as host-mode LLVM IR, their
# signatures from the CUDA C (the same parameters).
emu_nvptx_lib() {
    ef=$2; ed=$3
    mkdir -p "$ed"
    # shellcheck disable=SC2046
    { TKC_NVPTX_HOST=1 "$TKC" "$ef" --target=nvptx --emit=llvm $(flags_of "$ef") >"$ed/kernels.ll" 2>"$ed/tkc.log" &&
      "$LLC" -O1 -filetype=obj -relocation-model=pic -o "$ed/kernels.o" "$ed/kernels.ll" >>"$ed/tkc.log" 2>&1 &&
      "$TKC" "$ef" --target=cuda --emit=cuda $(flags_of "$ef") >"$ed/kernels.cu" 2>>"$ed/tkc.log"; } || return 1
    emu_link "$ed" "$(sed -n 's/^extern "C" __global__ void __launch_bounds__([0-9, ]*) \(.*)\)$/extern "C" void \1;/p' "$ed/kernels.cu")" \
        tests/gpu/emu/nvptx.cc "$ed/kernels.o"
}

# test_one NAME [nvptx]: the test with --target=c,cuda, or with c,nvptx.
test_one() {
    name=$1; f=tests/run/$name.tk; d=$G/$name; t=c,cuda; g=gpu
    if [ "${2:-}" = nvptx ]; then d=$G/nvptx/$name; t=c,nvptx; g=gpu-nvptx; fi
    mkdir -p "$d"
    # shellcheck disable=SC2046
    if ! limit 120 "$TKC" "$f" --target=$t $(flags_of "$f") -o "$d/$name.real.h" >"$d/tkc.log" 2>&1; then
        echo "FAIL $g/$name"; echo "    tkc failed"; show "$d/tkc.log"; return
    fi
    wrap "$name" "$d/$name.real.h" "$d/$name.h"
    if ! limit 300 $CC $CFLAGS -I "$d" -I tests/run -o "$d/$name" "tests/run/$name.c" -lm -ldl >"$d/cc.log" 2>&1; then
        echo "FAIL $g/$name"; echo "    driver does not compile"; show "$d/cc.log"; return
    fi
    envs=""
    if [ "$EMU" = 1 ]; then
        lib=emu_lib
        [ $g = gpu-nvptx ] && lib=emu_nvptx_lib
        if ! $lib "$name" "$f" "$d/emu"; then
            echo "FAIL $g/$name"; echo "    emulator build failed"; show "$d/emu/cc.log"; show "$d/emu/tkc.log"; return
        fi
        envs="LD_LIBRARY_PATH=$d/emu"
    fi
    # shellcheck disable=SC2086
    env $envs ${TO:+timeout 600} "$d/$name" >"$d/out" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL $g/$name"; echo "    exit $rc"; show "$d/out" 40; return
    fi
    if [ -n "$SAN" ]; then
        if ! $CC $CFLAGS -DTKC_CUDA_HOST_GUARD=0 -I "$d" -I tests/run -o "$d/$name.san" "tests/run/$name.c" -lm -ldl >"$d/cc.san.log" 2>&1; then
            echo "FAIL $g/$name.memcheck"; echo "    driver does not compile"; show "$d/cc.san.log"; return
        fi
        limit 1200 "$SAN" --tool memcheck --error-exitcode 99 --print-limit 20 "$d/$name.san" >"$d/out.san" 2>&1
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "FAIL $g/$name.memcheck"; echo "    exit $rc"; show "$d/out.san" 40; return
        fi
        if [ "${RACECHECK:-0}" = 1 ]; then
            for tool in racecheck synccheck; do
                limit 1200 "$SAN" --tool $tool --error-exitcode 99 --print-limit 20 "$d/$name.san" >"$d/out.$tool" 2>&1
                rc=$?
                if [ $rc -ne 0 ]; then
                    echo "FAIL $g/$name.$tool"; echo "    exit $rc"; show "$d/out.$tool" 40; return
                fi
            done
            echo "PASS $g/$name (+memcheck +racecheck +synccheck)"
            return
        fi
        echo "PASS $g/$name (+memcheck)"
        return
    fi
    echo "PASS $g/$name"
}

# The launcher's error paths (tests/gpu/launch.c): bad arguments, a failed
# require, a stream of another context; and, built with a driver library
# name that does not exist, no driver.
test_launch() {
    d=$G/launch
    mkdir -p "$d"
    if ! "$TKC" tests/gpu/launch.tk --target=cuda -o "$d/launch.h" >"$d/tkc.log" 2>&1; then
        echo "FAIL gpu/launch"; echo "    tkc failed"; show "$d/tkc.log"; return
    fi
    for v in launch nodriver; do
        def=""; [ $v = nodriver ] && def="-DNO_DRIVER -DTKC_CUDA_LIBNAME=\"libcuda-none-tkc.so.1\""
        # shellcheck disable=SC2086
        if ! $CC $CFLAGS $def -I "$d" -o "$d/$v" tests/gpu/launch.c -lm -ldl >"$d/cc.$v.log" 2>&1; then
            echo "FAIL gpu/$v"; echo "    does not compile"; show "$d/cc.$v.log"; return
        fi
    done
    envs=""
    if [ "$EMU" = 1 ]; then
        if ! emu_lib launch tests/gpu/launch.tk "$d/emu"; then
            echo "FAIL gpu/launch"; echo "    emulator build failed"; show "$d/emu/cc.log"; return
        fi
        envs="LD_LIBRARY_PATH=$d/emu"
    fi
    for v in launch nodriver; do
        # shellcheck disable=SC2086
        if env $envs ${TO:+timeout 120} "$d/$v" >"$d/out.$v" 2>&1; then
            echo "PASS gpu/$v"
        else
            echo "FAIL gpu/$v"; show "$d/out.$v"
        fi
    done
}

# Is there a GPU?  vadd through the real launcher says.
if [ "$EMU" != 1 ]; then
    mkdir -p "$G/probe"
    "$TKC" tests/run/vadd.tk --target=cuda --kernel=vadd -o "$G/probe/vadd.h" >"$G/probe/log" 2>&1 \
        || { echo "FAIL gpu/probe: tkc --target=cuda failed"; show "$G/probe/log"; echo "0 passed, 1 failed"; exit 1; }
    cat >"$G/probe/has.c" <<'EOF'
#define TKC_CUDA_HOST_COPY 1
#include "vadd.h"
int main(void)
{
    float x = 1, y = 2, z = 0;
    int s = vadd_cuda_host(&x, &y, &z, 1);
    if (s != TK_OK) {
        printf("%s\n", tk_last_error());
        return s == TK_ERR_NO_DEVICE ? 3 : 1;
    }
    return z == 3 ? 0 : 1;
}
EOF
    $CC $CFLAGS -I "$G/probe" -o "$G/probe/has" "$G/probe/has.c" -lm -ldl >>"$G/probe/log" 2>&1
    why=$("$G/probe/has")
    case $? in
    0) ;;
    3) echo "SKIP gpu: $why (TKC_GPU_EMU=1 runs the tests on the CPU stand-in)"; echo "0 passed, 0 failed"; exit 0 ;;
    *) echo "FAIL gpu/probe: vadd on the GPU: $why"; echo "0 passed, 1 failed"; exit 1 ;;
    esac
fi

if [ $# -gt 0 ]; then names=$*; else
    names=$(for c in tests/run/*.c; do n=$(basename "$c" .c); [ -f "tests/run/$n.tk" ] && echo "$n"; done)
fi
# The nvptx target's math functions against libm (see nvptx_math.c): the
# kernel from tests/gpu/nvptx_math.tk, so tkc alone makes it (the GPU
# machine has no LLVM); on the stand-in, its host-mode IR as for the tests.
test_math() {
    d=$G/nvptx/math
    mkdir -p "$d"
    if ! "$TKC" tests/gpu/nvptx_math.tk --target=nvptx -o "$d/tk_math.h" >"$d/tkc.log" 2>&1; then
        echo "FAIL gpu-nvptx/math"; echo "    tkc failed"; show "$d/tkc.log"; return
    fi
    if ! $CC $CFLAGS -I "$d" -o "$d/m" tests/gpu/nvptx_math.c -lm -ldl >"$d/cc.log" 2>&1; then
        echo "FAIL gpu-nvptx/math"; echo "    nvptx_math.c does not compile"; show "$d/cc.log"; return
    fi
    envs=""
    if [ "$EMU" = 1 ]; then
        if ! emu_nvptx_lib math tests/gpu/nvptx_math.tk "$d/emu"; then
            echo "FAIL gpu-nvptx/math"; echo "    emulator build failed"; show "$d/emu/cc.log"; show "$d/emu/tkc.log"; return
        fi
        envs="LD_LIBRARY_PATH=$d/emu"
    fi
    # shellcheck disable=SC2086
    if env $envs ${TO:+timeout 600} "$d/m" >"$d/out" 2>&1; then echo "PASS gpu-nvptx/math"; else
        echo "FAIL gpu-nvptx/math"; show "$d/out" 40; fi
}

# The nvptx pass: with LLVM (on the stand-in also with llc).
NVPTX=0
LLC=""
for c in "${LLVM_BINDIR:-/usr/lib/llvm-19/bin}/llc" llc-19; do
    if command -v "$c" >/dev/null 2>&1; then LLC=$c; break; fi
done
mkdir -p "$G/nvptx"
# the summary: one file per pass, so that a cuda-only and an nvptx-only run
# of the same build side by side do not write into each other's
R=$G/results${TKC_GPU_NVPTX:+-$TKC_GPU_NVPTX}
if [ "${TKC_GPU_NVPTX:-1}" = 0 ]; then
    echo "TKC_GPU_NVPTX=0" >"$G/nvptx/probe.err"
elif "$TKC" tests/run/vadd.tk --target=nvptx --emit=ptx >/dev/null 2>"$G/nvptx/probe.err"; then
    NVPTX=1
    [ "$EMU" = 1 ] && [ -z "$LLC" ] && { NVPTX=0; echo "no llc (LLVM 19) for the stand-in" >"$G/nvptx/probe.err"; }
fi

{
    if [ "${TKC_GPU_NVPTX:-1}" != only ]; then
        for n in $names; do
            if [ "$n" = launch ]; then test_launch; else test_one "$n"; fi
        done
        [ $# -gt 0 ] || test_launch
    fi
    if [ $NVPTX = 1 ]; then
        for n in $names; do [ "$n" = launch ] || test_one "$n" nvptx; done
        test_math
    else
        echo "SKIP gpu-nvptx: $(head -1 "$G/nvptx/probe.err")"
    fi
} >"$R" 2>&1
cat "$R"
npass=$(grep -c '^PASS ' "$R")
nfail=$(grep -c '^FAIL ' "$R")
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
