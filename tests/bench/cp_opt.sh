#!/usr/bin/env bash
# cp's optimisation (#35 item 2, the cp half): the six pure 0/1 MIPLIB
# files of ../shared/data/miplib (stein45 p0201 lseu mod008 sentoy p0282)
# and their OPB twins (written by `ilpm export model F --opb`, read back
# as OPB), each under every cp setting asked, one run each (run on
# demand, not by the test suite).  Prints a Markdown table: per file and
# setting the outcome, the objective, the wall time and the largest
# resident set (GNU time), and whether the run ended within its limit +
# 0.5 s.
#
# Usage: tests/bench/cp_opt.sh [ILPM]   (from the source root)
#   env: LIMIT (seconds per run, default 60), MIPLIB (the folder of the
#        .mps files, default ../shared/data/miplib), FILES (names without
#        .mps, default the six), TWINS (1: the OPB twins too, default 1),
#        SETTINGS (LEARN/LP pairs, default "auto/on on/on off/on on/off
#        off/off": --learn LEARN --lp-bound LP), ANALYSIS (the
#        --cp-analysis values each setting runs with, default "clause").
set -u
ILPM=$(realpath "${1:-build/ilpm}")
LIMIT=${LIMIT:-60}
MIPLIB=${MIPLIB:-../shared/data/miplib}
FILES=${FILES:-lseu sentoy p0282 stein45 mod008 p0201}
TWINS=${TWINS:-1}
SETTINGS=${SETTINGS:-auto/on on/on off/on on/off off/off}
ANALYSIS=${ANALYSIS:-clause}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "$("$ILPM" --version 2>/dev/null | head -1) at $(git rev-parse --short HEAD 2>/dev/null), $(nproc) cores," \
    "load $(cut -d' ' -f1-3 /proc/loadavg), --time-limit $LIMIT, $(date -u +%FT%TZ)"
echo
echo "| file | --learn | --lp-bound | --cp-analysis | outcome | objective | s | MB | in limit |"
echo "|---|---|---|---|---|---|---:|---:|---|"
for name in $FILES; do
    mps="$MIPLIB/$name.mps"
    if [ ! -f "$mps" ]; then
        echo "| $name | | | not at hand ($mps) | | | | |"
        continue
    fi
    inputs=$mps
    if [ "$TWINS" = 1 ] &&
        "$ILPM" export model "$mps" --no-propagate --opb "$work/$name.opb" \
            >/dev/null 2>&1; then
        inputs="$inputs $work/$name.opb"
    fi
    for f in $inputs; do
        for set in $SETTINGS; do
            for an in $ANALYSIS; do
                learn=${set%/*} lp=${set#*/}
                /usr/bin/time -o "$work/time" -f "%e %M" "$ILPM" solve model "$f" \
                    --backend cp --learn "$learn" --lp-bound "$lp" \
                    --cp-analysis "$an" \
                    --time-limit "$LIMIT" >"$work/out" 2>/dev/null
                read -r secs kb < <(tail -1 "$work/time")
                out=$(grep -o 'optimal\|feasible\|timeout\|unsat' "$work/out" |
                    head -1)
                obj=$(grep -o 'objective -\?[0-9]*' "$work/out" | head -1 |
                    cut -d' ' -f2)
                ok=$(awk -v s="$secs" -v l="$LIMIT" 'BEGIN { print s <= l + 0.5 ? "yes" : "NO" }')
                printf '| %s | %s | %s | %s | %s | %s | %.2f | %d | %s |\n' \
                    "$(basename "$f")" "$learn" "$lp" "$an" "${out:-error}" \
                    "${obj:--}" "$secs" $((kb / 1024)) "$ok"
            done
        done
    done
done
