"""Step 5: error.csv names every file in error/ with the reason it can never be processed."""

from __future__ import annotations

from pathlib import PurePosixPath

import pytest

from grader.machinery.textfile import NotParsed, csv_rows
from grader.queue.lab import QueueLab
from grader.verdict import Check


@pytest.mark.req("Q5.1")
def test_Q5_1_error_csv_reasons(req: Check, queue_lab: QueueLab) -> None:
    shown = queue_lab.shown("error.csv")
    text = req.text(queue_lab.saved / "error.csv", shown)
    try:
        read = csv_rows(text)
    except NotParsed as exc:
        req.fail(f"{shown}: {exc.reason}")
    rows = [[cell.strip() for cell in row] for row in read if any(cell.strip() for cell in row)]
    req.expect(
        bool(rows) and rows[0] == ["file", "reason"],
        f"첫 줄이 {','.join(rows[0]) if rows else '(빈 파일)'} (기대: file,reason)",
    )
    got: dict[str, list[str]] = {}
    for row in rows[1:]:
        name = PurePosixPath(row[0]).name if row else ""
        got.setdefault(name, []).append(row[1] if len(row) > 1 else "")
    expected = queue_lab.expected.error_reasons
    problems = [f"{n}: 줄 없음" for n in sorted(expected.keys() - got.keys())]
    problems += [f"{n}: error/ 파일이 아님" for n in sorted(got.keys() - expected.keys())]
    problems += [
        f"{n}: {', '.join(got[n])} (기대: {reason})"
        for n, reason in sorted(expected.items())
        if n in got and got[n] != [reason]
    ]
    req.expect(not problems, "; ".join(problems))
