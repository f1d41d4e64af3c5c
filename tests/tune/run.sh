#!/bin/sh
# tests/tune/run.sh — build-time autotuning on the CPU (tkc --max-autotune).
#
#   sh tests/tune/run.sh                    # from anywhere; TKC=... to test another binary
#
# Tunes small kernels end to end (a few seconds each, on a private cache
# dir), then checks: the chosen header computes the right thing; a second
# run hits the cache, fast, with the same bytes; a corrupted cache entry is
# rebuilt; a tuning table reproduces the header with an empty cache and no
# tuning; a variant with wrong outputs is excluded; several shapes give a
# dispatching header that is right at tuned and untuned shapes; usage errors
# exit 2.  Then --target=cuda on the CPU stand-in for libcuda (tests/gpu/emu;
# needs NVRTC and g++, else SKIP lines): variants built and timed, the
# tuned header right, a wrong variant excluded, variants that cannot launch
# or need too much shared memory pruned, cache hits for the choice and for the PTX, a tuning table that
# reproduces the header without a GPU, the no-device fallback.  And --target=nvptx there (LLVM's
# PTX, the kernels run as host-mode LLVM IR; needs LLVM and g++): tuned as
# target nvptx (its own cache entries and table lines), the header right, a
# wrong variant excluded.
# Prints PASS/FAIL/SKIP per check and `N passed, N failed`; exits 1 if
# anything failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$ROOT/$TKC ;; esac
T=${T:-$(dirname "$TKC")/tests}/tune
TEST_CC=${TEST_CC:-gcc}
CFLAGS="-std=c11 -O2 -Wall -Wextra -Werror -fopenmp"
S=$ROOT/tests/tune
rm -rf "$T" && mkdir -p "$T" || exit 2
export TKC_CACHE_DIR="$T/cache"
unset TKC_LOGS
npass=0 nfail=0

pass() { echo "PASS tune/$1"; npass=$((npass + 1)); }
fail() { echo "FAIL tune/$1"; shift; for l in "$@"; do echo "    $l"; done; nfail=$((nfail + 1)); }
show() { sed -n "1,${2:-12}s/^/    /p" "$1"; }
now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }

# tkc NAME ARGS...: run tkc with TKC_LOGS=autotune; stderr to $T/NAME.log.
tkc() { n=$1; shift; TKC_LOGS=autotune "$TKC" "$@" 2>"$T/$n.log"; }

# build NAME HEADER DRIVER: compile a checking driver against a header.
build() { mkdir -p "$T/inc" && cp "$2" "$T/inc/$(basename "$3" _check.c).h" &&
          $TEST_CC $CFLAGS -I"$T/inc" -o "$T/$1" "$S/$3" -lm 2>"$T/$1.cc.log"; }

# cold FN NAME ROWS NOTE ARGS...: a cold tuning through FN (tkc, or tkcu
# below) whose log has 8 variant rows matching ROWS, the default, a choice
# and NOTE.
cold() {
    fn=$1 n=$2 rows=$3 note=$4; shift 4
    t0=$(now)
    if ! $fn "$n" "$@"; then fail "$n" "tkc failed"; show "$T/$n.log"; return; fi
    nv=$(grep -c "^\[autotune\]   $rows" "$T/$n.log")
    if [ "$nv" -eq 8 ] && grep -q 'ok (default)' "$T/$n.log" && grep -q ' <- chosen' "$T/$n.log" &&
       grep -q "$note" "$T/$n.log"; then
        pass "$n ($nv variants, $(secs "$t0" "$(now)") s)"
    else
        fail "$n" "expected a table of 8 variants with the default, a choice and '$note'"; show "$T/$n.log" 20
    fi
}

# ---------------------------------------------------------- cold tuning
MM="$S/mm.tk --target=c --max-autotune --tune M=96,N=80,K=64"
cold tkc cold 'BM=' 'warps does not change c-target code' $MM -o "$T/mm.h"
ls "$TKC_CACHE_DIR"/tune-*.tkc >/dev/null 2>&1 && pass cache_written || fail cache_written "no entry in $TKC_CACHE_DIR"

