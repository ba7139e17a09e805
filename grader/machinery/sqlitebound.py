"""Reading a database a student made, within a bound of work.

A student's SQLite file can hold a view (or a virtual table) whose every read runs a query
that never ends: a recursive CTE, say. The grader reads such files in its own process, so
every connection to one gets a budget of virtual-machine steps (SQLite's progress handler):
past it, the statement is interrupted (sqlite3.OperationalError "interrupted"). The budget
counts work, not time, so a verdict never depends on the machine's speed: reading a ledger
of a lab's size takes a few thousand steps, a hundred thousand rows a few million.
"""

from __future__ import annotations

import sqlite3

STEPS = 5_000_000  # SQLite virtual-machine instructions per connection
EVERY = 10_000  # the handler is called every EVERY instructions


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
