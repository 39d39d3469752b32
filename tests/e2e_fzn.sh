#!/usr/bin/env bash
# ilpm as a FlatZinc solver: `ilpm fzn` on the FlatZinc files of data/fzn
# (every back end: answers, counts with -a, optima, statistics, nothing
# outside FlatZinc's output format, malformed files), and where MiniZinc
# is installed, `minizinc --solver ilpm` on the models of models/mzn with
# every answer checked by Gecode and every count equal to Gecode's.
# Usage: e2e_fzn.sh PATH/TO/ilpm (from the source root)
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"
BUILD=$(cd "$(dirname "$ILPM")" && pwd)
BACKENDS="ilp sat cp"

# Every line of standard output is one of FlatZinc's: an assignment, a
# separator, a final status, or a comment (statistics).
fzn_format() {
    grep -Ev '^([A-Za-z_][A-Za-z0-9_]* = .*;|-{10}|={10}|=====(UNSATISFIABLE|UNKNOWN)=====|%.*)$' "$1" |
        { ! grep -q .; }
}
# The search was cut short: no "==========".
not_complete() { ! grep -qx '==========' "$1"; }
count_solutions() { grep -c -- '^----------$' "$1"; }
# equals NAME GOT WANT
equals() { [ "$2" = "$3" ] || { echo "  $1: got '$2', want '$3'"; false; }; }

# --- ilpm fzn on the committed files --------------------------------------
for b in $BACKENDS; do
    "$ILPM" fzn -a --backend "$b" data/fzn/queens6.fzn >"$tmp/q6" 2>"$tmp/err"
    check "queens 6 -a on $b: exit 0" equals rc $? 0
    check "queens 6 -a on $b: 4 solutions" equals count "$(count_solutions "$tmp/q6")" 4
    check "queens 6 -a on $b: complete" grep -qx '==========' "$tmp/q6"
    check "queens 6 -a on $b: the format" fzn_format "$tmp/q6"
    check "queens 6 -a on $b: distinct" equals distinct \
        "$(grep '^q = ' "$tmp/q6" | sort -u | wc -l)" 4

    "$ILPM" fzn -n 2 --backend "$b" data/fzn/queens6.fzn >"$tmp/q6n" 2>"$tmp/err"
    check "queens 6 -n 2 on $b: 2 solutions" equals count "$(count_solutions "$tmp/q6n")" 2
    check "queens 6 -n 2 on $b: not complete" not_complete "$tmp/q6n"
    check "queens 6 -n 2 on $b: the format" fzn_format "$tmp/q6n"
    # -n bounds -a too ("at most N solutions", docs/fzn.md), in either order
    "$ILPM" fzn -a -n 3 --backend "$b" data/fzn/queens6.fzn >"$tmp/q6an" 2>"$tmp/err"
    check "queens 6 -a -n 3 on $b: 3 solutions" equals count "$(count_solutions "$tmp/q6an")" 3
    "$ILPM" fzn -n 3 -a --backend "$b" data/fzn/queens6.fzn >"$tmp/q6an" 2>"$tmp/err"
    check "queens 6 -n 3 -a on $b: 3 solutions" equals count "$(count_solutions "$tmp/q6an")" 3

    "$ILPM" fzn -s --backend "$b" data/fzn/knapsack01.fzn >"$tmp/k" 2>"$tmp/err"
    # MiniZinc's linear library makes take[i] the 0/1 integers it prints.
    check "knapsack on $b: the optimum" equals taken "$(grep -c ' = 1;$' "$tmp/k")" 5
    check "knapsack on $b: proven" grep -qx '==========' "$tmp/k"
    check "knapsack on $b: statistics" both grep -q '^%%%mzn-stat: solveTime=' "$tmp/k" \
        -- grep -qx '%%%mzn-stat: objective=309' "$tmp/k"
    check "knapsack on $b: statistics end" grep -qx '%%%mzn-stat-end' "$tmp/k"
    check "knapsack on $b: the format" fzn_format "$tmp/k"

    "$ILPM" fzn --backend "$b" data/fzn/queens3.fzn >"$tmp/q3" 2>"$tmp/err"
    check "queens 3 on $b: unsatisfiable" equals out "$(cat "$tmp/q3")" '=====UNSATISFIABLE====='
    "$ILPM" fzn -a --backend "$b" data/fzn/queens3.fzn >"$tmp/q3" 2>"$tmp/err"
    check "queens 3 -a on $b: unsatisfiable" equals out "$(cat "$tmp/q3")" '=====UNSATISFIABLE====='
