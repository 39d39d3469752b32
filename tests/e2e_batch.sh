#!/usr/bin/env bash
# End-to-end tests of `ilpm compare`, `ilpm batch` and `ilpm merge`:
# formats, input order, resume, shards, crashed and hung workers,
# interruption.  Usage: e2e_batch.sh PATH/TO/ilpm   (from the source root)
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"

# 24 queens instances of sizes 4..11 (sizes 2 and 3 are unsatisfiable).
for i in $(seq 0 23); do echo $((i % 10 + 2)); done >"$tmp/q.txt"

# compare: both back ends agree, sizes and groups shown.
out=$("$ILPM" compare queens --n 6 --count)
check "compare exit" [ $? -eq 0 ]
check "compare agreement" grep -q "agreement: yes" <<<"$out"
check "compare groups" grep -qE "^ +diag +\|" <<<"$out"
check "compare counts" [ "$(grep -cE '^ +- +(ilp|sat|cp) +solved +yes +4 ' <<<"$out")" -eq 3 ]
out=$("$ILPM" compare queens --n 3 --format csv)
check "compare csv rows" [ "$(grep -c '^queens,n=3,' <<<"$out")" -eq 3 ]
check "compare csv unsat" [ "$(grep -c ',unsat,' <<<"$out")" -eq 3 ]
if command -v gnuplot >/dev/null; then
    "$ILPM" compare queens "$tmp/q.txt" --plot "$tmp/p.svg" >/dev/null
    check "compare --plot svg" grep -q "<svg" "$tmp/p.svg"
    # One instance: one point a series, where gnuplot would warn of an
    # empty range; its warnings are not the user's.
    "$ILPM" compare queens --n 5 --plot "$tmp/p1.svg" >/dev/null 2>"$tmp/err"
    check "compare --plot one instance: svg" grep -q "<svg" "$tmp/p1.svg"
    check "compare --plot one instance: nothing on stderr" [ ! -s "$tmp/err" ]
fi
"$ILPM" compare queens --n 4 --plot "$tmp/p.pdf" >/dev/null 2>"$tmp/err"
check "compare --plot bad extension" grep -q "must end in .svg or .png" "$tmp/err"

# compare over a file ends with the totals per formulation and back end;
# --summary gives them alone, also as CSV or JSON lines.
grep -v '^#' data/sudoku/norvig_top95.txt | head -3 >"$tmp/three.txt"
out=$("$ILPM" compare sudoku "$tmp/three.txt")
check "compare file exit" [ $? -eq 0 ]
check "compare file tables" [ "$(grep -c '^  agreement: yes (' <<<"$out")" -eq 3 ]
check "compare file summary" grep -q "^summary: sudoku, 3 instances" <<<"$out"
check "summary rows" [ "$(grep -cE '^  (exact|atmost) +(ilp|sat) +3 +3 +0 +0 +0 ' <<<"$out")" -eq 4 ]
check "summary agreement" [ "$(tail -1 <<<"$out")" = "  agreement: yes on all 3" ]
out=$("$ILPM" compare sudoku "$tmp/three.txt" --summary)
check "--summary first line" grep -q "^summary: sudoku, 3 instances" <<<"$(head -1 <<<"$out")"
check "--summary alone" [ "$(wc -l <<<"$out")" -eq 9 ]
out=$("$ILPM" compare sudoku "$tmp/three.txt" --summary --format csv)
check "--summary csv header" [ "$(head -1 <<<"$out")" = "puzzle,formulation,backend,instances,runs,solved,unsat,timeout,other,total_solve_ms,median_solve_ms,mean_vars,mean_aux_vars,mean_rows,mean_nonzeros,mean_clauses,mean_fixed_before" ]
check "--summary csv rows" [ "$(grep -cE '^sudoku,(exact|atmost),(ilp|sat|cp),3,3,3,0,0,0,' <<<"$out")" -eq 6 ]
check "--summary csv only" [ "$(wc -l <<<"$out")" -eq 7 ]
out=$("$ILPM" compare sudoku "$tmp/three.txt" --summary --format json)
check "--summary json" [ "$(grep -cE '^\{"summary":true,"puzzle":"sudoku","formulation":"(exact|atmost)","backend":"(ilp|sat|cp)","instances":3,"runs":3,"solved":3,"unsat":0,' <<<"$out")" -eq 6 ]
out=$("$ILPM" compare sudoku "$tmp/three.txt" --format csv)
check "compare csv: runs only" [ "$(grep -c '^sudoku,' <<<"$out")" -eq 18 ]
out=$("$ILPM" compare sudoku data/sudoku/norvig_top95.txt --index 1)
check "one instance: no summary" [ "$(grep -c '^summary:' <<<"$out")" -eq 0 ]
out=$("$ILPM" compare queens --n 3 --summary --format csv)
check "--summary unsat" [ "$(grep -cE '^queens,,(ilp|sat),1,1,0,1,0,0,' <<<"$out")" -eq 2 ]
out=$("$ILPM" compare queens --n 14 --count --time-limit 0.2 --summary --format csv)
check "--summary timeout exit" [ $? -eq 3 ]
check "--summary timeout" [ "$(grep -cE '^queens,,(ilp|sat),1,1,0,0,1,0,' <<<"$out")" -eq 2 ]
"$ILPM" compare queens --n 4 --summary=yes 2>"$tmp/err"
check "--summary takes no value" [ $? -eq 2 ]
check "--summary value message" grep -q "option --summary takes no value" "$tmp/err"
check "--summary in compare --help" grep -q -- "--summary " <<<"$("$ILPM" compare sudoku --help)"

