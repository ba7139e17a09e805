"""Reading a database a student made, within a bound of work.

A student's SQLite file can hold a view (or a virtual table) whose every read runs a query
that never ends: a recursive CTE, say. The grader reads such files in its own process, so
every connection to one gets a budget of virtual-machine steps (SQLite's progress handler):
past it, the statement is interrupted (sqlite3.OperationalError "interrupted"). The budget
counts work, not time, so a verdict never depends on the machine's speed: reading a ledger
of a lab's size takes a few thousand steps, a hundred thousand rows a few million.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

STEPS = 5_000_000  # SQLite virtual-machine instructions per connection
EVERY = 10_000  # the handler is called every EVERY instructions
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


def bounded(conn: sqlite3.Connection, steps: int = STEPS) -> sqlite3.Connection:
    """``conn``, whose statements together stop after ``steps`` instructions."""
    calls = 0

    def handler() -> int:
        nonlocal calls
        calls += 1
        return int(calls * EVERY > steps)

    conn.set_progress_handler(handler, EVERY)
    return conn


def interrupted(exc: sqlite3.Error) -> bool:
    """The error is the budget running out."""
    return isinstance(exc, sqlite3.OperationalError) and "interrupted" in str(exc)
