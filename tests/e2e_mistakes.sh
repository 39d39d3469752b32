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

check() { # NAME CMD...: one command (or function) that must succeed
    local name=$1
    shift
    if "$@"; then ok; else bad "$name"; fi
}

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
mistake 2 "batch writes csv or json, not text" "$ILPM" batch queens data/queens/completion.txt --format text --out "$tmp/b.csv"
mistake 2 "--count does not go with export" \
    "$ILPM" export queens --n 8 --count --lp "$tmp/x.lp"
mistake 2 "--backend does not go with compare" "$ILPM" compare queens --n 6 --backend ilp
mistake 2 "--index picks an instance of a FILE" "$ILPM" solve queens --n 8 --index 2
mistake 2 "--limit goes with --count" "$ILPM" solve queens --n 8 --limit 2
mistake 2 "gen takes no FILE" "$ILPM" gen machiavelli $basic
mistake 2 "queens has no generator \(ilpm gen takes machiavelli, tetravex\)$" "$ILPM" gen queens --n 8
# A verb that takes some puzzles names just those.
mistake 2 "play needs a puzzle: one of machiavelli$" "$ILPM" play
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
mistake 2 "^ilpm: batch: FILE $basic is given twice \(its rows would share their keys" \
    "$ILPM" batch machiavelli $basic $basic --out "$tmp/twice.csv"
check "batch FILE twice: nothing written" [ ! -e "$tmp/twice.csv" ]
mistake 2 "^ilpm: --version takes no arguments \(got 'queens'\)$" \
    "$ILPM" --version queens
mistake 2 "^ilpm: --formulation: 'exact' given twice$" \
    "$ILPM" compare sudoku $top95 --formulation exact,exact
mistake 2 "^ilpm: --formulation: an empty name in 'exact,' \(give A or A,B\)$" \
    "$ILPM" compare sudoku $top95 --formulation exact,
mistake 2 "^ilpm: --formulation: an empty name in ',atmost'" \
    "$ILPM" compare sudoku $top95 --formulation ,atmost
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

# 7. The command line's contract (#27): every value that can be checked
# without an instance is checked once, before the first one.
# --sat-option on CaDiCaL's own table: one line, whatever the verb.
mistake 2 "^ilpm: --sat-option: CaDiCaL has no option 'nosuch'$" \
    "$ILPM" solve sudoku $top95 --backend sat --sat-option nosuch=1
mistake 2 "^ilpm: --sat-option: CaDiCaL has no option 'nosuch'$" \
    "$ILPM" compare sudoku $top95 --sat-option nosuch=1
mistake 2 "^ilpm: --sat-option: CaDiCaL has no option 'nosuch'$" \
    "$ILPM" solve sudoku $top95 --backend sat --sat-option nosuch=0
mistake 2 "^ilpm: --sat-option: CaDiCaL has no option 'nosuch'$" \
    "$ILPM" batch sudoku $top95 --backend both --sat-option nosuch=1 --out "$tmp/so.csv"
if [ -e "$tmp/so.csv" ]; then bad "batch --sat-option nosuch=1 wrote results"; else ok; fi
mistake 2 "--sat-option phase: '5' is too large \(at most 1\)" \
    "$ILPM" solve sudoku $top95 --backend sat --sat-option phase=5
mistake 2 "--sat-option phase: '99999999999999999999' is too large \(at most 1\)" \
    "$ILPM" solve sudoku $top95 --backend sat --sat-option phase=99999999999999999999
# A list option given again adds to it: the second name is checked too.
mistake 2 "CaDiCaL has no option 'nosuch'" \
    "$ILPM" solve sudoku $top95 --backend sat --sat-option phase=0 --sat-option nosuch=1
sat_options_add() {
    "$ILPM" solve queens --n 8 --backend sat --sat-option phase=0 --sat-option seed=3 >/dev/null
}
check "--sat-option given twice adds up" sat_options_add
# Options of one formulation, checked from the parameters.
mistake 2 "^ilpm: --redundant applies to --formulation atmost, not exact \(the default\)$" \
    "$ILPM" solve sudoku $top95 --redundant
