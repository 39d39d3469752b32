#!/usr/bin/env bash
# Issue #35's rule for --backend auto: no instance more than 1.5x slower
# under `auto` than under the best single setting (run on demand, not by
# meson test).  For each instance of a list (every puzzle's public files
# in data/, the bench instances: Sudoku 9x9 sets and the 18 25x25 grids
# one by one, L(2,n) samples, queens sizes, Tetravex boards, Machiavelli
# tables, the MIPLIB files of MIPLIB and their OPB twins, a few models/mzn
# FlatZinc through `ilpm fzn`), it times `--backend auto --threads 2`
# and every single setting auto could pick: ilp, sat, sat with target=2,
# cp with --learn off, on and auto, and (given OLD, an ilpm built at
# 2c5b54a) that commit's learning-free cp.  Prints a Markdown table:
# wall and CPU seconds (user + system, children included: auto's members
# are its children) of auto and of the best single setting, and two
# ratios: wall (over the least wall of a single setting), and CPU,
# auto's CPU per thread over the least CPU of a single setting.
# The CPU ratio is what the wall ratio would be with a core for each
# member: auto's members all run until the first answers, so its CPU
# per thread is its wall time on an idle machine.  On a loaded machine
# the wall ratio is not: Linux shares the cores between sessions
# (autogroup), and auto's members share their session's share, so each
# gets a fraction of what one process alone would.  A row whose CPU
# ratio is above 1.5 is flagged and run 3 more times (auto and the best
# setting, the best of the runs taken) before it is called a violation;
# a wall ratio above 1.5 is marked `wall`.
#
# A run counts when it answers: exit 0 or 10 (every instance of the file
# solved, optimal, counted or unsat; fzn: `==========`, UNSATISFIABLE or,
# without an objective, a solution).  Times below FLOOR seconds (default
# 0.05) count as FLOOR in the ratios (process start-up and clock noise
# on a shared machine).  The singles run fastest-first and each is cut
# at the best single time so far (it cannot be the best past it), so a
# row costs auto's time plus about 7 times the best's.
#
#   tests/bench/autorule.sh [ILPM]
#
# ILPM defaults to build/ilpm; OLD (default none) an old build's ilpm;
# TIME_LIMIT (default 10) bounds each run; THREADS (default 2) auto's
# --threads; ONLY (a regular expression) keeps the rows it matches;
# MIPLIB (default ../shared/data/miplib, or ../../shared/data/miplib
# from a worktree) the MIPLIB files.
set -u

ilpm=${1:-build/ilpm}
old=${OLD:-}
limit=${TIME_LIMIT:-10}
threads=${THREADS:-2}
floor=${FLOOR:-0.05}
miplib=${MIPLIB:-../shared/data/miplib}
[ -d "$miplib" ] || [ -n "${MIPLIB:-}" ] || miplib=../../shared/data/miplib
if [ ! -x "$ilpm" ]; then
    echo "autorule.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
if [ -n "$old" ] && [ ! -x "$old" ]; then
    echo "autorule.sh: OLD: no ilpm binary at '$old'" >&2
    exit 2
fi
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# --- the instances: "name|verb puzzle args" ---------------------------
inst=()
add() { inst+=("$1|$2"); }
for f in data/sudoku/*.txt; do
    case $f in *25x25*) continue ;; esac # below, grid by grid
    add "sudoku $(basename "$f")" "solve sudoku $f"
done
awk 'NF { print > (w "/s25_" ++i ".txt") }' w="$work" data/sudoku/gecode_25x25.txt
for i in $(seq 1 18); do
    [ -f "$work/s25_$i.txt" ] && add "sudoku 25x25 #$i" "solve sudoku $work/s25_$i.txt"
done
for n in 8 12 100 200 400 1000; do add "queens $n" "solve queens --n $n"; done
add "queens completion.txt" "solve queens data/queens/completion.txt"
add "queens 10 count" "solve queens --n 10 --count"
for n in 11 12 100 103 112 127 151 160 175 187 195 199 200; do
    add "L(2,$n)" "solve langford --n $n --k 2"
done
add "L(2,11) count" "solve langford --n 11 --k 2 --count"
add "langford minizinc.txt" "solve langford data/langford/minizinc.txt"
for f in $(find data/tetravex -name '*.txt' ! -name '*-ref.txt' | sort); do
    case $f in
    */avignon_motyak/*) fmt="--input-format motyak" ;;
    */epita_*) fmt="--input-format epita" ;;
    *) fmt= ;;
    esac
    add "tetravex ${f#data/tetravex/}" "solve tetravex $f $fmt"
done
for s in 1 2 3; do
    "$ilpm" gen tetravex --n 7 --seed "$s" >"$work/tvx7_$s.txt" 2>/dev/null &&
        add "tetravex gen 7x7 seed $s" "solve tetravex $work/tvx7_$s.txt"
