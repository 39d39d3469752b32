#!/usr/bin/env bash
# The limits a user sets hold in every step, every time: --time-limit and
# a stop bound building, propagating, lowering and encoding as well as
# solving; --memory-limit ends a run with its own message (exit 2), never
# with the kernel's kill.  Each is run many times, with wall-time bounds
# kept generous (the machine may be loaded): a limit is a contract.
# Usage: e2e_limits.sh PATH/TO/ilpm   (run from the source root)
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"

# timed NAME WANT_STATUS MAX_SECONDS CMD...: runs CMD, checks its status and
# that it ended within MAX_SECONDS of wall time; keeps $out, $err, $secs.
timed() {
    local name=$1 want=$2 max=$3 t0 t1 got
    shift 3
    t0=$(date +%s.%N)
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    t1=$(date +%s.%N)
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
    secs=$(echo "$t1 - $t0" | bc)
    if [ "$got" -ne "$want" ]; then
        bad "$name: exit $got, want $want; stderr: $err"
        return 1
    fi
    if [ "$(echo "$secs > $max" | bc)" -eq 1 ]; then
        bad "$name: took $secs s, more than $max s"
        return 1
    fi
    ok
}

has() { # has NAME TEXT PATTERN
    if grep -qE -- "$3" <<<"$2"; then ok; else bad "$1: no /$3/ in: $2"; fi
}

# --time-limit while the model is built, lowered and solved, on every
# back end: 4000 queens are 16 million variables, more than 3 s can
# build, so each limit cuts a different step short (the model, GLPK's
# columns or rows, the CNF, the cp engine), and the whole process, the
# freeing of what was built included, ends within the limit + 0.5 s.
# The full matrix (more limits, 10 runs each) is tests/bench/limits.sh.
for b in ilp sat cp; do
    for tl in 0.5 1.5 3; do
        for i in 1 2; do
            timed "queens 4000 ($b), $tl s (run $i)" 3 "$(echo "$tl + 0.5" | bc)" \
                "$ILPM" solve queens --n 4000 --backend $b --time-limit $tl \
                --format json &&
                has "queens 4000 ($b) timeout (run $i)" "$out" '"status":"timeout"'
        done
    done
done
for i in $(seq 5); do
    timed "queens 2500, 0.3 s (run $i)" 3 0.8 \
        "$ILPM" solve queens --n 2500 --time-limit 0.3 --format csv
done

# --memory-limit: wherever memory runs out (the model, GLPK's problem,
# the CNF, CaDiCaL, the cp engine), the run ends with the limit's message
# and exit 2, never a kill.
# AddressSanitizer reserves terabytes of address space, so a sanitized
# ilpm sets no address-space limit (main.c): the memory cases run on the
# plain build only, as e2e_batch's do.
asan=0
ldd "$ILPM" 2>/dev/null | grep -q asan && asan=1
mem() { # mem NAME CMD...: exit 2 naming the limit, within 60 s
    local name=$1
    shift
    if [ "$asan" -eq 1 ]; then
        echo "SKIP: $name: no --memory-limit under AddressSanitizer"
        return 0
    fi
    timed "$name" 2 60 "$@" --memory-limit 200 &&
        has "$name names the limit" "$err" "out of memory.*--memory-limit 200 MB reached"
}
for i in $(seq 5); do
    mem "queens 4000 model (run $i)" "$ILPM" solve queens --n 4000
done
for i in $(seq 3); do
    mem "queens 1500 GLPK (run $i)" "$ILPM" solve queens --n 1500 --backend ilp
    mem "queens 1000 CNF (run $i)" "$ILPM" solve queens --n 1000 --backend sat
    mem "queens 500 CaDiCaL (run $i)" "$ILPM" solve queens --n 500 --backend sat
    mem "queens 1500 cp (run $i)" "$ILPM" solve queens --n 1500 --backend cp
done

