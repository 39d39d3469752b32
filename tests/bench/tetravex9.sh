#!/usr/bin/env bash
# Tetravex, issue #35's target: the 9x9 boards of `ilpm gen tetravex --n 9
# --seed S`, S = 1..3, within 10 s each, and ahead of Gecode on the 8x8
# boards of the same seeds.
#
#   tests/bench/tetravex9.sh PATH/TO/ilpm [SECONDS] [REPS]
#
# Each setting of SETTINGS (one per line: the options after `ilpm solve
# tetravex FILE`; default below) runs on every board of SIZES (default
# "8 9") with --time-limit SECONDS (default 10), REPS times (default 3);
# a cell is the best wall time in seconds of the verified solves and how
# many of the REPS solved, '-' when none did (a board that fails its first
# run is not run again).  With MiniZinc and Gecode installed, a Gecode row
# runs models/mzn/tetravex.mzn on the same boards (wall time, flattening
# included).  Prints a Markdown table; note the load (`uptime`) with it.
# Run on demand; not part of `meson test`.
set -u
ilpm=${1:?usage: tetravex9.sh PATH/TO/ilpm [SECONDS] [REPS]}
limit=${2:-10}
reps=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
mzn=$here/../../models/mzn/tetravex.mzn
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
read -r -d '' default_settings <<'EOF'
--backend auto
--backend auto --formulation edges
--backend sat --formulation edges
--backend sat --formulation edges --sat-option target=2
--backend cp
--backend cp --formulation edges
--backend sat --redundant
--backend cp --redundant
EOF
settings=${SETTINGS:-$default_settings}
sizes=${SIZES:-8 9}

for n in $sizes; do
    for s in 1 2 3; do
        "$ilpm" gen tetravex --n "$n" --seed "$s" >"$tmp/b${n}_$s.txt" || exit 2
        awk '/^#/ {next} !n {n = $1; printf "N = %d;\npezzi = [|", n; next}
             NF >= 4 {printf " %s, %s, %s, %s |", $1, $2, $3, $4}
             END {print "];"}' "$tmp/b${n}_$s.txt" >"$tmp/b${n}_$s.dzn"
    done
done

now() { date +%s.%N; }

# One cell: best wall time of the verified solves, and how many solved.
cell() { # file options...
    local f=$1 best='' ok=0 i t0 t out
    shift
    for ((i = 1; i <= reps; i++)); do
        t0=$(now)
        # shellcheck disable=SC2086
        out=$(timeout -k 5 $((limit * 2 + 30)) "$ilpm" solve tetravex "$f" \
            --time-limit "$limit" --format json "$@" 2>/dev/null)
        t=$(awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.2f", b - a}')
        if [[ $out == *'"status":"solved"'* && $out == *'"verified":true'* ]]; then
            ok=$((ok + 1))
            best=$(awk -v a="${best:-1e9}" -v b="$t" 'BEGIN {print (b < a) ? b : a}')
        elif [ $ok -eq 0 ]; then
            break
        fi
    done
    if [ $ok -gt 0 ]; then echo "$best ($ok/$reps)"; else echo "-"; fi
}

gecode_cell() { # dzn
    local best='' ok=0 i t0 t out
    for ((i = 1; i <= reps; i++)); do
        t0=$(now)
        out=$(timeout -k 5 "$limit" minizinc --solver gecode "$mzn" "$1" 2>/dev/null)
        t=$(awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.2f", b - a}')
        if [[ $out == *griglia* ]]; then
            ok=$((ok + 1))
            best=$(awk -v a="${best:-1e9}" -v b="$t" 'BEGIN {print (b < a) ? b : a}')
        elif [ $ok -eq 0 ]; then
            break
        fi
    done
    if [ $ok -gt 0 ]; then echo "$best ($ok/$reps)"; else echo "-"; fi
}

echo "Tetravex boards of gen --n N --seed S, best wall seconds of $reps" \
    "(solved/runs), limit ${limit} s ($(date -u +%Y-%m-%d), $("$ilpm" --version)," \
    "load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
header="| setting |" rule="|---|"
for n in $sizes; do
    for s in 1 2 3; do
        header="$header ${n}x$n seed $s |"
        rule="$rule---:|"
    done
done
echo "$header"
echo "$rule"
while IFS= read -r opts; do
    [ -z "$opts" ] && continue
    row="| \`$opts\` |"
    for n in $sizes; do
        for s in 1 2 3; do
            # shellcheck disable=SC2086
            row="$row $(cell "$tmp/b${n}_$s.txt" $opts) |"
        done
    done
    echo "$row"
done <<<"$settings"
if command -v minizinc >/dev/null &&
    minizinc --solvers 2>/dev/null | grep -q org.gecode.gecode; then
    row="| Gecode (tetravex.mzn) |"
    for n in $sizes; do
        for s in 1 2 3; do
            row="$row $(gecode_cell "$tmp/b${n}_$s.dzn") |"
        done
    done
    echo "$row"
fi
