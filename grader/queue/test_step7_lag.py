"""Step 7: lag.sh QUEUE_DIR THRESHOLD reports the queue depth and alarms above the threshold."""

from __future__ import annotations

import re

import pytest

from grader.queue.scenarios import LagCase
from grader.verdict import Check

LINE = re.compile(r"inbox=(\d+) processing=(\d+) error=(\d+)")


def _line(case: LagCase) -> str:
    return f"inbox={case.counts['inbox']} processing={case.counts['processing']} error={case.counts['error']}"


@pytest.mark.req("Q7.1")
def test_Q7_1_prints_the_counts(req: Check, lag_runs: list[LagCase]) -> None:
    for case in lag_runs:
        req.expect(not case.run.timed_out, f"lag.sh 가 {case.run.describe()}", run=case.run)
        printed = [ln.strip() for ln in case.run.stdout.splitlines() if ln.strip()]
        req.expect(
            printed == [_line(case)],
            f"lag.sh QUEUE_DIR {case.threshold} 의 출력 {printed[:3]} (기대: 한 줄 {_line(case)!r})",
            run=case.run,
        )


@pytest.mark.req("Q7.2")
def test_Q7_2_exit_code_against_threshold(req: Check, lag_runs: list[LagCase]) -> None:
    for case in lag_runs:
        over = case.counts["inbox"] > case.threshold
        code = case.run.returncode
        ok = code not in (0, None) if over else code == 0
        relation = "초과" if over else ("같음" if case.counts["inbox"] == case.threshold else "미만")
        req.expect(
            ok and not case.run.timed_out,
            f"inbox {case.counts['inbox']}, 임계치 {case.threshold}({relation}) 인데 "
            f"{case.run.describe()} (기대: {'0 이 아닌 코드' if over else '0'})",
            run=case.run,
        )
