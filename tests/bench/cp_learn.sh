#!/usr/bin/env bash
# The cp back end's learning (#26): each target of the issue with
# --learn on and --learn off in the same run (run on demand, not by the
# test suite):
#  - Machiavelli: every `gen machiavelli --uniform` table at 2, 4 and 8
#    decks (45 each, the seeds of machiavelli_uniform.sh), default
#    formulation; `play --value` on 8-deck 300-card tables, 78-card hands;
#  - GLPK's paint-by-numbers model (examples/pbn) on each of its .dat files,
#    exported as CPLEX LP by glpsol --wlp;
#  - Tetravex 9x9, `gen tetravex --n 9 --seed 1..3`;
#  - 25x25 Sudoku, data/sudoku/gecode_25x25.txt, all 18 grids;
#  - optimisation: random set-cover and multi-dimensional knapsack OPB files
#    (large coefficients, kept as weighted sums), cp against ilp;
#  - MIPLIB: the issue's six pure 0/1 problems (stein45 p0201 lseu mod008
#    sentoy p0282) as NAME.mps in the folder MIPLIB (default data/models,
#    which holds lseu; the others are reported as not at hand), cp against
#    ilp, the optimum to prove within LIMIT;
#  - counting: L(2,12) and n-Queens 13 (--learn auto counts without
#    learning; on learns).
# Prints Markdown tables: per row the instances solved (or optimal),
# unsat, timed out, the largest time (build + solve, seconds) and how many
# took over the target.
#
# Usage: tests/bench/cp_learn.sh [ILPM]   (from the source root)
#   env: LIMIT (seconds per instance, default 10), TV_LIMIT (Tetravex,
#        default 30), PBN (the pbn example folder), ONLY (the sections to
#        run, of: machiavelli play pbn tetravex sudoku opt miplib count),
#        MIPLIB (the folder of the MIPLIB files),
#        LEARNS (the --learn values compared, default "on off").
set -u
ILPM=$(realpath "${1:-build/ilpm}")
LIMIT=${LIMIT:-10}
TV_LIMIT=${TV_LIMIT:-30}
PBN=${PBN:-/usr/share/doc/glpk-utils/examples/pbn}
ONLY=${ONLY:-machiavelli play pbn tetravex sudoku opt miplib count}
MIPLIB=${MIPLIB:-data/models}
LEARNS=${LEARNS:-on off}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

# summary TARGET LABEL: one table row from the CSV results on stdin.
summary() {
    awk -F, -v t="$1" -v label="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        { gsub(/"[^"]*"/, "Q") } # quoted fields hold commas
        {
            st = $h["status"]
            if (st == "optimal") st = "solved"
            cnt[st]++
            s = ($h["build_ms"] + $h["solve_ms"]) / 1000
            if (s > max) max = s
            if (s > t) over++
            if ((st == "solved") && $h["verified"] != "true") bad++
        }
        END {
            printf "| %s | %d | %d | %d | %.2f | %d |", label, cnt["solved"],
                cnt["unsat"], cnt["timeout"] + cnt["feasible"], max, over
            if (bad) printf " %d NOT VERIFIED", bad
            printf "\n"
        }'
}

header() {
    printf '\n| %s | solved | unsat | timeout | max s | over %s s |\n' "$1" "$2"
    printf '|---|--:|--:|--:|--:|--:|\n'
}

if want machiavelli; then
header "Machiavelli, uniform tables, cp" 1
for d in 2 4 8; do
    file="$work/m$d.txt"
    for per in 10 15 20 25 30 35 40 45 51; do
        "$ILPM" gen machiavelli --uniform --decks "$d" --cards $((per * d)) \
            --seed "$per" --count 5 >>"$file" || exit 1
    done
    for l in $LEARNS; do
        "$ILPM" solve machiavelli "$file" --decks "$d" --backend cp \
            --learn "$l" --time-limit "$LIMIT" --format csv 2>/dev/null |
            summary 1 "$d decks (45 tables), learn $l"
    done
done
fi

if want play; then
header "play --value, 8 decks, 300 cards, hand 78, cp" 2
for kind in dealt uniform; do
    file="$work/play_$kind.txt"
    extra=()
    [ "$kind" = uniform ] && extra=(--uniform)
    "$ILPM" gen machiavelli "${extra[@]}" --decks 8 --cards 300 --hand 78 \
        --seed 1 --count 3 >"$file" || exit 1
    for l in $LEARNS; do
        "$ILPM" play machiavelli "$file" --decks 8 --value --backend cp \
            --learn "$l" --time-limit "$LIMIT" --format csv 2>/dev/null |
            summary 2 "$kind (3 tables), learn $l"
    done
done
fi