# cp's kernel keeps 8 bytes per occurrence and no coefficient of a unit
# row: queens 1000 on cp fits in 170 MB of address space (it needed
# about 200 MB with 16-byte occurrences and every coefficient stored).
if [ "$asan" -eq 1 ]; then
    echo "SKIP: queens 1000 cp in 170 MB: no --memory-limit under AddressSanitizer"
else
    timed "queens 1000 cp in 170 MB" 0 60 "$ILPM" solve queens --n 1000 \
        --backend cp --memory-limit 170 --format csv
    # and the depth-first search keeps no reasons, levels nor places on
    # the trail (12 bytes a variable): 143 MB hold it (it needed 148)
    timed "queens 1000 cp in 143 MB" 0 60 "$ILPM" solve queens --n 1000 \
        --backend cp --memory-limit 143 --format csv
    # and a model of unit rows lends the kernel its literals rather than
    # a copy (4 bytes a non-zero): 132 MB hold it (it needed 136-143)
    timed "queens 1000 cp in 132 MB" 0 60 "$ILPM" solve queens --n 1000 \
        --backend cp --memory-limit 132 --format csv
    # and a kernel of unit rows keeps no coefficient for its occurrences
    # (4 bytes an occurrence, not 8): 98 MB hold it (it needed 105)
    timed "queens 1000 cp in 98 MB" 0 60 "$ILPM" solve queens --n 1000 \
        --backend cp --memory-limit 98 --format csv
fi

# langford --n goes up to 1000: L(2,1000) is taken and built (the time
# limit ends it on the default back end); on cp, without learning, it is
# solved in about a second (left out of CI's quick passes).
timed "langford --n 1000 taken" 3 5 "$ILPM" solve langford --n 1000 \
    --time-limit 0.3 --format json &&
    has "langford --n 1000 times out" "$out" '"status":"timeout"'
if [ -z "${ILPM_TEST_QUICK:-}" ]; then
    timed "L(2,1000) on cp" 0 30 "$ILPM" solve langford --n 1000 \
        --backend cp --learn off &&
        has "L(2,1000) verified" "$out" "\(positions, cp\): solved, verified"
fi

# gen: the solver calls that prove a board unsolvable follow --time-limit
# (exit 3, as solve's time limit) and --backend, and a SIGTERM ends them
# at once (exit 130).
for i in $(seq 5); do
    timed "gen tetravex 9 --unsolvable, 1 s (run $i)" 3 2.5 \
        "$ILPM" gen tetravex --unsolvable --n 9 --time-limit 1 &&
        has "gen time limit message (run $i)" "$err" \
            "^ilpm: --unsolvable: no 9x9 board proved unsolvable within the time limit \(1 s\)$"
done
timed "gen tetravex 9 --unsolvable on ilp" 3 2.5 \
    "$ILPM" gen tetravex --unsolvable --n 9 --time-limit 1 --backend ilp
# sigterm_within NAME MAX CMD...: SIGTERM after 1 s; exit 130 within MAX s.
sigterm_within() { signal_within TERM "$@"; }
# signal_within SIG NAME MAX CMD...: the same with SIG.
signal_within() {
    local sig=$1 name=$2 max=$3 pid t0 t1 got
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    sleep 1
    t0=$(date +%s.%N)
    kill -"$sig" "$pid"
    wait "$pid"
    got=$?
    t1=$(date +%s.%N)
    secs=$(echo "$t1 - $t0" | bc)
    if [ "$got" -ne 130 ]; then
        bad "$name: exit $got, want 130: $(cat "$tmp/err")"
    elif [ "$(echo "$secs > $max" | bc)" -eq 1 ]; then
        bad "$name: ended $secs s after SIGTERM, more than $max s"
    else
        ok
    fi
}
for i in $(seq 3); do
    sigterm_within "gen tetravex 9 --unsolvable, SIGTERM (run $i)" 1.0 \
        "$ILPM" gen tetravex --unsolvable --n 9
