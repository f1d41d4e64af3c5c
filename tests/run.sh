#!/bin/sh
# tests/run.sh — the one test runner (`make test` calls it).
#
#   sh tests/run.sh [GROUP | GROUP/NAME ...]     # default: every group
#   UPDATE=1 sh tests/run.sh emit                # regenerate tests/emit/*.expected
#   TKC=build/asan/tkc sh tests/run.sh           # test another tkc binary
#
# Groups, each a folder of tests/:
#   unit    tests/unit/*.c linked against the compiler's objects (lang/ pieces)
#   diag    tests/diag/*.tk: golden diagnostics.  Lines at the top of a file
#             // expect error: LINE:COL: substring
#             // expect note: LINE:COL: substring      (notes/warnings are checked
#             // expect warning: LINE:COL: substring    only where listed)
#           The reported errors must be exactly the expected ones (position and
#           substring, case-insensitive), each followed by its source line and a
#           caret; exit 1 when errors are expected, 0 otherwise.
#   emit    tests/emit/NAME.tk: `--emit=tir`, `--emit=c` and `--emit=pir` (the
#           GPU per-thread IR) compared (diff -u) with NAME.tir.expected /
#           NAME.c.expected / NAME.pir.expected (the C golden without the
#           prelude and helpers every header shares), and emitted twice to be
#           deterministic.  After a deliberate change: UPDATE=1, then read the diff.
#   run     tests/run/NAME.tk with a driver tests/run/NAME.c: the header is made
#           with `tkc NAME.tk --target=c -o build/tests/NAME.h`, the driver
#           compiled with -Werror -fopenmp and run; it exits 0 when all is well.
#   header  every run test's and tests/header/*.tk's header compiled alone with
#           gcc and clang -std=c11 -Wall -Wextra -Werror, with and without
#           -fopenmp (-O2, every entry point's address taken so its body is
#           compiled), and included with nothing used; plus the C programs in
#           tests/header/ (several translation units, several headers).
#   cli     the command line: usage errors exit 2, --help, --version, -o, -D,
#           --kernel, --emit, --target=nvptx (or its error when tkc was built
#           without LLVM), stdout output, no header left behind on errors.
#   robust  tkc on truncated copies of every test source: exit 0 or 1, never a
#           crash, and an error message whenever it exits 1; and
#           tests/robust/run.sh: launch/ (every kernel of stdlib/, tests/run/,
#           tests/header/ through a generated driver under ASan+UBSan: odd
#           shapes with guard bytes, bad arguments), determ/ (same bytes
#           twice; the banner's version and options), limits/ (resource limits).
#   gpu     tests/gpu/ci.sh (the CUDA target checked without a GPU), and the GPU
#           run tests only where a GPU exists: "skipped: no GPU" otherwise.
#   tune    tests/tune/run.sh: --max-autotune on the CPU end to end (cache,
#           tuning table, wrong variants excluded, shape dispatch).
#   eco     tests/eco/run.sh: make install, a CMake and a Makefile project built
#           against it, tkc -MD, DLPack entry points, --help, editor files, the
#           bench report (cmake missing: a SKIP line).
#
# A first line `// tkc-flags: ...` in a .tk adds flags to tkc for that file.
# A `// tkc-archs: sm_90a` line among the first three limits tests/gpu/ci.sh's PTX check to those archs.
# Prints `PASS name` / `FAIL name` (with indented reasons) / `SKIP name: why`
# per test and ends with `N passed, N failed`; exits 1 if anything failed.
# Tests run in parallel (JOBS, default: the number of CPUs); what they make
# goes to build/tests/ (build/asan/tests/ for TKC=build/asan/tkc).
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$ROOT/$TKC ;; esac
BDIR=$(dirname "$TKC")                  # build/ or build/asan/
T=$BDIR/tests                           # everything the tests make
TEST_CC=${TEST_CC:-gcc}
RUN_CFLAGS="-std=c11 -O2 -Wall -Wextra -Werror -ffp-contract=fast -fopenmp"
TO=""
command -v timeout >/dev/null 2>&1 && TO="timeout"
export ROOT TKC BDIR T TEST_CC RUN_CFLAGS TO

# Run with a time limit when `timeout` exists.
limit() { secs=$1; shift; if [ -n "$TO" ]; then timeout "$secs" "$@"; else "$@"; fi; }

# The flags on a `// tkc-flags: ...` first line.
flags_of() { sed -n '1s|^// *tkc-flags: *||p' "$1"; }