# batch: one row per instance and back end, in input order.
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/r.csv" --backend both --jobs 2 >"$tmp/sum"
code=$?
check "batch exit 10 with unsat rows" [ "$code" -eq 10 ]
check "batch rows" [ "$(wc -l <"$tmp/r.csv")" -eq 49 ]
check "batch order" diff <(cut -d, -f4 "$tmp/r.csv" | tail -n +2 | uniq) <(seq 1 24)
check "batch unsat rows" [ "$(grep -c ",unsat," "$tmp/r.csv")" -eq 12 ]
check "batch verified" [ "$(grep -c ",solved,true," "$tmp/r.csv")" -eq 36 ]
check "batch summary" grep -q "48 runs" "$tmp/sum"
check "batch summary per back end" grep -qE "^  ilp: 24 runs, solve ms median" "$tmp/sum"
# --resume: the rows found there are results of the batch too; its exit
# status is the most severe over old and new rows.
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/r.csv" --backend both --jobs 2 --resume >"$tmp/sum"
check "resume with nothing to do: exit 10 (unsat rows kept)" [ $? -eq 10 ]
check "resume with nothing to do: no run" grep -q " 0 runs (48 already there)" "$tmp/sum"
check "resume with nothing to do: no list of statuses" grep -qE " 0 runs \(48 already there\) in [0-9.]+ s$" "$tmp/sum"
printf '2\n4\n5\n' >"$tmp/q3.txt"
"$ILPM" batch queens "$tmp/q3.txt" --out "$tmp/r3.csv" --shard 0/3 >/dev/null # 2: unsat
"$ILPM" batch queens "$tmp/q3.txt" --out "$tmp/r3.csv" --resume >"$tmp/sum" # 4, 5: solved
check "resume: exit 10 from an old unsat row" [ $? -eq 10 ]
printf '4\n4\nx\n' >"$tmp/qx.txt"
"$ILPM" batch queens "$tmp/qx.txt" --out "$tmp/rx.csv" >/dev/null 2>&1
check "bad instance: exit 2" [ $? -eq 2 ]
"$ILPM" batch queens "$tmp/qx.txt" --out "$tmp/rx.csv" --resume >/dev/null 2>&1
check "resume over a bad instance's row: exit 2" [ $? -eq 2 ]

# JSON lines by extension.
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/r.jsonl" --jobs 2 >/dev/null
check "batch json rows" [ "$(grep -c '^{"puzzle":"queens"' "$tmp/r.jsonl")" -eq 24 ]
check "batch json worker" grep -q '"worker":[12]}' "$tmp/r.jsonl"