done

# Reading follows the limit and the stop flag too: endless input ends at
# the time limit as the instance's timeout (exit 3, a record for tools),
# and SIGINT while a FIFO sends nothing ends the run as interrupted (exit
# 130), not as a read error.
for pz in sudoku queens model; do
    timed "$pz reading /dev/zero, 1 s" 3 1.5 \
        "$ILPM" solve $pz /dev/zero --time-limit 1 --format json &&
        has "$pz: a timeout record" "$out" \
            '"instance":"#1 \(not read within the time limit\)","file":"/dev/zero","index":1,"backend":"ilp","status":"timeout"'
done
timed "compare reading /dev/zero, 1 s" 3 1.5 \
    "$ILPM" compare sudoku /dev/zero --time-limit 1 &&
    has "compare: the limit named" "$err" \
        "^ilpm: time limit reached while reading /dev/zero \(line 1\)$"
mkfifo "$tmp/fifo"
sleep 10 >"$tmp/fifo" & # holds the FIFO open and sends nothing
writer=$!
signal_within INT "SIGINT while reading a FIFO" 0.5 \
    "$ILPM" solve sudoku "$tmp/fifo"
has "SIGINT while reading: the stop named" "$(cat "$tmp/err")" \
    "^ilpm: stopped while reading .*fifo \(line 1\)$"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null
# The same FIFO under a time limit: no byte ever comes, the limit ends it.
sleep 10 >"$tmp/fifo" &
writer=$!
timed "a FIFO that sends nothing, 1 s" 3 1.5 \
    "$ILPM" solve sudoku "$tmp/fifo" --time-limit 1 &&
    has "the FIFO's instance timed out" "$out" \
        "^sudoku #1 \(not read within the time limit\) \(ilp\): timeout"
kill "$writer" 2>/dev/null
wait "$writer" 2>/dev/null

# Objectives on SAT: an objective whose bounds are large BDDs (60
# distinct coefficients of up to 10^9) follows the time limit, and is
# encoded once by adders (src/backend/cnf_obj.c): it no longer runs out
# of --memory-limit 200 (each bound a BDD did, exit 2), and past
# --max-pb-nodes its bounds go to the adders instead of being refused.
for i in $(seq 5); do
    timed "large objective, 2 s (run $i)" 3 3.5 \
        "$ILPM" solve model tests/data/big_objective.lp --backend sat --time-limit 2
done
if [ "$asan" -eq 0 ]; then
    timed "large objective within --memory-limit 200" 3 5.5 "$ILPM" solve \
        model tests/data/big_objective.lp --backend sat --time-limit 5 \
        --memory-limit 200
fi
timed "objective past --max-pb-nodes" 3 3.5 "$ILPM" solve model \
    tests/data/big_objective.lp --backend sat --max-pb-nodes 10000 \
    --time-limit 2 &&
    has "the objective past --max-pb-nodes" "$out" "\\(sat\\): feasible, verified"
# A file's row refused for its BDD is named as the file names it.
timed "row over --max-pb-nodes" 2 30 "$ILPM" solve model \
    tests/data/big_row.lp --backend sat --max-pb-nodes 3 &&
    has "the row named" "$err" \
        "a linear constraint 'cap' in group 'linear' needs more than 3 BDD nodes"
# A decimal objective (three places, as MIPLIB's p0291) is scaled exactly,
# in LP and in MPS; the optimum is glpsol's.
glpsol --lp data/models/decimal_objective.lp --wfreemps "$tmp/dec.mps" >/dev/null 2>&1
for f in data/models/decimal_objective.lp "$tmp/dec.mps"; do
    for b in ilp sat cp; do
        timed "decimal objective $b ($f)" 0 60 "$ILPM" solve model "$f" \
            --backend $b &&
            has "decimal optimum $b ($f)" "$out" "optimal, verified, objective 23\.684;"
    done
