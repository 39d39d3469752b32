#!/usr/bin/env bash
# End-to-end tests of the ilpm command line: outputs, formats and exit
# statuses as the README documents them.  Usage: e2e_cli.sh PATH/TO/ilpm
# Run from the source root.
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"


# run NAME EXPECTED_STATUS CMD... : runs CMD, keeps stdout/stderr in $out/$err
run() {
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
    if [ "$got" -ne "$want" ]; then
        bad "$name: exit $got, want $want; stderr: $err"
        return 1
    fi
    return 0
}

has() { # has NAME TEXT PATTERN
    if grep -qE -- "$3" <<<"$2"; then ok; else bad "$1: no /$3/ in: $2"; fi
}
hasnt() { # hasnt NAME TEXT PATTERN
    if grep -qE -- "$3" <<<"$2"; then bad "$1: /$3/ in: $2"; else ok; fi
}

run "count 8 queens on SAT" 0 "$ILPM" solve queens --n 8 --backend sat --count &&
    has "count 8 queens on SAT" "$out" "solved, verified, count 92[;,]"
# --symmetry: one board of each mirror pair, on cp and on auto's cubes;
# refused (exit 2, naming the option) with pre-placed queens
for b in cp "auto --threads 2"; do
    run "queens 8 --symmetry ($b)" 0 "$ILPM" solve queens --n 8 --backend $b --count --symmetry &&
        has "queens 8 --symmetry ($b)" "$out" "verified, count 46[;,]"
done
run "queens --symmetry with givens" 2 "$ILPM" solve queens data/queens/completion.txt --backend cp --symmetry &&
    has "queens --symmetry with givens" "$err" "line 4 .*--symmetry: a board with pre-placed queens"
# ILPM_TEST_QUICK (CI's valgrind and sanitizer passes) keeps the ILP count small.
if [ -n "${ILPM_TEST_QUICK:-}" ]; then
    run "count 6 queens on ILP" 0 "$ILPM" solve queens --n 6 --backend ilp --count &&
        has "count 6 queens on ILP" "$out" "count 4[;,]"
else
    run "count 8 queens on ILP" 0 "$ILPM" solve queens --n 8 --backend ilp --count &&
        has "count 8 queens on ILP" "$out" "count 92[;,]"
fi
# cp: counting in one search, under each --search and with --lookahead
for s in first-fail input; do
    run "count 8 queens on cp ($s)" 0 "$ILPM" solve queens --n 8 --backend cp --count --search "$s" --lookahead 3 &&
        has "count 8 queens on cp ($s)" "$out" "solved, verified, count 92[;,]"
done
# counting with learning: flipped decisions, no blocking clauses
for s in first-fail input activity; do
    run "count 8 queens on cp, learning ($s)" 0 "$ILPM" solve queens --n 8 --backend cp --count --search "$s" --learn on &&
        has "count 8 queens on cp, learning ($s)" "$out" "solved, verified, count 92[;,]"
done
run "count L(2,8) on cp, learning" 0 "$ILPM" solve langford --n 8 --backend cp --count --learn on &&
    has "count L(2,8) on cp, learning" "$out" "count 300[;,]"
run "cp learns" 0 "$ILPM" solve queens --n 30 --backend cp --verbose &&
    has "cp learns" "$err" "cp: [0-9]+ nodes, [0-9]+ failures, [0-9]+ restarts, [0-9]+ learned"
run "bad learn" 2 "$ILPM" solve queens --n 4 --backend cp --learn yes &&
    has "bad learn message" "$err" "--learn: expected one of off, on, auto, got 'yes'"
run "count 12 queens on cp" 0 "$ILPM" solve queens --n 12 --backend cp --count &&
    has "count 12 queens on cp" "$out" "solved, verified, count 14200[;,]"
run "count L(2,8) on cp" 0 "$ILPM" solve langford --n 8 --backend cp --count &&
    has "count L(2,8) on cp" "$out" "count 300[;,]"
