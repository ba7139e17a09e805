"""Reading (never writing) a student's ledger.db, and making the grader's own ledgers."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Iterable, Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from grader.machinery import sqlitebound, textfile
from grader.machinery.textfile import kind

COLUMNS = ("msg_id", "order_no", "seq", "amount", "processed_at")
SQLITE_HEADER = b"SQLite format 3\x00"
COMPANIONS = sqlitebound.COMPANIONS  # files SQLite keeps beside a database
# What writing a grader ledger's rows, or emptying a copy of the student's, may take in the
# grader's own process (a ledger of a lab's size takes milliseconds): a bound, not a verdict.
BUILD_SECONDS = 5.0
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
    if (odd := sqlitebound.not_a_file(db)) is not None:  # SQLite would block on a FIFO there
        raise sqlite3.OperationalError(f"{odd} 이(가) 일반 파일이 아님")
    return sqlitebound.bounded(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10))


def problem(db: Path) -> str | None:
    """Why the student's ``db`` cannot be read as an SQLite database, in Korean; None when it
    can (or is not there at all: that is the caller's business). Never opens a special file."""
    try:
        st = db.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"읽을 수 없음({exc.strerror})"
    if (what := kind(st.st_mode)) is not None:
        return f"보통 파일이 아니라 {what}"
    try:
        head = textfile.head(db, len(SQLITE_HEADER))
    except textfile.Unreadable as exc:
        return exc.reason
    if head and head != SQLITE_HEADER:
        return "SQLite 데이터베이스 파일이 아님(파일 첫머리가 'SQLite format 3' 이 아님)"
    if (odd := sqlitebound.not_a_file(db)) is not None:
        return f"옆의 {odd} 이(가) 일반 파일이 아님(FIFO·링크 등): SQLite 가 열 수 없음"
    try:
        with closing(_connect(db)) as conn:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            return "다른 프로세스가 쓰는 중이라 잠겨 있음(sqlite3 셸이나 실행 중인 consume.py 를 끝내세요)"
        return f"SQLite 가 열지 못함({exc})"
    except sqlite3.DatabaseError as exc:
        return f"SQLite 가 읽지 못함({exc})"
    return None


def columns(db: Path) -> list[str]:
    """Columns of table ``processed``, in lower case (SQLite ignores the case of names); empty
    when the table (or the file) is not there."""
    if not db.is_file():
        return []
    with closing(_connect(db)) as conn:
        return [str(row[1]).lower() for row in conn.execute("PRAGMA table_info(processed)")]


NO_KEY = "does not match any PRIMARY KEY or UNIQUE constraint"  # SQLite's words


def msg_id_is_unique(db: Path) -> bool:
    """A PRIMARY KEY or UNIQUE constraint covers exactly msg_id."""
    return unique_problem(db) is None


def unique_problem(db: Path) -> str | None:
    """None when a PRIMARY KEY or UNIQUE constraint covers exactly msg_id; else why not, in
    Korean: none does, or SQLite cannot tell (a schema it cannot read without the student's
    own code, such as a collation defined in Python).

    ``ON CONFLICT(msg_id)`` only prepares when such a constraint exists; EXPLAIN runs nothing.
    """
    try:
        with closing(_connect(db)) as conn:
            conn.execute("EXPLAIN INSERT INTO processed(msg_id) VALUES ('x') ON CONFLICT(msg_id) DO NOTHING")
    except sqlite3.Error as exc:
        if NO_KEY in str(exc):
            return "msg_id 에 PRIMARY KEY 도 UNIQUE 제약도 없음(또는 여러 컬럼 묶음 키)"
        return f"SQLite 가 processed 의 제약을 확인할 수 없음({exc}): SQLite 만으로 읽히는 스키마여야 합니다"
    return None


def rows(db: Path) -> list[Row]:
    """Every row of table ``processed``; a column the student's table lacks reads as NULL (the
    check that needs it says so), no table at all as no rows. Only ``msg_id``'s absence is a
    question for the caller (``columns``). A ``processed`` that cannot be read to its end (a
    view that fails or never ends) raises Unreadable, saying so."""
    present = set(columns(db))
    if "msg_id" not in present:
        return []
    chosen = ", ".join(c if c in present else "NULL" for c in COLUMNS)
    try:
        with closing(_connect(db)) as conn:
            return [Row(str(r[0]), *r[1:]) for r in conn.execute(f"SELECT {chosen} FROM processed")]
    except sqlite3.Error as exc:  # a view of the student's: it may fail, or never end
        if sqlitebound.interrupted(exc):
            endless = "processed 를 읽는 일이 끝나지 않음(끝없는 VIEW 나 재귀 쿼리?)"
            raise textfile.Unreadable(db, endless) from exc
        raise textfile.Unreadable(db, f"processed 를 읽지 못함({exc})") from exc


def processed_ddl(db: Path) -> str | None:
    """The student's CREATE TABLE processed statement, if any."""
    if not db.is_file():
        return None
    with closing(_connect(db)) as conn:
        found = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND lower(name) = 'processed'"
        ).fetchone()
    return str(found[0]) if found else None


