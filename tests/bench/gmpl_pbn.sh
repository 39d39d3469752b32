#!/usr/bin/env bash
# GLPK's paint-by-numbers model (pbn/pbn.mod among GLPK's examples) on each
# of its data files: glpsol against `ilpm solve gmpl` on each back end, and
# the translation alone: `glpsol --check` against `ilpm stats gmpl` (GLPK's
# translation plus ilpm's lowering and its statistics), printed as a
# Markdown table (run on demand, not by meson test).
# Usage, from the source root:  tests/bench/gmpl_pbn.sh [ILPM]
# LIMIT (seconds per solve, default 60) is glpsol's --tmlim and ilpm's
# --time-limit; BACKENDS (default "ilp sat cp") picks ilpm's back ends;
# PBN the folder of pbn.mod.
set -u
ILPM=${1:-build/ilpm}
LIMIT=${LIMIT:-60}
BACKENDS=${BACKENDS:-"ilp sat cp"}
PBN=${PBN:-/usr/share/doc/glpk-utils/examples/pbn}
if [ ! -x "$ILPM" ] || [ ! -f "$PBN/pbn.mod" ] || ! command -v glpsol >/dev/null; then
    echo "gmpl_pbn.sh: needs $ILPM, glpsol and $PBN/pbn.mod (glpk-utils)" >&2
    exit 2
fi
ILPM=$(cd "$(dirname "$ILPM")" && pwd)/$(basename "$ILPM")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1 # pbn.mod writes solution.ps and solution.dat here

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

printf '| data | size | glpsol --check | ilpm stats | glpsol | %s |\n' \
    "$(sed 's/ / | /g' <<<"$BACKENDS")"
printf '|---|---|---|---|---|%s\n' "$(for b in $BACKENDS; do printf -- '---|'; done)"
for d in "$PBN"/*.dat; do
    name=$(basename "$d" .dat)
    t0=$(now)
    glpsol --check -m "$PBN/pbn.mod" -d "$d" >/dev/null 2>&1
    check=$(secs "$t0" "$(now)")
    t0=$(now)
    size=$("$ILPM" stats gmpl "$PBN/pbn.mod" --data "$d" 2>/dev/null | head -1 |
        sed -n 's/.*(\([0-9]*\) variables, \([0-9]*\) rows).*/\1 x \2/p')
    stats=$(secs "$t0" "$(now)")
    t0=$(now)
    out=$(glpsol -m "$PBN/pbn.mod" -d "$d" --tmlim "$LIMIT" 2>&1)
    g=$(secs "$t0" "$(now)")
    if grep -q "INTEGER OPTIMAL SOLUTION FOUND" <<<"$out"; then
        glp="$g s"
    else
        glp="no answer in $g s"
    fi
    row="| $name | $size | $check s | $stats s | $glp |"
    for b in $BACKENDS; do
        t0=$(now)
        line=$("$ILPM" solve gmpl "$PBN/pbn.mod" --data "$d" --backend "$b" \
            --time-limit "$LIMIT" --format csv 2>/dev/null | tail -n 1)
        t=$(secs "$t0" "$(now)")
        case $line in
        *,solved,true,*) row="$row $t s |" ;;
        *) row="$row $(grep -oE ',(timeout|unsat|error|feasible|stopped),' <<<"$line" |
            head -n 1 | tr -d ,)${line:+ }in $t s |" ;;
        esac
    done
    echo "$row"
done
