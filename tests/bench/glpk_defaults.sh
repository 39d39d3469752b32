#!/usr/bin/env bash
# ilpm's GLPK settings against glpsol's own defaults: every GLPK example
# with binary or integer variables (the .mod files among GLPK's examples,
# data sections included) and the MIPLIB 0/1 files, solved by glpsol and
# by `ilpm solve gmpl|model` on ilp with its defaults, each under a
# per-run time limit; the wall time, the status and whether the optima
# agree, as a Markdown table (run on demand, not by meson test).
# Usage, from the source root:  tests/bench/glpk_defaults.sh [ILPM]
# LIMIT (seconds per run, default 10) is glpsol's --tmlim and ilpm's
# --time-limit; OPTS adds ilpm options (e.g. "--cuts none"); EXAMPLES the
# folder of GLPK's examples; MIPLIB the folder of the .mps files.
# Columns: glpsol's time and status; ilpm's; "agree": the optima (both
# proven) are equal, "-" when either has none.  ilpm models 0/1 and
# bounded integer variables (--int-encoding binary): a model with
# continuous or unbounded integer variables is "refused".
set -u
ILPM=${1:-build/ilpm}
LIMIT=${LIMIT:-10}
OPTS=${OPTS:-}
EXAMPLES=${EXAMPLES:-/usr/share/doc/glpk-utils/examples}
MIPLIB=${MIPLIB:-/work/shared/data/miplib}
# Files of ilpm's own with the coefficients that defeat GLPK's MIR cuts.
EXTRA=${EXTRA:-"data/models/todd15.lp data/models/knapsack_big.lp"}
if [ ! -x "$ILPM" ] || ! command -v glpsol >/dev/null; then
    echo "glpk_defaults.sh: needs $ILPM and glpsol" >&2
    exit 2
fi
ILPM=$(cd "$(dirname "$ILPM")" && pwd)/$(basename "$ILPM")
extra=()
for f in $EXTRA; do
    [ -f "$f" ] && extra+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1 # some examples write files where they run

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# glpsol_run KIND FILE: "TIME STATUS OBJ" (OBJ "-" unless proven optimal)
glpsol_run() {
    local t0 out st obj
    t0=$(now)
    if [ "$1" = gmpl ]; then
        out=$(glpsol -m "$2" --tmlim "$LIMIT" -o "$work/sol" 2>&1)
    else
        local fmt=--mps
        case $2 in *.lp) fmt=--lp ;; esac
        out=$(glpsol $fmt "$2" --tmlim "$LIMIT" -o "$work/sol" 2>&1)
        if [ $fmt = --mps ] && grep -q "MPS file processing error" <<<"$out"; then
            t0=$(now) # a free MPS file (sentoy's)
            out=$(glpsol --freemps "$2" --tmlim "$LIMIT" -o "$work/sol" 2>&1)
        fi
    fi
    local t
    t=$(secs "$t0" "$(now)")
    st=other
    obj=-
    if grep -q "INTEGER OPTIMAL SOLUTION FOUND" <<<"$out"; then
        st=optimal
        obj=$(sed -n 's/^Objective: .* = *\([-0-9.e+]*\).*/\1/p' "$work/sol" | head -1)
    elif grep -q "PROBLEM HAS NO INTEGER FEASIBLE\|PROBLEM HAS NO PRIMAL FEASIBLE" <<<"$out"; then
        st=infeasible
    elif grep -q "TIME LIMIT EXCEEDED" <<<"$out"; then
        st=timeout
    elif grep -q "LP HAS NO PRIMAL\|no integer\|not found" <<<"$out"; then
        st=infeasible
    fi
    if grep -qi "error" <<<"$out" && [ "$st" = other ]; then
        st=error
    fi
    echo "$t $st ${obj:--}"
}

# ilpm_run KIND FILE: "TIME STATUS OBJ"
ilpm_run() {
    local t0 out t st obj
    t0=$(now)
    # shellcheck disable=SC2086 # OPTS is a list of options
    out=$("$ILPM" solve "$1" "$2" --backend ilp --time-limit "$LIMIT" \
        --int-encoding binary --format json $OPTS 2>"$work/err")
    t=$(secs "$t0" "$(now)")
    st=$(sed -n 's/.*"status":"\([a-z]*\)".*/\1/p' <<<"$out" | head -1)
    if [ -z "$st" ]; then
        if grep -q "continuous\|without a finite\|relaxes nothing" "$work/err"; then
            st=refused
        else
            st=error
        fi
    fi
    obj=-
    if [ "$st" = optimal ]; then
        obj=$(sed -n 's/.*"solution":.*"objective":\([-0-9.e+]*\)}.*/\1/p' <<<"$out")
        [ -n "$obj" ] || obj=$(sed -n 's/.*"objective":\([-0-9.e+]*\),.*/\1/p' <<<"$out")
    fi
    [ "$st" = unsat ] && st=infeasible
    echo "$t $st ${obj:--}"
}

agree() { # agree OBJ1 OBJ2
    if [ "$1" = - ] || [ "$2" = - ]; then
        echo -
    else
        awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
            s = (a < 0 ? -a : a); print (d <= 1e-6 * (s > 1 ? s : 1)) ? "yes" : "NO" }'
    fi
}

row() { # row NAME KIND FILE
    local gt gs go it is io
    read -r gt gs go <<<"$(glpsol_run "$2" "$3")"
    read -r it is io <<<"$(ilpm_run "$2" "$3")"
    printf '| %s | %s s %s | %s s %s | %s |\n' "$1" "$gt" "$gs" "$it" "$is" \
        "$(agree "$go" "$io")"
}

printf '| model | glpsol | ilp%s | agree |\n' "${OPTS:+ $OPTS}"
printf '|---|---|---|---|\n'
for m in "$EXAMPLES"/*.mod; do
    grep -qE '\b(binary|integer)\b' "$m" || continue
    grep -qE '^ *var\b.*\b(binary|integer)\b|\bvar\b[^;]*\b(binary|integer)\b' "$m" || continue
    row "$(basename "$m")" gmpl "$m"
done
for f in "$MIPLIB"/*.mps "${extra[@]}"; do
    [ -f "$f" ] && row "$(basename "$f")" model "$f"
done
