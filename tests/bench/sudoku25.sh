#!/usr/bin/env bash
# 25x25 Sudoku, issue #35 item 5's target: every grid of
# data/sudoku/gecode_25x25.txt within 1 s with `--backend auto` on two
# cores (run on demand, not by meson test).
#
#   tests/bench/sudoku25.sh [ILPM]
#
# Each setting of SETTINGS (one per line: the options after `ilpm solve
# sudoku FILE --index I`; default below) runs once on each grid of GRIDS
# (default 1..18).  A cell is the user CPU in seconds of the process and
# its members (GNU time; `--backend auto`: both members, about twice
# what one member took), '-' when the run did not solve within CPU
# seconds of CPU per process (`ulimit -t`, default 3) or within the wall
# limit (--time-limit, WALL, default 100: high, so that a loaded machine
# does not cut runs short).  A setting with cp and --verbose shows cp's
# failures too ("CPU/failures"; '-/failures' when not solved: those it
# reached).  CaDiCaL is deterministic for a setting and seed,
# so one run per cell draws the same search each time.  The last three
# columns: the grids within 0.9 s, the grids solved, and the sum with '-'
# as CPU.  A Markdown table; note the load (`uptime`) with it.  Figures:
# docs/benchmarks.md, "25x25 Sudoku under auto, third pass" and
# "25x25 Sudoku: Hall sets on cp".
set -u
ilpm=${1:-build/ilpm}
cpu=${CPU:-3}
wall=${WALL:-100}
grids=${GRIDS:-$(seq 1 18)}
here=$(cd "$(dirname "$0")" && pwd)
file=$here/../../data/sudoku/gecode_25x25.txt
if [ ! -x "$ilpm" ]; then
    echo "sudoku25.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
read -r -d '' default_settings <<'EOF'
--backend auto
--backend sat --sat-option target=2
--backend sat --sat-option target=2,phase=0
--backend sat
EOF
settings=${SETTINGS:-$default_settings}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

printf '| setting |'
for i in $grids; do printf ' %s |' "$i"; done
printf ' within 0.9 s | solved | sum |\n|---|'
for i in $grids; do printf -- '---|'; done
printf -- '---:|---:|---:|\n'
while IFS= read -r s; do
    [ -n "$s" ] || continue
    # shellcheck disable=SC2016 # the backquotes are Markdown's
    printf '| `%s` |' "$s"
    within=0 solved=0 sum=0
    for i in $grids; do
        # shellcheck disable=SC2086 # the setting's words are options
        (ulimit -t "$cpu"
            exec /usr/bin/time -f '%U' -o "$tmp/t" "$ilpm" solve sudoku \
                "$file" --index "$i" --time-limit "$wall" $s) \
            >"$tmp/out" 2>"$tmp/err"
        u=$(tail -1 "$tmp/t" 2>/dev/null)
        f=$(sed -n 's/^cp: [0-9]* nodes, \([0-9]*\) failures.*/\/\1/p' \
            "$tmp/err" | tail -1)
        if grep -q ': solved, verified' "$tmp/out" && [ -n "$u" ]; then
            printf ' %s%s |' "$u" "$f"
            solved=$((solved + 1))
            within=$(awk -v u="$u" -v w="$within" \
                'BEGIN { print w + (u <= 0.9) }')
        else
            printf ' -%s |' "$f"
            u=$cpu
        fi
        sum=$(awk -v u="$u" -v s="$sum" 'BEGIN { printf "%.2f", s + u }')
    done
    printf ' %s | %s | %s |\n' "$within" "$solved" "$sum"
done <<<"$settings"
