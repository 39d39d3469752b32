#!/usr/bin/env bash
# The example program of docs/library.md, built the way a user would: install ilpm
# into a staging prefix, compile the program with pkg-config, run it; then
# the same against the build tree through its uninstalled pkg-config file.
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
expected=$(awk '/<!-- example-output -->/{f=1; next} f && /^```/{if (g) exit; g=1; next} g' docs/library.md)
pass=0
fail=0
# built NAME PKG_CONFIG_PATH MODULE: compiles the example with the flags
# pkg-config gives for MODULE, runs it, compares its output with the docs'.
built() {
    local name=$1 path=$2 module=$3 flags out code
    if ! flags=$(PKG_CONFIG_PATH="$path" pkg-config --static --cflags --libs "$module" 2>&1); then
        echo "FAIL: $name: pkg-config: $flags"
        fail=$((fail + 1))
        return
    fi
    # shellcheck disable=SC2086
    if ! cc -std=c11 $sanflags -Wall -Wextra -Werror -o "$tmp/example" "$tmp/example.c" \
        $flags 2>"$tmp/cc.log"; then
        echo "FAIL: $name: the example does not compile:"
        cat "$tmp/cc.log"
        fail=$((fail + 1))
        return
    fi
    out=$("$tmp/example")
    code=$?
    if [ "$code" -eq 0 ] && [ "$out" = "$expected" ]; then
        pass=$((pass + 1))
        return
    fi
    echo "FAIL: $name: exit $code; output:"
    echo "$out"
    echo "expected:"
    echo "$expected"
    fail=$((fail + 1))
}
built "installed" "$pc" ilpm
# Against the build tree, as docs/library.md shows: the uninstalled .pc
# must name the folder of ilpm.h and of libilpm.a.
built "build tree" "$build/meson-uninstalled" ilpm-uninstalled
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
