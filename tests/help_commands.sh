#!/usr/bin/env bash
# Every verb has a help of its own, and every example in it runs as shown:
# for each verb, `ilpm VERB --help` must exit 0, open with its own usage
# line, list an options section, an exit status section and its examples;
# each example line ("  ilpm ...") then runs in a scratch folder that sees
# the source's data/ and models/ (a folder per verb, in order, so that merge's
# examples find the shards its batch examples wrote) and must exit with
# the status its comment names ("# exit 10"), else 0.  Also: gen
# machiavelli's --cards gives what its help says (N-2 to N cards).
# Usage: help_commands.sh PATH/TO/ilpm (from the source root).
set -u
ILPM=$(cd "$(dirname "${1:-build/ilpm}")" && pwd)/$(basename "${1:-build/ilpm}")
. "$(dirname "$0")/e2e_lib.sh"
src=$(pwd)

# run_examples HELP DIR: runs each example line of the help in HELP in
# the scratch folder DIR (which sees the source's data/ and models/); the
# exit status must be the one its comment names ("# exit 10: ..."), else 0.
run_examples() {
    awk '/^examples/ { f = 1; next } /^[^ ]/ { f = 0 } f && /^  ilpm /' \
        "$1" >"$tmp/examples"
    mkdir -p "$2"
    [ -e "$2/data" ] || ln -s "$src/data" "$2/data"
    [ -e "$2/models" ] || ln -s "$src/models" "$2/models"
    while IFS= read -r line; do
        cmd=${line#  ilpm }
        want=0
        case $cmd in *"# exit "*) want=${cmd##*# exit } ;; esac
        want=${want%%[!0-9]*}
        cmd=${cmd%%#*}
        # shellcheck disable=SC2086 # the example's words, as shown
        (cd "$2" && timeout 120 "$ILPM" $cmd </dev/null \
            >"$tmp/out" 2>"$tmp/err")
        got=$?
        if [ "$got" -eq "$want" ]; then ok; else
            bad "example (exit $got, want $want): $line: $(head -c 300 "$tmp/err")"
        fi
    done <"$tmp/examples"
}

for verb in solve play stats export gen compare batch merge list; do
    if ! "$ILPM" "$verb" --help >"$tmp/help" 2>"$tmp/err"; then
        bad "$verb --help: exit $?: $(cat "$tmp/err")"
        continue
    fi
    if head -1 "$tmp/help" | grep -q "^usage: ilpm $verb\b"; then ok; else
        bad "$verb --help: not its own usage: $(head -1 "$tmp/help")"
    fi
    for section in "^exit status:" "^examples"; do
        if grep -q "$section" "$tmp/help"; then ok; else
            bad "$verb --help: no /$section/"
        fi
    done
    if [ "$verb" != list ]; then
        if grep -q "^$verb options:" "$tmp/help"; then ok; else
            bad "$verb --help: no options section"
        fi
    fi
    n=$(grep -c "^  ilpm " <(sed -n '/^examples/,$p' "$tmp/help"))
    if [ "$n" -ge 1 ]; then ok; else bad "$verb --help: no example"; fi
    run_examples "$tmp/help" "$tmp/$verb"
done

# solve PUZZLE --help gives the puzzle's own examples, at least two, all
# of that puzzle, and they run; the model puzzle's show each of its formats.
puzzle_examples() { # PUZZLE: the example lines of solve PUZZLE --help
    sed -n '/^examples/,$p' "$tmp/help.$1" | grep "^  ilpm "
}
only_puzzle() { ! puzzle_examples "$1" | grep -qv "^  ilpm solve $1 "; }
for pz in $("$ILPM" list | awk '{ print $1 }'); do
    "$ILPM" solve "$pz" --help >"$tmp/help.$pz" 2>&1
    check "solve $pz --help: two examples or more" [ "$(puzzle_examples "$pz" | wc -l)" -ge 2 ]
    check "solve $pz --help: examples of $pz" only_puzzle "$pz"
    run_examples "$tmp/help.$pz" "$tmp/solve-$pz"
done
for ext in lp mps opb cnf; do
    check "solve model --help: a .$ext example" grep -q "^  ilpm solve model [^ ]*\.$ext\b" "$tmp/help.model"
done

# The help of a verb with a puzzle keeps the puzzle's input and options.
"$ILPM" solve queens --help >"$tmp/help" 2>&1
if grep -q "^puzzle options:" "$tmp/help" && grep -q "^solve options:" "$tmp/help"; then
    ok
else bad "solve queens --help: $(cat "$tmp/help")"; fi
# gen --help describes gen's --out, not batch's.
"$ILPM" gen --help >"$tmp/help" 2>&1
if grep -q "^  --out FILE .*instances (gen)" "$tmp/help"; then ok; else
    bad "gen --help --out: $(grep -- --out "$tmp/help")"
fi

# stats reads every FILE (tests/e2e_cli.sh): its usage says so.
check "stats --help: FILE..." grep -q "^usage: ilpm stats PUZZLE \[FILE\.\.\.\]" <("$ILPM" stats --help)
check "ilpm --help: stats FILE..." grep -q "^  stats PUZZLE \[FILE\.\.\.\]" <("$ILPM" --help)

# The statuses a verb ends with are among those its help lists: gen on
# its time limit (3) and on SIGTERM (130).
exits_listed() { # VERB STATUS
    "$ILPM" "$1" --help | sed -n '/^exit status:/,/^$/p' | grep -qw "$2"
}
"$ILPM" gen tetravex --n 12 --unsolvable --time-limit 0.01 >/dev/null 2>&1
got=$?
check "gen on its time limit: exit 3 ($got)" [ "$got" -eq 3 ]
check "gen --help lists 3" exits_listed gen 3
"$ILPM" gen tetravex --n 20 --unsolvable --time-limit 60 >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM "$pid"
wait "$pid"
got=$?
check "gen on SIGTERM: exit 130 ($got)" [ "$got" -eq 130 ]
check "gen --help lists 130" exits_listed gen 130

# gen machiavelli --cards N: N-2 to N cards per table, as its help says.
"$ILPM" gen machiavelli --cards 10 --count 40 --seed 5 >"$tmp/tables" 2>&1
sizes=$(awk '/^table:/ { sub(/^table:/, ""); print NF }' "$tmp/tables" | sort -un | tr '\n' ' ')
if [[ $sizes =~ ^((8|9|10)\ )+$ ]]; then ok; else
    bad "gen machiavelli --cards 10: table sizes $sizes"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
