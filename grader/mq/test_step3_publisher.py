"""Step 3: publish.py sends the claim persistent, identified, confirmed and mandatory."""

from __future__ import annotations

import pytest

from grader.machinery.partitions import Partition
from grader.machinery.textfile import NotParsed, json_value
from grader.mq import amqp, edges
from grader.mq.records import Published, PublishRuns, RefusedPublish
from grader.verdict import Check


def _one_message(req: Check, edge: Partition, seen: Published) -> amqp.Message:
    __tracebackhide__ = True
    req.expect_ran(seen.run, f"{edge} publish.py")
    req.expect(
        len(seen.messages) == 1,
        f"{edge}: claim.in 에 메시지 {len(seen.messages)}개 (기대: 1)",
        run=seen.run,
    )
    message = seen.messages[0]
    req.expect(not message.unreadable, f"{edge}: claim.in 의 메시지: {message.unreadable}", run=seen.run)
    return message


@pytest.mark.req("M3.1")
def test_M3_1_one_message_with_the_claim_json(req: Check, publish: PublishRuns) -> None:
    for edge, seen in publish.runs:
        body = _one_message(req, edge, seen).body
        try:
            parsed = json_value(body)
        except NotParsed as exc:
            req.fail(f"{edge}: 본문을 JSON 으로 읽을 수 없음({exc.reason}): {body[:80]!r}")
        req.expect(parsed == seen.claim.body, f"{edge}: 본문의 JSON 이 파일과 다름: {body[:120]!r}")


@pytest.mark.req("M3.2")
def test_M3_2_properties_and_route(req: Check, publish: PublishRuns) -> None:
    # Every message that reached claim.in is judged; whether each run published exactly one
    # is M3.1's business (a run that published nothing has nothing to judge here).
    judged = [(edge, seen, m) for edge, seen in publish.runs for m in seen.messages]
    req.expect(
        bool(judged),
        f"{edges.PUBLISH_GOOD}: publish.py 를 {len(publish.runs)}번 돌렸지만 claim.in 에 온 메시지가 없음",
        run=publish.runs[0][1].run,
    )
    for edge, seen, m in judged:
        req.expect(not m.unreadable, f"{edge}: claim.in 의 메시지의 속성을 볼 수 없음: {m.unreadable}")
        p = m.properties
        wrong = [
            f"delivery_mode {p.delivery_mode} (기대 2)" if p.delivery_mode != 2 else "",
            f"message_id {p.message_id!r} (기대 guid {seen.claim.guid})"
            if p.message_id != seen.claim.guid
            else "",
            f"content_type {p.content_type!r} (기대 application/json)"
            if p.content_type != "application/json"
            else "",
            f"교환기 {m.exchange!r}/키 {m.routing_key!r} (기대 eai.claim/claim)"
            if (m.exchange, m.routing_key) != (amqp.CLAIM_EXCHANGE, amqp.CLAIM_KEY)
            else "",
        ]
        req.expect(not any(wrong), f"{edge}: " + "; ".join(w for w in wrong if w))


def _refused(req: Check, seen: RefusedPublish, situation: str) -> None:
    __tracebackhide__ = True
    if not seen.stage_ok:
        raise RuntimeError("the broker did not start refusing publishes (policy not applied)")
    for edge, run in seen.runs:
        req.expect(
            not run.timed_out and run.returncode != 0,
            f"{edge}: {situation} publish.py 가 {run.describe()} (기대: 0 이 아닌 코드)",
            run=run,
        )


@pytest.mark.req("M3.3")
def test_M3_3_unroutable_exits_nonzero(req: Check, unroutable: RefusedPublish) -> None:
    _refused(req, unroutable, "claim 키로 묶인 큐가 없는데")


@pytest.mark.req("M3.4")
def test_M3_4_nacked_exits_nonzero(req: Check, nacked: RefusedPublish) -> None:
    _refused(req, nacked, "브로커가 발행을 거절(nack)했는데")