done
# from 8x8, Tetravex's own members (on `edges`, docs/portfolio.md)
for s in 1 2 3; do
    "$ilpm" gen tetravex --n 8 --seed "$s" >"$work/tvx8_$s.txt" 2>/dev/null &&
        add "tetravex gen 8x8 seed $s" "solve tetravex $work/tvx8_$s.txt"
done
for f in data/machiavelli/*.txt; do
    case $f in *play.txt) continue ;; esac
    d=
    [ "$(basename "$f")" = three_decks.txt ] && d="--decks 3"
    add "machiavelli $(basename "$f")" "solve machiavelli $f $d"
done
"$ilpm" gen machiavelli --uniform --decks 4 --cards 120 --seed 1 --count 3 \
    >"$work/mach.txt" 2>/dev/null &&
    add "machiavelli uniform 120 cards x3" "solve machiavelli $work/mach.txt --decks 4"
for f in data/models/*.lp data/models/*.mps data/models/*.opb data/models/*.cnf; do
    e=
    [ "$(basename "$f")" = schedule.lp ] && e="--int-encoding binary"
    add "model $(basename "$f")" "solve model $f $e"
done
for f in "$miplib"/*.mps; do
    [ -f "$f" ] || continue
    b=$(basename "$f" .mps)
    add "miplib $b.mps" "solve model $f"
    "$ilpm" export model "$f" --opb "$work/$b.opb" >/dev/null 2>&1 &&
        add "miplib $b.opb" "solve model $work/$b.opb"
done
if command -v minizinc >/dev/null && [ -d "$(dirname "$ilpm")/share/minizinc/solvers" ]; then
    MZN_SOLVER_PATH=$(dirname "$ilpm")/share/minizinc/solvers
    export MZN_SOLVER_PATH
    M=models/mzn
    for m in "queens n=30|$M/queens.mzn -D n=30" \
        "langford n=40|$M/langford.mzn -D k=2;n=40" \
        "golomb m=8|$M/golomb.mzn -D m=8" \
        "magic_sequence n=30|$M/magic_sequence.mzn -D n=30" \
        "knapsack_20|$M/knapsack01.mzn $M/knapsack_20.dzn" \
        "nonogram dom_06|$M/nonogram.mzn $M/nonogram_dom_06.dzn" \
        "black_hole_1|$M/black_hole.mzn $M/black_hole_1.dzn" \
        "tetravex_5|$M/tetravex.mzn $M/tetravex_5.dzn"; do
        name=${m%%|*}
        f=$work/fzn_${name//[^a-z0-9_]/_}.fzn
        read -r -a a <<<"${m#*|}"
        minizinc -c --solver ilpm "${a[@]}" --fzn "$f" --ozn /dev/null \
            >/dev/null 2>&1 && add "fzn $name" "fzn $f"
    done
fi
for f in data/fzn/*.fzn; do add "fzn $(basename "$f")" "fzn $f"; done

# --- one run ----------------------------------------------------------
# run BIN CUT ARGS...: wall and CPU seconds into $work/t, 0 when it
# answered.  CUT: the seconds after which it is killed.
run() {
    local bin=$1 cut=$2
    shift 2
    /usr/bin/time -f '%e %U %S' -o "$work/t" timeout -s TERM -k 1 "$cut" \
        "$bin" "$@" >"$work/out" 2>/dev/null
    local rc=$?
    read -r wall u s <"$work/t" 2>/dev/null || { wall=$cut u=0 s=0; }
    # /usr/bin/time prefixes "Command exited with non-zero status N"
    if ! [[ $wall =~ ^[0-9.]+$ ]]; then
        read -r wall u s < <(tail -1 "$work/t")
    fi
    cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    if [ "$1" = fzn ]; then
        [ $rc -eq 0 ] || return 1
        grep -q -- '^==========$\|^=====UNSATISFIABLE=====$' "$work/out" && return 0
        grep -q '^solve .*satisfy' "$2" && grep -q -- '^----------$' "$work/out"
        return
    fi
    [ $rc -eq 0 ] || [ $rc -eq 10 ]
}

# the settings: "name|binary|options" (fzn: the options of `ilpm fzn`)
settings() { # fzn?
    local s=("cp learn=off|$ilpm|--backend cp --learn off"
        "sat target=2|$ilpm|--backend sat --sat-option target=2"
        "sat|$ilpm|--backend sat"
        "cp learn=auto|$ilpm|--backend cp --learn auto"
        "cp learn=on|$ilpm|--backend cp --learn on"
        "ilp|$ilpm|--backend ilp")
    if [ "$1" = 1 ]; then
        s=("${s[@]/--backend /--ilpm-backend }")
    elif [ -n "$old" ]; then
        s+=("2c5b54a cp|$old|--backend cp")
    fi
    printf '%s\n' "${s[@]}"
}

auto_opts() { # fzn?
    if [ "$1" = 1 ]; then echo "-p $threads"; else echo "--backend auto --threads $threads"; fi
}
tl_opts() { # fzn?
    if [ "$1" = 1 ]; then echo "-t $((limit * 1000))"; else echo "--time-limit $limit"; fi
}

ratio() { awk -v a="$1" -v b="$2" -v f="$floor" -v d="${3:-1}" \
    'BEGIN { a /= d; a = a < f ? f : a; b = b < f ? f : b; printf "%.2f", a / b }'; }
above() { awk -v r="$1" 'BEGIN { exit !(r > 1.5) }'; }

echo "machine: $(nproc) cores, $(uptime | sed 's/.*load/load/')"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?'); limit ${limit} s; auto: --threads $threads${old:+; old: $old}"
echo
echo "| instance | auto wall | auto CPU | member | best single (CPU) | best wall | its CPU | wall ratio | CPU ratio (per thread) | |"
echo "|---|---:|---:|---|---|---:|---:|---:|---:|---|"
flagged=0 violations=0 rows=0
for e in "${inst[@]}"; do
    name=${e%%|*}
    [[ $name =~ ${ONLY:-.} ]] || continue
    read -r -a args <<<"${e#*|}"
    fz=0
    [ "${args[0]}" = fzn ] && fz=1
    read -r -a ao <<<"$(auto_opts $fz)"
    read -r -a to <<<"$(tl_opts $fz)"
    cut=$((limit * 2 + 5))
    if run "$ilpm" "$cut" "${args[@]}" "${ao[@]}" "${to[@]}"; then
        aok=1
    else
        aok=0
    fi
    aw=$wall ac=$cpu
    mb=$(sed -n 's/.*auto: \([^)]*\)).*/\1/p' "$work/out" | head -1)
    best='' bw='' bc=
    while IFS='|' read -r sn sb so; do
        read -r -a o <<<"$so"
        c=$cut
        [ -n "$bw" ] && c=$(awk -v b="$bw" 'BEGIN { printf "%.2f", b + 0.3 }')
        if run "$sb" "$c" "${args[@]}" "${o[@]}" "${to[@]}"; then
            # the best by CPU; the least wall of any
            if [ -z "$bw" ] || awk -v w="$cpu" -v b="$bc" 'BEGIN { exit !(w < b) }'; then
                best=$sn bc=$cpu
            fi
            if [ -z "$bw" ] || awk -v w="$wall" -v b="$bw" 'BEGIN { exit !(w < b) }'; then
                bw=$wall
            fi
        fi
    done < <(settings $fz)
    rows=$((rows + 1))
    if [ -z "$bw" ]; then
        [ $aok = 1 ] && st="auto only" || st="none answered"
        echo "| $name | $([ $aok = 1 ] && echo "$aw" || echo "> $limit") | $ac | $mb | - | - | - | - | - | $st |"
        continue
    fi
    [ $aok = 1 ] || { aw=$limit ac=$((limit * threads)); }
    r=$(ratio "$ac" "$bc" "$threads")
    flag=
    if above "$r"; then
        flagged=$((flagged + 1))
        # three more runs of each, the best of all taken
        so=$(settings $fz | awk -F'|' -v n="$best" '$1 == n { print $2 "|" $3 }')
        read -r -a o <<<"${so#*|}"
        for _ in 1 2 3; do
            if run "$ilpm" "$cut" "${args[@]}" "${ao[@]}" "${to[@]}"; then
                awk -v w="$wall" -v b="$aw" 'BEGIN { exit !(w < b) }' && aw=$wall
                { [ $aok = 0 ] || awk -v w="$cpu" -v b="$ac" 'BEGIN { exit !(w < b) }'; } && ac=$cpu
                aok=1
            fi
            if run "${so%%|*}" "$cut" "${args[@]}" "${o[@]}" "${to[@]}"; then
                awk -v w="$wall" -v b="$bw" 'BEGIN { exit !(w < b) }' && bw=$wall
                awk -v w="$cpu" -v b="$bc" 'BEGIN { exit !(w < b) }' && bc=$cpu
            fi
        done
        r=$(ratio "$ac" "$bc" "$threads")
        if above "$r"; then
            flag="VIOLATION"
            violations=$((violations + 1))
        else
            flag="flagged, not again"
        fi
    fi
    w=$(ratio "$aw" "$bw")
    above "$w" && flag="${flag:+$flag, }wall"
    # auto's CPU then stands at the limit on every thread: a lower bound
    [ $aok = 1 ] || flag="${flag:+$flag, }auto: no answer within the limit"
    echo "| $name | $([ $aok = 1 ] && echo "$aw" || echo "> $limit") | $ac | $mb | $best | $bw | $bc | $w | $r | $flag |"
done
echo
echo "$rows rows, $flagged flagged (CPU ratio > 1.5 on the first run), $violations violations (best of 4)"
echo "load at the end: $(uptime | sed 's/.*load/load/')"