done

# A stop: on SIGTERM (MiniZinc's, 1 s after its -t) the best solution so
# far is printed and ilpm ends within 0.5 s; with -i each improving one
# is printed as found, so that a SIGKILL after it loses nothing.
# knapsack60.fzn: no back end proves its optimum within seconds, each
# finds solutions within one.
for b in $BACKENDS; do
    for i in 1 2 3; do
        flag=
        [ "$i" = 2 ] && flag=-i
        "$ILPM" fzn $flag --backend "$b" data/fzn/knapsack60.fzn >"$tmp/sig" 2>"$tmp/err" &
        pid=$!
        sleep 1
        cp "$tmp/sig" "$tmp/before"
        start=$(date +%s%N)
        kill -TERM "$pid"
        wait "$pid"
        rc=$?
        ms=$((($(date +%s%N) - start) / 1000000))
        check "SIGTERM $flag on $b ($i): ends within 0.5 s ($ms ms)" test "$ms" -le 500
        check "SIGTERM $flag on $b ($i): exit 130" equals rc "$rc" 130
        check "SIGTERM $flag on $b ($i): a solution" grep -qx -- '----------' "$tmp/sig"
        check "SIGTERM $flag on $b ($i): not complete" not_complete "$tmp/sig"
        check "SIGTERM $flag on $b ($i): the format" fzn_format "$tmp/sig"
        if [ -n "$flag" ]; then
            check "-i on $b: solutions printed before SIGTERM" \
                grep -qx -- '----------' "$tmp/before"
        fi
    done
    start=$(date +%s%N)
    "$ILPM" fzn -i -t 1000 --backend "$b" data/fzn/knapsack60.fzn >"$tmp/t" 2>"$tmp/err"
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    check "knapsack 60 -t 1000 on $b: ends within 2.5 s ($ms ms)" test "$ms" -le 2500
    check "knapsack 60 -t 1000 on $b: exit 0" equals rc "$rc" 0
    check "knapsack 60 -t 1000 -i on $b: improving solutions" \
        test "$(count_solutions "$tmp/t")" -ge 2
    check "knapsack 60 -t 1000 on $b: not complete" not_complete "$tmp/t"
    check "knapsack 60 -t 1000 on $b: the format" fzn_format "$tmp/t"
done

# The same files through ilpm's own verbs.
out=$("$ILPM" solve model data/fzn/knapsack01.fzn --format json)
check "solve model knapsack01.fzn: JSON" grep -q '"objective":309,.*"X_INTRODUCED_11_":1' <<<"$out"
out=$("$ILPM" solve model data/fzn/queens6.fzn --count --backend sat)
check "solve model queens6.fzn --count" grep -q 'count 4;' <<<"$out"

# --- the fzn puzzle: solve, stats, export, compare and batch on .fzn ------
check "ilpm list shows the fzn puzzle" grep -q '^fzn  ' <("$ILPM" list)
# (GLPK counts by a solve per solution: queens 6 takes it over a second.)
for b in $BACKENDS; do
    count=--count want='solved, verified, count 4;'
    [ "$b" = ilp ] && count= want='solved, verified;'
    "$ILPM" solve fzn data/fzn/queens6.fzn $count --backend "$b" >"$tmp/o" 2>"$tmp/err"
    check "solve fzn queens6 $count on $b: exit 0" equals rc $? 0
    check "solve fzn queens6 $count on $b: $want" grep -q "^fzn queens6.fzn .*: $want" "$tmp/o"
    "$ILPM" solve fzn data/fzn/knapsack01.fzn --backend "$b" >"$tmp/o" 2>"$tmp/err"
    check "solve fzn knapsack01 on $b: the optimum" grep -q 'optimal, verified, objective 309;' "$tmp/o"
done
"$ILPM" solve fzn data/fzn/queens6.fzn --format json >"$tmp/o"
check "solve fzn --format json: the output variables" grep -q '"solution":{"q":\[' "$tmp/o"
"$ILPM" solve fzn data/models/knapsack.lp >"$tmp/o" 2>"$tmp/err"
check "solve fzn FILE.lp: exit 2" equals rc $? 2
check "solve fzn FILE.lp: one message" equals err "$(cat "$tmp/err")" \
    "ilpm: data/models/knapsack.lp: this puzzle reads fzn files alone, not lp (solve model reads every format)"
