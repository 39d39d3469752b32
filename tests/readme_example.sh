#!/usr/bin/env bash
# The example program of docs/library.md, built the way a user would: install ilpm
# into a staging prefix, compile the program with pkg-config, run it.
# Usage: readme_example.sh BUILD_DIR   (run from the source root)
set -u
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! meson install -C "$build" --destdir "$tmp/stage" >"$tmp/install.log" 2>&1; then
    cat "$tmp/install.log"
    echo "0 passed, 1 failed"
    exit 1
fi
prefix=$(meson introspect "$build" --buildoptions |
    python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"][0])' 2>/dev/null ||
    echo /usr/local)
root="$tmp/stage$prefix"
pc=$(dirname "$(find "$root" -name ilpm.pc | head -n 1)")
# The .pc file names the final prefix; point it at the staging copy.
sed -i "s|^prefix=.*|prefix=$root|" "$pc/ilpm.pc"
awk '/<!-- example-program -->/{f=1; next} f && /^```c/{g=1; next} g && /^```/{exit} g' \
    docs/library.md >"$tmp/example.c"
if [ ! -s "$tmp/example.c" ]; then
    echo "no example program found in docs/library.md"
    echo "0 passed, 1 failed"
    exit 1
fi
# A sanitized build installs a sanitized library: link the program the same way.
san=$(meson introspect "$build" --buildoptions |
    python3 -c 'import json,sys; print([o["value"] for o in json.load(sys.stdin) if o["name"]=="b_sanitize"][0])' 2>/dev/null ||
    echo none)
sanflags=""
[ "$san" != none ] && [ -n "$san" ] && sanflags="-fsanitize=$san"
# shellcheck disable=SC2046,SC2086
if ! cc -std=c11 $sanflags -Wall -Wextra -Werror -o "$tmp/example" "$tmp/example.c" \
    $(PKG_CONFIG_PATH="$pc" pkg-config --static --cflags --libs ilpm) 2>"$tmp/cc.log"; then
    cat "$tmp/cc.log"
    echo "0 passed, 1 failed"
    exit 1
fi
out=$("$tmp/example")
code=$?
expected=$(awk '/<!-- example-output -->/{f=1; next} f && /^```/{if (g) exit; g=1; next} g' docs/library.md)
if [ "$code" -eq 0 ] && [ "$out" = "$expected" ]; then
    echo "1 passed, 0 failed"
    exit 0
fi
echo "exit $code; output:"
echo "$out"
echo "expected:"
echo "$expected"
echo "0 passed, 1 failed"
exit 1
