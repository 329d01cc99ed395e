#!/bin/sh
# timeout: 300
# Faults on the store's side: a store replaced by garbage, or an SQLite
# database of another program, is refused by record and report with a
# message naming the file and what to do, and is left byte for byte as it
# was; a full state directory (a small tmpfs) is reported in the log, the
# recorder keeps counting in memory, and writes everything once space is
# back: nothing stored before is lost, nothing made meanwhile either.
. "$REPO/tests/vm/lib/record.sh"
T=$(mktemp -d)
fail() { echo "FAIL: $*" >&2; exit 1; }

# refused NAME FILE: record and report refuse it, naming it; it is unchanged
refused() {
	name=$1 file=$2
	cp "$file" "$T/before"
	rc=0
	"$CAPAUDIT" record --store "$file" --duration 2 2>"$T/err" || rc=$?
	echo "== $name: record exit status $rc"
	cat "$T/err"
	[ $rc = 1 ] || fail "$name: record exit status $rc, not 1"
	grep -q "the store $file is not a capaudit database.*move it away or pass --store" "$T/err" ||
		fail "$name: record's message does not name the file and what to do"
	rc=0
	"$CAPAUDIT" report --store "$file" >/dev/null 2>"$T/err" || rc=$?
	cat "$T/err"
	[ $rc = 1 ] || fail "$name: report exit status $rc, not 1"
	grep -q "$file" "$T/err" || fail "$name: report's message does not name the file"
	cmp -s "$T/before" "$file" || fail "$name: the file was changed"
	[ ! -e "$file-wal" ] && [ ! -e "$file-shm" ] || fail "$name: a WAL was created beside it"
}

head -c 65536 /dev/urandom >"$T/garbage.db"
refused garbage "$T/garbage.db"
printf 'SQLite format 3\000' | cat - "$T/garbage.db" >"$T/torn.db"
refused "garbage with an SQLite header" "$T/torn.db"
# a header that says WAL mode over garbage: SQLite would make a -wal beside it
python3 -c '
import sys
g = bytearray(open(sys.argv[1], "rb").read(4096))
g[0:16] = b"SQLite format 3\0"
g[16:24] = bytes([0x10, 0, 2, 2, 0, 64, 32, 32])
open(sys.argv[2], "wb").write(g)' "$T/garbage.db" "$T/walhdr.db"
refused "garbage with a WAL-mode header" "$T/walhdr.db"
sqlite3 "$T/other.db" 'CREATE TABLE checks (id INTEGER PRIMARY KEY, what TEXT); INSERT INTO checks (what) VALUES ("theirs");'
refused "another program's database" "$T/other.db"

# a full state directory
mkdir -p "$T/state"
mount -t tmpfs -o size=8m,mode=0700 capaudit-full "$T/state" || fail "cannot mount a small tmpfs"
trap 'umount -l "$T/state" 2>/dev/null' EXIT
DB=$T/state/capaudit.db
total() {
	"$CAPAUDIT" report --store "$DB" --json | python3 -c '
import json, sys
print(sum(r["count"] for r in json.load(sys.stdin)["rows"] if r["comm"] == "capstorm"))'
}
record_start "$DB" --flush-interval 1 || exit 1
"$REPO/build/progs/capstorm" 1000 >/dev/null || fail "capstorm"
sleep 2.5
before=$(total) || fail "no report before the disk filled"
echo "stored before the disk filled: $before"
[ "$before" = 1000 ] || fail "expected 1000 stored, got $before"
# fill it; then checks of new keys (each cgroup a new workload) need room
dd if=/dev/zero of="$T/state/filler" bs=4k 2>/dev/null
for i in $(seq 1 40); do
	in_cgroup "full$i.service" "$REPO/build/progs/capstorm" 50 >/dev/null
done
sleep 3
grep -q "cannot write the store $DB:.*counts stay in memory.*free space" "$RECORD_LOG" ||
	{ cat "$RECORD_LOG"; fail "no clear error in the log while the disk was full"; }
[ "$(grep -c "cannot write the store" "$RECORD_LOG")" = 1 ] ||
	{ cat "$RECORD_LOG"; fail "the error was repeated at every flush"; }
kill -0 "$RECORD_PID" || fail "record died when the disk filled"
now=$(total) || fail "the store cannot be read while the disk is full"
[ "$now" -ge "$before" ] || fail "stored counts went down: $before -> $now"
rm -f "$T/state/filler"
sleep 3
grep -q "the store $DB is written again" "$RECORD_LOG" || { cat "$RECORD_LOG"; fail "no recovery"; }
record_stop TERM
cat "$RECORD_LOG"
[ "$RECORD_RC" = 0 ] || fail "record exited $RECORD_RC"
after=$(total) || fail "no report after"
echo "stored after space came back: $after"
[ "$after" = $((1000 + 40 * 50)) ] || fail "expected $((1000 + 40 * 50)), got $after"
[ "$(sqlite3 "$DB" 'PRAGMA integrity_check')" = ok ] || fail "integrity"