check "solve fzn FILE.lp: nothing on stdout" equals out "$(cat "$tmp/o")" ""
"$ILPM" solve fzn data/fzn/queens6.fzn --input-format lp >"$tmp/o" 2>"$tmp/err"
check "solve fzn --input-format: exit 2" equals rc $? 2

# Sizes per builtin: each builtin's rows in a group of its name, a domain
# with holes in "domain"; LP rows keep their groups per kind.
printf '%s\n' 'var bool: a :: output_var;' 'var bool: b :: output_var;' \
    'var bool: c :: output_var;' 'var {1, 3, 5}: x :: output_var;' \
    'var 0..4: y :: output_var;' 'constraint bool_clause([a, b], [c]);' \
    'constraint array_bool_or([a, b, c], true);' \
    'constraint int_lin_le([1, 1], [x, y], 6);' 'solve satisfy;' >"$tmp/kinds.fzn"
"$ILPM" stats fzn "$tmp/kinds.fzn" --format csv >"$tmp/st" 2>"$tmp/err"
check "stats fzn: exit 0" equals rc $? 0
for g in bool_clause array_bool_or int_lin_le domain; do
    check "stats fzn: a row for $g" grep -q ",$g,[0-9]" "$tmp/st"
done
check "stats fzn: no group per kind" equals kinds "$(grep -cE ',(clause|alo|linear|set_in),[0-9]' "$tmp/st")" 0
"$ILPM" stats fzn "$tmp/kinds.fzn" >"$tmp/st" 2>"$tmp/err"
check "stats fzn text: bool_clause's sizes" grep -qE '^bool_clause +1 \| +1 +3 \| +1 ' "$tmp/st"
"$ILPM" stats model data/models/knapsack.lp --format csv >"$tmp/st" 2>"$tmp/err"
check "stats model FILE.lp: groups per kind as before" equals groups \
    "$(grep -oE ',[a-z_]+,[0-9]' "$tmp/st" | cut -d, -f2 | sort | tr '\n' ' ')" "amo card linear total "

# export: the LP of a .fzn reads back with the same count.
"$ILPM" export fzn data/fzn/queens6.fzn --lp "$tmp/q6.lp" 2>"$tmp/err"
check "export fzn --lp: exit 0" equals rc $? 0
"$ILPM" solve model "$tmp/q6.lp" --count --backend sat >"$tmp/o" 2>"$tmp/err"
check "export fzn --lp: solve model counts 4" grep -q 'count 4;' "$tmp/o"

# compare: every back end, the same answer.
"$ILPM" compare fzn data/fzn/knapsack01.fzn >"$tmp/o" 2>"$tmp/err"
check "compare fzn: exit 0" equals rc $? 0
check "compare fzn: the back ends agree" grep -q '^  agreement: yes (3 runs' "$tmp/o"
check "compare fzn: 309 on each" equals optima "$(grep -cE '^  -  +(ilp|sat|cp) +optimal +yes +309 ' "$tmp/o")" 3
check "compare fzn: sizes per builtin" grep -qE '^    int_lin_eq +\|' "$tmp/o"

# batch: a row per file; a bad file is a failure row, the others go on.
csv_rows() { # FILE: base name, status, verified, objective, error (its path's folder left out)
    python3 -c 'import csv, os, sys
for r in csv.DictReader(open(sys.argv[1])):
    print(os.path.basename(r["file"]), r["status"], r["verified"], r["objective"] or "-", r["error"].rsplit("/", 1)[-1] or "-")' "$1"
}
"$ILPM" batch fzn data/fzn/queens6.fzn data/fzn/knapsack01.fzn --out "$tmp/r.csv" >"$tmp/o" 2>"$tmp/err"
check "batch fzn: exit 0" equals rc $? 0
check "batch fzn: two rows" equals rows "$(csv_rows "$tmp/r.csv")" \
    "$(printf '%s\n' 'queens6.fzn solved true - -' 'knapsack01.fzn optimal true 309 -')"
printf 'var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;\n' >"$tmp/bad.fzn"
"$ILPM" batch fzn data/fzn/queens6.fzn "$tmp/bad.fzn" data/fzn/knapsack01.fzn \
    --out "$tmp/r2.csv" >"$tmp/o" 2>"$tmp/err"