# Crashing and hanging workers on request is fault injection that only a
# -Dtest_hooks=true build compiles; meson sets ILPM_TEST_HOOKS=1 for the
# test there (.ci/run builds one).  Elsewhere the variables do nothing.
if [ "${ILPM_TEST_HOOKS:-0}" = 1 ]; then
    # A worker that crashes is recorded and replaced; the batch goes on.
    ILPM_TEST_CRASH_INDEX=5 "$ILPM" batch queens "$tmp/q.txt" --backend sat --out "$tmp/c.csv" --jobs 2 >"$tmp/sum"
    code=$?
    check "crash exit 1" [ "$code" -eq 1 ]
    check "crash rows kept" [ "$(wc -l <"$tmp/c.csv")" -eq 25 ]
    check "crash row" grep -q ',5,,sat,error,false,.*died: killed by signal 6' "$tmp/c.csv"
    check "crash replaced" grep -q "1 worker(s) replaced" "$tmp/sum"

    # A worker that hangs past the time limit is killed and recorded.
    ILPM_TEST_HANG_INDEX=3 "$ILPM" batch queens "$tmp/q.txt" --backend sat --out "$tmp/h.csv" --jobs 2 --time-limit 0.5 >/dev/null
    check "hang exit 3" [ $? -eq 3 ]
    check "hang row" grep -q ',3,,sat,timeout,false,.*overran the time limit' "$tmp/h.csv"
    check "hang rows kept" [ "$(wc -l <"$tmp/h.csv")" -eq 25 ]

    # A worker killed from outside: its row says so in stopped_by, and
    # --resume runs it again.
    ILPM_TEST_HANG_INDEX=2 "$ILPM" batch queens "$tmp/q3.txt" --backend sat --out "$tmp/ko2.csv" --jobs 1 >/dev/null &
    pid=$!
    kill_worker() {
        local w=""
        for _ in $(seq 50); do
            w=$(pgrep -P "$pid" | head -1)
            [ -n "$w" ] && break
            sleep 0.1
        done
        sleep 0.5
        kill -KILL "$w"
    }
    kill_worker
    wait "$pid"
    check "killed worker: exit 1" [ $? -eq 1 ]
    check "killed worker: stopped_by" grep -q ',2,,sat,error,false,.*killed by signal 9.*,SIGKILL$' "$tmp/ko2.csv"
    "$ILPM" batch queens "$tmp/q3.txt" --backend sat --out "$tmp/ko2.csv" --jobs 1 --resume >/dev/null
    check "killed worker: resume runs it again" [ "$(grep -c ',2,,sat,solved,true,' "$tmp/ko2.csv")" -eq 1 ]
else
    echo "SKIP: crashed and hung workers (a -Dtest_hooks=true build runs them)"
    ILPM_TEST_CRASH_INDEX=5 "$ILPM" batch queens "$tmp/q.txt" --out "$tmp/c.csv" --jobs 2 >/dev/null
    check "no hooks: ILPM_TEST_CRASH_INDEX ignored (exit 10: unsat rows)" [ $? -eq 10 ]
    check "no hooks: no crash row" [ "$(grep -c ',sat,error,' "$tmp/c.csv")" -eq 0 ]
fi

# Shards and merge give the same rows as one run; resume skips done rows.
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/s0.csv" --shard 0/3 >/dev/null
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/s1.csv" --shard 1/3 >/dev/null
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/s2.csv" --shard 2/3 >/dev/null
check "shard sizes" [ "$(cat "$tmp"/s[012].csv | grep -c '^queens')" -eq 24 ]
"$ILPM" merge --out "$tmp/m.csv" "$tmp/s2.csv" "$tmp/s0.csv" "$tmp/s1.csv"
check "merge exit" [ $? -eq 0 ]
check "merge order" diff <(cut -d, -f4 "$tmp/m.csv" | tail -n +2) <(seq 1 24)
check "merge one header" [ "$(grep -c '^puzzle,' "$tmp/m.csv")" -eq 1 ]
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/s0.csv" --resume >"$tmp/sum"
check "resume skips" grep -q "16 runs (8 already there)" "$tmp/sum"
check "resume complete" [ "$(grep -c '^queens' "$tmp/s0.csv")" -eq 24 ]
# merge writes the format its --out names, as batch does, converting
# rows of the other format: CSV to JSON lines and back gives the rows
# again, byte for byte.
"$ILPM" merge --out "$tmp/m3.jsonl" "$tmp/s0.csv" 2>"$tmp/err"
check "merge --out .jsonl of CSV: exit 0" [ $? -eq 0 ]
check "merge --out .jsonl of CSV: JSON lines" [ "$(grep -c '^{"puzzle":"queens",' "$tmp/m3.jsonl")" -eq 24 ]
"$ILPM" merge --out "$tmp/m3.csv" "$tmp/m3.jsonl"
"$ILPM" merge --out "$tmp/m3s.csv" "$tmp/s0.csv"
check "merge CSV -> JSON -> CSV: the same rows" cmp -s "$tmp/m3.csv" "$tmp/m3s.csv"
"$ILPM" merge --out "$tmp/m4.csv" "$tmp/r.jsonl" 2>"$tmp/err"
check "merge --out .csv of JSON: exit 0" [ $? -eq 0 ]
"$ILPM" merge --out "$tmp/m4.jsonl" "$tmp/m4.csv"
"$ILPM" merge --out "$tmp/m4s.jsonl" "$tmp/r.jsonl"
check "merge JSON -> CSV -> JSON: the same rows" cmp -s "$tmp/m4.jsonl" "$tmp/m4s.jsonl"
# Inputs of both formats: the name says which to write, or merge refuses.
"$ILPM" merge --out "$tmp/m2.csv" "$tmp/r.jsonl" "$tmp/s0.csv" 2>"$tmp/err"
check "merge of mixed formats --out .csv" [ $? -eq 0 ]
check "merge of mixed formats: one header" [ "$(grep -c '^puzzle,' "$tmp/m2.csv")" -eq 1 ]
"$ILPM" merge --out - "$tmp/r.jsonl" "$tmp/s0.csv" >/dev/null 2>"$tmp/err"
check "merge of mixed formats --out -: exit 2" [ $? -eq 2 ]
check "merge of mixed formats --out -: message" grep -q "the inputs hold CSV and JSON lines: name the output .csv or .jsonl" "$tmp/err"
"$ILPM" merge --out "$tmp/m3.jsonl" "$tmp/r.jsonl"
check "merge --out .jsonl of JSON" [ "$(grep -c '^{' "$tmp/m3.jsonl")" -eq 24 ]
"$ILPM" merge --out - "$tmp/r.jsonl" >"$tmp/m3.out"
check "merge --out - of JSON" cmp -s "$tmp/m3.out" "$tmp/m3.jsonl"
: >"$tmp/empty.txt"
printf '\n\n' >"$tmp/blank.txt"
printf '4\n5\n' >"$tmp/inst.txt"
for f in empty blank inst; do
    "$ILPM" merge --out "$tmp/m5.csv" "$tmp/$f.txt" 2>"$tmp/err"
    check "merge of $f.txt: exit 2" [ $? -eq 2 ]
    check "merge of $f.txt: message" grep -q "^ilpm: $tmp/$f.txt.*not an ilpm results file" "$tmp/err"
