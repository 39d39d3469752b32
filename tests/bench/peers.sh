#!/usr/bin/env bash
# ilpm against the tools a user would otherwise pick, on the same instances
# in one run: glpsol on the GMPL models in models/gmpl, cbc on ilpm's
# exported MPS, the cadical and minisat programs on ilpm's exported DIMACS
# (pairwise at-most-one, as the seed reports encode it), and MiniZinc with
# Gecode on models/mzn.  Every tool runs as its own process on a file
# written beforehand, with a time limit per run; ilpm too (ilp, sat, cp).
#
# Usage: tests/bench/peers.sh [ILPM] [PUZZLE...]   (from the source root)
#   PUZZLE: queens langford2 langford3 langford_unsat tetravex sudoku
#           machiavelli (default: all)
#   env: LIMIT (seconds per run, default 10), REPS (runs per size for the
#        median, default 3), OUT (Markdown file, default
#        tests/bench/out/peers.md), ONLY (tool names to run, e.g.
#        "ilpm-ilp ilpm-sat ilpm-cp"; default: ilpm and every peer
#        installed; CP_OPTS: extra options of ilpm-cp on Tetravex),
#        SUDOKU_CNF (formulation of the Sudoku CNF the SAT programs read:
#        atmost, the seed report's, by default; or exact)
# Prints, per puzzle and tool, the largest size solved within LIMIT and the
# median time at each size every tool solved, as a Markdown table.
set -u
ILPM=$(realpath "${1:-build/ilpm}")
shift || true
puzzles=("$@")
[ ${#puzzles[@]} -eq 0 ] && puzzles=(queens langford2 langford3 langford_unsat tetravex sudoku machiavelli)
LIMIT=${LIMIT:-10}
REPS=${REPS:-3}
OUT=${OUT:-tests/bench/out/peers.md}
here=$(cd "$(dirname "$0")" && pwd)
gmpl=$(cd "$here/../../models/gmpl" && pwd) # the MathProg models ilpm ships
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$OUT")"

have() { command -v "$1" >/dev/null; }

# run_timed CMD... : prints "SECONDS STATUS" where STATUS is ok or fail,
# judged by judge_$tool on the output and exit code.
now() { date +%s.%N; }

judge() { # TOOL EXIT OUTPUT-FILE -> 0 when the tool gave an answer
    local tool=$1 code=$2 f=$3
    case "$tool" in
    ilpm-*) [ "$code" -eq 0 ] || [ "$code" -eq 10 ] ;;
    glpsol) grep -qE "INTEGER OPTIMAL SOLUTION FOUND|PROBLEM HAS NO (PRIMAL|INTEGER) FEASIBLE|INTEGER EMPTY" "$f" ;;
    cbc) grep -qE "Optimal - objective value|Result - Optimal solution found|infeasible" "$f" &&
        ! grep -q "Stopped on time" "$f" ;;
    cadical | minisat) [ "$code" -eq 10 ] || [ "$code" -eq 20 ] ;;
    gecode) grep -qE "^----------|=====UNSATISFIABLE=====" "$f" ;;
    esac
}

# time_one TOOL CMD... -> seconds, or "fail"
time_one() {
    local tool=$1
    shift
    local t0 t1 code
    t0=$(now)
    timeout -k 5 "$LIMIT" "$@" >"$work/out" 2>&1
    code=$?
    t1=$(now)
    local answered=1
    if [[ "$1" == *run_boards.sh ]]; then
        [ "$code" -eq 0 ] || answered=0
    else
        judge "$tool" "$code" "$work/out" || answered=0
    fi
    if [ "$code" -ne 124 ] && [ "$answered" -eq 1 ]; then
        echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}'
    else
        echo fail
    fi
}

# median of REPS runs, "fail" if any run failed
median_of() {
    local tool=$1
    shift
    local ts=() t
    for _ in $(seq 1 "$REPS"); do
        t=$(time_one "$tool" "$@")
        [ "$t" = fail ] && { echo fail; return; }
        ts+=("$t")
    done
    printf '%s\n' "${ts[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'
}

