#!/usr/bin/env bash
# Counting at the limit (run on demand, not by meson test): the targets of
# counting on two cores, queens 15 within 10 s and L(2,15) within 60 s
# (`--symmetry` counting one of each mirror or reverse pair), each on cp
# alone and on auto by cubes, and L(2,12) `--symmetry` (108,144 sequences,
# under a second) to follow the cost of a sequence between the long runs.
# Prints a Markdown table: the count, the best wall and CPU seconds of
# REPS runs (default 3), the CPU microseconds a solution, and whether the
# best wall time meets the target.  Note the machine's load (printed
# first): on 2 cores shared with other work, wall times are not the
# machine's.
#
#   tests/bench/count.sh [ILPM]
#
# ILPM defaults to build/ilpm; THREADS (default 2) is auto's --threads;
# REPS (default 3); LONG=1 adds L(2,15) (about 4 min of CPU a run);
# COUNT_LIMIT (default 120) bounds each run.
set -u

ilpm=${1:-build/ilpm}
threads=${THREADS:-2}
reps=${REPS:-3}
climit=${COUNT_LIMIT:-120}
if [ ! -x "$ilpm" ]; then
    echo "count.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
case $reps in '' | *[!0-9]* | 0) echo "count.sh: REPS must be a positive number, got '$reps'" >&2; exit 2 ;; esac
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# "wall cpu" seconds of the command (children included), its first line
# in $work/line
timed() {
    /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >"$work/out" 2>&1
    head -1 "$work/out" >"$work/line"
    awk '{ printf "%.2f %.2f", $1, $2 + $3 }' "$work/time"
}

# row NAME TARGET ARGS...: the best of $reps runs
row() {
    local name=$1 target=$2 best_w="" best_c="" count
    shift 2
    for _ in $(seq "$reps"); do
        read -r w c < <(timed "$ilpm" solve "$@" --count --time-limit "$climit")
        if [ -z "$best_w" ] || awk -v a="$w" -v b="$best_w" 'BEGIN { exit !(a < b) }'; then
            best_w=$w
            best_c=$c
        fi
    done
    count=$(grep -o 'count [0-9]*\|count at least [0-9]*' "$work/line" | head -1)
    local us
    us=$(awk -v c="$best_c" -v n="${count##* }" 'BEGIN { if (n > 0) printf "%.2f", c * 1e6 / n; else print "-" }')
    grep -q "verified" "$work/line" || count="$count (NOT verified: $(cat "$work/line"))"
    local met=no
    awk -v a="$best_w" -v t="$target" 'BEGIN { exit !(a <= t) }' && met=yes
    [ "$target" = - ] && met="(none)" || met="$target s: $met"
    echo "| \`ilpm solve $*\` | $count | $best_w | $best_c | $us | $met |"
}

echo "machine: $(nproc) cores, $(uptime | sed 's/.*load/load/')"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?'); best of $reps"
echo
echo "| command (\`--count\`) | count | wall s | CPU s | CPU us a solution | target |"
echo "|---|---|---|---|---|---|"
row "L(2,12) sym cp" - langford --n 12 --k 2 --symmetry --backend cp
row "L(2,12) sym auto" - langford --n 12 --k 2 --symmetry --backend auto --threads "$threads"
row "queens 15 cp" 10 queens --n 15 --backend cp
row "queens 15 auto" 10 queens --n 15 --backend auto --threads "$threads"
row "queens 15 sym cp" 10 queens --n 15 --symmetry --backend cp
row "queens 15 sym auto" 10 queens --n 15 --symmetry --backend auto --threads "$threads"
if [ "${LONG:-0}" = 1 ]; then
    row "L(2,15) sym cp" 60 langford --n 15 --k 2 --symmetry --backend cp
    row "L(2,15) sym auto" 60 langford --n 15 --k 2 --symmetry --backend auto --threads "$threads"
fi
echo
echo "machine after: $(uptime | sed 's/.*load/load/')"
