#!/usr/bin/env bash
# timeout: 180
# tests/host/110-browser.sh: the page `capaudit scan --html` writes, opened
# in a real browser (Debian's chromium, headless): a screenshot that is not
# blank and shows the chart's bars, and no console message (the page has no
# script: any message is an error), for the fixture tree and for a tree whose
# directory name is markup that would run if it were not escaped.  A page
# with a script error first shows that the console check can see one.
# Prints PASS/FAIL lines for tests/run; exits 1 when a test failed.
set -uo pipefail
# shellcheck source=tests/host/lib/hosttest.sh
. "$(dirname "$0")/lib/hosttest.sh"
py=/usr/bin/python3	# Debian's, with python3-pil

# open PAGE PNG: screenshot PAGE into PNG; the console messages on stdout
open_page() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --user-data-dir="$t/profile" --window-size=1280,1024 \
		--enable-logging=stderr --v=0 --screenshot="$2" "file://$1" 2>&1 >/dev/null |
		grep -F ':CONSOLE' || true
}

# picture PNG: "ok" when not blank (over 2% of pixels not white, several
# colours) and the CAP_SYS_ADMIN bars' red is there, else what is wrong
picture() {
	"$py" - "$1" <<'EOF'
import sys
from PIL import Image
im = Image.open(sys.argv[1]).convert("RGB")
px = list(im.getdata())
inked = sum(1 for p in px if p != (255, 255, 255))
colours = len(set(px))
red = sum(1 for p in px if abs(p[0] - 0xc0) < 8 and abs(p[1] - 0x39) < 8 and abs(p[2] - 0x2b) < 8)
if inked < len(px) * 0.02 or colours < 8:
    print("blank: %d of %d pixels inked, %d colours" % (inked, len(px), colours))
elif red < 500:
    print("no chart: %d pixels of the CAP_SYS_ADMIN red" % red)
else:
    print("ok")
EOF
}

if ! command -v chromium >/dev/null || ! "$py" -c 'import PIL' 2>/dev/null; then
	fail "chromium and python3-pil are installed (scripts/deps installs them)"
	exit 1
fi

# the console check sees an error where there is one
printf '<!DOCTYPE html><html><body><p>x</p><script>notDefined();</script></body></html>' >"$t/bad.html"
msgs=$(open_page "$t/bad.html" "$t/bad.png")
if grep -q 'Uncaught ReferenceError' <<<"$msgs"; then
	pass "browser: a page with a script error logs it (the console check works)"
else
	fail "browser: a page with a script error logs it (the console check works)" "got: $msgs"
fi

# the fixture tree, and the same under a name that is markup
hostile="$t/<img src=x onerror=console.error(document.domain)>tree"
mkdir -p "$hostile"
cp -r "$repo/tests/fixtures/scan/new/." "$hostile/"
i=0
for tree in "$repo/tests/fixtures/scan/new" "$hostile"; do
	i=$((i + 1))
	if ! "$capaudit" scan --html "$t/page$i.html" "$tree" >/dev/null 2>"$t/err"; then
		fail "browser: scan --html of tree $i" "$(cat "$t/err")"
		continue
	fi
	msgs=$(open_page "$t/page$i.html" "$t/page$i.png")
	if [ -z "$msgs" ]; then
		pass "browser: scan --html page $i logs no console message"
	else
		fail "browser: scan --html page $i logs no console message" "$msgs"
	fi
	got=$(picture "$t/page$i.png" 2>&1)
	if [ "$got" = ok ]; then
		pass "browser: scan --html page $i renders (screenshot not blank, chart drawn)"
	else
		fail "browser: scan --html page $i renders (screenshot not blank, chart drawn)" "$got"
	fi
	[ -z "${CAPAUDIT_SCREENSHOTS:-}" ] || cp "$t/page$i.png" "$CAPAUDIT_SCREENSHOTS/"
done
exit $failed
