#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# tests/host/lib/mkstore.py DB VERSION [SQL...]: a hand-made store that says
# it is capaudit's (application_id of daemon/store.h, user_version VERSION),
# with tables that allow NULL, then each SQL statement run in it.
import os, re, sqlite3, sys

h = open(os.path.join(os.path.dirname(__file__), "../../../daemon/store.h")).read()
app = int(re.search(r'STORE_APPLICATION_ID\s+(0x[0-9a-fA-F]+)', h).group(1), 16)
ver = sys.argv[2]
if ver == "current":
    ver = re.search(r'STORE_SCHEMA_VERSION\s+(\d+)', h).group(1)
db = sqlite3.connect(sys.argv[1])
db.executescript(
    "CREATE TABLE checks (cap INTEGER, granted INTEGER, audit INTEGER, call_site TEXT,"
    " syscall TEXT, workload TEXT, comm TEXT, stack_hash INTEGER, count INTEGER,"
    " first_seen INTEGER, last_seen INTEGER);"
    "CREATE TABLE stacks (stack_hash INTEGER PRIMARY KEY, nr_frames INTEGER, frames TEXT,"
    " first_seen INTEGER);"
    "CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER);"
    "CREATE TABLE fallbacks (call_site TEXT, narrow_cap INTEGER, times INTEGER);"
    "PRAGMA application_id = %d; PRAGMA user_version = %d;" % (app, int(ver)))
for sql in sys.argv[3:]:
    db.execute(sql)
db.commit()
