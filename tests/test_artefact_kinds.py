"""A student mistake is never a grader error (issue 14, item 8), derived from the domain of
what a student's artefact can be, not from a list of mistakes seen.

Every artefact a state check reads (each file and queue directory of ``q/``, the mq lab's
status.txt and its EAI_MQ_DB) is replaced in turn by every kind of thing a student's tree or
script can leave at that path: nothing, an empty file, binary bytes, text that is not UTF-8,
a text far too big, a directory (empty or not), a FIFO, links (dangling, looping, to a
device, to a directory), SQLite databases of every wrong shape, and an SQLite header on
garbage. Every state check of the lab then judges the tree: its verdict must be a PASS or a
FAIL that says what it saw; anything else it raises (a grader error) fails this test, and so
does a check that blocks on a FIFO (the test's timeout).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import pkgutil
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from types import ModuleType

import pytest

import grader.queue
from grader.machinery import textfile
from grader.mq import drive
from grader.queue import ledger as queue_ledger
from grader.queue.lab import QueueLab
from tests.queue_lab import judge

pytestmark = pytest.mark.timeout(120)  # a check stuck on a FIFO fails here, not hangs


# the kinds of thing a path of the student's can be ---------------------------------------------
def _sqlite(path: Path, *statements: str) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:
        for statement in statements:
            conn.execute(statement)


def _directory_with_a_file(path: Path) -> None:
    path.mkdir()
    (path / "x.json").write_text("{}")


KINDS: dict[str, Callable[[Path], object]] = {
    "absent": lambda p: None,
    "empty": lambda p: p.write_bytes(b""),
    "binary": lambda p: p.write_bytes(bytes(range(256)) * 16),
    "utf16": lambda p: p.write_bytes("\ufeffmsg_id,x\n".encode("utf-16-le")),
    "huge": lambda p: p.write_bytes(b"a,b\n" * (textfile.TEXT_LIMIT // 2)),
    "blank lines": lambda p: p.write_text("\n \n\t\n"),
    "nul bytes": lambda p: p.write_bytes(b"field,role,type\n\x00,\x00,\x00\n"),
    "unbalanced quote": lambda p: p.write_text('field,role,type\n"msg_id,key,TEXT\nfile,reason\n'),
    "one long line": lambda p: p.write_text("x," * 400_000),
    "many columns": lambda p: p.write_text((",".join(["a"] * 5000) + "\n") * 3),
    "other separators": lambda p: p.write_text("field;role;type\nmsg_id\tkey\tTEXT\n"),
    "empty directory": lambda p: p.mkdir(),
    "directory with a file": lambda p: _directory_with_a_file(p),
    "fifo": lambda p: os.mkfifo(p),
    "dangling link": lambda p: p.symlink_to(p.with_name("nowhere-at-all")),
    "link loop": lambda p: p.symlink_to(p.name),
    "link to a device": lambda p: p.symlink_to("/dev/zero"),
    "link to a directory": lambda p: p.symlink_to("/"),
    "sqlite header on garbage": lambda p: p.write_bytes(queue_ledger.SQLITE_HEADER + b"\xff" * 4000),
    "sqlite without tables": lambda p: _sqlite(p, "PRAGMA user_version = 1"),
    "sqlite, another table": lambda p: _sqlite(p, "CREATE TABLE other (a)", "INSERT INTO other VALUES (1)"),
    "sqlite, processed without msg_id": lambda p: _sqlite(
        p,
        "CREATE TABLE processed (id INTEGER PRIMARY KEY, body BLOB)",
        "INSERT INTO processed VALUES (1, x'00ff')",
    ),
    "sqlite, processed of odd values": lambda p: _sqlite(
        p,
        "CREATE TABLE processed (msg_id BLOB, order_no REAL, seq TEXT, amount BLOB, processed_at INTEGER)",
        "INSERT INTO processed VALUES (x'00ff', 1.5, 'x', x'01', 7), (NULL, NULL, NULL, NULL, NULL)",
    ),
    "sqlite, processed as a view": lambda p: _sqlite(
        p, "CREATE VIEW processed AS SELECT 1 AS msg_id, 'o' AS order_no"
    ),
    "sqlite, processed as an endless view": lambda p: _sqlite(
        p,
        "CREATE VIEW processed AS WITH RECURSIVE n(msg_id) AS (SELECT 1 UNION ALL SELECT msg_id + 1 FROM n) "
        "SELECT msg_id FROM n",
    ),
}


def replaced(path: Path, kind: str) -> None:
    """Put a thing of ``kind`` where ``path`` was."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
    for companion in queue_ledger.COMPANIONS:
        path.with_name(path.name + companion).unlink(missing_ok=True)
    KINDS[kind](path)