# `what` of a failed command status: a crash or time-out reads differently.
why_rc() {
    case $1 in
    124) echo "timed out" ;;
    13[0-9]|1[4-9][0-9]|2[0-9][0-9]) echo "crashed (exit $1)" ;;
    *) echo "exit $1" ;;
    esac
}

# Indent a file's first lines under a FAIL line.
show() { sed -n "1,${2:-30}s/^/    /p" "$1"; }

# ------------------------------------------------------------------ diag

# awk over the .tk (expectations, source lines) then tkc's stderr.
DIAG_AWK='
function lc(s) { return tolower(s) }
FNR == NR {
    src[FNR] = $0
    if ($0 !~ /^\/\/ *expect/) next
    if (match($0, /^\/\/ expect (error|warning|note): [0-9]+:[0-9]+: /)) {
        hdr = substr($0, 1, RLENGTH); rest = substr($0, RLENGTH + 1)
        sub(/^\/\/ expect /, "", hdr)
        k = hdr; sub(/:.*/, "", k)
        pos = hdr; sub(/^[a-z]+: /, "", pos); sub(/: $/, "", pos)
        ne++; ek[ne] = k; ep[ne] = pos; es[ne] = rest
        next
    }
    printf "    malformed expectation on line %d: %s\n", FNR, $0; bad = 1
    next
}
{
    line[++nl] = $0
    if (match($0, /^[^ :]+:[0-9]+:[0-9]+: (error|warning|note): /)) {
        h = substr($0, 1, RLENGTH); msg = substr($0, RLENGTH + 1)
        n = split(h, f, ":")
        file = f[1]; p = f[2] ":" f[3]; k = f[4]; sub(/^ /, "", k)
    } else if (match($0, /^tkc: (error|warning|note): /)) {
        h = substr($0, 1, RLENGTH); msg = substr($0, RLENGTH + 1)
        file = ""; p = "0:0"; k = h; sub(/^tkc: /, "", k); sub(/: $/, "", k)
    } else next
    na++; ak[na] = k; ap[na] = p; am[na] = msg; af[na] = file; at[na] = nl
}
END {
    for (i = 1; i <= ne; i++) {
        hit = 0
        for (j = 1; j <= na; j++)
            if (!used[j] && ak[j] == ek[i] && ap[j] == ep[i] && af[j] == path && index(lc(am[j]), lc(es[i]))) {
                used[j] = 1; hit = 1; break
            }
        if (!hit) {
            printf "    missing %s: %s: %s\n", ek[i], ep[i], es[i]; bad = 1
            for (j = 1; j <= na; j++)
                if (ak[j] == ek[i] && ap[j] == ep[i])
                    printf "      (at that position: %s: %s)\n", ak[j], am[j]
        }
    }
    for (j = 1; j <= na; j++) {
        if (ak[j] == "error" && !used[j]) {
            printf "    unexpected error: %s: %s\n", ap[j], am[j]; bad = 1
        }
        # A located diagnostic in this file shows its source line and a caret.
        if (af[j] == path) {
            split(ap[j], lcn, ":"); L = lcn[1] + 0; C = lcn[2] + 0
            want = "  " src[L]
            if (line[at[j] + 1] != want) {
                printf "    %s at %s: source line not shown (got \"%s\")\n", ak[j], ap[j], line[at[j] + 1]; bad = 1
            } else {
                pre = substr(src[L], 1, C - 1); gsub(/[^\t]/, " ", pre)
                if (index(line[at[j] + 2], "  " pre "^") != 1) {
                    printf "    %s at %s: caret not under column %d (got \"%s\")\n", ak[j], ap[j], C, line[at[j] + 2]; bad = 1
                }
            }
        }
    }
    exit bad
}'

test_diag() {
    name=$1; f=tests/diag/$name.tk; err=$T/diag/$name.err
    mkdir -p "$T/diag"
    # shellcheck disable=SC2046
    limit 20 "$TKC" "$f" --target=c -o /dev/null $(flags_of "$f") >/dev/null 2>"$err"
    rc=$?
    want=0
    grep -q '^// expect error: ' "$f" && want=1
    if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
        echo "FAIL diag/$name"; echo "    tkc $(why_rc $rc)"; show "$err"; return
    fi
    out=$(awk -F'\t' -v path="$f" "$DIAG_AWK" "$f" "$err")
    ok=$?
    if [ $rc -ne $want ]; then
        out="    exit $rc, expected $want
$out"
        ok=1
    fi
    if [ $ok -eq 0 ]; then
        echo "PASS diag/$name"
    else
        echo "FAIL diag/$name"; echo "$out"; echo "    --- tkc said:"; show "$err" 20
    fi
}

