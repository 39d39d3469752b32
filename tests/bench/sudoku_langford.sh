#!/usr/bin/env bash
# Sudoku and Langford timings through the ilpm binary on both back ends,
# printed as a Markdown table (run on demand, not by meson test):
#   - every puzzle of norvig_top95, gecode_16x16 and gecode_25x25, solved
#     one by one (the 25x25 rows are the ILP target of issue 15: each grid
#     within TIME_LIMIT_25 seconds, default 10);
#   - counting L(2,11) (35584 sequences, reversals included) in both
#     formulations.
# Usage, from the source root:  tests/bench/sudoku_langford.sh [ILPM]
# ILPM defaults to build/ilpm.  TIME_LIMIT (seconds per instance, default
# 300) bounds each other solve or count; a count it cuts short shows the
# count reached.
set -u

ILPM=${1:-build/ilpm}
TL=${TIME_LIMIT:-300}
SETS=${SUDOKU_SETS:-"norvig_top95 gecode_16x16 gecode_25x25"}
TL25=${TIME_LIMIT_25:-10}

if [ ! -x "$ILPM" ]; then
    echo "sudoku_langford.sh: no ilpm binary at '$ILPM' (build it, or pass its path)" >&2
    exit 2
fi
if [ ! -d data/sudoku ]; then
    echo "sudoku_langford.sh: run from the source root (data/sudoku not found)" >&2
    exit 2
fi

now() { date +%s.%N; }

# Pulls "key":value out of JSON lines: one value per line.
field() {
    sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"
}

# n, min, median, mean, max of numbers on stdin
summary() {
    sort -g | awk '
        { v[NR] = $1; s += $1 }
        END {
            if (NR == 0) { print "0 - - - -"; exit }
            m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%d %.1f %.1f %.1f %.1f\n", NR, v[1], m, s / NR, v[NR]
        }'
}

echo "## Sudoku: one solve per puzzle (ms, solve time as reported by ilpm)"
echo
echo "| set | back end | puzzles | solved | verified | min | median | mean | max | total s | wall s |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for set in $SETS; do
    file=data/sudoku/$set.txt
    tl=$TL
    [ "$set" = gecode_25x25 ] && tl=$TL25
    for backend in sat ilp; do
        t0=$(now)
        out=$("$ILPM" solve sudoku "$file" --backend "$backend" \
            --format json --time-limit "$tl" 2>/dev/null)
        t1=$(now)
        solved=$(printf '%s\n' "$out" | field status | grep -c '^solved$')
        verified=$(printf '%s\n' "$out" | field verified | grep -c '^true$')
        read -r n lo med mean hi <<<"$(printf '%s\n' "$out" | field solve_ms | summary)"
        total=$(printf '%s\n' "$out" | field solve_ms |
            awk '{ s += $1 } END { printf "%.2f", s / 1000 }')
        wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
        echo "| $set | $backend | $n | $solved | $verified | $lo | $med | $mean | $hi | $total | $wall |"
    done
done

echo
echo "## Langford: counting L(2,11) (35584 with reversals; time limit ${TL} s)"
echo
echo "| formulation | back end | status | count | verified | build ms | solve ms | wall s |"
echo "|---|---|---|---:|---|---:|---:|---:|"
for form in cards positions; do
    for backend in sat ilp; do
        t0=$(now)
        out=$("$ILPM" solve langford --n 11 --k 2 --formulation "$form" \
            --count --backend "$backend" --format json --time-limit "$TL" \
            2>/dev/null)
        t1=$(now)
        status=$(printf '%s\n' "$out" | field status | head -1)
        count=$(printf '%s\n' "$out" | field count | head -1)
        verified=$(printf '%s\n' "$out" | field verified | head -1)
        build=$(printf '%s\n' "$out" | field build_ms | head -1)
        solve=$(printf '%s\n' "$out" | field solve_ms | head -1)
        wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
        echo "| $form | $backend | ${status:-error} | ${count:--} | ${verified:--} | ${build:--} | ${solve:--} | $wall |"
    done
done
