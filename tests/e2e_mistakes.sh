#!/usr/bin/env bash
# The mistakes a new user makes in the first hour: each must end at once
# (well within a few seconds) with exit 2, one message on stderr and
# nothing on stdout.  Usage: e2e_mistakes.sh PATH/TO/ilpm (from the
# source root).
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"

top95=data/sudoku/norvig_top95.txt
basic=data/machiavelli/basic.txt

# mistake WANT_EXIT PATTERN CMD...: the command ends within 10 s with
# WANT_EXIT, exactly one line on stderr matching PATTERN, and an empty
# stdout.
mistake() {
    local want=$1 pat=$2
    shift 2
    timeout 10 "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$? lines
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -eq 124 ]; then
        bad "$*: did not end within 10 s"
    elif [ "$got" -ne "$want" ]; then
        bad "$*: exit $got, want $want; stderr: $(head -c 300 "$tmp/err")"
    elif [ "$lines" -ne 1 ]; then
        bad "$*: $lines lines on stderr, want 1: $(head -c 300 "$tmp/err")"
    elif ! grep -qE -- "$pat" "$tmp/err"; then
        bad "$*: no /$pat/ in: $(cat "$tmp/err")"
    elif [ -s "$tmp/out" ]; then
        bad "$*: stdout is not empty: $(head -c 200 "$tmp/out")"
    else
        ok
    fi
}

# 1. A bad option value with a file: once, on every verb, never a loop.
for verb in solve stats compare; do
    mistake 2 "--index 96 is past the last instance \(the file holds 95\)" \
        "$ILPM" $verb sudoku $top95 --index 96
    mistake 2 "--index: expected an integer from 1 to .*, got '0'" \
        "$ILPM" $verb sudoku $top95 --index 0
    mistake 2 "--index: expected an integer .*, got 'abc'" \
        "$ILPM" $verb sudoku $top95 --index abc
    mistake 2 "--decks: expected an integer from 1 to 8, got '0'" \
        "$ILPM" $verb machiavelli $basic --decks 0
done
mistake 2 "--index 96 is past" "$ILPM" export sudoku $top95 --index 96 --lp "$tmp/x.lp"
mistake 2 "--decks: expected" "$ILPM" export machiavelli $basic --decks 0 --lp "$tmp/x.lp"
mistake 2 "--decks: expected" "$ILPM" play machiavelli data/machiavelli/play.txt --decks 0
mistake 2 "--decks: expected" "$ILPM" batch machiavelli $basic --decks 0 --out "$tmp/b.csv"
if [ -e "$tmp/b.csv" ]; then bad "batch --decks 0 wrote a results file"; else ok; fi
# A batch records the bad --index as one error row and ends (exit 2).
timeout 20 "$ILPM" batch sudoku $top95 --index 96 --out "$tmp/i.csv" >/dev/null 2>&1
code=$?
if [ "$code" -eq 2 ] && [ "$(wc -l <"$tmp/i.csv")" -eq 2 ] &&
    grep -q ",error,.*--index 96 is past the last instance" "$tmp/i.csv"; then ok
else bad "batch --index 96: exit $code, $(wc -c <"$tmp/i.csv") bytes of results"; fi
# batch --slurm: its options checked before anything is written.
mistake 2 "go with --slurm N" "$ILPM" batch sudoku $top95 --out "$tmp/s.csv" --submit
mistake 2 "--slurm: expected an integer from 1" "$ILPM" batch sudoku $top95 --out "$tmp/s.csv" --slurm 0
mistake 2 "drop --shard" "$ILPM" batch sudoku $top95 --out "$tmp/s.csv" --slurm 2 --shard 0/2
mistake 2 "#SBATCH lines cannot carry" "$ILPM" batch sudoku $top95 --out "$tmp/a b.csv" --slurm 2
mistake 2 "--partition: expected one line" "$ILPM" batch sudoku $top95 --out "$tmp/s.csv" --slurm 2 --partition "a'b"
mistake 2 "did you mean '--slurm'" "$ILPM" batch sudoku $top95 --out "$tmp/s.csv" --slurmm 2
# --index picks the same instance for batch as for solve.
"$ILPM" batch sudoku $top95 --index 7 --out "$tmp/seven.csv" >/dev/null 2>&1
if [ "$(wc -l <"$tmp/seven.csv")" -eq 2 ] && grep -q "^sudoku,#7,$top95,7," "$tmp/seven.csv"; then ok
else bad "batch --index 7: $(cat "$tmp/seven.csv")"; fi

