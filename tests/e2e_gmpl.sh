#!/usr/bin/env bash
# The `gmpl` puzzle: MathProg models translated by GLPK.  The five puzzle
# models of models/gmpl against the built-in C models (status, counts of
# small instances), the model's own output after the solve (text, not
# JSON), objectives on every back end, translator errors with file:line,
# continuous variables refused by name, batch and compare over data
# files, and GLPK's own example models where glpk-utils is installed.
# Usage: e2e_gmpl.sh PATH/TO/ilpm
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"
# Models write files relative to the current directory (pbn.mod its
# solution.ps, the test's own out.txt): run in the scratch folder.
src=$(pwd)
G=$src/models/gmpl
ILPM=$(cd "$(dirname "$ILPM")" && pwd)/$(basename "$ILPM")
mkdir -p "$tmp/run" && cd "$tmp/run" || exit 1

# run NAME WANT-EXIT CMD... : stdout in $out, stderr in $err.
run() {
    local name=$1 want=$2
    shift 2
    out=$("$@" 2>"$tmp/stderr")
    local rc=$?
    err=$(cat "$tmp/stderr")
    if [ "$rc" -eq "$want" ]; then ok; else bad "$name: exit $rc, want $want: $err"; fi
    [ "$rc" -eq "$want" ]
}
has() { # NAME TEXT PATTERN
    if grep -qF -- "$3" <<<"$2"; then ok; else bad "$1: no '$3' in: $2"; fi
}
matches() { # NAME TEXT EXTENDED-REGEX
    if grep -qE -- "$3" <<<"$2"; then ok; else bad "$1: no /$3/ in: $2"; fi
}
hasnt() { # NAME TEXT PATTERN
    if grep -qF -- "$3" <<<"$2"; then bad "$1: '$3' in: $2"; else ok; fi
}
# The count of a --format json result line.
count_of() { sed -n 's/.*"count":\([0-9]*\).*/\1/p' <<<"$1" | head -1; }
same() { # NAME GOT WANT
    if [ -n "$2" ] && [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}

# --- the issue's example: the model's own grid and a verified status --
run "sudoku sat" 0 "$ILPM" solve gmpl $G/sudoku.mod --data $G/sudoku.dat --backend sat &&
    has "sudoku sat" "$out" "solved, verified" &&
    has "sudoku sat grid" "$out" "4 1 7 3 6 9 8 2 5"
run "sudoku json" 0 "$ILPM" solve gmpl $G/sudoku.mod --data $G/sudoku.dat --format json &&
    hasnt "sudoku json keeps the model's output out" "$out" "4 1 7 3 6 9 8 2 5" &&
    has "sudoku json" "$out" '"true":["x[1,1,4]"'

# --- the five puzzles against the built-in models -------------------
for b in ilp sat cp; do
    run "queens 8 $b" 0 "$ILPM" solve gmpl $G/queens.mod $G/queens8.dat --count --backend $b --format json
    gq=$(count_of "$out")
    run "queens 8 built-in $b" 0 "$ILPM" solve queens --n 8 --count --backend $b --format json
    same "queens 8 count $b" "$gq" "$(count_of "$out")"
done
for kn in "2 7" "3 9"; do
    set -- $kn
    run "langford $1 $2" 0 "$ILPM" solve gmpl $G/langford.mod $G/langford_$1_$2.dat --count --backend sat --format json
    gl=$(count_of "$out")
    run "langford $1 $2 built-in" 0 "$ILPM" solve langford --k $1 --n $2 --count --backend sat --format json
    same "langford $1 $2 count" "$gl" "$(count_of "$out")"
done
echo "1.....1..1.....1" >"$tmp/s4.txt"
run "sudoku 4x4" 0 "$ILPM" solve gmpl $G/sudoku.mod --data $G/sudoku4.dat --count --format json
gs=$(count_of "$out")
run "sudoku 4x4 built-in" 0 "$ILPM" solve sudoku "$tmp/s4.txt" --count --format json
same "sudoku 4x4 count" "$gs" "$(count_of "$out")"
awk 'BEGIN {RS = ""} NR == 1' "$src/data/tetravex/generated/3x3_solvable.txt" >"$tmp/t3.txt"
run "tetravex 3x3" 0 "$ILPM" solve gmpl $G/tetravex.mod $G/tetravex3.dat --count --format json
gt=$(count_of "$out")
run "tetravex 3x3 built-in" 0 "$ILPM" solve tetravex "$tmp/t3.txt" --count --format json
same "tetravex 3x3 count" "$gt" "$(count_of "$out")"
printf 'table: AH 2H 3H 7H 7S 7C\ntable: 3C 4C 5C 6C 7C 8C 9C 3D 3H 8D 8H 8S\n' >"$tmp/m.txt"
run "machiavelli built-in" 0 "$ILPM" solve machiavelli "$tmp/m.txt"
for b in ilp sat cp; do
    run "machiavelli $b" 0 "$ILPM" solve gmpl $G/machiavelli.mod $G/machiavelli_run_set.dat \
        $G/machiavelli_long_run.dat --backend $b &&
        has "machiavelli $b" "$out" "run: 4C 5C 6C 7C 8C 9C"
done
# An unsolvable sudoku: two 1s in a row.
printf 'data; param b := 2; param given := [1,1] 1 [1,2] 1; end;\n' >"$tmp/two.dat"
for b in ilp sat cp; do
    run "sudoku unsat $b" 10 "$ILPM" solve gmpl $G/sudoku.mod --data "$tmp/two.dat" --backend $b
done

# --- objectives, output statements, data --------------------------------
cat >"$tmp/obj.mod" <<'EOF'
set S := {'a', 'b'};
param w{1..3, S} integer, default 1;
var x{1..3, S} binary;
s.t. pick{i in 1..3}: sum{s in S} x[i, s] <= 1;
s.t. two: sum{i in 1..3, s in S} x[i, s] <= 2;
maximize gain: sum{i in 1..3, s in S} w[i, s] * x[i, s];
printf "generated\n";
solve;
printf "gain %d\n", gain;
printf "%d\n", sum{i in 1..3, s in S} x[i, s] > "out.txt";
end;
EOF
printf 'data; param w := [1,a] 5 [2,b] 7 [3,a] 2; end;\n' >"$tmp/obj.dat"
for b in ilp sat cp; do
    run "objective $b" 0 "$ILPM" solve gmpl "$tmp/obj.mod" --data "$tmp/obj.dat" --backend $b &&
        has "objective $b" "$out" "optimal, verified, objective 12" &&
        has "objective $b output" "$out" "gain 12"
done
run "objective json" 0 "$ILPM" solve gmpl "$tmp/obj.mod" --data "$tmp/obj.dat" --format json &&
    hasnt "objective json" "$out" "gain 12"
written_here() { (cd "$tmp" && rm -f out.txt && "$ILPM" solve gmpl obj.mod --data obj.dat >/dev/null && [ "$(cat out.txt)" = 2 ]); }
if written_here; then ok; else bad "printf > file: out.txt not written in the current directory"; fi
# --data twice, in order: the second file gives what the first does not.
printf 'data; param k := 2; end;\n' >"$tmp/k.dat"
printf 'data; param n := 4; end;\n' >"$tmp/n.dat"
run "two data files" 0 "$ILPM" solve gmpl $G/langford.mod --data "$tmp/k.dat" --data "$tmp/n.dat" --count &&
    has "two data files" "$out" "count 2"
# No solution, no output: an unsat model prints no output of its own.
run "feasibility count" 0 "$ILPM" solve gmpl "$tmp/obj.mod" --data "$tmp/obj.dat" --count
has "count of a model with an objective" "$out" "count"

# --- errors ---------------------------------------------------------------
printf 'var x binary;\ns.t. c: x >= 1\nminimize z: x;\nend;\n' >"$tmp/syntax.mod"
run "syntax error" 2 "$ILPM" solve gmpl "$tmp/syntax.mod" &&
    has "syntax error" "$err" "$tmp/syntax.mod:3: syntax error"
printf "set S := {'a', 'b'};\nvar x{1..3, S} >= 0, <= 4;\ns.t. c: sum{i in 1..3, s in S} x[i, s] >= 1;\nend;\n" >"$tmp/cont.mod"
run "continuous" 2 "$ILPM" solve gmpl "$tmp/cont.mod" &&
    has "continuous" "$err" "variable x[1,a] is continuous"
run "missing data" 2 "$ILPM" solve gmpl $G/queens.mod &&
    has "missing data" "$err" "models/gmpl/queens.mod:5: no value for n"
run "missing data file" 2 "$ILPM" solve gmpl $G/queens.mod --data "$tmp/none.dat"
has "missing data file" "$err" "none.dat"
printf 'data; param n := x; end;\n' >"$tmp/badval.dat"
run "bad data" 2 "$ILPM" solve gmpl $G/queens.mod --data "$tmp/badval.dat" &&
    has "bad data" "$err" "badval.dat:1:"
printf 'var x{1..2} integer, >= 0, <= 5;\ns.t. c: x[1] + x[2] = 7;\nmaximize z: x[1];\nend;\n' >"$tmp/int.mod"
run "integer refused" 2 "$ILPM" solve gmpl "$tmp/int.mod" && has "integer refused" "$err" "--int-encoding"
for b in ilp sat cp; do
    run "integer encoded $b" 0 "$ILPM" solve gmpl "$tmp/int.mod" --int-encoding binary --backend $b &&
        has "integer encoded $b" "$out" "optimal, verified, objective 5"
done

# --- stats, export, compare, batch over data files ------------------------
run "stats" 0 "$ILPM" stats gmpl $G/queens.mod --data $G/queens8.dat && has "stats" "$out" "exo"
run "stats json" 0 "$ILPM" stats gmpl $G/queens.mod --data $G/queens8.dat --format json &&
    has "stats json rows by name" "$out" '"name":"diag[-6]"'
run "export" 0 "$ILPM" export gmpl $G/queens.mod --data $G/queens8.dat --lp "$tmp/q.lp"
run "export read back" 0 "$ILPM" solve model "$tmp/q.lp" --count && has "export read back" "$out" "count 92"
run "compare" 0 "$ILPM" compare gmpl $G/tetravex.mod --data $G/tetravex3.dat &&
    has "compare" "$out" "agreement: yes"
run "batch" 0 "$ILPM" batch gmpl $G/langford.mod $G/langford_2_7.dat $G/langford_3_9.dat \
    --backend sat --jobs 2 --out "$tmp/r.csv"
batch_rows() { grep -c "langford_2_7.dat\|langford_3_9.dat" "$tmp/r.csv"; }
same "batch rows name the data files" "$(batch_rows)" 2
run "batch resume" 0 "$ILPM" batch gmpl $G/langford.mod $G/langford_2_7.dat $G/langford_3_9.dat \
    --backend sat --resume --out "$tmp/r.csv"
same "batch resume adds nothing" "$(batch_rows)" 2
run "batch --model" 0 "$ILPM" batch gmpl --model $G/langford.mod $G/langford_2_7.dat \
    --out "$tmp/r2.json"
has "batch --model" "$(cat "$tmp/r2.json")" '"status":"solved"'

# --- a check after solve that fails: stderr, exit 2, a field ---------------
cat >"$tmp/chk.mod" <<'EOF'
var x{1..3} binary;
s.t. c: sum{i in 1..3} x[i] = 1;
minimize z: sum{i in 1..3} i * x[i];
solve;
printf "before\n";
check x[2] = 1;
printf "after\n";
end;
EOF
run "failed check" 2 "$ILPM" solve gmpl "$tmp/chk.mod" &&
    has "failed check: the answer stands" "$out" "optimal, verified, objective 1" &&
    has "failed check: output before it" "$out" "before" &&
    hasnt "failed check: nothing after it" "$out" "after" &&
    has "failed check: stderr" "$err" "ilpm: gmpl chk.mod: the model's statements after solve failed: $tmp/chk.mod:6: check failed"
run "failed check json" 2 "$ILPM" solve gmpl "$tmp/chk.mod" --format json &&
    has "failed check json" "$out" "\"postsolve_error\":\"$tmp/chk.mod:6: check failed\""
run "failed check csv" 2 "$ILPM" solve gmpl "$tmp/chk.mod" --format csv &&
    has "failed check csv" "$out" ",$tmp/chk.mod:6: check failed,"
run "failed check batch" 2 "$ILPM" batch gmpl "$tmp/chk.mod" --out "$tmp/chk.csv" &&
    has "failed check batch row" "$(cat "$tmp/chk.csv")" ",$tmp/chk.mod:6: check failed," &&
    has "failed check batch summary" "$out" "1 answer(s) whose model's statements after solve failed"
run "check that holds" 0 "$ILPM" solve gmpl "$tmp/obj.mod" --data "$tmp/obj.dat" --format json &&
    hasnt "check that holds: no field" "$out" "postsolve_error"

# --- how often the model's statements run, verb by verb --------------------
# As under glpsol: the statements before solve once per translation, those
# after it once, with the answer reported; none after solve for a verb
# that reports no answer (--count, compare, stats, export).
cat >"$tmp/times.mod" <<'EOF'
var x{1..3} binary;
s.t. c: sum{i in 1..3} x[i] = 1;
printf "pre\n" >> "times.txt";
solve;
printf "post\n" >> "times.txt";
end;
EOF
times_of() { # NAME WANT CMD...: times.txt after CMD, lines joined by spaces
    local name=$1 want=$2
    shift 2
    rm -f times.txt
    "$@" >/dev/null 2>&1
    same "statements run by $name" "$(tr '\n' ' ' <times.txt 2>/dev/null)" "$want"
}
times_of "solve" "pre post " "$ILPM" solve gmpl "$tmp/times.mod"
times_of "solve json" "pre post " "$ILPM" solve gmpl "$tmp/times.mod" --format json
times_of "solve sat" "pre post " "$ILPM" solve gmpl "$tmp/times.mod" --backend sat
times_of "solve --count" "pre " "$ILPM" solve gmpl "$tmp/times.mod" --count
times_of "solve --count json" "pre " "$ILPM" solve gmpl "$tmp/times.mod" --count --format json
times_of "batch" "pre post " "$ILPM" batch gmpl "$tmp/times.mod" --out "$tmp/times.csv"
times_of "compare" "pre " "$ILPM" compare gmpl "$tmp/times.mod"
times_of "stats" "pre " "$ILPM" stats gmpl "$tmp/times.mod"
times_of "export" "pre " "$ILPM" export gmpl "$tmp/times.mod" --lp "$tmp/times.lp"

# --- '-' is standard input; a byte-order mark is skipped --------------------
run "data from stdin" 0 "$ILPM" solve gmpl $G/queens.mod --data - --count <$G/queens8.dat &&
    has "data from stdin" "$out" "gmpl queens.mod <stdin> (ilp): solved, verified, count 92"
run "model from stdin" 0 "$ILPM" solve gmpl - --data $G/queens8.dat --count <$G/queens.mod &&
    has "model from stdin" "$out" "count 92"
run "batch data from stdin" 0 "$ILPM" batch gmpl $G/queens.mod --data - --count --jobs 2 \
    --out "$tmp/stdin.csv" <$G/queens8.dat &&
    has "batch data from stdin" "$(cat "$tmp/stdin.csv")" ",solved,true,92,true,"
printf 'data; param n := x; end;\n' >"$tmp/badval.dat"
run "stdin named in errors" 2 "$ILPM" solve gmpl $G/queens.mod --data - <"$tmp/badval.dat" &&
    has "stdin named in errors" "$err" "<stdin>:1: n requires numeric data"
run "data FILE from stdin" 0 "$ILPM" solve gmpl --model $G/queens.mod - --count <$G/queens8.dat &&
    has "data FILE from stdin" "$out" "count 92"
run "stdin once" 2 "$ILPM" solve gmpl - --data - <$G/queens.mod &&
    has "stdin once" "$err" "standard input is read once"
bom=$src/tests/data/bom
run "bom model and data" 0 "$ILPM" solve gmpl $bom/queens.mod --data $bom/queens8.dat --count &&
    has "bom model and data" "$out" "count 92"
run "bom data on stdin" 0 "$ILPM" solve gmpl $G/queens.mod --data - --count <$bom/queens8.dat &&
    has "bom data on stdin" "$out" "count 92"
printf '\357\273\277var x binary;\ns.t. c: x + y >= 1;\nend;\n' >"$tmp/bombad.mod"
run "bom: errors name the file" 2 "$ILPM" solve gmpl "$tmp/bombad.mod" &&
    has "bom: errors name the file" "$err" "$tmp/bombad.mod:2: y not defined"

# --- what a count counts over: GLPK's columns, declared ones it left out ----
cat >"$tmp/unused.mod" <<'EOF'
var x{1..3} binary;
var z binary; # in no row
/* var w binary; a comment */
s.t. c: sum{i in 1..3} x[i] = 1;
end;
EOF
for b in ilp sat cp; do
    run "count note $b" 0 "$ILPM" solve gmpl "$tmp/unused.mod" --count --backend $b &&
        has "count note $b" "$out" "count 3;" &&
        has "count note $b says over what" "$out" "counted over the 3 variables GLPK generated (those a row or the objective mentions); declared but in no row, so not counted: z"
done
run "count note json" 0 "$ILPM" solve gmpl "$tmp/unused.mod" --count --format json &&
    has "count note json" "$out" '"count_note":"counted over the 3 variables GLPK generated'
run "count note: none left out" 0 "$ILPM" solve gmpl $G/queens.mod --data $G/queens8.dat --count &&
    hasnt "count note: none left out" "$out" "not counted"
run "no count, no note" 0 "$ILPM" solve gmpl "$tmp/unused.mod" &&
    hasnt "no count, no note" "$out" "counted over"

# --- the translator's warnings on stderr, once per translation -------------
printf 'param n;\nvar x{1..n} binary;\ns.t. c: sum{i in 1..n} x[i] = 1;\ndata;\nparam n := 3;\nend;\n' >"$tmp/wd.mod"
printf 'data;\nparam n := 2;\nend;\n' >"$tmp/n2.dat"
for verb in "solve" "solve --format json" "stats" "compare"; do
    set -- $verb
    run "warning: $verb" 0 "$ILPM" $1 gmpl "$tmp/wd.mod" --data "$tmp/n2.dat" "${@:2}" &&
        same "warning: $verb" "$(grep -c "^ilpm: $tmp/wd.mod:4: warning: data section ignored$" <<<"$err")" 1
done

# --- the time limit covers GLPK's translation ------------------------------
# Its generation takes minutes in GLPK's translator (a filter over a
# million pairs for each of 1999 rows): each run must end at the limit,
# with the translation's time reported, batch as solve.
cat >"$tmp/slow.mod" <<'EOF'
set I := 1..1000;
var x{I, I} binary;
s.t. d{k in 2..2000}: sum{i in I, j in I: i + j = k} x[i,j] <= 1;
end;
EOF
within() { # SECONDS NAME WANT-EXIT CMD...: run under a watchdog
    local s=$1
    shift
    run "$1" "$2" timeout -s KILL "$s" "${@:3}"
}
for b in ilp sat cp; do
    within 6 "translation time limit $b" 3 "$ILPM" solve gmpl "$tmp/slow.mod" --time-limit 1 --backend $b &&
        matches "translation time limit $b" "$out" "timeout; translate 1[0-9]{3}\.[0-9] ms"
done
within 6 "translation time limit json" 3 "$ILPM" solve gmpl "$tmp/slow.mod" --time-limit 1 --format json &&
    has "translation time limit json" "$out" '"status":"timeout"' &&
    matches "translate_ms in json" "$out" '"translate_ms":1[0-9]{3}\.'
within 6 "translation time limit csv" 3 "$ILPM" solve gmpl "$tmp/slow.mod" --time-limit 1 --format csv &&
    has "translate_ms in csv" "$(head -1 <<<"$out")" ",translate_ms,"
within 8 "translation time limit batch" 3 "$ILPM" batch gmpl "$tmp/slow.mod" --time-limit 1 --out "$tmp/slow.csv" &&
    has "batch agrees with solve" "$(cat "$tmp/slow.csv")" ",timeout,false," &&
    matches "batch's translate_ms" "$(cat "$tmp/slow.csv")" ",,,1[0-9]{3}\.[0-9]*,1,$"
# Ctrl-C ends the translation at once (exit 130), and no child stays.
timeout -s KILL 6 "$ILPM" solve gmpl "$tmp/slow.mod" >"$tmp/int.out" 2>&1 &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
rc=$?
if [ $rc -eq 130 ]; then ok; else bad "SIGINT in translation: exit $rc, want 130"; fi
sleep 0.2
if pgrep -f "$tmp/slow.mod" >/dev/null; then bad "a translator process outlived ilpm"; else ok; fi
# Ctrl-C to a batch's whole process group in a translation: the run is
# interrupted (no row, --resume does it), not an error of the model.
rm -f "$tmp/bint.csv"
setsid timeout -s KILL 6 "$ILPM" batch gmpl "$tmp/slow.mod" --out "$tmp/bint.csv" >/dev/null 2>&1 &
pid=$!
sleep 0.8
kill -INT -- -$pid
wait $pid
rc=$?
if [ $rc -eq 130 ]; then ok; else bad "SIGINT to a batch in translation: exit $rc, want 130"; fi
same "SIGINT to a batch in translation: no row" "$(grep -c '^gmpl' "$tmp/bint.csv")" 0
# The memory limit covers the translator's process too, and its message
# names it, in solve and batch (not under AddressSanitizer, where ilpm
# sets no address-space limit).
printf 'set S := 1..5000000;\nparam p{i in S} := i;\nvar x binary;\ns.t. c: x + sum{i in S} p[i] * 0 >= 1;\nend;\n' >"$tmp/mem.mod"
if ldd "$ILPM" 2>/dev/null | grep -q asan; then
    echo "SKIP: translation memory limit: no --memory-limit under AddressSanitizer"
else
    within 10 "translation memory limit" 2 "$ILPM" solve gmpl "$tmp/mem.mod" --memory-limit 60 &&
        has "translation memory limit" "$err" "glp_alloc: no memory available" &&
        has "translation memory limit named" "$err" "(--memory-limit 60 MB reached: raise it to go on)"
    within 10 "translation memory limit batch" 2 "$ILPM" batch gmpl "$tmp/mem.mod" --memory-limit 60 --out "$tmp/mem.csv" &&
        has "translation memory limit batch" "$(cat "$tmp/mem.csv")" "(--memory-limit 60 MB reached: raise it to go on)"
fi

# --- GLPK's examples --------------------------------------------------------
E=/usr/share/doc/glpk-utils/examples
if [ ! -d "$E" ] || ! command -v glpsol >/dev/null; then
    echo "SKIP: GLPK's examples ($E) or glpsol missing: install glpk-utils"
else
    # Pure 0/1 models with an objective: glpsol's optimum on ilp and sat
    # (gap on ilp alone: the SAT back end's optimisation takes ~35 s).
    for m in bpp color gap maxcut misp mvcp queens sat; do
        glpsol -m "$E/$m.mod" -o "$tmp/$m.sol" >/dev/null 2>&1
        want=$(sed -n 's/^Objective: .* = \([-0-9]*\) .*/\1/p' "$tmp/$m.sol")
        for b in ilp sat; do
            [ "$m/$b" = gap/sat ] && continue
            run "glpk $m $b" 0 "$ILPM" solve gmpl "$E/$m.mod" --backend $b --format json
            same "glpk $m $b objective" "$(sed -n 's/.*"objective":\([-0-9]*\),.*/\1/p' <<<"$out" | head -1)" "$want"
        done
    done
    for m in zebra crypto; do
        run "glpk $m" 0 "$ILPM" solve gmpl "$E/$m.mod" --backend sat && has "glpk $m" "$out" "solved, verified"
    done
    for m in assign diet transp; do
        run "glpk $m continuous" 2 "$ILPM" solve gmpl "$E/$m.mod" && has "glpk $m" "$err" "is continuous"
    done
    run "glpk graceful refused" 2 "$ILPM" solve gmpl "$E/graceful.mod" && has "graceful" "$err" "--int-encoding"
    run "glpk graceful encoded" 0 "$ILPM" solve gmpl "$E/graceful.mod" --int-encoding unary --backend sat &&
        has "graceful encoded" "$out" "verified"
    run "glpk shiftcov unbounded" 2 "$ILPM" solve gmpl "$E/shiftcov.mod" && has "shiftcov" "$err" "without a finite upper bound"
    rm -f solution.ps solution.dat
    run "glpk pbn" 0 "$ILPM" solve gmpl "$E/pbn/pbn.mod" --data "$E/pbn/knot.dat" --backend sat &&
        has "glpk pbn" "$out" "solved, verified"
    # pbn.mod writes its picture where it runs: in the scratch folder.
    if [ -s solution.ps ] && [ -s solution.dat ]; then ok; else bad "glpk pbn: no solution.ps and solution.dat in $(pwd)"; fi
fi

# Nothing a model writes lands in the source tree.
for f in solution.ps solution.dat out.txt times.txt; do
    if [ -e "$src/$f" ]; then bad "$f in the source tree ($src)"; else ok; fi
done

echo "e2e_gmpl: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
