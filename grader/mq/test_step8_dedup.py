"""Step 8: processed message_ids are remembered in SQLite at $EAI_MQ_DB, across restarts, and
only after success."""

from __future__ import annotations

import pytest

from fixtures.claims import Claim
from grader.machinery.partitions import Partition
from grader.mq import edges
from grader.mq.drive import TAKE_WAIT
from grader.mq.live import Figures
from grader.mq.records import ConsumerRun, DedupRuns, KilledAtItsAck, RecordOnSuccess
from grader.verdict import Check

ACK_DUPLICATES = "이미 처리한 message_id 도 basic_ack 하세요: 청구 시스템만 부르지 않습니다."


def _acked(figures: Figures) -> str:
    """Why a repeated message is not acked yet ('' when it is)."""
    if figures.in_claim == 0 and figures.dead_ready == 0:
        return ""
    return (
        f"claim.in 에 ready {figures.ready} + unacked {figures.unacked}건, "
        f"claim.dead 에 {figures.dead_ready}건"
    )


@pytest.mark.req("M8.1")
def test_M8_1_repeat_is_acked_without_post(req: Check, dedup: DedupRuns, mixed_claims: ConsumerRun) -> None:
    """What the catalogue asks: a message_id published again AFTER its success. Two copies
    waiting at once are no part of it (a consumer working on both at once POSTs both, rightly)."""
    seen, edge = dedup, edges.DUP_LATER
    req.expect(
        seen.calls_after_success >= 1,
        f"{edge}: 전제: 처음 온 청구를 청구 시스템에 POST 하지 않음",
        run=seen.first,
    )
    req.expect(
        not seen.ended_before_repeat,
        f"{edge}: consumer.py 가 --max-seconds 가 지나기 전에 끝나 다시 온 메시지를 받지 못함 "
        f"({seen.first.describe()})",
        "--max-seconds 가 지날 때까지 claim.in 을 계속 소비하세요(큐가 비어도 끝내지 말고).",
        run=seen.first,
    )
    req.expect(
        seen.calls_after_repeat == seen.calls_after_success,
        f"{edge}: 처리한 message_id 를 다시 발행하자 청구 시스템을 또 부름 "
        f"(POST {seen.calls_after_success}번 → {seen.calls_after_repeat}번)",
        run=seen.first,
    )
    problem = _acked(seen.repeat)
    req.expect(
        not problem, f"{edge}: 다시 온 메시지를 ack 하지 않음 ({problem})", ACK_DUPLICATES, run=seen.first
    )
    # The key is the message_id: the same claim under a new one is a new message (its ack is
    # read with the repeat's above: claim.in empty once the barrier behind both was handled).
    req.expect(
        seen.resent_calls == 1,
        f"{edges.RESENT_AS_NEW}: claimId 등 내용은 같고 message_id 만 새 것인 청구를 "
        f"청구 시스템에 POST {seen.resent_calls}번 보냄 (1번이어야 함)",
        "중복은 message_id 로만 판단하세요(기록의 키도 message_id): claimId 가 같아도 message_id 가 "
        "다르면 새 메시지이므로 청구 시스템을 불러야 합니다.",
        run=seen.first,
    )
    _repeat_after_retry(req, mixed_claims)


def _repeat_after_retry(req: Check, seen: ConsumerRun) -> None:
    """Success on the retry is success: judged when the consumer had accepted the claim on its
    retry and decided about every claim (one that never tried it again is M6.1's)."""
    __tracebackhide__ = True
    edge, repeat = edges.DUP_AFTER_RETRY, seen.repeat
    if repeat is None:
        return
    for claim, before in zip(repeat.claims, repeat.calls_before, strict=True):
        after = seen.calls(claim)
        req.expect(
            after == before,
            f"{edge}: 처음엔 503, 재시도에서 201 을 받은 청구를 다시 발행하자 청구 시스템을 또 부름"
            f" (POST {before}번 → {after}번)",
            "재시도(redelivered)에서 성공해도 ack 하기 전에 기록하세요: 성공하는 길이 여럿이면 기록도 모든"
            " 길에 있어야 합니다.",
            run=seen.run,
        )
        left = seen.left_guids().count(claim.guid)
        dead = seen.dead_guids().count(claim.guid) - repeat.dead_before.count(claim.guid)
        req.expect(
            not left and dead <= 0,
            f"{edge}: 다시 온 메시지를 ack 하지 않음 (claim.in 에 {left}건, claim.dead 에 {max(dead, 0)}건)",
            ACK_DUPLICATES,
            run=seen.run,
        )