# ------------------------------------------------------------------ emit

test_emit() {
    name=$1; f=tests/emit/$name.tk
    mkdir -p "$T/emit"
    for kind in tir c pir; do
        out=$T/emit/$name.$kind; exp=tests/emit/$name.$kind.expected
        # shellcheck disable=SC2046
        limit 20 "$TKC" "$f" --target=c --emit=$kind $(flags_of "$f") >"$out" 2>"$out.err"
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "FAIL emit/$name.$kind"; echo "    tkc $(why_rc $rc)"; show "$out.err"; continue
        fi
        # shellcheck disable=SC2046
        limit 20 "$TKC" "$f" --target=c --emit=$kind $(flags_of "$f") >"$out.again" 2>/dev/null
        if ! cmp -s "$out" "$out.again"; then
            echo "FAIL emit/$name.$kind"; echo "    output differs between two runs"; continue
        fi
        # The C golden holds the kernel's own code: the runtime prelude and
        # helpers every header shares (up to their #endif) are left out.
        if [ $kind = c ] && grep -q '^#endif /\* TKC_C_HELPERS \*/' "$out"; then
            sed '1,/^#endif \/\* TKC_C_HELPERS \*\//d' "$out" >"$out.kernel" && mv "$out.kernel" "$out"
        fi
        if [ "${UPDATE:-}" = 1 ]; then
            cp "$out" "$exp"; echo "PASS emit/$name.$kind (updated $exp)"; continue
        fi
        if [ ! -f "$exp" ]; then
            echo "FAIL emit/$name.$kind"; echo "    no $exp: run UPDATE=1 sh tests/run.sh emit, then read it"; continue
        fi
        if diff -u "$exp" "$out" >"$out.diff"; then
            echo "PASS emit/$name.$kind"
        else
            echo "FAIL emit/$name.$kind"; show "$out.diff" 40
        fi
    done
}

# ------------------------------------------------------------------ unit

# The compiler's objects less the driver's main, as an archive, so a unit
# test pulls in only what it uses.
make_unit_lib() {
    lib=$T/libtkc.a
    rm -f "$lib"
    objs=$(find "$BDIR/obj/" -name '*.o' 2>/dev/null | sort)
    [ -n "$objs" ] || return 1
    keep=""
    for o in $objs; do
        # objects of removed sources linger in an old build dir: leave them out
        c=${o#"$BDIR/obj/"}; c=${c%.o}.c
        case $c in lexer.c|parser.tab.c) ;; *) [ -f "$c" ] || continue ;; esac
        nm -g --defined-only "$o" 2>/dev/null | grep -q ' T main$' || keep="$keep $o"
    done
    mkdir -p "$T"
    # shellcheck disable=SC2086
    ar rcs "$lib" $keep 2>/dev/null || return 1
    # Sanitizer builds need the sanitizer runtimes at link time.
    # shellcheck disable=SC2086
    if nm $keep 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
        echo "-fsanitize=address,undefined" >"$T/libtkc.flags"
    else
        : >"$T/libtkc.flags"
    fi
    # LLVM's libraries when tkc was built with it (the Makefile writes them down)
    cat "$BDIR/llvm.libs" >>"$T/libtkc.flags" 2>/dev/null
}

test_unit() {
    name=$1; src=tests/unit/$name.c; exe=$T/unit/$name
    mkdir -p "$T/unit"
    if [ ! -f "$T/libtkc.a" ]; then
        echo "SKIP unit/$name: no compiler objects in $BDIR/obj (run make)"; return
    fi
    # shellcheck disable=SC2046
    if ! $TEST_CC -std=c11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -I. $(cat "$BDIR/llvm.cflags" 2>/dev/null) -o "$exe" "$src" \
            "$T/libtkc.a" $(cat "$T/libtkc.flags") -lm -ldl >"$exe.log" 2>&1; then
        echo "FAIL unit/$name"; echo "    does not compile/link"; show "$exe.log"; return
    fi
    limit 60 "$exe" >"$exe.out" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then echo "PASS unit/$name"; else
        echo "FAIL unit/$name"; echo "    $(why_rc $rc)"; show "$exe.out"; fi
}

# ------------------------------------------------------------------ run

