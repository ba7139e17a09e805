"""Step 3: consume.py — claim by rename, isolate poison, store once, leave processing/ empty.

The state checks read the student's ledger; the behaviour checks re-run consume.py on fresh
randomised inboxes (new ids and names, every kind of poison), so no hard-coded answer passes.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from grader.machinery.runner import RunResult
from grader.queue import ledger
from grader.queue.lab import QueueLab
from grader.queue.queuedir import counts_text
from grader.queue.scenarios import ConsumeRun, Rerun, TwoConsumers
from grader.verdict import Check


def _names(names: Iterable[str], limit: int = 4) -> str:
    shown = sorted(names)
    more = f" 외 {len(shown) - limit}개" if len(shown) > limit else ""
    return ", ".join(shown[:limit]) + more


def _misplaced(observed: ConsumeRun) -> list[str]:
    """Every way the files did not end where they belong."""
    after, problems = observed.after, []
    for d in ("inbox", "processing"):
        if after[d]:
            problems.append(f"{d}/ 에 {len(after[d])}개 남음")
    for f in observed.messages.files:
        if f.name not in after[f.ends_in]:
            problems.append(f"{f.name}({f.kind.value}) 이(가) {f.ends_in}/ 에 없음")
    both = after["done"] & after["error"]
    if both:
        problems.append(f"done/ 과 error/ 둘 다에 있음: {_names(both)}")
    return problems


def _expect_runs_ok(req: Check, runs: tuple[RunResult, ...], what: str) -> None:
    __tracebackhide__ = True
    for run in runs:
        req.expect_ran(run, what)


@pytest.mark.req("Q3.1")
def test_Q3_1_processed_table_with_unique_msg_id(req: Check, queue_lab: QueueLab) -> None:
    db = queue_lab.saved / "ledger.db"
    req.needs(db, queue_lab.shown("ledger.db"))
    cols = ledger.columns(db)
    req.expect(bool(cols), "ledger.db 에 processed 테이블이 없음")
    missing = [c for c in ledger.COLUMNS if c not in cols]
    req.expect(not missing, f"processed 에 없는 컬럼: {', '.join(missing)}")
    req.expect(
        ledger.msg_id_is_unique(db),
        "msg_id 에 PRIMARY KEY 도 UNIQUE 제약도 없음(또는 여러 컬럼 묶음 키)",
    )


@pytest.mark.req("Q3.2")
def test_Q3_2_processing_is_empty(req: Check, queue_lab: QueueLab) -> None:
    processing = queue_lab.saved / "processing"
    req.needs(processing, queue_lab.shown("processing"))
    left = sorted(p.name for p in processing.iterdir())
    req.expect(not left, f"processing/ 에 {len(left)}개 남음: {_names(left)}")


@pytest.mark.req("Q3.3")
def test_Q3_3_valid_to_done_poison_to_error(req: Check, fresh_run: Rerun) -> None:
    first = fresh_run.first
    _expect_runs_ok(req, first.runs, "새 메시지로 돌린 consume.py")
    problems = _misplaced(first)
    req.expect(
        not problems,
        f"메시지 {len(first.messages.files)}개(파싱 실패·필드 누락·null 포함)를 처리한 뒤: "
        + "; ".join(problems[:6])
        + f" [{counts_text(first.after)}]",
    )


@pytest.mark.req("Q3.4")
def test_Q3_4_files_pass_through_processing(req: Check, fresh_run: Rerun) -> None:
    first = fresh_run.first
    travel = first.travel
    assert travel is not None
    req.expect(
        not travel.overflow,
        "파일 이동이 너무 많아(1초에 수만 번) 관찰할 수 없음: 같은 파일을 계속 옮기고 있지 않나요?",
        hint=None,
    )
    moved = [name for name, hops in travel.hops.items() if len(hops) > 1]
    req.expect(bool(moved), "inbox 에서 옮겨진 파일이 하나도 없음", run=first.runs[0])
    skipped = travel.skipped_processing()
    req.expect(
        not skipped,
        f"processing/ 으로 옮기지 않고 처리된 파일 {len(skipped)}개: "
        + "; ".join(f"{n}: {' → '.join(travel.hops[n])}" for n in skipped[:3])
        + (" (복사 후 삭제는 원자적 이동이 아님)" if travel.copied & set(skipped) else ""),
    )
    read_first = sorted(travel.opened_in_inbox)
    req.expect(
        not read_first,
        f"processing/ 으로 옮기기 전에 inbox 에서 연 파일 {len(read_first)}개: {_names(read_first)}",
    )


@pytest.mark.req("Q3.5")
def test_Q3_5_rows_equal_valid_messages(req: Check, fresh_run: Rerun) -> None:
    first = fresh_run.first
    req.expect(first.rows is not None, first.rows_error, run=first.runs[0])
    assert first.rows is not None
    expected = first.messages.messages
    got = {r.msg_id: r for r in first.rows}
    missing, extra = sorted(expected.keys() - got.keys()), sorted(got.keys() - expected.keys())
    req.expect(
        not missing and not extra,
        f"정상 메시지 {len(expected)}건 중 없는 msg_id {len(missing)}건({_names(missing)}), "
        f"메시지에 없는 msg_id {len(extra)}건({_names(extra)}); 행 {len(first.rows)}개",
    )
    req.expect(len(first.rows) == len(expected), f"행이 {len(first.rows)}개: 같은 msg_id 가 여러 번")
    wrong = [msg_id for msg_id, m in expected.items() if not _same(got[msg_id], m)]
    req.expect(
        not wrong,
        f"값이 메시지와 다른 행 {len(wrong)}개: " + "; ".join(_show(got[i], expected[i]) for i in wrong[:3]),
    )


def _same(row: ledger.Row, message: object) -> bool:
    assert isinstance(message, dict)

    def num(value: object) -> float | None:
        try:
            return float(str(value))
        except ValueError:
            return None

    return (
        str(row.order_no) == str(message["order_no"])
        and num(row.seq) == num(message["seq"])
        and num(row.amount) == num(message["amount"])
        and row.processed_at is not None
        and str(row.processed_at).strip() != ""
    )


def _show(row: ledger.Row, message: object) -> str:
    assert isinstance(message, dict)
    return (
        f"{row.msg_id}: 행 ({row.order_no}, {row.seq}, {row.amount}, {row.processed_at!r}) / "
        f"메시지 ({message['order_no']}, {message['seq']}, {message['amount']})"
    )


@pytest.mark.req("Q3.6")
def test_Q3_6_rerun_adds_no_row(req: Check, fresh_run: Rerun) -> None:
    rerun = fresh_run
    _expect_runs_ok(req, rerun.again.runs, "같은 메시지를 다시 넣고 돌린 consume.py")
    before, after = rerun.first.rows, rerun.again.rows
    req.expect(before is not None and after is not None, rerun.again.rows_error)
    assert before is not None and after is not None
    lost = sorted({r.msg_id for r in before} - {r.msg_id for r in after})
    req.expect(
        not lost, f"다시 돌린 뒤 앞선 실행의 행 {len(lost)}개가 사라짐(장부를 비우고 있나요?): {_names(lost)}"
    )
    req.expect(
        len(after) == len(before),
        f"같은 메시지 {len(rerun.again.messages.files)}개를 다시 처리하자 행이 "
        f"{len(before)} → {len(after)}개",
    )
    left = sorted(rerun.again.messages.names - rerun.again.after["done"])
    req.expect(not left, f"다시 넣은 (중복) 메시지가 done/ 에 없음: {_names(left)}")


@pytest.mark.req("Q3.7")
def test_Q3_7_two_consumers_at_once(req: Check, two_consumers: TwoConsumers) -> None:
    both = two_consumers
    race, crowd = both.race, both.crowd
    _expect_runs_ok(req, race.runs, "같은 msg_id 를 나눠 가진 두 consume.py")
    doubled = sorted(i for i, n in race.rows_per_id.items() if n > 1)
    req.expect(not doubled, f"두 소비자가 동시에 같은 msg_id 를 넣어 행이 두 개: {_names(doubled)}")
    _expect_runs_ok(req, crowd.runs, f"메시지 {len(crowd.messages.files)}개에 동시에 돌린 consume.py")
    problems = _misplaced(crowd)
    req.expect(not problems, "; ".join(problems[:6]) + f" [{counts_text(crowd.after)}]")
    req.expect(crowd.rows is not None, crowd.rows_error)
    assert crowd.rows is not None
    ids = [r.msg_id for r in crowd.rows]
    expected = crowd.messages.messages.keys()
    req.expect(
        len(ids) == len(set(ids)) == len(expected) and set(ids) == expected,
        f"행 {len(ids)}개(고유 msg_id {len(set(ids))}개), 기대 {len(expected)}개",
    )


@pytest.mark.req("Q3.8")
def test_Q3_8_poison_does_not_loop(req: Check, fresh_run: Rerun) -> None:
    first = fresh_run.first
    run = first.runs[0]
    req.expect(not run.timed_out, f"consume.py 가 {run.describe()}: 독약 메시지를 계속 돌리나요?", run=run)
    poison = {f.name for f in first.messages.files if f.ends_in == "error"}
    looped = sorted(poison & set(first.travel.sent_back_to_inbox() if first.travel else []))
    req.expect(not looped, f"독약 메시지를 inbox 로 되돌림: {_names(looped)}")
    stranded = sorted(poison - first.after["error"])
    req.expect(
        not stranded, f"error/ 에 없는 독약 메시지 {len(stranded)}/{len(poison)}개: {_names(stranded)}"
    )
