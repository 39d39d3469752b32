#!/usr/bin/env bash
# End-to-end tests of the files ilpm writes (export, gen, merge, batch,
# compare --plot) and of standard output: "-" is standard output, devices
# and symbolic links are written through, never renamed over, and a write
# that fails is exit 1 with a message, leaving an old file as it was and
# no temporary behind.  Usage: e2e_outputs.sh PATH/TO/ilpm (source root)
set -u
ILPM=${1:-build/ilpm}
. "$(dirname "$0")/e2e_lib.sh"
# [to=FILE] status NAME WANT CMD...: CMD's exit status is WANT; its
# standard output goes to FILE ($tmp/out by default), stderr to $tmp/err.
status() {
    local name=$1 want=$2
    shift 2
    "$@" >"${to:-$tmp/out}" 2>"$tmp/err"
    local got=$?
    [ "$got" -eq "$want" ] && ok || bad "$name: exit $got, want $want: $(cat "$tmp/err")"
}
# The files of a folder, hidden ones too: a temporary left behind shows.
listing() { ls -A "$1" | tr '\n' ' '; }
# Runs CMD with file writes limited to KB kilobytes; a write past that
# fails with EFBIG (the signal it would raise is ignored).
limited() {
    local kb=$1
    shift
    (trap '' XFSZ && ulimit -f "$kb" && exec "$@")
}

# Devices given to ilpm as outputs.  Run as root, an ilpm that renamed
# over its outputs would replace /dev/full and /dev/null for the whole
# machine: root gets device nodes of its own to write to instead (and
# skips those cases when it cannot make them).  Redirections by the shell
# (>/dev/full) are safe and use the real ones.
FULL=/dev/full
NULL=/dev/null
if [ "$(id -u)" -eq 0 ]; then
    mkdir "$tmp/dev"
    FULL=$tmp/dev/full
    NULL=$tmp/dev/null
    if ! { mknod -m 666 "$FULL" c 1 7 && mknod -m 666 "$NULL" c 1 3 &&
        echo x >"$NULL" && ! echo x 2>/dev/null >"$FULL"; }; then
        echo "note: no device nodes of our own (nodev?): device outputs not tested"
        FULL="" NULL=""
    fi
fi
devices() { [ -n "$FULL" ]; }

# --- "-" is standard output, for every format ----------------------------
stdin_name=/dev/stdin
[ -e /dev/stdin ] || stdin_name=/dev/fd/0
if command -v glpsol >/dev/null; then
    o=$("$ILPM" export queens --n 8 --lp - | glpsol --lp "$stdin_name" 2>&1)
    check "--lp - | glpsol" grep -q "INTEGER OPTIMAL SOLUTION FOUND" <<<"$o"
    o=$("$ILPM" export queens --n 8 --mps - | glpsol --freemps "$stdin_name" 2>&1)
    check "--mps - | glpsol" grep -q "INTEGER OPTIMAL SOLUTION FOUND" <<<"$o"
else
    echo "note: glpsol not installed, LP/MPS pipes not run"
fi
sat=""
command -v cadical >/dev/null && sat="cadical -q"
command -v minisat >/dev/null && [ -z "$sat" ] && sat="minisat -verb=0"
if [ -n "$sat" ]; then
    "$ILPM" export queens --n 8 --cnf - | $sat >/dev/null 2>&1
    check "--cnf - | ${sat%% *}: satisfiable" [ $? -eq 10 ]
    "$ILPM" export queens --n 3 --cnf - | $sat >/dev/null 2>&1
    check "--cnf - | ${sat%% *}: unsatisfiable" [ $? -eq 20 ]
