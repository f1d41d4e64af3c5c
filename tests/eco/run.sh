#!/bin/sh
# tests/eco/run.sh — tkc among the tools around it (`sh tests/run.sh eco`).
#
#   sh tests/eco/run.sh [NAME...]        # default: every test; --list names them
#
#   install        make install PREFIX=<tmp>: the files, pkg-config, then uninstall
#   make           tests/eco/make, a GNU make project (pkg-config, `%.h: %.tk`, tkc -MD)
#   cmake          tests/eco/cmake, find_package(tkc) + tkc_add_kernel (SKIP without cmake)
#                  both against an installed tkc: build and run, then rebuild nothing when
#                  nothing changed, the header when an import or tkc changes
#   depfile        tkc -MD / -MF: the rule written, usage errors
#   dlpack         tests/eco/dlpack_check.c: NAME_dl on hand-made DLTensors, with
#                  <dlpack/dlpack.h> when installed and with tests/eco/dlpack_min.h
#   dlpack_headers every run and header test's header with -DTKC_DLPACK, gcc -O1 and
#                  clang -Wall -Wextra -Werror, each NAME_dl's address taken
#   help           tkc --help fits a screen (24 lines, 100 columns) with examples
#   editors        lang/tk.vim colours a kernel in vim; lang/vscode's JSON parses
#   bench_report   tests/bench/report.sh on tests/eco/bench_sample.log
#
# Prints PASS/FAIL/SKIP lines and `N passed, N failed`; exit 1 if anything failed.
# Environment (set by tests/run.sh): ROOT, TKC, BDIR (tkc's build dir), T (scratch).
set -u
cd "$(dirname "$0")/../.." || exit 2
ROOT=${ROOT:-$PWD}
TKC=${TKC:-$ROOT/build/tkc}
BDIR=${BDIR:-$(dirname "$TKC")}
T=${T:-$BDIR/tests}
E=$T/eco
NAMES="install make cmake depfile dlpack dlpack_cuda dlpack_headers help editors bench_report"

pass() { echo "PASS eco/$1"; }
fail() { echo "FAIL eco/$1"; shift; for l in "$@"; do echo "    $l"; done; }
skip() { echo "SKIP eco/$1: $2"; }
show() { sed -n "1,${2:-15}s/^/    /p" "$1"; }
# make without the settings of a make that runs these tests (jobserver, -s)
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u MAKEOVERRIDES make "$@"; }

# install_to DIR: `make install` of the tkc under test into DIR (never rebuilt
# here: -o); 1 on failure (log in DIR.log)
install_to() {
    rm -rf "$1"
    mk -s -C "$ROOT" -o "$BDIR/tkc" install B="$BDIR" PREFIX="$1" >"$1.log" 2>&1
}

# A private copy of tests/eco (the projects and the .tk files they edit) in $E/$1/src.
copy_src() {
    rm -rf "${E:?}/$1/src"
    mkdir -p "$E/$1" && cp -R "$ROOT/tests/eco" "$E/$1/src"
}

# ------------------------------------------------------------------ install