declare -A RES # RES[tool,size] = median seconds or fail
declare -A LARGEST
TOOLS=()

# ladder PUZZLE SIZES... : runs every tool on every size in order, a tool
# dropping out after its first failure.  prepare_$PUZZLE SIZE writes the
# files; cmd_$PUZZLE TOOL SIZE prints the command (empty: not applicable).
ladder() {
    local p=$1
    shift
    local sizes=("$@") tool size cmd t
    RES=()
    LARGEST=()
    for tool in "${TOOLS[@]}"; do
        for size in "${sizes[@]}"; do
            "prepare_$p" "$size" || continue
            cmd=$("cmd_$p" "$tool" "$size")
            [ -z "$cmd" ] && { RES[$tool,$size]=n/a; continue; }
            # shellcheck disable=SC2086
            t=$(median_of "$tool" $cmd)
            RES[$tool,$size]=$t
            echo "  $p $size $tool: $t" >&2
            [ "$t" = fail ] && break
            LARGEST[$tool]="$size ($t s)"
        done
    done
    {
        echo
        echo "### $p (limit ${LIMIT} s, median of $REPS)"
        echo
        printf '| size |'
        for tool in "${TOOLS[@]}"; do printf ' %s |' "$tool"; done
        echo
        printf '|---|'
        for _ in "${TOOLS[@]}"; do printf -- '---|'; done
        echo
        printf '| largest solved |'
        for tool in "${TOOLS[@]}"; do printf ' %s |' "${LARGEST[$tool]:--}"; done
        echo
        for size in "${sizes[@]}"; do
            local any=0
            for tool in "${TOOLS[@]}"; do
                [ -n "${RES[$tool,$size]:-}" ] && any=1
            done
            [ "$any" -eq 0 ] && continue
            printf '| %s |' "$size"
            for tool in "${TOOLS[@]}"; do printf ' %s |' "${RES[$tool,$size]:-}"; done
            echo
        done
    } | tee -a "$OUT"
}

TOOLS=(ilpm-ilp ilpm-sat ilpm-cp)
have glpsol && TOOLS+=(glpsol)
have cbc && TOOLS+=(cbc)
have cadical && TOOLS+=(cadical)
have minisat && TOOLS+=(minisat)
have minizinc && TOOLS+=(gecode)
# shellcheck disable=SC2206
[ -n "${ONLY:-}" ] && TOOLS=($ONLY)

peer_cmd() { # TOOL GMPL-MODEL DAT MPS CNF MZN DZN
    case "$1" in
    glpsol) echo "glpsol -m $2 -d $3" ;;
    cbc) echo "cbc $4 solve quit" ;;
    cadical) echo "cadical -q $5" ;;
    minisat) echo "minisat -verb=0 $5" ;;
    gecode) [ -n "$6" ] && echo "minizinc --solver gecode $6 $7" ;;
    esac
}

# ---------------------------------------------------------------- queens
prepare_queens() {
    local n=$1 d=$work/q$1
    [ -f "$d.cnf" ] && return 0
    echo "data; param n := $n; end;" >"$d.dat"
    echo "n = $n;" >"$d.dzn"
    "$ILPM" export queens --n "$n" --mps "$d.mps" --cnf "$d.cnf" --amo pairwise 2>/dev/null
}
cmd_queens() {
    local d=$work/q$2
    case "$1" in
    ilpm-ilp) echo "$ILPM solve queens --n $2 --backend ilp" ;;
    ilpm-sat) echo "$ILPM solve queens --n $2 --backend sat" ;;
    ilpm-cp) echo "$ILPM solve queens --n $2 --backend cp" ;;
    *) peer_cmd "$1" "$gmpl/queens.mod" "$d.dat" "$d.mps" "$d.cnf" "$here/../../models/mzn/queens.mzn" "$d.dzn" ;;
    esac
}