fi
"$ILPM" export queens --n 8 --opb - >"$tmp/q.opb"
check "--opb - header" grep -q '^\* #variable= 64 #constraint= ' "$tmp/q.opb"
"$ILPM" export queens --n 8 --opb "$tmp/q2.opb"
check "--opb - is the file" cmp -s "$tmp/q.opb" "$tmp/q2.opb"
# Two formats on standard output would be one stream of both: refused.
"$ILPM" export queens --n 4 --lp - --cnf - >"$tmp/two.out" 2>"$tmp/err"
check "--lp - --cnf -: exit 2" [ $? -eq 2 ]
check "--lp - --cnf -: message" grep -q "^ilpm: --lp and --cnf both write to standard output (-): give one of them a file$" "$tmp/err"
check "--lp - --cnf -: nothing written" [ ! -s "$tmp/two.out" ]
"$ILPM" gen tetravex --n 3 --seed 3 --out - >"$tmp/g1"
"$ILPM" gen tetravex --n 3 --seed 3 >"$tmp/g2"
check "gen --out -" cmp -s "$tmp/g1" "$tmp/g2"
check "gen --out - not empty" [ -s "$tmp/g1" ]
check "nothing named -" both [ ! -e ./- ] -- [ ! -e "$tmp/-" ]

# --- descriptors and devices are written in place --------------------------
"$ILPM" export queens --n 4 --mps /dev/fd/1 >"$tmp/fd.mps"
check "/dev/fd/1" grep -q "^NAME" "$tmp/fd.mps"
# A link to the descriptor, as /dev/stdout is: the output arrives, an
# append redirection appends, and the link stays a link.
ln -s /proc/self/fd/1 "$tmp/stdout"
echo "first line" >"$tmp/app.lp"
"$ILPM" export queens --n 4 --lp "$tmp/stdout" --cnf "$tmp/stdout" >>"$tmp/app.lp"
check "link to /proc/self/fd/1 appends" [ "$(head -1 "$tmp/app.lp")" = "first line" ]
check "link to /proc/self/fd/1: output arrived" both grep -q "^Subject To" "$tmp/app.lp" -- \
    grep -q "^p cnf" "$tmp/app.lp"
safe=0
[ -L "$tmp/stdout" ] && [ "$(grep -c . "$tmp/app.lp")" -gt 5 ] && safe=1
check "link to /proc/self/fd/1 stays a link" [ "$safe" -eq 1 ]
# /dev/stdout itself (only once the stand-in above came through: a bad
# ilpm run as root would replace it for everyone).
type_of() { if [ -L "$1" ]; then echo link; elif [ -c "$1" ]; then echo char; elif [ -e "$1" ]; then echo other; else echo none; fi; }
before=$(type_of /dev/stdout)
if [ "$safe" -eq 1 ]; then
    echo "first line" >"$tmp/app2.lp"
    "$ILPM" export queens --n 4 --lp /dev/stdout --opb /dev/stdout >>"$tmp/app2.lp"
    check "/dev/stdout appends" [ "$(head -1 "$tmp/app2.lp")" = "first line" ]
    check "/dev/stdout output arrived" both grep -q "^Subject To" "$tmp/app2.lp" -- \
        grep -q '^\* #variable=' "$tmp/app2.lp"
    check "/dev/stdout unchanged ($before)" [ "$(type_of /dev/stdout)" = "$before" ]
fi
if devices; then
    status "devices written" 0 "$ILPM" export queens --n 4 --lp "$NULL" --cnf "$NULL"
    check "a device stays a device" [ -c "$NULL" ]
fi
mkfifo "$tmp/fifo"
cat "$tmp/fifo" >"$tmp/fifo.out" &
"$ILPM" export queens --n 4 --lp "$tmp/fifo"
wait
check "FIFO stays a FIFO" [ -p "$tmp/fifo" ]
check "FIFO output arrived" grep -q "^Subject To" "$tmp/fifo.out"

