#!/usr/bin/env bash
# The choices of ilpm's MiniZinc library, one at a time: each model of
# models/mzn compiled with a library (MiniZinc's linear one, its standard
# one alone, ilpm's as first written, ilpm's), then solved by `ilpm fzn`
# on cp and sat of each build given (say one per commit of the lowering):
# solve time in ms of the FlatZinc alone (compilation apart), "-" past the
# limit or unread.
# Usage: tests/bench/mznlib.sh [LABEL=]BUILD...   (from the source root;
# LIMIT=10 seconds per call, LIBS="linear std mzn ilpm", ONLY=REGEX
# models; mzn: ilpm's library with alldifferent as MiniZinc sums)
set -u
limit=${LIMIT:-10}
libs=${LIBS:-linear std mzn ilpm}
M=models/mzn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/std" "$tmp/mzn" "$tmp/solvers"
echo "% the standard library alone" >"$tmp/std/redefinitions.mzn"
# ilpm's library with alldifferent written in MiniZinc, as it was first
# (ilpm_all_different_int's rows, which builds before it cannot read).
cp models/mznlib/ilpm/redefinitions.mzn "$tmp/mzn/"
cat >"$tmp/mzn/fzn_all_different_int.mzn" <<'MZN'
predicate fzn_all_different_int(array[int] of var int: x) =
    let { set of int: vals = dom_array(x) } in
    if card(vals) <= 2 * length(x) then
        forall(v in vals) (
            let { var int: k = sum(i in index_set(x) where v in dom(x[i]))
                                  (bool2int(x[i] = v)) } in
            if card(vals) = length(x) then k = 1 else k <= 1 endif)
    else
        forall(i, j in index_set(x) where i < j) (x[i] != x[j])
    endif;
MZN
runs=(
    "tetravex 6x6#$M/tetravex.mzn $M/tetravex_6.dzn"
    "tetravex 8x8#$M/tetravex.mzn $M/tetravex_8.dzn"
    "queens 8, -a#-a#$M/queens.mzn -D n=8"
    "langford L(2,8), -a#-a#$M/langford.mzn -D k=2;n=8"
    "sudoku 9x9#$M/sudoku.mzn -D b=3;given=[|0,0,3,0,2,0,6,0,0|9,0,0,3,0,5,0,0,1|0,0,1,8,0,6,4,0,0|0,0,8,1,0,2,9,0,0|7,0,0,0,0,0,0,0,8|0,0,6,7,0,8,2,0,0|0,0,2,6,0,9,5,0,0|8,0,0,2,0,3,0,0,9|0,0,5,0,1,0,3,0,0|];"
    "magic sequence 20#$M/magic_sequence.mzn -D n=20"
    "golomb 7#$M/golomb.mzn -D m=7"
    "colouring (Petersen)#$M/colouring.mzn $M/colouring.dzn"
    "among, table, gcc, -a#-a#$M/cardinality.mzn"
    "sets, -a#-a#$M/sets.mzn"
)
# One solver configuration per library, the same executable.
for lib in $libs; do
    case $lib in
    linear) ml=-Glinear ;;
    std) ml=$tmp/std ;;
    mzn) ml=$tmp/mzn ;;
    ilpm) ml=$PWD/models/mznlib/ilpm ;;
    esac
    printf '{"id":"bench.%s","name":"bench-%s","version":"1","mznlib":"%s","executable":"true","supportsFzn":true}\n' \
        "$lib" "$lib" "$ml" >"$tmp/solvers/$lib.msc"
done
export MZN_SOLVER_PATH=$tmp/solvers
head="| model | library |"
line="|---|---|"
builds=()
for a in "$@"; do
    b=${a#*=}
    c=${a%%=*}
    [ "$c" = "$a" ] && c=$(git -C "$b/.." log -1 --format=%h 2>/dev/null || echo "$b")
    builds+=("$b")
    head="$head $c cp | $c sat |"
    line="$line---|---|"
done
echo "$head"
echo "$line"
for r in "${runs[@]}"; do
    IFS='#' read -r -a f <<<"$r"
    name=${f[0]}
    [[ $name =~ ${ONLY:-.} ]] || continue
    flag=
    [ ${#f[@]} -eq 3 ] && flag=${f[1]}
    read -r -a args <<<"${f[-1]}"
    for lib in $libs; do
        minizinc -c --solver "bench.$lib" "${args[@]}" --fzn "$tmp/m.fzn" --ozn /dev/null \
            2>/dev/null || continue
        row="| $name | $lib |"
        for b in "${builds[@]}"; do
            for e in cp sat; do
                t0=$(date +%s%N)
                n=$(timeout "$limit" "$b/ilpm" fzn $flag --ilpm-backend "$e" "$tmp/m.fzn" \
                    2>/dev/null | grep -c -- '^----------$')
                ms=$((($(date +%s%N) - t0) / 1000000))
                if [ "$ms" -ge $((limit * 1000)) ] || [ "$n" -eq 0 ]; then
                    row="$row - |"
                else
                    row="$row $ms |"
                fi
            done
        done
        echo "$row"
    done
done