t_install() {
    p=$E/install/prefix
    mkdir -p "$E/install"
    install_to "$p" || { fail install "make install failed:"; show "$p.log"; return; }
    missing=""
    for f in bin/tkc share/tkc/stdlib/nn.tk share/man/man1/tkc.1 lib/pkgconfig/tkc.pc \
             lib/cmake/tkc/tkcConfig.cmake lib/cmake/tkc/tkcConfigVersion.cmake lib/cmake/tkc/tkc.cmake; do
        [ -f "$p/$f" ] || missing="$missing $f"
    done
    [ -z "$missing" ] || { fail install "not installed:$missing"; return; }
    # the installed tkc finds the installed stdlib: import "stdlib/nn.tk" from anywhere
    printf 'import "stdlib/nn.tk";\n' >"$E/install/imp.tk"
    "$p/bin/tkc" "$E/install/imp.tk" --kernel=softmax -o "$E/install/imp.h" 2>"$E/install/imp.err" ||
        { fail install "the installed tkc does not find its stdlib:"; show "$E/install/imp.err"; return; }
    if command -v pkg-config >/dev/null 2>&1; then
        got=$(PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --variable=tkc tkc)
        [ "$got" = "$p/bin/tkc" ] || { fail install "pkg-config --variable=tkc tkc: '$got'"; return; }
        PKG_CONFIG_PATH=$p/lib/pkgconfig pkg-config --libs tkc | grep -q -- -lm ||
            { fail install "pkg-config --libs tkc lacks -lm"; return; }
    fi
    if command -v man >/dev/null 2>&1 && ! MANWIDTH=80 man -l "$p/share/man/man1/tkc.1" 2>&1 | grep -q -- '-MD'; then
        fail install "man -l tkc.1 does not render the options"; return
    fi
    mk -s -C "$ROOT" uninstall PREFIX="$p" >"$p.un.log" 2>&1 || { fail install "make uninstall failed"; show "$p.un.log"; return; }
    left=$(find "$p" -type f | sed "s|^$p/||" | tr '\n' ' ')
    [ -z "$left" ] || { fail install "left after uninstall: $left"; return; }
    pass install
}

# ------------------------------------------------------------------ make / cmake

# rebuild_checks NAME BUILD RUN LOG: the project (already built once) rebuilt
# after nothing changed, after bias.tk (an import) changed, after tkc changed.
# BUILD runs the build writing LOG; RUN runs the program with the bias.
rebuild_checks() {
    rc_name=$1 rc_build=$2 rc_run=$3 rc_log=$4 rc_src=$E/$1/src
    eval "$rc_build" || { fail "$rc_name" "second build failed:"; show "$rc_log"; return 1; }
    if grep -q 'kern\.tk' "$rc_log"; then fail "$rc_name" "tkc ran again although nothing changed:"; show "$rc_log"; return 1; fi
    sleep 1                                   # a newer mtime on coarse file systems
    sed 's/v + 0\.0/v + 1.5/' "$rc_src/bias.tk" >"$rc_src/bias.tk.new" && mv "$rc_src/bias.tk.new" "$rc_src/bias.tk"
    eval "$rc_build" || { fail "$rc_name" "build after editing bias.tk failed:"; show "$rc_log"; return 1; }
    eval "$rc_run 1.5" >"$E/$rc_name/run2.out" 2>&1 ||
        { fail "$rc_name" "the header was not rebuilt after its import bias.tk changed:"; show "$E/$rc_name/run2.out"; return 1; }
    sleep 1
    touch "$E/$rc_name/prefix/bin/tkc"
    eval "$rc_build" || { fail "$rc_name" "build after touching tkc failed:"; show "$rc_log"; return 1; }
    grep -q 'kern\.tk' "$rc_log" || { fail "$rc_name" "tkc did not run again after tkc changed:"; show "$rc_log"; return 1; }
    return 0
}

t_make() {
    copy_src make
    install_to "$E/make/prefix" || { fail make "make install failed:"; show "$E/make/prefix.log"; return; }
    command -v pkg-config >/dev/null 2>&1 || { skip make "no pkg-config"; return; }
    d=$E/make/src/make
    build="mk -C '$d' TKC_PREFIX='$E/make/prefix' >'$E/make/build.log' 2>&1"
    eval "$build" || { fail make "build failed:"; show "$E/make/build.log"; return; }
    "$d/app" >"$E/make/run.out" 2>&1 || { fail make "app failed:"; show "$E/make/run.out"; return; }
    grep -q '^kern.h:' "$d/kern.d" && grep -q 'bias\.tk' "$d/kern.d" ||
        { fail make "kern.d does not list kern.tk's import:"; show "$d/kern.d"; return; }
    rebuild_checks make "$build" "'$d/app'" "$E/make/build.log" && pass make
}