# an exact cover (Langford, n-Queens, Sudoku after the root's
# propagation) is counted by Algorithm X (docs/cp.md), every sequence
# still verified: the symmetry clauses absorbed (L(2,11), odd), narrowing
# the root (queens 12) or checked at each solution (L(2,12), even)
# (smaller ones under ILPM_TEST_QUICK: valgrind's pass)
covers=("langford --n 12 --symmetry:108144" "langford --n 12:216288"
    "langford --n 11 --symmetry:17792" "queens --n 12 --symmetry:7100"
    "queens --n 11 --symmetry:1340"
    "sudoku data/sudoku/serg_benchmark_first20.txt --index 1:872")
lf=11 lf_count=17792 lf_cubes=12 lf_cubes_count=108144 by="cp x2"
if [ -n "${ILPM_TEST_QUICK:-}" ]; then
    covers=("langford --n 8 --symmetry:150" "langford --n 8:300"
        "langford --n 7 --symmetry:26" "queens --n 8 --symmetry:46"
        "queens --n 9 --symmetry:176"
        "sudoku data/sudoku/serg_benchmark_first20.txt --index 2:83")
    lf=7 lf_count=26 lf_cubes=8 lf_cubes_count=150 by="cp( x2)?"
fi
for c in "${covers[@]}"; do
    # shellcheck disable=SC2086 # the puzzle's words
    run "exact cover: ${c%:*}" 0 "$ILPM" solve ${c%:*} --backend cp --count --verbose &&
        has "exact cover: ${c%:*}, count" "$out" "solved, verified, count ${c##*:}[;,]" &&
        has "exact cover: ${c%:*}, path" "$err" "^cp: counted by exact cover$"
done
# learning keeps its own count
run "count L(2,$lf) on cp, learning" 0 "$ILPM" solve langford --n $lf --symmetry --backend cp --count --learn on --verbose &&
    has "count L(2,$lf) on cp, learning" "$out" "count ${lf_count}[;,]" &&
    hasnt "count L(2,$lf) on cp, learning: no cover" "$err" "exact cover"
# on two cores' cubes (each a process counting by the cover)
run "exact cover on cubes" 0 "$ILPM" solve langford --n $lf_cubes --symmetry --backend auto --threads 2 --count &&
    has "exact cover on cubes" "$out" "auto: $by\): solved, verified, count ${lf_cubes_count}[;,]"
# L(2,35) takes cp's search without restarts more than 10 s; restarts find it
run "cp restarts" 0 "$ILPM" solve langford --n 35 --backend cp --time-limit 60 --verbose &&
    has "cp restarts" "$err" "cp: [0-9]+ nodes, [0-9]+ failures, [1-9][0-9]* restarts"
# n-Queens past 1000: the value's ties at random in a long row, and a deep
# descent that goes back part of the way rather than to the root (before:
# 1166 failed 2012 times and restarted, 1040 2000 times)
run "cp long rows" 0 "$ILPM" solve queens --n 1166 --backend cp --verbose &&
    has "cp long rows" "$err" "cp: [0-9]+ nodes, [0-9]+ failures, 0 restarts"
run "cp goes back" 0 "$ILPM" solve queens --n 1040 --backend cp --verbose &&
    has "cp goes back" "$err" "cp: [0-9]+ nodes, [0-9]+ failures, 0 restarts" &&
    has "cp goes back" "$err" "^cp: went back part of the way [1-9][0-9]* times$"
run "cp limit" 0 "$ILPM" solve queens --n 8 --backend cp --count --limit 5 &&
    has "cp limit" "$out" "count at least 5 \(stopped at --limit\)"
run "cp unsat" 10 "$ILPM" solve queens --n 3 --backend cp
run "cp time limit" 3 "$ILPM" solve queens --n 14 --backend cp --count --time-limit 0.2
run "bad search" 2 "$ILPM" solve queens --n 4 --backend cp --search dlx &&
    has "bad search message" "$err" "--search: expected one of first-fail, input, activity, got 'dlx'"
run "bad lookahead" 2 "$ILPM" solve queens --n 4 --backend cp --lookahead -1 &&
    has "bad lookahead message" "$err" "--lookahead: expected an integer from 0"
# --cp-analysis cuts: the same optimum, by cutting planes and learned rows
run "cp cuts" 0 "$ILPM" solve model data/models/knapsack_big.lp --backend cp --learn on --cp-analysis cuts --verbose &&
    has "cp cuts optimum" "$out" "optimal, verified, objective 10268841380" &&
    has "cp cuts ran" "$err" "cp: cutting planes on [1-9][0-9]* conflicts, [1-9][0-9]* of their clauses learned, [1-9][0-9]* rows"
