#!/bin/sh
# tests/robust/limits.sh — sources that push on tkc's limits (run by
# tests/robust/run.sh limits; environment: TKC T).  Each case is generated
# with awk, compiled under `timeout` and, except for sanitizer builds (whose
# shadow memory needs terabytes of address space), `ulimit -v`; tkc must exit
# as expected within the limits, errors naming the problem.
set -u
cd "$(dirname "$0")/../.." || exit 2
d=$T/limits
mkdir -p "$d"
MEM_KB=2000000            # 2 GB of address space
SECS=30
sanitized=false
grep -q fsanitize "$T/libtkc.flags" 2>/dev/null && sanitized=true

K='kernel k(x: f32[N], y: f32[N]) grid(1) {'
rep='function rep(s, n,   r) { r = ""; for (; n > 0; n = int(n / 2)) { if (n % 2) r = r s; s = s s } return r }'

# case NAME WANT_RC MESSAGE AWK_PROGRAM: the program prints the source.
case_() {
    name=$1; want=$2; msg=$3; prog=$4
    f=$d/$name.tk
    awk -v K="$K" "$rep BEGIN { $prog }" >"$f"
    (
        $sanitized || ulimit -v $MEM_KB
        exec timeout $SECS "$TKC" "$f" --target=c -o "$d/$name.h"
    ) >"$d/$name.out" 2>"$d/$name.err"
    rc=$?
    if [ $rc -ne "$want" ]; then
        case $rc in
        124) why="timed out (${SECS}s)" ;;
        13[0-9]) why="crashed or out of memory (exit $rc)" ;;
        *) why="exit $rc" ;;
        esac
        echo "FAIL limits/$name"; echo "    $why, expected exit $want"
        sed -n '1,5s/^/    /p' "$d/$name.err"
    elif [ -n "$msg" ] && ! grep -qi -- "$msg" "$d/$name.err"; then
        echo "FAIL limits/$name"; echo "    no error saying \"$msg\""
        sed -n '1,5s/^/    /p' "$d/$name.err"
    else
        echo "PASS limits/$name"
    fi
}


case_ deep_parens 1 "nested too deeply" \
    "print K \" let a = \" rep(\"(\", 100000) \"1\" rep(\")\", 100000) \"; }\""
case_ deep_blocks 1 "nested too deeply" \
    "print K rep(\"{\", 100000) rep(\"}\", 100000) \" }\""
case_ deep_unary 1 "too deeply nested" \
    "print K \" let a = \" rep(\"-\", 100000) \"1; }\""
case_ long_chain 1 "statement too long" \
    "print K \" let a = 1\" rep(\" + 1\", 200000) \"; }\""
case_ huge_int 1 "too large for i64" \
    "print K \" let a = \" rep(\"9\", 100000) \"; }\""
case_ huge_float 1 "out of range" "print K \" let a = 1e999; }\""
case_ long_float 1 "too long" "print K \" let a = 1.\" rep(\"0\", 100000) \"; }\""
case_ long_name 0 "" \
    "n = rep(\"a\", 1000000); print K \" let \" n \" = 1.0; store(y[0], \" n \"); }\""
case_ lines_100k 0 "" \
    "print K; for (i = 0; i < 100000; i++) printf \"    let a%d = %d;\\n\", i, i; print \"    store(y[0], a99999 as f32);\\n}\""
case_ tile_too_large 1 "too large" \
    "print K \" let t = zeros(f32, [65536, 65536]); store(y[0], sum(sum(t, axis = 0), axis = 0)); }\""
case_ static_for_long 1 "static_for would unroll" \
    "print K \" var s = 0.0; static_for i in range(10000000) { s += 1.0; } store(y[0], s); }\""
case_ static_for_nest 1 "unrolls the kernel to more than" \
    "print K \" var s = 0.0; \" rep(\"static_for i in range(100) { \", 5) \"s += 1.0; \" rep(\"}\", 5) \" store(y[0], s); }\""
case_ kernels_3000 0 "" \
    "for (i = 0; i < 3000; i++) printf \"kernel k%d(x: f32[N], y: f32[N]) grid(cdiv(N, 128)) { let o = program_id(0) * 128 + arange(128); store(y[o], load(x[o]) * 2.0, mask = o < N); }\\n\", i"
case_ fn_self 1 "cannot recurse" "print \"fn f(a) { return f(a); }\"; print K \" store(y[0], f(1.0)); }\""
case_ fn_chain 1 "nested more than" \
    "for (i = 0; i < 20000; i++) printf \"fn g%d(a) { return g%d(a) + 1.0; }\\n\", i, i + 1; print \"fn g20000(a) { return a; }\"; print K \" store(y[0], g0(1.0)); }\""
case_ errors_10k 1 "undefined" \
    "print K; for (i = 0; i < 10000; i++) printf \"    let a%d = nope%d;\\n\", i, i; print \"}\""
