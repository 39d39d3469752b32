#!/usr/bin/env bash
# Helper of peers.sh: runs one peer tool (or ilpm) on every board of a set
# written by peers.sh (DIR/*.dat, *.mps, *.cnf, *.dzn, *.txt, or DIR_1..3
# for Tetravex), one process per board, and fails if any board is not
# answered.  Usage: run_boards.sh TOOL DIR ILPM BENCHDIR
set -u
tool=$1 dir=$2 ilpm=$3 here=$4
if [ -d "$dir" ]; then
    boards=$(ls "$dir"/*.txt | sed 's/\.txt$//')
    model=sudoku
else
    boards=$(ls "${dir}"_*.txt | sed 's/\.txt$//')
    model=tetravex
fi
for b in $boards; do
    case "$tool" in
    ilpm-ilp) "$ilpm" solve "$model" "$b.txt" --backend ilp >/dev/null; c=$?
        [ $c -eq 0 ] || [ $c -eq 10 ] || exit 1 ;;
    ilpm-sat) "$ilpm" solve "$model" "$b.txt" --backend sat >/dev/null; c=$?
        [ $c -eq 0 ] || [ $c -eq 10 ] || exit 1 ;;
    ilpm-cp) # shellcheck disable=SC2086
        "$ilpm" solve "$model" "$b.txt" --backend cp ${CP_OPTS:-} >/dev/null; c=$?
        [ $c -eq 0 ] || [ $c -eq 10 ] || exit 1 ;;
    glpsol) glpsol -m "$here/../../models/gmpl/$model.mod" -d "$b.dat" 2>&1 |
        grep -qE "INTEGER OPTIMAL|NO (PRIMAL|INTEGER) FEASIBLE|INTEGER EMPTY" || exit 1 ;;
    cbc) cbc "$b.mps" solve quit 2>&1 | grep -qE "Optimal - objective|Optimal solution found|infeasible" || exit 1 ;;
    cadical) cadical -q "$b.cnf" >/dev/null; c=$?
        [ $c -eq 10 ] || [ $c -eq 20 ] || exit 1 ;;
    minisat) minisat -verb=0 "$b.cnf" >/dev/null 2>&1; c=$?
        [ $c -eq 10 ] || [ $c -eq 20 ] || exit 1 ;;
    gecode) minizinc --solver gecode "$here/../../models/mzn/$model.mzn" "$b.dzn" 2>/dev/null |
        grep -qE "^----------|=====UNSATISFIABLE=====" || exit 1 ;;
    esac
done
exit 0