run "bad cp-analysis" 2 "$ILPM" solve queens --n 4 --backend cp --cp-analysis rows &&
    has "bad cp-analysis message" "$err" "--cp-analysis: expected one of clause, cuts, got 'rows'"
# --cp-alldiff on: Sudoku's houses as matching groups, their Hall sets rule
# values out at the nodes of both searches
run "cp alldiff dfs" 0 "$ILPM" solve sudoku data/sudoku/norvig_hardest.txt --index 2 --backend cp --learn off --cp-alldiff on --verbose &&
    has "cp alldiff dfs prunes" "$err" "cp: Hall sets: [0-9]* groups looked at, [1-9][0-9]* values ruled out"
run "cp alldiff learning" 0 "$ILPM" solve sudoku data/sudoku/gecode_25x25.txt --index 17 --backend cp --learn on --cp-alldiff on --verbose &&
    has "cp alldiff learning prunes" "$err" "cp: Hall sets: [0-9]* groups looked at, [1-9][0-9]* values ruled out" &&
    has "cp alldiff verified" "$out" "solved, verified"
run "bad cp-alldiff" 2 "$ILPM" solve queens --n 4 --backend cp --cp-alldiff maybe &&
    has "bad cp-alldiff message" "$err" "--cp-alldiff: expected one of off, on, got 'maybe'"
run "batch all back ends" 10 "$ILPM" batch queens data/queens/completion.txt --count --backend all --out "$tmp/all.csv" --jobs 1 &&
    has "batch all back ends" "$(cut -d, -f4,6,9 "$tmp/all.csv" | sort | head -3 | tr '\n' ' ')" "^1,cp,4 1,ilp,4 1,sat,4 $"
run "solve 8 queens" 0 "$ILPM" solve queens --n 8 &&
    has "solve 8 queens board" "$out" "^(\. )*Q( \.)*$"
run "json fields" 0 "$ILPM" solve queens --n 6 --format json --backend ilp &&
    for f in puzzle instance backend status verified build_ms solve_ms vars \
        aux_vars rows nonzeros clauses solution; do
        has "json field $f" "$out" "\"$f\":"
    done