# 4. Mistakes once accepted in silence.
mistake 2 "--n gives the instance itself; it does not go with a FILE" \
    "$ILPM" solve queens data/queens/completion.txt --n 8
mistake 2 "--k gives the instance itself" \
    "$ILPM" solve langford data/langford/minizinc.txt --k 3
mistake 2 "--table gives the instance itself" \
    "$ILPM" solve machiavelli $basic --table "7H 8H 9H"
mistake 2 "--hand gives the instance itself" \
    "$ILPM" play machiavelli data/machiavelli/play.txt --hand "7H"
mistake 2 "queens has no play" "$ILPM" play queens --n 8
mistake 2 "--value goes with 'ilpm play machiavelli' only" \
    "$ILPM" solve machiavelli $basic --value
mistake 2 "--count does not go with play" \
    "$ILPM" play machiavelli data/machiavelli/play.txt --count
mistake 2 "stats writes text or json, not csv" "$ILPM" stats queens --n 8 --format csv
mistake 2 "--count does not go with export" \
    "$ILPM" export queens --n 8 --count --lp "$tmp/x.lp"
mistake 2 "--backend does not go with compare" "$ILPM" compare queens --n 6 --backend ilp
mistake 2 "--index picks an instance of a FILE" "$ILPM" solve queens --n 8 --index 2
mistake 2 "--limit goes with --count" "$ILPM" solve queens --n 8 --limit 2
mistake 2 "gen takes no FILE" "$ILPM" gen machiavelli $basic
mistake 2 "queens has no generator" "$ILPM" gen queens --n 8
mistake 2 "usage: ilpm merge --out RESULTS FILE" "$ILPM" merge --out "$tmp/m.csv"

# export writes one instance: a file of several is refused before
# anything is written; --index picks one of them.
mistake 2 "completion.txt holds more than one instance and export writes one: pick it with --index I" \
    "$ILPM" export queens data/queens/completion.txt --lp "$tmp/many.lp"
if [ -e "$tmp/many.lp" ]; then bad "export of many instances wrote a file"; else ok; fi
mistake 2 "export writes one instance: give one FILE" \
    "$ILPM" export queens data/queens/completion.txt data/queens/completion.txt --lp "$tmp/many.lp"
if "$ILPM" export queens data/queens/completion.txt --index 2 --lp "$tmp/two.lp" 2>"$tmp/err" &&
    grep -q "^Subject To" "$tmp/two.lp"; then ok
else bad "export --index 2: $(cat "$tmp/err")"; fi

# 5. A bad value is one message before anything runs (top95 holds 95
# instances: the message must not repeat per instance).
mistake 2 "--formulation: expected one of exact, atmost, got 'foo'" \
    "$ILPM" solve sudoku $top95 --formulation foo
mistake 2 "--formulation: sudoku has no formulation 'foo'" \
    "$ILPM" compare sudoku $top95 --formulation exact,foo
mistake 2 "--input-format: expected one of native, epita, motyak" \
    "$ILPM" solve tetravex data/tetravex/generated/3x3_solvable.txt --input-format x
mistake 2 "unknown option '--bakend'; did you mean '--backend'\?" \
    "$ILPM" solve queens --n 8 --bakend sat
mistake 2 "unknown option '--formulaton'; did you mean '--formulation'\?" \
    "$ILPM" solve sudoku $top95 --formulaton exact
mistake 2 "option --count takes no value" "$ILPM" solve queens --n 8 --count=3
mistake 2 "option --time-limit needs a value" "$ILPM" solve queens --n 8 --time-limit
mistake 2 "unknown puzzle 'queen'" "$ILPM" solve queen --n 8
mistake 2 "unknown verb 'slove'; did you mean 'solve'\?" "$ILPM" slove queens --n 8
mistake 2 "unknown verb 'frobnicate' \(the verbs: solve," "$ILPM" frobnicate queens
# The refusal of a model too large goes to stderr, as one line.
mistake 2 "queens n=100: the model needs more than 10 variables" \
    "$ILPM" solve queens --n 100 --max-vars 10

