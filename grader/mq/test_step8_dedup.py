"""Step 8: processed message_ids are remembered in SQLite at $EAI_MQ_DB, across restarts, and
only after success."""

from __future__ import annotations

import pytest

from grader.mq.records import DedupRuns, RecordOnSuccess
from grader.verdict import Check


@pytest.mark.req("M8.1")
def test_M8_1_repeat_is_acked_without_post(req: Check, dedup: DedupRuns) -> None:
    seen = dedup
    req.expect(
        seen.calls_after_first == 1,
        f"처음 발행한 청구를 {seen.calls_after_first}번 POST (기대: 1)",
        run=seen.first,
    )
    req.expect(
        seen.calls_after_same_process_repeat == 1,
        "처리한 message_id 를 다시 발행하자 청구 시스템을 또 부름 "
        f"(POST {seen.calls_after_same_process_repeat}번)",
        run=seen.first,
    )
    req.expect(
        seen.ready_after_repeat == 0 and seen.dead_after_repeat == 0,
        f"다시 온 메시지를 ack 하지 않음 (claim.in 에 ready+unacked {seen.ready_after_repeat}건, "
        f"claim.dead 에 {seen.dead_after_repeat}건)",
        "이미 처리한 message_id 도 basic_ack 하세요: 청구 시스템만 부르지 않습니다.",
        run=seen.first,
    )


@pytest.mark.req("M8.2")
def test_M8_2_memory_survives_restart(req: Check, dedup: DedupRuns) -> None:
    seen = dedup
    req.expect_ran(seen.second, "같은 EAI_MQ_DB 로 다시 띄운 consumer.py")
    req.expect(
        seen.calls_after_restart == seen.calls_after_same_process_repeat == 1,
        f"소비자를 다시 띄운 뒤 같은 message_id 를 또 POST (모두 {seen.calls_after_restart}번)",
        run=seen.second,
    )
    req.expect(
        seen.ready_after_restart == 0 and seen.dead == 0,
        f"다시 띄운 소비자가 ack 하지 않음 (claim.in {seen.ready_after_restart}건, claim.dead {seen.dead}건)",
        run=seen.second,
    )


@pytest.mark.req("M8.3")
def test_M8_3_record_at_eai_mq_db(req: Check, dedup: DedupRuns) -> None:
    seen = dedup
    req.expect(seen.db_exists, "EAI_MQ_DB 가 가리키는 경로에 파일이 생기지 않음", run=seen.first)
    req.expect(seen.db_is_sqlite, "EAI_MQ_DB 의 파일이 SQLite 데이터베이스가 아님")


@pytest.mark.req("M8.4")
def test_M8_4_only_success_is_recorded(req: Check, record_only_success: RecordOnSuccess) -> None:
    seen = record_only_success
    first, second, guid = seen.first, seen.second, seen.claim.guid
    req.expect(
        guid in first.dead_guids(),
        f"전제: 503 청구가 claim.dead 로 가야 하는데 가지 않음 (POST {first.calls(seen.claim)}번)",
        run=first.run,
    )
    tried = first.calls(seen.claim)
    req.expect(
        second.calls(seen.claim) == tried + 1,
        f"DLQ 로 갔던 청구를 다시 발행하자 POST {second.calls(seen.claim) - tried}번 "
        "(기대: 1번 — 실패한 청구는 기록하지 않아야 다시 처리됩니다)",
        run=second.run,
    )
    req.expect(
        second.ready == 0 and guid not in second.dead_guids(),
        f"다시 처리한 청구를 ack 하지 않음 (claim.in {second.ready}건)",
        run=second.run,
    )
