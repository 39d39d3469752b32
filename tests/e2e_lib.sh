# What every end-to-end script shares: a scratch folder removed at exit,
# the pass and fail counts, and the closing line that meson and CI read.
# Sourced, not run: . "$(dirname "$0")/e2e_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