t_cmake() {
    command -v cmake >/dev/null 2>&1 || { skip cmake "no cmake (apt-get install cmake)"; return; }
    copy_src cmake
    install_to "$E/cmake/prefix" || { fail cmake "make install failed:"; show "$E/cmake/prefix.log"; return; }
    b=$E/cmake/build
    rm -rf "$b"
    if ! cmake -S "$E/cmake/src/cmake" -B "$b" -DCMAKE_PREFIX_PATH="$E/cmake/prefix" \
            -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$E/cmake/configure.log" 2>&1; then
        fail cmake "cmake configure failed:"; show "$E/cmake/configure.log" 25; return
    fi
    build="env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS cmake --build '$b' >'$E/cmake/build.log' 2>&1"
    eval "$build" || { fail cmake "build failed:"; show "$E/cmake/build.log" 25; return; }
    "$b/app" >"$E/cmake/run.out" 2>&1 || { fail cmake "app failed:"; show "$E/cmake/run.out"; return; }
    rebuild_checks cmake "$build" "'$b/app'" "$E/cmake/build.log" && pass cmake
}

# ------------------------------------------------------------------ depfile

t_depfile() {
    d=$E/depfile
    rm -rf "$d" && mkdir -p "$d/sub dir"
    printf 'import "sub dir/h.tk";\nkernel k(x: f32[N]) grid(1) { store(x[0], one()); }\n' >"$d/m.tk"
    printf 'fn one() { return 1.0; }\n' >"$d/sub dir/h.tk"
    "$TKC" "$d/m.tk" -o "$d/m.h" -MD 2>"$d/err" || { fail depfile "tkc -MD failed:"; show "$d/err"; return; }
    want="$d/m.h: \\
  $d/m.tk \\
  $d/sub\\ dir/h.tk

$d/m.tk:

$d/sub\\ dir/h.tk:"
    [ "$(cat "$d/m.d" 2>/dev/null)" = "$want" ] || { fail depfile "m.d is not the expected rule:"; show "$d/m.d"; return; }
    "$TKC" "$d/m.tk" -o "$d/m.h" -MF "$d/other.dep" 2>"$d/err" && cmp -s "$d/m.d" "$d/other.dep" ||
        { fail depfile "-MF FILE differs from -MD"; return; }
    "$TKC" "$d/m.tk" -MD >/dev/null 2>"$d/err"
    [ $? -eq 2 ] && grep -q 'needs -o' "$d/err" || { fail depfile "-MD without -o: want exit 2 and 'needs -o'"; return; }
    "$TKC" "$d/m.tk" -o "$d/x.h" -MF 2>"$d/err"
    [ $? -eq 2 ] || { fail depfile "-MF without a file: want exit 2"; return; }
    rm -f "$d/bad.d"
    printf 'kernel k(x: f32[N]) grid(1) { store(x[0], nope); }\n' >"$d/bad.tk"
    "$TKC" "$d/bad.tk" -o "$d/bad.h" -MD 2>/dev/null
    [ ! -e "$d/bad.d" ] || { fail depfile "a depfile was written although compilation failed"; return; }
    pass depfile
}

# ------------------------------------------------------------------ dlpack

t_dlpack() {
    d=$E/dlpack
    mkdir -p "$d"
    "$TKC" tests/eco/dlpack.tk -o "$d/dlpack_kernels.h" 2>"$d/tkc.err" || { fail dlpack "tkc failed:"; show "$d/tkc.err"; return; }
    ran=""
    for cc in gcc clang; do
        command -v $cc >/dev/null 2>&1 || continue
        for how in system min; do
            flag=""
            if [ $how = min ]; then flag=-DTKT_DLPACK_MIN
            elif ! printf '#include <dlpack/dlpack.h>\n' | $cc -E -x c - >/dev/null 2>&1; then continue; fi
            exe=$d/check.$cc.$how
            # shellcheck disable=SC2086
            if ! $cc -std=c11 -O2 -Wall -Wextra -Werror -fopenmp $flag -I "$d" -I tests/eco -o "$exe" \
                    tests/eco/dlpack_check.c -lm >"$exe.log" 2>&1; then
                fail dlpack "does not build with $cc ($how DLPack header):"; show "$exe.log"; return
            fi
            "$exe" >"$exe.out" 2>&1 || { fail dlpack "$cc, $how DLPack header:"; show "$exe.out" 25; return; }
            ran="$ran $cc/$how"
        done
    done
    [ -n "$ran" ] || { skip dlpack "no gcc or clang"; return; }
    echo "PASS eco/dlpack ($ran )"
}