# --- symbolic links are written through -----------------------------------
mkdir "$tmp/l"
ln -s target.lp "$tmp/l/link.lp"
"$ILPM" export queens --n 4 --lp "$tmp/l/link.lp"
check "export through a dangling link" both [ -L "$tmp/l/link.lp" ] -- grep -q "^Subject To" "$tmp/l/target.lp"
"$ILPM" export queens --n 5 --lp "$tmp/l/link.lp"
check "export through a link" both [ -L "$tmp/l/link.lp" ] -- grep -q "x(5,5)\|Q\[5,5\]\|(5,5)" "$tmp/l/target.lp"
check "no temporary beside the link" [ "$(listing "$tmp/l")" = "link.lp target.lp " ]
for i in 1 2 3 4; do echo $((i + 3)); done >"$tmp/q.txt"
"$ILPM" batch queens "$tmp/q.txt" --shard 0/2 --out "$tmp/s0.csv" --jobs 1 >/dev/null
"$ILPM" batch queens "$tmp/q.txt" --shard 1/2 --out "$tmp/s1.csv" --jobs 1 >/dev/null
mkdir "$tmp/m"
cp "$tmp/s0.csv" "$tmp/m/merged.csv" # results: merge may replace them
ln -s merged.csv "$tmp/m/link.csv"
status "merge --out LINK" 0 "$ILPM" merge --out "$tmp/m/link.csv" "$tmp/s0.csv" "$tmp/s1.csv"
check "merge: the link stays a link" [ -L "$tmp/m/link.csv" ]
check "merge: the target holds the rows" [ "$(grep -c '^queens,' "$tmp/m/merged.csv")" -eq 4 ]
check "merge: no temporary" [ "$(listing "$tmp/m")" = "link.csv merged.csv " ]

# --- an output never replaces an input ---------------------------------------
# Whatever name it goes by (the same path, a link, a hard link, standard
# input redirected from it), an input named as an output is refused with
# exit 2 before anything is written, and stays as it was.
mkdir "$tmp/in"
printf '4\n5\n' >"$tmp/in/q.txt"
cp "$tmp/in/q.txt" "$tmp/in/q.orig"
ln -s q.txt "$tmp/in/link.txt"
ln "$tmp/in/q.txt" "$tmp/in/hard.txt"
kept() { cmp -s "$tmp/in/q.txt" "$tmp/in/q.orig"; }
for out in q.txt ./q.txt link.txt hard.txt; do
    status "batch --out $out, an input" 2 "$ILPM" batch queens "$tmp/in/q.txt" --out "$tmp/in/$out"
    check "batch --out $out: the input kept" kept
done
check "batch --out an input: message" grep -q "^ilpm: --out $tmp/in/hard.txt is also an input of this run" "$tmp/err"
status "batch - --out the redirected input" 2 "$ILPM" batch queens - --out "$tmp/in/q.txt" <"$tmp/in/q.txt"
check "batch - --out the redirected input: kept" kept
status "batch --slurm-script an input" 2 "$ILPM" batch queens "$tmp/in/q.txt" --out "$tmp/in/r.csv" --slurm 2 --slurm-script "$tmp/in/link.txt"
check "batch --slurm-script an input: kept" kept
cp "$tmp/in/q.txt" "$tmp/in/q.svg"
status "compare --plot an input" 2 "$ILPM" compare queens "$tmp/in/q.svg" --plot "$tmp/in/q.svg"
check "compare --plot an input: kept" cmp -s "$tmp/in/q.svg" "$tmp/in/q.orig"
printf 'Maximize\n obj: 3 apple + 2 pear\nSubject To\n cap: apple + pear <= 1\nBinary\n apple pear\nEnd\n' >"$tmp/in/k.lp"
cp "$tmp/in/k.lp" "$tmp/in/k.orig"
for f in lp mps cnf opb; do
    status "export --$f the model file" 2 "$ILPM" export model "$tmp/in/k.lp" --$f "$tmp/in/k.lp"
    check "export --$f the model file: kept" cmp -s "$tmp/in/k.lp" "$tmp/in/k.orig"
