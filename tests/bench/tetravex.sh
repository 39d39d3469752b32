#!/usr/bin/env bash
# Tetravex: the largest board each formulation and back end solves within
# a time limit, on generated boards (3 seeds per size, digits 0-9).
#
#   tests/bench/tetravex.sh PATH/TO/ilpm [MAX_N] [SECONDS]
#
# For each formulation (FORMS, default assign, conflict, edges, assign+diag
# and edges+diag, where +diag adds --diag, and likewise +redundant) and back
# end (BACKENDS, default ilp and sat),
# sizes grow from 3 until one of the three boards of a size is not solved
# within SECONDS (default 10) or MAX_N (default 20) is passed.  Prints a
# Markdown table: the largest N whose three boards all solved, the slowest
# of the three solve times there, and how the next size fared.  Run on
# demand; not part of `meson test`.
set -u
ilpm=${1:?usage: tetravex.sh PATH/TO/ilpm [MAX_N] [SECONDS]}
max_n=${2:-20}
limit=${3:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Building the model is outside --time-limit; a hard stop keeps a board
# whose model is too large from holding the bench up.
hard=$((limit * 3 + 30))

board() { # n seed -> file
    local f=$tmp/tvx_$1_$2.txt
    [ -f "$f" ] || "$ilpm" gen tetravex --n "$1" --seed "$2" >"$f" || exit 2
    echo "$f"
}

# Prints "ms" for a verified solve, "-" otherwise.
solve_ms() { # file formulation[+flag...] backend
    local out extra=() flag rest=${2#*+}
    if [[ $2 == *+* ]]; then
        for flag in ${rest//+/ }; do extra+=("--$flag"); done
    fi
    out=$(timeout -k 5 "$hard" "$ilpm" solve tetravex "$1" \
        --formulation "${2%%+*}" "${extra[@]}" \
        --backend "$3" --time-limit "$limit" --format json 2>/dev/null)
    if [[ $out == *'"status":"solved"'* && $out == *'"verified":true'* ]]; then
        sed -n 's/.*"solve_ms":\([0-9.]*\).*/\1/p' <<<"$out"
    else
        echo -
    fi
}

echo "Tetravex: largest N with all 3 generated boards (seeds 1-3) solved" \
    "within ${limit} s ($(date -u +%Y-%m-%d), $("$ilpm" --version))"
echo
echo "| formulation | back end | largest N | slowest at N (s) | next N |"
echo "|---|---|---:|---:|---|"
for form in ${FORMS:-assign conflict edges assign+diag edges+diag}; do
    for be in ${BACKENDS:-ilp sat}; do
        best=- slowest=- next=-
        for ((n = 3; n <= max_n; n++)); do
            solved=0 worst=0
            for seed in 1 2 3; do
                ms=$(solve_ms "$(board $n $seed)" $form $be)
                [ "$ms" = - ] && continue
                solved=$((solved + 1))
                worst=$(awk -v a="$worst" -v b="$ms" 'BEGIN{print (b>a)?b:a}')
            done
            if [ $solved -lt 3 ]; then
                next="$n: $solved/3 solved"
                break
            fi
            best=$n
            slowest=$(awk -v m="$worst" 'BEGIN{printf "%.2f", m/1000}')
        done
        echo "| $form | $be | $best | $slowest | $next |"
    done
done
