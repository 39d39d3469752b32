#!/usr/bin/env bash
# kernel_layout.sh LIBILPM SRCDIR: the propagation kernel and the cp back
# end keep their shape.
#  - No circle among their object files in LIBILPM (the kernel and the
#    settling of givens in src/model, the cp files in src/backend): an
#    object that uses a symbol another defines depends on it, and tsort
#    finds any loop (cp_search and cp_cdcl once called each other).
#  - One vocabulary: the cp files name the kernel as kernel.h does
#    (ilpm_kern, ilpm_kcon, ILPM_K_TRUE, ...), with no second set of names
#    for it (typedefs of kernel types, ilpm_cp_eng_* wrappers, CP_TRUE).
#  - kernel.h names no struct that is defined outside src/model.
#  - Every function of src/ and models/ is at most 80 lines long (from
#    the line of its name to the closing brace): a screen or two.
set -u
[ $# -eq 2 ] || { echo "usage: kernel_layout.sh libilpm.a SRCDIR" >&2; exit 2; }
lib=$(realpath "$1")
src=$2
fail=0
members=$(ar t "$lib" | grep -E '^src_(model_(kernel|kernel_list|kernel_load|kernel_pack|probe|propagate)|backend_cp_[a-z_]*)\.c\.o$')
[ "$(printf '%s\n' "$members" | grep -c .)" -ge 6 ] ||
    { echo "kernel_layout: the kernel and cp objects are not in $lib" >&2; exit 1; }
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
(cd "$work" && ar x "$lib" $members) || exit 2
# Symbol -> the member defining it; then member pairs (definer, user).
for o in $members; do
    nm --defined-only -g "$work/$o" | awk -v o="$o" 'NF == 3 { print $3, o }'
done | sort >"$work/defs"
for o in $members; do
    nm -u "$work/$o" | awk -v o="$o" '{ print $NF, o }'
done | sort >"$work/uses"
join "$work/defs" "$work/uses" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$work/edges"
if ! tsort "$work/edges" >/dev/null 2>"$work/loop"; then
    echo "kernel_layout: a circle among the kernel and cp objects:" >&2
    cat "$work/loop" >&2
    fail=1
fi
alias=$(grep -nE '\bcp_(eng|con|list|occ|lval|lix)\b|\bilpm_cp_eng_|\bCP_(OPEN|TRUE|FALSE|DECIDED|R_[A-Z]+)\b|typedef[[:space:]]+(struct[[:space:]]+)?ilpm_k' \
    "$src"/src/backend/cp*.[ch] "$src"/tests/check_cp.c)
if [ -n "$alias" ]; then
    echo "kernel_layout: a second name for the kernel:" >&2
    printf "%s\n" "$alias" | head -20 >&2
    fail=1
fi
for t in $(grep -oE 'struct[[:space:]]+[a-z_]+' "$src/src/model/kernel.h" |
    awk '{ print $2 }' | sort -u); do
    grep -qE "struct[[:space:]]+$t[[:space:]]*\{" "$src"/src/model/*.[ch] ||
        { echo "kernel_layout: kernel.h names struct $t, not defined in src/model" >&2; fail=1; }
done
long=$(awk '/^[a-z].*\(/ && !/;$/ { name = $0; at = FNR }
    /^}/ && at { if (FNR - at + 1 > 80) print FILENAME ": " FNR - at + 1 " lines: " name; at = 0 }' \
    "$src"/src/*/*.c "$src"/models/*.c "$src"/models/*/*.c)
if [ -n "$long" ]; then
    echo "kernel_layout: functions over 80 lines:" >&2
    printf '%s\n' "$long" >&2
    fail=1
fi
[ $fail -eq 0 ] && echo "ok: $(wc -l <"$work/edges") uses among $(printf '%s\n' "$members" | wc -l) objects, no circle"
exit $fail
