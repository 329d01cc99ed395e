#!/usr/bin/env bash
# timeout: 600
# tests/host/060-maintainers.sh: capaudit scan --maintainers against the
# tree's own scripts/get_maintainer.pl --no-git --no-rolestats -f FILE, on 60
# files of the 6.1 tree that hold capability uses (evenly spaced in path
# order).  A file agrees when every address get_maintainer.pl prints is ours,
# and every one of ours is in its output or belongs to a name it printed
# (get_maintainer.pl keeps one address per name).
# Prints PASS/FAIL/SKIP lines for tests/run; exits 1 when a test failed.
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd -P)
capaudit=${CAPAUDIT:-$repo/build/capaudit}
tree=${CAPAUDIT_SRC_TREE:-}
samples=${CAPAUDIT_MAINTAINERS_SAMPLES:-60}

[ -x "$capaudit" ] || { printf 'FAIL maintainers: %s is built\n    run make first\n' "$capaudit"; exit 1; }
[ -n "$tree" ] || tree=$("$repo/tests/scan/pristine-tree") || tree=
if [ ! -r "$tree/MAINTAINERS" ] || [ ! -r "$tree/scripts/get_maintainer.pl" ] || ! command -v perl >/dev/null; then
	echo "SKIP maintainers: agreement with get_maintainer.pl (no 6.1 tree with MAINTAINERS, or no perl)"
	exit 0
fi

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$capaudit" scan --no-progress --json --maintainers "$tree" >"$tmp/scan.json" || {
	echo "FAIL maintainers: capaudit scan --maintainers $tree"; exit 1; }

python3 - "$tmp/scan.json" "$samples" >"$tmp/ours" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
files = sorted({s["file"] for s in d["sites"]})
pick = [files[i * len(files) // n] for i in range(n)] if len(files) > n else files
secs = d["sections"]
first = {}
for s in d["sites"]:
    first.setdefault(s["file"], s["maintainers"])
for f in pick:
    people = []
    for name in first[f]:
        sec = secs[name]
        people += sec["maintainers"] + sec["reviewers"] + sec["lists"]
    print(f + "\t" + "\t".join(people))
PY

(cd "$tree" && while IFS=$'\t' read -r f _; do
	printf '%s' "$f"
	perl scripts/get_maintainer.pl --no-git --no-rolestats -f "$f" 2>/dev/null | while read -r l; do printf '\t%s' "$l"; done
	printf '\n'
done) <"$tmp/ours" >"$tmp/theirs"

python3 - "$tmp/ours" "$tmp/theirs" <<'PY'
import re, sys

def parse(line):
    f, *people = line.rstrip("\n").split("\t")
    addrs, names = set(), set()
    for p in people:
        m = re.match(r'\s*(.*?)\s*<([^>]+)>', p)
        if m:
            addrs.add(m.group(2).lower())
            names.add(m.group(1).strip('"').lower())
        elif p.strip():
            addrs.add(p.split()[0].lower())
    return f, addrs, names, people

ours = [parse(l) for l in open(sys.argv[1])]
theirs = {f: (a, n) for f, a, n, _ in (parse(l) for l in open(sys.argv[2]))}
bad = []
for f, addrs, _, people in ours:
    t_addrs, t_names = theirs[f]
    missing = t_addrs - addrs
    extra = set()
    for p in people:
        m = re.match(r'\s*(.*?)\s*<([^>]+)>', p)
        a = (m.group(2) if m else p.split()[0]).lower()
        if a not in t_addrs and not (m and m.group(1).strip('"').lower() in t_names):
            extra.add(a)
    if missing or extra or not t_addrs:
        bad.append((f, sorted(missing), sorted(extra)))
n = len(ours)
if n >= 50 and not bad:
    print("PASS maintainers: %d of %d files agree with get_maintainer.pl --no-git" % (n, n))
    sys.exit(0)
print("FAIL maintainers: %d of %d files agree with get_maintainer.pl --no-git (50 needed, all must)" % (n - len(bad), n))
for f, missing, extra in bad:
    print("    %s: missing %s, extra %s" % (f, missing, extra))
sys.exit(1)
PY
