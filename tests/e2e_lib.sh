# What every end-to-end script shares: a scratch folder removed at exit,
# the pass and fail counts, `check`, and the closing line that meson and
# CI read.  Sourced, not run: . "$(dirname "$0")/e2e_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# check NAME CMD...: one test, passed when CMD succeeds.  CMD is ONE
# command: in `check NAME c1 && c2` the shell runs c2 outside check and
# its failure is never counted.  A compound condition goes into a
# function (both() below, or one of the script's own); check_lint refuses
# the mistake in every script that sources this file.
check() {
    local name=$1
    shift
    if "$@"; then ok; else bad "$name"; fi
}
# both CMD1 -- CMD2: succeeds when both commands do (for check).
both() {
    local a=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do a+=("$1"); shift; done
    shift
    "${a[@]}" && "$@"
}

# check_lint FILE: prints each `check` line of FILE followed, outside
# quotes, $(...) and <(...), by &&, || or a pipe (its line number and
# text); succeeds when there is none.
check_lint() {
    awk '
    function scan(s,    i, c, n, q, depth, prev) {
        q = ""; depth = 0; n = length(s)
        for (i = 1; i <= n; i++) {
            c = substr(s, i, 1)
            if (q == "\x27") { if (c == "\x27") q = ""; continue }
            if (c == "\\") { i++; continue }
            if (q == "\"" && depth == 0) {
                if (c == "\"") q = ""
                else if (c == "$" && substr(s, i + 1, 1) == "(") { depth++; i++ }
                continue
            }
            if (c == "\x27" && depth == 0) { q = c; continue }
            if (c == "\"" && depth == 0) { q = c; continue }
            if ((c == "$" || c == "<" || c == ">") && substr(s, i + 1, 1) == "(") { depth++; i++; continue }
            if (c == "(" && depth > 0) { depth++; continue }
            if (c == ")" && depth > 0) { depth--; continue }
            if (depth > 0) continue
            if (c == "#" && (i == 1 || substr(s, i - 1, 1) ~ /[ \t]/)) return 0
            if (c == "&" && substr(s, i + 1, 1) == "&") return 1
            if (c == "|") return 1
        }
        return 0
    }
    {
        line = $0; start = NR
        while (line ~ /\\$/ && (getline more) > 0) line = substr(line, 1, length(line) - 1) more
        if (match(line, /(^|[;&|{]|then|do|else)[ \t]+check[ \t]|^check[ \t]/)) {
            rest = substr(line, RSTART + RLENGTH)
            if (scan(rest)) { print FILENAME ":" start ": " line; found = 1 }
        }
    }
    END { exit found }' "$1"
}
if [ -f "$0" ] && ! lint=$(check_lint "$0"); then
    bad "check takes ONE command (wrap a compound condition in a function):
$lint"
fi
