"""Step 2: topology.py declares two exchanges, two queues, the DLX arguments and two
bindings, in the vhost of EAI_AMQP_URL, and is safe to run twice."""

from __future__ import annotations

import pytest

from grader.mq import amqp
from grader.mq.records import TopologyRuns
from grader.verdict import Check


@pytest.mark.req("M2.1")
def test_M2_1_runs_twice_in_the_given_vhost(req: Check, topology: TopologyRuns) -> None:
    seen = topology
    for n, run in enumerate(seen.runs, start=1):
        req.expect_ran(run, f"topology.py {n}번째 실행")
    req.expect(
        bool(seen.exchanges or seen.queues),
        "EAI_AMQP_URL 의 vhost 에 아무것도 선언되지 않음(기본 vhost / 에 선언했나요?)",
    )


@pytest.mark.req("M2.2")
def test_M2_2_exchanges_direct_durable(req: Check, topology: TopologyRuns) -> None:
    seen = topology
    for name in (amqp.CLAIM_EXCHANGE, amqp.DEAD_EXCHANGE):
        found = seen.exchanges.get(name)
        req.expect(found is not None, f"교환기 {name} 없음 (있는 것: {sorted(seen.exchanges)})")
        assert found is not None
        req.expect(
            found["type"] == "direct" and found["durable"],
            f"{name}: type {found['type']}, durable {found['durable']}",
        )


@pytest.mark.req("M2.3")
def test_M2_3_queues_durable_with_dlx(req: Check, topology: TopologyRuns) -> None:
    seen = topology
    for name in (amqp.CLAIM_QUEUE, amqp.DEAD_QUEUE):
        found = seen.queues.get(name)
        req.expect(
            found is not None and found["durable"],
            f"큐 {name}: " + ("없음" if found is None else "durable 이 아님"),
        )
    arguments = seen.queues[amqp.CLAIM_QUEUE].get("arguments") or {}
    wrong = {k: arguments.get(k) for k, v in amqp.DLX_ARGUMENTS.items() if arguments.get(k) != v}
    req.expect(not wrong, f"claim.in 의 인자 {arguments} (기대: {amqp.DLX_ARGUMENTS})")


@pytest.mark.req("M2.4")
def test_M2_4_bindings(req: Check, topology: TopologyRuns) -> None:
    seen = topology
    expected = [
        (amqp.CLAIM_EXCHANGE, amqp.CLAIM_QUEUE, amqp.CLAIM_KEY),
        (amqp.DEAD_EXCHANGE, amqp.DEAD_QUEUE, amqp.DEAD_KEY),
    ]
    missing = [b for b in expected if b not in seen.bindings]
    req.expect(
        not missing,
        "없는 바인딩: "
        + ", ".join(f"{e}→{q}(키 {k})" for e, q, k in missing)
        + f"; 있는 바인딩: {seen.bindings}",
    )
