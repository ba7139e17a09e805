"""Reading (never writing) a student's ledger.db, and making the grader's own ledgers."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

COLUMNS = ("msg_id", "order_no", "seq", "amount", "processed_at")
CANONICAL_DDL = (
    "CREATE TABLE processed (msg_id TEXT PRIMARY KEY, order_no TEXT NOT NULL, "
    "seq INTEGER NOT NULL, amount INTEGER NOT NULL, processed_at TEXT NOT NULL)"
)


@dataclass(frozen=True)
class Row:
    msg_id: str
    order_no: object
    seq: object
    amount: object
    processed_at: object


def _connect(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)


def columns(db: Path) -> list[str]:
    """Columns of table ``processed``; empty when the table (or the file) is not there."""
    if not db.is_file():
        return []
    with closing(_connect(db)) as conn:
        return [row[1] for row in conn.execute("PRAGMA table_info(processed)")]


def msg_id_is_unique(db: Path) -> bool:
    """A PRIMARY KEY or UNIQUE constraint covers exactly msg_id.

    ``ON CONFLICT(msg_id)`` only prepares when such a constraint exists; EXPLAIN runs nothing.
    """
    with closing(_connect(db)) as conn:
        try:
            conn.execute("EXPLAIN INSERT INTO processed(msg_id) VALUES ('x') ON CONFLICT(msg_id) DO NOTHING")
        except sqlite3.Error:
            return False
    return True


def rows(db: Path) -> list[Row]:
    with closing(_connect(db)) as conn:
        return [Row(str(r[0]), *r[1:]) for r in conn.execute(f"SELECT {', '.join(COLUMNS)} FROM processed")]


def processed_ddl(db: Path) -> str | None:
    """The student's CREATE TABLE processed statement, if any."""
    if not db.is_file():
        return None
    with closing(_connect(db)) as conn:
        found = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'processed'"
        ).fetchone()
    return str(found[0]) if found else None


def clear_processed(db: Path) -> None:
    """Empty table processed of a live ledger, keeping the student's schema (grader reset)."""
    if "msg_id" not in columns(db):
        return
    with closing(sqlite3.connect(db, timeout=10)) as conn, conn:
        conn.execute("DELETE FROM processed")


def make_ledger(db: Path, ddl: str | None, entries: Iterable[Mapping[str, object]]) -> None:
    """A ledger holding ``entries``, laid out like the student's table when that works."""
    for schema in ([ddl] if ddl else []) + [CANONICAL_DDL]:
        db.unlink(missing_ok=True)
        try:
            with closing(sqlite3.connect(db)) as conn, conn:
                conn.execute(schema)
                conn.executemany(
                    f"INSERT INTO processed ({', '.join(COLUMNS)}) VALUES (?, ?, ?, ?, ?)",
                    [tuple(e[c] for c in COLUMNS) for e in entries],
                )
            return
        except sqlite3.Error:
            continue  # the student's table needs more than the five lab columns
    raise RuntimeError(f"could not make a grader ledger at {db}")
