"""Step 6: order-check.sql finds a repeated or missing seq within one order, nothing else.

It runs on a copy of the student's ledger and on ledgers of the grader's, one per class of
the edge map (grader/queue/edges.py): every kind of repeat and of hole, in every run. A
failure names the ledger it failed on.
"""

from __future__ import annotations

import re

import pytest

from grader.machinery.sqlscript import SqlResult
from grader.queue.edges import label
from grader.queue.lab import QueueLab
from grader.queue.scenarios import LedgerRun, OrderChecks
from grader.verdict import Check, Missing

OK_LINE = re.compile(r"OK(?![0-9A-Za-z_])")  # what follows OK is free (the decisions)


def _sample(result: SqlResult) -> str:
    return "; ".join(" | ".join(map(str, row)) for row in result.rows[:3])


def _judged(req: Check, checks: OrderChecks, rid: str, found: bool) -> list[LedgerRun]:
    """The ledgers of ``rid`` on which the SQL did not return what it must: at least one row
    (``found``) or none. A ledger on which it does not even run fails at once."""
    __tracebackhide__ = True
    runs = checks.of(rid)
    for run in runs:
        where = f"{label(run.case.rid, run.case.key)}({run.case.detail}) 장부"
        req.expect(run.result.error is None, f"{where}에서 실행 오류: {run.result.error}")
    return [r for r in runs if (r.result.count > 0) != found]


def _shown(runs: list[LedgerRun], rows: bool = False) -> str:
    parts = []
    for r in runs[:3]:
        part = f"{label(r.case.rid, r.case.key)}({r.case.detail})"
        parts.append(f"{part}에서 {r.result.count}행: {_sample(r.result)}" if rows else part)
    more = f" 외 {len(runs) - 3}개" if len(runs) > 3 else ""
    return "; ".join(parts) + more


@pytest.mark.req("Q6.1")
def test_Q6_1_clean_on_the_students_ledger(
    req: Check, queue_lab: QueueLab, order_checks: OrderChecks
) -> None:
    own = order_checks.own
    if isinstance(own, Missing):
        req.blocked(own.artefact, own.why)
    req.expect(own.error is None, f"학생의 ledger.db 에서 실행 오류: {own.error}")
    n = own.count
    req.expect(n == 0, f"정상 데이터인 학생의 ledger.db 에서 {n}행: {_sample(own)}")


@pytest.mark.req("Q6.2")
def test_Q6_2_finds_a_repeated_seq(req: Check, order_checks: OrderChecks) -> None:
    missed = _judged(req, order_checks, "Q6.2", found=True)
    req.expect(not missed, f"한 주문 안에 같은 seq 가 두 번 이상 있는 장부에서 0행: {_shown(missed)}")


@pytest.mark.req("Q6.3")
def test_Q6_3_finds_a_missing_seq(req: Check, order_checks: OrderChecks) -> None:
    missed = _judged(req, order_checks, "Q6.3", found=True)
    req.expect(
        not missed,
        f"한 주문 안에서 seq 가 빠진 장부에서 0행: {_shown(missed)}",
        hint="구멍의 폭과 개수에 상관없이, 같은 주문에 중복이 함께 있어도 찾아야 합니다: "
        "LAG(seq) 와의 차이가 1 보다 큰 행(seq - prev > 1)을 찾으세요. 행 수를 MAX-MIN+1 과 "
        "비교하기만 하면 중복이 구멍을 메워 놓칩니다. seq 는 정수로 비교하세요.",
    )


@pytest.mark.req("Q6.4")
def test_Q6_4_clean_on_many_orders(req: Check, order_checks: OrderChecks) -> None:
    flagged = _judged(req, order_checks, "Q6.4", found=False)
    req.expect(not flagged, f"정상 장부에서 행이 나옴: {_shown(flagged, rows=True)}")


@pytest.mark.req("Q6.5")
def test_Q6_5_order_result_says_ok(req: Check, queue_lab: QueueLab) -> None:
    lines = req.text(queue_lab.saved / "order-result.txt", queue_lab.shown("order-result.txt")).splitlines()
    first = lines[0].strip() if lines else ""
    req.expect(OK_LINE.match(first) is not None, f"첫 줄이 {first!r}" if lines else "빈 파일")
