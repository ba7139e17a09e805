"""Run a student's .sql file the way the sqlite3 shell would, but counting result rows."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class SqlResult:
    rows: list[tuple[object, ...]] = field(default_factory=list)
    error: str | None = None


def statements(script: str) -> list[str]:
    """Split a script into complete statements; shell dot-commands (`.mode`, ...) are dropped."""
    lines = [ln for ln in script.splitlines() if not ln.lstrip().startswith(".")]
    out: list[str] = []
    buffer = ""
    for char in "\n".join(lines):
        buffer += char
        if char == ";" and sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not _only_comments(buffer):
        out.append(buffer.strip())
    return out


def _only_comments(text: str) -> bool:
    return all(not ln.strip() or ln.strip().startswith("--") for ln in text.splitlines())


def run_sql_script(db: Path, script: str, timeout: float = 10.0) -> SqlResult:
    """Every row any statement of ``script`` returns, or the first error.

    A runaway query (a recursive CTE that never ends) is interrupted after ``timeout`` s.
    """
    deadline = time.monotonic() + timeout
    rows: list[tuple[object, ...]] = []
    conn = sqlite3.connect(db, timeout=5)
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        for statement in statements(script):
            cursor = conn.execute(statement)
            if cursor.description is not None:
                rows += cursor.fetchall()
    except sqlite3.Error as exc:
        interrupted = time.monotonic() > deadline
        return SqlResult(rows, f"{timeout:.0f}초 안에 끝나지 않음" if interrupted else str(exc))
    finally:
        conn.close()
    return SqlResult(rows)