if build mm_check "$T/mm.h" mm_check.c && "$T/mm_check" 96,80,64 1,1,1 100,33,70 64,64,64 >"$T/mm_check.out" 2>&1; then
    pass tuned_header_runs
else
    fail tuned_header_runs "the tuned header computes wrong results"; show "$T/mm_check.cc.log"; show "$T/mm_check.out"
fi

# ---------------------------------------------------------- warm cache
t0=$(now)
tkc warm $MM -o "$T/mm2.h"
t1=$(now)
w=$(secs "$t0" "$t1")
if grep -q 'cache hit' "$T/warm.log" && cmp -s "$T/mm.h" "$T/mm2.h" &&
   [ "$(echo "$w" | awk '{ print ($1 < 1.0) }')" = 1 ]; then
    pass "cache_hit ($w s)"
else
    fail cache_hit "want 'cache hit', the same header and < 1 s (took $w s)"; show "$T/warm.log"
fi

# ---------------------------------------------------------- corruption
e=$(ls "$TKC_CACHE_DIR"/tune-*.tkc | head -1)
sed -i '/^choice /s/$/ /' "$e"     # edited (whatever the choice was): the checksum no longer matches
tkc corrupt $MM -o "$T/mm3.h"
if grep -q 'corrupted: rebuilding' "$T/corrupt.log" && grep -q 'tuned in' "$T/corrupt.log" &&
   tail -1 "$e" | grep -q '^checksum '; then
    tkc corrupt2 $MM -o "$T/mm4.h"
    grep -q 'cache hit' "$T/corrupt2.log" && cmp -s "$T/mm3.h" "$T/mm4.h" && pass corrupt_rebuilt ||
        fail corrupt_rebuilt "the rebuilt entry is not hit next time"
else
    fail corrupt_rebuilt "an edited entry was not detected and rebuilt"; show "$T/corrupt.log"
fi
head -c 40 "$e" >"$e.cut" && mv "$e.cut" "$e"
tkc truncated $MM -o "$T/mm5.h"
grep -q 'corrupted: rebuilding' "$T/truncated.log" && pass truncated_rebuilt ||
    fail truncated_rebuilt "a truncated entry was not detected"

# ---------------------------------------------------------- tuning table
tkc table1 $MM --tune-table "$T/mm.tktune" -o "$T/mm6.h"
if grep -q '^mm M=96,K=64,N=80 -> BM=[0-9]* BN=[0-9]* BK=[0-9]*  # ' "$T/mm.tktune"; then
    pass table_written
else
    fail table_written "no 'mm M=96,K=64,N=80 -> ...' line"; show "$T/mm.tktune"
fi
mkdir -p "$T/empty"
TKC_CACHE_DIR="$T/empty" tkc table2 $MM --tune-table "$T/mm.tktune" -o "$T/mm7.h"
if cmp -s "$T/mm6.h" "$T/mm7.h" && grep -q 'from the tuning table' "$T/table2.log" &&
   ! grep -q 'tuned in' "$T/table2.log" && [ -z "$(ls -A "$T/empty")" ]; then
    pass table_reproduces
else
    fail table_reproduces "want the same bytes, no tuning and nothing cached"; show "$T/table2.log"
fi
cp "$T/mm.tktune" "$T/mm.tktune.before"
TKC_CACHE_DIR="$T/empty" tkc table3 $MM --tune-table "$T/mm.tktune" -o "$T/mm8.h"
cmp -s "$T/mm.tktune" "$T/mm.tktune.before" && pass table_stable || fail table_stable "the table changed on a rerun"

# ---------------------------------------------------------- wrong variant
if tkc wrong "$S/wrong.tk" --max-autotune --no-cache --tune N=20000 -o "$T/wrong.h" &&
   grep -q 'B=64 .*wrong' "$T/wrong.log" && ! grep -q -- '-> B=64' "$T/wrong.log" &&
   ! grep -q 'B=64 .*<- chosen' "$T/wrong.log"; then
    pass wrong_excluded
else
    fail wrong_excluded "B=64 must be marked wrong and not chosen"; show "$T/wrong.log"
fi

