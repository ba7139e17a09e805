"""A student's .sql file, run in the scripts' box (boxed/sqlrun.py), its rows counted."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from grader.machinery.boxed.sqlrun import statements
from grader.machinery.runner import RunResult

RUN_GRACE = 20.0  # seconds beyond the SQL's own limit for the interpreter to start and answer

__all__ = ["SqlResult", "run_sql_script", "statements"]


class Box(Protocol):
    def run(self, argv: list[str], *, cwd: Path, timeout: float) -> RunResult: ...

    def helper(self, name: str) -> str: ...


@dataclass(frozen=True)
class SqlResult:
    count: int = 0  # rows every statement returned, together
    rows: list[tuple[object, ...]] = field(default_factory=list)  # the first of them
    error: str | None = None


def run_sql_script(box: Box, python: str, db: Path, sql_file: Path, timeout: float = 10.0) -> SqlResult:
    """Every row any statement of ``sql_file`` returns on ``db`` (both in the box's reach), or
    the first error; a runaway query is interrupted after ``timeout`` s."""
    run = box.run(
        [python, "-I", "-S", box.helper("sqlrun.py"), str(db), str(sql_file), str(timeout)],
        cwd=db.parent,
        timeout=timeout + RUN_GRACE,
    )
    if run.timed_out or run.returncode != 0:
        return SqlResult(error=f"SQL 을 실행하지 못함({run.describe()}): {run.tail(3)}")
    try:
        data = json.loads(run.stdout)
        return SqlResult(int(data["count"]), [tuple(r) for r in data["rows"]], data["error"])
    except (ValueError, KeyError, TypeError) as exc:
        return SqlResult(error=f"SQL 실행 결과를 읽지 못함: {exc}")
