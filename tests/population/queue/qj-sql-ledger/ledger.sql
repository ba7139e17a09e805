-- ledger.sql : schema for /root/q/ledger.db (applied by consume.py, idempotent)

CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,
    order_no     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    currency     TEXT,
    created_at   TEXT,
    source_file  TEXT NOT NULL,
    processed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) WITHOUT ROWID;

-- every delivery that lost against the PRIMARY KEY
CREATE TABLE IF NOT EXISTS ignored_duplicate (
    msg_id      TEXT NOT NULL,
    source_file TEXT NOT NULL,
    seen_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- every file sent to error/
CREATE TABLE IF NOT EXISTS rejected (
    source_file TEXT NOT NULL,
    reason      TEXT NOT NULL CHECK (reason IN ('parse', 'missing-field')),
    seen_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