# ---------------------------------------------------------- several shapes
cat >"$T/rows.tktune" <<EOF
rowsoftmax M=8,N=64,scale=0.5 -> BLOCK=64
rowsoftmax M=8,N=200,scale=0.5 -> BLOCK=256
EOF
R="$S/rows.tk --max-autotune --tune M=8,N=64,scale=0.5 --tune M=8,N=200,scale=0.5"
if tkc rows_table $R --tune-table "$T/rows.tktune" -o "$T/rows.h" &&
   grep -q 'rowsoftmax__v2' "$T/rows.h" && build rows_check "$T/rows.h" rows_check.c &&
   "$T/rows_check" 8,64,ok 8,200,ok 3,100,ok 5,150,ok 2,500,ok 4,512,ok 2,600,require 8,1,ok >"$T/rows.out" 2>&1; then
    pass dispatch_table
else
    fail dispatch_table "dispatch over BLOCK=64/256 with the default 512 as fallback"; show "$T/rows_table.log"
    show "$T/rows_check.cc.log"; show "$T/rows.out"
fi
if tkc rows_tuned "$S/rows.tk" --max-autotune --tune M=64,N=100 --tune M=32,N=300 --tune M=16,N=40 -o "$T/rows.h" &&
   build rows_check2 "$T/rows.h" rows_check.c &&
   "$T/rows_check2" 64,100,ok 32,300,ok 16,40,ok 7,90,ok 5,250,ok 3,512,ok 3,513,require >"$T/rows2.out" 2>&1; then
    pass "dispatch_tuned ($(grep -c '^static TK_UNUSED tk_status rowsoftmax' "$T/rows.h") entry points)"
else
    fail dispatch_tuned "tuned for 3 shapes: wrong results"; show "$T/rows_tuned.log" 30; show "$T/rows2.out"
fi
if tkc mm_shapes $MM --tune M=33,N=17,K=50 -o "$T/mm.h" && build mm_check2 "$T/mm.h" mm_check.c &&
   "$T/mm_check2" 96,80,64 33,17,50 1,1,1 100,33,70 >"$T/mm2.out" 2>&1; then
    pass mm_two_shapes
else
    fail mm_two_shapes "two shapes: wrong results"; show "$T/mm_shapes.log" 30; show "$T/mm2.out"
fi

# ---------------------------------------------------------- the command line
"$TKC" "$S/mm.tk" --max-autotune --tune M=64,N=64 -o "$T/x.h" 2>"$T/nodim.err"
rc=$?
[ $rc = 2 ] && grep -q 'dim K' "$T/nodim.err" && pass missing_dim || fail missing_dim "exit $rc, want 2 naming dim K"
"$TKC" "$S/mm.tk" --max-autotune -o "$T/x.h" 2>"$T/noshape.err"
rc=$?
[ $rc = 2 ] && pass no_shape || fail no_shape "exit $rc, want 2"
"$TKC" "$S/mm.tk" -o "$T/plain.h" && "$TKC" "$S/mm.tk" --tune M=1,N=2,K=3 -o "$T/plain2.h" &&
    cmp -s "$T/plain.h" "$T/plain2.h" && pass off_unchanged || fail off_unchanged "--tune without --max-autotune changed the header"
"$TKC" --cache-info >"$T/info.out" 2>&1 && grep -q "entries: *[1-9]" "$T/info.out" && pass cache_info ||
    { fail cache_info "no entries listed"; show "$T/info.out"; }
"$TKC" --cache-clear >/dev/null 2>&1 && "$TKC" --cache-info >"$T/info.out" 2>&1 &&
    grep -q "entries: *0" "$T/info.out" && pass cache_clear || { fail cache_clear "entries remain"; show "$T/info.out"; }

# ---------------------------------------------------------- cuda, on the emulator
EMU=$ROOT/tests/gpu/emu
E=$T/emu                                   # the stand-in libcuda.so.1, no kernels of its own
# tkcu NAME ARGS...: tkc --target=cuda tuning on the stand-in (variants' kernels via cc.sh)
tkcu() { n=$1; shift; TKC_LOGS=autotune,nvrtc LD_LIBRARY_PATH=$E TKC_EMU_LIB=$E CC=$EMU/cc.sh \
         "$TKC" --target=cuda "$@" 2>"$T/$n.log"; }
