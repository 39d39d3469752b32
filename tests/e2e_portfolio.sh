#!/bin/bash
# --backend auto end to end: the run ends within its time limit and
# leaves no process behind, SIGTERM stops every member, the member that
# answered is named, and a bad --threads is refused with exit 2.
# Usage: e2e_portfolio.sh ILPM
ILPM=${1:?usage: e2e_portfolio.sh ILPM}
. "$(dirname "$0")/e2e_lib.sh"

# The binary under a name of this run's own, so that its processes (the
# members have the same command line) are told from anyone else's.
bin="$tmp/ilpm-portfolio-$$"
ln -s "$(cd "$(dirname "$ILPM")" && pwd)/$(basename "$ILPM")" "$bin"

# left: the processes of this run's binary still there (none after a run)
left() { pgrep -f -- "$bin" | wc -l; }
# none_left: no member left running, orphaned or as a zombie
none_left() { [ "$(left)" -eq 0 ]; }

# not_in FILE RE: no line of FILE matches RE
not_in() { ! grep -Eq "$2" "$1"; }

# ends_within MS CMD...: CMD ends (any status) within MS milliseconds
ends_within() {
    local max=$1
    shift
    local t0 t1
    t0=$(date +%s%N)
    "$@" >"$tmp/out" 2>&1
    t1=$(date +%s%N)
    local ms=$(((t1 - t0) / 1000000))
    [ "$ms" -le "$max" ] || echo "took $ms ms: $*"
    [ "$ms" -le "$max" ]
}

# --time-limit 1 holds over every member (limit + 0.5 s), three times,
# on a search (L(3,20), which no member answers within 1 s) and a
# count (queens 16 by cubes).
for i in 1 2 3; do
    check "time limit 1 s, search ($i)" ends_within 1500 \
        "$bin" solve langford --n 20 --k 3 --backend auto --threads 2 --time-limit 1
    check "time limit: timeout ($i)" grep -q ": timeout;" "$tmp/out"
    check "time limit: no member left ($i)" none_left
    check "time limit 1 s, count ($i)" ends_within 1500 \
        "$bin" solve queens --n 16 --count --backend auto --threads 2 --time-limit 1
    check "time limit: count so far ($i)" grep -q "count at least [0-9]* (time limit)" "$tmp/out"
    check "time limit: no member left after the count ($i)" none_left
done

# SIGTERM to the parent alone: it stops every member, exits 130.
stop_run() {
    "$bin" solve langford --n 20 --k 3 --backend auto --threads 2 --time-limit 60 \
        >"$tmp/sig.out" 2>&1 &
    local pid=$! n=0
    while [ "$(pgrep -P "$pid" | wc -l)" -lt 2 ] && [ $n -lt 100 ]; do
        sleep 0.05
        n=$((n + 1))
    done
    local members
    members=$(pgrep -P "$pid" | wc -l)
    kill -TERM "$pid"
    wait "$pid"
    local code=$?
    [ "$members" -eq 2 ] || echo "members running: $members"
    [ "$code" -eq 130 ] || echo "exit $code"
    [ "$members" -eq 2 ] && [ "$code" -eq 130 ]
}
check "SIGTERM: exit 130 with both members running" stop_run
check "SIGTERM: stopped" grep -q ": stopped;" "$tmp/sig.out"
check "SIGTERM: no member left" none_left

# The member that answered, in the text line and the JSON record.
check "member named in the text" ends_within 20000 \
    "$bin" solve queens --n 20 --backend auto --threads 2
check "member named: auto" grep -Eq "^queens n=20 \(auto: (cp learn=off|sat target=2)\): solved, verified" "$tmp/out"
check "member in JSON" ends_within 20000 \
    "$bin" solve queens --n 20 --backend auto --threads 2 --format json
check "member in JSON: field" grep -Eq '"member":"(cp learn=off|sat target=2)"' "$tmp/out"
check "no member left after answers" none_left

# Tetravex from 8x8: both members race CaDiCaL on `edges`, a model of
# their own (docs/portfolio.md); the answer is that formulation's, checked
# in the parent, and --verbose names the member (the user's --formulation
# kept: tests/check_portfolio.c).
"$bin" gen tetravex --n 8 --seed 2 >"$tmp/tvx8.txt"
check "tetravex 8x8 under auto" ends_within 20000 \
    "$bin" solve tetravex "$tmp/tvx8.txt" --backend auto --threads 2 --verbose
