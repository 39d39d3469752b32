#!/usr/bin/env bash
# Machiavelli on uniform random tables (run on demand, not by the test
# suite): `gen machiavelli --uniform` tables of 2, 4 and 8 decks, from
# 10*D to 51*D cards, each decided by every formulation on both back
# ends.  Prints a Markdown table: per deck count, formulation and back
# end, the tables solved / unsat / timed out, the largest time (build +
# solve) and how many tables took over 1 s.  Then `play --value` on 8
# decks (300-card tables and hands of 78: 378 cards), dealt melds and
# uniform draws, 3 seeds each, per formulation on ILP.
#
#   tests/bench/machiavelli_uniform.sh [ILPM] [TABLES]
#
# ILPM defaults to build/ilpm, TABLES (tables per card count) to 5.
# TIME_LIMIT (seconds per table, default 20) bounds each solve; DECKS,
# FORMS ("planes melds ..." or "planes+--strong" for extra options, '+'
# between them) and BACKENDS choose the rows.
set -u

ilpm=${1:-build/ilpm}
tables=${2:-5}
limit=${TIME_LIMIT:-20}
decks_list=${DECKS:-"2 4 8"}
forms=${FORMS:-"flow planes melds"}
backends=${BACKENDS:-"ilp sat"}
if [ ! -x "$ilpm" ]; then
    echo "machiavelli_uniform.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

printf '| decks | tables | formulation | backend | solved | unsat | timeout | max s | over 1 s |\n'
printf '|--:|--:|---|---|--:|--:|--:|--:|--:|\n'
for d in $decks_list; do
    file="$work/d$d.txt"
    : >"$file"
    for per in 10 15 20 25 30 35 40 45 51; do
        if ! "$ilpm" gen machiavelli --uniform --decks "$d" \
            --cards $((per * d)) --seed "$per" --count "$tables" \
            >>"$file" 2>"$work/err"; then
            echo "machiavelli_uniform.sh: gen failed: $(cat "$work/err")" >&2
            exit 1
        fi
    done
    n=$(grep -c '^table:' "$file")
    for f in $forms; do
        # shellcheck disable=SC2206
        parts=(${f//+/ })
        for b in $backends; do
            "$ilpm" solve machiavelli "$file" --decks "$d" \
                --formulation "${parts[0]}" "${parts[@]:1}" --backend "$b" \
                --format json --time-limit "$limit" >"$work/out" \
                2>"$work/err"
            awk -v d="$d" -v n="$n" -v f="$f" -v b="$b" '
                function num(key,   m) {
                    if (match($0, "\"" key "\":[0-9.]+")) {
                        m = substr($0, RSTART, RLENGTH)
                        sub(/.*:/, "", m)
                        return m + 0
                    }
                    return 0
                }
                /"status"/ {
                    st = $0
                    sub(/.*"status":"/, "", st)
                    sub(/".*/, "", st)
                    cnt[st]++
                    t = (num("build_ms") + num("solve_ms")) / 1000
                    if (t > max) max = t
                    if (t > 1) over++
                    if (st == "solved" && $0 !~ /"verified":true/) unver++
                }
                END {
                    printf "| %s | %s | %s | %s | %d | %d | %d | %.2f | %d |", \
                        d, n, f, b, cnt["solved"], cnt["unsat"], \
                        cnt["timeout"], max, over
                    if (unver) printf " %d NOT VERIFIED", unver
                    printf "\n"
                }' "$work/out"
        done
    done
done

printf '\n| play --value, 8 decks | formulation | backend | optimal | max s | over 2 s |\n'
printf '|---|---|---|--:|--:|--:|\n'
for kind in dealt uniform; do
    file="$work/play_$kind.txt"
    extra=()
    [ "$kind" = uniform ] && extra=(--uniform)
    "$ilpm" gen machiavelli "${extra[@]}" --decks 8 --cards 300 --hand 78 \
        --seed 1 --count 3 >"$file" || exit 1
    for f in $forms; do
        # shellcheck disable=SC2206
        parts=(${f//+/ })
        "$ilpm" play machiavelli "$file" --decks 8 --value \
            --formulation "${parts[0]}" "${parts[@]:1}" --backend ilp \
            --format json --time-limit "$limit" >"$work/out" 2>"$work/err"
        awk -v k="$kind" -v f="$f" '
            function num(key,   m) {
                if (match($0, "\"" key "\":[0-9.]+")) {
                    m = substr($0, RSTART, RLENGTH)
                    sub(/.*:/, "", m)
                    return m + 0
                }
                return 0
            }
            /"status"/ {
                if ($0 ~ /"status":"optimal"/ && $0 ~ /"verified":true/) opt++
                t = (num("build_ms") + num("solve_ms")) / 1000
                if (t > max) max = t
                if (t > 2) over++
            }
            END { printf "| %s (3 tables) | %s | ilp | %d | %.2f | %d |\n", k, f, opt, max, over }' "$work/out"
    done
done