mistake 2 "--redundant applies to --formulation atmost, not exact$" \
    "$ILPM" batch sudoku $top95 --redundant --formulation exact --out "$tmp/r.csv"
mistake 2 "--redundant applies to --formulation atmost, not all \(compare's default\)" \
    "$ILPM" compare sudoku $top95 --redundant
mistake 2 "--strong applies to --formulation planes, not flow$" \
    "$ILPM" solve machiavelli $basic --strong --formulation flow
mistake 2 "--deck-rows applies to --formulation planes, not melds$" \
    "$ILPM" solve machiavelli $basic --deck-rows --formulation melds
mistake 2 "--strong applies to --formulation planes, not flow,planes$" \
    "$ILPM" compare machiavelli $basic --strong --formulation flow,planes
# Alone, --strong and --deck-rows choose the planes, and say so.
strong_is_planes() {
    "$ILPM" solve machiavelli $basic --strong --index 1 --format json |
        grep -q '"formulation":"planes"' &&
        "$ILPM" batch machiavelli $basic --deck-rows --index 1 --out "$tmp/p.csv" >/dev/null &&
        grep -q "^machiavelli,.*,1,planes,ilp,solved" "$tmp/p.csv" &&
        "$ILPM" compare machiavelli $basic --strong --index 1 --format csv |
        tail -n +2 | cut -d, -f5 | sort -u | grep -qx planes
}
check "--strong and --deck-rows alone report planes" strong_is_planes

# An option of one back end given to another is refused, naming its own.
mistake 2 "^ilpm: --cuts applies to --backend ilp, not sat$" \
    "$ILPM" solve queens --n 8 --backend sat --cuts all
mistake 2 "^ilpm: --branch applies to --backend ilp, not cp$" \
    "$ILPM" solve queens --n 8 --backend cp --branch dive
mistake 2 "^ilpm: --amo applies to --backend sat, not ilp$" \
    "$ILPM" solve queens --n 8 --backend ilp --amo seq
mistake 2 "^ilpm: --lookahead applies to --backend cp, not ilp$" \
    "$ILPM" solve queens --n 8 --lookahead 3
mistake 2 "^ilpm: --sat-option applies to --backend sat, not ilp$" \
    "$ILPM" solve sudoku $top95 --sat-option phase=0
mistake 2 "^ilpm: --search applies to --backend cp, not both \(ilp and sat\)$" \
    "$ILPM" batch sudoku $top95 --backend both --search input --out "$tmp/b2.csv"
# ... but where several back ends run, each takes its own.
each_its_own() {
    "$ILPM" compare queens --n 6 --cuts all --amo seq --lookahead 2 --summary >/dev/null &&
        "$ILPM" batch sudoku $top95 --index 1 --backend all --cuts none --amo seq \
            --search input --out "$tmp/all.csv" >/dev/null
}
check "compare and batch --backend all take every back end's options" each_its_own

# An option given twice is refused, not overridden; lists add up.
mistake 2 "^ilpm: --n given twice$" "$ILPM" solve queens --n 8 --n 9
mistake 2 "^ilpm: --backend given twice$" "$ILPM" solve queens --n 8 --backend sat --backend cp
mistake 2 "^ilpm: --time-limit given twice$" "$ILPM" solve queens --n 8 --time-limit 1 --time-limit=2
mistake 2 "^ilpm: --formulation given twice$" "$ILPM" solve sudoku $top95 --formulation exact --formulation atmost
mistake 2 "--propagate given twice \(--no-propagate is --propagate none\)" \
    "$ILPM" solve queens --n 8 --no-propagate --propagate probe
mistake 2 "^ilpm: --out given twice$" "$ILPM" batch sudoku $top95 --out "$tmp/o1.csv" --out "$tmp/o2.csv"
sbatch_adds_up() {
    "$ILPM" batch sudoku $top95 --out "$tmp/sl.csv" --slurm 2 --sbatch --qos=a \
        --sbatch --mem=1G | grep -q -- "--qos=a" &&
        "$ILPM" batch sudoku $top95 --out "$tmp/sl.csv" --slurm 2 --sbatch --qos=a \
            --sbatch --mem=1G | grep -q -- "--mem=1G"
}
check "--sbatch given twice adds two lines" sbatch_adds_up

