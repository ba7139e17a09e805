"""Reading a database a student made, within a bound of work.

A student's SQLite file can hold a view (or a virtual table) whose every read runs a query
that never ends: a recursive CTE, say. The grader reads such files in its own process, so
every connection to one gets a budget of virtual-machine steps (SQLite's progress handler):
past it, the statement is interrupted (sqlite3.OperationalError "interrupted"). The budget
counts work, not time, so a verdict never depends on the machine's speed: reading a ledger
of a lab's size takes a few thousand steps, a hundred thousand rows a few million.

One step can still do much work: a function of a student's index, CHECK or view
(`length(hex(zeroblob(100000000)))`, red team 23: 1.9 s and 300 MB an insert, a grade hung for
10 minutes in the grader's own process). So a bounded connection also caps the length of any
string or blob a statement makes (``LENGTH``: no value of a lab is near it), which bounds a
step's work and memory; and where the grader itself writes rows into a copy of the student's
schema (``seconds``), a deadline far above what a lab's rows take stops the statement too
(the grader then falls back to a schema of its own: no verdict rests on that clock).
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from pathlib import Path

STEPS = 5_000_000  # SQLite virtual-machine instructions per connection
EVERY = 1_000  # the handler is called every EVERY instructions
LENGTH = 1 << 20  # the longest string or blob a statement may make (SQLite's default is 1 GB)
COMPANIONS = ("-journal", "-wal", "-shm")  # files SQLite opens beside a database, by name


def not_a_file(db: Path) -> str | None:
    """The first of ``db`` and the files SQLite keeps beside it that is there but is not a
    regular file (a FIFO, a socket, a device, a folder, a link to one), by name; None when
    SQLite may open them (a link to a regular file is opened through, as SQLite does).
    SQLite opens them itself, without O_NONBLOCK: a FIFO left as a database's
    -journal blocks the opening thread until somebody writes to it, for ever (red team 12
    hung a grade that way, Ctrl-C included). Ask before SQLite opens a file scripts made."""
    for name in (db.name, *(db.name + suffix for suffix in COMPANIONS)):
        try:
            mode = os.stat(db.with_name(name)).st_mode
        except FileNotFoundError:  # (a dangling link too: SQLite finds nothing there either)
            continue
        except OSError:
            return name
        if not stat.S_ISREG(mode):
            return name
    return None


def bounded(conn: sqlite3.Connection, steps: int = STEPS, seconds: float | None = None) -> sqlite3.Connection:
    """``conn``, whose statements together stop after ``steps`` instructions (or ``seconds``
    from now), and make no string or blob longer than ``LENGTH`` bytes."""
    calls = 0
    deadline = None if seconds is None else time.monotonic() + seconds

    def handler() -> int:
        nonlocal calls
        calls += 1
        return int(calls * EVERY > steps or (deadline is not None and time.monotonic() > deadline))

    conn.set_progress_handler(handler, EVERY)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, LENGTH)
    return conn


def interrupted(exc: sqlite3.Error) -> bool:
    """The error is the budget running out (steps, time, or a value too long)."""
    text = str(exc)
    return isinstance(exc, sqlite3.OperationalError | sqlite3.DataError) and (
        "interrupted" in text or "too big" in text
    )
