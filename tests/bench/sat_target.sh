#!/usr/bin/env bash
# CaDiCaL's phase option `target` on every puzzle (run on demand, not by
# meson test): each set solved once on --backend sat with target=1
# (CaDiCaL's default) and with target=2 (target phases in every mode),
# both set explicitly, so the table does not depend on ilpm's default.
# Prints a Markdown table: per set and setting, the instances solved
# (or proven unsat) and timed out within the limit, and the total time
# (build + solve, a timed-out run with the time it took).  One run each:
# note the machine's load (uptime) next to the figures.
#
#   tests/bench/sat_target.sh [ILPM]
#
# ILPM defaults to build/ilpm; TIME_LIMIT (seconds per instance, default
# 10) bounds every solve; TARGETS (default "1 2") the settings compared.
set -u

ilpm=${1:-build/ilpm}
limit=${TIME_LIMIT:-10}
targets=${TARGETS:-"1 2"}
if [ ! -x "$ilpm" ]; then
    echo "sat_target.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# The sets: a name, then the puzzle and its arguments.
for n in $(seq 100 200); do
    [ $((n % 4)) -eq 0 ] || [ $((n % 4)) -eq 3 ] && echo "2 $n"
done >"$work/langford.txt"
"$ilpm" gen machiavelli --uniform --decks 4 --cards 120 --seed 1 \
    --count 10 >"$work/mach.txt" 2>"$work/err" ||
    { echo "sat_target.sh: gen failed: $(cat "$work/err")" >&2; exit 1; }
sets=(
    "queens n=100|queens --n 100"
    "queens n=200|queens --n 200"
    "queens n=300|queens --n 300"
    "queens n=400|queens --n 400"
    "Langford L(2,100..200), 51 solvable|langford $work/langford.txt"
    "Sudoku top95|sudoku data/sudoku/norvig_top95.txt"
    "Sudoku gecode 16x16|sudoku data/sudoku/gecode_16x16.txt"
    "Sudoku gecode 25x25|sudoku data/sudoku/gecode_25x25.txt"
    "Machiavelli uniform, 4 decks, 120 cards, 10 tables|machiavelli $work/mach.txt --decks 4"
    "Tetravex 6x6 generated|tetravex data/tetravex/generated/6x6_solvable.txt"
    "Tetravex 7x7 generated|tetravex data/tetravex/generated/7x7_solvable.txt"
)

printf '| set | target | instances | answered | timeout | total s |\n'
printf '|---|--:|--:|--:|--:|--:|\n'
for s in "${sets[@]}"; do
    name=${s%%|*}
    # shellcheck disable=SC2206
    args=(${s#*|})
    for t in $targets; do
        "$ilpm" solve "${args[@]}" --backend sat --sat-option "target=$t" \
            --time-limit "$limit" --format json >"$work/out" 2>"$work/err"
        awk -v name="$name" -v t="$t" '
            function field(key,   m) {
                if (!match($0, "\"" key "\":\"?[a-z0-9.]+"))
                    return ""
                m = substr($0, RSTART, RLENGTH)
                sub(/.*:"?/, "", m)
                return m
            }
            /^\{/ {
                n++
                st = field("status")
                if (st == "solved" || st == "unsat" || st == "optimal") ok++
                else if (st == "timeout") to++
                ms += field("build_ms") + field("solve_ms")
            }
            END {
                printf "| %s | %s | %d | %d | %d | %.1f |\n", name, t, n,
                    ok, to, ms / 1000
            }' "$work/out"
    done
done
printf '\nload: %s\n' "$(uptime)"
