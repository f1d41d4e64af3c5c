#!/bin/sh
# tests/bench/report.sh — a bench log as a Markdown table and a bar chart.
#
#   sh tests/bench/report.sh LOG [OUTDIR]        # OUTDIR defaults to build/bench
#
# LOG is what `make bench` prints (it calls this with build/bench/bench.log):
# lines `NAME tkc=X rival=Y ratio=Z goal=G [met|MISSED]`, `# ...` lines that
# start a section, the first line naming the machine.  Writes OUTDIR/report.md
# (a table per section) and OUTDIR/report.png (tkc / rival per workload as
# bars, goals as marks) with gnuplot, else python3 with matplotlib; without
# either the table is written and the plot skipped, saying so.  POSIX sh + awk.
set -u
log=${1:?usage: sh tests/bench/report.sh LOG [OUTDIR]}
out=${2:-build/bench}
[ -r "$log" ] || { echo "report: cannot read $log"; exit 1; }
mkdir -p "$out" || exit 1
md=$out/report.md dat=$out/report.dat png=$out/report.png

# report.md, and report.dat: "NAME RATIO GOAL" per row with a numeric ratio
# (GOAL the number of a `>=X` goal, else -).
awk -v md="$md" -v dat="$dat" -v src="$log" '
function field(key,    i) {
    for (i = 2; i <= NF; i++)
        if (index($i, key "=") == 1)
            return substr($i, length(key) + 2)
    return "-"
}
NR == 1 { printf "# tkc benchmark report\n\n%s\n\nFrom `%s`; ratio = tkc / rival, higher is better for rates.\n", $0, src > md }
/^# / { section = prev ~ /^# / ? section " " substr($0, 3) : substr($0, 3); shown = 0; prev = $0; next }
{ prev = $0 }
/^[^ #].* tkc=[^ ]* +rival=[^ ]* +ratio=/ {
    if (!shown) {
        head = section == "" ? "" : "## " section
        printf "\n%s\n\n| workload | tkc | rival | ratio | goal | |\n|---|--:|--:|--:|---|---|\n", head > md
        shown = 1
    }
    verdict = $NF ~ /^\[.*\]$/ ? substr($NF, 2, length($NF) - 2) : ""
    if (verdict == "MISSED")
        verdict = "**MISSED**"
    ratio = field("ratio"); goal = field("goal")
    printf "| %s | %s | %s | %s | %s | %s |\n", $1, field("tkc"), field("rival"), ratio, goal, verdict > md
    if (ratio ~ /^[0-9.]+$/) {
        g = goal ~ /^>=[0-9.]+$/ ? substr(goal, 3) : "-"
        printf "%s %s %s\n", $1, ratio, g > dat
        rows++
    }
}
END {
    if (NR == 0) printf "# tkc benchmark report\n\n(empty log)\n" > md
    close(md); if (rows) close(dat)
    exit rows == 0
}' "$log"
have_rows=$?
[ $have_rows -le 1 ] || { echo "report: awk failed on $log"; exit 1; }
[ $have_rows -eq 0 ] || rm -f "$dat"
echo "report: $md"

rm -f "$png"
if [ $have_rows -ne 0 ]; then
    echo "report: no ratios in $log: no plot"
    exit 0
fi
n=$(wc -l <"$dat")
width=$((320 + 44 * n))
if command -v gnuplot >/dev/null 2>&1; then
    term="pngcairo noenhanced size $width,560 font ',10'"
    gnuplot -e 'set terminal' 2>/dev/null | grep -q pngcairo || term="png noenhanced size $width,560"
    gnuplot <<EOF
set terminal $term
set output '$png'
set title 'tkc / rival (1 = parity; marks: goals)'
set style fill solid 0.75 border -1
set boxwidth 0.7
set grid ytics
set yrange [0:*]
set xtics rotate by 40 right nomirror
set offsets 0.5, 0.5, 0.15, 0
set key top right
plot '$dat' using 0:2:xtic(1) with boxes lc rgb '#4a7ab5' title 'ratio', \
     '' using 0:(strcol(3) eq '-' ? NaN : \$3) with points pt 7 ps 1.2 lc rgb '#c0392b' title 'goal', \
     1 with lines dt 2 lc rgb '#555555' title ''
EOF
elif command -v python3 >/dev/null 2>&1 && python3 -c 'import matplotlib' 2>/dev/null; then
    python3 - "$dat" "$png" <<'EOF'
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
names, ratios = [r[0] for r in rows], [float(r[1]) for r in rows]
fig, ax = plt.subplots(figsize=(3.2 + 0.44 * len(rows), 5.6))
ax.bar(range(len(rows)), ratios, color="#4a7ab5", label="ratio")
goals = [(i, float(r[2])) for i, r in enumerate(rows) if r[2] != "-"]
if goals:
    ax.plot([g[0] for g in goals], [g[1] for g in goals], "o", color="#c0392b", label="goal")
ax.axhline(1.0, ls="--", color="#555555")
ax.set_xticks(range(len(rows)), names, rotation=40, ha="right")
ax.set_title("tkc / rival (1 = parity; marks: goals)")
ax.legend()
fig.tight_layout()
fig.savefig(sys.argv[2], dpi=100)
EOF
else
    echo "report: no gnuplot or python3 matplotlib: no plot (apt-get install gnuplot-nox)"
    exit 0
fi
if [ -s "$png" ]; then echo "report: $png"; else echo "report: plotting failed"; exit 1; fi