# Numbers: too large is called too large, with the text as given.
mistake 2 "^ilpm: --time-limit: '99999999999999999999' is too large \(at most 1000000000\)$" \
    "$ILPM" solve queens --n 8 --time-limit 99999999999999999999
mistake 2 "^ilpm: --time-limit: '1e308' is too large \(at most 1000000000\)$" \
    "$ILPM" solve queens --n 8 --time-limit 1e308
mistake 2 "--time-limit: 'inf' is too large \(at most 1000000000; leave --time-limit out for none\)" \
    "$ILPM" solve queens --n 8 --time-limit inf
mistake 2 "--time-limit: expected seconds > 0 \(a decimal number\), got 'nan'" \
    "$ILPM" solve queens --n 8 --time-limit nan
mistake 2 "--time-limit: expected seconds > 0 \(a decimal number\), got '0x10'" \
    "$ILPM" solve queens --n 8 --time-limit 0x10
mistake 2 "--time-limit: expected seconds > 0, got '-0'" \
    "$ILPM" solve queens --n 8 --time-limit -0
mistake 2 "^ilpm: --memory-limit: '99999999999999999999' is too large \(at most 1000000000\)$" \
    "$ILPM" batch sudoku $top95 --memory-limit 99999999999999999999 --out "$tmp/ml.csv"
mistake 2 "--n: '99999999999999999999' is too large \(at most 1000000\)" \
    "$ILPM" solve queens --n 99999999999999999999
mistake 2 "^ilpm: --n: '1001' is too large \(at most 1000\)$" \
    "$ILPM" solve langford --n 1001 --backend cp
mistake 2 "--max-vars: '99999999999999999999' is too large \(at most 1073741823\)" \
    "$ILPM" solve queens --n 8 --max-vars 99999999999999999999
mistake 2 "--index: '99999999999999999999' is too large \(at most" \
    "$ILPM" solve sudoku $top95 --index 99999999999999999999
mistake 2 "^ilpm: --shard: '99999999999999999999' is too large \(at most 1\)$" \
    "$ILPM" batch sudoku $top95 --out "$tmp/sh.csv" --shard 99999999999999999999/2
mistake 2 "^ilpm: --shard: expected I/N with 0 <= I < N, got '1/'$" \
    "$ILPM" batch sudoku $top95 --out "$tmp/sh.csv" --shard 1/
mistake 2 "--limit: expected an integer from 1 to .*, got '0x10'" \
    "$ILPM" solve queens --n 8 --count --limit 0x10

# 8. Exit codes under --format dimacs: the SAT competition's (10
# SATISFIABLE, 20 UNSATISFIABLE, 0 UNKNOWN) and the PB/MaxSAT
# evaluations' 30 for OPTIMUM FOUND; ilpm's own elsewhere.
printf 'p cnf 2 2\n1 2 0\n-1 0\n' >"$tmp/sat.cnf"
printf 'p cnf 1 2\n1 0\n-1 0\n' >"$tmp/unsat.cnf"
printf '* #variable= 2 #constraint= 1\nmin: +1 x1 +1 x2 ;\n+1 x1 +1 x2 >= 1 ;\n' >"$tmp/opt.opb"
"$ILPM" export queens --n 300 --cnf "$tmp/q300.cnf" 2>/dev/null
# exits CODE LINE ARGS...: ilpm ARGS ends with CODE, and LINE is on stdout.
exits() {
    local want=$1 line=$2
    shift 2
    "$ILPM" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -ne "$want" ]; then
        bad "ilpm $*: exit $got, want $want: $(head -c 200 "$tmp/err")"
    elif [ -n "$line" ] && ! grep -qx "$line" "$tmp/out"; then
        bad "ilpm $*: no line '$line' in: $(head -c 200 "$tmp/out")"
    else
        ok
    fi
}
exits 10 "s SATISFIABLE" solve model "$tmp/sat.cnf" --format dimacs
exits 20 "s UNSATISFIABLE" solve model "$tmp/unsat.cnf" --format dimacs
exits 30 "s OPTIMUM FOUND" solve model "$tmp/opt.opb" --format dimacs
exits 0 "s UNKNOWN" solve model "$tmp/q300.cnf" --format dimacs --time-limit 0.001
exits 20 "" solve model "$tmp/sat.cnf" "$tmp/unsat.cnf" --format dimacs
exits 2 "" solve model "$tmp/sat.cnf" "$tmp/missing.cnf" --format dimacs
exits 0 "" solve model "$tmp/sat.cnf"
exits 10 "" solve model "$tmp/unsat.cnf"
exits 0 "" solve model "$tmp/opt.opb"
exits 3 "" solve model "$tmp/q300.cnf" --time-limit 0.001
exits 10 "" solve model "$tmp/unsat.cnf" --format json

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

