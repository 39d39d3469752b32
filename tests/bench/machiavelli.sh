#!/usr/bin/env bash
# Machiavelli benchmark (run on demand, not by the test suite): full
# two-deck tables and generated tables of 4 to 8 decks, each solved with
# both formulations on both back ends; prints a Markdown table of times.
#
#   tests/bench/machiavelli.sh [ILPM] [SEEDS]
#
# ILPM defaults to build/ilpm, SEEDS (tables per row of the table) to 3.
# TIME_LIMIT (seconds per solve, default 60) bounds each run.
set -u

ilpm=${1:-build/ilpm}
seeds=${2:-3}
limit=${TIME_LIMIT:-60}
if [ ! -x "$ilpm" ]; then
    echo "machiavelli.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# planes+strong: the planes formulation with --strong (y >= x set rows).
forms="planes planes+strong melds"
backends="ilp sat"

# decks, cards, near-miss (0/1): all the cards of two decks (its near
# miss can only take a card out), then about half and all the cards of
# 4 to 8 decks.
configs="2 104 0
2 104 1
4 104 0
4 104 1
4 208 0
5 130 0
5 130 1
6 156 0
6 156 1
6 312 0
7 182 0
8 208 0
8 208 1
8 416 0"

# Sums per column for the last line: total ms and instances solved.
declare -A total_ms total_ok

printf '| decks | cards | near miss | seed |'
for f in $forms; do for b in $backends; do printf ' %s/%s |' "$f" "$b"; done; done
printf '\n|--:|--:|:-:|--:|'
for f in $forms; do for b in $backends; do printf -- '--:|'; done; done
printf '\n'

while read -r decks cards near; do
    for seed in $(seq 1 "$seeds"); do
        file="$work/d${decks}_n${cards}_m${near}_s${seed}.txt"
        extra=()
        [ "$near" = 1 ] && extra=(--near-miss)
        if ! "$ilpm" gen machiavelli --cards "$cards" --decks "$decks" \
            --seed "$seed" "${extra[@]}" >"$file" 2>"$work/err"; then
            echo "machiavelli.sh: gen failed: $(cat "$work/err")" >&2
            exit 1
        fi
        n=$(grep '^table:' "$file" | tr ' ' '\n' | grep -c '[HDSC]$')
        printf '| %s | %s | %s | %s |' "$decks" "$n" \
            "$([ "$near" = 1 ] && echo yes || echo no)" "$seed"
        for f in $forms; do
            for b in $backends; do
                flags=(--formulation "${f%+strong}")
                [ "$f" != "${f%+strong}" ] && flags+=(--strong)
                out=$("$ilpm" solve machiavelli "$file" --decks "$decks" \
                    "${flags[@]}" --backend "$b" --format json \
                    --time-limit "$limit" 2>"$work/err" | head -n 1)
                status=$(printf '%s' "$out" |
                    sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')
                ms=$(printf '%s' "$out" |
                    sed -n 's/.*"solve_ms":\([0-9.]*\).*/\1/p')
                if [ -z "$status" ] || [ -z "$ms" ]; then
                    printf ' error |'
                    continue
                fi
                printf ' %s %.1f ms |' "$status" "$ms"
                key="$f/$b"
                total_ms[$key]=$(awk -v a="${total_ms[$key]:-0}" -v b="$ms" \
                    'BEGIN { printf "%.3f", a + b }')
                case $status in
                solved | unsat | optimal) total_ok[$key]=$((${total_ok[$key]:-0} + 1)) ;;
                esac
            done
        done
        printf '\n'
    done
done <<<"$configs"

printf '| **total** | | | |'
for f in $forms; do
    for b in $backends; do
        key="$f/$b"
        printf ' %d answered, %.0f ms |' "${total_ok[$key]:-0}" \
            "${total_ms[$key]:-0}"
    done
done
printf '\n'
