"""Run a student's .sql file on a database the way the sqlite3 shell would, counting rows.

    python -I -S sqlrun.py SQLFILE TIMEOUT DB [DB ...]

Run inside the scripts' box, as the scripts' identity: student SQL can ATTACH a file anywhere
or VACUUM INTO one, so it never runs with the grader's powers. Prints a JSON list, one object
per DB in order: ``{"count": N, "rows": [...the first SAMPLE rows...], "error": null or
"why"}``; values that JSON cannot hold (BLOBs) are shown as their repr. Shell dot-commands
(``.mode`` ...) are dropped; a runaway query is interrupted after TIMEOUT seconds (each DB
has its own; once one is interrupted, the rest are not run and get its error). One process
for every ledger of a scenario: an interpreter start is most of what one run costs.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time

SAMPLE = 50
SCRIPT_LIMIT = 1 << 20  # bytes of SQL read


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


def _value(value: object) -> object:
    return value if value is None or isinstance(value, int | float | str) else repr(value)


def run(db: str, script: str, timeout: float) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    count = 0
    sample: list[list[object]] = []
    conn = sqlite3.connect(db, timeout=5)
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        for statement in statements(script):
            cursor = conn.execute(statement)
            if cursor.description is None:
                continue
            for row in cursor:
                count += 1
                if len(sample) < SAMPLE:
                    sample.append([_value(v) for v in row])
    except sqlite3.Error as exc:
        interrupted = time.monotonic() > deadline
        why = f"{timeout:.0f}초 안에 끝나지 않음" if interrupted else str(exc)
        return {"count": count, "rows": sample, "error": why, "stalled": interrupted}
    finally:
        conn.close()
    return {"count": count, "rows": sample, "error": None}


def main() -> None:
    script_file, timeout, dbs = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    with open(script_file, "rb") as f:
        script = f.read(SCRIPT_LIMIT).decode("utf-8", "replace").lstrip("\ufeff")
    results: list[dict[str, object]] = []
    for db in dbs:
        if results and results[-1].get("stalled"):
            # The same script that ran out of time on one ledger is not run on the rest: an
            # endless query made a grade of twenty ledgers take twenty limits.
            results.append({"count": 0, "rows": [], "error": results[-1]["error"], "stalled": True})
        else:
            results.append(run(db, script, timeout))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
