#!/usr/bin/env bash
# --time-limit as a contract: `ilpm solve queens --n N --time-limit T` on
# every back end, RUNS times for each T, with the wall time of each whole
# process (start-up, building, lowering, solving and freeing) against
# T + MARGIN, printed as a Markdown table (run on demand, not by meson
# test; tests/e2e_limits.sh runs a short subset).  n-Queens 4000 is 16
# million variables: no back end builds it within 5 s, so every limit
# below that cuts a step short.
# Usage, from the source root:  tests/bench/limits.sh [ILPM]
# N (default 4000), LIMITS (default "0.5 1 1.5 2 3 5"), BACKENDS (default
# "ilp sat cp"), RUNS (default 10), MARGIN (seconds, default 0.5).
# Columns: the wall times (min, median, max), the runs over T + MARGIN,
# and "after": the most a run took beyond its own build_ms + solve_ms
# (the time the limit accounts for), which is start-up and freeing.
set -u
ILPM=${1:-build/ilpm}
N=${N:-4000}
LIMITS=${LIMITS:-"0.5 1 1.5 2 3 5"}
BACKENDS=${BACKENDS:-"ilp sat cp"}
RUNS=${RUNS:-10}
MARGIN=${MARGIN:-0.5}
if [ ! -x "$ILPM" ]; then
    echo "limits.sh: no $ILPM (build first)" >&2
    exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf '| back end | T (s) | runs | wall min | median | max | over T+%s | after (max) |\n' "$MARGIN"
printf '|---|---|---|---|---|---|---|---|\n'
for b in $BACKENDS; do
    for t in $LIMITS; do
        : >"$work/walls"
        : >"$work/after"
        for _ in $(seq "$RUNS"); do
            t0=$(date +%s.%N)
            "$ILPM" solve queens --n "$N" --backend "$b" --time-limit "$t" \
                --format json >"$work/out" 2>/dev/null
            t1=$(date +%s.%N)
            wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
            echo "$wall" >>"$work/walls"
            ms=$(sed -n 's/.*"build_ms":\([0-9.]*\).*"solve_ms":\([0-9.]*\).*/\1 \2/p' "$work/out")
            awk -v w="$wall" -v ms="$ms" 'BEGIN { split(ms, m, " ");
                printf "%.3f\n", w - (m[1] + m[2]) / 1000 }' >>"$work/after"
        done
        sort -n "$work/walls" | awk -v t="$t" -v mg="$MARGIN" -v b="$b" \
            -v after="$(sort -n "$work/after" | tail -1)" '
            { w[NR] = $1; if ($1 > t + mg) over++ }
            END { printf "| %s | %s | %d | %.2f | %.2f | %.2f | %d | %.2f |\n",
                  b, t, NR, w[1], w[int((NR + 1) / 2)], w[NR], over, after }'
    done
done
