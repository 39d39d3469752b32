#!/usr/bin/env bash
# MiniZinc models (models/mzn) on Gecode and on each of ilpm's engines,
# through `minizinc --solver`, in the same run: wall time of the whole call
# (compilation included) and the solutions printed, as a Markdown table.
# Usage: tests/bench/minizinc.sh [BUILD]   (from the source root;
# LIMIT=60 seconds per call; ONLY=REGEX runs the models whose name
# matches; REPEAT=3 keeps the best of three calls, a call cut by the
# limit not repeated; SOLVERS="gecode cp" runs those columns alone, of
# gecode, cp, sat and ilp)
set -u
build=${1:-build}
limit=${LIMIT:-60}
export MZN_SOLVER_PATH=$PWD/$build/share/minizinc/solvers
M=models/mzn
runs=(
    "tetravex 4x4|$M/tetravex.mzn $M/tetravex_4.dzn"
    "tetravex 5x5|$M/tetravex.mzn $M/tetravex_5.dzn"
    "tetravex 6x6|$M/tetravex.mzn $M/tetravex_6.dzn"
    "tetravex 8x8|$M/tetravex.mzn $M/tetravex_8.dzn"
    "queens 8, -a|-a $M/queens.mzn -D n=8"
    "langford L(2,8), -a|-a $M/langford.mzn -D k=2;n=8"
    "sudoku 9x9|$M/sudoku.mzn -D b=3;given=[|0,0,3,0,2,0,6,0,0|9,0,0,3,0,5,0,0,1|0,0,1,8,0,6,4,0,0|0,0,8,1,0,2,9,0,0|7,0,0,0,0,0,0,0,8|0,0,6,7,0,8,2,0,0|0,0,2,6,0,9,5,0,0|8,0,0,2,0,3,0,0,9|0,0,5,0,1,0,3,0,0|];"
    "knapsack01|$M/knapsack01.mzn $M/knapsack01.dzn"
    "colouring (Petersen)|$M/colouring.mzn $M/colouring.dzn"
    "magic sequence 20|$M/magic_sequence.mzn -D n=20"
    "golomb 7|$M/golomb.mzn -D m=7"
    "sets, -a|-a $M/sets.mzn"
    "among, table, gcc, -a|-a $M/cardinality.mzn"
    "nonogram 55x55 (non_awful_1)|$M/nonogram.mzn $M/nonogram_awful_1.dzn"
    "black hole, seed 1|$M/black_hole.mzn $M/black_hole_1.dzn"
    "bibd (7,3,1), -a|-a $M/bibd.mzn"
    "nonogram 8x8 (smiley), -a|-a $M/nonogram.mzn $M/nonogram_smiley.dzn"
    "nonogram 29x29 (dom_14)|$M/nonogram.mzn $M/nonogram_dom_14.dzn"
    "black hole, seed 2|$M/black_hole.mzn $M/black_hole_2.dzn"
)
solvers=() head="| model |" rule="|---|"
for c in ${SOLVERS:-gecode cp sat ilp}; do
    case $c in
    gecode) solvers+=("gecode") head="$head Gecode |" ;;
    cp | sat | ilp) solvers+=("ilpm --ilpm-backend $c") head="$head ilpm $c |" ;;
    *) echo "minizinc.sh: SOLVERS takes gecode, cp, sat, ilp; got '$c'" >&2; exit 2 ;;
    esac
    rule="$rule---|"
done
echo "$head"
echo "$rule"
for r in "${runs[@]}"; do
    name=${r%%|*}
    [[ $name =~ ${ONLY:-.} ]] || continue
    read -r -a args <<<"${r#*|}"
    row="| $name |"
    for s in "${solvers[@]}"; do
        read -r -a sv <<<"$s"
        best=
        for ((k = 0; k < ${REPEAT:-1}; k++)); do
            t0=$(date +%s%N)
            n=$(timeout "$limit" minizinc --solver "${sv[@]}" "${args[@]}" 2>/dev/null |
                grep -c -- '^----------$')
            ms=$((($(date +%s%N) - t0) / 1000000))
            [ -z "$best" ] || [ "$ms" -lt "$best" ] && best=$ms bestn=$n
            [ "$ms" -ge $((limit * 1000)) ] && break
        done
        ms=$best n=$bestn
        if [ "$ms" -ge $((limit * 1000)) ]; then
            row="$row $n in ${limit} s |"
        else
            row="$row $ms ms ($n) |"
        fi
    done
    echo "$row"
done
