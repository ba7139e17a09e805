"""Step 4: consumer.py POSTs each claim and acks only after 201; it ends by itself."""

from __future__ import annotations

import json

import pytest

from grader.mq.lab import GRACE
from grader.mq.records import ConsumerRun, KillRun
from grader.verdict import Check


def _json_equal(a: str, b: bytes) -> bool:
    try:
        return bool(json.loads(a) == json.loads(b))
    except ValueError:
        return False


@pytest.mark.req("M4.1")
def test_M4_1_one_post_each_all_acked(req: Check, good_claims: ConsumerRun) -> None:
    seen = good_claims
    calls = {c.guid: seen.calls(c) for c in seen.published}
    req.expect(
        all(n == 1 for n in calls.values()),
        f"정상 청구 {len(calls)}건의 POST 횟수: {sorted(calls.values())} (기대: 모두 1)",
        run=seen.run,
    )
    wrong_body = [c.guid for c in seen.published if not _json_equal(seen.bodies(c)[0], c.data)]
    req.expect(not wrong_body, f"POST 본문이 메시지 본문과 다름: {wrong_body[:2]}")
    req.expect(
        seen.ready == 0 and not seen.dead,
        f"끝난 뒤 claim.in 에 {seen.ready}건, claim.dead 에 {len(seen.dead)}건 (기대: 0, 0)",
        run=seen.run,
    )


@pytest.mark.req("M4.2")
def test_M4_2_ends_by_itself(req: Check, good_claims: ConsumerRun) -> None:
    seen = good_claims
    req.expect(
        not seen.run.timed_out,
        f"--max-seconds {seen.seconds:g} 인데 {seen.seconds + GRACE:g}초가 지나도 끝나지 않음",
        run=seen.run,
    )
    req.expect_ran(seen.run, f"consumer.py --max-seconds {seen.seconds:g}")


@pytest.mark.req("M4.3")
def test_M4_3_kill_loses_nothing(req: Check, killed_mid_request: KillRun) -> None:
    seen = killed_mid_request
    req.expect(seen.held, "소비자가 청구 시스템을 한 번도 부르지 않음", run=seen.run)
    kept = seen.after_ready + seen.after_dead + seen.accepted
    req.expect(
        kept == seen.published,
        f"청구 시스템 응답을 기다리는 소비자를 SIGKILL 한 뒤: 남은 {seen.after_ready} + "
        f"DLQ {seen.after_dead} + 201 받은 {seen.accepted} = {kept} (발행 {seen.published}): "
        f"{seen.published - kept}건 잃음",
    )


@pytest.mark.req("M4.4")
def test_M4_4_ack_only_after_201(req: Check, killed_mid_request: KillRun) -> None:
    seen = killed_mid_request
    req.expect(seen.held, "소비자가 청구 시스템을 한 번도 부르지 않음", run=seen.run)
    during = seen.during
    if during is None:
        raise RuntimeError("no rabbitmqctl: live ready/unacked of claim.in cannot be read")
    # A call that timed out meanwhile may already be in claim.dead: rejected, not acked.
    req.expect(
        during.kept == seen.published,
        f"청구 시스템이 아직 답하지 않았는데 claim.in 에 ready {during.ready} + unacked "
        f"{during.unacked} + claim.dead {during.dead} = {during.kept} "
        f"(발행 {seen.published}): 201 전에 ack 됨",
    )