has "json status" "$out" '"status":"solved"'
has "json solution" "$out" '"solution":\[[0-9,]+\]'
# --verbose: each solver's own log on stderr as it works, stdout the answer
# alone; without it both keep quiet.
one_json_line() { # NAME
    if [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -qE '^\{"puzzle":"queens",.*\}$' "$tmp/out"; then
        ok
    else
        bad "$1: stdout is not one JSON line: $out"
    fi
}
run "verbose ilp" 0 "$ILPM" solve queens --n 8 --backend ilp --verbose --format json &&
    one_json_line "verbose ilp" &&
    has "verbose ilp: GLPK's log on stderr" "$err" "^\+ +[0-9]+: mip = "
run "verbose sat" 0 "$ILPM" solve queens --n 8 --backend sat --verbose --format json &&
    one_json_line "verbose sat" &&
    has "verbose sat: CaDiCaL's report on stderr" "$err" "^c 1 +[0-9.]+ " &&
    if grep -qvE '^c( |$)' <<<"$err"; then
        bad "verbose sat: stderr holds more than CaDiCaL's lines: $err"
    else ok; fi
for b in ilp sat; do
    run "quiet $b" 0 "$ILPM" solve queens --n 8 --backend $b --format json &&
        one_json_line "quiet $b" &&
        if [ -z "$err" ]; then ok; else bad "quiet $b: stderr: $err"; fi
done
run "json count" 0 "$ILPM" solve queens --n 6 --count --format json &&
    has "json count" "$out" '"count":4'
run "csv" 0 "$ILPM" solve queens --n 5 --format csv &&
    has "csv header" "$out" "^puzzle,instance,file,index,formulation,backend,status" &&
    has "csv row" "$out" "^queens,n=5,,,,ilp,solved,true"
run "unsat exit 10" 10 "$ILPM" solve queens --n 3 &&
    has "unsat text" "$out" "unsat"
run "count limit" 0 "$ILPM" solve queens --n 8 --count --limit 2 &&
    has "count limit" "$out" "count at least 2 \(stopped at --limit\);"
run "count under the limit" 0 "$ILPM" solve queens --n 6 --count --limit 5 &&
    has "count under the limit" "$out" "count 4;"
# Under valgrind (ILPM_UNDER_VALGRIND, CI's memcheck pass) building alone
# can take the 0.3 s: the limits grow so that the count has begun when
# they hit.  The sanitizers' build (ILPM_TEST_QUICK alone) builds queens
# 14 in milliseconds: a second is ample there.
tl=0.3 tl_tty=2.5 tl_cmp=1.5
[ -n "${ILPM_TEST_QUICK:-}" ] && tl=1
[ -n "${ILPM_UNDER_VALGRIND:-}" ] && tl=10 tl_tty=15 tl_cmp=12
run "time limit exit 3" 3 "$ILPM" solve queens --n 14 --count --time-limit $tl &&
    has "timeout text" "$out" "timeout.*count at least [0-9]+ \(time limit\)"
# count_complete: whether every solution was counted, only on count rows;
# in CSV right after count, empty when not counting.
run "json count complete" 0 "$ILPM" solve queens --n 6 --count --format json &&
    has "json count complete" "$out" '"count":4,"count_complete":true,'
run "json count at the limit" 0 "$ILPM" solve queens --n 8 --count --limit 2 \
    --format json && has "json count at the limit" "$out" '"count":2,"count_complete":false,'
run "json count after the time limit" 3 "$ILPM" solve queens --n 14 --count \
    --time-limit $tl --format json &&
    has "json count after the time limit" "$out" '"count":[0-9]+,"count_complete":false,'
run "json without count" 0 "$ILPM" solve queens --n 6 --format json &&
    if grep -q count_complete <<<"$out"; then bad "count_complete without --count: $out"; else ok; fi
run "csv count complete" 0 "$ILPM" solve queens --n 6 --count --format csv &&
    has "csv count_complete column" "$out" "^puzzle,.*,verified,count,count_complete,objective," &&
    has "csv count complete" "$out" "^queens,n=6,,,,ilp,solved,true,4,true,,"
run "csv count at the limit" 0 "$ILPM" solve queens --n 8 --count --limit 2 --format csv &&
    has "csv count at the limit" "$out" "^queens,n=8,,,,ilp,solved,true,2,false,,"
# An instance whose text does not parse gets its error record (as batch's
# row), the message once on stderr, and the walk goes on (exit 2).
printf '4\nx\n5\n' >"$tmp/bad_second_line.txt"
run "csv record of a parse error" 2 "$ILPM" solve queens "$tmp/bad_second_line.txt" --format csv &&
    has "csv parse error row" "$out" "^queens,#1,$tmp/bad_second_line.txt,1,,ilp,error,false,.*,\"$tmp/bad_second_line.txt:2:1: expected a number, got 'x'\"," &&
    has "csv row after the parse error" "$out" "^queens,n=5 line 3 \(0 placed\),$tmp/bad_second_line.txt,2,,ilp,solved,true," &&
    has "parse error once on stderr" "$(grep -c . <<<"$err")" "^1$"
run "json record of a parse error" 2 "$ILPM" solve queens "$tmp/bad_second_line.txt" --format json &&
    has "json parse error record" "$out" '^\{"puzzle":"queens","instance":"#1",.*"index":1,.*"status":"error",.*"error":".*:2:1: expected a number'
run "csv without count" 0 "$ILPM" solve queens --n 6 --format csv &&
    has "csv without count" "$out" "^queens,n=6,,,,ilp,solved,true,,,,"
for b in ilp sat; do
    run "time limit while building ($b)" 3 "$ILPM" solve queens --n 2500 \
        --backend "$b" --time-limit 0.3 --format csv &&
        has "build timeout ($b)" "$out" "^queens,n=2500,,,,$b,timeout,false"
done
run "--index keeps the file position" 0 "$ILPM" solve sudoku \
    data/sudoku/norvig_top95.txt --index 59 --format csv &&
    has "index 59 in the row" "$out" "^sudoku,#59,data/sudoku/norvig_top95.txt,59,"
for o in amo card cuts branch backtrack propagate; do
    run "bad --$o" 2 "$ILPM" solve queens --n 5 --$o bogus &&
        has "bad --$o message" "$err" "--$o: expected .*, got 'bogus'"
done
run "GLPK rules by name" 0 "$ILPM" solve queens --n 8 --backend ilp \
    --branch pcost --backtrack=bestp &&
    has "GLPK rules solve" "$out" "solved, verified"
# compare's group table describes what was lowered: after propagation the
# givens' consequences sit in "fixed", and the groups add up to the runs.
# (With the default formulation, exact, probing settles this grid: every
# row is in "fixed"; atmost leaves rows in every group.)
run "compare both formulations" 0 "$ILPM" compare sudoku \
    data/sudoku/norvig_top95.txt --index 1 &&
    has "compare exact" "$out" "^ +exact +ilp +solved +yes" &&
    has "compare atmost" "$out" "^ +atmost +sat +solved +yes" &&
    has "compare agreement" "$out" "agreement: yes"
run "compare json fields" 0 "$ILPM" compare queens --n 6 --format json &&
    has "compare json agreement" "$out" '"fixed_before":0,"agreement":"yes"}$'
run "compare csv fields" 0 "$ILPM" compare sudoku data/sudoku/norvig_top95.txt --index 1 --formulation exact --format csv &&
    has "compare csv header" "$out" "^puzzle,.*,worker,stopped_by,fixed_before,agreement$" &&
    has "compare csv settled" "$out" ",729,yes$"
run "compare text settled" 0 "$ILPM" compare sudoku data/sudoku/norvig_top95.txt --index 1 --formulation exact &&
    has "compare text settled" "$out" "exact: 729 of 729 variables fixed before the back ends ran .*--propagate none"
run "compare groups after propagation" 0 "$ILPM" compare sudoku \
    data/sudoku/norvig_top95.txt --index 1 --formulation atmost &&
    has "fixed group" "$out" "^ +fixed +\|" &&
    if awk '$1 == "formulation" { for (i = 1; i <= NF; i++) col[$i] = i }
            $2 == "ilp" { rows = $(col["rows"]) }
            / \| / && $1 != "groups" { sum += $3 }
            END { exit !(rows > 0 && rows == sum) }' <<<"$out"; then ok
    else bad "compare: ILP rows differ from the sum of the groups: $out"; fi &&
    if awk '$1 == "formulation" { for (i = 1; i <= NF; i++) col[$i] = i }
            $2 == "sat" { cl = $(col["clauses"]) }
            / \| / && $1 != "groups" { sum += $6 }
            END { exit !(cl > 0 && cl == sum) }' <<<"$out"; then ok
    else bad "compare: clauses differ from the sum of the groups: $out"; fi
# Langford's position-sum row is redundant: not lowered, yet it refutes
# L(2,150) (n = 2 mod 4) before either back end searches.
for b in sat ilp; do
    run "L(2,150) parity on $b" 10 "$ILPM" solve langford --k 2 --n 150 \
        --backend $b --format json --time-limit 30 &&
        has "L(2,150) $b unsat" "$out" '"status":"unsat"'
done
# The sat back end runs CaDiCaL with its own defaults (docs/benchmarks.md,
# "CaDiCaL target phases"): CaDiCaL is deterministic, so its report lines
# (without the time and memory columns) are those of target=1, its
# default, and not those of target=2 (27 against 30 conflicts on L(2,60)).
cadical_report() { # the report lines of L(2,60) on sat with options "$@"
    "$ILPM" solve langford --k 2 --n 60 --backend sat --verbose "$@" 2>&1 \
        >/dev/null | grep -E '^c [a-z0-9*+.-] ' | awk '{ $3 = ""; $4 = ""; print }'
}
plain=$(cadical_report)
if [ -n "$plain" ] && [ "$plain" = "$(cadical_report --sat-option target=1)" ] &&
    [ "$plain" != "$(cadical_report --sat-option target=2)" ]; then
    ok
else bad "sat: CaDiCaL not run with its defaults: $plain"; fi
run "redundant row not lowered" 0 "$ILPM" stats langford --k 2 --n 8 &&
    has "redundant group empty" "$out" "^redundant +1 \\| +0 +0 \\| +0 "
run "redundant row lowered" 0 "$ILPM" stats langford --k 2 --n 8 --redundant &&
    has "redundant group one row" "$out" "^redundant +1 \\| +1 "
# Probing fixes what unit propagation leaves open: fewer nonzeros remain.
nnz() { awk -F, 'NR == 2 { print $17 }' <<<"$out"; }
run "propagate units" 0 "$ILPM" solve sudoku data/sudoku/norvig_top95.txt \
    --index 1 --backend ilp --propagate units --format csv && units=$(nnz) &&
    run "propagate probe" 0 "$ILPM" solve sudoku data/sudoku/norvig_top95.txt \
        --index 1 --backend ilp --propagate probe --format csv &&
    if [ "$(nnz)" -lt "$units" ]; then ok
    else bad "probing left $(nnz) nonzeros, units $units"; fi
run "file of completions" 10 "$ILPM" solve queens data/queens/completion.txt &&
    has "completion unsat instance" "$out" "line 9 .*unsat"
# verified: solutions reported and every one passed; an unsat answer has
# none, so false on both paths, counted or not (README, Output formats).
for c in "" --count; do
    run "unsat not verified $c" 10 "$ILPM" solve queens data/queens/completion.txt \
        --index 3 $c --format json &&
        has "unsat not verified $c" "$out" '"status":"unsat","verified":false,'
done
run "unsat count text" 10 "$ILPM" solve queens data/queens/completion.txt --index 3 --count &&
    has "unsat count text" "$out" "\\): unsat, count 0;"
run "bad file names line and column" 2 "$ILPM" solve queens data/bad/queens_row_range.txt &&
    has "bad file message" "$err" "data/bad/queens_row_range.txt:2:1: row 5 is too large \\(at most 4\\)"
run "missing file" 2 "$ILPM" solve queens "$tmp/none.txt" &&
    has "missing file message" "$err" "none.txt: cannot open"
run "bad --n" 2 "$ILPM" solve queens --n 0 &&
    has "bad --n message" "$err" "--n: expected an integer from 1 to 1000000, got '0'"
run "too many variables" 2 "$ILPM" solve queens --n 100000 &&
    has "max-vars message" "$err" "needs more than 50000000 variables .* raise --max-vars"
run "CNF over --max-memory" 2 "$ILPM" solve queens --n 1000 --backend sat --amo pairwise --max-memory 16 &&
    has "max-memory message" "$err" "outgrows --max-memory in group 'row'"
run "model over --max-memory" 2 "$ILPM" solve queens --n 2000 --max-memory 16 --backend ilp &&
    has "model max-memory message" "$err" "constraints need more than 16 MB; raise --max-memory"
run "unknown option" 2 "$ILPM" solve queens --n 4 --frobnicate &&
    has "unknown option message" "$err" "unknown option '--frobnicate' for solve queens"
run "bad backend" 2 "$ILPM" solve queens --n 4 --backend cplex &&
    has "bad backend message" "$err" "--backend: expected one of ilp, sat, cp, auto, got 'cplex'"
run "unknown puzzle" 2 "$ILPM" solve chess &&
    has "unknown puzzle message" "$err" "unknown puzzle 'chess'"
run "no instance" 2 "$ILPM" solve queens &&
    has "no instance message" "$err" "needs an instance"
run "unknown verb" 2 "$ILPM" frob
run "help" 0 "$ILPM" --help &&
    has "help verbs" "$out" "solve PUZZLE"
run "puzzle help" 0 "$ILPM" solve queens --help &&
    for f in backend count limit time-limit format amo card cuts no-presolve \
        max-pb-nodes max-vars max-memory verbose n; do
        has "help flag --$f" "$out" "--$f"
    done
run "stats" 0 "$ILPM" stats queens --n 8 --amo pairwise &&
    has "stats groups" "$out" "^row " &&
    has "stats diag" "$out" "^diag " &&
    has "stats total" "$out" "^total +42 \| +42 +252 \| +"
run "stats json" 0 "$ILPM" stats queens --n 8 --format json &&
    has "stats json groups" "$out" '"groups":\{"row":\{"cons":8,"rows":8,"nonzeros":64'
run "stats csv" 0 "$ILPM" stats queens --n 8 --format csv --amo pairwise &&
    has "stats csv header" "$(head -1 <<<"$out")" "^puzzle,instance,group,cons,rows,nonzeros,clauses,literals,aux_vars,vars$" &&
    has "stats csv group" "$out" "^queens,n=8,row,8,8,64,232,512,0,$" &&
    has "stats csv total" "$out" "^queens,n=8,total,42,42,252,744,1584,0,64$"
# stats reads every FILE, every instance of each (4 in completion.txt).
run "stats csv of two files" 0 "$ILPM" stats queens data/queens/completion.txt data/queens/completion.txt --format csv &&
    has "stats csv of two files: 8 totals, one header" "$(grep -c ',total,' <<<"$out") $(grep -c '^puzzle,' <<<"$out")" "^8 1$"
run "stats of two files, the second bad" 2 "$ILPM" stats queens data/queens/completion.txt data/bad/queens_row_range.txt &&
    has "stats of two files, the second bad: the first's 4" "$(grep -c '^total ' <<<"$out")" "^4$"
run "export all" 0 "$ILPM" export queens --n 6 --lp "$tmp/q.lp" --mps "$tmp/q.mps" \
    --cnf "$tmp/q.cnf" --opb "$tmp/q.opb" &&
    for f in q.lp q.mps q.cnf q.opb; do
        if [ -s "$tmp/$f" ]; then ok; else bad "export $f empty"; fi
    done
has "dimacs dictionary" "$(cat "$tmp/q.cnf")" "^c Q\[1,1\] 1$"
run "export needs a format" 2 "$ILPM" export queens --n 6
# Signals stop the solver through its callback; what is complete is printed.
# The signal is sent again each second until the process ends: one sent
# before ilpm has installed its handler (slow under valgrind) is lost.
signal_until_done() { # SIGNAL PID
    local state
    # The first signal waits until the count has begun (longer under
    # valgrind, where building takes seconds).
    [ -n "${ILPM_UNDER_VALGRIND:-}" ] && sleep 8
    for _ in $(seq 1 60); do
        sleep 1
        state=$(ps -o stat= -p "$2" 2>/dev/null)
        case "$state" in "" | Z*) return 0 ;; esac
        kill "-$1" "$2" 2>/dev/null || return 0
    done
    kill -KILL "$2" 2>/dev/null
}
"$ILPM" solve queens --n 14 --count >"$tmp/sig.out" 2>&1 &
pid=$!
signal_until_done INT "$pid"
wait "$pid"
code=$?
if [ "$code" -eq 130 ]; then ok; else bad "SIGINT solve: exit $code"; fi
has "SIGINT solve output" "$(cat "$tmp/sig.out")" "stopped, verified, count at least [0-9]+ \(interrupted\)"
"$ILPM" compare queens --n 14 --count >"$tmp/sig.out" 2>&1 &
pid=$!
signal_until_done TERM "$pid"
wait "$pid"
code=$?
if [ "$code" -eq 130 ]; then ok; else bad "SIGTERM compare: exit $code"; fi
has "SIGTERM compare output" "$(cat "$tmp/sig.out")" "ilp +stopped"
# The runs after the stop never began: "not run", and nothing to agree on.
has "SIGTERM compare not run" "$(cat "$tmp/sig.out")" "^ +- +cp +not run$"
has "SIGTERM compare agreement" "$(cat "$tmp/sig.out")" "^  agreement: n/a "
if grep -q "agreement: yes" "$tmp/sig.out"; then
    bad "SIGTERM compare: agreement yes over stopped runs"
