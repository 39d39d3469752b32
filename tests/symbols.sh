#!/usr/bin/env bash
# symbols.sh LIB...: every symbol each static library LIB exports starts with
# ilpm_, so that a program linking libilpm cannot collide with it.  The
# weak DW.ref.* entries are emitted by the C++ compiler for exception
# handling in sat_guard.cpp and are not ours to name; under
# AddressSanitizer each global also gets an __odr_asan.NAME marker, which
# must name one of ours.
set -u
[ $# -ge 1 ] || { echo "usage: symbols.sh libilpm.a [libilpm_cli.a ...]" >&2; exit 2; }
nm_out=
for lib in "$@"; do
  out=$(nm -g --defined-only "$lib") || { echo "nm failed on $lib" >&2; exit 1; }
  nm_out=$nm_out$'\n'$out
done
bad=$(printf '%s\n' "$nm_out" |
  awk 'NF == 3 { n = $3; sub(/^__odr_asan\./, "", n) }
       NF == 3 && n !~ /^ilpm_/ && $3 !~ /^DW\.ref\./ { print $2, $3 }' |
  sort -u)
if [ -n "$bad" ]; then
  echo "symbols exported without the ilpm_ prefix (rename or make static):" >&2
  printf '%s\n' "$bad" >&2
  exit 1
fi
n=$(printf '%s\n' "$nm_out" | awk 'NF == 3' | wc -l)
echo "ok: $n exported symbols, all ilpm_"
