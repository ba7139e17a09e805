"""Step 4: consumer.py POSTs each claim and acks only after 201; it ends by itself."""

from __future__ import annotations

import pytest

from fixtures.claims import Outcome
from grader.machinery.partitions import Partition
from grader.machinery.textfile import NotParsed, json_value
from grader.mq import edges
from grader.mq.records import ConsumerRun, Crashes
from grader.verdict import Check


def _json_equal(a: str, b: bytes) -> bool:
    try:
        return bool(json_value(a) == json_value(b))
    except NotParsed:
        return False


def _good_ones(req: Check, edge: Partition, seen: ConsumerRun) -> None:
    __tracebackhide__ = True
    good = [c for c in seen.published if c.outcome is Outcome.ACCEPTED]
    calls = [seen.calls(c) for c in good]
    req.expect(
        all(n == 1 for n in calls),
        f"{edge}: 정상 청구 {len(good)}건의 POST 횟수 {calls} (기대: 모두 1)",
        run=seen.run,
    )
    wrong_body = [c.guid for c in good if not _json_equal(next(iter(seen.bodies(c)), ""), c.data)]
    req.expect(not wrong_body, f"{edge}: POST 본문이 메시지 본문(JSON)과 다름: {wrong_body[:2]}")
    req.expect(
        not seen.strangers,
        f"{edge}: 큐에 없던 청구를 청구 시스템에 POST 함 ({len(seen.strangers)}건,"
        f" guid {list(seen.strangers[:2])})",
        "받은 메시지 본문을 그대로, 메시지마다 정해진 횟수만 POST 하세요.",
        run=seen.run,
    )
    stuck = [c.guid for c in good if c.guid in seen.left_guids()]
    dead = [c.guid for c in good if c.guid in seen.dead_guids()]
    req.expect(
        not stuck and not dead,
        f"{edge}: 201 을 받은 정상 청구 {len(good)}건 중 끝난 뒤 claim.in 에 {len(stuck)}건, "
        f"claim.dead 에 {len(dead)}건 (기대: 0, 0 — 모두 ack)",
        run=seen.run,
    )


@pytest.mark.req("M4.1")
def test_M4_1_one_post_each_all_acked(
    req: Check, good_claims: ConsumerRun, mixed_claims: ConsumerRun
) -> None:
    _good_ones(req, edges.GOOD_ALONE, good_claims)
    _good_ones(req, edges.GOOD_AMONG_OTHERS, mixed_claims)


@pytest.mark.req("M4.2")
def test_M4_2_ends_by_itself(req: Check, idle_queue: ConsumerRun, busy_queue: ConsumerRun) -> None:
    for edge, seen in ((edges.DEADLINE_EMPTY, idle_queue), (edges.DEADLINE_BUSY, busy_queue)):
        req.expect(
            not seen.run.timed_out,
            f"{edge}: --max-seconds {seen.seconds:g} 인데 {seen.counted_from} 뒤 "
            f"{seen.seconds + seen.grace:g}초가 지나도 끝나지 않음"
            + (f" (남은 청구 {seen.ready}건)" if seen.ready else ""),
            run=seen.run,
        )
        req.expect_ran(seen.run, f"{edge} consumer.py --max-seconds {seen.seconds:g}")


@pytest.mark.req("M4.3")
def test_M4_3_kill_loses_nothing(req: Check, crashes: Crashes) -> None:
    seen, edge = crashes, edges.KILL_HELD
    req.expect(seen.held, f"{edge}: 소비자가 청구 시스템을 한 번도 부르지 않음", run=seen.first)
    after = seen.after
    req.expect(
        after is not None,
        f"{edge}: SIGKILL 한 소비자의 연결이 끊기지 않음(다른 프로세스가 연결을 쥐고 있나요?)",
        run=seen.first,
    )
    assert after is not None
    kept = after.ready + after.dead_ready + seen.accepted
    gap = seen.published - kept
    what = f"{gap}건 잃음" if gap > 0 else f"발행한 적 없는 메시지 {-gap}건이 생김(소비자가 직접 발행했나요?)"
    req.expect(
        kept == seen.published,
        f"{edge}: 남은 {after.ready} + DLQ {after.dead_ready} + 201 받은 {seen.accepted} = {kept} "
        f"(발행 {seen.published}): {what}",
    )


