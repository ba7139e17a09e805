"""Step 4: the result of the fixture run — counts, unique rows, dup.txt."""

from __future__ import annotations

import pytest

from grader.machinery.textfile import Unreadable
from grader.queue import ledger
from grader.queue.lab import QueueLab
from grader.queue.queuedir import listing
from grader.verdict import Check


@pytest.mark.req("Q4.1")
def test_Q4_1_done_and_error_counts(req: Check, queue_lab: QueueLab) -> None:
    req.needs(queue_lab.saved, queue_lab.shown())
    found = listing(queue_lab.saved)
    expected = queue_lab.expected
    done, error = len(expected.done_names), len(expected.error_reasons)
    req.expect(
        len(found["done"]) == done and len(found["error"]) == error,
        f"done {len(found['done'])}개, error {len(found['error'])}개 (기대: done {done}, error {error})",
    )


@pytest.mark.req("Q4.2")
def test_Q4_2_processed_holds_the_unique_messages(req: Check, queue_lab: QueueLab) -> None:
    db = queue_lab.student_ledger()
    req.needs(db, queue_lab.shown("ledger.db"))
    problem = ledger.problem(db)
    req.expect(problem is None, f"{queue_lab.shown('ledger.db')}: {problem}", hint="Q3.1 을 먼저 고치세요.")
    req.expect("msg_id" in ledger.columns(db), "ledger.db 에 processed 테이블(msg_id)이 없음")
    try:
        ids = [r.msg_id for r in ledger.rows(db)]
    except Unreadable as exc:
        hint = "processed 는 행을 담는 테이블로 만드세요."
        req.fail(f"{queue_lab.shown('ledger.db')}: {exc.reason}", hint=hint)
    expected = queue_lab.expected.messages.keys()
    req.expect(
        len(ids) == len(expected) and set(ids) == expected,
        f"processed {len(ids)}행(고유 msg_id {len(set(ids))}개), 기대: 중복 제거된 {len(expected)}건"
        + (f"; 빠진 msg_id: {', '.join(sorted(expected - set(ids))[:3])}" if expected - set(ids) else ""),
    )


@pytest.mark.req("Q4.3")
def test_Q4_3_dup_txt_ascending_msg_ids(req: Check, queue_lab: QueueLab) -> None:
    text = req.text(queue_lab.saved / "dup.txt", queue_lab.shown("dup.txt"))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    expected = queue_lab.expected.duplicate_ids
    names = queue_lab.expected.names
    req.expect(
        not set(lines) & names,
        f"msg_id 가 아니라 파일 이름이 있음: {', '.join(sorted(set(lines) & names)[:3])}",
    )
    req.expect(
        sorted(lines) == expected,
        f"dup.txt 내용 {lines[:5]} (기대: 중복 msg_id {len(expected)}건)",
    )
    req.expect(lines == expected, f"오름차순이 아님: {lines}", hint="sort 로 정렬해 저장하세요.")