# cuda_run NAME HEADER BASE KERNEL ARGS...: tests/tune/BASE_check.c with
# KERNEL() as HEADER's KERNEL_cuda_host, on the stand-in holding HEADER's
# kernels (tkc --emit=cuda with the same ARGS); the check's arguments are $CHECK.
cuda_run() {
    n=$1 h=$2 base=$3 kn=$4; shift 4; d=$T/$n; mkdir -p "$d"
    TKC_LOGS= tkcu "$n.emit" "$@" --emit=cuda >"$d/kernels.cu" &&
    sh "$EMU/table.sh" tk_emu_kernels "$d/kernels.cu" >"$d/kernels.cc" &&
    g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -shared -Wl,-soname,libcuda.so.1 -I "$EMU" \
        -o "$d/libcuda.so.1" "$EMU/driver.cc" "$d/kernels.cc" -lpthread -ldl >"$d/cc.log" 2>&1 &&
    cp "$h" "$d/$base.real.h" &&
    printf '#define TKC_CUDA_HOST_COPY 1\n#include "%s.real.h"\n#define %s(...) %s_cuda_host(__VA_ARGS__)\n' \
        "$base" "$kn" "$kn" >"$d/$base.h" &&
    $TEST_CC $CFLAGS -I"$d" -o "$d/check" "$S/${base}_check.c" -lm -ldl >>"$d/cc.log" 2>&1 &&
    # shellcheck disable=SC2086
    LD_LIBRARY_PATH=$d "$d/check" $CHECK >"$d/out" 2>&1
}
"$TKC" "$S/mm.tk" --target=cuda --emit=ptx >/dev/null 2>"$T/nvrtc.probe"
if grep -q "needs NVRTC" "$T/nvrtc.probe"; then
    echo "SKIP tune/cuda: no NVRTC (libnvrtc.so.13 not found; set CUDA_HOME)"
elif ! command -v g++ >/dev/null 2>&1; then
    echo "SKIP tune/cuda: no g++ for the CPU stand-in for libcuda"
elif ! mkdir -p "$E" || ! g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -shared -Wl,-soname,libcuda.so.1 \
        -I "$EMU" -o "$E/libcuda.so.1" "$EMU/driver.cc" "$EMU/none.cc" -lpthread -ldl >"$T/emu.log" 2>&1; then
    fail cuda_emulator "the stand-in libcuda does not build"; show "$T/emu.log"