# the queue lab's state checks: every check that judges the saved tree alone -------------------
STEPS: tuple[ModuleType, ...] = tuple(
    importlib.import_module(f"grader.queue.{m.name}")
    for m in pkgutil.iter_modules(grader.queue.__path__)
    if m.name.startswith("test_step")
)


def _state_checks() -> Iterator[tuple[str, Callable[..., None]]]:
    for module in STEPS:
        for name, function in inspect.getmembers(module, inspect.isfunction):
            judges_the_tree = list(inspect.signature(function).parameters) == ["req", "queue_lab"]
            if name.startswith("test_") and judges_the_tree:
                marks = [m for m in getattr(function, "pytestmark", []) if m.name == "req"]
                yield marks[0].args[0], function


STATE_CHECKS = dict(_state_checks())
ARTEFACTS = (
    "inbox",
    "processing",
    "done",
    "error",
    "schema.csv",
    "ledger.db",
    "dup.txt",
    "error.csv",
    "order-result.txt",
)


def test_the_state_checks_are_found() -> None:
    """The enumeration below is not empty by accident: every step's state checks are in it."""
    assert {"Q1.1", "Q1.2", "Q2.1", "Q2.4", "Q3.1", "Q3.2", "Q4.1", "Q4.2", "Q4.3", "Q5.1", "Q6.5"} <= set(
        STATE_CHECKS
    )


@pytest.mark.parametrize("artefact", ARTEFACTS)
def test_every_kind_of_artefact_is_a_pass_or_a_fail_never_an_error(lab: QueueLab, artefact: str) -> None:
    path = lab.saved / artefact
    kept = lab.saved.parent / f"kept-{artefact}"
    shutil.move(path, kept)
    errors = []
    for kind in KINDS:
        replaced(path, kind)
        for rid, check in STATE_CHECKS.items():
            try:
                judge(rid, check, lab)
            except Exception as exc:  # what this test is about
                errors.append(f"{artefact} as {kind}: {rid} raised {type(exc).__name__}: {exc}")
    assert not errors, "\n".join(errors)
    replaced(path, "absent")
    shutil.move(kept, path)


@pytest.mark.parametrize("folder", ["inbox", "processing", "done", "error"])
def test_a_queue_folder_linked_out_of_the_tree_shows_nothing_of_what_is_there(
    lab: QueueLab, folder: str, tmp_path: Path
) -> None:
    """No reader follows a link out of the student's tree: what a folder elsewhere holds (the
    reference solutions, say) never appears in a FAIL."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "reference-consume.py").write_text("secret")
    (elsewhere / "sub").mkdir()
    (elsewhere / "sub" / "deeper-secret.json").write_text("{}")
    replaced(lab.saved / folder, "absent")
    (lab.saved / folder).symlink_to(elsewhere)
    for rid, check in STATE_CHECKS.items():
        finding = judge(rid, check, lab)
        seen = finding.seen if finding else ""
        assert "reference-consume" not in seen and "deeper-secret" not in seen, (rid, seen)


# the mq lab's readers of EAI_MQ_DB (a path the consumer makes whatever it likes) --------------
@pytest.mark.parametrize("kind", list(KINDS))
def test_a_record_database_of_any_kind_is_read_without_raising_or_blocking(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "dedup.db"
    KINDS[kind](db)
    is_sqlite = drive.is_sqlite(db)
    assert drive.names(db, "some-message-id") is False
    assert is_sqlite == kind.startswith("sqlite")


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_ledger_of_any_kind_is_read_or_refused_with_a_reason(tmp_path: Path, kind: str) -> None:
    """What every behaviour scenario reads first (the blank ledger each run starts from) and the
    order checks' copy: a ledger ``problem`` lets through never makes a reader raise."""
    db = tmp_path / "ledger.db"
    KINDS[kind](db)
    committed = queue_ledger.as_committed(db, tmp_path / "own" / "ledger.db")
    problem = queue_ledger.problem(committed)
    if problem is None and not committed.exists():  # absent: a check says "missing" first
        assert kind in ("absent", "dangling link")
        return
    assert (problem is None) == (kind.startswith("sqlite,") or kind in ("empty", "sqlite without tables"))
    if problem is None:
        queue_ledger.columns(committed)
        with contextlib.suppress(textfile.Unreadable):  # a view may fail or never end: said so
            queue_ledger.rows(committed)
        queue_ledger.processed_ddl(committed)
        queue_ledger.msg_id_is_unique(committed)
        queue_ledger.blank_copy(committed, tmp_path / "blank.db")


