"""Step 7: lag.sh QUEUE_DIR THRESHOLD reports the queue depth and alarms above the threshold.

Counted (the decisions): regular files directly inside each directory. Every run has empty
directories, one file, counts across digit lengths, subfolders and a hidden file, and
thresholds one below, at and one above the inbox count, 0, and across 9/10 and 99/100.
"""

from __future__ import annotations

import re

import pytest

from grader.queue.edges import label
from grader.queue.scenarios import LagCase
from grader.verdict import Check

LINE = re.compile(r"inbox=(\d+)\s+processing=(\d+)\s+error=(\d+)")
STRING_COMPARE_HINT = (
    '[[ $n > $2 ]] 나 [ "$n" \\> "$2" ] 는 문자열 비교라 10 이 9 보다 작다고 봅니다: '
    '[ "$n" -gt "$2" ] 처럼 정수로 비교하세요.'
)
COUNT_HINT = (
    "디렉터리 바로 안의 보통 파일만 세세요(하위 폴더와 그 안의 파일은 빼고): "
    'find "$1/inbox" -maxdepth 1 -type f | wc -l'
)

BLANK_HINT = (
    "이름에 공백이 든 파일도 파일 하나입니다: 단어(wc -w, for f in $(ls ...))가 아니라 줄이나 파일을 "
    '세세요: find "$1/inbox" -maxdepth 1 -type f | wc -l'
)


def _hint(case: LagCase) -> str | None:
    if case.layout.subdirs:
        return COUNT_HINT
    return BLANK_HINT if case.layout.blank_named else None


def _classes(case: LagCase) -> str:
    shows = sorted(label("Q7.1", k) for k in case.layout.shows)
    return ", ".join(shows)


def _counted(case: LagCase, printed: list[str]) -> bool:
    """One line, the right counts (a hidden file in inbox may count or not)."""
    if len(printed) != 1 or (found := LINE.fullmatch(printed[0])) is None:
        return False
    inbox, processing, error = (int(g) for g in found.groups())
    files = case.layout.files
    return inbox in case.layout.inbox_counts and (processing, error) == (files["processing"], files["error"])


@pytest.mark.req("Q7.1")
def test_Q7_1_prints_the_counts(req: Check, lag_runs: list[LagCase]) -> None:
    for case in lag_runs:
        req.expect(not case.run.timed_out, f"lag.sh 가 {case.run.describe()}", run=case.run)
        printed = [ln.strip() for ln in case.run.stdout.splitlines() if ln.strip()]
        extra = (
            f", 하위 폴더의 파일 {sum(case.layout.subdirs.values())}개는 빼고" if case.layout.subdirs else ""
        )
        req.expect(
            _counted(case, printed),
            f"[{_classes(case)}] lag.sh QUEUE_DIR {case.threshold} 의 출력 {printed[:3]} "
            f"(기대: 한 줄 {case.line!r}{extra})",
            hint=_hint(case),
            run=case.run,
        )


@pytest.mark.req("Q7.2")
def test_Q7_2_exit_code_against_threshold(req: Check, lag_runs: list[LagCase]) -> None:
    for case in lag_runs:
        inbox = case.layout.files["inbox"]
        over = inbox > case.threshold
        code = case.run.returncode
        ok = code not in (0, None) if over else code == 0
        relation = "초과" if over else ("같음" if inbox == case.threshold else "미만")
        classes = ", ".join(sorted(label("Q7.2", k) for k in case.keys))
        across = any(k.startswith("across-") for k in case.keys)
        req.expect(
            ok and not case.run.timed_out,
            f"[{classes or '임계치가 먼 경우'}] inbox {inbox}, 임계치 {case.threshold}({relation}) 인데 "
            f"{case.run.describe()} (기대: {'0 이 아닌 코드' if over else '0'})",
            hint=STRING_COMPARE_HINT if across else _hint(case),
            run=case.run,
        )
