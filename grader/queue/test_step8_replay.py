"""Step 8: replay.sh FILENAME moves error/FILENAME back to inbox/ and nothing else, ever."""

from __future__ import annotations

import pytest

from grader.queue.scenarios import ReplayCase, ReplayRuns
from grader.verdict import Check


def _changes(case: ReplayCase) -> str:
    gone = sorted(case.before.keys() - case.after.keys())
    new = sorted(case.after.keys() - case.before.keys())
    changed = sorted(k for k in case.before.keys() & case.after.keys() if case.before[k] != case.after[k])
    parts = [
        f"사라짐 {gone[:3]}" if gone else "",
        f"생김 {new[:3]}" if new else "",
        f"내용 바뀜 {changed[:3]}" if changed else "",
    ]
    return ", ".join(p for p in parts if p) or "변화 없음"


def _refused(req: Check, case: ReplayCase) -> None:
    __tracebackhide__ = True
    shown = f"replay.sh {case.argument!r}"
    req.expect(
        not case.run.timed_out and case.run.returncode != 0,
        f"{shown}: {case.run.describe()} (기대: 0 이 아닌 코드)",
        run=case.run,
    )
    req.expect(
        case.after == case.before and case.outside_intact,
        f"{shown} 뒤 큐가 바뀜: {_changes(case)}"
        + ("" if case.outside_intact else "; 큐 밖의 파일이 옮겨짐"),
        run=case.run,
    )


@pytest.mark.req("Q8.1")
def test_Q8_1_moves_the_file_back_unchanged(req: Check, replay_runs: ReplayRuns) -> None:
    case = replay_runs.moved
    req.expect_ran(case.run, f"replay.sh {case.argument}")
    req.expect(
        case.after == case.expected,
        f"replay.sh {case.argument} 뒤: {_changes(case)} (기대: error/ → inbox/ 한 파일만)",
        run=case.run,
    )


@pytest.mark.req("Q8.2")
def test_Q8_2_refuses_a_name_not_in_error(req: Check, replay_runs: ReplayRuns) -> None:
    for case in replay_runs.missing:
        _refused(req, case)


@pytest.mark.req("Q8.3")
def test_Q8_3_refuses_hostile_names(req: Check, replay_runs: ReplayRuns) -> None:
    for case in replay_runs.hostile:
        _refused(req, case)
