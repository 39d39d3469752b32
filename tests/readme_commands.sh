#!/usr/bin/env bash
# Every example command of the README runs as shown: each line of a ```sh
# block that starts with ./build/ilpm (or a shell loop over it) runs in a
# scratch folder that sees the source's data/ and the build, and must exit
# with the status its comment names ("# exit 10", "exit 3"), else 0.  An
# example whose comment marks it "slow" is skipped unless README_ALL=1.
# And the README quotes no timing figure ("about 45 s", "under a second",
# "minutes"): figures live in docs/benchmarks.md, with their commit; its
# prose and sh examples are read, not the transcripts of output, nor the
# option rows (which name an option's unit).  Usage: readme_commands.sh
# BUILD_DIR (from the source root).
set -u
build=$(cd "${1:-build}" && pwd)
src=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/build"
ln -s "$build/ilpm" "$tmp/build/ilpm"
ln -s "$src/data" "$tmp/data"
ln -s "$src/models" "$tmp/models" # the MathProg models (models/gmpl)
pass=0
fail=0
skipped=0

awk '/^```sh/ { f = 1; next } /^```/ { f = 0 } f && /^(\.\/build\/ilpm|for )/' \
    README.md >"$tmp/commands"
[ -s "$tmp/commands" ] || { echo "no examples found"; echo "0 passed, 1 failed"; exit 1; }

while IFS= read -r line; do
    comment=""
    case $line in *"# "*) comment=${line#*# } ;; esac
    want=0
    if [[ $comment =~ exits?\ ([0-9]+) ]]; then want=${BASH_REMATCH[1]}; fi
    if [[ $comment =~ (^|[^a-z])slow([^a-z]|$) ]] && [ -z "${README_ALL:-}" ]; then
        skipped=$((skipped + 1))
        echo "skipped (slow): $line"
        continue
    fi
    (cd "$tmp" && timeout 120 bash -c "$line" </dev/null >"$tmp/out" 2>"$tmp/err")
    got=$?
    if [ "$got" -eq "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL (exit $got, want $want): $line"
        head -c 400 "$tmp/err"
    fi
done <"$tmp/commands"

figures=$(awk '/^```/ { if (blk) blk = 0; else { blk = 1; sh = ($0 ~ /^```sh/) }; next }
               (!blk || sh) && !/^\| `--/' README.md |
    grep -i -E '[0-9](\.[0-9]+)? (s|ms|seconds?|minutes?|hours?)\b|[0-9]ms\b|\b(a|one|two) (second|minute|hour)s?\b|\b(seconds|minutes|hours)\b|[0-9]+x (faster|slower)')
if [ -z "$figures" ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: timing figures in README.md (they belong in docs/benchmarks.md):"
    echo "$figures"
fi

echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
