#!/usr/bin/env bash
# Shared incumbents under --backend auto (docs/benchmarks.md, "Shared
# incumbents"): the time to prove each optimum of the six MIPLIB files
# (../shared/data/miplib/) and of data/models' optimisation files, with
# --threads 2 and 3, on two builds run interleaved (old, new, old, ...),
# REPS times each (default 3); prints a Markdown table of the best wall
# time per file, threads and build, and the status each answered.
#
#   tests/bench/share.sh OLD_ILPM NEW_ILPM [REPS]
#
# Each run has LIMIT seconds (default 30); MIPLIB=DIR names the MIPLIB
# files' folder; ONLY="regex" keeps the files it matches.
set -u
if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "share.sh: give two ilpm binaries (OLD NEW) and optionally REPS" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
reps=${3:-3}
limit=${LIMIT:-30}
miplib=${MIPLIB:-../shared/data/miplib}
only=${ONLY:-.}
files=()
for f in "$miplib"/*.mps data/models/knapsack.lp data/models/knapsack_big.lp \
    data/models/todd15.lp \
    data/models/decimal_objective.lp data/models/vertexcover.opb; do
    [ -f "$f" ] && [[ $f =~ $only ]] && files+=("$f")
done

# One run: "seconds status" (status: the answer's word, or "exit N").
one() {
    local t0 t1 out rc
    t0=$(date +%s.%N)
    out=$("$1" solve model "$2" --backend auto --threads "$3" \
        --time-limit "$limit" 2>&1)
    rc=$?
    t1=$(date +%s.%N)
    local st
    st=$(printf '%s\n' "$out" | grep -oE ': (optimal|feasible|unsat|timeout)' |
        head -1 | cut -c3-)
    [ -n "$st" ] || st="exit $rc"
    printf '%.2f %s\n' "$(echo "$t1 - $t0" | bc)" "$st"
}

echo "| file | threads | old (s) | new (s) | new/old | old answer | new answer |"
echo "|---|---:|---:|---:|---:|---|---|"
for f in "${files[@]}"; do
    for th in 2 3; do
        bo=999999 bn=999999 so="" sn=""
        for ((i = 0; i < reps; i++)); do
            read -r t s < <(one "$old" "$f" "$th")
            so=$s
            bo=$(echo "if ($t < $bo) $t else $bo" | bc)
            read -r t s < <(one "$new" "$f" "$th")
            sn=$s
            bn=$(echo "if ($t < $bn) $t else $bn" | bc)
        done
        r=$(echo "scale=2; $bn / $bo" | bc 2>/dev/null)
        echo "| $(basename "$f") | $th | $bo | $bn | $r | $so | $sn |"
    done
done