# A control byte where a reader stops (an escape sequence that would
# recolour the terminal) is shown escaped, \x1b, by every reader: one
# helper (ilpm_show) for all their messages.
E=$'\033[31mRED'
escd=$tmp/esc
mkdir "$escd"
printf '8\n1 %s\n' "$E" >"$escd/queens.txt"
printf '2 %s\n' "$E" >"$escd/langford.txt"
printf '3 4 %s\n' "$E" >"$escd/langford3.txt"
printf '%s\n' "$E" >"$escd/sudoku.txt"
printf '2\n1 2 3 %s\n' "$E" >"$escd/tetravex.txt"
printf 'table: 7H 8H 9H | hand: %s\n' "$E" >"$escd/machiavelli.txt"
printf -- '* #variable= 2 #constraint= 1\n+1 x1 +1 x2 %s 1 ;\n' "$E" >"$escd/model.opb"
printf 'p cnf 2 1\n1 %s 0\n' "$E" >"$escd/model.cnf"
printf 'Maximize\n obj: x %s\nEnd\n' "$E" >"$escd/model.lp"
printf 'NAME t\nROWS\n N obj %s\nEND\n' "$E" >"$escd/model.mps"
printf 'var x binary;\nmaximize o: x %s;\nend;\n' "$E" >"$escd/gmpl.mod"
no_escape_byte() { ! grep -q $'\033' "$tmp/err"; }
for f in queens.txt langford.txt langford3.txt sudoku.txt tetravex.txt machiavelli.txt \
    model.opb model.cnf model.lp model.mps gmpl.mod; do
    pz=${f%%[.0-9]*}
    mistake 2 "^ilpm: $escd/$f:[0-9:]+ .*(\\\\x1b|0x1B)" "$ILPM" solve "$pz" "$escd/$f"
    check "$f: no raw escape byte in the message" no_escape_byte
done
# So are the values of options.
mistake 2 "^ilpm: --n: expected an integer from 1 to 1000000, got '\\\\x1b\\[31mRED'$" "$ILPM" solve queens --n "$E"
check "--n: no raw escape byte in the message" no_escape_byte
mistake 2 "^ilpm: --backend: expected one of ilp, sat, cp, auto, got '\\\\x1b\\[31mRED'$" "$ILPM" solve queens --n 4 --backend "$E"
check "--backend: no raw escape byte in the message" no_escape_byte
mistake 2 "^ilpm: --time-limit: expected seconds > 0 \\(a decimal number\\), got '\\\\x1b\\[31mRED'$" "$ILPM" solve queens --n 4 --time-limit "$E"
check "--time-limit: no raw escape byte in the message" no_escape_byte

# fzn runs as solve model; its mistakes and its help name fzn, the verb
# typed, not the one behind it.
q6=data/fzn/queens6.fzn
mistake 2 "^ilpm: unknown option '--bogus' \\(see 'ilpm fzn --help'\\)$" "$ILPM" fzn --bogus $q6
mistake 2 "^ilpm: --out does not go with fzn " "$ILPM" fzn --out "$tmp/r.csv" $q6
"$ILPM" fzn $q6 --help >"$tmp/out" 2>&1
check "fzn FILE --help: fzn's own help" grep -q "^usage: ilpm fzn \\[FLAGS\\]" "$tmp/out"

# A back end's option given to --backend auto names auto (its members
# run settings of their own), not an empty set.
mistake 2 "^ilpm: --cp-alldiff applies to --backend cp, not auto " \
    "$ILPM" solve sudoku $top95 --index 1 --backend auto --cp-alldiff on
