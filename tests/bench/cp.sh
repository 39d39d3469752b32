#!/usr/bin/env bash
# The cp back end (#16) against sat, ilp and Gecode (through MiniZinc, on
# the models in models/mzn, when minizinc is installed), in one run:
#  - counting: L(2,11), L(2,12), n-Queens 12 and 13 (Gecode: -a, every
#    solution printed and counted, as the issue measured it);
#  - Tetravex 9x9: the boards of `ilpm gen tetravex --n 9 --seed 1..3`;
#  - Sudoku: norvig_top95 and gecode_16x16, the whole file in one process
#    (ilpm) or one process per grid (Gecode, through run_boards.sh);
#  - the largest n-Queens and L(2,n) solved within 10 s: peers.sh's
#    ladders on ilpm's three back ends and Gecode.
#
# Usage: tests/bench/cp.sh [ILPM]   (from the source root)
#   env: LIMIT (seconds per counting run, default 60), TV_LIMIT (seconds
#        per Tetravex board, default 30), CP_OPTS (extra options of the
#        cp runs on Tetravex, e.g. "--lookahead 64"), OUT (Markdown file,
#        default tests/bench/out/cp.md), SKIP_LADDERS=1 to leave the
#        ladders out.
set -u
ILPM=$(realpath "${1:-build/ilpm}")
LIMIT=${LIMIT:-60}
TV_LIMIT=${TV_LIMIT:-30}
OUT=${OUT:-tests/bench/out/cp.md}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$OUT")"
have_gecode=0
command -v minizinc >/dev/null && minizinc --solvers 2>/dev/null | grep -q gecode &&
    have_gecode=1

now() { date +%s.%N; }

# timed LIMIT WANT CMD... : "SECONDS" when CMD's output holds WANT within
# LIMIT seconds, else ">LIMIT" (or "wrong").
timed() {
    local lim=$1 want=$2
    shift 2
    local t0 t1 code
    t0=$(now)
    timeout -k 5 "$lim" "$@" >"$work/out" 2>&1
    code=$?
    t1=$(now)
    if [ "$code" -eq 124 ] || [ "$code" -eq 137 ]; then
        echo ">$lim"
    elif grep -qE -- "$want" "$work/out"; then
        echo "$t0 $t1" | awk '{printf "%.2f\n", $2 - $1}'
    else
        echo "wrong"
    fi
}

gecode_count() { # MODEL DATA WANT
    minizinc --solver gecode -a -D "$2" "$here/../../models/mzn/$1.mzn" 2>/dev/null |
        grep -c '^----------' | sed 's/^/count /'
}

{
    echo "# The cp back end against sat, ilp and Gecode"
    echo
    echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
        "ilpm $(git -C "$here" rev-parse --short HEAD 2>/dev/null)$(git -C "$here" diff --quiet 2>/dev/null || echo '+changes');" \
        "$([ $have_gecode = 1 ] && minizinc --solvers | grep -o 'Gecode [0-9.]*' | head -1 || echo 'no Gecode')."
    echo
    echo "### Counting (seconds, one run each, limit $LIMIT s)"
    echo
    echo "| count | cp | sat | ilp | Gecode |"
    echo "|---|---|---|---|---|"
} | tee "$OUT"

count_row() { # LABEL PUZZLE-ARGS WANT MZN DZN
    local label=$1 args=$2 want=$3 row b t
    row="| $label |"
    for b in cp sat ilp; do
        # shellcheck disable=SC2086
        t=$(timed "$LIMIT" "count $want[;,]" "$ILPM" solve $args --backend "$b" --count)
        row="$row $t |"
        echo "  $label $b: $t" >&2
    done
    if [ $have_gecode = 1 ]; then
        export -f gecode_count
        export here
        t=$(timed "$LIMIT" "^count $want$" bash -c "gecode_count $4 '$5'")
    else
        t="-"
    fi
    echo "$row $t |" | tee -a "$OUT"
}