test_run() {
    name=$1; f=tests/run/$name.tk; h=$T/$name.h; exe=$T/run/$name
    mkdir -p "$T/run"
    # shellcheck disable=SC2046
    limit 20 "$TKC" "$f" --target=c -o "$h" $(flags_of "$f") >"$exe.tkc" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL run/$name"; echo "    tkc $(why_rc $rc)"; show "$exe.tkc"; return
    fi
    # Under `make asan` the drivers, and so the generated code, run sanitized too.
    san=""
    grep -q fsanitize "$T/libtkc.flags" 2>/dev/null && san="-fsanitize=address,undefined -fno-sanitize-recover=all"
    # shellcheck disable=SC2086
    if ! limit 120 $TEST_CC $RUN_CFLAGS $san -I "$T" -o "$exe" "tests/run/$name.c" -lm >"$exe.cc" 2>&1; then
        echo "FAIL run/$name"; echo "    driver does not compile"; show "$exe.cc"; return
    fi
    limit 60 "$exe" >"$exe.out" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then echo "PASS run/$name"; else
        echo "FAIL run/$name"; echo "    $(why_rc $rc)"; show "$exe.out" 40; fi
}

# ------------------------------------------------------------------ header

HDR_WARN="-std=c11 -Wall -Wextra -Werror"

# One header, alone in a translation unit, 4 ways.
test_header() {
    f=$1; name=$(basename "$f" .tk); d=$T/hdr; h=$d/$name.h
    mkdir -p "$d"
    # shellcheck disable=SC2046
    limit 20 "$TKC" "$f" --target=c -o "$h" $(flags_of "$f") >"$h.tkc" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL header/$name"; echo "    tkc $(why_rc $rc)"; show "$h.tkc"; return
    fi
    # Take every entry point's address so the compiler compiles (and warns
    # about) the bodies, not only the declarations.
    {
        printf '#include "%s.h"\ntypedef void (*tkt_fp)(void);\ntkt_fp tkt_keep_%s[] = {\n' "$name" "$name"
        sed -n 's/^ *kernel  *\([A-Za-z_][A-Za-z0-9_]*\).*/    (tkt_fp)\1,/p' "$f"
        printf '0};\n'
    } >"$d/$name.tu.c"
    fails=""; logs=""
    for cc in gcc clang; do
        command -v $cc >/dev/null 2>&1 || { echo "SKIP header/$name.$cc: no $cc"; continue; }
        for omp in "" -fopenmp; do
            log=$d/$name.$cc$omp.log
            # shellcheck disable=SC2086
            if ! $cc $HDR_WARN $omp -O2 -I "$d" -c -o "$d/$name.$cc$omp.o" "$d/$name.tu.c" >"$log" 2>&1; then
                fails="$fails, $cc${omp:+ $omp}"; logs="$logs $log"
            fi
        done
        # Included and not used at all: no unused-function warnings either.
        printf '#include "%s.h"\n' "$name" >"$d/$name.plain.c"
        log=$d/$name.$cc.plain.log
        # shellcheck disable=SC2086
        if ! $cc $HDR_WARN -O0 -c -o "$d/$name.$cc.plain.o" -I "$d" "$d/$name.plain.c" >"$log" 2>&1; then
            fails="$fails, $cc (included, nothing used)"; logs="$logs $log"
        fi
    done
    if [ -z "$fails" ]; then echo "PASS header/$name"; return; fi
    echo "FAIL header/$name"; echo "    warnings or errors with${fails#,}"
    for log in $logs; do show "$log" 12; done
}

