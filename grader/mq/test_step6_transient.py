"""Step 6: a transient failure (503, connection refused, timeout) gets one more try, then the
dead-letter queue; the consumer survives it."""

from __future__ import annotations

import pytest

from fixtures.claims import Outcome
from grader.mq.records import ConsumerRun, HangRun
from grader.verdict import Check


@pytest.mark.req("M6.1")
def test_M6_1_busy_twice_then_dead(req: Check, busy_claim: ConsumerRun) -> None:
    seen = busy_claim
    claim = next(c for c in seen.published if c.outcome is Outcome.BUSY)
    calls = seen.calls(claim)
    req.expect(calls == 2, f"BUSY 청구(503)를 {calls}번 POST (기대: 정확히 2번)", run=seen.run)
    req.expect(
        claim.guid in seen.dead_guids(),
        f"BUSY 청구가 claim.dead 에 없음 (claim.in 에 {seen.ready}건)",
        run=seen.run,
    )


@pytest.mark.req("M6.2")
def test_M6_2_claim_system_down(req: Check, claim_system_down: ConsumerRun) -> None:
    seen = claim_system_down
    req.expect_ran(seen.run, "청구 시스템이 꺼진 채 돌린 consumer.py")
    dead = set(seen.dead_guids())
    lost = [c.guid for c in seen.published if c.guid not in dead]
    req.expect(
        not lost,
        f"연결이 거부된 청구 {len(seen.published)}건 중 claim.dead 에 "
        f"{len(seen.published) - len(lost)}건 (claim.in 에 {seen.ready}건)",
        run=seen.run,
    )


@pytest.mark.req("M6.3")
def test_M6_3_claim_system_hangs(req: Check, claim_system_hangs: HangRun) -> None:
    seen = claim_system_hangs
    run = seen.consumed.run
    req.expect(
        not run.timed_out,
        f"청구 시스템이 응답하지 않자 --max-seconds {seen.consumed.seconds:g} 인데 "
        f"{seen.timeout_given:g}초 안에 끝나지 않음(HTTP timeout 이 없나요?)",
        run=run,
    )
    req.expect_ran(run, "청구 시스템이 멈춘 채 돌린 consumer.py")
    claim = seen.consumed.published[0]
    calls = seen.consumed.calls(claim)
    req.expect(
        calls >= 2,
        f"응답 없는 청구를 {calls}번 POST: 시간 초과를 일시 오류로 보고 "
        "한 번 되돌렸다면 두 번째 POST 가 와야 합니다",
        run=run,
    )
    kept = seen.consumed.ready + len(seen.consumed.dead)
    req.expect(kept == 1, "청구가 claim.in 에도 claim.dead 에도 없음 (잃음)", run=run)