done
# Inputs named by options (gmpl's --data and --model) and standard input
# given as /dev/stdin are inputs as much as FILEs are.
cp models/gmpl/queens.mod "$tmp/in/m.mod"
cp models/gmpl/queens8.dat "$tmp/in/d.dat"
cp "$tmp/in/m.mod" "$tmp/in/m.orig"
cp "$tmp/in/d.dat" "$tmp/in/d.orig"
gmpl_kept() { both cmp -s "$tmp/in/m.mod" "$tmp/in/m.orig" -- cmp -s "$tmp/in/d.dat" "$tmp/in/d.orig"; }
for f in lp mps cnf opb; do
    status "export gmpl --$f the --data file" 2 "$ILPM" export gmpl "$tmp/in/m.mod" --data "$tmp/in/d.dat" --$f "$tmp/in/d.dat"
    check "export gmpl --$f the --data file: kept" gmpl_kept
    status "export gmpl --$f the --model file" 2 "$ILPM" export gmpl --model "$tmp/in/m.mod" "$tmp/in/d.dat" --$f "$tmp/in/m.mod"
    check "export gmpl --$f the --model file: kept" gmpl_kept
done
check "export --data as output: message" grep -q "^ilpm: --opb $tmp/in/m.mod is also an input of this run ($tmp/in/m.mod)" "$tmp/err"
status "export gmpl, the second --data as output" 2 "$ILPM" export gmpl "$tmp/in/m.mod" --data "$tmp/in/m.orig" --data "$tmp/in/d.dat" --lp "$tmp/in/./d.dat"
check "export gmpl, the second --data: kept" gmpl_kept
status "export gmpl --data $stdin_name, --lp its file" 2 "$ILPM" export gmpl "$tmp/in/m.mod" --data "$stdin_name" --lp "$tmp/in/d.dat" <"$tmp/in/d.dat"
check "export gmpl --data $stdin_name: kept" gmpl_kept
status "batch --slurm-script the --model file" 2 "$ILPM" batch gmpl --model "$tmp/in/m.mod" "$tmp/in/d.dat" --out "$tmp/in/r.csv" --slurm 2 --slurm-script "$tmp/in/m.mod"
check "batch --slurm-script the --model file: kept" gmpl_kept
cp "$tmp/in/d.dat" "$tmp/in/d.svg"
status "compare --plot the --data file" 2 "$ILPM" compare gmpl "$tmp/in/m.mod" --data "$tmp/in/d.svg" --plot "$tmp/in/d.svg"
check "compare --plot the --data file: kept" cmp -s "$tmp/in/d.svg" "$tmp/in/d.orig"
status "export gmpl to a new file" 0 "$ILPM" export gmpl "$tmp/in/m.mod" --data "$tmp/in/d.dat" --lp "$tmp/in/new.lp"
cp "$tmp/s0.csv" "$tmp/in/s0.csv"
status "merge --out an input" 2 "$ILPM" merge --out "$tmp/in/s0.csv" "$tmp/s1.csv" "$tmp/in/s0.csv"
check "merge --out an input: kept" cmp -s "$tmp/s0.csv" "$tmp/in/s0.csv"
status "two outputs on one file" 2 "$ILPM" export queens --n 4 --lp "$tmp/in/x.lp" --mps "$tmp/in/x.lp"
check "two outputs on one file: message" grep -q "^ilpm: --lp and --mps name the same file" "$tmp/err"
# batch and merge replace (or add to) a results file, never another file.
echo "my notes" >"$tmp/in/notes.txt"
for resume in "" --resume; do
    status "batch --out a file that is not results $resume" 2 "$ILPM" batch queens "$tmp/in/q.txt" --out "$tmp/in/notes.txt" $resume
    check "batch --out notes $resume: kept" [ "$(cat "$tmp/in/notes.txt")" = "my notes" ]
