#!/usr/bin/env bash
# Every generator mode piped into its puzzle's reader: `ilpm gen` either
# refuses (exit 2, one message) or writes instances that `solve` or `play`
# reads with the matching options and answers (exit 0 or 10, never 2).
# Usage: e2e_gen.sh PATH/TO/ilpm   (run from the source root)
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"


# pipe "GEN OPTIONS" VERB PUZZLE "READ OPTIONS": gen, then read its output.
pipe() {
    local gen=$1 verb=$2 puzzle=$3 read=$4 code
    # shellcheck disable=SC2086
    "$ILPM" gen "$puzzle" $gen >"$tmp/gen.txt" 2>"$tmp/gen.err"
    code=$?
    if [ "$code" -ne 0 ]; then
        bad "gen $puzzle $gen: exit $code: $(cat "$tmp/gen.err")"
        return
    fi
    if [ ! -s "$tmp/gen.txt" ]; then
        bad "gen $puzzle $gen: no output"
        return
    fi
    # What is read matters here, not the back end: CaDiCaL, the faster on
    # the largest boards.
    local be=(--backend sat)
    [ "$verb" = stats ] && be=()
    # A back end the caller names is the one: an option is given once.
    [[ " $read " == *" --backend "* ]] && be=()
    # shellcheck disable=SC2086
    "$ILPM" "$verb" "$puzzle" - "${be[@]}" $read <"$tmp/gen.txt" >"$tmp/out" 2>"$tmp/err"
    code=$?
    if [ "$code" -eq 0 ] || [ "$code" -eq 10 ]; then
        ok
    else
        bad "gen $puzzle $gen | $verb $puzzle - $read: exit $code: $(head -c 300 "$tmp/err")"
    fi
}

# refuse "GEN OPTIONS" PATTERN: gen must exit 2, naming what it refuses.
refuse() {
    local gen=$1 want=$2 code
    # shellcheck disable=SC2086
    "$ILPM" gen $gen >"$tmp/gen.txt" 2>"$tmp/gen.err"
    code=$?
    if [ "$code" -ne 2 ]; then
        bad "gen $gen: exit $code, want 2"
    elif [ -s "$tmp/gen.txt" ]; then
        bad "gen $gen: refused but wrote output"
    elif ! grep -qE -- "$want" "$tmp/gen.err"; then
        bad "gen $gen: no /$want/ in: $(cat "$tmp/gen.err")"
    else
        ok
    fi
}

# Machiavelli: tables from the smallest to every card of D decks, with and
# without hands (up to the whole stock), near misses, tables as laid and
# the run variants.  ILPM_TEST_QUICK (CI's sanitizer pass) leaves out 3
# decks and the tables of all but two cards.
decks="1 2 3 8"
[ -n "${ILPM_TEST_QUICK:-}" ] && decks="1 2 8"
for d in $decks; do
    all=$((52 * d))
    variants=("")
    [ "$d" -le 2 ] && variants=("" --ace-high --wrap)
    sizes="3 $((all / 2)) $((all - 2)) $all"
    [ -n "${ILPM_TEST_QUICK:-}" ] && sizes="3 $((all / 2)) $all"
    for cards in $sizes; do
        for near in "" --near-miss --laid; do
            for var in "${variants[@]}"; do
                g="--decks $d --cards $cards --seed $((d + cards)) --count 3 $near $var"
                pipe "$g" solve machiavelli "--decks $d $var"
                # A hand of one card and the largest hand the table leaves.
                left=$((all - cards))
                if [ "$near" = --near-miss ] && [ "$cards" -lt "$all" ]; then
                    left=$((left - 1))
                fi
                for hand in 1 "$left"; do
                    if [ "$hand" -ge 1 ] && [ "$hand" -le "$left" ]; then
                        pipe "$g --hand $hand" play machiavelli "--decks $d $var"
                    fi
                done
            done
        done
    done
done
# --uniform: exactly N cards drawn from the decks (so at most D copies
# of a card), read back by solve and play, and by both back ends.
for d in 1 2 4 8; do
    for cards in 3 $((10 * d)) $((52 * d - 1)) $((52 * d)); do
        g="--uniform --decks $d --cards $cards --seed $((d * cards)) --count 3"
        for b in sat ilp; do
            pipe "$g" solve machiavelli "--decks $d --backend $b"
        done
        if [ "$cards" -lt $((52 * d)) ]; then
            pipe "$g --hand $((52 * d - cards))" play machiavelli "--decks $d"
        fi
        # shellcheck disable=SC2086
        "$ILPM" gen machiavelli $g >"$tmp/gen.txt" 2>/dev/null
        # Per table: the cards, and the most copies of one card.
        got=$(awk '{ delete c; n = 0; m = 0
            for (i = 2; i <= NF; i++) if (++c[$i] > m) m = c[$i]
            print NF - 1, m }' "$tmp/gen.txt" | sort -u)
        over=$(printf '%s\n' "$got" | awk -v d="$d" '$2 > d' | wc -l)
        got=$(printf '%s\n' "$got" | awk '{ print $1 }' | sort -u)
        if [ "$got" = "$cards" ] && [ "$over" -eq 0 ]; then
            ok
        else
            bad "gen machiavelli $g: $got cards a table (want $cards), $over cards over $d copies"
        fi
    done
done
# Two seeds give two different tables; one seed, the same table.
a=$("$ILPM" gen machiavelli --uniform --cards 40 --seed 1)
b=$("$ILPM" gen machiavelli --uniform --cards 40 --seed 2)
c=$("$ILPM" gen machiavelli --uniform --cards 40 --seed 1)
if [ "$a" != "$b" ] && [ "$a" = "$c" ]; then ok; else bad "gen --uniform: seeds"; fi
refuse "machiavelli --uniform --laid" "--uniform: .*drop --laid"
refuse "machiavelli --uniform --near-miss" "--uniform: .*drop --near-miss"
refuse "machiavelli --uniform --cards 105 --decks 2" "--cards: 105 is more than the 104 cards"
refuse "machiavelli --uniform --cards 100 --hand 5" "--hand: cannot deal 5"
refuse "machiavelli --cards 200 --decks 2" "--cards: 200 is more than the 104 cards"
refuse "machiavelli --cards 104 --decks 2 --hand 5" "--hand: cannot deal 5"
refuse "machiavelli --cards 100 --hand 4 --near-miss" "--hand: cannot deal 4"
refuse "machiavelli --cards 2" "--cards"
refuse "machiavelli --laid --near-miss" "--laid: a near miss breaks a meld"
refuse "machiavelli --decks 9" "--decks"

# Tetravex: each input format, one board and several, the digit range,
# unsolvable boards.
for fmt in native epita motyak; do
    for n in 1 2 3 5; do
        for digits in 1 2 10; do
            pipe "--n $n --digits $digits --seed $n --input-format $fmt" \
                solve tetravex "--input-format $fmt"
        done
        [ "$fmt" = epita ] ||
            pipe "--n $n --count 3 --input-format $fmt" solve tetravex "--input-format $fmt"
        [ "$n" -ge 2 ] &&
            pipe "--n $n --unsolvable --seed 2 --input-format $fmt" \
                solve tetravex "--input-format $fmt"
    done
    # The largest board is only read and built, not solved.
    pipe "--n 20 --input-format $fmt" stats tetravex "--input-format $fmt"
done
refuse "tetravex --n 3 --count 2 --input-format epita" "--count"
refuse "tetravex --n 1 --unsolvable" "--unsolvable"
refuse "tetravex --n 21" "--n"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
