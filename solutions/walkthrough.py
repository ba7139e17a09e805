"""Perform the lab steps into a lab root as a student would, using a solution directory.

``python -m solutions.walkthrough --lab-root DIR --fixtures-dir DIR [--lab queue]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

SOLUTIONS = Path(__file__).resolve().parent
QUEUE_FILES = ("consume.py", "schema.csv", "order-check.sql", "lag.sh", "replay.sh")


def _copy_solution(src: Path, dest: Path) -> None:
    for item in src.iterdir():
        if item.name == "__pycache__":
            continue
        if item.is_dir():
            shutil.copytree(item, dest / item.name)
        else:
            shutil.copy2(item, dest / item.name)


def walk_queue(lab_root: Path, fixtures: Path, solution: Path = SOLUTIONS / "queue") -> None:
    q = lab_root / "q"
    # Step 1: the four directories and a copy of every fixture message.
    for name in ("inbox", "processing", "done", "error"):
        (q / name).mkdir(parents=True, exist_ok=True)
    for message in sorted((fixtures / "eai/queue/inbox").glob("*.json")):
        shutil.copy2(message, q / "inbox" / message.name)
    # Steps 2, 3, 6, 7, 8: the student's files.
    _copy_solution(solution, q)
    # Step 3: run the consumer.
    env = os.environ | {"LAB_ROOT": str(lab_root), "LAB_FIXTURES": str(fixtures)}
    # A failing consumer is the grader's business, not the walkthrough's: carry on.
    run = subprocess.run(
        [sys.executable, str(q / "consume.py")],
        cwd=q,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    # Steps 4 and 5, by hand from the consumer's log, unless consume.py wrote them itself.
    log = [line.split() for line in run.stdout.splitlines()]
    if not (q / "dup.txt").exists():
        dups = sorted({words[1] for words in log if words[:1] == ["duplicate"] and len(words) == 3})
        (q / "dup.txt").write_text("".join(f"{d}\n" for d in dups))
    if not (q / "error.csv").exists():
        errors = sorted((w[2], w[1]) for w in log if w[:1] == ["error"] and len(w) == 3)
        (q / "error.csv").write_text("file,reason\n" + "".join(f"{f},{r}\n" for f, r in errors))
    # Step 6: save the order check's result; OK when it finds nothing.
    try:
        rows = _query(q / "ledger.db", (q / "order-check.sql").read_text())
        result = "OK\n" if not rows else "".join("|".join(map(str, r)) + "\n" for r in rows)
    except (OSError, sqlite3.Error) as exc:  # a variant's mistake: the grader's business
        result = f"error: {exc}\n"
    (q / "order-result.txt").write_text(result)


def _query(db: Path, script: str) -> list[tuple[object, ...]]:
    """The rows a .sql file returns, as `sqlite3 ledger.db < file` would print them."""
    rows: list[tuple[object, ...]] = []
    statement = ""
    with closing(sqlite3.connect(db)) as conn:
        for line in script.splitlines(keepends=True):
            if not statement and line.lstrip().startswith("."):
                continue  # a shell dot-command (.headers on, .mode ...)
            statement += line
            if sqlite3.complete_statement(statement):
                rows += conn.execute(statement).fetchall()
                statement = ""
    return rows


def walk_mq(lab_root: Path, status: str | None, solution: Path = SOLUTIONS / "mq") -> None:
    """Step 1's status.txt (the output of `rabbitmqctl status` of the running node, when there
    is one), and the scripts of steps 2-8."""
    mq = lab_root / "eaimw" / "mq"
    mq.mkdir(parents=True, exist_ok=True)
    if status is not None:
        write_status(mq, status)
    _copy_solution(solution, mq)


def write_status(mq: Path, status: str) -> None:
    """Step 1: status.txt in ``mq`` (eaimw/mq), the output of `rabbitmqctl status`."""
    (mq / "status.txt").write_text(status)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solutions.walkthrough")
    parser.add_argument("--lab-root", type=Path, required=True)
    parser.add_argument("--fixtures-dir", type=Path, required=True)
    parser.add_argument("--lab", choices=("queue",), default="queue")
    args = parser.parse_args(argv)
    walk_queue(args.lab_root, args.fixtures_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
