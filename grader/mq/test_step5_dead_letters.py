"""Step 5: a business rejection (422) goes to the dead-letter queue at once."""

from __future__ import annotations

import pytest

from fixtures.claims import Outcome
from grader.machinery.partitions import Partition
from grader.mq import amqp, edges
from grader.mq.records import ConsumerRun
from grader.verdict import Check


def _rejected(req: Check, edge: Partition, seen: ConsumerRun) -> None:
    __tracebackhide__ = True
    for claim in (c for c in seen.published if c.outcome is Outcome.NO_DOCS):
        calls = seen.calls(claim)
        req.expect(calls == 1, f"{edge}: 서류 없는 청구(422)를 {calls}번 POST (기대: 1번)", run=seen.run)
        dead = [m for m in seen.dead if m.properties.message_id == claim.guid]
        req.expect(
            len(dead) == 1 and claim.guid not in seen.left_guids(),
            f"{edge}: 422 청구가 claim.dead 에 {len(dead)}건, claim.in 에 "
            f"{seen.left_guids().count(claim.guid)}건 (기대: 1, 0)",
            run=seen.run,
        )
        deaths = dead[0].headers.get("x-death")  # a script may have written its own, of any shape
        first = deaths[0] if isinstance(deaths, list) and deaths and isinstance(deaths[0], dict) else {}
        req.expect(
            first.get("reason") == "rejected" and first.get("queue") == amqp.CLAIM_QUEUE,
            f"{edge}: x-death reason {first.get('reason')!r}, queue {first.get('queue')!r} "
            "(기대: rejected, claim.in)",
        )


@pytest.mark.req("M5.1")
def test_M5_1_rejected_once_to_claim_dead(
    req: Check, one_of_each: ConsumerRun, mixed_claims: ConsumerRun
) -> None:
    _rejected(req, edges.REJECT_ONE, one_of_each)
    _rejected(req, edges.REJECT_SEVERAL, mixed_claims)
