#!/usr/bin/env bash
# How often cp's depth-first search gets stuck on n-Queens (run on demand,
# not by the test suite): `solve queens --n N --backend cp --verbose` for
# N = FROM, FROM+STEP, ... TO, each line N and the failures and restarts
# of the search that answered, then the total failures and how many sizes
# restarted.  A step of 7 meets every residue mod 6 (a step of 9 only two);
# from 100 to 1000 by 7 (129 sizes) it takes 20-40 s.  Used to judge a
# branching rule on many sizes rather than on one (docs/benchmarks.md,
# "Scale on cp, third pass").
#
#   tests/bench/queens_scan.sh [ILPM] [FROM] [TO] [STEP]   (from the source root)
set -u
ilpm=${1:-build/ilpm}
from=${2:-100}
to=${3:-1000}
step=${4:-7}
[ -x "$ilpm" ] || { echo "queens_scan.sh: no ilpm at $ilpm" >&2; exit 2; }
total=0 sizes=0 restarted=0
for ((n = from; n <= to; n += step)); do
    line=$("$ilpm" solve queens --n "$n" --backend cp --verbose --time-limit 20 \
        2>&1 >/dev/null | grep -o '[0-9]* failures, [0-9]* restarts' | tail -1)
    echo "$n ${line:-error}"
    fails=${line%% *}
    total=$((total + ${fails:-0}))
    sizes=$((sizes + 1))
    case $line in *" 0 restarts") ;; *) restarted=$((restarted + 1)) ;; esac
done
echo "total: $total failures over $sizes sizes, $restarted of them restarted"