# NAME_cuda_dl: device checks before the launcher (no GPU needed)
t_dlpack_cuda() {
    d=$E/dlpack_cuda
    rm -rf "$d" && mkdir -p "$d"
    if ! "$TKC" tests/run/vadd.tk --target=c,cuda -o "$d/vadd_cuda.h" 2>"$d/tkc.err"; then
        if grep -q "needs NVRTC" "$d/tkc.err"; then skip dlpack_cuda "no NVRTC"; return; fi
        fail dlpack_cuda "tkc failed:"; show "$d/tkc.err"; return
    fi
    if ! gcc -std=c11 -Wall -Wextra -Werror -fopenmp -I "$d" -I tests/eco tests/eco/dlpack_cuda.c \
        -o "$d/t" -lm -ldl >"$d/cc.log" 2>&1; then
        fail dlpack_cuda "does not build:"; show "$d/cc.log"; return
    fi
    "$d/t" >"$d/out" 2>&1 && pass dlpack_cuda || { fail dlpack_cuda "wrong results:"; show "$d/out"; }
}

t_dlpack_headers() {
    d=$E/dlpack_headers
    rm -rf "$d" && mkdir -p "$d"
    bad=""
    for f in tests/run/*.tk tests/header/*.tk; do
        n=$(basename "$f" .tk)
        case $f in tests/run/*) [ -f "tests/run/$n.c" ] || continue ;; esac
        # shellcheck disable=SC2046
        "$TKC" "$f" --target=c -o "$d/$n.h" $(sed -n '1s|^// *tkc-flags: *||p' "$f") 2>/dev/null || continue
        {
            printf '#include "dlpack_min.h"\n#define TKC_DLPACK 1\n#include "%s.h"\n' "$n"
            printf 'typedef void (*tkt_fp)(void);\ntkt_fp tkt_keep_%s[] = {\n' "$n"
            grep -o '^static TK_UNUSED tk_status [A-Za-z_][A-Za-z0-9_]*_dl(' "$d/$n.h" |
                sed 's/^static TK_UNUSED tk_status \(.*\)(/    (tkt_fp)\1,/'
            printf '0};\n'
        } >"$d/$n.c"
        # gcc -O1 for its flow warnings; clang's front end is enough for the rest
        for cc in "gcc -O1 -c -o $d/$n.o" "clang -fsyntax-only"; do
            command -v "${cc%% *}" >/dev/null 2>&1 || continue
            log=$d/$n.${cc%% *}.log
            # shellcheck disable=SC2086
            $cc -std=c11 -Wall -Wextra -Werror -fopenmp -I "$d" -I tests/eco "$d/$n.c" >"$log" 2>&1 ||
                bad="$bad $log"
        done
    done
    if [ -z "$bad" ]; then pass dlpack_headers; return; fi
    fail dlpack_headers "headers with -DTKC_DLPACK do not compile warning-free:"
    for l in $bad; do echo "    $l"; show "$l" 8; done
}

# ------------------------------------------------------------------ help, editors, bench

t_help() {
    h=$E/help.out
    mkdir -p "$E"
    "$TKC" --help >"$h" 2>&1 || { fail help "tkc --help failed"; return; }
    lines=$(wc -l <"$h")
    cols=$(awk '{ if (length > m) m = length } END { print m + 0 }' "$h")
    [ "$lines" -le 24 ] && [ "$cols" -le 100 ] || { fail help "--help is $lines lines x $cols columns (limit 24 x 100)"; return; }
    grep -q '^examples:' "$h" && [ "$(grep -c '^  tkc ' "$h")" -ge 2 ] || { fail help "--help shows no examples"; return; }
    pass help
}

t_editors() {
    for j in lang/vscode/package.json lang/vscode/tk.tmLanguage.json lang/vscode/language-configuration.json; do
        if command -v python3 >/dev/null 2>&1 && ! python3 -m json.tool "$j" >/dev/null 2>"$E/json.err"; then
            fail editors "$j is not valid JSON:"; show "$E/json.err"; return
        fi
    done
    command -v vim >/dev/null 2>&1 || { skip editors "no vim (the JSON files parse)"; return; }
    # line 3 of the sample: `kernel k<B: int = 4>(x: f32[N]) grid(1) { store(x[0], 1.5); } // c`
    mkdir -p "$E"
    printf 'import "x.tk";\n@autotune(B = [4])\nkernel k<B: int = 4>(x: f32[N]) grid(1) { store(x[0], 1.5); } // c\n' >"$E/syn.tk"
    rm -f "$E/syn.out"
    vim -Nu NONE -i NONE -es -c "e $E/syn.tk" -c 'source lang/tk.vim' \
        -c "call writefile(map([[1,1],[1,8],[2,1],[3,1],[3,8],[3,14],[3,26],[3,34],[3,44],[3,56],[3,64]], 'synIDattr(synID(v:val[0], v:val[1], 0), \"name\")'), '$E/syn.out')" \
        -c 'qa!' >"$E/vim.log" 2>&1 || { fail editors "vim reports errors loading lang/tk.vim:"; show "$E/vim.log"; return; }
    got=$(tr '\n' ' ' <"$E/syn.out" 2>/dev/null)
    want="tkKeyword tkString tkAttribute tkKeyword tkKernelName tkType tkType tkKeyword tkBuiltin tkFloat tkComment "
    [ "$got" = "$want" ] || { fail editors "lang/tk.vim colours the sample as" "$got" "want $want"; return; }
    pass editors
}

t_bench_report() {
    d=$E/bench_report
    rm -rf "$d"
    sh tests/bench/report.sh tests/eco/bench_sample.log "$d" >"$d.log" 2>&1 || { fail bench_report "report.sh failed:"; show "$d.log"; return; }
    [ "$(grep -v '^| workload' "$d/report.md" | grep -c '^| [a-z]')" -eq 4 ] && grep -q '| layernorm\[GB/s\] | 30.05 | 52.00 | 0.58 | >=0.7 | \*\*MISSED\*\* |' "$d/report.md" ||
        { fail bench_report "report.md lacks the sample's rows:"; show "$d/report.md" 30; return; }
    if grep -q 'no plot' "$d.log"; then echo "PASS eco/bench_report (table only: $(grep 'no plot' "$d.log" | sed 's/^report: //'))"; return; fi
    [ "$(od -An -tx1 -N4 "$d/report.png" | tr -d ' ')" = 89504e47 ] || { fail bench_report "report.png is not a PNG"; show "$d.log"; return; }
    pass bench_report
}

if [ "${1:-}" = --list ]; then echo "$NAMES"; exit 0; fi
[ -x "$TKC" ] || { echo "FAIL eco: no tkc at $TKC (run make)"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$E"
out=$E/all.$$.out
: >"$out"
for n in ${*:-$NAMES}; do
    case " $NAMES " in *" $n "*) "t_$n" | tee -a "$out" ;; *) echo "FAIL eco/$n: no such test" | tee -a "$out" ;; esac
done
np=$(grep -c '^PASS ' "$out"); nf=$(grep -c '^FAIL ' "$out")
echo "$np passed, $nf failed"
rm -f "$out"
[ "$nf" -eq 0 ]