done
check "batch --out notes: how to overwrite" grep -q "not an ilpm results file.*remove it first (rm '$tmp/in/notes.txt')" "$tmp/err"
status "merge --out a file that is not results" 2 "$ILPM" merge --out "$tmp/in/notes.txt" "$tmp/s0.csv"
check "merge --out notes: kept" [ "$(cat "$tmp/in/notes.txt")" = "my notes" ]
printf '\n\n' >"$tmp/in/blank.csv"
status "batch --resume onto blank lines" 2 "$ILPM" batch queens "$tmp/in/q.txt" --out "$tmp/in/blank.csv" --resume
: >"$tmp/in/empty.csv"
status "batch --out an empty file" 0 "$ILPM" batch queens "$tmp/in/q.txt" --out "$tmp/in/empty.csv"
# Results already there are replaced only when --force says so (--resume
# adds to them): even another puzzle's, a batch without either is refused.
cp "$tmp/in/empty.csv" "$tmp/in/first.csv"
status "batch --out results again" 2 "$ILPM" batch queens "$tmp/in/q.txt" --out "$tmp/in/empty.csv"
check "batch --out results again: message" grep -q "^ilpm: --out $tmp/in/empty.csv holds results already: add --resume to run only what it lacks, or --force to replace it$" "$tmp/err"
check "batch --out results again: one line" [ "$(wc -l <"$tmp/err")" -eq 1 ]
status "batch --out another puzzle's results" 2 "$ILPM" batch sudoku data/sudoku/magictour_top1465.txt --index 1 --out "$tmp/in/empty.csv"
check "results refused: kept" cmp -s "$tmp/in/empty.csv" "$tmp/in/first.csv"
status "batch --out results again --resume" 0 "$ILPM" batch queens "$tmp/in/q.txt" --out "$tmp/in/empty.csv" --resume
status "batch --out results again --force --resume" 2 "$ILPM" batch queens "$tmp/in/q.txt" --out "$tmp/in/empty.csv" --force --resume
status "batch --out results again --force" 0 "$ILPM" batch sudoku data/sudoku/magictour_top1465.txt --index 1 --out "$tmp/in/empty.csv" --force
check "batch --force: replaced" both grep -q "^sudoku," "$tmp/in/empty.csv" -- [ "$(grep -c "^queens," "$tmp/in/empty.csv")" -eq 0 ]

# --- write errors: exit 1 and a message -------------------------------------
to=/dev/full status "solve > /dev/full" 1 "$ILPM" solve sudoku data/sudoku/magictour_top1465.txt
check "solve > /dev/full message" grep -q "^ilpm: standard output: No space left on device" "$tmp/err"
to=/dev/full status "stats > /dev/full" 1 "$ILPM" stats queens --n 8
to=/dev/full status "list > /dev/full" 1 "$ILPM" list
to=/dev/full status "--help > /dev/full" 1 "$ILPM" --help
# An unsatisfiable instance is exit 10, but a lost result is worse.
to=/dev/full status "unsat > /dev/full" 1 "$ILPM" solve queens --n 3
for f in lp mps cnf opb; do
    if devices; then
        status "export --$f FULL" 1 "$ILPM" export queens --n 8 --$f "$FULL"
        check "export --$f FULL message" grep -q "^ilpm: $FULL: .*No space left on device" "$tmp/err"
    fi
    to=/dev/full status "export --$f - > /dev/full" 1 "$ILPM" export queens --n 8 --$f -
    check "export --$f - > /dev/full: one message" [ "$(wc -l <"$tmp/err")" -eq 1 ]
done
# An output that cannot be written where it is named is refused before
# any work, as a mistake of the command line.
status "export to a missing folder" 2 "$ILPM" export queens --n 4 --lp "$tmp/none/q.lp"
check "missing folder message" grep -q "^ilpm: --lp $tmp/none/q.lp: no folder $tmp/none to write it in" "$tmp/err"
status "export to a folder" 2 "$ILPM" export queens --n 4 --mps "$tmp"
check "folder message" grep -q "^ilpm: --mps $tmp: is a folder" "$tmp/err"
to=/dev/full status "gen > /dev/full" 1 "$ILPM" gen tetravex --n 4 --seed 1
status "merge of a missing input" 2 "$ILPM" merge --out "$tmp/m/x.csv" "$tmp/nothere.csv"
status "batch --out in a missing folder" 2 "$ILPM" batch queens "$tmp/q.txt" --out "$tmp/none/r.csv" --jobs 1
to=$tmp/none-plot status "compare --plot in a missing folder: refused before the runs" 2 \
    "$ILPM" compare queens --n 5 --plot "$tmp/none/p.svg"
