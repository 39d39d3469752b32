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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