else ok; fi
# GLPK polls for a stop only between its steps; on a 25x25 Sudoku one step
# takes minutes, so after 5 s of grace ilpm ends anyway, with 130.
if [ -z "${ILPM_TEST_QUICK:-}" ]; then
    "$ILPM" solve sudoku data/sudoku/gecode_25x25.txt --index 1 --backend ilp \
        >"$tmp/sig.out" 2>"$tmp/sig.err" &
    pid=$!
    sleep 2
    signal_until_done TERM "$pid"
    wait "$pid"
    code=$?
    if [ "$code" -eq 130 ]; then ok; else bad "SIGTERM inside GLPK: exit $code"; fi
fi
# Machiavelli: a play in a card player's words, the reason of an unsat.
run "machiavelli play" 0 "$ILPM" play machiavelli --table "AH 2H 3H" --hand "4H 5H 9S" &&
    has "play lays" "$out" "optimal, verified, lays 2 of 3 cards;" &&
    has "play melds" "$out" "^AH 2H 3H 4H\* 5H\*$" &&
    has "play hand left" "$out" "^hand left: 9S$"
run "machiavelli play json" 0 "$ILPM" play machiavelli --table "AH 2H 3H" --hand "4H 5H 9S" --format json &&
    has "play json" "$out" '"solution":\{"melds":\[\{"type":"run","cards":\["AH","2H","3H","4H","5H"\]\}\],"played":\["4H","5H"\],"hand_left":\["9S"\]\}'