# ------------------------------------------------------------- langford
LK=2
prepare_langford() {
    local n=$1 d=$work/l${LK}_$1
    [ -f "$d.cnf" ] && return 0
    echo "data; param k := $LK; param n := $n; end;" >"$d.dat"
    echo "k = $LK; n = $n;" >"$d.dzn"
    "$ILPM" export langford --k "$LK" --n "$n" --mps "$d.mps" --formulation positions 2>/dev/null
    "$ILPM" export langford --k "$LK" --n "$n" --cnf "$d.cnf" --amo pairwise 2>/dev/null
}
cmd_langford() {
    local d=$work/l${LK}_$2
    case "$1" in
    ilpm-ilp) echo "$ILPM solve langford --k $LK --n $2 --backend ilp $LANGFORD_OPTS" ;;
    ilpm-sat) echo "$ILPM solve langford --k $LK --n $2 --backend sat $LANGFORD_OPTS" ;;
    ilpm-cp) echo "$ILPM solve langford --k $LK --n $2 --backend cp $LANGFORD_OPTS" ;;
    *) peer_cmd "$1" "$gmpl/langford.mod" "$d.dat" "$d.mps" "$d.cnf" "$here/../../models/mzn/langford.mzn" "$d.dzn" ;;
    esac
}

# ------------------------------------------------------------- tetravex
# Three generated boards per size; a size counts as solved when all are.
prepare_tetravex() {
    local n=$1 s
    [ -f "$work/t$1_3.cnf" ] && return 0
    for s in 1 2 3; do
        local d=$work/t${n}_$s
        "$ILPM" gen tetravex --n "$n" --seed "$s" >"$d.txt" || return 1
        # native format: N, then N*N lines "left up right down"
        awk '/^#/ {next} !n {n = $1; print "data; param N := " n ";"; print "param : left up right down :="; next}
             NF >= 4 {i++; print i, $1, $2, $3, $4} END {print ";"; print "end;"}' "$d.txt" >"$d.dat"
        awk '/^#/ {next} !n {n = $1; printf "N = %d;\npezzi = [|", n; next}
             NF >= 4 {printf " %s, %s, %s, %s |", $1, $2, $3, $4} END {print "];"}' "$d.txt" >"$d.dzn"
        "$ILPM" export tetravex "$d.txt" --mps "$d.mps" --cnf "$d.cnf" --amo pairwise 2>/dev/null
    done
}
cmd_tetravex() {
    # One command per board: run_boards runs the three in a row.
    echo "$here/run_boards.sh $1 $work/t$2 $ILPM $here"
}

# --------------------------------------------------------- machiavelli
prepare_machiavelli() {
    local D=$1 d=$work/m$1
    [ -f "$d.mps" ] && return 0
    "$ILPM" gen machiavelli --cards $((52 * D)) --decks "$D" --seed 1 >"$d.txt" || return 1
    awk -v D="$D" 'BEGIN {split("H D S C", su, " "); for (i = 1; i <= 4; i++) s[su[i]] = i;
                          split("A 2 3 4 5 6 7 8 9 10 J Q K", rk, " "); for (i = 1; i <= 13; i++) r[rk[i]] = i}
        /^table:/ {for (i = 2; i <= NF; i++) {c = $i; su1 = substr(c, length(c)); ra = substr(c, 1, length(c) - 1);
                   if (ra == "T") ra = "10"; cnt[s[su1] "," r[ra]]++}}
        END {print "data; param D := " D "; param cnt :="; for (k in cnt) {split(k, a, ","); print "[" a[1] "," a[2] "] " cnt[k]} print "; end;"}' \
        "$d.txt" >"$d.dat"
    "$ILPM" export machiavelli "$d.txt" --decks "$D" --mps "$d.mps" --cnf "$d.cnf" --amo pairwise 2>/dev/null
}
cmd_machiavelli() {
    local d=$work/m$2
    case "$1" in
    ilpm-ilp) echo "$ILPM solve machiavelli $d.txt --decks $2 --backend ilp" ;;
    ilpm-sat) echo "$ILPM solve machiavelli $d.txt --decks $2 --backend sat" ;;
    ilpm-cp) echo "$ILPM solve machiavelli $d.txt --decks $2 --backend cp" ;;
    gecode) ;;
    *) peer_cmd "$1" "$gmpl/machiavelli.mod" "$d.dat" "$d.mps" "$d.cnf" "" "" ;;
    esac
}