mistake 2 "^ilpm: --cuts applies to --backend ilp, not auto " \
    "$ILPM" solve queens --n 8 --backend auto --cuts all
# --threads and --seed set auto's members: with one back end they would
# do nothing, so they are refused, as --limit without --count is.
mistake 2 "^ilpm: --threads goes with --backend auto " \
    "$ILPM" solve queens --n 8 --backend sat --threads 2
mistake 2 "^ilpm: --threads goes with --backend auto " \
    "$ILPM" solve queens --n 8 --threads 2
mistake 2 "^ilpm: --seed goes with --backend auto " \
    "$ILPM" solve queens --n 8 --backend sat --seed 3
mistake 2 "^ilpm: --threads goes with --backend auto " \
    "$ILPM" batch queens data/queens/completion.txt --backend all --threads 2 --out "$tmp/t.csv"
# fzn's own flags are named as typed, not as the options behind them;
# -p N with --ilpm-backend B stays accepted (MiniZinc passes -p).
mistake 2 "^ilpm: fzn --ilpm-backend: expected one of ilp, sat, cp, auto, got 'foo'$" \
    "$ILPM" fzn --ilpm-backend foo $q6
mistake 2 "^ilpm: fzn -p: expected a whole number from 1 to 64, got '100'$" \
    "$ILPM" fzn -p 100 $q6
mistake 2 "^ilpm: fzn -t: expected a whole number from 1 to 1000000000000, got '5000000000000'$" \
    "$ILPM" fzn -t 5000000000000 $q6
# a flag given twice, or beside the option it stands for, named as typed
mistake 2 "^ilpm: fzn -t and --time-limit both given \\(-t is --time-limit\\)$" \
    "$ILPM" fzn -t 1000 --time-limit 2 $q6
mistake 2 "^ilpm: fzn -r and --seed both given \\(-r is --seed\\)$" \
    "$ILPM" fzn -r 1 --seed=2 -p 2 $q6
mistake 2 "^ilpm: fzn -t given twice$" "$ILPM" fzn -t 1000 -t 2000 $q6
fzn_p_with_backend() {
    "$ILPM" fzn -p 2 -r 3 --ilpm-backend sat $q6 | grep -q -- "^----------$"
}
check "fzn -p 2 -r 3 --ilpm-backend sat: runs sat" fzn_p_with_backend

# A MiniZinc model (.mzn, .dzn) given where FlatZinc is read: the parse
# error keeps its file:line:column and says how to run the model.
mzn=models/mzn/queens.mzn
mistake 2 "^ilpm: $mzn: a MiniZinc model: .*minizinc --solver ilpm" \
    "$ILPM" solve model $mzn
mistake 2 "^ilpm: $mzn:3:1: expected a type, found 'include' \(a MiniZinc model, not FlatZinc: .*minizinc --solver ilpm" \
    "$ILPM" fzn $mzn
mistake 2 "^ilpm: $mzn:3:1: .*minizinc --solver ilpm" "$ILPM" solve fzn $mzn

# Standard input is read once: '-' given twice as a FILE is refused before
# the first instance (it read the instances, then found the second '-'
# empty: an answer, then an error per '-').
mistake 2 "^ilpm: standard input \(-\) is given twice as a FILE; it can be read once$" \
    bash -c '"$0" solve sudoku - - --index 1 <"$1"' "$ILPM" $top95
mistake 2 "^ilpm: standard input \(-\) is given twice" \
    bash -c '"$0" batch sudoku - - --out - <"$1"' "$ILPM" $top95

# A model file of another format given to gmpl: GLPK's message, and which
# verb reads the file (as solve model says of a .mod).
mistake 2 "^ilpm: data/models/knapsack.lp:1: .* \(not MathProg: 'ilpm solve model FILE' reads lp files\)$" \
    "$ILPM" solve gmpl data/models/knapsack.lp
mistake 2 "^ilpm: $q6:1: .* \(not MathProg: 'ilpm solve model FILE' reads fzn files\)$" \
    "$ILPM" solve gmpl $q6
mistake 2 "^ilpm: $mzn:1: .*\(a MiniZinc model, not MathProg: .*minizinc --solver ilpm" \
    "$ILPM" solve gmpl $mzn

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
