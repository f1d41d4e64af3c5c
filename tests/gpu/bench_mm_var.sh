#!/bin/sh
# tests/gpu/bench_mm_var.sh — matmul_bf16 (stdlib/matmul.tk, sm_90a) in
# variants (of its K loop, its epilogue, ...) next to torch.matmul (cuBLAS), for picking the
# default: each variant is built as a header, a shared library for
# tests/gpu/bench_mm_pair.py (all variants and cuBLAS timed in turns in one
# process, the ratio to cuBLAS per round) and a bench_mm.c binary; ptxas's
# resource report, the SASS counts and the cubins (ptxas of the PTX each
# header carries, $OUT/cubins.tar) for reading the K loops.
#   VARIANTS   lines LABEL:ENV:FLAGS (ENV: VAR=VAL,... or -; TKC=PATH in it: another tkc
#              binary, e.g. an older build); default: $ALL
#   MM_DTYPE=f16  matmul_f16 on f16 data instead (bench_mm.c -DBENCH_F16,
#              bench_mm_lib.c -DTKB_F16, bench_mm_pair.py PAIR_DTYPE=f16)
#   PRE=DIR    headers built beforehand as DIR/LABEL.h (tkc with ptxas puts
#              the cubin in them: no JIT of the PTX on the device), their
#              cubins DIR/LABEL.cubin for the SASS counts; no ptxas report
#   SAVE=DIR   only build: each variant's header and cubin into DIR as PRE
#              takes them (where tkc and ptxas are: no GPU needed), then stop
#   PAIR_ROUNDS  bench_mm_pair.py's rounds; SIZES its sizes (N for N x N x N, or MxNxK)
#   REF=1      cuBLAS alone after the pairs, the way bench_mm.py times it
#              (a check of the pair column)
#   ODD="LABEL..."  those variants also at ODD_SHAPES (default 4095^3: the
#              NAME__nomap version), one bench_mm.c process each
#   ROUNDS (first argument) > 0: also ROUNDS rounds of the bench_mm.c
#              binaries at 4096^3 and 8192^3 (one process per variant and
#              shape: their spread is the run-to-run drift), cuBLAS after each;
#              SEP="LABEL..." only those variants in the rounds
#   GPU_DIR    the build folder's name next to tkc (gpu-s6)
# tests/gpu/bench_mm_s6.sh, bench_mm_s7.sh and bench_mm_s9.sh (with
# bench_mm_s9_pre.sh) are those sessions' variant lists over this script.
#
#   sh tests/gpu/bench_mm_var.sh [ROUNDS]
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
B=$(dirname "$TKC")/${GPU_DIR:-gpu-s6}
PRE=${PRE:-}
CC=${CC:-gcc}
CUDA=${CUDA_HOME:-/usr/local/cuda}
OUTD=${OUT:-$B/out}
ROUNDS=${1:-0}
SAVE=${SAVE:-}
KERNEL=matmul_bf16 BENCH_DEF="" LIB_DEF=""
if [ "${MM_DTYPE:-bf16}" = f16 ]; then
    KERNEL=matmul_f16 BENCH_DEF=-DBENCH_F16 LIB_DEF=-DTKB_F16
    export PAIR_DTYPE=f16
fi
ALL='def:-:
one:TKC_SPLIT=0:
lb:TKC_WG_LB=1:
g16:-:-D GM=16
lbg16:TKC_WG_LB=1:-D GM=16
ws:-:-D specialize=1 -D persistent=0
persist:-:-D specialize=1 -D persistent=1
pers0:-:-D specialize=0 -D persistent=1'
VARIANTS=${VARIANTS:-$ALL}
mkdir -p "$B" "$OUTD" ${SAVE:+"$SAVE"}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
labels=""
pairs=""
echo "$VARIANTS" >"$B/list"
while IFS=: read -r label envs flags; do
    [ -n "$label" ] || continue
    d=$B/$label
    mkdir -p "$d"
    ev=$( [ "$envs" = - ] || [ -z "$envs" ] || echo "$envs" | tr , ' ')
    tk=$TKC                 # TKC=PATH among the settings: another tkc binary
    case " $ev " in *" TKC="*) tk=$(echo " $ev " | sed 's/.* TKC=\([^ ]*\) .*/\1/'); ev=$(echo " $ev " | sed 's/ TKC=[^ ]* / /') ;; esac
    if [ -n "$PRE" ] && [ -f "$PRE/$label.h" ]; then
        cp "$PRE/$label.h" "$d/bench.h"
        [ -f "$PRE/$label.cubin" ] && cp "$PRE/$label.cubin" "$d/k.cubin"
    else
        # shellcheck disable=SC2086
        env $ev "$tk" stdlib/matmul.tk --target=cuda --kernel=$KERNEL $flags -o "$d/bench.h" 2>"$d/tkc.log" \
            || { echo "$label: tkc failed"; sed 's/^/    /' "$d/tkc.log" | head -20; continue; }
        # shellcheck disable=SC2086
        env $ev "$tk" stdlib/matmul.tk --target=cuda --kernel=$KERNEL $flags --emit=ptx -o "$d/k.ptx" 2>/dev/null \
            && "$CUDA/bin/ptxas" -arch=sm_90a -v -o "$d/k.cubin" "$d/k.ptx" 2>&1 | grep -E "registers|spill|C75" | sed "s/^/$label ptxas: /"
        cp "$d/k.cubin" "$B/$label.cubin" 2>/dev/null
    fi
    if [ -n "$SAVE" ]; then
        cp "$d/bench.h" "$SAVE/$label.h" && { [ ! -f "$d/k.cubin" ] || cp "$d/k.cubin" "$SAVE/$label.cubin"; } || exit 1
        continue
    fi
    # shellcheck disable=SC2086
    if $CC -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK $BENCH_DEF -I "$d" -o "$d/bench" tests/gpu/bench_mm.c -lm -ldl \
        && $CC -std=c11 -O2 -fPIC -shared $LIB_DEF -DTK_HEADER='"bench.h"' -I "$d" -o "$d/lib.so" tests/gpu/bench_mm_lib.c -ldl; then
        labels="$labels $label"
        pairs="$pairs $label=$d/lib.so"
    else
        echo "$label: build failed"
    fi
