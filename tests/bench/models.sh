#!/usr/bin/env bash
# `ilpm solve model` on ilp and sat against the tools a user would run on
# the same file: glpsol on the LP form, cbc on the MPS form, cadical on
# the CNF form (each form written once by `ilpm export model`, the file
# itself where it is in that format).  A second table compares reading:
# `ilpm stats model` (read, recognise, lower to both GLPK and CNF, count)
# against `glpsol --check` (read only).  Every run is its own process with
# a time limit; times are medians of REPS runs.
#
# Usage: tests/bench/models.sh [ILPM]   (from the source root)
#   env: LIMIT (seconds per run, default 20), REPS (default 3), OUT
#        (Markdown file, default tests/bench/out/models.md)
set -u
ILPM=$(realpath "${1:-build/ilpm}")
LIMIT=${LIMIT:-20}
REPS=${REPS:-3}
OUT=${OUT:-tests/bench/out/models.md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$OUT")"
have() { command -v "$1" >/dev/null; }
now() { date +%s.%N; }

# --- the files ----------------------------------------------------------
files=()
cp data/models/knapsack.lp data/models/setcover.mps data/models/vertexcover.opb \
    data/models/php_5_4.cnf "$work"/
files+=(knapsack.lp setcover.mps vertexcover.opb php_5_4.cnf)
"$ILPM" export queens --n 40 --lp "$work/queens40.lp" --opb "$work/queens40.opb" \
    --cnf "$work/queens40.cnf" --mps "$work/queens40.mps" >/dev/null
files+=(queens40.lp queens40.opb queens40.cnf)
python3 - "$work" <<'EOF'
import random, sys
w = sys.argv[1]
# pigeonhole n+1 into n, the classic rule of data/models/README.md
for n in (7, 8):
    v = lambda i, j: (i - 1) * n + j
    cl = [[v(i, j) for j in range(1, n + 1)] for i in range(1, n + 2)]
    cl += [[-v(a, j), -v(b, j)] for j in range(1, n + 1)
           for a in range(1, n + 2) for b in range(a + 1, n + 2)]
    with open("%s/php_%d_%d.cnf" % (w, n + 1, n), "w") as f:
        f.write("p cnf %d %d\n" % (n * (n + 1), len(cl)))
        f.writelines(" ".join(map(str, c)) + " 0\n" for c in cl)
# random 3-SAT at the threshold
r = random.Random(7)
for n in (150, 200):
    m = int(4.26 * n)
    with open("%s/3sat_%d.cnf" % (w, n), "w") as f:
        f.write("p cnf %d %d\n" % (n, m))
        for _ in range(m):
            f.write(" ".join(str(x if r.random() < .5 else -x)
                             for x in r.sample(range(1, n + 1), 3)) + " 0\n")
# a multi-dimensional knapsack: 35 items, 5 capacities
r = random.Random(11)
n, k = 35, 5
with open("%s/mknap35.lp" % w, "w") as f:
    f.write("Maximize\n value: %s\nSubject To\n" %
            " + ".join("%d x%d" % (r.randint(10, 99), j) for j in range(n)))
    for i in range(k):
        ws = [r.randint(5, 60) for _ in range(n)]
        f.write(" cap%d: %s <= %d\n" % (i, " + ".join("%d x%d" % (a, j) for j, a in enumerate(ws)),
                                        sum(ws) // 3))
    f.write("Binary\n %s\nEnd\n" % " ".join("x%d" % j for j in range(n)))
EOF
files+=(php_8_7.cnf php_9_8.cnf 3sat_150.cnf 3sat_200.cnf mknap35.lp)
# Larger files for the reading table alone.
"$ILPM" export queens --n 150 --lp "$work/queens150.lp" --mps "$work/queens150.mps" >/dev/null
readfiles=(queens40.lp queens40.mps mknap35.lp queens150.lp queens150.mps)

# Each file in every form: the file itself, or ilpm's export of it.
forms() { # FILE -> sets lp mps cnf
    local f=$1 b=${1%.*} e=${1##*.}
    lp=$b.lp mps=$b.mps cnf=$b.cnf
    local args=()
    [ "$e" != lp ] && [ ! -e "$work/$lp" ] && args+=(--lp "$work/$lp")
    [ "$e" != mps ] && [ ! -e "$work/$mps" ] && args+=(--mps "$work/$mps")
    [ "$e" != cnf ] && [ ! -e "$work/$cnf" ] && args+=(--cnf "$work/$cnf")
    [ ${#args[@]} -gt 0 ] && "$ILPM" export model "$work/$f" "${args[@]}" >/dev/null 2>&1
}

# median seconds of REPS runs of CMD (in $work), or "-" past LIMIT or on
# failure (JUDGE: an exit code list, or a pattern of the output)
timed() { # JUDGE CMD...
    local judge=$1
    shift
    local ts=()
    for _ in $(seq "$REPS"); do
        local t0 t1 code
        t0=$(now)
        (cd "$work" && timeout -k 5 "$LIMIT" "$@" >"$work/out" 2>&1)
        code=$?
        t1=$(now)
        case "$judge" in
        codes:*) [[ ",${judge#codes:}," == *",$code,"* ]] || { echo "-"; return; } ;;
        *) grep -qE "$judge" "$work/out" || { echo "-"; return; } ;;
        esac
        ts+=("$(echo "$t1 - $t0" | bc -l)")
    done
    printf '%s\n' "${ts[@]}" | sort -g | sed -n "$(((REPS + 1) / 2))p" | xargs printf '%.3f'
}

answer() { # FILE -> ilpm's proven answer: sat, else ilp, within LIMIT
    local b a
    for b in sat ilp; do
        a=$("$ILPM" solve model "$work/$1" --backend "$b" --time-limit "$LIMIT" \
            --format json 2>/dev/null | grep -oE '"status":"[a-z]+"|"objective":-?[0-9.]+' |
            head -n 2 | cut -d: -f2 | tr -d '"' | paste -sd' ')
        case "$a" in optimal* | solved* | unsat*) break ;; esac
    done
    echo "${a:-?}"
}

{
    echo "# model: ilpm against peers on the same files"
    echo
    echo "$(date -u +%Y-%m-%d), ilpm $(git rev-parse --short HEAD 2>/dev/null), $(nproc) cores," \
        "load $(cut -d' ' -f1-3 /proc/loadavg); LIMIT=${LIMIT}s, median of $REPS; seconds, '-' past the limit"
    echo
    echo "| file | answer | ilpm ilp | ilpm sat | glpsol (LP) | cbc (MPS) | cadical (CNF) |"
    echo "|---|---|---:|---:|---:|---:|---:|"
    for f in "${files[@]}"; do
        forms "$f"
        ok_glpsol="INTEGER OPTIMAL SOLUTION FOUND|HAS NO .*FEASIBLE"
        ok_cbc="Optimal - objective value|Result - Optimal solution found|nfeasible"
        row="| $f | $(answer "$f") | $(timed codes:0,10 "$ILPM" solve model "$f" --backend ilp)"
        row+=" | $(timed codes:0,10 "$ILPM" solve model "$f" --backend sat)"
        row+=" | $(have glpsol && timed "$ok_glpsol" glpsol --lp "$lp" -o glpsol.txt || echo n/a)"
        row+=" | $(have cbc && timed "$ok_cbc" cbc "$mps" solve quit || echo n/a)"
        row+=" | $(have cadical && timed codes:10,20 cadical -q "$cnf" || echo n/a) |"
        echo "$row"
    done
    echo
    echo "Reading: \`ilpm stats model FILE\` (read, recognise, lower to GLPK and CNF) against \`glpsol --check\` (read only)"
    echo
    echo "| file | ilpm stats | glpsol --check |"
    echo "|---|---:|---:|"
    for f in "${readfiles[@]}"; do
        case "$f" in
        *.lp) g=(glpsol --lp "$f" --check) ;;
        *.mps) g=(glpsol --freemps "$f" --check) ;;
        *) continue ;;
        esac
        echo "| $f | $(timed codes:0 "$ILPM" stats model "$f") | $(timed "Reading|read" "${g[@]}") |"
    done
} | tee "$OUT"