# 6. Exit codes: a file without an instance is an input error.
: >"$tmp/empty.txt"
printf '# only a comment\n\n' >"$tmp/comments.txt"
mistake 2 "empty.txt: no instance in the file" "$ILPM" solve sudoku "$tmp/empty.txt"
mistake 2 "comments.txt: no instance in the file" "$ILPM" solve sudoku "$tmp/comments.txt"
mistake 2 "no instance in the file" "$ILPM" solve sudoku - </dev/null
# A batch takes the most severe status over its rows, in solve's order.
"$ILPM" batch sudoku data/bad/sudoku_bad_character.txt $top95 --index 1 \
    --out "$tmp/bad.csv" >/dev/null 2>&1
code=$?
if [ "$code" -eq 2 ]; then ok; else bad "batch with a bad instance: exit $code, want 2"; fi
"$ILPM" batch machiavelli data/machiavelli/unsolvable.txt --out "$tmp/u.csv" >/dev/null 2>&1
code=$?
if [ "$code" -eq 10 ]; then ok; else bad "batch of unsat tables: exit $code, want 10"; fi
"$ILPM" batch machiavelli $basic --out "$tmp/ok.csv" >/dev/null 2>&1
code=$?
if [ "$code" -eq 0 ]; then ok; else bad "batch of solvable tables: exit $code, want 0"; fi

# A UTF-8 byte-order mark (some Windows editors write one) is no mistake:
# every reader skips it at the start of a file, GLPK's LP and MPS
# readers too (they read a copy without it).  tests/data/bom/ holds one
# file of each format that starts with a mark.
bomd=tests/data/bom
bom() { # NAME CMD...: CMD exits 0 with nothing on stderr
    "${@:2}" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq 0 ] && [ ! -s "$tmp/err" ]; then ok; else bad "$1: exit $got: $(head -c 300 "$tmp/err")"; fi
}
for p in queens sudoku langford machiavelli; do
    bom "BOM: $p" "$ILPM" solve $p $bomd/$p.txt
done
bom "BOM: tetravex native" "$ILPM" solve tetravex $bomd/tetravex.txt --input-format native
B=$'\xef\xbb\xbf'
{ printf '%s' "$B"; cat data/tetravex/avignon_motyak/2x2.txt; } >"$tmp/motyak.txt"
bom "BOM: tetravex motyak" "$ILPM" solve tetravex "$tmp/motyak.txt" --input-format motyak
{ printf '%s' "$B"; cat data/tetravex/epita_cmkv_drguigui1/base_cases/12_5x5; } >"$tmp/epita.txt"
bom "BOM: tetravex epita" "$ILPM" solve tetravex "$tmp/epita.txt" --input-format epita
for f in lp mps opb cnf; do
    bom "BOM: model.$f" "$ILPM" solve model $bomd/model.$f
    bom "BOM: model.$f on standard input" "$ILPM" solve model - --input-format $f <$bomd/model.$f
done
"$ILPM" batch queens $bomd/queens.txt --out - --jobs 1 >"$tmp/out" 2>/dev/null
check "BOM: batch" grep -q "^queens,n=8 .*,solved,true," "$tmp/out"
"$ILPM" merge --out "$tmp/plain.csv" tests/data/results_sample.csv
bom "BOM: merge of a results file" "$ILPM" merge --out "$tmp/bom.csv" $bomd/results.csv
check "BOM: merge reads the header" cmp -s "$tmp/plain.csv" "$tmp/bom.csv"
# Columns count from after the mark, as an editor shows them.
printf '%s 0\n' "$B" >"$tmp/bomq.txt"
mistake 2 "bomq.txt:1:2: board size 0" "$ILPM" solve queens "$tmp/bomq.txt"
printf '%sx\n' "$B" >"$tmp/bomx.txt"
mistake 2 "bomx.txt:1:1: expected a number, got 'x'" "$ILPM" solve queens "$tmp/bomx.txt"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