else
    MC="$S/mm.tk --max-autotune --tune M=96,N=80,K=64 -D BK=16"
    cold tkcu cuda_cold 'BM=.* warps=[48] ' 'variants on cuda (tkc CPU emulator' $MC -o "$T/mmc.h"
    # the header's compile of the winner takes the code its variant build made
    if grep -q 'kernel(s) from the cache' "$T/cuda_cold.log"; then pass cuda_cold_reuses_winner; else
        fail cuda_cold_reuses_winner "want the chosen variant's PTX reused (from the cache) by the cold run's header"
        show "$T/cuda_cold.log"; fi
    if CHECK="96,80,64 1,1,1 100,33,70" cuda_run cuda_runs "$T/mmc.h" mm mm $MC; then pass cuda_tuned_header_runs; else
        fail cuda_tuned_header_runs "the tuned header's kernel computes wrong results on the emulator"
        show "$T/cuda_runs/cc.log"; show "$T/cuda_runs/out"; fi

    t0=$(now)
    tkcu cuda_warm $MC -o "$T/mmc2.h"
    w=$(secs "$t0" "$(now)")
    if grep -q 'cache hit' "$T/cuda_warm.log" && grep -q 'from the cache' "$T/cuda_warm.log" &&
       cmp -s "$T/mmc.h" "$T/mmc2.h" && [ "$(echo "$w" | awk '{ print ($1 < 1.0) }')" = 1 ]; then
        pass "cuda_cache_hit ($w s, no NVRTC)"
    else
        fail cuda_cache_hit "want 'cache hit', PTX 'from the cache', the same header and < 1 s (took $w s)"
        show "$T/cuda_warm.log"
    fi
    p=$(ls "$TKC_CACHE_DIR"/ptx-*.tkc | head -1)
    printf 'x' | dd of="$p" bs=1 seek=100 conv=notrunc 2>/dev/null
    tkcu cuda_ptx_corrupt $MC -o "$T/mmc3.h"
    if grep -q 'corrupted: rebuilding' "$T/cuda_ptx_corrupt.log" && grep -q 'kernel(s) in ' "$T/cuda_ptx_corrupt.log" &&
       cmp -s "$T/mmc.h" "$T/mmc3.h"; then
        pass cuda_ptx_corrupt_rebuilt
    else
        fail cuda_ptx_corrupt_rebuilt "a damaged PTX entry must be detected and compiled again"; show "$T/cuda_ptx_corrupt.log"
    fi

    tkcu cuda_table1 $MC --tune-table "$T/mmc.tktune" -o "$T/mmc4.h"
    mkdir -p "$T/empty2"
    # no stand-in on the library path: no device; the table alone decides
    TKC_LOGS=autotune TKC_CACHE_DIR="$T/empty2" "$TKC" --target=cuda $MC --tune-table "$T/mmc.tktune" \
        -o "$T/mmc5.h" 2>"$T/cuda_table2.log"
    if grep -q '^mm@cuda M=96,K=64,N=80 -> BM=[0-9]* BN=[0-9]* warps=[48]  # ' "$T/mmc.tktune" &&
       cmp -s "$T/mmc4.h" "$T/mmc5.h" && grep -q 'from the tuning table' "$T/cuda_table2.log" &&
       ! grep -q 'no cuda device' "$T/cuda_table2.log"; then
        pass cuda_table_reproduces
    else
        fail cuda_table_reproduces "want an mm@cuda line with warps, and the same header from it without a GPU"
        show "$T/mmc.tktune"; show "$T/cuda_table2.log"
    fi

    # several tuned shapes: NAME_cuda / NAME_cuda_host dispatch like the C target's NAME
    sed 's/^rowsoftmax /rowsoftmax@cuda /' "$T/rows.tktune" >"$T/rowsc.tktune"
    RC="$S/rows.tk --max-autotune --tune M=8,N=64,scale=0.5 --tune M=8,N=200,scale=0.5 --tune-table $T/rowsc.tktune"
    if TKC_LOGS=autotune TKC_CACHE_DIR="$T/empty2" "$TKC" --target=cuda $RC -o "$T/rowsc.h" 2>"$T/cuda_dispatch.log" &&
       grep -q 'rowsoftmax__v2_cuda' "$T/rowsc.h" && grep -q 'tk_status rowsoftmax_cuda(' "$T/rowsc.h" &&
       grep -q 'rowsoftmax_cuda_dl(' "$T/rowsc.h" && ! grep -q 'rowsoftmax__v0_cuda_dl' "$T/rowsc.h" &&
       CHECK="8,64,ok 8,200,ok 3,100,ok 5,150,ok 2,500,ok 4,512,ok 2,600,require 8,1,ok" \
           cuda_run cuda_dispatch_run "$T/rowsc.h" rows rowsoftmax $RC; then
        pass cuda_dispatch
    else
        fail cuda_dispatch "rowsoftmax_cuda must dispatch over the tuned variants (default as fallback)"
        show "$T/cuda_dispatch.log"; show "$T/cuda_dispatch_run/cc.log"; show "$T/cuda_dispatch_run/out"
    fi

    if tkcu cuda_wrong "$S/wrong.tk" --max-autotune --no-cache --tune N=2000 -o "$T/wrongc.h" &&
       grep -q 'B=64 .*wrong' "$T/cuda_wrong.log" && ! grep -q 'B=64 .*<- chosen' "$T/cuda_wrong.log" &&
       grep -q 'B=[0-9]* stages=[0-9]' "$T/cuda_wrong.log"; then
        pass cuda_wrong_excluded
    else
        fail cuda_wrong_excluded "B=64 must be marked wrong and not chosen; stages tuned"; show "$T/cuda_wrong.log"
    fi

    # blocks of more than 128 threads fail to launch (as with too many registers)
    if TKC_EMU_MAX_THREADS=128 tkcu cuda_launch $MC -D BN=32 --no-cache -o "$T/mmc6.h" &&
       grep -q 'warps=8 .*pruned: .*CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES.*registers per thread' "$T/cuda_launch.log" &&
       grep -q 'warps=4 .*<- chosen' "$T/cuda_launch.log"; then
        pass cuda_launch_pruned
    else
        fail cuda_launch_pruned "warps=8 (256 threads) must be pruned with the driver's reason"; show "$T/cuda_launch.log"
    fi

    if tkcu cuda_smem "$S/smem.tk" --max-autotune --no-cache --tune M=32,N=32,K=64 -o "$T/smem.h" &&
       grep -q 'S=256 .*pruned: kernel smem needs [0-9]* bytes of shared memory; sm_90a has' "$T/cuda_smem.log" &&
       grep -q 'S=16 .*<- chosen' "$T/cuda_smem.log"; then
        pass cuda_smem_pruned
    else
        fail cuda_smem_pruned "S=256 needs too much shared memory: pruned, with the reason"; show "$T/cuda_smem.log"
    fi

    mkdir -p "$T/nodev"
    TKC_LOGS=autotune LD_LIBRARY_PATH=$T/nodev "$TKC" --target=cuda $MC --no-cache -o "$T/mmc7.h" 2>"$T/cuda_nodev.log"
    rc=$?
    "$TKC" --target=cuda "$S/mm.tk" -D BK=16 -o "$T/mmc8.h"
    sed 2d "$T/mmc7.h" >"$T/mmc7.body"; sed 2d "$T/mmc8.h" >"$T/mmc8.body"   # line 2: the options
    # stdlib/matmul.tk: four kernels with a space, one message
    TKC_LOGS=autotune LD_LIBRARY_PATH=$T/nodev "$TKC" --target=cuda "$ROOT/stdlib/matmul.tk" --max-autotune \
        --tune M=64,N=64,K=64 --no-cache -o "$T/mmc9.h" 2>"$T/cuda_nodev2.log"
    if [ $rc = 0 ] && grep -q 'no cuda device here; using the tuning table or the default values' "$T/cuda_nodev.log" &&
       [ "$(grep -c 'no cuda device' "$T/cuda_nodev.log")" = 1 ] && cmp -s "$T/mmc7.body" "$T/mmc8.body" &&
       [ "$(grep -c 'no cuda device' "$T/cuda_nodev2.log")" = 1 ] && [ -s "$T/mmc9.h" ]; then
        pass cuda_no_device
    else
        fail cuda_no_device "without a driver: one 'no cuda device' line, then the default header (exit $rc)"
        show "$T/cuda_nodev.log"; show "$T/cuda_nodev2.log"
    fi
