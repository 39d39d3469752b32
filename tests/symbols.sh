#!/usr/bin/env bash
# symbols.sh SRC BUILD LIB...: every symbol each static library LIB
# exports starts with ilpm_, so that a program linking libilpm cannot
# collide with it, and is declared in a header of the project (SRC's src/
# and models/, and the headers BUILD generates), so that no function is
# exported that no caller can see: an export without a declaration is
# either a leftover or a private function that should be static.  The
# headers are read through the preprocessor, so names made by macros
# count, and those of the test hooks too (-Dtest_hooks builds).  The
# weak DW.ref.* entries are emitted by the C++ compiler for exception
# handling in sat_guard.cpp and are not ours to name; under
# AddressSanitizer each global also gets an __odr_asan.NAME marker, which
# must name one of ours.
set -u
if [ $# -lt 3 ]; then
  echo "usage: symbols.sh SRC_ROOT BUILD_DIR libilpm.a [libilpm_cli.a ...]" >&2
  exit 2
fi
src=$1 build=$2
shift 2
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

# The names every header declares, macros expanded.
incs=()
while IFS= read -r d; do incs+=("-I$d"); done < <(
  { find "$src/src" "$src/models" -name '*.h' -printf '%h\n'; echo "$build/models"; } | sort -u)
declared=$(mktemp)
trap 'rm -f "$declared"' EXIT
while IFS= read -r h; do
  if ! cc -E -P -std=c11 -D_POSIX_C_SOURCE=200809L -DILPM_TEST_HOOKS "${incs[@]}" "$h" 2>/dev/null; then
    echo "cannot preprocess $h" >&2
    exit 1
  fi
done < <(find "$src/src" "$src/models" "$build/models" -name '*.h' | sort) |
  grep -oE '\bilpm_[A-Za-z0-9_]+' | sort -u >"$declared"
[ -s "$declared" ] || { echo "no declarations found under $src" >&2; exit 1; }
undeclared=$(printf '%s\n' "$nm_out" |
  awk 'NF == 3 && $3 ~ /^ilpm_/ { print $3 }' | sort -u | comm -23 - "$declared")
if [ -n "$undeclared" ]; then
  echo "symbols exported but declared in no header (declare them, or make them static):" >&2
  printf '%s\n' "$undeclared" >&2
  exit 1
fi
# The installed header is the public API alone: at most 300 lines, and
# no back end's own option in the shared options (each back end keeps
# its own, set by name).
hdr=$src/src/ilpm.h
lines=$(wc -l <"$hdr")
if [ "$lines" -gt 300 ]; then
  echo "src/ilpm.h has $lines lines: the public header stays within 300" >&2
  exit 1
fi
fields=$(sed -n '/^typedef struct ilpm_options {/,/^} ilpm_options;/p' "$hdr" |
  grep -nwE 'amo|card|cuts|branch|backtrack|presolve|sat_options|max_pb_nodes|search|learn|lookahead')
if [ -n "$fields" ]; then
  echo "back-end option fields in ilpm.h's ilpm_options (keep them with the back end):" >&2
  printf '%s\n' "$fields" >&2
  exit 1
fi
n=$(printf '%s\n' "$nm_out" | awk 'NF == 3' | wc -l)
echo "ok: $n exported symbols, all ilpm_, all declared in a header"
