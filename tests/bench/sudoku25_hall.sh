#!/usr/bin/env bash
# 25x25 Sudoku on cp with and without the Hall sets of --cp-alldiff on,
# learning on and off (issue #35 item 5; run on demand, not by meson
# test).
#
#   tests/bench/sudoku25_hall.sh [ILPM]
#
# Each setting of SETTINGS (one per line: the options after `ilpm solve
# sudoku FILE --index I`; default below) runs once on each grid of GRIDS
# (default 1..18) with --time-limit LIMIT (default 10) and --verbose.  A
# cell is "CPU/failures": the user CPU in seconds (GNU time) and cp's
# failures, '-' for CPU when it did not solve (then the failures it
# reached).  The last two columns: the grids solved within 1 s of CPU,
# and within the limit.  A Markdown table; note the load (`uptime`).
# Figures: docs/benchmarks.md, "25x25 Sudoku: Hall sets on cp".
set -u
ilpm=${1:-build/ilpm}
limit=${LIMIT:-10}
grids=${GRIDS:-$(seq 1 18)}
here=$(cd "$(dirname "$0")" && pwd)
file=$here/../../data/sudoku/gecode_25x25.txt
if [ ! -x "$ilpm" ]; then
    echo "sudoku25_hall.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
read -r -d '' default_settings <<'SETS'
--backend cp --learn on --cp-alldiff off
--backend cp --learn on --cp-alldiff on
--backend cp --learn off --cp-alldiff off
--backend cp --learn off --cp-alldiff on
SETS
settings=${SETTINGS:-$default_settings}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

printf '| setting |'
for i in $grids; do printf ' %s |' "$i"; done
printf ' within 1 s | solved |\n|---|'
for i in $grids; do printf -- '---|'; done
printf -- '---:|---:|\n'
while IFS= read -r s; do
    [ -n "$s" ] || continue
    # shellcheck disable=SC2016 # the backquotes are Markdown's
    printf '| `%s` |' "$s"
    within=0 solved=0
    for i in $grids; do
        # shellcheck disable=SC2086 # the setting's words are options
        /usr/bin/time -f '%U' -o "$tmp/t" "$ilpm" solve sudoku "$file" \
            --index "$i" --time-limit "$limit" --verbose $s \
            >"$tmp/out" 2>"$tmp/err"
        u=$(tail -1 "$tmp/t" 2>/dev/null)
        f=$(sed -n 's/^cp: [0-9]* nodes, \([0-9]*\) failures.*/\1/p' "$tmp/err" | tail -1)
        if grep -q ': solved, verified' "$tmp/out"; then
            printf ' %s/%s |' "$u" "${f:-?}"
            solved=$((solved + 1))
            within=$(awk -v u="$u" -v w="$within" 'BEGIN { print w + (u <= 1.0) }')
        else
            printf ' -/%s |' "${f:-?}"
        fi
    done
    printf ' %s | %s |\n' "$within" "$solved"
done <<<"$settings"
