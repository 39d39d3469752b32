#!/usr/bin/env bash
# Random 0/1 models (tests/random_models.py) read by `ilpm solve model`
# on every back end must agree with other solvers on the same file:
# glpsol on LP and on its own free-MPS rewrite of it, glpsol on the LP
# form of each OPB, minisat and cadical on each CNF: status, and the
# optimum where there is an objective.  Usage: e2e_model_peers.sh ILPM
set -u
ILPM=${1:-build/ilpm}
# ILPM_TEST_QUICK (CI's sanitizer pass): 6 seeds of the 20.
N=${ILPM_PEERS_N:-20}
[ -n "${ILPM_TEST_QUICK:-}" ] && N=${ILPM_PEERS_N:-6}
here=$(dirname "$0")
. "$here/e2e_lib.sh"

missing=""
for p in glpsol cadical minisat python3; do
    command -v "$p" >/dev/null || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "skipped: not installed:$missing (.ci/run installs them)"
    exit 77
fi

# glpsol on FILE (--lp or --freemps): "sat OBJ", "sat" without an
# objective, or "unsat".  Its solution goes to a file (-o), never stdout.
glpsol_answer() { # FLAG FILE HAS_OBJ
    local o
    o=$(glpsol "$1" "$2" -o "$tmp/glpsol.out" 2>&1)
    if grep -q "INTEGER OPTIMAL SOLUTION FOUND" <<<"$o"; then
        if [ "$3" = 1 ]; then
            echo "sat $(grep -m1 '^Objective:' "$tmp/glpsol.out" | sed -E 's/.*= *(-?[0-9]+).*/\1/')"
        else
            echo sat
        fi
    elif grep -qE "HAS NO .*FEASIBLE SOLUTION" <<<"$o"; then
        echo unsat
    else
        echo "glpsol failed: $o"
    fi
}

# ilpm's answer in the same words.
ilpm_answer() { # FILE BACKEND
    local j st obj
    j=$("$ILPM" solve model "$1" --backend "$2" --format json 2>&1)
    st=$(grep -oE '"status":"[a-z]+"' <<<"$j" | cut -d'"' -f4)
    obj=$(grep -oE '"objective":-?[0-9]+' <<<"$j" | head -n 1 | cut -d: -f2)
    case "$st" in
    optimal) echo "sat $obj" ;;
    solved) echo sat ;;
    unsat) echo unsat ;;
    *) echo "ilpm: $j" ;;
    esac
    case "$st" in optimal | solved) grep -q '"verified":true' <<<"$j" || echo "NOT VERIFIED" ;; esac
}

agree() { # NAME WANT GOT
    if [ "$2" = "$3" ]; then ok; else bad "$1: peers say '$2', ilpm '$3'"; fi
}

# random_models.py writes " obj: 0 x1" for a model without an objective.
has_obj() { grep -qx ' obj: 0 x1' "$1" && echo 0 || echo 1; }

for seed in $(seq 1 "$N"); do
    # LP, and MPS as glpsol writes it
    python3 "$here/random_models.py" lp "$seed" "$tmp/r$seed"
    lp="$tmp/r$seed.lp" mps="$tmp/r$seed.mps"
    glpsol --lp "$lp" --check --wfreemps "$mps" >/dev/null 2>&1
    ho=$(has_obj "$lp")
    want=$(glpsol_answer --lp "$lp" "$ho")
    for b in ilp sat cp; do
        agree "lp seed $seed $b" "$want" "$(ilpm_answer "$lp" "$b")"
        agree "mps seed $seed $b" "$(glpsol_answer --freemps "$mps" "$ho")" \
            "$(ilpm_answer "$mps" "$b")"
    done

    # OPB, against glpsol on its LP form
    python3 "$here/random_models.py" opb "$seed" "$tmp/p$seed"
    ho=$(grep -q '^min:' "$tmp/p$seed.opb" && echo 1 || echo 0)
    want=$(glpsol_answer --lp "$tmp/p$seed.lp" "$ho")
    for b in ilp sat cp; do
        agree "opb seed $seed $b" "$want" "$(ilpm_answer "$tmp/p$seed.opb" "$b")"
    done

    # CNF, against minisat and cadical
    python3 "$here/random_models.py" cnf "$seed" "$tmp/c$seed"
    cnf="$tmp/c$seed.cnf"
    minisat "$cnf" "$tmp/minisat.out" >/dev/null 2>&1
    ms=$(head -n 1 "$tmp/minisat.out")
    cadical -q "$cnf" >/dev/null 2>&1
    cr=$?
    case "$ms/$cr" in
    SAT/10) want=sat ;;
    UNSAT/20) want=unsat ;;
    *) want="minisat $ms, cadical exit $cr" ;;
    esac
    for b in ilp sat cp; do
        agree "cnf seed $seed $b" "$want" "$(ilpm_answer "$cnf" "$b")"
    done
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
