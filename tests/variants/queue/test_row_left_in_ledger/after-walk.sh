python3 - <<'PY'
import sqlite3
with sqlite3.connect("ledger.db") as db:
    db.execute("INSERT INTO processed VALUES ('test-1', 'ORD-TEST', 1, 1000, '2026-11-02T08:00:00')")
PY
