#!/usr/bin/env bash
# Scale on cp (#35 item 4), run on demand, not by the test suite: wall
# time, peak memory (`/usr/bin/time -f %M`) and outcome of n-Queens 3000,
# 5000 and 10,000 and of L(2,300), L(2,500), L(2,1000) (--learn auto and
# off), and the time limit held at those sizes (queens 5000 and 10,000
# with --time-limit 5: the whole process, freeing included, within
# 5.5 s; 5000 with --learn on and 20 s, the learning search's limit).  Each run has its own limit (LIMIT, default 60 s) and is run
# REPS times (default 3); the table shows the best time, the CPU time
# (user and system) and the peak memory of that run, and every outcome
# (the CPU time tells what the run cost when other processes share the
# cores).  Prints a Markdown table.
#
#   tests/bench/scale.sh [ILPM]     (from the source root)
#   env: REPS (default 3), LIMIT (default 60), ONLY="regex" keeps the
#        commands it matches
set -u
ilpm=${1:-build/ilpm}
reps=${REPS:-3}
limit=${LIMIT:-60}
only=${ONLY:-.}
[ -x "$ilpm" ] || { echo "scale.sh: no ilpm at $ilpm" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "scale.sh: needs /usr/bin/time" >&2; exit 2; }
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

big="--max-vars 100000000"
cmds=(
    "solve queens --n 3000 --backend cp --time-limit $limit"
    "solve queens --n 5000 --backend cp --time-limit $limit"
    "solve queens --n 10000 --backend cp --time-limit $limit $big"
    "solve queens --n 5000 --backend cp --time-limit 5"
    "solve queens --n 10000 --backend cp --time-limit 5 $big"
    "solve queens --n 5000 --backend cp --learn on --time-limit 20"
)
for n in 300 500 1000; do
    for l in auto off; do
        cmds+=("solve langford --n $n --backend cp --learn $l --time-limit $limit")
    done
done

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), best of $reps, commit $(git rev-parse --short HEAD 2>/dev/null)"
echo
echo "| command | best s | CPU s | peak MB | outcomes |"
echo "|---|--:|--:|--:|---|"
for c in "${cmds[@]}"; do
    echo "$c" | grep -Eq -- "$only" || continue
    best="" cpu="" mb="" outs=""
    for ((i = 0; i < reps; i++)); do
        # shellcheck disable=SC2086 # the command is split into its words
        /usr/bin/time -f "%e %M %U %S" -o "$work/t" "$ilpm" $c \
            --format json >"$work/out" 2>/dev/null
        read -r s kb us ss < <(tail -1 "$work/t")
        st=$(grep -o '"status":"[a-z]*"' "$work/out" | head -1 | cut -d'"' -f4)
        outs="$outs${outs:+ }${st:-error}"
        if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" -eq 1 ]; then
            best=$s
            cpu=$(echo "$us + $ss" | bc)
            mb=$((kb / 1024))
        fi
    done
    printf '| `%s` | %s | %s | %s | %s |\n' "$c" "$best" "$cpu" "$mb" "$outs"
done
