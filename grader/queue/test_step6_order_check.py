"""Step 6: order-check.sql finds a repeated or missing seq within one order, nothing else."""

from __future__ import annotations

import pytest

from grader.machinery.sqlscript import SqlResult
from grader.queue.lab import QueueLab
from grader.queue.scenarios import OrderChecks
from grader.verdict import Check


def _rows(req: Check, result: SqlResult, where: str) -> int:
    __tracebackhide__ = True
    req.expect(result.error is None, f"{where}에서 실행 오류: {result.error}")
    return len(result.rows)


def _sample(result: SqlResult) -> str:
    return "; ".join(" | ".join(map(str, row)) for row in result.rows[:3])


@pytest.mark.req("Q6.1")
def test_Q6_1_clean_on_the_students_ledger(
    req: Check, queue_lab: QueueLab, order_checks: OrderChecks
) -> None:
    checks = order_checks
    if checks.own is None:
        req.blocked(queue_lab.shown("ledger.db"))
    n = _rows(req, checks.own, "학생의 ledger.db")
    req.expect(n == 0, f"정상 데이터에서 {n}행: {_sample(checks.own)}")


@pytest.mark.req("Q6.2")
def test_Q6_2_finds_a_repeated_seq(req: Check, order_checks: OrderChecks) -> None:
    checks = order_checks
    n = _rows(req, checks.duplicated, "한 주문에 seq 가 중복된 장부")
    req.expect(n >= 1, "한 주문 안에 같은 seq 가 두 번 있는 장부에서 0행")


@pytest.mark.req("Q6.3")
def test_Q6_3_finds_a_missing_seq(req: Check, order_checks: OrderChecks) -> None:
    checks = order_checks
    n = _rows(req, checks.hole, "한 주문에 seq 가 빠진 장부")
    req.expect(n >= 1, "한 주문 안에서 seq 하나가 빠진(예: 1,2,4) 장부에서 0행")


@pytest.mark.req("Q6.4")
def test_Q6_4_clean_on_many_orders(req: Check, order_checks: OrderChecks) -> None:
    checks = order_checks
    n = _rows(req, checks.clean, "정상 장부")
    req.expect(n == 0, f"여러 주문(seq 10 이상 포함)의 정상 장부에서 {n}행: {_sample(checks.clean)}")


@pytest.mark.req("Q6.5")
def test_Q6_5_order_result_says_ok(req: Check, queue_lab: QueueLab) -> None:
    lines = req.text(queue_lab.saved / "order-result.txt", queue_lab.shown("order-result.txt")).splitlines()
    first = lines[0].strip() if lines else ""
    req.expect(first == "OK", f"첫 줄이 {first!r}")