check "batch fzn with a bad file: exit 2" equals rc $? 2
check "batch fzn with a bad file: its row, the others solved" equals rows "$(csv_rows "$tmp/r2.csv")" \
    "$(printf '%s\n' 'queens6.fzn solved true - -' "bad.fzn error false - bad.fzn:2:22: '"'y'"' is not declared" \
        'knapsack01.fzn optimal true 309 -')"

# --- mistakes: one message on stderr, exit 2, nothing on stdout -----------
printf 'var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;\n' >"$tmp/bad.fzn"
"$ILPM" fzn "$tmp/bad.fzn" >"$tmp/out" 2>"$tmp/err"
check "malformed: exit 2" equals rc $? 2
check "malformed: file:line:col" grep -q "bad.fzn:2:22: 'y' is not declared" "$tmp/err"
check "malformed: nothing on stdout" equals out "$(cat "$tmp/out")" ""
"$ILPM" fzn -n 0 data/fzn/queens6.fzn >"$tmp/out" 2>"$tmp/err"
check "-n 0: exit 2" equals rc $? 2
check "-n 0: says so" grep -q -- "-n" "$tmp/err"
"$ILPM" fzn -t abc data/fzn/queens6.fzn >"$tmp/out" 2>"$tmp/err"
check "-t abc: exit 2" equals rc $? 2
check "-t abc: one message naming -t" equals err "$(cat "$tmp/err")" \
    "ilpm: fzn -t: expected a whole number from 1 to 1000000000000, got 'abc'"
"$ILPM" fzn -t >"$tmp/out" 2>"$tmp/err"
check "-t without a value: exit 2" equals rc $? 2
"$ILPM" fzn --backnd cp data/fzn/queens6.fzn >"$tmp/out" 2>"$tmp/err"
check "a misspelt option: exit 2" equals rc $? 2
"$ILPM" fzn data/fzn/queens6.fzn data/fzn/queens3.fzn >"$tmp/out" 2>"$tmp/err"
check "two files: exit 2" equals rc $? 2
: >"$tmp/empty.fzn"
"$ILPM" fzn "$tmp/empty.fzn" >"$tmp/out" 2>"$tmp/err"
check "an empty file: exit 2" equals rc $? 2
check "an empty file: says so" grep -q "empty.fzn: no instance in the file" "$tmp/err"
# A limit the user can raise is the input's, as under solve model: exit 2.
"$ILPM" fzn --max-vars 1 data/fzn/knapsack01.fzn >"$tmp/out" 2>"$tmp/err"
check "over --max-vars: exit 2" equals rc $? 2
check "over --max-vars: says so" grep -q "raise --max-vars" "$tmp/err"
"$ILPM" fzm data/fzn/queens6.fzn >"$tmp/out" 2>"$tmp/err"
check "a misspelt verb: exit 2" equals rc $? 2
check "a misspelt verb: the suggestion" grep -q "did you mean 'fzn'" "$tmp/err"
check "ilpm --help lists fzn" grep -q '^  fzn ' <("$ILPM" --help)
check "fzn --help" grep -q -- '-a, --all-solutions' <("$ILPM" fzn --help)

# --- MiniZinc: minizinc --solver ilpm, every answer checked by Gecode ------
if ! command -v minizinc >/dev/null || ! minizinc --solvers | grep -q gecode; then
    echo "note: minizinc with Gecode not installed: its part not run"
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi
export MZN_SOLVER_PATH=$BUILD/share/minizinc/solvers
check "minizinc --solvers lists ilpm" grep -q 'org.ilpm.ilpm' <(minizinc --solvers)
# The build tree's library is the source's, every file (meson.build names
# them one by one: a file added there and not named is missed here).
check "build/share/minizinc/ilpm holds models/mznlib/ilpm" \
    diff -r models/mznlib/ilpm "$BUILD/share/minizinc/ilpm"
M=models/mzn
mzn() { minizinc --solver ilpm "$@" 2>"$tmp/mzn_err"; }