check "compare --plot in a missing folder: nothing run" [ ! -s "$tmp/none-plot" ]
status "gen --out in a missing folder" 2 "$ILPM" gen tetravex --n 3 --out "$tmp/none/g.txt"
status "merge --out in a missing folder" 2 "$ILPM" merge --out "$tmp/none/m.csv" "$tmp/s0.csv"
status "batch --slurm-script in a missing folder" 2 "$ILPM" batch queens "$tmp/q.txt" --out "$tmp/sl.csv" --slurm 2 --slurm-script "$tmp/none/s.sh"
# batch --out - writes the rows to standard output, the summary to stderr.
status "batch --out -" 0 "$ILPM" batch queens "$tmp/q.txt" --out - --jobs 1
check "batch --out -: CSV rows" [ "$(grep -c '^queens,.*,solved,true,' "$tmp/out")" -eq 4 ]
check "batch --out -: the summary on stderr" grep -q "^standard output: 4 runs" "$tmp/err"
status "batch --out - --format json" 0 "$ILPM" batch queens "$tmp/q.txt" --out - --format json --jobs 1
check "batch --out - --format json: JSON rows" [ "$(grep -c '^{"puzzle":"queens"' "$tmp/out")" -eq 4 ]
status "batch --out - --resume" 2 "$ILPM" batch queens "$tmp/q.txt" --out - --resume
status "compare --plot -" 2 "$ILPM" compare queens --n 5 --plot -
check "compare --plot - message" grep -q "standard output" "$tmp/err"
if devices; then
    status "gen --out FULL" 1 "$ILPM" gen tetravex --n 4 --seed 1 --out "$FULL"
    status "merge --out FULL" 1 "$ILPM" merge --out "$FULL" "$tmp/s0.csv"
    status "batch --out FULL" 1 "$ILPM" batch queens "$tmp/q.txt" --out "$FULL" --jobs 1
    check "batch --out FULL message" grep -q "^ilpm: $FULL: No space left on device" "$tmp/err"
    status "batch json --out FULL" 1 "$ILPM" batch queens "$tmp/q.txt" --format json --out "$FULL" --jobs 1
    check "FULL stays a device" [ -c "$FULL" ]
fi
if devices && command -v gnuplot >/dev/null; then
    ln -s "$FULL" "$tmp/full.svg"
    status "compare --plot onto a full device" 1 "$ILPM" compare queens --n 5 --plot "$tmp/full.svg"
    check "--plot message" grep -q "^ilpm: --plot: $tmp/full.svg: No space left on device" "$tmp/err"
    check "--plot: the device stays a device" both [ -c "$FULL" ] -- [ -L "$tmp/full.svg" ]
fi

# --- a failed write leaves the old file and no temporary ----------------------
mkdir "$tmp/w"
for f in lp mps cnf opb; do echo "old $f" >"$tmp/w/q.$f"; done
status "export past the size limit" 1 limited 4 "$ILPM" export queens --n 30 \
    --lp "$tmp/w/q.lp" --mps "$tmp/w/q.mps" --cnf "$tmp/w/q.cnf" --opb "$tmp/w/q.opb"
check "export: four messages" [ "$(grep -c "File too large" "$tmp/err")" -eq 4 ]
for f in lp mps cnf opb; do
    check "export: old q.$f kept" [ "$(cat "$tmp/w/q.$f")" = "old $f" ]
