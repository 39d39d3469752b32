#!/usr/bin/env python3
"""The README's table of the options every solving verb takes matches the
option rows as `ilpm solve --help` prints them: each option in the
README's table is an option of solve with the same value name, each option
solve lists is in the README's table, and where the README names a
default it is the row's.  Usage: readme_options.py
PATH/TO/ilpm (from the source root)."""
import re
import subprocess
import sys

ilpm = sys.argv[1] if len(sys.argv) > 1 else "build/ilpm"
failures = []

# The README's table: rows "| `--name VALUE` | meaning |" after the
# line that introduces it, up to the first line that is not a row.
lines = open("README.md", encoding="utf-8").read().splitlines()
start = next(i for i, l in enumerate(lines)
             if l.startswith("Options every solving verb takes"))
readme = {}
rows = {}  # the meaning column of each row
for l in lines[start + 1:]:
    if not l.strip():
        if readme:
            break
        continue
    if not l.startswith("|"):
        break
    m = re.match(r"\| `--([a-z0-9-]+)(?: ([^`]*))?` \|", l)
    if m:
        readme[m.group(1)] = (m.group(2) or "").replace("\\|", "|")
        rows[m.group(1)] = l[m.end():]

# The options table as solve's help prints it: "  --name VALUE  help",
# a long one with its help on the next line.
out = subprocess.run([ilpm, "solve", "--help"], capture_output=True,
                     text=True, check=True).stdout
table = {}
helps = {}
section = False
last = None
for l in out.splitlines():
    if l.startswith("solve options:"):
        section = True
        continue
    if section and l and not l.startswith(" "):
        break
    m = re.match(r"  --([a-z0-9-]+)(?: (\S+))?(?:\s|$)", l) if section else None
    if m:
        last = m.group(1)
        table[last] = m.group(2) or ""
        helps[last] = l[m.end():].strip()
    elif section and last and l.strip():
        helps[last] += " " + l.strip()

if not readme:
    failures.append("no options table found in README.md")
if not table:
    failures.append("no options in 'ilpm solve --help'")
for name, value in readme.items():
    if name not in table:
        failures.append(f"README lists --{name}, which solve does not take")
    elif table[name] != value:
        failures.append(f"--{name}: README names its value '{value}', "
                        f"--help '{table[name]}'")
# A default the README names is the row's, as --help prints it.
for name, text in rows.items():
    m = re.search(r"default ([^ )]+)\)$", helps.get(name, ""))
    if m and "default" in text and not re.search(
            r"(?<![\w-])" + re.escape(m.group(1)) + r"(?![\w-])", text):
        failures.append(f"--{name}: README's row says a default, not "
                        f"the row's {m.group(1)}")
for name in table:
    if name not in readme:
        failures.append(f"--{name} (solve --help) is not in README's table")
# The README is a guide for a newcomer; details belong in docs/.
if len(lines) > 400:
    failures.append(f"README.md has {len(lines)} lines (at most 400: move "
                    "details to docs/)")
for f in failures:
    print("FAIL:", f)
print(f"{len(readme)} README rows, {len(table)} options, "
      f"{len(failures)} failed")
sys.exit(1 if failures else 0)
