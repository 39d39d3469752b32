#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, AddressSanitizer and
# UndefinedBehaviorSanitizer) and runs each for SECONDS on a seed corpus
# made from data/ and data/bad/.  A crash leaves its input in
# tests/fuzz/findings/ and makes the script fail.
# Usage: tests/fuzz/run.sh [SECONDS] [HARNESS...]   (from the source root)
set -u
secs=${1:-30}
shift || true
build=${FUZZ_BUILD:-build-fuzz}
if [ ! -d "$build" ]; then
    CC=clang CXX=clang++ meson setup "$build" -Dfuzz=true -Dtests=false \
        -Db_sanitize=address,undefined -Db_lundef=false --buildtype=debugoptimized >/dev/null ||
        exit 1
fi
ninja -C "$build" >/dev/null || exit 1
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
    for f in "$build"/tests/fuzz/fuzz_*; do
        [ -f "$f" ] && [ -x "$f" ] && harnesses+=("$(basename "$f")")
    done
fi
mkdir -p tests/fuzz/findings
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
pass=0
fail=0
for h in "${harnesses[@]}"; do
    name=${h#fuzz_}
    corpus=$(mktemp -d)
    case "$name" in
    results)
        cp tests/data/results_* "$corpus"/ 2>/dev/null ;;
    model)
        head -c 64 /dev/urandom >"$corpus/seed" ;;
    gmpl) # each model with its first data file after a NUL byte
        for m in models/gmpl/*.mod; do
            d=$(ls "${m%.mod}"*.dat 2>/dev/null | head -n 1)
            { cat "$m"; [ -n "$d" ] && printf '\0' && cat "$d"; } >"$corpus/$(basename "$m")"
        done ;;
    model_opb | model_cnf)
        ext=${name#model_}
        cp data/models/*."$ext" data/bad/model_*."$ext" "$corpus"/ 2>/dev/null ;;
    model_fzn)
        cp data/fzn/*.fzn "$corpus"/ ;;
    *)
        base=${name%_play}
        base=${base%_epita}
        base=${base%_motyak}
        cp -r data/"$base"/. "$corpus"/ 2>/dev/null
        cp data/bad/"$base"_* "$corpus"/ 2>/dev/null ;;
    esac
    find "$corpus" -name README.md -delete
    log=$(mktemp)
    if "$build/tests/fuzz/$h" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
        -max_len=65536 -artifact_prefix=tests/fuzz/findings/"$name"- "$corpus" >"$log" 2>&1; then
        runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -n 1)
        echo "ok   $h: ${runs:-done} in ${secs}s"
        pass=$((pass + 1))
    else
        echo "FAIL $h: see below"
        tail -n 40 "$log"
        fail=$((fail + 1))
    fi
    rm -rf "$corpus" "$log"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