done
check "export: no temporary" [ "$(listing "$tmp/w")" = "q.cnf q.lp q.mps q.opb " ]
"$ILPM" gen tetravex --n 9 --seed 1 --count 40 >"$tmp/big.txt"
echo "old gen" >"$tmp/w/g.txt"
status "gen past the size limit" 1 limited 4 "$ILPM" gen tetravex --n 9 --seed 1 --count 40 --out "$tmp/w/g.txt"
check "gen: old file kept" [ "$(cat "$tmp/w/g.txt")" = "old gen" ]
for i in $(seq 1 200); do echo 4; done >"$tmp/many.txt"
"$ILPM" batch queens "$tmp/many.txt" --out "$tmp/many.csv" --jobs 1 >/dev/null
cp "$tmp/s0.csv" "$tmp/w/m.csv"
status "merge past the size limit" 1 limited 4 "$ILPM" merge --out "$tmp/w/m.csv" "$tmp/many.csv"
check "merge: old file kept" cmp -s "$tmp/s0.csv" "$tmp/w/m.csv"
check "gen, merge: no temporary" [ "$(listing "$tmp/w")" = "g.txt m.csv q.cnf q.lp q.mps q.opb " ]
# The results file is written as rows complete: a full disk ends the
# batch with exit 1 and keeps the rows written before.
status "batch past the size limit" 1 limited 8 "$ILPM" batch queens "$tmp/many.txt" --out "$tmp/w/r.csv" --jobs 1
check "batch: message" grep -q "^ilpm: $tmp/w/r.csv: File too large" "$tmp/err"
check "batch: rows kept" [ "$(grep -c '^queens,' "$tmp/w/r.csv")" -gt 10 ]

# Ctrl-C during an export: exit 130 at once, no file and no temporary
# (each writer looks at the stop; it wrote the whole file and exited 0).
# A hard stop (the grace after a signal ran out: SIGALRM, which GLPK's
# LP writer, looking for no stop, meets) removes the temporary too, and
# GLPK's MPS file, which ilpm finishes (TMPDIR is the folder looked at).
stopped_export() { # SIGNAL FLAG N [S]: export queens N with FLAG, SIGNAL at S s (0.4)
    rm -rf "$tmp/int" && mkdir "$tmp/int"
    TMPDIR="$tmp/int" "$ILPM" export queens --n "$3" "$2" "$tmp/int/q" >"$tmp/out" 2>"$tmp/err" &
    local pid=$!
    sleep "${4:-0.4}"
    kill -"$1" "$pid"
    wait "$pid"
    local got=$?
    [ "$got" -eq 130 ] || { echo "  exit $got, want 130: $(cat "$tmp/err")"; return 1; }
    [ -z "$(listing "$tmp/int")" ] || { echo "  left: $(listing "$tmp/int")"; return 1; }
}
check "export --cnf, SIGINT: 130, nothing written" stopped_export INT --cnf 1500
check "export --opb, SIGINT: 130, nothing written" stopped_export INT --opb 1500
check "export --lp, hard stop: 130, no temporary" stopped_export ALRM --lp 1000
check "export --mps, hard stop: 130, no scratch file" stopped_export ALRM --mps 1000 1.2

# The lint in e2e_lib.sh: a check followed by && or || (or a pipe) is
# refused in every script, whatever the quotes and $(...) hold.
# (The word comes from a variable, so that the lint of this very script
# does not see these lines as checks.)
w=check
{
    echo "$w \"a\" [ -e x ] && [ -e y ]"
    echo "$w \"b\" grep -q x f ||"
    echo "    true"
    echo "$w \"c\" grep -q x f | cat"
    echo "$w \"d\" both [ -e x ] -- [ -e y ]"
    echo "$w \"e\" [ \"\$(grep -c 'a|b' f | wc -l)\" -eq 1 ] # && in a comment"
    echo "$w \"f\" diff <(cut -d, -f1 f | sort) <(echo \"x && y\")"
} >"$tmp/lint.sh"
check "lint: the three mistakes and only them" [ "$(check_lint "$tmp/lint.sh" | cut -d: -f2 | tr '\n' ' ')" = "1 2 4 " ]

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