check "tetravex 8x8: a member on edges answered" \
    grep -Eq "^auto: sat (stabilize=0,seed=1 )?on edges answered \(solved\)$" "$tmp/out"
check "tetravex 8x8: edges, verified" \
    grep -Eq "^tetravex 8x8 line 2 \(edges, auto: sat (stabilize=0,seed=1 )?on edges\): solved, verified" "$tmp/out"
check "no member left after Tetravex" none_left

# fzn: -p N (N > 1) runs the portfolio, -r seeds it, -f is accepted.
check "fzn -p 2 -r 5 -f" ends_within 20000 \
    "$bin" fzn -p 2 -r 5 -f -v data/fzn/queens6.fzn
# FlatZinc's own members (docs/portfolio.md): cp, with its --learn auto, first
check "fzn -p 2: FlatZinc's first member answered" grep -Eq "^auto: cp answered \(solved\)( alone)?$" "$tmp/out"
check "fzn -p 2: the answer" grep -q "^q = array1d(1..6, \[" "$tmp/out"
check "fzn -p 1: cp alone" ends_within 20000 "$bin" fzn -p 1 -v data/fzn/queens6.fzn
check "fzn -p 1: no portfolio" not_in "$tmp/out" "^auto:"
# a .fzn file by its name: FlatZinc's members, the depth-first cp among them
check "solve model F.fzn --backend auto" ends_within 20000 \
    "$bin" solve model data/fzn/knapsack60.fzn --backend auto --threads 2
check "solve model F.fzn: cp learn=off proves it" \
    grep -q "(auto: cp learn=off): optimal, verified, objective 1400;" "$tmp/out"
check "fzn -p 2 with an optimum" ends_within 20000 \
    "$bin" fzn -p 2 -s data/fzn/knapsack01.fzn
check "fzn -p 2: optimum proved" grep -q "^==========$" "$tmp/out"
check "no member left after fzn" none_left

# batch: one thread per worker unless --threads says (auto is then ilp
# alone); rows say auto, and the member in JSON.
printf '6\n8\n' >"$tmp/q.txt"
check "batch auto, one thread per worker" ends_within 20000 \
    "$bin" batch queens "$tmp/q.txt" --backend auto --out - --format json
ilp_alone() { [ "$(grep -c '"backend":"auto","status":"solved","member":"ilp","verified":true' "$1")" -eq 2 ]; }
check "batch auto: ilp alone" ilp_alone "$tmp/out"
check "batch auto --threads 2" ends_within 20000 \
    "$bin" batch queens "$tmp/q.txt" --backend auto --threads 2 --out - --format json
members_in() { [ "$(grep -Ec '"backend":"auto","status":"solved","member":"(cp learn=off|sat target=2)","verified":true' "$1")" -eq 2 ]; }
check "batch auto --threads 2: members" members_in "$tmp/out"
check "no member left after the batch" none_left
# Slurm: a task's cores are its workers times their threads.
check "slurm: cores of auto --threads 2" ends_within 20000 \
    "$bin" batch queens "$tmp/q.txt" --slurm 2 --out "$tmp/r.csv" --backend auto --threads 2 --jobs 3
check "slurm: 6 cores a task" grep -q '^#SBATCH --cpus-per-task=6$' "$tmp/out"
check "slurm: --threads passed on" grep -q "'--threads' '2'" "$tmp/out"

# Optimisation: each better checked incumbent logged (--verbose), the
# first member to prove the optimum answers, with lseu's optimum.
check "optimisation: lseu" ends_within 20000 \
    "$bin" solve model data/models/lseu.mps --backend auto --threads 2 --verbose
# (ilp alone proves it within its first 0.05 s on a fast machine: then no
# race and no incumbent to log)
raced() {
    grep -Eq "^auto: ilp answered \(optimal\) alone$" "$1" ||
        { grep -Eq "^auto: incumbent [0-9]+ from (ilp|cp|sat)$" "$1" &&
            grep -Eq "^auto: (ilp|cp|sat) answered \(optimal\)$" "$1"; }
}
check "optimisation: incumbents, proved" raced "$tmp/out"
check "optimisation: 1120" grep -Eq "\(auto: (ilp|sat)\): optimal, verified, objective 1120;" "$tmp/out"

# gen: a generator's solver calls take auto as sat (its default)
check "gen with auto" ends_within 20000 \
    "$bin" gen tetravex --n 4 --backend auto --count 2 --seed 1 --unsolvable