def test_the_blank_ledgers_the_grader_copies_are_compact(tmp_path: Path) -> None:
    """Red team 21: an honest ledger of 10 MB of free pages (rows deleted without VACUUM),
    copied twenty times for the order checks, filled the scripts' scratch: every id after a
    grader error. The blanks are compacted; the order checks' has no row in any table (their
    tables, views and indexes kept)."""
    db = tmp_path / "ledger.db"
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(queue_ledger.CANONICAL_DDL)
        conn.execute("CREATE TABLE raw_log (blob BLOB)")
        conn.execute("CREATE VIEW seqs AS SELECT order_no, seq FROM processed")
        rows = [(f"t-{i}", "ORD", i, 1, "2026-12-01") for i in range(20_000)]
        conn.executemany("INSERT INTO processed VALUES (?, ?, ?, ?, ?)", rows)
        conn.executemany("INSERT INTO raw_log VALUES (?)", [(os.urandom(1000),) for _ in range(2_000)])
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("DELETE FROM processed WHERE msg_id LIKE 't-%'")
    assert db.stat().st_size > 2_000_000
    behaviour, orders = tmp_path / "behaviour.db", tmp_path / "orders.db"
    assert queue_ledger.blank_copy(db, behaviour) and queue_ledger.blank_copy(db, orders, every_table=True)
    assert orders.stat().st_size < 64 << 10 < 2_000_000 < behaviour.stat().st_size < 2_400_000
    with closing(sqlite3.connect(orders)) as conn:
        assert conn.execute("SELECT count(*) FROM raw_log").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM seqs").fetchone() == (0,)
    with closing(sqlite3.connect(behaviour)) as conn:
        assert conn.execute("SELECT count(*) FROM raw_log").fetchone() == (2_000,)
        assert conn.execute("SELECT count(*) FROM processed").fetchone() == (0,)


@pytest.mark.parametrize(
    "costly",
    [
        "CREATE INDEX by_weight ON processed(length(hex(zeroblob(100000000))))",
        "CREATE TRIGGER heavy AFTER INSERT ON processed BEGIN SELECT length(hex(zeroblob(100000000))); END",
    ],
)
def test_a_student_schema_that_makes_huge_values_is_bounded_in_the_graders_process(
    tmp_path: Path, costly: str
) -> None:
    """Red team 23: an index (or CHECK, trigger) of the student's ledger evaluating
    length(hex(zeroblob(1e8))) made every row the grader wrote into its copies take 1.9 s and
    300 MB in the grader's own process: a grade hung for 10 minutes, Ctrl-C ignored. A
    statement the grader runs on a student's schema makes no value over sqlitebound.LENGTH, so
    that layout fails at once and the grader's ledgers fall back to the lab's five columns."""
    db = tmp_path / "ledger.db"
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(queue_ledger.CANONICAL_DDL)
        conn.execute(costly)
        conn.execute("INSERT INTO processed VALUES ('m-1', 'ORD-1', 1, 100, 'now')")
    blank = tmp_path / "blank.db"
    assert queue_ledger.blank_copy(db, blank, every_table=True)
    ledgers = queue_ledger.GraderLedgers(queue_ledger.processed_ddl(db), blank.read_bytes())
    rows = [
        {"msg_id": f"m-{i}", "order_no": "ORD-1", "seq": i, "amount": 1, "processed_at": "t"}
        for i in range(9)
    ]
    for n in range(3):
        ledgers.make(tmp_path / f"{n}.db", rows)
        with closing(sqlite3.connect(tmp_path / f"{n}.db")) as made:
            assert made.execute("SELECT count(*) FROM processed").fetchone() == (9,)
    # the whole blank (index or trigger kept) is dropped; their CREATE TABLE alone is cheap
    assert ledgers.too_costly and ledgers.layouts == [(None, queue_ledger.processed_ddl(db))]


def test_a_ledger_whose_trigger_refuses_emptying_has_no_blank(tmp_path: Path) -> None:
    """A trigger of the student's that fails on DELETE (or makes a value too large there) left
    the grader's blank copy half made, an exception in the grader: now there is no blank, and
    the grader's ledgers use the student's CREATE TABLE or the lab's five columns."""
    db = tmp_path / "ledger.db"
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(queue_ledger.CANONICAL_DDL)
        conn.execute("CREATE TRIGGER keep BEFORE DELETE ON processed BEGIN SELECT RAISE(ABORT, 'no'); END")
        conn.execute("INSERT INTO processed VALUES ('m-1', 'ORD-1', 1, 100, 'now')")
    assert not queue_ledger.blank_copy(db, tmp_path / "blank.db")
    assert not queue_ledger.blank_copy(db, tmp_path / "blank2.db", every_table=True)