@pytest.mark.req("M8.2")
def test_M8_2_memory_survives_restart(
    req: Check, dedup: DedupRuns, killed_at_its_ack: KilledAtItsAck
) -> None:
    _between_record_and_ack(req, killed_at_its_ack)
    seen, edge = dedup, edges.DUP_AFTER_KILL
    restart = seen.restart
    if seen.fresh_ended_early:
        how = "ack 하기 전에 스스로 끝남"
    elif seen.fresh_waited:
        how = f"기록을 기다리는 것을 보고 풀어 준 뒤 {TAKE_WAIT:g}초 안에 ack 하지 않음"
    else:
        how = f"{TAKE_WAIT:g}초 안에 ack 하지도, 기록을 기다리지도 않음"
    req.expect(
        seen.fresh_ack_seen and seen.fresh_calls_before_kill >= 1,
        f"{edge}: 전제: 새 청구를 POST 하고 ack 하는 것을 보지 못함"
        f" (POST {seen.fresh_calls_before_kill}번, {how})",
        run=seen.first,
    )
    req.expect(
        not seen.fresh_unrecorded_at_ack,
        f"{edge}: 새 청구를 ack 했을 때(채점기가 EAI_MQ_DB 를 잠가 두어 기록을 commit 할 수 없던 동안)"
        " EAI_MQ_DB 에 그 message_id 의 기록이 없었음: 기록하기 전에 ack 함",
        "처리에 성공하면 ack 하기 전에 EAI_MQ_DB(SQLite)에 기록하고 commit 하세요(다른 파일에 먼저 적어도"
        " EAI_MQ_DB 의 기록이 ack 보다 먼저여야 합니다).",
        run=seen.first,
    )
    req.expect(
        not restart.crashed(),
        f"{edge}: 같은 EAI_MQ_DB 로 다시 띄운 consumer.py 가 {restart.run.describe()}",
        run=restart.run,
    )
    for claim, before, what in (
        (seen.fresh, seen.fresh_calls_before_kill, "ack 직후 SIGKILL 된 청구"),
        (seen.claim, seen.calls_after_repeat, "그 전에 처리한 청구"),
    ):
        again = restart.calls(claim) - before
        req.expect(
            again == 0,
            f"{edge}: 이미 처리한 message_id({what})를 다시 띄운 소비자가 POST {again}번 더 함",
            "처리에 성공하면 ack 하기 전에 SQLite 에 기록하고 commit 하세요(ack 한 뒤에 기록하면 그 사이에"
            " 죽을 때 잃고, 끝날 때 한꺼번에 저장하면 죽을 때 모두 잃습니다).",
            run=restart.run,
        )
    req.expect(
        restart.ready == 0 and not restart.dead,
        f"{edge}: 다시 띄운 소비자가 ack 하지 않음 "
        f"(claim.in {restart.ready}건, claim.dead {len(restart.dead)}건)",
        ACK_DUPLICATES,
        run=restart.run,
    )


def _between_record_and_ack(req: Check, seen: KilledAtItsAck) -> None:
    """Judged where the grader carries the consumer's connection (there is an ack to stop at)
    and the claim came back (one an auto-ack consumer loses is M4.3's and M4.4's)."""
    __tracebackhide__ = True
    edge = edges.KILLED_AT_ITS_ACK
    if seen.first is None:  # not carried
        return
    req.expect(
        seen.killed,
        f"{edge}: 전제: 새 청구를 ack 하는 것을 보지 못함 (POST {seen.calls_before}번,"
        f" {seen.first.describe()})",
        run=seen.first,
    )
    restart = seen.restart
    if restart is None:
        return
    again = restart.calls(seen.claim) - seen.calls_before
    req.expect(
        not restart.crashed(),
        f"{edge}: 같은 EAI_MQ_DB 로 다시 띄운 consumer.py 가 {restart.run.describe()}",
        run=restart.run,
    )
    req.expect(
        again == 0,
        f"{edge}: ack 이 브로커에 닿기 전에 죽어 redelivered 로 다시 온 청구를, 같은 EAI_MQ_DB 로 다시 띄운"
        f" 소비자가 청구 시스템에 POST {again}번 더 함 (처음에 POST {seen.calls_before}번)",
        "다시 배달된(redelivered) 메시지도 처리하기 전에 기록을 찾아보세요: 기록과 ack 사이에 죽으면 같은"
        " 메시지가 redelivered 로 다시 오고, 그때 걸러 주는 것이 기록입니다.",
        run=restart.run,
    )
    guid = seen.claim.guid
    left, dead = restart.left_guids().count(guid), restart.dead_guids().count(guid)
    req.expect(
        not (left or dead),
        f"{edge}: 다시 띄운 소비자가 redelivered 로 다시 온 청구를 ack 하지 않음 (claim.in {left}건,"
        f" claim.dead {dead}건)",
        ACK_DUPLICATES,
        run=restart.run,
    )