done
check "merge of no results: nothing written" [ ! -e "$tmp/m5.csv" ]
# More shards than instances: a JSON shard without runs is an empty file,
# JSON lines of no row, which merge takes (a CSV one has its header).
for i in 0 1 2 3 4 5; do
    "$ILPM" batch queens data/queens/completion.txt --out "$tmp/js$i.jsonl" --shard $i/6 >/dev/null
done
check "json shard without runs: empty" [ ! -s "$tmp/js5.jsonl" ]
"$ILPM" merge --out "$tmp/js.jsonl" "$tmp"/js[0-5].jsonl 2>"$tmp/err"
check "merge of json shards, some empty: exit 0" [ $? -eq 0 ]
check "merge of json shards, some empty: every row" [ "$(grep -c '^{"puzzle":"queens",' "$tmp/js.jsonl")" -eq 4 ]
# A header without the key columns (file, index, backend) is no results
# file, though its columns are ilpm's; a row whose index is not an
# instance number cannot be found again: both refused, exit 2.
printf 'puzzle,file\nqueens,x\n' >"$tmp/nokey.csv"
"$ILPM" merge --out "$tmp/m5.csv" "$tmp/nokey.csv" 2>"$tmp/err"
check "merge of a header without keys: exit 2" [ $? -eq 2 ]
check "merge of a header without keys: message" grep -q "^ilpm: $tmp/nokey.csv:1:1: not an ilpm results file (no file, index and backend columns)" "$tmp/err"
printf 'file,index,backend\nx,abc,ilp\n' >"$tmp/noindex.csv"
printf '{"file":"x","index":"a","backend":"ilp"}\n' >"$tmp/noindex.jsonl"
for f in noindex.csv noindex.jsonl; do
    "$ILPM" merge --out "$tmp/m5.csv" "$tmp/$f" 2>"$tmp/err"
    check "merge of $f: exit 2" [ $? -eq 2 ]
    check "merge of $f: message" grep -q "^ilpm: $tmp/$f:[12]:1: a row whose index is not an instance number" "$tmp/err"
done
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/noindex.csv" --resume >/dev/null 2>"$tmp/err"
check "resume over a row without index: exit 2" [ $? -eq 2 ]
check "merge of bad results: nothing written" [ ! -e "$tmp/m5.csv" ]