run "machiavelli laid" 0 "$ILPM" play machiavelli data/machiavelli/laid.txt &&
    has "laid marks" "$out" "^JS\* QS\* KS\* +\(new\)$" &&
    has "laid changed" "$out" "^table melds changed: 7H 8H 9H( /|$)"
# --format dimacs is solve model's: only solve's help gives its codes.
run "solve help: dimacs codes" 0 "$ILPM" solve --help &&
    has "solve help: dimacs codes" "$out" "^SATISFIABLE, 20 UNSATISFIABLE, 30 OPTIMUM FOUND"
for v in play compare; do
    run "$v help: no dimacs" 0 "$ILPM" $v --help && hasnt "$v help: no dimacs" "$out" "20 UNSATISFIABLE"
done
# Cards apart by commas, as the input help says.
run "machiavelli commas" 0 "$ILPM" solve machiavelli --table "AH,2H, 3H" &&
    has "machiavelli commas" "$out" "^AH 2H 3H$"
run "machiavelli help: commas" 0 "$ILPM" solve machiavelli --help &&
    has "machiavelli help: commas" "$out" "apart by spaces or commas"
run "machiavelli unsat reason" 10 "$ILPM" solve machiavelli --table "7H 8H 9H 5S" &&
    has "unsat reason" "$out" "^no meld can hold 5S: no run or set of the cards on the table contains it$"