# Gecode checks an answer: the model with its output fixed to it.
gecode_accepts() {
    local model=$1 fix=$2
    shift 2
    printf 'include "%s";\n%s\n' "$PWD/$model" "$fix" >"$tmp/fix.mzn"
    minizinc --solver gecode "$tmp/fix.mzn" "$@" 2>/dev/null | grep -q -- '^----------$'
}
check "the default back end is cp" grep -q 'backend="cp"' <(mzn -s "$M/tetravex.mzn" "$M/tetravex_3.dzn")
# ilpm's own library (models/mznlib/ilpm): Tetravex's element constraints
# kept, its alldifferent ilpm's own builtin, not pairs.
minizinc -c --solver ilpm "$M/tetravex.mzn" "$M/tetravex_3.dzn" --fzn "$tmp/tv.fzn" \
    --ozn /dev/null 2>/dev/null
kept_by_library() {
    grep -q '^constraint array_int_element(' "$1" &&
        grep -q '^constraint ilpm_all_different_int(' "$1" && ! grep -q '^constraint int_lin_ne(' "$1"
}
check "ilpm's library keeps element and alldifferent" kept_by_library "$tmp/tv.fzn"
for b in $BACKENDS; do
    n=4
    mzn --ilpm-backend "$b" "$M/tetravex.mzn" "$M/tetravex_$n.dzn" >"$tmp/t4"
    g=$(sed -n 's/^griglia = \(.*\);$/\1/p' "$tmp/t4")
    check "tetravex $n on $b: a board" test -n "$g"
    check "tetravex $n on $b: Gecode accepts it" gecode_accepts "$M/tetravex.mzn" \
        "constraint [griglia[i, j] | i, j in 1..N] = $g;" "$M/tetravex_$n.dzn"

    mzn --ilpm-backend "$b" "$M/sudoku.mzn" -D "b = 2; given = [|1,0,0,0|0,0,3,0|0,4,0,0|0,0,0,2|];" >"$tmp/s"
    x=$(sed -n 's/^x = \(.*\);$/\1/p' "$tmp/s" | tr -d '[]|\n ')
    check "sudoku 4x4 on $b: Gecode accepts it" gecode_accepts "$M/sudoku.mzn" \
        "constraint [x[i, j] | i, j in 1..4] = [$x];" \
        -D "b = 2; given = [|1,0,0,0|0,0,3,0|0,4,0,0|0,0,0,2|];"

    # Sizes that GLPK counts quickly too (it counts by a solve per
    # solution: L(2,7) takes minutes).
    for c in "queens.mzn -D n=6" "langford.mzn -D k=2;n=4" "magic_sequence.mzn -D n=5" \
        "tetravex.mzn $M/tetravex_3.dzn" "cardinality.mzn"; do
        set -- $c
        want=$(minizinc --solver gecode -a "$M/$1" "${@:2}" 2>/dev/null | grep -c -- '^----------$')
        got=$(mzn --ilpm-backend "$b" -a "$M/$1" "${@:2}" | grep -c -- '^----------$')
        check "$1 -a on $b: Gecode's count" equals count "$got" "$want"
    done
    for c in "knapsack01.mzn $M/knapsack01.dzn" "colouring.mzn $M/colouring.dzn" \
        "golomb.mzn -D m=4"; do
        set -- $c
        want=$(minizinc --solver gecode --output-mode dzn --output-objective \
            "$M/$1" "${@:2}" 2>/dev/null | sed -n 's/^_objective = \(.*\);$/\1/p' |
            tail -n 1)
        got=$(mzn --ilpm-backend "$b" --output-mode dzn --output-objective "$M/$1" "${@:2}" |
            sed -n 's/^_objective = \(.*\);$/\1/p' | tail -n 1)
        check "$1 on $b: an optimum" test -n "$want"
        check "$1 on $b: Gecode's optimum" equals objective "$got" "$want"
    done
done

# Set variables (models/mzn/sets.mzn): a 0/1 per element in ilpm's
# library; counts with -a equal Gecode's, an answer Gecode accepts.
want=$(minizinc --solver gecode -a "$M/sets.mzn" 2>/dev/null | grep -c -- '^----------$')
check "sets: Gecode finds solutions" test "$want" -gt 1
for b in $BACKENDS; do
    got=$(mzn --ilpm-backend "$b" -a "$M/sets.mzn" | grep -c -- '^----------$')
    check "sets.mzn -a on $b: Gecode's count" equals count "$got" "$want"
    fix=$(mzn --ilpm-backend "$b" "$M/sets.mzn" | sed -n 's/^\([abc]\) = \(.*\);$/constraint \1 = \2;/p')
    check "sets.mzn on $b: Gecode accepts it" both test "$(echo "$fix" | wc -l)" -eq 3 \
        -- gecode_accepts "$M/sets.mzn" "$fix"