ACK_BEFORE_201 = (
    "basic_ack 는 청구 시스템이 201 로 답한 뒤에만 보내세요. 메시지 사본을 claim.in 에 다시 발행하고 "
    "원본을 먼저 ack 해도 원본은 201 전에 ack 된 것입니다(그 사본이 사라지면 청구도 사라집니다)."
)


@pytest.mark.req("M4.4")
def test_M4_4_ack_only_after_201(req: Check, crashes: Crashes) -> None:
    seen = crashes
    req.expect(seen.held, f"{edges.KILL_HELD}: 소비자가 청구 시스템을 한 번도 부르지 않음", run=seen.first)
    during = seen.during
    assert during is not None
    # A call that timed out meanwhile may already be in claim.dead: rejected, not acked.
    req.expect(
        during.kept == seen.published,
        f"{edges.KILL_HELD}: 청구 시스템이 아직 답하지 않았는데 claim.in 에 ready {during.ready} + unacked "
        f"{during.unacked} + claim.dead {during.dead_ready} = {during.kept} "
        f"(발행 {seen.published}): 201 전에 ack 됨",
        run=seen.first,
    )
    req.expect(
        not seen.taken_first,
        f"{edges.KILL_HELD}: 청구 시스템이 아직 어느 청구에도 답하지 않았는데 consumer.py 가 청구 "
        f"{seen.taken_first}건을 claim.in 에서 치움(basic.ack, 또는 처음 받은 청구의 reject·nack: "
        "채점기가 연결에서 읽음)",
        ACK_BEFORE_201,
        run=seen.first,
    )
    edge = edges.KILL_AFTER_201
    req.expect(
        not seen.taken_second,
        f"{edge}: 다시 띄운 소비자가 201 을 받기 전에(멈춘 뒤 SIGKILL) 청구 {seen.taken_second}건을 "
        "claim.in 에서 치움(basic.ack, 또는 처음 받은 청구의 reject·nack: 채점기가 연결에서 읽음)",
        ACK_BEFORE_201,
        run=seen.second,
    )
    req.expect(
        seen.second_held,
        f"{edge}: 다시 띄운 소비자가 새 청구 {seen.fresh}건이 있는데 청구 시스템을 부르지 않음",
        run=seen.second,
    )
    req.expect(
        seen.after is not None and seen.after_second is not None,
        f"{edge}: SIGKILL 한 소비자의 연결이 끊기지 않음(다른 프로세스가 연결을 쥐고 있나요?)",
        run=seen.second,
    )
    assert seen.after is not None and seen.after_second is not None
    got = ", ".join(str(status) for status in seen.answered_instead) or "응답 없음"
    req.expect(
        seen.answered_201,
        f"{edge}: 다시 띄운 소비자의 요청에 청구 시스템이 201 이 아니라 {got} 으로 답함: 201 을 받은 뒤의 "
        "ack 를 볼 수 없음",
        hint="청구 시스템은 청구 파일의 JSON 을 그대로 본문으로 받습니다(Content-Type: application/json). "
        "400 은 본문이 JSON 객체가 아님, 422 는 docs 가 없음, 503 은 BUSY 청구입니다.",
        run=seen.second,
    )
    expected = seen.after.kept + seen.fresh
    req.expect(
        seen.after_second.kept == expected,
        f"{edge}: 소비자가 201 을 읽기도 전에 claim.in·claim.dead 에 {seen.after_second.kept}건 "
        f"(기대: {expected}): 201 을 보기 전에 ack 됨",
        run=seen.second,
    )
