#!/usr/bin/env bash
# No-slowdown check between two builds of ilpm (run on demand, not by the
# test suite): the same commands on both binaries, interleaved (A, B, A,
# B, ...) so that the machine's load falls on both alike, REPS times
# each.  Prints a Markdown table of the median wall time per command and
# binary, and B's median over A's.  The commands are the figures of
# docs/benchmarks.md on the three back ends: n-Queens, Langford L(2,n),
# Sudoku top95 and 16x16 (whole files in one process) and 4-deck uniform
# Machiavelli tables.  Each run has LIMIT seconds (default 20); a run
# that is stopped shows as ">LIMIT s", any status but 0, 10 (an answer)
# and 3 (the limit) as "exit N".
#
#   tests/bench/interleaved.sh OLD_ILPM NEW_ILPM [REPS]
#
# Build the old one from a commit in its own worktree, e.g.
#   git worktree add /tmp/old 2c5b54a && meson setup /tmp/old/build \
#       /tmp/old --buildtype=debugoptimized && ninja -C /tmp/old/build
# REPS defaults to 5.  ONLY="regex" keeps the commands it matches;
# CMDS=FILE runs FILE's commands (one a line, '#' a comment) instead.
set -u

if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "interleaved.sh: give two ilpm binaries (OLD NEW) and optionally REPS" >&2
    exit 2
fi
a=$(realpath "$1")
b=$(realpath "$2")
reps=${3:-5}
case $reps in '' | *[!0-9]*) echo "interleaved.sh: REPS must be a number, got '$reps'" >&2; exit 2 ;; esac
only=${ONLY:-.}
limit=${LIMIT:-20}
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# The Machiavelli tables, made by the old binary so both read the same.
if ! "$a" gen machiavelli --uniform --decks 4 --cards 120 --seed 7 --count 5 \
    >"$work/mach.txt" 2>"$work/err"; then
    echo "interleaved.sh: gen machiavelli failed: $(cat "$work/err")" >&2
    exit 2
fi

cmds=()
for be in ilp sat cp; do
    cmds+=("solve queens --n 64 --backend $be"
        "solve langford --k 2 --n 60 --backend $be"
        "solve sudoku data/sudoku/norvig_top95.txt --backend $be"
        "solve sudoku data/sudoku/gecode_16x16.txt --backend $be"
        "solve machiavelli $work/mach.txt --decks 4 --backend $be")
done
cmds+=("solve queens --n 256 --backend sat" "solve queens --n 2000 --backend cp"
    "solve langford --k 2 --n 12 --count --backend cp"
    "solve queens --n 12 --count --backend cp")
if [ -n "${CMDS:-}" ]; then
    mapfile -t cmds < <(grep -v '^ *\(#\|$\)' "$CMDS")
fi

# ms CMD...: wall milliseconds, or "exit N" for a status other than 0/10.
ms() {
    local t0 t1 code
    t0=$(date +%s%N)
    "$@" --time-limit "$limit" >/dev/null 2>&1
    code=$?
    t1=$(date +%s%N)
    if [ "$code" -eq 3 ]; then
        echo ">${limit}s"
    elif [ "$code" -ne 0 ] && [ "$code" -ne 10 ]; then
        echo "exit$code"
    else
        echo $(((t1 - t0) / 1000000))
    fi
}

median() { sort -n | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]}'; }

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $reps runs each, interleaved"
echo
echo "| command | A ms | B ms | B/A |"
echo "|---|--:|--:|--:|"
for c in "${cmds[@]}"; do
    echo "$c" | grep -Eq -- "$only" || continue
    : >"$work/ta"
    : >"$work/tb"
    # shellcheck disable=SC2086 # the command is split into its words
    for ((i = 0; i < reps; i++)); do
        ms "$a" $c >>"$work/ta"
        ms "$b" $c >>"$work/tb"
    done
    if grep -q '[a-z>]' "$work/ta" "$work/tb"; then
        printf '| `%s` | %s | %s | - |\n' "${c/$work\//}" \
            "$(grep -m1 '[a-z>]' "$work/ta" || median <"$work/ta")" \
            "$(grep -m1 '[a-z>]' "$work/tb" || median <"$work/tb")"
        continue
    fi
    ma=$(median <"$work/ta")
    mb=$(median <"$work/tb")
    printf '| `%s` | %s | %s | %s |\n' "${c/$work\//}" "$ma" "$mb" \
        "$(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.2f", (a > 0 ? b / a : 0)}')"
done
