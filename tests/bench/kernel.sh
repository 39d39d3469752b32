#!/usr/bin/env bash
# The one propagation kernel (#26) against an older ilpm: the settling of
# givens before lowering (ilpm_model_propagate, units and probing) must
# give the same models and take no more than 10 % longer; cp must not
# slow down.  Run on demand, not by the test suite.
#
# Sections (ONLY, default all):
#  - settle: tests/bench/settle.c built against each tree's libilpm.a,
#    run on Sudoku (top95, top1465, 16x16, 25x25), queens completions,
#    Tetravex (the generated boards and 7x7 boards of `gen`), Machiavelli
#    (the data files and uniform tables of 2-8 decks) and Langford, at
#    --propagate units and probe, old and new interleaved ROUNDS times.
#    Prints whether each instance's settled model is the same (a digest of
#    every constraint) and the fastest total of each build;
#  - cp: `solve ... --backend cp` counting L(2,12) and queens 13, and the
#    45 uniform 4-deck Machiavelli tables of cp_learn.sh, interleaved;
#  - free: `solve queens --n 4000 --backend cp --time-limit 5`, wall time
#    (the engine's 64M occurrence lists freed after the limit).
#
# Usage: tests/bench/kernel.sh OLD_TREE [NEW_TREE]   (from the source root)
#   a TREE is a source folder with its build/ (build/ilpm, build/libilpm.a)
#   env: ROUNDS (default 3), REPS (settles per instance and round,
#        default 3), ONLY (of: settle cp free), TRIM=1 (glibc serves
#        every block from its heap and keeps what is freed there:
#        MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ set high for the
#        settle runs, so that their times are not those of mmap, trimming
#        and page faults between repetitions, which move them 2-20x either
#        way on this machine with the sizes of the blocks freed; the
#        trimming threshold alone fixes the mmap threshold at 128 KB, and
#        every larger block is mapped afresh each time).
set -u
OLD=$(realpath "$1")
NEW=$(realpath "${2:-.}")
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-3}
ONLY=${ONLY:-settle cp free}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
want() { case " $ONLY " in *" $1 "*) return 0 ;; esac; return 1; }

if want settle; then
if [ -n "${TRIM:-}" ]; then
    export MALLOC_TRIM_THRESHOLD_=1000000000 MALLOC_MMAP_THRESHOLD_=1000000000
fi
for t in old new; do
    tree=$OLD
    [ "$t" = new ] && tree=$NEW
    cc -O2 -I"$tree/src" -I"$tree/src/util" -I"$tree/src/run" \
        -o "$work/settle_$t" "$NEW/tests/bench/settle.c" \
        "$tree/build/libilpm.a" -lglpk -lcadical -lstdc++ -lm -lpthread ||
        exit 1
done
ilpm=$NEW/build/ilpm
"$ilpm" gen tetravex --n 7 --seed 1 --count 5 >"$work/tv7.txt" || exit 1
"$ilpm" gen tetravex --n 9 --seed 1 --count 3 >"$work/tv9.txt" || exit 1
for d in 2 4 8; do
    for per in 10 20 30 40 51; do
        "$ilpm" gen machiavelli --uniform --decks "$d" --cards $((per * d)) \
            --seed "$per" --count 3 >>"$work/m$d.txt" || exit 1
    done