check "gen with auto: boards" grep -c "^# tetravex 4x4" "$tmp/out"

# Counts as they were, on cp alone (its count propagates eagerly), on auto
# with two threads (by cubes, or cp alone when small) and on auto with one
# (ilp): Langford L(2,3..12) (0: none, exit 10; --symmetry: half),
# n-Queens 1..10, and 4x4 Sudokus empty and with givens.
count_is() {
    local want=$1
    shift
    "$ILPM" solve "$@" --count >"$tmp/count.out" 2>&1
    local code=$?
    if [ "$want" -eq 0 ]; then
        [ "$code" -eq 10 ] || echo "exit $code: $*"
        [ "$code" -eq 10 ]
        return
    fi
    grep -Eq "verified, count $want[;,]" "$tmp/count.out" ||
        echo "$* gave: $(head -1 "$tmp/count.out")"
    [ "$code" -eq 0 ] && grep -Eq "verified, count $want[;,]" "$tmp/count.out"
}
printf '%s\n' ................ 1...........2... 12..34.......... 1.3..4......2..1 >"$tmp/s4.txt"
langford=(0 0 2 2 0 0 52 300 0 0 35584 216288)
queens=(1 0 0 2 10 4 40 92 352 724)
for be in "cp" "auto --threads 2" "auto --threads 1"; do
    # shellcheck disable=SC2086 # the back end's words
    set -- --backend $be
    for n in 3 4 5 6 7 8 9 10 11 12; do
        [ "$be" = "auto --threads 1" ] && [ "$n" -gt 8 ] && continue
        want=${langford[n - 1]}
        [ "$n" -ne 12 ] &&
            check "L(2,$n) count, $be" count_is "$want" langford --n "$n" "$@"
        check "L(2,$n) count, --symmetry, $be" count_is $((want / 2)) \
            langford --n "$n" --symmetry "$@"
    done
    for n in 1 2 3 4 5 6 7 8 9 10; do
        [ "$be" = "auto --threads 1" ] && [ "$n" -gt 8 ] && continue
        check "queens $n count, $be" count_is "${queens[n - 1]}" queens --n "$n" "$@"
    done
    i=1
    for want in 288 24 12 1; do
        check "4x4 Sudoku $i count, $be" count_is "$want" sudoku "$tmp/s4.txt" --index "$i" "$@"
        i=$((i + 1))
    done
done

# The first member's moment alone is kept: L(2,191)'s depth-first cp
# search (27,494 nodes; 0.1-0.2 s, CaDiCaL 5 s) goes on in the race from
# where the moment left it, one search with cp alone's counts, where it
# was a moment's search and then a second from scratch (--verbose: two
# "cp:" lines).  A machine fast enough to end it within the moment
# answers alone, with that one search too.
cp_counts() { sed -n 's/^\(cp: .*\) propagations.*/\1/p' "$1"; }
moment_kept() {
    "$bin" solve langford --n 191 --k 2 --backend cp --learn off --verbose \
        >/dev/null 2>"$tmp/alone.err" || return 1
    "$bin" solve langford --n 191 --k 2 --backend auto --threads 2 --verbose \
        >/dev/null 2>"$tmp/kept.err" || return 1
    [ "$(cp_counts "$tmp/alone.err" | wc -l)" -eq 1 ] &&
        [ "$(cp_counts "$tmp/kept.err")" = "$(cp_counts "$tmp/alone.err")" ] &&
        grep -Eq "^auto: cp learn=off (goes on in the race after|answered \(solved\) alone)" \
            "$tmp/kept.err" && none_left
}
check "auto: the first member's search goes on from its moment" moment_kept

# A bad --threads: one message naming the option, exit 2.
bad_threads() {
    "$ILPM" solve queens --n 8 --backend auto --threads "$1" >"$tmp/bad.out" 2>&1
    local code=$?
    [ "$code" -eq 2 ] && grep -q -- "^ilpm: --threads: $2$" "$tmp/bad.out" &&
        [ "$(wc -l <"$tmp/bad.out")" -eq 1 ]
}
check "--threads 0 refused" bad_threads 0 "expected an integer from 1 to 64, got '0'"
check "--threads x refused" bad_threads x "expected an integer from 1 to 64, got 'x'"
check "--threads 65 refused" bad_threads 65 "'65' is too large (at most 64)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
