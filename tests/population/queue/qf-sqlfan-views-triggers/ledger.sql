-- ledger.db schema. The PRIMARY KEY on processed.msg_id is the idempotency guarantee.
PRAGMA busy_timeout = 30000;

CREATE TABLE IF NOT EXISTS processed (
    msg_id       TEXT PRIMARY KEY,
    order_no     TEXT    NOT NULL,
    seq          INTEGER NOT NULL,
    amount       NUMERIC NOT NULL,
    processed_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- what the trigger decided for each file (file name -> done/error)
CREATE TABLE IF NOT EXISTS routing (
    file       TEXT PRIMARY KEY,
    dest       TEXT NOT NULL CHECK (dest IN ('done', 'error')),
    reason     TEXT CHECK (reason IN ('parse', 'missing-field')),
    decided_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- msg_ids the PRIMARY KEY refused
CREATE TABLE IF NOT EXISTS dup_log (
    msg_id  TEXT NOT NULL,
    file    TEXT NOT NULL,
    seen_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- consume.py only ever does: INSERT INTO incoming(file, body) VALUES (?, ?)
CREATE VIEW IF NOT EXISTS incoming AS
    SELECT NULL AS file, NULL AS body WHERE 0;

CREATE TRIGGER IF NOT EXISTS incoming_route
INSTEAD OF INSERT ON incoming
BEGIN
    INSERT OR REPLACE INTO routing (file, dest, reason)
    SELECT NEW.file,
           CASE WHEN c.reason IS NULL THEN 'done' ELSE 'error' END,
           c.reason
    FROM (
        SELECT CASE
            WHEN NEW.body IS NULL
              OR NOT json_valid(NEW.body)
              OR json_type(NEW.body) <> 'object'                          THEN 'parse'
            WHEN coalesce(json_type(NEW.body, '$.msg_id'),   'null') = 'null'
              OR coalesce(json_type(NEW.body, '$.order_no'), 'null') = 'null'
              OR coalesce(json_type(NEW.body, '$.seq'),      'null') = 'null'
              OR coalesce(json_type(NEW.body, '$.amount'),   'null') = 'null' THEN 'missing-field'
            ELSE NULL
        END AS reason
    ) AS c;

    INSERT INTO dup_log (msg_id, file)
    SELECT json_extract(NEW.body, '$.msg_id'), NEW.file
    WHERE (SELECT dest FROM routing WHERE file = NEW.file) = 'done'
      AND EXISTS (SELECT 1 FROM processed
                  WHERE msg_id = json_extract(NEW.body, '$.msg_id'));

    INSERT OR IGNORE INTO processed (msg_id, order_no, seq, amount)
    SELECT json_extract(NEW.body, '$.msg_id'),
           json_extract(NEW.body, '$.order_no'),
           json_extract(NEW.body, '$.seq'),
           json_extract(NEW.body, '$.amount')
    WHERE (SELECT dest FROM routing WHERE file = NEW.file) = 'done';
END;

CREATE VIEW IF NOT EXISTS v_dup_txt AS
    SELECT DISTINCT msg_id FROM dup_log ORDER BY msg_id;

CREATE VIEW IF NOT EXISTS v_error_csv AS
    SELECT file, reason FROM routing WHERE dest = 'error' ORDER BY file;

CREATE VIEW IF NOT EXISTS v_order_problems AS
    SELECT order_no, seq, 'duplicate' AS problem
    FROM processed GROUP BY order_no, seq HAVING count(*) > 1
    UNION ALL
    SELECT p.order_no, p.seq + 1, 'missing'
    FROM processed p
    WHERE p.seq < (SELECT max(seq) FROM processed m WHERE m.order_no = p.order_no)
      AND NOT EXISTS (SELECT 1 FROM processed n
                      WHERE n.order_no = p.order_no AND n.seq = p.seq + 1);