count_row "L(2,11), 35584" "langford --n 11" 35584 langford "k=2;n=11;"
count_row "L(2,12), 216288" "langford --n 12" 216288 langford "k=2;n=12;"
count_row "queens 12, 14200" "queens --n 12" 14200 queens "n=12;"
count_row "queens 13, 73712" "queens --n 13" 73712 queens "n=13;"

{
    echo
    echo "### Tetravex 9x9, ilpm gen tetravex --n 9 --seed S (seconds, limit $TV_LIMIT s)"
    echo
    echo "| seed | cp${CP_OPTS:+ $CP_OPTS} | sat | Gecode |"
    echo "|---|---|---|---|"
} | tee -a "$OUT"
for s in 1 2 3; do
    f=$work/tv9_$s
    "$ILPM" gen tetravex --n 9 --seed "$s" >"$f.txt"
    awk '/^#/ {next} !n {n = $1; printf "N = %d;\npezzi = [|", n; next}
         NF >= 4 {printf " %s, %s, %s, %s |", $1, $2, $3, $4} END {print "];"}' "$f.txt" >"$f.dzn"
    # shellcheck disable=SC2086
    cp_t=$(timed "$TV_LIMIT" ": solved, verified" "$ILPM" solve tetravex "$f.txt" --backend cp ${CP_OPTS:-})
    sat_t=$(timed "$TV_LIMIT" ": solved, verified" "$ILPM" solve tetravex "$f.txt" --backend sat)
    g_t=-
    [ $have_gecode = 1 ] &&
        g_t=$(timed "$TV_LIMIT" "^----------" minizinc --solver gecode "$here/../../models/mzn/tetravex.mzn" "$f.dzn")
    echo "| $s | $cp_t | $sat_t | $g_t |" | tee -a "$OUT"
done

{
    echo
    echo "### Sudoku, the whole file (seconds; Gecode: one process per grid)"
    echo
    echo "| file | cp | sat | ilp | Gecode |"
    echo "|---|---|---|---|---|"
} | tee -a "$OUT"
for set in norvig_top95 gecode_16x16; do
    row="| $set |"
    for b in cp sat ilp; do
        t=$(timed 600 "." "$ILPM" solve sudoku "data/sudoku/$set.txt" --backend "$b" --format csv)
        row="$row $t |"
    done
    g_t=-
    if [ $have_gecode = 1 ]; then
        d=$work/s_$set
        mkdir -p "$d"
        i=0
        grep -vE '^(#|$)' "data/sudoku/$set.txt" | cut -d: -f1 | while read -r line; do
            i=$((i + 1))
            len=${#line}
            case $len in 81) b=3 ;; 256) b=4 ;; *) continue ;; esac
            echo "$line" >"$d/$i.txt"
            awk -v b="$b" '{N = b * b; printf "b = %d;\ngiven = [|", b;
                for (k = 1; k <= length($0); k++) {ch = substr($0, k, 1); v = 0;
                    if (ch ~ /[1-9]/) v = ch + 0; else if (ch ~ /[A-Pa-p]/) v = index("ABCDEFGHIJKLMNOP", toupper(ch)) + 9;
                    printf " %d%s", v, (k % N == 0 ? " |" : ",")}
                print "];"}' "$d/$i.txt" >"$d/$i.dzn"
        done
        t0=$(now)
        if "$here/run_boards.sh" gecode "$d" "$ILPM" "$here"; then
            g_t=$(echo "$t0 $(now)" | awk '{printf "%.2f\n", $2 - $1}')
        else
            g_t=fail
        fi
    fi
    echo "$row $g_t |" | tee -a "$OUT"
done

if [ -z "${SKIP_LADDERS:-}" ]; then
    tools="ilpm-cp ilpm-sat ilpm-ilp"
    [ $have_gecode = 1 ] && tools="$tools gecode"
    echo >>"$OUT"
    echo "### The largest instance within 10 s (peers.sh, one run per size)" >>"$OUT"
    ONLY=$tools REPS=1 LIMIT=10 OUT=$work/ladders.md "$here/peers.sh" "$ILPM" queens langford2 >/dev/null
    grep -v '^# ilpm against' "$work/ladders.md" >>"$OUT"
fi
echo "written to $OUT" >&2