fi

# ---------------------------------------------------------- nvptx, on the emulator
# --target=nvptx tunes through the cuda backend with LLVM's PTX in the
# headers; the stand-in runs each variant's kernel as the nvptx target's
# host-mode IR (TKC_NVPTX_HOST=1: k.ll, compiled by llc in cc.sh).
LLC=${LLVM_BINDIR:-/usr/lib/llvm-19/bin}/llc
# tkcn NAME ARGS...: tkc --target=nvptx tuning on the stand-in
tkcn() { n=$1; shift; TKC_LOGS=autotune,nvptx LD_LIBRARY_PATH=$E TKC_EMU_LIB=$E CC=$EMU/cc.sh TKC_NVPTX_HOST=1 \
         LLC=$LLC "$TKC" --target=nvptx "$@" 2>"$T/$n.log"; }
# nvptx_run NAME HEADER ARGS...: mm_check against HEADER's mm_cuda_host on the
# stand-in holding HEADER's kernels as host-mode IR (tkc --emit=llvm, same ARGS).
nvptx_run() {
    n=$1; h=$2; shift 2; d=$T/$n; mkdir -p "$d"
    TKC_LOGS= tkcn "$n.emit" "$@" --emit=llvm >"$d/kernels.ll" &&
    TKC_LOGS= tkcn "$n.emitcu" "$@" --emit=cuda >"$d/kernels.cu" &&
    "$LLC" -O1 -filetype=obj -relocation-model=pic -o "$d/kernels.o" "$d/kernels.ll" >"$d/cc.log" 2>&1 &&
    sh "$EMU/table.sh" tk_emu_kernels "$d/kernels.cu" decl >"$d/kernels.cc" &&
    g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -shared -Wl,-soname,libcuda.so.1 -I "$EMU" \
        -o "$d/libcuda.so.1" "$EMU/driver.cc" "$EMU/nvptx.cc" "$d/kernels.cc" "$d/kernels.o" -lpthread -ldl \
        >>"$d/cc.log" 2>&1 &&
    cp "$h" "$d/mm.real.h" &&
    printf '#define TKC_CUDA_HOST_COPY 1\n#include "mm.real.h"\n#define mm(...) mm_cuda_host(__VA_ARGS__)\n' >"$d/mm.h" &&
    $TEST_CC $CFLAGS -I"$d" -o "$d/check" "$S/mm_check.c" -lm -ldl >>"$d/cc.log" 2>&1 &&
    LD_LIBRARY_PATH=$d "$d/check" 96,80,64 1,1,1 100,33,70 >"$d/out" 2>&1
}
if ! "$TKC" "$S/mm.tk" --target=nvptx --emit=ptx >/dev/null 2>"$T/nvptx.probe"; then
    echo "SKIP tune/nvptx: $(head -1 "$T/nvptx.probe")"