@pytest.mark.req("M8.3")
def test_M8_3_record_at_eai_mq_db(req: Check, dedup: DedupRuns) -> None:
    seen, edge = dedup, edges.DB_AT_PATH
    req.expect(
        seen.db_exists, f"{edge}: EAI_MQ_DB 가 가리키는 경로에 파일이 생기지 않음", run=seen.restart.run
    )
    req.expect(seen.db_is_sqlite, f"{edge}: EAI_MQ_DB 의 파일이 SQLite 데이터베이스가 아님")
    req.expect(
        seen.db_names_it,
        f"{edge}: EAI_MQ_DB 의 어느 테이블에도 처리한 message_id {seen.claim.guid} 가 없음",
        "처리한 message_id 를 EAI_MQ_DB 의 테이블에 INSERT 하고 commit 하세요.",
    )


def _retried(req: Check, edge: Partition, claim: Claim, first: ConsumerRun, second: ConsumerRun) -> None:
    __tracebackhide__ = True
    tried = first.calls(claim)
    again = second.calls(claim) - tried
    req.expect(
        again == 1,
        f"{edge}: DLQ 로 갔던 청구를 다시 발행하자 POST {again}번 (기대: 1번 — 실패한 청구는 기록하지 "
        "않아야 다시 처리됩니다)",
        run=second.run,
    )
    req.expect(
        claim.guid not in second.left_guids() and claim.guid not in second.dead_guids(),
        f"{edge}: 다시 처리해 201 을 받은 청구를 ack 하지 않음 "
        f"(claim.in {second.left_guids().count(claim.guid)}건, "
        f"claim.dead {second.dead_guids().count(claim.guid)}건)",
        run=second.run,
    )


@pytest.mark.req("M8.4")
def test_M8_4_only_success_is_recorded(req: Check, record_only_success: RecordOnSuccess) -> None:
    seen = record_only_success
    # Each class is judged when the consumer POSTed its claim in the first run and got its
    # failure (503 or 422): it then had its chance to record what it should not. Where the
    # claim went next (claim.dead; judged by M5.1 and M6.1) is no part of this id, so a
    # consumer that dies on a 503 fails those ids and not this one. At least one is judged.
    cases = [
        (edges.RETRY_AFTER_503, seen.busy),
        (edges.RETRY_AFTER_422, seen.no_docs),
    ]
    tried = [(edge, claim) for edge, claim in cases if seen.first.calls(claim) > 0]
    req.expect(
        bool(tried),
        "전제: 첫 실행에서 503 청구도 422 청구도 청구 시스템에 POST 하지 않음",
        run=seen.first.run,
    )
    for edge, claim in tried:
        _retried(req, edge, claim, seen.first, seen.second)
    if seen.held_then_killed:  # its call was held when the consumer was killed: nothing succeeded
        # A record written before the success shows as the next consumer acking the claim without
        # a call. Dead-lettered without a call, it is the lab's decision (no second chance is
        # counted on for a message returned because its consumer stopped); what a consumer does
        # with a redelivered claim's 201 is M6.1's (BUSY_THEN_ACCEPTED).
        edge, held, first = edges.KILLED_BEFORE_ANSWER, seen.held, seen.first
        again = first.calls(held) - seen.held_calls
        left, dead = first.left_guids().count(held.guid), first.dead_guids().count(held.guid)
        req.expect(
            again >= 1 or left > 0 or dead > 0,
            f"{edge}: 다시 띄운 소비자가 그 청구를 청구 시스템에 POST 하지 않고 ack 함: 성공하지 않은 청구가"
            " 처리한 것으로 기록되어 있었음",
            "청구 시스템이 201 로 받아들인 뒤에만 기록하세요(POST 전에 기록해 두면 응답을 받기 전에 죽을 때"
            " 그 청구는 처리된 것으로 남아 다시 오면 부르지 않고 ack 되어 잃습니다).",
            run=first.run,
        )