run "machiavelli unsat reason json" 10 "$ILPM" solve machiavelli --table "7H 8H 9H 5S" --format json &&
    has "unsat reason json" "$out" '"solution":null,"reason":"no meld can hold 5S: '
# On a terminal, work longer than a second shows a progress line on
# stderr (instance, run, count and rate, time), erased before the result;
# with stderr not a terminal, nothing.  The time limits make the work last
# past the second whatever the machine.
esc=$'\033'
if command -v script >/dev/null; then
    script -qfec "$(printf '%q ' "$ILPM" solve queens --n 14 --count --time-limit $tl_tty)" \
        /dev/null >"$tmp/tty" 2>&1
    code=$?
    if [ "$code" -eq 3 ]; then ok; else bad "progress solve: exit $code"; fi
    tty=$(tr '\r' '\n' <"$tmp/tty")
    has "progress line" "$tty" "^queens n=14 \(ilp\): count [0-9]+ \([0-9]+/s\), [0-9]+\.[0-9] s${esc}\[K$"
    has "progress erased before the result" "$tty" "^${esc}\[Kqueens n=14 \(ilp\): timeout, verified, count at least"
    script -qfec "$(printf '%q ' "$ILPM" compare queens --n 14 --count --time-limit $tl_cmp)" \
        /dev/null >"$tmp/tty" 2>&1
    tty=$(tr '\r' '\n' <"$tmp/tty")
    has "compare progress line" "$tty" "^queens n=14 \((ilp|sat)\):.* [0-9]+\.[0-9] s${esc}\[K$"
    has "compare progress erased" "$tty" "^${esc}\[Kqueens n=14$"
fi
run "no progress line off a terminal" 3 "$ILPM" solve queens --n 14 --count --time-limit $tl_cmp &&
    if [ -z "$err" ]; then ok; else bad "progress line on a file: $err"; fi
run "list" 0 "$ILPM" list && has "list queens" "$out" "^queens"
run "version" 0 "$ILPM" --version && has "version" "$out" "^ilpm [0-9]"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