done
timed "decimal objective in JSON" 0 60 "$ILPM" solve model \
    data/models/decimal_objective.lp --format json &&
    has "decimal objective in JSON" "$out" '"objective":23\.684,.*"objective":23\.684\}'

# The SAT back end tries within its time limit: a CNF of 400,000 variables
# whose set-up comes clause by clause (about 0.15 s) is solved within 1 s;
# a single clause whose set-up alone would end past the limit is not fed,
# and the result says why (text: a line, JSON: reason).  Left out of CI's
# quick passes, where the sanitizer or valgrind slow the solve past 1 s.
if [ -z "${ILPM_TEST_QUICK:-}" ]; then
    awk 'BEGIN { n = 400000; print "p cnf", n, n - 1
                 for (i = 1; i < n; i++) print i, -(i + 1), 0 }' >"$tmp/chain.cnf"
    timed "sat tries within 1 s" 0 2.5 "$ILPM" solve model "$tmp/chain.cnf" \
        --backend sat --time-limit 1 &&
        has "sat tries within 1 s" "$out" "\\(sat\\): solved, verified"
fi
printf 'p cnf 2500000 1\n1 2500000 0\n' >"$tmp/wide.cnf"
timed "sat gives up early, says so" 3 5 "$ILPM" solve model "$tmp/wide.cnf" \
    --backend sat --time-limit 0.5 &&
    has "sat gives up early, says so" "$out" \
        "^gave up 0\.[0-9] s before the time limit: .*CaDiCaL \(setting up variables 1 to 2500000 would take about 1\.0 s"
timed "sat gives up early, JSON" 3 5 "$ILPM" solve model "$tmp/wide.cnf" \
    --backend sat --time-limit 0.5 --format json &&
    has "sat gives up early, JSON" "$out" '"status":"timeout",.*"reason":"gave up 0\.[0-9] s before the time limit: '

# A limit too small to build in (the watch stops a little ahead of the
# deadline, to leave time for freeing) is a plain timeout: no "gave up
# 0.0 s before the time limit", which the stop was not.
for t in 0.0001 0.001; do
    timed "--time-limit $t: a timeout" 3 5 "$ILPM" solve queens --n 8 \
        --time-limit $t --format json &&
        has "--time-limit $t: a timeout" "$out" '"status":"timeout"' &&
        if grep -q "gave up 0\.0 s" <<<"$out"; then
            bad "--time-limit $t: says it gave up 0.0 s early: $out"
        else ok; fi
done

# A count by exact cover (cp_cover.c) polls the clock as it goes: L(2,15)
# (39,809,640 sequences) cut short at 0.5 s on cp and on two cores'
# cubes reports what it counted, verified, as incomplete.
for b in "cp" "auto --threads 2"; do
    # shellcheck disable=SC2086 # the back end's words
    timed "L(2,15) count by exact cover ($b), 0.5 s" 3 1.0 \
        "$ILPM" solve langford --n 15 --symmetry --count --backend $b \
        --time-limit 0.5 --verbose &&
        has "L(2,15) count cut short ($b)" "$out" \
            "timeout, verified, count at least [1-9][0-9]* \(time limit\)" &&
        has "L(2,15) count cut short ($b): by exact cover" "$err" \
            "^cp: counted by exact cover$"
done

# GLPK's defaults never lose badly to glpsol's own: Todd's knapsack (60 s
# without a proof when MIR cuts ran on its scaled row) and a knapsack with
# coefficients in [1e8, 1e9] (called infeasible with them) are proved
# optimal in well under a second (glpsol: 0.01-0.1 s).
for f in todd15:4190215 knapsack_big:10268841380; do
    timed "${f%%:*} on ilp's defaults" 0 3 \
        "$ILPM" solve model "data/models/${f%%:*}.lp" --time-limit 20 &&
        has "${f%%:*} optimal" "$out" "optimal, verified, objective ${f#*:};"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