# A last row cut off (no line end: a batch killed, a full disk) is not a
# run done: --resume cuts it off and runs it again, its rows each on a
# line of their own; merge refuses it with its file:line:column.
head -c "$(($(head -4 "$tmp/s0.csv" | wc -c) - 20))" "$tmp/s0.csv" >"$tmp/cut.csv"
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/cut.csv" --resume >"$tmp/sum"
check "cut row: resume runs it again" grep -q " 22 runs (2 already there)" "$tmp/sum"
check "cut row: resume gives the rows of one run" diff <(cut -d, -f4-7 "$tmp/cut.csv" | sort) <(cut -d, -f4-7 "$tmp/m3s.csv" | sort)
head -c "$(($(head -4 "$tmp/s0.csv" | wc -c) - 20))" "$tmp/s0.csv" >"$tmp/cut.csv"
"$ILPM" merge --out "$tmp/m6.csv" "$tmp/cut.csv" 2>"$tmp/err"
check "cut row: merge exit 2" [ $? -eq 2 ]
check "cut row: merge names it" grep -q "^ilpm: $tmp/cut.csv:4:[0-9]*: a row cut off (no line end)" "$tmp/err"
check "cut row: merge writes nothing" [ ! -e "$tmp/m6.csv" ]
# --resume adds rows in the format of the rows there, whatever the
# name; a --format that differs is refused.
head -4 "$tmp/s0.csv" >"$tmp/csv.jsonl"
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/csv.jsonl" --resume >/dev/null
check "resume of CSV named .jsonl: CSV rows" diff <(cut -d, -f4-7 "$tmp/csv.jsonl" | sort) <(cut -d, -f4-7 "$tmp/m3s.csv" | sort)
head -3 "$tmp/m3.jsonl" >"$tmp/json.csv"
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/json.csv" --resume --format csv 2>"$tmp/err"
check "resume --format csv of JSON: exit 2" [ $? -eq 2 ]
check "resume --format csv of JSON: message" grep -q "^ilpm: --format csv: --out $tmp/json.csv holds JSON lines" "$tmp/err"
check "resume --format csv of JSON: file kept" [ "$(wc -l <"$tmp/json.csv")" -eq 3 ]
"$ILPM" batch queens "$tmp/q.txt" --out "$tmp/json.csv" --resume >/dev/null
check "resume of JSON named .csv: JSON lines" [ "$(grep -c '^{"puzzle":"queens",' "$tmp/json.csv")" -eq 24 ]

# Results files written before the count_complete column: --resume and
# merge give their rows the column, empty (not known), under one header.
header=$("$ILPM" solve queens --n 4 --format csv | head -1)
head -3 tests/data/results_sample.csv >"$tmp/old.csv" # instance 1, both
"$ILPM" batch queens data/queens/completion.txt --out "$tmp/old.csv" --resume \
    --backend both --count >"$tmp/sum"
check "old file resumed" grep -q "6 runs (2 already there)" "$tmp/sum"
check "old file takes the current header" [ "$(head -1 "$tmp/old.csv")" = "$header" ]
check "old file one header" [ "$(grep -c '^puzzle,' "$tmp/old.csv")" -eq 1 ]
check "old rows: count_complete empty" [ "$(grep -c '\.txt,1,,[a-z]*,solved,true,,,,0\.' "$tmp/old.csv")" -eq 2 ]
# (an unsat count of 0 reported no solution: not verified)
check "new rows: count_complete" [ "$(grep -cE ',[234],,[a-z]*,(solved,true,1|unsat,false,0),true,,' "$tmp/old.csv")" -eq 6 ]
"$ILPM" merge --out "$tmp/om.csv" tests/data/results_sample.csv "$tmp/s0.csv"
check "merge old and new exit" [ $? -eq 0 ]
check "merge old and new header" [ "$(head -1 "$tmp/om.csv")" = "$header" ]
check "merge old and new rows" [ "$(grep -c '^queens' "$tmp/om.csv")" -eq 32 ]
check "merge old rows: count_complete empty" [ "$(grep -c 'completion\.txt,[1-4],,[a-z]*,[a-z]*,[a-z]*,,,,0\.' "$tmp/om.csv")" -eq 8 ]
"$ILPM" merge --out "$tmp/om.jsonl" tests/data/results_sample.jsonl "$tmp/r.jsonl"
check "merge old and new json" [ "$(grep -c '^{' "$tmp/om.jsonl")" -eq "$(($(wc -l <tests/data/results_sample.jsonl) + 24))" ]

# Interrupted: finished rows kept, exit 130, --resume finishes the rest.
for i in $(seq 1 6); do echo 7; done >"$tmp/slow.txt"
for i in $(seq 1 4); do echo 14; done >>"$tmp/slow.txt"
"$ILPM" batch queens "$tmp/slow.txt" --out "$tmp/i.csv" --count --jobs 1 >"$tmp/sum" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    [ "$(grep -c '^queens' "$tmp/i.csv" 2>/dev/null)" -ge 6 ] && break
    sleep 0.1
done
kill -INT "$pid"
wait "$pid"
code=$?
check "interrupt exit 130" [ "$code" -eq 130 ]
check "interrupt rows kept" [ "$(grep -c '^queens.*,solved,true,40,true,' "$tmp/i.csv")" -eq 6 ]
check "interrupt no partial row" [ "$(grep -c ',stopped,' "$tmp/i.csv")" -eq 0 ]