# A C program of several translation units in tests/header/: PROG.c (with
# main) and any PROG_*.c, headers from every tests/header/*.tk, built with gcc and clang.
test_header_prog() {
    prog=$1; d=$T/hdr
    mkdir -p "$d"
    for f in tests/header/*.tk; do
        n=$(basename "$f" .tk)
        # shellcheck disable=SC2046
        if ! limit 20 "$TKC" "$f" --target=c -o "$d/$prog-$n.h.tmp" $(flags_of "$f") >"$d/$prog-$n.log" 2>&1; then
            echo "FAIL header/$prog"; echo "    tkc failed on $f"; show "$d/$prog-$n.log"; return
        fi
        mkdir -p "$d/$prog.inc"; mv "$d/$prog-$n.h.tmp" "$d/$prog.inc/$n.h"
    done
    srcs="tests/header/$prog.c"
    for s in tests/header/"$prog"_*.c; do [ -f "$s" ] && srcs="$srcs $s"; done
    for cc in gcc clang; do
        command -v $cc >/dev/null 2>&1 || { echo "SKIP header/$prog.$cc: no $cc"; continue; }
        exe=$d/$prog.$cc
        # shellcheck disable=SC2086
        if ! $cc $HDR_WARN -O2 -fopenmp -I "$d/$prog.inc" -o "$exe" $srcs -lm >"$exe.log" 2>&1; then
            echo "FAIL header/$prog.$cc"; echo "    does not build"; show "$exe.log"; continue
        fi
        limit 30 "$exe" >"$exe.out" 2>&1
        rc=$?
        if [ $rc -eq 0 ]; then echo "PASS header/$prog.$cc"; else
            echo "FAIL header/$prog.$cc"; echo "    $(why_rc $rc)"; show "$exe.out"; fi
    done
}

# ------------------------------------------------------------------ cli

# cli_case NAME WANT_RC... -- ARGS...: tkc's exit status is one of WANT_RC;
# stdout and stderr land in $c.out / $c.err for further checks.
cli_case() {
    cname=$1; shift
    wants=""
    while [ "$1" != -- ]; do wants="$wants $1"; shift; done
    shift
    c=$T/cli/$cname
    limit 20 "$TKC" "$@" >"$c.out" 2>"$c.err"
    crc=$?
    for w in $wants; do [ $crc -eq "$w" ] && return 0; done
    echo "FAIL cli/$cname"; echo "    tkc $* : $(why_rc $crc), expected exit$wants"; show "$c.err" 5
    return 1
}
cli_pass() { echo "PASS cli/$1"; }
cli_fail() { echo "FAIL cli/$1"; echo "    $2"; show "$T/cli/$1.err" 5; }
# The file's text contains a string (fixed, case-insensitive).
cli_has() { grep -qiF -- "$2" "$1"; }

test_cli() {
    d=$T/cli; mkdir -p "$d"
    k=tests/run/vadd.tk
    cli_case help 0 -- --help && { cli_has "$d/help.out" usage && cli_pass help || cli_fail help "--help does not print a usage"; }
    cli_case version 0 -- --version && { cli_has "$d/version.out" 0. && cli_pass version || cli_fail version "--version prints no version"; }
    cli_case no_args 2 -- && cli_pass no_args
    cli_case bad_option 2 -- --bogus "$k" && cli_pass bad_option
    cli_case bad_emit 2 -- "$k" --emit=bogus && cli_pass bad_emit
    cli_case bad_target 2 -- "$k" --target=nope && cli_pass bad_target
    cli_case D_no_value 2 -- "$k" -D && cli_pass D_no_value
    cli_case D_no_equals 2 -- "$k" -D N && cli_pass D_no_equals
    cli_case D_unknown 1 2 -- "$k" --target=c -o /dev/null -D NOSUCH=3 &&
        { cli_has "$d/D_unknown.err" NOSUCH && cli_pass D_unknown || cli_fail D_unknown "message does not name NOSUCH"; }
    cli_case D_not_int 1 2 -- "$k" --target=c -o /dev/null -D BLOCK=abc &&
        { cli_has "$d/D_not_int.err" BLOCK && cli_pass D_not_int || cli_fail D_not_int "message does not name BLOCK"; }
    cli_case missing_file 1 -- "$d/no_such_file.tk" --target=c &&
        { cli_has "$d/missing_file.err" "no_such_file.tk" && cli_has "$d/missing_file.err" "error:" &&
          cli_pass missing_file || cli_fail missing_file "no 'error:' naming the file"; }
    cli_case unknown_kernel 1 2 -- "$k" --target=c --kernel=nope &&
        { cli_has "$d/unknown_kernel.err" nope && cli_pass unknown_kernel || cli_fail unknown_kernel "message does not name the kernel"; }
    cli_case select_kernel 0 -- "$k" --target=c --kernel=axpy &&
        { grep -q 'axpy *(' "$d/select_kernel.out" && ! grep -q 'vadd *(' "$d/select_kernel.out" &&
          cli_pass select_kernel || cli_fail select_kernel "--kernel=axpy: want axpy and not vadd in the header"; }
    # ARCH in a const default: --arch's compute capability (90 without --arch)
    printf 'kernel k<B: int = where(ARCH >= 90, 128, 64)>(x: f32[N]) grid(cdiv(N, B)) {\n    store(x[program_id(0) * B + arange(B)], 1.0);\n}\n' >"$d/arch.tk"
    cli_case arch_default 0 -- "$d/arch.tk" --target=c --emit=tir && cli_case arch_80 0 -- "$d/arch.tk" --target=c --emit=tir --arch=sm_80 &&
        { cli_has "$d/arch_default.out" "consts(B=128)" && cli_has "$d/arch_80.out" "consts(B=64)" && cli_pass arch_const ||
          cli_fail arch_const "want B=128 by default and B=64 with --arch=sm_80"; }
    # Without -o the header goes to stdout, the same bytes as with -o; twice the same.
    if cli_case stdout 0 -- "$k" --target=c && cli_case to_file 0 -- "$k" --target=c -o "$d/vadd.h" &&
       cli_case to_file2 0 -- "$k" --target=c -o "$d/vadd2.h"; then
        if ! [ -s "$d/stdout.out" ]; then cli_fail stdout "nothing on stdout"
        elif ! cmp -s "$d/stdout.out" "$d/vadd.h"; then cli_fail stdout "stdout differs from -o output"
        elif ! cmp -s "$d/vadd.h" "$d/vadd2.h"; then cli_fail stdout "two runs differ"
        else cli_pass stdout; fi
    fi
    # --time: the time of each stage on stderr, and the header of a run without it
    cli_case time 0 -- "$k" --target=c --time -o "$d/vadd_time.h" &&
        { cli_has "$d/time.err" "front end" && cli_has "$d/time.err" "total" && cmp -s "$d/vadd.h" "$d/vadd_time.h" &&
          cli_pass time || cli_fail time "--time: want the stages on stderr and the same header as without it"; }
    cli_case bad_output 1 -- "$k" --target=c -o "$d/no/such/dir/x.h" &&
        { cli_has "$d/bad_output.err" "error:" && cli_pass bad_output || cli_fail bad_output "no error message"; }
    # A file with errors leaves no header behind.
    rm -f "$d/broken.h"
    printf 'kernel k(x: f32[N]) grid(1) { store(x[0], nope); }\n' >"$d/broken.tk"
    cli_case no_output_on_error 1 -- "$d/broken.tk" --target=c -o "$d/broken.h" &&
        { [ ! -e "$d/broken.h" ] && cli_pass no_output_on_error || cli_fail no_output_on_error "broken.h written although compilation failed"; }
    # --target=nvptx: cuda's header with LLVM's PTX, or (built without LLVM) a clear error.
    cli_case bad_codegen 2 -- "$k" --target=cuda --codegen=bogus && cli_pass bad_codegen
    cli_case cuda_and_nvptx 2 -- "$k" --target=cuda,nvptx && cli_pass cuda_and_nvptx
    cli_case nvptx_nvrtc 2 -- "$k" --target=nvptx --codegen=nvrtc && cli_pass nvptx_nvrtc
    if cli_case nvptx 0 1 -- "$k" --target=nvptx; then
        if [ $crc = 1 ]; then
            cli_has "$d/nvptx.err" "tkc was built without LLVM" && cli_pass "nvptx (built without LLVM)" ||
                cli_fail nvptx "exit 1 without 'tkc was built without LLVM'"
        else
            grep -q 'vadd_cuda *(' "$d/nvptx.out" && cli_pass nvptx || cli_fail nvptx "no vadd_cuda in the header"
            # a module's functions (here 3 kernels, each with a NAME__nomap)
            # compiled by LLVM in parallel threads: the one module's PTX, byte
            # for byte (TKC_PAR_COMPILE=0 compiles the one module)
            w=tests/run/mma_ws.tk
            TKC_PAR_COMPILE=0 limit 60 "$TKC" "$w" --target=nvptx --emit=ptx >"$d/par0.ptx" 2>"$d/par0.err" &&
            cli_case nvptx_parallel 0 -- "$w" --target=nvptx --emit=ptx --time &&
                { [ "$(grep -c '^.visible .entry' "$d/nvptx_parallel.out")" -gt 2 ] &&
                  cmp -s "$d/par0.ptx" "$d/nvptx_parallel.out" &&
                  { [ "$(nproc 2>/dev/null || echo 2)" -lt 2 ] || cli_has "$d/nvptx_parallel.err" "threads"; } &&
                  cli_pass nvptx_parallel || cli_fail nvptx_parallel "the PTX differs from TKC_PAR_COMPILE=0's (or was not compiled in threads)"; }
            # @launch(llvm = true): that kernel's PTX from LLVM, the other's
            # from NVRTC (two modules); --codegen=nvrtc: both from NVRTC
            printf '@launch(llvm = true)\nkernel a(x: f32[N]) grid(cdiv(N, 64)) {\n    let i = program_id(0) * 64 + arange(64);\n    store(x[i], 1.0);\n}\n' >"$d/two.tk"
            printf 'kernel b(x: f32[N]) grid(cdiv(N, 64)) {\n    let i = program_id(0) * 64 + arange(64);\n    store(x[i], 2.0);\n}\n' >>"$d/two.tk"
            if cli_case launch_llvm 0 1 -- "$d/two.tk" --target=cuda; then
                if [ $crc = 1 ]; then
                    cli_has "$d/launch_llvm.err" "needs NVRTC" && echo "SKIP cli/launch_llvm: skipped: no NVRTC" ||
                        cli_fail launch_llvm "exit 1 without 'needs NVRTC'"
                else
                    cli_case launch_nvrtc 0 -- "$d/two.tk" --target=cuda --codegen=nvrtc &&
                        { cli_has "$d/launch_llvm.out" "PTX from LLVM" && cli_has "$d/launch_llvm.out" "for 1 of 2 kernels" &&
                          cli_has "$d/launch_llvm.out" "_llvm = {" && ! cli_has "$d/launch_nvrtc.out" "from LLVM" &&
                          cli_pass launch_llvm || cli_fail launch_llvm "want a's module from LLVM beside b's, and none with --codegen=nvrtc"; }
                fi
            fi
        fi
    fi
    # a dot off the tensor cores (f32) reads its loaded operands through
    # shared memory, trans(b)'s rows padded (lower/gpu.c plan_dot_reads);
    # where those copies would not fit --arch's shared memory the kernel
    # still compiles, reading them from global memory again
    printf 'kernel dd(a: f32[M, K], b: f32[N, K], c: f32[M, N]) grid(cdiv(M, 64), cdiv(N, 64)) {\n    let rm = program_id(0) * 64 + arange(64);\n    let rn = program_id(1) * 64 + arange(64);\n    let rk = arange(64);\n    store(c[rm, rn], dot(load(a[rm, rk]), trans(load(b[rn, rk]))));\n}\n' >"$d/dotsm.tk"
    cli_case dot_shared 0 -- "$d/dotsm.tk" --target=cuda --emit=cuda &&
        { cli_has "$d/dot_shared.out" "* 65) +" && cli_pass dot_shared || cli_fail dot_shared "no padded shared-memory read of trans(b)"; }
    sed 's/64/256/g' "$d/dotsm.tk" >"$d/dotbig.tk"
    cli_case dot_shared_big 0 -- "$d/dotbig.tk" --target=cuda --emit=cuda &&
        { ! cli_has "$d/dot_shared_big.out" "* 257) +" && cli_pass dot_shared_big || cli_fail dot_shared_big "1 MB of operands in shared memory"; }
    # a kernel of two paths chosen by its arguments is also compiled once
    # per path (lower/version.c); TKC_VERSIONS=0 compiles it whole only
    cli_case versions 0 -- tests/run/paths.tk --target=cuda --emit=cuda &&
        { cli_has "$d/versions.out" "paths__v2(" && cli_pass versions || cli_fail versions "no version paths__v2"; }
    TKC_VERSIONS=0; export TKC_VERSIONS
    cli_case versions_off 0 -- tests/run/paths.tk --target=cuda --emit=cuda &&
        { ! cli_has "$d/versions_off.out" "paths__v1(" && cli_pass versions_off || cli_fail versions_off "TKC_VERSIONS=0 still made versions"; }
    unset TKC_VERSIONS
    for e in tokens ast tir c pir; do
        cli_case "emit_$e" 0 -- "$k" --target=c --emit=$e &&
            { [ -s "$d/emit_$e.out" ] && cli_pass "emit_$e" || cli_fail "emit_$e" "--emit=$e printed nothing"; }
    done
}

# ------------------------------------------------------------------ robust

# tkc on truncated copies of a source: never a crash, never a silent failure.
test_robust() {
    f=$1; name=$(echo "$f" | sed 's|^tests/||; s|\.tk$||; s|/|.|g'); d=$T/robust
    mkdir -p "$d"
    size=$(wc -c <"$f")
    bad=""
    for i in 1 2 3 4 5 6 7 8 9 10 11; do
        cut=$((size * i / 12 + i))
        [ $cut -lt "$size" ] || continue
        c=$d/$name.$i.tk
        head -c $cut "$f" >"$c"
        limit 20 "$TKC" "$c" --target=c -I "$(dirname "$f")" -o /dev/null >/dev/null 2>"$c.err"
        rc=$?
        if [ $rc -gt 1 ]; then
            bad="$bad
    truncated at byte $cut: tkc $(why_rc $rc)"
        elif [ $rc -eq 1 ] && ! grep -q 'error: ' "$c.err"; then
            bad="$bad
    truncated at byte $cut: exit 1 without an error message"
        fi
    done
    if [ -z "$bad" ]; then echo "PASS robust/$name"; else echo "FAIL robust/$name$bad"; fi
}

# ------------------------------------------------------------------ driver

# The CUDA target without a GPU (PTX through ptxas, headers, the CPU stand-in
# driver), then the GPU run tests when this machine has a GPU.
test_gpu() {
    sh tests/gpu/ci.sh | grep -v ' passed, .* failed$'
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then
        sh tests/gpu/run.sh | grep -v ' passed, .* failed$'
    else
        echo "SKIP gpu/run: skipped: no GPU (make test-gpu runs these on a GPU machine)"
    fi
}

# One job: `run.sh --one KIND ARG`, output captured by the parent.
if [ "${1:-}" = --one ]; then
    case $2 in
    diag) test_diag "$3" ;;
    emit) test_emit "$3" ;;
    unit) test_unit "$3" ;;
    run) test_run "$3" ;;
    header) test_header "$3" ;;
    headerprog) test_header_prog "$3" ;;
    robust) test_robust "$3" ;;
    cli) test_cli ;;
    tune) sh tests/tune/run.sh | grep -v ' passed, .* failed$' ;;
    eco) sh tests/eco/run.sh "$3" | grep -v ' passed, .* failed$' ;;
    launch|determ|limits) sh tests/robust/run.sh "$2" "$3" ;;
    gpu) test_gpu ;;
    esac
    exit 0
fi

# The jobs, in report order: "KIND ARG" a line.
list_jobs() {
    echo "gpu all"
    echo "tune all"
    echo "cli all"
    for n in $(sh tests/eco/run.sh --list); do echo "eco $n"; done
    for f in tests/unit/*.c; do [ -f "$f" ] && echo "unit $(basename "$f" .c)"; done
    for f in tests/diag/*.tk; do [ -f "$f" ] && echo "diag $(basename "$f" .tk)"; done
    for f in tests/emit/*.tk; do [ -f "$f" ] && echo "emit $(basename "$f" .tk)"; done
    for f in tests/run/*.tk; do
        n=$(basename "$f" .tk)
        [ -f "tests/run/$n.c" ] && echo "run $n"
    done
    for f in tests/run/*.tk tests/header/*.tk; do
        n=$(basename "$f" .tk)
        case $f in tests/run/*) [ -f "tests/run/$n.c" ] || continue ;; esac
        [ -f "$f" ] && echo "header $f"
    done
    for f in tests/header/*.c; do
        [ -f "$f" ] && grep -q '^int main' "$f" && echo "headerprog $(basename "$f" .c)"
    done
    for f in tests/diag/*.tk tests/run/*.tk; do [ -f "$f" ] && echo "robust $f"; done
    sh tests/robust/run.sh --list
}

# Keep the jobs the command line selects: a group, or group/name.
select_jobs() {
    if [ $# -eq 0 ]; then cat; return; fi
    while read -r kind arg; do
        n=$(basename "$arg" .tk)
        g=$kind
        case $kind in headerprog) g=header ;; launch | determ | limits) g=robust ;; esac
        for sel in "$@"; do
            case $sel in
            "$g" | "$g/$n" | "$g/$n".*) echo "$kind $arg"; break ;;
            esac
        done
    done
}

if [ ! -x "$TKC" ]; then
    echo "tests/run.sh: no tkc at $TKC (run make)"; echo "0 passed, 1 failed"; exit 1
fi
mkdir -p "$T/res"
rm -f "$T"/res/*.log
make_unit_lib || true
sh tests/robust/run.sh --setup

JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
jobs=$(list_jobs | select_jobs "$@")
i=0
echo "$jobs" | while read -r kind arg; do
    [ -n "$kind" ] || continue
    i=$((i + 1))
    printf '%s %s %05d\n' "$kind" "$arg" $i
done | xargs -P "$JOBS" -L 1 sh -c \
    'sh "$0" --one "$1" "$2" >"$T/res/$3.log" 2>&1' tests/run.sh

cat "$T"/res/*.log 2>/dev/null
npass=$(cat "$T"/res/*.log 2>/dev/null | grep -c '^PASS ')
nfail=$(cat "$T"/res/*.log 2>/dev/null | grep -c '^FAIL ')
echo "$npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