done

# int_div, int_mod, int_pow and the extrema (models/mzn/divmod.mzn): ilpm's
# library (minizinc --solver ilpm) and MiniZinc's standard one (ilpm fzn)
# leave the first three in the FlatZinc for ilpm's own builtins.  Counts with -a equal Gecode's on sat and cp; GLPK
# counts by a solve per solution (seconds here): one answer on ilp,
# accepted by Gecode.
want=$(minizinc --solver gecode -a "$M/divmod.mzn" "$M/divmod.dzn" 2>/dev/null | grep -c -- '^----------$')
check "divmod: Gecode finds solutions" test "$want" -gt 1
minizinc -c -G std "$M/divmod.mzn" "$M/divmod.dzn" --fzn "$tmp/dm.fzn" --ozn "$tmp/dm.ozn" 2>"$tmp/err"
check "divmod with the standard library: int_div, int_mod, int_pow" \
    both grep -q '^constraint int_div(' "$tmp/dm.fzn" -- both grep -q '^constraint int_mod(' \
    "$tmp/dm.fzn" -- grep -q '^constraint int_pow(' "$tmp/dm.fzn"
# FILE holds an answer ("a = 3; b = -1; ...;"), and Gecode accepts it.
divmod_accepted() {
    local fix
    fix=$(sed -n 's/; \([a-z]\)/ \/\\ \1/g; s/^a = /constraint a = /p' "$1" | head -n 1)
    [ -n "$fix" ] && gecode_accepts "$M/divmod.mzn" "$fix" "$M/divmod.dzn"
}
for b in $BACKENDS; do
    if [ "$b" = ilp ]; then
        mzn --ilpm-backend ilp "$M/divmod.mzn" "$M/divmod.dzn" >"$tmp/dm"
        check "divmod on ilp: Gecode accepts it" divmod_accepted "$tmp/dm"
        "$ILPM" fzn --backend ilp "$tmp/dm.fzn" | minizinc --ozn-file "$tmp/dm.ozn" >"$tmp/dm"
        check "divmod.fzn of the standard library on ilp: Gecode accepts it" \
            divmod_accepted "$tmp/dm"
        continue
    fi
    got=$(mzn --ilpm-backend "$b" -a "$M/divmod.mzn" "$M/divmod.dzn" | grep -c -- '^----------$')
    check "divmod.mzn -a on $b: Gecode's count" equals count "$got" "$want"
    got=$("$ILPM" fzn -a --backend "$b" "$tmp/dm.fzn" | grep -c -- '^----------$')
    check "divmod.fzn of the standard library -a on $b: Gecode's count" equals count "$got" "$want"
done

# Machiavelli (models/mzn/machiavelli.mzn): a table that ilpm's own
# `solve machiavelli` solves, and a near miss it finds unsat (exit 10);
# minizinc's answer agrees on every back end, its melds accepted by Gecode.
table_of() { sed -n 's/^% table: //p' "$1"; }
"$ILPM" solve machiavelli --table "$(table_of "$M/machiavelli_24.dzn")" >/dev/null 2>&1
check "machiavelli_24: ilpm solve machiavelli solves it" equals rc $? 0
"$ILPM" solve machiavelli --table "$(table_of "$M/machiavelli_24_miss.dzn")" >/dev/null 2>&1
check "machiavelli_24_miss: ilpm solve machiavelli finds it unsat" equals rc $? 10
for b in $BACKENDS; do
    mzn --ilpm-backend "$b" "$M/machiavelli.mzn" "$M/machiavelli_24.dzn" >"$tmp/mv"
    fix=$(sed -n 's/^\(run\|set3\|set4\) = \(.*\);$/constraint array1d(\1) = \2;/p' "$tmp/mv")
    check "machiavelli_24 on $b: melds that Gecode accepts" both \
        test "$(echo "$fix" | wc -l)" -eq 3 -- gecode_accepts "$M/machiavelli.mzn" "$fix" \
        "$M/machiavelli_24.dzn"
    check "machiavelli_24 on $b: 24 cards in the melds" equals cards \
        "$(grep -E '^([2-9AJQK]|10)[HDSC] ' "$tmp/mv" | wc -w)" 24
    mzn --ilpm-backend "$b" "$M/machiavelli.mzn" "$M/machiavelli_24_miss.dzn" >"$tmp/mv"
    check "machiavelli_24_miss on $b: unsatisfiable" equals out "$(cat "$tmp/mv")" \
        '=====UNSATISFIABLE====='