# Bad input is a row, not the end of the batch.
printf '4\n0\n5\n' >"$tmp/bad.txt"
"$ILPM" batch queens "$tmp/bad.txt" --out "$tmp/b.csv" >/dev/null
check "bad instance row" grep -q ',2,,ilp,error,false,.*bad.txt:2:1: board size 0 is outside' "$tmp/b.csv"
check "bad instance neighbours" [ "$(grep -c ',solved,true,' "$tmp/b.csv")" -eq 2 ]
"$ILPM" batch queens "$tmp/q.txt" 2>"$tmp/err"
check "batch needs --out" [ $? -eq 2 ]
# A bad instance whose row is written before the workers start is not
# handed to a worker as well.
printf '0\n4\n' >"$tmp/badfirst.txt"
"$ILPM" batch queens "$tmp/badfirst.txt" --out "$tmp/bf.csv" --jobs 1 >"$tmp/sum"
check "bad first instance runs" grep -q "^$tmp/bf.csv: 2 runs in" "$tmp/sum"
check "bad first instance no worker lost" [ "$(grep -c replaced "$tmp/sum")" -eq 0 ]
check "bad first instance rows" [ "$(wc -l <"$tmp/bf.csv")" -eq 3 ]

# Standard input and pipes are read once, into a temporary copy (in
# TMPDIR, removed at the end) that workers parse their instances from;
# messages and rows still name the input.
mkdir "$tmp/spool"
printf '4\n0\n5\n' | TMPDIR="$tmp/spool" "$ILPM" batch queens - --out "$tmp/in.csv" --jobs 2 >/dev/null
check "stdin rows" [ "$(grep -c ',-,[123],,ilp,' "$tmp/in.csv")" -eq 3 ]
check "stdin solved" [ "$(grep -c ',solved,true,' "$tmp/in.csv")" -eq 2 ]
check "stdin error" grep -q ',2,,ilp,error,false,.*<stdin>:2:1: board size 0' "$tmp/in.csv"
TMPDIR="$tmp/spool" "$ILPM" batch queens <(cat data/queens/completion.txt) --out "$tmp/pipe.csv" --jobs 2 >/dev/null
check "pipe rows" [ "$(grep -c '^queens,n=' "$tmp/pipe.csv")" -eq 4 ]
check "pipe labels" grep -q '^queens,n=10 line 12 (3 placed),/dev/fd/[0-9]*,4,' "$tmp/pipe.csv"
check "temporary copies removed" [ -z "$(ls -A "$tmp/spool")" ]

# Many instances.  The parent keeps a position per instance, not the
# parsed instance (workers parse theirs again), so its memory does not
# grow with what the instances hold.  Generated: a solved grid with two
# cells blanked.
blanked() { # SOLVED-GRID COUNT
    awk -v s="$1" -v n="$2" 'BEGIN {
        L = length(s)
        for (i = 0; i < n; i++) {
            a = i % L; b = (i * 7 + 3) % L
            g = substr(s, 1, a) "." substr(s, a + 2)
            print substr(g, 1, b) "." substr(g, b + 2)
        }
    }'
}
grid() { head -1 "data/sudoku/solutions_computed/$1.sol.txt" | cut -d: -f2; }
# The parent's peak resident set (VmHWM) in kB, 0 if /proc cannot say.
peak_kb() {
    "$@" >/dev/null 2>&1 &
    local pid=$! hwm=0 h
    while kill -0 "$pid" 2>/dev/null; do
        h=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
        [ -n "$h" ] && hwm=$h
        sleep 0.02
    done
    wait "$pid"
    echo "$hwm"
}
blanked "$(grid magictour_top1465)" 20000 >"$tmp/many.txt"
"$ILPM" batch sudoku "$tmp/many.txt" --out "$tmp/many.csv" --jobs 2 >/dev/null
check "many exit" [ $? -eq 0 ]
check "many rows" [ "$(wc -l <"$tmp/many.csv")" -eq 20001 ]
check "many order" diff <(cut -d, -f4 "$tmp/many.csv" | tail -n +2) <(seq 1 20000)
check "many labels" diff <(cut -d, -f2 "$tmp/many.csv" | tail -n +2) <(seq -f '#%g' 1 20000)
check "many solved" [ "$(grep -c ',solved,true,' "$tmp/many.csv")" -eq 20000 ]
# 20000 16x16 puzzles, every hundredth run, against 200 puzzles all run:
# the same work, so that the two peaks differ only by what the parent
# keeps per instance (parsed all at once, 20000 would take it some 7 MB
# more).  The peak is sampled every 20 ms, so both runs must last.
blanked "$(grid gecode_16x16)" 20000 >"$tmp/big.txt"
head -200 "$tmp/big.txt" >"$tmp/small.txt"
big=$(peak_kb "$ILPM" batch sudoku "$tmp/big.txt" --out "$tmp/big.csv" --jobs 2 --shard 0/100)
small=$(peak_kb "$ILPM" batch sudoku "$tmp/small.txt" --out "$tmp/small.csv" --jobs 2)
check "big rows" [ "$(grep -c ',solved,true,' "$tmp/big.csv")" -eq 200 ]
check "big order" diff <(cut -d, -f4 "$tmp/big.csv" | tail -n +2) <(seq 1 100 20000)
check "small rows" [ "$(grep -c ',solved,true,' "$tmp/small.csv")" -eq 200 ]
# ASan's quarantine keeps freed memory resident: no measure there.
if [ "$big" -gt 0 ] && ! ldd "$ILPM" 2>/dev/null | grep -q asan; then
    check "parent memory does not grow with the instances" [ $((big - small)) -lt 2048 ]