if want pbn; then
header "GLPK pbn examples, cp" 2
for dat in "$PBN"/*.dat; do
    b=$(basename "$dat" .dat)
    glpsol -m "$PBN/pbn.mod" -d "$dat" --check --wlp "$work/$b.lp" \
        >/dev/null 2>&1 || continue
    for l in $LEARNS; do
        "$ILPM" solve model "$work/$b.lp" --backend cp --learn "$l" \
            --time-limit "$LIMIT" --format csv 2>/dev/null |
            summary 2 "$b, learn $l"
    done
done
fi

if want tetravex; then
header "Tetravex 9x9, cp" 10
for s in 1 2 3; do
    "$ILPM" gen tetravex --n 9 --seed "$s" >"$work/tv$s.txt" || exit 1
    for l in $LEARNS; do
        "$ILPM" solve tetravex "$work/tv$s.txt" --backend cp --learn "$l" \
            --time-limit "$TV_LIMIT" --format csv 2>/dev/null |
            summary 10 "seed $s, learn $l"
    done
done
fi

if want sudoku; then
header "Sudoku 25x25 (18 grids), cp" 1
for l in $LEARNS; do
    "$ILPM" solve sudoku data/sudoku/gecode_25x25.txt --backend cp \
        --learn "$l" --time-limit "$LIMIT" --format csv 2>/dev/null |
        summary 1 "gecode_25x25, learn $l"
done
fi

# Random 0/1 optimisation: set cover (60 sets, 40 elements, costs 1-20)
# and knapsacks (35 items, 5 capacities of half the weight, weights and
# profits 100-10000), by awk's generator, three seeds each.
gen_opt() {
    awk -v kind="$1" -v seed="$2" 'BEGIN {
        srand(seed)
        if (kind == "setcover") {
            n = 60; m = 40
            printf "* #variable= %d #constraint= %d\nmin:", n, m
            for (j = 1; j <= n; j++) printf " +%d x%d", 1 + int(rand() * 20), j
            print " ;"
            for (i = 1; i <= m; i++) {
                row = ""
                for (j = 1; j <= n; j++) if (rand() < 0.08) row = row " +1 x" j
                if (row == "") row = " +1 x" (1 + int(rand() * n))
                print substr(row, 2) " >= 1 ;"
            }
        } else {
            n = 35; m = 5
            printf "* #variable= %d #constraint= %d\nmin:", n, m
            for (j = 1; j <= n; j++) printf " -%d x%d", 100 + int(rand() * 9900), j
            print " ;"
            for (i = 1; i <= m; i++) {
                row = ""; tot = 0
                for (j = 1; j <= n; j++) {
                    w = 100 + int(rand() * 9900); tot += w
                    row = row " +" w " x" j
                }
                print substr(row, 2) " <= " int(tot / 2) " ;"
            }
        }
    }'
}
if want opt; then
printf '\n| optimisation (3 files each) | backend | optimal | unsat | timeout | max s | over 10 s |\n'
printf '|---|---|--:|--:|--:|--:|--:|\n'
for kind in setcover knapsack; do
    for s in 1 2 3; do gen_opt "$kind" "$s" >"$work/$kind$s.opb"; done
    for b in "cp --learn on" "cp --learn off" "ilp"; do
        # shellcheck disable=SC2086
        for s in 1 2 3; do
            "$ILPM" solve model "$work/$kind$s.opb" --backend $b \
                --time-limit "$LIMIT" --format csv 2>/dev/null |
                if [ "$s" = 1 ]; then cat; else tail -n +2; fi
        done | summary 10 "$kind | $b"
    done
done
fi

if want miplib; then
printf '\n| MIPLIB file | backend | status | objective | seconds |\n'
printf '|---|---|---|--:|--:|\n'
for name in stein45 p0201 lseu mod008 sentoy p0282; do
    f=$MIPLIB/$name.mps
    if [ ! -r "$f" ]; then
        printf '| %s | - | not at hand (%s) | | |\n' "$name" "$f"
        continue
    fi
    backends=ilp
    for l in $LEARNS; do backends="$backends|cp --learn $l"; done
    IFS='|' read -ra bs <<<"$backends"
    for b in "${bs[@]}"; do
        # shellcheck disable=SC2086
        "$ILPM" solve model "$f" --backend $b --time-limit "$LIMIT" \
            --format csv 2>/dev/null | awk -F, -v n="$name" -v b="$b" '
            NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
            { gsub(/"[^"]*"/, "Q") }
            { printf "| %s | %s | %s | %s | %.2f |\n", n, b, $h["status"],
                  $h["objective"], ($h["build_ms"] + $h["solve_ms"]) / 1000 }'
    done
done
fi

if want count; then
printf '\n| counting | learn | count | seconds |\n|---|---|--:|--:|\n'
for args in "langford --n 12" "queens --n 13"; do
    for l in auto on; do
        # shellcheck disable=SC2086
        "$ILPM" solve $args --count --backend cp --learn "$l" \
            --time-limit 120 --format csv 2>/dev/null | awk -F, -v a="$args" -v l="$l" '
            NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
            { gsub(/"[^"]*"/, "Q") }
            { printf "| %s | %s | %s | %.2f |\n", a, l, $h["count"],
                  ($h["build_ms"] + $h["solve_ms"]) / 1000 }'
    done
done
fi