elif ! command -v g++ >/dev/null 2>&1; then
    echo "SKIP tune/nvptx: no g++ for the CPU stand-in for libcuda"
elif [ ! -x "$LLC" ]; then
    echo "SKIP tune/nvptx: no $LLC (LLVM 19) for the stand-in"
elif ! mkdir -p "$E" || { [ ! -f "$E/libcuda.so.1" ] &&
        ! g++ -std=c++17 -O1 -w -fno-strict-aliasing -fPIC -shared -Wl,-soname,libcuda.so.1 \
            -I "$EMU" -o "$E/libcuda.so.1" "$EMU/driver.cc" "$EMU/none.cc" -lpthread -ldl >"$T/emu.log" 2>&1; }; then
    fail nvptx_emulator "the stand-in libcuda does not build"; show "$T/emu.log"
else
    MN="$S/mm.tk --max-autotune --tune M=96,N=80,K=64 -D BK=16"
    # the cuda runs above tuned the same shape: the nvptx entry is another one
    cold tkcn nvptx_cold 'BM=.* warps=[48] ' 'variants on nvptx (tkc CPU emulator' $MN -o "$T/mmn.h"
    if nvptx_run nvptx_runs "$T/mmn.h" $MN; then pass nvptx_tuned_header_runs; else
        fail nvptx_tuned_header_runs "the tuned header's kernel computes wrong results on the emulator"
        show "$T/nvptx_runs/cc.log"; show "$T/nvptx_runs/out"; fi
    if grep -q 'PTX from LLVM' "$T/mmn.h"; then pass nvptx_header_llvm; else
        fail nvptx_header_llvm "the tuned header's PTX must come from LLVM"; fi

    tkcn nvptx_warm $MN --tune-table "$T/mmn.tktune" -o "$T/mmn2.h"
    sed 2d "$T/mmn.h" >"$T/mmn.body"; sed 2d "$T/mmn2.h" >"$T/mmn2.body"   # line 2: the options
    if grep -q 'cache hit' "$T/nvptx_warm.log" && cmp -s "$T/mmn.body" "$T/mmn2.body" &&
       grep -q '^mm@nvptx M=96,K=64,N=80 -> BM=[0-9]* BN=[0-9]* warps=[48]  # ' "$T/mmn.tktune"; then
        pass nvptx_cache_hit_table
    else
        fail nvptx_cache_hit_table "want a cache hit, the same header and an mm@nvptx table line"
        show "$T/nvptx_warm.log"; show "$T/mmn.tktune"
    fi

    if tkcn nvptx_wrong "$S/wrong.tk" --max-autotune --no-cache --tune N=2000 -o "$T/wrongn.h" &&
       grep -q 'B=64 .*wrong' "$T/nvptx_wrong.log" && ! grep -q 'B=64 .*<- chosen' "$T/nvptx_wrong.log"; then
        pass nvptx_wrong_excluded
    else
        fail nvptx_wrong_excluded "B=64 must be marked wrong and not chosen"; show "$T/nvptx_wrong.log"
    fi
fi

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
