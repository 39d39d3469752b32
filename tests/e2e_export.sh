#!/usr/bin/env bash
# Exported models must be accepted by the solvers users take them to:
# glpsol (LP and MPS), cbc (MPS and LP), cadical and minisat (DIMACS), and
# agree with ilpm on the answer.  Usage: e2e_export.sh PATH/TO/ilpm
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"

missing=""
for p in glpsol cbc cadical minisat; do
    command -v "$p" >/dev/null || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "skipped: not installed:$missing (.ci/run installs them)"
    exit 77
fi

check_exports() { # NAME EXPECT(sat|unsat) ilpm-args...
    local name=$1 want=$2
    shift 2
    if ! "$ILPM" export "$@" --lp "$tmp/m.lp" --mps "$tmp/m.mps" --cnf "$tmp/m.cnf" \
        --opb "$tmp/m.opb" 2>"$tmp/err"; then
        bad "$name: export failed: $(cat "$tmp/err")"
        return
    fi
    local o
    o=$(glpsol --lp "$tmp/m.lp" 2>&1)
    if [ "$want" = sat ]; then
        grep -q "INTEGER OPTIMAL SOLUTION FOUND" <<<"$o" && ok || bad "$name: glpsol --lp: $o"
    else
        grep -q "PROBLEM HAS NO.*FEASIBLE SOLUTION" <<<"$o" && ok || bad "$name: glpsol --lp: $o"
    fi
    o=$(glpsol --freemps "$tmp/m.mps" 2>&1)
    if [ "$want" = sat ]; then
        grep -q "INTEGER OPTIMAL SOLUTION FOUND" <<<"$o" && ok || bad "$name: glpsol --freemps: $o"
    else
        grep -q "PROBLEM HAS NO.*FEASIBLE SOLUTION" <<<"$o" && ok || bad "$name: glpsol --freemps: $o"
    fi
    for f in m.mps m.lp; do
        o=$(cd "$tmp" && cbc "$f" solve quit 2>&1)
        if [ "$want" = sat ]; then
            grep -qE "Optimal - objective value|Result - Optimal solution found" <<<"$o" && ok ||
                bad "$name: cbc $f: $o"
        else
            grep -qiE "infeasible" <<<"$o" && ok || bad "$name: cbc $f: $o"
        fi
    done
    local code
    cadical -q "$tmp/m.cnf" >/dev/null 2>&1
    code=$?
    [ "$code" -eq "$([ "$want" = sat ] && echo 10 || echo 20)" ] && ok ||
        bad "$name: cadical exit $code"
    minisat -verb=0 "$tmp/m.cnf" >/dev/null 2>&1
    code=$?
    [ "$code" -eq "$([ "$want" = sat ] && echo 10 || echo 20)" ] && ok ||
        bad "$name: minisat exit $code"
    # OPB: header counts match the body.
    local nv nc body
    nv=$(sed -n '1s/.*#variable= *\([0-9]*\).*/\1/p' "$tmp/m.opb")
    nc=$(sed -n '1s/.*#constraint= *\([0-9]*\).*/\1/p' "$tmp/m.opb")
    body=$(grep -cE '(>=|=) *-?[0-9]+ *;$' "$tmp/m.opb")
    [ -n "$nv" ] && [ "$body" -eq "$nc" ] && ok || bad "$name: OPB announces $nc constraints, has $body"
}

check_exports "queens 8" sat queens --n 8
check_exports "queens 3" unsat queens --n 3
for amo in pairwise seq product; do
    check_exports "queens 10 --amo $amo" sat queens --n 10 --amo "$amo"
done

# A model file's own names go through every export: its columns in LP,
# MPS, OPB ("* NAME = xV") and DIMACS ("c NAME V"), its rows in LP and
# MPS; reading an export back gives the same names.
printf 'Maximize\n obj: 3 apple + 2 pear\nSubject To\n cap: apple + pear <= 1\n need: apple + pear >= 1\nBinary\n apple pear\nEnd\n' >"$tmp/k.lp"
for f in lp mps opb cnf; do
    "$ILPM" export model "$tmp/k.lp" --$f "$tmp/k2.$f"
    check "names: export --$f has no family names" [ "$(grep -c 'x(1)\|x\[1\]' "$tmp/k2.$f")" -eq 0 ]
done
check "names: LP columns" grep -q "^ obj: + 3 apple + 2 pear$" "$tmp/k2.lp"
check "names: LP rows" grep -q "^ cap: " "$tmp/k2.lp"
check "names: LP rows (2)" grep -q "^ need: " "$tmp/k2.lp"
check "names: MPS rows" grep -q "^ L cap$" "$tmp/k2.mps"
check "names: MPS columns" grep -q "^ apple " "$tmp/k2.mps"
check "names: OPB dictionary" grep -q "^\* pear = x2$" "$tmp/k2.opb"
check "names: DIMACS dictionary" grep -q "^c apple 1$" "$tmp/k2.cnf"
for f in lp mps opb; do
    check "names: solve the --$f export" grep -q "^true: apple$" <<<"$("$ILPM" solve model "$tmp/k2.$f")"
done
check "names: solve the --cnf export" grep -qE "^true: (apple|pear)$" <<<"$("$ILPM" solve model "$tmp/k2.cnf")"
"$ILPM" export model "$tmp/k2.lp" --lp "$tmp/k3.lp"
check "names: LP -> LP -> LP is stable" cmp -s "$tmp/k2.lp" "$tmp/k3.lp"
"$ILPM" export model "$tmp/k2.mps" --lp "$tmp/k4.lp"
check "names: LP -> MPS -> LP" cmp -s "$tmp/k2.lp" "$tmp/k4.lp"
"$ILPM" export model "$tmp/k2.opb" --opb "$tmp/k3.opb"
check "names: LP -> OPB -> OPB is stable" cmp -s "$tmp/k2.opb" "$tmp/k3.opb"
if command -v glpsol >/dev/null; then
    glpsol --lp "$tmp/k2.lp" -o "$tmp/k2.sol" >/dev/null 2>&1
    check "names: glpsol reads the user's names" grep -qE "^ +[0-9]+ apple +\* +1 " "$tmp/k2.sol"
fi
# An integer column made of 0/1 variables: NAME.0, NAME.1, ...
printf 'Minimize\n obj: a\nSubject To\n lim: a >= 2\nBounds\n 0 <= a <= 3\nGeneral\n a\nEnd\n' >"$tmp/i.lp"
"$ILPM" export model "$tmp/i.lp" --int-encoding binary --lp "$tmp/i2.lp"
check "names: integer column bits" grep -q "^ obj: + a.0 + 2 a.1$" "$tmp/i2.lp"

# DIMACS CNF has no objective: an export of a model with one says so, on
# stderr and in the file; one without says nothing.
"$ILPM" export model data/models/knapsack.lp --cnf "$tmp/k.cnf" 2>"$tmp/err"
check "cnf of an objective: exit 0" [ $? -eq 0 ]
check "cnf of an objective: note" grep -q "^ilpm: note: --cnf $tmp/k.cnf holds the model's rows, not its objective" "$tmp/err"
check "cnf of an objective: comment" grep -q "^c the model's objective is not here" "$tmp/k.cnf"
"$ILPM" export queens --n 4 --cnf "$tmp/q4.cnf" 2>"$tmp/err"
check "cnf without objective: nothing on stderr" [ ! -s "$tmp/err" ]
"$ILPM" export model data/models/knapsack.lp --opb "$tmp/k.opb" 2>"$tmp/err"
check "opb keeps the objective: nothing on stderr" [ ! -s "$tmp/err" ]

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