done <"$B/list"
[ -z "$SAVE" ] || exit 0
(cd "$B" && tar -cf "$OUTD/cubins.tar" ./*.cubin) 2>/dev/null
if [ -x "$CUDA/bin/cuobjdump" ]; then
    for l in $labels; do
        [ -f "$B/$l/k.cubin" ] || continue
        "$CUDA/bin/cuobjdump" -sass "$B/$l/k.cubin" >"$B/$l/k.sass" 2>/dev/null
        echo "$l sass: $(grep -c HGMMA "$B/$l/k.sass") HGMMA ($(grep -o 'HGMMA\.[0-9x]*' "$B/$l/k.sass" | sort -u | tr '\n' ' ')), $(grep -c 'BAR.SYNC' "$B/$l/k.sass") BAR.SYNC, $(grep -c 'WARPGROUP.DEPBAR' "$B/$l/k.sass") WG.DEPBAR, $(grep -c 'UBLKCP\|UTMASTG\|UTMALDG' "$B/$l/k.sass") TMA"
    done
fi
cat >"$B/ref.py" <<'PY'
import sys, torch
sys.path.insert(0, "tests/gpu")
from bench_util import median_ms
name = sys.argv[1] if len(sys.argv) > 1 else "bf16"
dt = {"bf16": torch.bfloat16, "f16": torch.float16}[name]
for s in (4096, 8192):
    a = torch.randn(s, s, device="cuda", dtype=dt)
    b = torch.randn(s, s, device="cuda", dtype=dt)
    ms = median_ms(lambda: torch.matmul(a, b), warmup=3, round_ms=20.0)
    print("torch %s %dx%dx%d %10.3f ms %8.1f TFLOP/s" % (name, s, s, s, ms, 2 * s ** 3 / (ms * 1e-3) / 1e12))
PY
# shellcheck disable=SC2086
python3 tests/gpu/bench_mm_pair.py $pairs -- ${SIZES:-4096 8192}
[ "${REF:-0}" = 1 ] && python3 "$B/ref.py" "${MM_DTYPE:-bf16}"
for l in $labels; do
    # shellcheck disable=SC2086
    case " ${ODD:-} " in *" $l "*) "$B/$l/bench" "$l" ${ODD_SHAPES:-4095 4095 4095} ;; esac
done
[ "$ROUNDS" -gt 0 ] || exit 0
r=1
while [ "$r" -le "$ROUNDS" ]; do
    for l in ${SEP:-$labels}; do
        "$B/$l/bench" "$l" 4096 4096 4096 8192 8192 8192
    done
    python3 "$B/ref.py" "${MM_DTYPE:-bf16}"
    r=$((r + 1))
done 2>&1 | tee "$B/times.txt"
echo "medians over $ROUNDS rounds (TFLOP/s; ratio to cuBLAS):"
awk '
    $1 == "tkc"   { v[$2 " " $3] = v[$2 " " $3] " " $6; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
    $1 == "torch" { v["torch " $3] = v["torch " $3] " " $6 }
    function med(s,   a, k, i, j, t) { k = split(s, a, " "); for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
    END {
        order[++n] = "torch"
        for (i = 1; i <= n; i++) {
            l = order[i]; line = sprintf("%-8s", l)
            for (s = 0; s < 2; s++) {
                sh = s ? "8192x8192x8192" : "4096x4096x4096"
                m = med(v[l " " sh]); c = med(v["torch " sh])
                line = line sprintf("  %s %6.1f (%.3f) [%s ]", substr(sh, 1, 4), m, c ? m / c : 0, v[l " " sh])
            }
            print line
        }
    }' "$B/times.txt"