fi

# --resume redoes a run whose worker was killed from outside (its row's
# stopped_by names the signal: SIGKILL or SIGTERM, as a cancelled job kills
# workers a moment before the batch), not one whose worker crashed.
head -3 data/sudoku/norvig_top95.txt >"$tmp/three.txt"
"$ILPM" batch sudoku "$tmp/three.txt" --out "$tmp/kk.csv" --jobs 1 >/dev/null 2>&1
cp "$tmp/kk.csv" "$tmp/kk_fresh.csv"
sed -i -e '2s/,solved,true,.*/,error,false,,,,0.000,0.000,,,,,,,worker 1 died: killed by signal 9 (out of memory?),,,1,SIGKILL/' \
    -e '3s/,solved,true,.*/,error,false,,,,0.000,0.000,,,,,,,worker 1 died: killed by signal 11,,,1,/' "$tmp/kk.csv"
"$ILPM" batch sudoku "$tmp/three.txt" --out "$tmp/kk.csv" --jobs 1 --resume >/dev/null 2>&1
check "resume redoes a run killed from outside" [ "$(grep -c ',#1,.*,solved,true,' "$tmp/kk.csv")" -eq 1 ]
check "resume keeps a crash" [ "$(grep -c ',#2,' "$tmp/kk.csv")" -eq 1 ]
"$ILPM" merge --out "$tmp/km.csv" "$tmp/kk.csv" >/dev/null 2>&1
check "merge keeps one row of the redone run" [ "$(grep -c ',#1,' "$tmp/km.csv")" -eq 1 ]
check "merge keeps the redone row" [ "$(grep -c ',#1,.*,solved,true,' "$tmp/km.csv")" -eq 1 ]
# The same in JSON lines.
"$ILPM" batch sudoku "$tmp/three.txt" --out "$tmp/kk.jsonl" --jobs 1 >/dev/null 2>&1
sed -i -e '1s/"status":"solved".*/"status":"error","verified":false,"solution":null,"error":"worker 1 died: killed by signal 9 (out of memory?)","worker":1,"stopped_by":"SIGKILL"}/' \
    -e '2s/"status":"solved".*/"status":"error","verified":false,"solution":null,"error":"worker 1 died: killed by signal 11","worker":1}/' "$tmp/kk.jsonl"
