"""Step 6: a transient failure (503, connection refused, timeout) gets one more try, then the
dead-letter queue; the consumer survives it."""

from __future__ import annotations

import pytest

from fixtures.claims import Outcome
from grader.machinery.partitions import Partition
from grader.mq import edges
from grader.mq.records import ConsumerRun
from grader.mq.scenarios import HANG_TWICE_BOUND
from grader.verdict import Check


def _busy_twice(req: Check, edge: Partition, seen: ConsumerRun) -> None:
    __tracebackhide__ = True
    for claim in (c for c in seen.published if c.outcome is Outcome.BUSY):
        calls = seen.calls(claim)
        req.expect(calls == 2, f"{edge}: BUSY 청구(503)를 {calls}번 POST (기대: 정확히 2번)", run=seen.run)
        req.expect(
            claim.guid in seen.dead_guids(),
            f"{edge}: BUSY 청구가 claim.dead 에 없음 (claim.in 에 {seen.left_guids().count(claim.guid)}건)",
            run=seen.run,
        )


def _accepted_on_the_retry(req: Check, edge: Partition, seen: ConsumerRun) -> None:
    __tracebackhide__ = True
    repeat = seen.repeat
    for claim in (c for c in seen.published if c.outcome is Outcome.BUSY_ONCE):
        if repeat is not None and claim in repeat.claims:  # as things stood before its repeat (M8.1's)
            calls = repeat.calls_before[repeat.claims.index(claim)]
            dead, left = repeat.dead_before.count(claim.guid), 0  # claim.in held nothing then
        else:
            calls = seen.calls(claim)
            dead, left = seen.dead_guids().count(claim.guid), seen.left_guids().count(claim.guid)
        req.expect(
            calls == 2,
            f"{edge}: 처음에 503 을 받은 청구를 {calls}번 POST (기대: 정확히 2번, 두 번째에 201)",
            "일시 오류(503)는 한 번 더 시도하세요(nack requeue 등): 다시 온 메시지(redelivered)도"
            " 청구 시스템을 부르고, 그 답으로 처리합니다.",
            run=seen.run,
        )
        req.expect(
            calls < 2 or not (dead or left),
            f"{edge}: 재시도에서 201 을 받은 청구를 ack 하지 않음 (claim.dead {dead}건, claim.in {left}건)",
            "다시 온 메시지라도 201 이면 성공입니다: 기록하고 ack 하세요. DLQ 로 보내는 것은 다시"
            " 실패했을 때뿐입니다.",
            run=seen.run,
        )


@pytest.mark.req("M6.1")
def test_M6_1_busy_twice_then_dead(req: Check, one_of_each: ConsumerRun, mixed_claims: ConsumerRun) -> None:
    _busy_twice(req, edges.BUSY_ONE, one_of_each)
    _busy_twice(req, edges.BUSY_SEVERAL, mixed_claims)
    _accepted_on_the_retry(req, edges.BUSY_THEN_ACCEPTED, mixed_claims)


@pytest.mark.req("M6.2")
def test_M6_2_claim_system_down(req: Check, claim_system_down: ConsumerRun) -> None:
    seen, edge = claim_system_down, edges.REFUSED
    req.expect(
        not seen.crashed(), f"{edge}: consumer.py 가 {seen.run.describe()} (죽으면 안 됨)", run=seen.run
    )
    dead = set(seen.dead_guids())
    lost = [c.guid for c in seen.published if c.guid not in dead]
    req.expect(
        not lost,
        f"{edge}: 연결이 거부된 청구 {len(seen.published)}건 중 claim.dead 에 "
        f"{len(seen.published) - len(lost)}건 (claim.in 에 {seen.ready}건)",
        run=seen.run,
    )


@pytest.mark.req("M6.3")
def test_M6_3_claim_system_hangs(
    req: Check, claim_system_hangs_busy: ConsumerRun, claim_system_hangs_twice: ConsumerRun
) -> None:
    busy, edge = claim_system_hangs_busy, edges.HANG_BUSY
    held = busy.held_when_stopped
    waiting = " 응답 없는 청구 시스템을 기다리는 중(HTTP timeout 이 없나요?)" if held else ""
    remaining = f"claim.in 에 청구 {busy.ready}건이 남은 채"
    req.expect(
        not (busy.run.timed_out and (busy.ready > 0 or busy.held_when_stopped)),
        f"{edge}: --max-seconds {busy.seconds:g} 인데 {busy.counted_from} 뒤 "
        f"{busy.seconds + busy.grace:g}초가 지나도 끝나지 않음 ({remaining}){waiting}",
        "요청마다 timeout 을 주고, 큐가 비지 않아도 메시지마다 남은 시간을 확인하세요"
        "(inactivity_timeout 은 쉬는 시간만 잽니다).",
        run=busy.run,
    )
    req.expect(
        not busy.crashed(),
        f"{edge}: 시간 초과에 consumer.py 가 {busy.run.describe()} (죽으면 안 됨)",
        run=busy.run,
    )
    kept = set(busy.dead_guids()) | set(busy.left_guids())
    lost = sum(c.guid not in kept for c in busy.published)
    req.expect(
        not lost, f"{edge}: 응답 없는 청구 {lost}건이 claim.in 에도 claim.dead 에도 없음 (잃음)", run=busy.run
    )
    twice, edge = claim_system_hangs_twice, edges.HANG_TWICE
    run = twice.run
    req.expect(
        not twice.crashed(), f"{edge}: 시간 초과에 consumer.py 가 {run.describe()} (죽으면 안 됨)", run=run
    )
    claim = twice.published[0]
    calls = twice.calls(claim)
    dead, left = claim.guid in twice.dead_guids(), claim.guid in twice.left_guids()
    req.expect(calls > 0, f"{edge}: 청구 시스템을 한 번도 부르지 않음", run=run)
    req.expect(dead or left, f"{edge}: 응답 없는 청구가 claim.in 에도 claim.dead 에도 없음 (잃음)", run=run)
    req.expect(
        not (dead and calls < 2),
        f"{edge}: 시간 초과 한 번({calls}번 POST) 만에 claim.dead 로 보냄: 일시 오류는 한 번 되돌려야 합니다",
        run=run,
    )
    # One call, still held when the grader stopped it, HANG_TWICE_BOUND s after it began with
    # the deadline far off: its timeout is as long as the run (the time left, or none), so no
    # hang is ever redelivered and failed again (blind population mk-timeout-remaining).
    req.expect(
        not (left and calls == 1 and twice.held_when_stopped),
        f"{edge}: --max-seconds 60 인데 응답 없는 청구 시스템에 보낸 첫 요청이 "
        f"{HANG_TWICE_BOUND:g}초가 지나도 시간 초과로 끝나지 않음: 요청의 timeout 이 실행 시간만큼 길면 "
        "되돌린 청구가 재배달되지 못합니다",
        "요청마다 --max-seconds 와 상관없는 짧은 timeout(예: 5초)을 주세요: 시간 초과 → 되돌림 → 재배달 → "
        "또 실패하면 claim.dead.",
        run=run,
    )
    # Requeued after its redelivery failed: POSTed a third time, or left in claim.in after two
    # calls the consumer itself gave up on (none held when the grader stopped it).
    req.expect(
        not (calls >= 3 or (left and calls == 2 and not twice.held_when_stopped)),
        f"{edge}: {calls}번 시간 초과된 청구가 claim.dead 로 가지 않음: 재배달된 메시지가 또 실패하면 "
        "claim.dead 로 보내야 합니다",
        "method.redelivered 가 True 인데 또 실패하면 reject(requeue=False).",
        run=run,
    )
