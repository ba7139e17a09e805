"""A student's .sql file, run in the scripts' box (boxed/sqlrun.py), its rows counted."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from grader.machinery.boxed.sqlrun import statements
from grader.machinery.runner import RunResult

RUN_GRACE = 20.0  # seconds beyond the SQL's own limit for the interpreter to start and answer

__all__ = ["SqlResult", "run_sql_script", "run_sql_scripts", "statements"]


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
    return run_sql_scripts(box, python, [db], sql_file, timeout)[0]


def run_sql_scripts(
    box: Box, python: str, dbs: list[Path], sql_file: Path, timeout: float = 10.0
) -> list[SqlResult]:
    """``run_sql_script`` on each of ``dbs`` (in one directory), in one process: each database
    its own result, its own limit."""
    run = box.run(
        [python, "-I", "-S", box.helper("sqlrun.py"), str(sql_file), str(timeout), *map(str, dbs)],
        cwd=dbs[0].parent,
        timeout=timeout * len(dbs) + RUN_GRACE,
    )
    if run.timed_out or run.returncode != 0:
        return [SqlResult(error=f"SQL 을 실행하지 못함({run.describe()}): {run.tail(3)}")] * len(dbs)
    try:
        data = json.loads(run.stdout)
        results = [SqlResult(int(d["count"]), [tuple(r) for r in d["rows"]], d["error"]) for d in data]
    except (ValueError, KeyError, TypeError) as exc:
        return [SqlResult(error=f"SQL 실행 결과를 읽지 못함: {exc}")] * len(dbs)
    if len(results) != len(dbs):
        return [SqlResult(error=f"SQL 실행 결과가 {len(results)}개(기대: {len(dbs)}개)")] * len(dbs)
    return results