def as_committed(db: Path, dest: Path) -> Path:
    """``dest``: a byte copy of the student's ``db`` and the files SQLite keeps beside it, opened
    once so that SQLite rolls back what no one committed; ``db`` itself when it is missing or not
    a regular file (the caller reports that). The grader reads the copy: a student's process
    holding the ledger in a transaction stands in nobody's way, and the student's files are
    never opened for writing."""
    if not db.is_file() or kind(db.stat().st_mode) is not None:
        return db
    dest.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", *COMPANIONS):
        source = db.with_name(db.name + suffix)
        if source.is_file():
            shutil.copyfile(source, dest.with_name(dest.name + suffix))
    with contextlib.suppress(sqlite3.Error), closing(sqlite3.connect(dest, timeout=1)) as conn:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # a hot journal rolls back
    return dest


def copy_of(db: Path, dest: Path) -> None:
    """A consistent copy of a readable database (SQLite's backup: whatever journal it has)."""
    with closing(_connect(db)) as source, closing(sqlite3.connect(dest)) as copy:
        source.backup(copy)


def blank_copy(db: Path, dest: Path, every_table: bool = False) -> bool:
    """``dest``: the student's ledger with every table and index but no row in processed (what
    a behaviour run starts from; ``every_table``: no row in any table, what the order checks'
    ledgers start from), compacted: the grader copies it many times, and a ledger of 10 MB of
    free pages, copied twenty times, once filled the scripts' scratch (red team 21). False when
    ``db`` is absent or not a readable database, or cannot be emptied within its bound (a
    trigger of the student's that fails, or makes a value too large: then there is no blank)."""
    if not db.is_file() or problem(db) is not None:
        return False
    copy_of(db, dest)
    with closing(sqlitebound.bounded(sqlite3.connect(dest), seconds=BUILD_SECONDS)) as copy:
        try:
            with copy:
                if every_table:
                    tables = [
                        r[0] for r in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                    ]
                    for table in tables:
                        if not table.startswith("sqlite_"):
                            copy.execute(f'DELETE FROM "{table.replace(chr(34), chr(34) * 2)}"')
                elif processed_ddl(db) is not None and "msg_id" in columns(db):  # a table, not a view
                    copy.execute("DELETE FROM processed")
        except sqlite3.Error:
            return False
        with contextlib.suppress(sqlite3.Error):  # a copy that cannot be compacted stays as it is
            copy.execute("VACUUM")
    return True


class GraderLedgers:
    """The grader's ledgers, laid out like the student's when that works: first a copy of
    ``like`` (the student's whole ledger with no row in any table: their views, indexes and
    other tables kept, so an order check reading a view of theirs runs as on their own), then
    their CREATE TABLE alone, then the lab's five columns. A column of theirs beyond the five
    that may not be NULL and has no default gets a value of its declared type (red team 18: a
    `created_at TEXT NOT NULL` made every grader ledger the bare one, without their view).

    Writing the rows runs the student's indexes, CHECKs and triggers in the grader's process:
    bounded (sqlitebound), and a layout that ran out of its bound once is not tried again for
    the ledgers after it (red team 23: an index on length(hex(zeroblob(1e8))) hung a grade)."""

    def __init__(self, ddl: str | None, like: bytes | None = None) -> None:
        self.layouts: list[tuple[bytes | None, str | None]] = [(like, None)] if like else []
        self.layouts += [(None, ddl)] if ddl else []
        self.too_costly = False  # a layout of the student's ran out of its bound

    def make(self, db: Path, entries: Iterable[Mapping[str, object]]) -> None:
        """A ledger at ``db`` holding ``entries``."""
        for layout in [*self.layouts, (None, CANONICAL_DDL)]:
            data, schema = layout
            db.unlink(missing_ok=True)
            if data is not None:
                db.write_bytes(data)
            try:
                with closing(sqlitebound.bounded(sqlite3.connect(db), seconds=BUILD_SECONDS)) as conn, conn:
                    conn.execute(
                        "PRAGMA synchronous = OFF"
                    )  # the grader's scratch: no need to wait for the disk
                    if schema is not None:
                        conn.execute(schema)
                    extra = _required_beyond(conn)
                    names = ", ".join([*COLUMNS, *extra])
                    marks = ", ".join("?" * (len(COLUMNS) + len(extra)))
                    conn.executemany(
                        f"INSERT INTO processed ({names}) VALUES ({marks})",
                        [(*(e[c] for c in COLUMNS), *extra.values()) for e in entries],
                    )
                return
            except sqlite3.Error as exc:  # the student's table needs more than the grader can give it
                if sqlitebound.interrupted(exc) and layout in self.layouts:
                    self.layouts.remove(layout)
                    self.too_costly = True
                continue
        raise RuntimeError(f"could not make a grader ledger at {db}")


def _required_beyond(conn: sqlite3.Connection) -> dict[str, object]:
    """Columns of processed beyond the lab's five that need a value (NOT NULL, no default, not
    the rowid), each with a value of its declared type's affinity, quoted for SQL."""
    needed: dict[str, object] = {}
    for _, name, declared, notnull, default, pk in conn.execute("PRAGMA table_info(processed)"):
        rowid = pk and str(declared).upper() == "INTEGER"
        if str(name).lower() in COLUMNS or not notnull or default is not None or rowid:
            continue
        kind = str(declared).upper()
        value: object = (
            0 if "INT" in kind else 0.0 if any(t in kind for t in ("REAL", "FLOA", "DOUB")) else ""
        )
        needed['"' + str(name).replace('"', '""') + '"'] = value
    return needed