done
# NAME|PUZZLE|FILE|PARAMS
cases=(
    "sudoku top95|sudoku|data/sudoku/norvig_top95.txt|"
    "sudoku top1465|sudoku|data/sudoku/magictour_top1465.txt|"
    "sudoku 16x16|sudoku|data/sudoku/gecode_16x16.txt|"
    "sudoku 25x25|sudoku|data/sudoku/gecode_25x25.txt|"
    "queens completion|queens|data/queens/completion.txt|"
    "tetravex 6x6 solvable|tetravex|data/tetravex/generated/6x6_solvable.txt|"
    "tetravex 7x7 unsolvable|tetravex|data/tetravex/generated/7x7_unsolvable.txt|"
    "tetravex 7x7 gen|tetravex|$work/tv7.txt|"
    "tetravex 9x9 gen|tetravex|$work/tv9.txt|"
    "machiavelli full|machiavelli|data/machiavelli/full.txt|"
    "machiavelli play|machiavelli|data/machiavelli/play.txt|play"
    "machiavelli 2 decks|machiavelli|$work/m2.txt|decks=2"
    "machiavelli 4 decks|machiavelli|$work/m4.txt|decks=4"
    "machiavelli 8 decks|machiavelli|$work/m8.txt|decks=8"
    "langford L(2,12)|langford|-|n=12"
    "queens 8|queens|-|n=8"
)
printf '\n| settle (level) | instances | same model | changed | old s | new s | new/old |\n'
printf '|---|--:|--:|--:|--:|--:|--:|\n'
for level in 1 2; do
    for c in "${cases[@]}"; do
        IFS='|' read -r name puzzle file params <<<"$c"
        [ "$file" = - ] || [ -e "$file" ] || continue
        # shellcheck disable=SC2086
        for r in $(seq "$ROUNDS"); do
            for t in old new; do
                "$work/settle_$t" "$level" "$REPS" "$puzzle" "$file" \
                    $params >"$work/out_${t}_$r" || exit 1
            done
        done
        best() {
            for r in $(seq "$ROUNDS"); do tail -1 "$work/out_$1_$r"; done |
                awk 'NR == 1 || $2 < b { b = $2 } END { printf "%.6f", b }'
        }
        o=$(best old)
        n=$(best new)
        same=$(paste -d' ' "$work/out_old_1" "$work/out_new_1" | grep '^#' |
            awk '{ h = NF / 2; s = 1; for (i = 2; i <= h; i++)
                   if ($i != $(i + h)) s = 0; same += s; diff += !s }
                 END { printf "%d %d %d", NR, same, diff }')
        read -r ninst nsame ndiff <<<"$same"
        printf '| %s (%s) | %d | %d | %d | %s | %s | %s |\n' "$name" \
            "$([ "$level" = 1 ] && echo units || echo probe)" "$ninst" \
            "$nsame" "$ndiff" "$o" "$n" \
            "$(awk -v o="$o" -v n="$n" 'BEGIN { if (o > 0) printf "%.2f", n / o; else print "-" }')"
    done
done
unset MALLOC_TRIM_THRESHOLD_ MALLOC_MMAP_THRESHOLD_
fi

# wall TREE CMD...: seconds of the command, its output dropped.
wall() {
    local tree=$1
    shift
    local t0 t1
    t0=$(date +%s.%N)
    "$tree/build/ilpm" "$@" >/dev/null 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}

# row NAME CMD...: the fastest of ROUNDS wall times of each tree,
# interleaved.
row() {
    local name=$1
    shift
    local o=999999 n=999999 x
    for _ in $(seq "$ROUNDS"); do
        x=$(wall "$OLD" "$@")
        o=$(awk -v a="$o" -v b="$x" 'BEGIN { print (b < a ? b : a) }')
        x=$(wall "$NEW" "$@")
        n=$(awk -v a="$n" -v b="$x" 'BEGIN { print (b < a ? b : a) }')
    done
    printf '| %s | %s | %s |\n' "$name" "$o" "$n"
}

if want cp; then
    file="$work/m4cp.txt"
    for per in 10 15 20 25 30 35 40 45 51; do
        "$NEW/build/ilpm" gen machiavelli --uniform --decks 4 \
            --cards $((per * 4)) --seed "$per" --count 5 >>"$file" || exit 1
    done
    printf '\n| cp (fastest of %s, wall s) | old | new |\n|---|--:|--:|\n' "$ROUNDS"
    row "count L(2,12)" solve langford --n 12 --count --backend cp
    row "count queens 13" solve queens --n 13 --count --backend cp
    row "Machiavelli 45 uniform 4-deck tables" solve machiavelli "$file" \
        --decks 4 --backend cp --time-limit 10
    row "Sudoku top95, --propagate none" solve sudoku \
        data/sudoku/norvig_top95.txt --backend cp --propagate none
fi

if want free; then
    printf '\n| queens 4000, cp, time limit 5 s (wall s) | old | new |\n|---|--:|--:|\n'
    ROUNDS=1 row "solve queens --n 4000 --backend cp --time-limit 5" \
        solve queens --n 4000 --backend cp --time-limit 5
fi
