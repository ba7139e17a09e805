-- ledger for the file queue
PRAGMA journal_mode = WAL;

CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT    NOT NULL,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       INTEGER NOT NULL,
    processed_at TEXT    NOT NULL,
    PRIMARY KEY (msg_id)
);
