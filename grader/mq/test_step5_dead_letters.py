"""Step 5: a business rejection (422) goes to the dead-letter queue at once."""

from __future__ import annotations

import pytest

from fixtures.claims import Outcome
from grader.mq import amqp
from grader.mq.records import ConsumerRun
from grader.verdict import Check


@pytest.mark.req("M5.1")
def test_M5_1_rejected_once_to_claim_dead(req: Check, business_rejection: ConsumerRun) -> None:
    seen = business_rejection
    claim = next(c for c in seen.published if c.outcome is Outcome.NO_DOCS)
    calls = seen.calls(claim)
    req.expect(calls == 1, f"서류 없는 청구(422)를 {calls}번 POST (기대: 1번)", run=seen.run)
    dead = [m for m in seen.dead if m.properties.message_id == claim.guid]
    req.expect(
        len(dead) == 1, f"422 청구가 claim.dead 에 {len(dead)}건 (claim.in 에 {seen.ready}건)", run=seen.run
    )
    deaths = dead[0].headers.get("x-death") or [{}]
    first = deaths[0]
    req.expect(
        first.get("reason") == "rejected" and first.get("queue") == amqp.CLAIM_QUEUE,
        f"x-death: reason {first.get('reason')!r}, queue {first.get('queue')!r} (기대: rejected, claim.in)",
    )
