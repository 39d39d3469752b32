#!/usr/bin/env bash
# --backend auto against its members alone (run on demand, not by meson
# test).  Prints Markdown tables:
#  1. L(2,n) for every solvable n in 100..200: auto's time per n, how many
#     within 1 s, the slowest, and the member that answered most often;
#  2. the MIPLIB files of MIPLIB (default ../shared/data/miplib): auto's
#     status, objective, time and member, beside ilp and sat alone;
#  3. counts: queens 15 (and L(2,15) with LONG=1) on cp alone and on auto
#     by cubes, wall and CPU seconds.
# One run each: note the machine's load (uptime) beside the figures.
#
#   tests/bench/portfolio.sh [ILPM]
#
# ILPM defaults to build/ilpm; THREADS (default 2) is --threads;
# TIME_LIMIT (default 20) bounds each MIPLIB run, COUNT_LIMIT (default
# 120) each count.
set -u

ilpm=${1:-build/ilpm}
threads=${THREADS:-2}
limit=${TIME_LIMIT:-20}
climit=${COUNT_LIMIT:-120}
miplib=${MIPLIB:-../shared/data/miplib}
if [ ! -x "$ilpm" ]; then
    echo "portfolio.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# wall seconds of the command, its first output line in $work/line
timed() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >"$work/out" 2>&1
    t1=$(date +%s%N)
    head -1 "$work/out" >"$work/line"
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'
}

echo "machine: $(nproc) cores, $(uptime | sed 's/.*load/load/')"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo
echo "| L(2,n), n in 100..200 solvable | within 1 s | slowest | total | members that answered |"
echo "|---|---|---|---|---|"
within=0 total=0 slow=0 n_all=0
: >"$work/members"
for n in $(seq 100 200); do
    [ $((n % 4)) -eq 0 ] || [ $((n % 4)) -eq 3 ] || continue
    s=$(timed "$ilpm" solve langford --n "$n" --k 2 --backend auto --threads "$threads" --time-limit 10)
    n_all=$((n_all + 1))
    grep -q ": solved, verified" "$work/line" &&
        awk -v s="$s" 'BEGIN { exit !(s <= 1.0) }' && within=$((within + 1))
    total=$(awk -v a="$total" -v s="$s" 'BEGIN { printf "%.2f", a + s }')
    slow=$(awk -v a="$slow" -v s="$s" 'BEGIN { print (s > a ? s : a) }')
    sed -n 's/.*(positions, auto: \([^)]*\)).*/\1/p' "$work/line" >>"$work/members"
done
echo "| auto --threads $threads | $within of $n_all | $slow s | $total s | $(sort "$work/members" | uniq -c | awk '{ c = $1; $1 = ""; printf "%s%s: %d", sep, substr($0, 2), c; sep = ", " }') |"
echo

echo "| file | auto --threads $threads | member | ilp alone | sat alone |"
echo "|---|---|---|---|---|"
for f in "$miplib"/*.mps; do
    [ -f "$f" ] || continue
    row="| $(basename "$f")"
    s=$(timed "$ilpm" solve model "$f" --backend auto --threads "$threads" --time-limit "$limit")
    st=$(sed -n 's/.*): \([a-z]*\),.*objective \([-0-9.]*\).*/\1 \2/p; s/.*): \(timeout\);.*/\1/p' "$work/line" | head -1)
    mb=$(sed -n 's/.*(auto: \([^)]*\)).*/\1/p' "$work/line")
    row="$row | $s s $st | $mb"
    for b in ilp sat; do
        s=$(timed "$ilpm" solve model "$f" --backend "$b" --time-limit "$limit")
        st=$(sed -n 's/.*): \([a-z]*\)[,;].*/\1/p' "$work/line" | head -1)
        row="$row | $s s $st"
    done
    echo "$row |"
done
echo

echo "| count | cp alone | auto --threads $threads (cubes) | count |"
echo "|---|---|---|---|"
counts=("queens 15|queens --n 15")
[ "${LONG:-0}" = 1 ] && counts+=("L(2,15)|langford --n 15 --k 2")
for c in "${counts[@]}"; do
    name=${c%%|*}
    args=${c#*|}
    # shellcheck disable=SC2086
    a=$(timed "$ilpm" solve $args --count --backend cp --time-limit "$climit")
    ca=$(sed -n 's/.*count \([0-9]*\).*/\1/p; s/.*count at least \([0-9]*\).*/>= \1/p' "$work/line" | head -1)
    # shellcheck disable=SC2086
    b=$(timed "$ilpm" solve $args --count --backend auto --threads "$threads" --time-limit "$climit")
    cb=$(sed -n 's/.*count \([0-9]*\).*/\1/p; s/.*count at least \([0-9]*\).*/>= \1/p' "$work/line" | head -1)
    echo "| $name | $a s ($ca) | $b s | $cb |"
done
