#!/usr/bin/env bash
# Optimisation on the SAT back end (run on demand, not by meson test):
# the six MIPLIB files of ../shared/data/miplib/ solved with
# --backend sat, one run each, and a Markdown table of the status, the
# objective against the known optimum, the wall time (against the limit)
# and the peak memory (GNU time's maximum resident set size).  Note the
# machine's load (printed at the end) next to the figures.
#
#   tests/bench/sat_opt.sh [ILPM] [DIR]
#
# ILPM defaults to build/ilpm, DIR to ../shared/data/miplib (from the
# checkout's root); TIME_LIMIT (seconds per file, default 60) is each
# run's --time-limit; FILES (default the six) the names without .mps;
# SEARCH (default bound) sat's --sat-search.
set -u

ilpm=${1:-build/ilpm}
dir=${2:-../shared/data/miplib}
limit=${TIME_LIMIT:-60}
files=${FILES:-"stein45 sentoy lseu p0201 p0282 mod008"}
search=${SEARCH:-bound}
if [ ! -x "$ilpm" ]; then
    echo "sat_opt.sh: no ilpm binary at '$ilpm' (give its path)" >&2
    exit 2
fi
if [ ! -x /usr/bin/time ]; then
    echo "sat_opt.sh: needs GNU time at /usr/bin/time" >&2
    exit 2
fi
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# The known optima of the six files (as published with MIPLIB).
declare -A opt=([lseu]=1120 [mod008]=307 [p0201]=7615 [p0282]=258411
    [sentoy]=-7772 [stein45]=30)

printf '| file | status | objective | optimum | wall s | limit s | peak MB |\n'
printf '|---|---|--:|--:|--:|--:|--:|\n'
for f in $files; do
    if [ ! -r "$dir/$f.mps" ]; then
        echo "sat_opt.sh: no file $dir/$f.mps" >&2
        exit 2
    fi
    /usr/bin/time -f '%e %M' -o "$work/time" "$ilpm" solve model \
        "$dir/$f.mps" --backend sat --sat-search "$search" --time-limit "$limit" --format json \
        >"$work/out" 2>"$work/err"
    # GNU time puts "Command exited with non-zero status N" first.
    read -r wall kb < <(tail -n 1 "$work/time")
    st=$(grep -o '"status":"[a-z]*"' "$work/out" | head -1 | cut -d'"' -f4)
    ob=$(grep -o '"objective":-\?[0-9]*' "$work/out" | head -1 | cut -d: -f2)
    [ -n "$st" ] || st="exit: $(head -c 80 "$work/err" | tr '\n' ' ')"
    printf '| %s | %s | %s | %s | %s | %s | %d |\n' "$f" "$st" "${ob:--}" \
        "${opt[$f]:-?}" "$wall" "$limit" $((kb / 1024))
done
printf '\nload: %s\n' "$(uptime)"