done

# Classic models, counts with -a equal to Gecode's: SEND+MORE (1), the
# magic square of order 3 (8) and the nonogram (`regular`, ilpm's own
# builtin ilpm_regular) on every back end; BIBD (7,3,1) on sat and cp
# only: GLPK counts by a solve per solution and takes seconds on the
# BIBD's products (docs/fzn.md).
minizinc --solver ilpm -c --fzn "$tmp/nonogram.fzn" --ozn "$tmp/nonogram.ozn" \
    "$M/nonogram.mzn" "$M/nonogram_smiley.dzn" 2>/dev/null
no_element() { ! grep -q 'array_int_element' "$1"; }
check "nonogram: regular is ilpm's builtin" both \
    grep -q '^constraint ilpm_regular(' "$tmp/nonogram.fzn" -- no_element "$tmp/nonogram.fzn"
for c in "send_more.mzn|ilp sat cp" "magic_square.mzn|ilp sat cp" "bibd.mzn|sat cp" \
    "nonogram.mzn $M/nonogram_smiley.dzn|ilp sat cp"; do
    set -- ${c%%|*}
    want=$(minizinc --solver gecode -a "$M/$1" "${@:2}" 2>/dev/null | grep -c -- '^----------$')
    check "$1: Gecode finds solutions" test "$want" -ge 1
    for b in ${c#*|}; do
        got=$(mzn --ilpm-backend "$b" -a "$M/$1" "${@:2}" | grep -c -- '^----------$')
        check "$1 -a on $b: Gecode's count" equals count "$got" "$want"
    done
done

# inverse (ilpm's library: f[i] = j <-> g[j] = i, one int_eq_reif each,
# no element): the derangements of 0..4 counted as Gecode counts them;
# table of two variables as support clauses, of three through a row
# variable (tables.mzn, counted), black hole's FlatZinc without element.
# The domino-logic nonogram of 6 (dom_06 of the MiniZinc benchmarks; Gecode
# takes over 60 s on dom_14, docs/fzn.md): its one solution on sat and
# cp, accepted by Gecode with the output fixed.
minizinc --solver ilpm -c --fzn "$tmp/der.fzn" --ozn /dev/null "$M/derangement.mzn" 2>/dev/null
check "inverse: int_eq_reif, no element" both \
    grep -q '^constraint int_eq_reif(' "$tmp/der.fzn" -- no_element "$tmp/der.fzn"
want=$(minizinc --solver gecode -a "$M/derangement.mzn" 2>/dev/null | grep -c -- '^----------$')
check "derangement.mzn: Gecode's count is 44" equals count "$want" 44
tables=$(minizinc --solver gecode -a "$M/tables.mzn" 2>/dev/null | grep -c -- '^----------$')
check "tables.mzn: Gecode's count is 19" equals count "$tables" 19
minizinc --solver ilpm -c --fzn "$tmp/bh.fzn" --ozn /dev/null "$M/black_hole.mzn" \
    "$M/black_hole_2.dzn" 2>/dev/null
check "black hole: table of two as clauses, inverse as int_eq_reif" both \
    grep -q '^constraint array_bool_or(' "$tmp/bh.fzn" -- no_element "$tmp/bh.fzn"
for b in $BACKENDS; do
    got=$(mzn --ilpm-backend "$b" -a "$M/derangement.mzn" | grep -c -- '^----------$')
    check "derangement.mzn -a on $b: Gecode's count" equals count "$got" "$want"
    got=$(mzn --ilpm-backend "$b" -a "$M/tables.mzn" | grep -c -- '^----------$')
    check "tables.mzn -a on $b: Gecode's count" equals count "$got" "$tables"
    # GLPK takes about 90 s to solve dom_06 (its LP says little about
    # the automaton's clauses): sat and cp only; the 8x8 nonogram above
    # is counted on ilp too.
    [ "$b" = ilp ] && continue
    mzn --ilpm-backend "$b" -a "$M/nonogram.mzn" "$M/nonogram_dom_06.dzn" >"$tmp/dom"
    check "nonogram dom_06 -a on $b: complete" grep -qx '==========' "$tmp/dom"
    check "nonogram dom_06 on $b: one solution" equals count "$(count_solutions "$tmp/dom")" 1
    x=$(sed -n 's/^x = \(.*\);$/\1/p' "$tmp/dom")
    check "nonogram dom_06 on $b: Gecode accepts it" gecode_accepts "$M/nonogram.mzn" \
        "constraint array1d(x) = $x;" "$M/nonogram_dom_06.dzn"
done

# The 29x29 domino nonogram (dom_14; Gecode finds none within 60 s) on
# cp's default, --learn auto: after its first depth-first turn, learning
# from false phases (cp_driver.c, AUTO_TRY), as --learn on starts, solves
# it in a dozen failures (from the depth-first turn's values: none
# within 20 s).
minizinc --solver ilpm -c --fzn "$tmp/dom14.fzn" --ozn /dev/null "$M/nonogram.mzn" \
    "$M/nonogram_dom_14.dzn" 2>/dev/null
"$ILPM" fzn -v -t 5000 --backend cp "$tmp/dom14.fzn" >"$tmp/dom14" 2>"$tmp/dom14.log"
fails=$(sed -n 's/^cp: [0-9]* nodes, \([0-9]*\) failures, .*/\1/p' "$tmp/dom14.log")
check "nonogram dom_14 on cp's default: solved" equals count "$(count_solutions "$tmp/dom14")" 1
check "nonogram dom_14 on cp's default: under 100 failures after the first turn" \
    test "${fails:-100000}" -lt 100
x=$(sed -n 's/^x = \(.*\);$/\1/p' "$tmp/dom14")
check "nonogram dom_14 on cp: Gecode accepts it" gecode_accepts "$M/nonogram.mzn" \
    "constraint x = $x;" "$M/nonogram_dom_14.dzn"

# Improving solutions (-i, and -a on a model with an objective): each
# better than the one before, the last followed by "==========" and equal
# to Gecode's optimum; without either, the final solution alone.
improving() { # FILE min|max
    sed -n 's/^_objective = \(.*\);$/\1/p' "$1" |
        awk -v s="$2" 'NR > 1 && (s == "min" ? $1 >= p : $1 <= p) { bad = 1 }
            { p = $1 } END { exit bad || NR == 0 }'
}
objective_of() { sed -n 's/^_objective = \(.*\);$/\1/p' "$1" | tail -n 1; }
for c in "golomb.mzn min -D m=4" "knapsack01.mzn max $M/knapsack_20.dzn"; do
    set -- $c
    minizinc --solver gecode --output-mode dzn --output-objective "$M/$1" "${@:3}" \
        >"$tmp/gecode" 2>/dev/null
    want=$(objective_of "$tmp/gecode")
    check "$1: Gecode's optimum" test -n "$want"
    for b in $BACKENDS; do
        for f in -i -a; do
            mzn --ilpm-backend "$b" $f --output-mode dzn --output-objective \
                "$M/$1" "${@:3}" >"$tmp/imp"
            check "$1 $f on $b: each solution improves" improving "$tmp/imp" "$2"
            check "$1 $f on $b: proven" equals last "$(tail -n 1 "$tmp/imp")" "=========="
            check "$1 $f on $b: Gecode's optimum" equals objective \
                "$(objective_of "$tmp/imp")" "$want"
            if [ "$1" = knapsack01.mzn ]; then
                check "$1 $f on $b: improving solutions" \
                    test "$(count_solutions "$tmp/imp")" -ge 2
            fi
        done
        mzn --ilpm-backend "$b" --output-mode dzn --output-objective "$M/$1" "${@:3}" >"$tmp/imp"
        check "$1 on $b: the final solution alone" equals count \
            "$(count_solutions "$tmp/imp")" 1
    done
done

# A time limit: minizinc's -t holds on every back end, with the best
# solution so far where there is one.
minizinc -c -G linear "$M/golomb.mzn" -D m=8 --fzn "$tmp/g8.fzn" --ozn /dev/null 2>/dev/null
for b in $BACKENDS; do
    start=$(date +%s%N)
    "$ILPM" fzn -t 1000 --backend "$b" "$tmp/g8.fzn" >"$tmp/g" 2>"$tmp/err"
    ms=$((($(date +%s%N) - start) / 1000000))
    check "golomb 8 -t 1000 on $b: ends within 2.5 s ($ms ms)" test "$ms" -le 2500
    check "golomb 8 -t 1000 on $b: the format" fzn_format "$tmp/g"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