"$ILPM" batch sudoku "$tmp/three.txt" --out "$tmp/kk.jsonl" --jobs 1 --resume >/dev/null 2>&1
check "json: resume redoes a run killed from outside" [ "$(grep -c '"instance":"#1".*"status":"solved"' "$tmp/kk.jsonl")" -eq 1 ]
check "json: resume keeps a crash" [ "$(grep -c '"instance":"#2"' "$tmp/kk.jsonl")" -eq 1 ]
# Results of an ilpm before stopped_by said it in the error text alone:
# still redone, and the upgraded file says it in stopped_by.
sed -e '1s/,stopped_by$//' -e 's/,$//' \
    -e '2s/,solved,true,.*/,error,false,,,,0.000,0.000,,,,,,,worker 1 died: killed by signal 9 (out of memory?),,,1/' \
    -e '3s/,solved,true,.*/,error,false,,,,0.000,0.000,,,,,,,worker 1 died: stopped by SIGTERM,,,1/' \
    -e '4s/,solved,true,.*/,error,false,,,,0.000,0.000,,,,,,,worker 1 died: killed by signal 11,,,1/' \
    "$tmp/kk_fresh.csv" >"$tmp/ko.csv"
"$ILPM" batch sudoku "$tmp/three.txt" --out "$tmp/ko.csv" --jobs 1 --resume >/dev/null 2>&1
check "old results: resume redoes runs killed from outside" [ "$(grep -c ',solved,true,' "$tmp/ko.csv")" -eq 2 ]
check "old results: resume keeps a crash" [ "$(grep -c ',#3,' "$tmp/ko.csv")" -eq 1 ]
check "old results: upgraded header" [ "$(head -1 "$tmp/ko.csv" | grep -c ',worker,stopped_by$')" -eq 1 ]
check "old results: SIGKILL in stopped_by" grep -q ',#1,.*signal 9 (out of memory?),,,1,SIGKILL$' "$tmp/ko.csv"
check "old results: SIGTERM in stopped_by" grep -q ',#2,.*stopped by SIGTERM,,,1,SIGTERM$' "$tmp/ko.csv"
check "old results: a crash is no stop" grep -q ',#3,.*signal 11,,,1,$' "$tmp/ko.csv"

# SIGTERM to the whole batch and SIGKILL a moment later (as a cancelled
# job gets them) in the middle,
# then --resume: a run cut short is never recorded as a result that fails
# its check, and the resumed file has every run solved.
for _ in 1 2 3 4 5 6; do cat data/sudoku/norvig_top95.txt; done >"$tmp/t570.txt"
for delay in 0.2 0.35 0.5; do
    rm -f "$tmp/st.csv"
    setsid "$ILPM" batch sudoku "$tmp/t570.txt" --backend both --out "$tmp/st.csv" --jobs 1 >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -TERM -- "-$pid" 2>/dev/null
    sleep 0.02
    kill -KILL -- "-$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    "$ILPM" batch sudoku "$tmp/t570.txt" --backend both --out "$tmp/st.csv" --jobs 2 --resume >/dev/null 2>&1
    check "SIGTERM at $delay s, then --resume: every run solved once" \
        [ "$(grep -c ',solved,true,' "$tmp/st.csv")" -eq 1140 ]
done

# batch --slurm without Slurm: an sbatch stand-in runs each job script at
# once (array tasks in turn), so that the script's quoting, shard names,
# exit mapping and merge are checked on every machine.
mkdir -p "$tmp/fake"
cat >"$tmp/fake/sbatch" <<'FAKE'
#!/bin/bash
job=$(mktemp)
cat >"$job"
last=$(sed -n 's/^#SBATCH --array=0-//p' "$job")
if [ -n "$last" ]; then
    for i in $(seq 0 "$last"); do SLURM_ARRAY_TASK_ID=$i bash "$job" >/dev/null || exit 1; done
else
    bash "$job" >/dev/null || exit 1
fi
echo "$RANDOM"
FAKE
printf '#!/bin/sh\nexit 0\n' >"$tmp/fake/scancel"
chmod +x "$tmp/fake/sbatch" "$tmp/fake/scancel"
odd="$tmp/we\$ird 'name.txt"
head -30 data/sudoku/norvig_top95.txt >"$odd"
abs=$(realpath "$ILPM")
( cd "$tmp" && PATH="$tmp/fake:$PATH" "$abs" batch sudoku "$odd" --backend both --out sl.csv --slurm 3 --submit >"$tmp/sl.out" 2>"$tmp/sl.err" )
check "slurm script ran (stand-in sbatch)" grep -qE '^merge [0-9]+$' "$tmp/sl.out"
check "slurm merge has every run" [ "$(grep -c ',solved,true,' "$tmp/sl.csv" 2>/dev/null)" -eq 60 ]
check "slurm shards kept" [ -s "$tmp/sl.csv.shards/shard-2.csv" ]
check "slurm file name kept" grep -q "we\$ird 'name.txt" "$tmp/sl.csv"

# --slurm's tasks run later, elsewhere: standard input as a FILE or as
# --data is refused, no script written.
"$ILPM" batch queens - --out "$tmp/sin.csv" --slurm 2 <data/queens/completion.txt >"$tmp/sin.sh" 2>"$tmp/err"
check "--slurm with FILE -: exit 2" [ $? -eq 2 ]
check "--slurm with FILE -: message" grep -q "^ilpm: --slurm: the tasks cannot read standard input (-)" "$tmp/err"
check "--slurm with FILE -: no script" [ ! -s "$tmp/sin.sh" ]
"$ILPM" batch gmpl models/gmpl/queens.mod --data - --out "$tmp/sin.csv" --slurm 2 <models/gmpl/queens8.dat >/dev/null 2>"$tmp/err"
check "--slurm with --data -: exit 2" [ $? -eq 2 ]
# --slurm-script over a batch's results would lose them: refused.
"$ILPM" batch queens data/queens/completion.txt --out "$tmp/keep.csv" >/dev/null
cp "$tmp/keep.csv" "$tmp/keep0.csv"
"$ILPM" batch queens data/queens/completion.txt --out "$tmp/ss.csv" --slurm 2 --slurm-script "$tmp/keep.csv" 2>"$tmp/err"
check "--slurm-script over results: exit 2" [ $? -eq 2 ]
check "--slurm-script over results: message" grep -q "^ilpm: --slurm-script $tmp/keep.csv holds batch results" "$tmp/err"
check "--slurm-script over results: kept" cmp -s "$tmp/keep.csv" "$tmp/keep0.csv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