# --------------------------------------------------------------- sudoku
# The whole file in one go: ilpm in one process, the peers once per grid.
prepare_sudoku() {
    local set=$1 d=$work/s_$1
    [ -d "$d" ] && return 0
    mkdir -p "$d"
    local i=0 line
    grep -vE '^(#|$)' "data/sudoku/$set.txt" | cut -d: -f1 | while read -r line; do
        i=$((i + 1))
        local len=${#line} b
        case $len in 16) b=2 ;; 81) b=3 ;; 256) b=4 ;; 625) b=5 ;; *) continue ;; esac
        echo "$line" >"$d/$i.txt"
        awk -v b="$b" '{N = b * b; print "data; param b := " b "; param given :=";
            for (k = 1; k <= length($0); k++) {ch = substr($0, k, 1); v = 0;
                if (ch ~ /[1-9]/) v = ch + 0; else if (ch ~ /[A-Pa-p]/) v = index("ABCDEFGHIJKLMNOP", toupper(ch)) + 9;
                if (v > 0) print "[" int((k - 1) / N) + 1 "," ((k - 1) % N) + 1 "] " v}
            print "; end;"}' "$d/$i.txt" >"$d/$i.dat"
        awk -v b="$b" '{N = b * b; printf "b = %d;\ngiven = [|", b;
            for (k = 1; k <= length($0); k++) {ch = substr($0, k, 1); v = 0;
                if (ch ~ /[1-9]/) v = ch + 0; else if (ch ~ /[A-Pa-p]/) v = index("ABCDEFGHIJKLMNOP", toupper(ch)) + 9;
                printf " %d%s", v, (k % N == 0 ? " |" : ",")}
            print "];"}' "$d/$i.txt" >"$d/$i.dzn"
        # cbc reads ilpm's default model (equality rows, as the GMPL model
        # glpsol reads); the SAT programs read the seed report's pairwise
        # CNF unless SUDOKU_CNF=exact.
        "$ILPM" export sudoku "$d/$i.txt" --mps "$d/$i.mps" 2>/dev/null
        "$ILPM" export sudoku "$d/$i.txt" --cnf "$d/$i.cnf" --amo pairwise \
            --formulation "${SUDOKU_CNF:-atmost}" 2>/dev/null
    done
}
cmd_sudoku() {
    local d=$work/s_$2
    case "$1" in
    ilpm-ilp) echo "$ILPM solve sudoku data/sudoku/$2.txt --backend ilp" ;;
    ilpm-sat) echo "$ILPM solve sudoku data/sudoku/$2.txt --backend sat" ;;
    ilpm-cp) echo "$ILPM solve sudoku data/sudoku/$2.txt --backend cp" ;;
    *) echo "$here/run_boards.sh $1 $d $ILPM $here" ;;
    esac
}

: >"$OUT"
echo "# ilpm against its peers ($(date -u +%Y-%m-%d), $(nproc) cores)" | tee -a "$OUT"
for p in "${puzzles[@]}"; do
    case "$p" in
    queens) ladder queens 8 16 32 48 64 80 96 128 160 200 256 300 400 ;;
    langford2)
        LK=2 LANGFORD_OPTS=""
        ladder langford 3 4 7 8 11 12 15 16 19 20 23 24 27 28 31 32 35 36 39 40 47 48 55 56 63 64 79 80 99 100 127 128 147 148 150 ;;
    langford3)
        LK=3 LANGFORD_OPTS=""
        ladder langford 9 10 17 18 19 20 26 27 28 ;;
    langford_unsat)
        LK=2 LANGFORD_OPTS=""
        ladder langford 5 6 9 10 13 14 17 18 ;;
    tetravex) ladder tetravex 3 4 5 6 7 8 9 ;;
    sudoku) ladder sudoku norvig_top95 norvig_hardest gecode_16x16 gecode_25x25 ;;
    machiavelli) ladder machiavelli 1 2 3 4 5 6 7 8 ;;
    esac
done
echo "written to $OUT" >&2
