#!/usr/bin/env bash
# tests/build-kernel/run.sh: vm/build-kernel's patch mechanism on a tiny fake
# linux-source tarball (no real kernel, no compiler): keys, applying,
# replacing and rejecting patches.  Prints PASS/FAIL/SKIP per check for
# tests/run --scripts.
# timeout: 120
set -uo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd -P)
bk=$repo/vm/build-kernel
t=$(mktemp -d "${TMPDIR:-/tmp}/capaudit-bk-test.XXXXXX")
trap 'rm -rf "$t"' EXIT

export CAPAUDIT_CACHE=$t/cache
export CAPAUDIT_LINUX_TARBALL=$t/linux-source-6.1.tar.xz
export CAPAUDIT_PATCHES=$t/patches
export CAPAUDIT_CONFIG=$t/capaudit.config

failures=0
pass() { echo "PASS build-kernel: $1"; }
fail() {
	echo "FAIL build-kernel: $1"
	shift
	[ $# = 0 ] || printf '%s\n' "$@" | sed 's/^/    | /'
	failures=$((failures + 1))
}
check() { # check NAME CMD...: pass if CMD succeeds
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name" "$(cat "$t/out" 2>/dev/null)"; fi
}

# A fake source tree: a top directory, as Debian's tarball has.
mkdir -p "$t/tree/linux-source-6.1/kernel" "$t/tree/linux-source-6.1/security" "$t/patches"
printf 'VERSION = 6\nPATCHLEVEL = 1\n' >"$t/tree/linux-source-6.1/Makefile"
printf 'int cap_capable(void)\n{\n\treturn 0;\n}\n' >"$t/tree/linux-source-6.1/security/commoncap.c"
printf 'line one\nline two\nline three\n' >"$t/tree/linux-source-6.1/kernel/capability.c"
tar -C "$t/tree" -cJf "$CAPAUDIT_LINUX_TARBALL" linux-source-6.1
echo CONFIG_BPF=y >"$CAPAUDIT_CONFIG"
src=$CAPAUDIT_CACHE/src-sha-$(sha256sum "$CAPAUDIT_LINUX_TARBALL" | cut -c1-16)

# make_patch NAME FILE OLD NEW: a -p1 patch replacing line OLD with NEW in FILE.
make_patch() {
	local name=$1 file=$2 old=$3 new=$4 a b
	a=$t/diff/a b=$t/diff/b
	rm -rf "$t/diff"
	mkdir -p "$a/$(dirname "$file")" "$b/$(dirname "$file")"
	cp "$t/tree/linux-source-6.1/$file" "$a/$file"
	sed "s/^$old\$/$new/" "$a/$file" >"$b/$file"
	(cd "$t/diff" && diff -u "a/$file" "b/$file") >"$t/patches/$name"
	[ $? = 1 ] || { echo "make_patch: $old not in $file" >&2; exit 1; }
}

# The tree's files and their contents, the patch bookkeeping included.
tree_state() { (cd "$src" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

bk_run() { "$bk" "$@" >"$t/out" 2>&1; }
key() { "$bk" --print-key 2>"$t/out"; }

# 1. A series with one patch is applied by --prepare-only.
make_patch 0001-capability-two.patch kernel/capability.c 'line two' 'line TWO'
echo 0001-capability-two.patch >"$t/patches/series"
check "prepare-only applies the series" bk_run --prepare-only
check "the patch is in the tree" grep -qx 'line TWO' "$src/kernel/capability.c"

# 2. The key: stable, and changed by the patches and the config only.
k1=$(key)
k2=$(key)
check "print-key is stable" test -n "$k1" -a "$k1" = "$k2"
printf '# a comment\n\n0001-capability-two.patch\n' >"$t/patches/series"
echo 'an unrelated file' >"$t/patches/README"
check "comments, blank lines and unlisted files leave the key alone" test "$(key)" = "$k1"
touch "$t/patches/0001-capability-two.patch" "$CAPAUDIT_CONFIG"
check "timestamps leave the key alone" test "$(key)" = "$k1"
echo CONFIG_KPROBES=y >>"$CAPAUDIT_CONFIG"
kc=$(key)
check "the config changes the key" test -n "$kc" -a "$kc" != "$k1"
echo CONFIG_BPF=y >"$CAPAUDIT_CONFIG"
check "restoring the config restores the key" test "$(key)" = "$k1"

# 3. A changed patch: the old one reversed, the new one applied.
make_patch 0001-capability-two.patch kernel/capability.c 'line two' 'line 2'
kp=$(key)
check "a changed patch changes the key" test -n "$kp" -a "$kp" != "$k1"
check "prepare-only takes the changed patch" bk_run --prepare-only
check "the old patch is reversed" test "$(grep -c 'line TWO' "$src/kernel/capability.c")" = 0
check "the new patch is applied" grep -qx 'line 2' "$src/kernel/capability.c"
check "an unchanged series does nothing" bk_run --prepare-only
if grep -q -e applying -e reversing "$t/out"; then
	fail "an unchanged series patches nothing" "$(cat "$t/out")"
else
	pass "an unchanged series patches nothing"
fi

# A second patch in the series: a new key, both applied, in order.
make_patch 0002-commoncap.patch security/commoncap.c '	return 0;' '	return -1;'
printf '0001-capability-two.patch\n0002-commoncap.patch\n' >"$t/patches/series"
k3=$(key)
check "adding a patch changes the key" test -n "$k3" -a "$k3" != "$kp"
check "prepare-only applies a two-patch series" bk_run --prepare-only
check "both patches are in the tree" \
	grep -qx '	return -1;' "$src/security/commoncap.c"

# Changing one patch: the files the other patches touch come back with the
# same content, and keep their mtime (no rebuild of what includes them).
touch -d @1000000000 "$src/kernel/capability.c"
cp "$t/patches/0002-commoncap.patch" "$t/patches/0002-commoncap.patch.keep"
sed -i 's/^+\treturn -1;$/+\treturn -2;/' "$t/patches/0002-commoncap.patch"
check "prepare-only takes a change to the second patch" bk_run --prepare-only
check "the changed patch is in the tree" grep -qx '	return -2;' "$src/security/commoncap.c"
check "a file whose content came back keeps its mtime" \
	test "$(stat -c %Y "$src/kernel/capability.c")" = 1000000000
check "a file whose content changed gets a new mtime" \
	test "$(stat -c %Y "$src/security/commoncap.c")" != 1000000000
mv "$t/patches/0002-commoncap.patch.keep" "$t/patches/0002-commoncap.patch"
check "the second patch back as it was" bk_run --prepare-only

# 4. A patch that does not apply: a clear error naming it, tree untouched.
before=$(tree_state)
cp "$t/patches/0002-commoncap.patch" "$t/patches/0002-commoncap.patch.good"
sed -i 's/^-\treturn 0;$/-\treturn 42;/' "$t/patches/0002-commoncap.patch"
if bk_run --prepare-only; then
	fail "a patch that does not apply fails" "$(cat "$t/out")"
else
	pass "a patch that does not apply fails"
fi
check "the error names the patch" grep -q '0002-commoncap.patch' "$t/out"
if [ "$(tree_state)" = "$before" ]; then
	pass "a failed patch leaves the tree as it was"
else
	fail "a failed patch leaves the tree as it was" \
		"$(diff <(echo "$before") <(tree_state))"
fi
mv "$t/patches/0002-commoncap.patch.good" "$t/patches/0002-commoncap.patch"
check "the fixed series applies again" bk_run --prepare-only
check "the fixed series is in the tree" grep -qx '	return -1;' "$src/security/commoncap.c"

# 5. A series naming a missing patch is an error, for every mode.
printf '0001-capability-two.patch\n0003-missing.patch\n' >"$t/patches/series"
before=$(tree_state)
for mode in --print-key --prepare-only --check; do
	if bk_run $mode; then
		fail "$mode fails on a missing patch" "$(cat "$t/out")"
	elif ! grep -q '0003-missing.patch' "$t/out"; then
		fail "$mode names the missing patch" "$(cat "$t/out")"
	else
		pass "$mode rejects a missing patch by name"
	fi
done
if [ "$(tree_state)" = "$before" ]; then
	pass "a missing patch leaves the tree as it was"
else
	fail "a missing patch leaves the tree as it was" "$(diff <(echo "$before") <(tree_state))"
fi

# 6. An empty series: every patch reversed, the pristine tree back.
: >"$t/patches/series"
check "an empty series reverses every patch" bk_run --prepare-only
if (cd "$src" && diff -r -x '.capaudit-*' . "$t/tree/linux-source-6.1") >"$t/out" 2>&1; then
	pass "an empty series gives back the pristine tree"
else
	fail "an empty series gives back the pristine tree" "$(cat "$t/out")"
fi

[ $failures = 0 ]
