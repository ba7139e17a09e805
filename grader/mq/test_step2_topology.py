"""Step 2: topology.py declares two exchanges, two queues, the DLX arguments and two
bindings, in the vhost of EAI_AMQP_URL, and is safe to run twice."""

from __future__ import annotations

import pytest

from grader.mq import amqp, edges
from grader.mq.records import TopologyRuns
from grader.verdict import Check

# Queue arguments that make a queue drop or pass on messages by itself.
REMOVING = frozenset({"x-message-ttl", "x-expires", "x-max-length", "x-max-length-bytes"})
SAFE_AGAIN = (
    "선언만 하세요(queue_delete·queue_purge 없이): 같은 속성으로 다시 선언하면 아무 일도 없고, "
    "기다리던 메시지도 그대로입니다."
)


@pytest.mark.req("M2.1")
def test_M2_1_safe_to_run_twice_in_the_given_vhost(req: Check, topology: TopologyRuns) -> None:
    seen = topology
    req.expect_ran(seen.first, f"{edges.TOPOLOGY_FIRST} topology.py")
    req.expect(
        bool(seen.exchanges or seen.queues),
        f"{edges.TOPOLOGY_FIRST}: EAI_AMQP_URL 의 vhost 에 아무것도 선언되지 않음"
        "(기본 vhost / 에 선언했나요?)",
    )
    req.expect_ran(seen.second, f"{edges.TOPOLOGY_AGAIN} topology.py")
    lost = [
        f"{queue} 에 기다리던 {n}건 중 "
        + ("큐가 없어짐" if seen.left[queue] is None else f"{n - (seen.left[queue] or 0)}건 사라짐")
        for queue, n in seen.waiting.items()
        if n and (seen.left[queue] or 0) < n
    ]
    req.expect(not lost, f"{edges.TOPOLOGY_KEEPS_CLAIMS}: " + ", ".join(lost), SAFE_AGAIN, run=seen.second)


@pytest.mark.req("M2.2")
def test_M2_2_exchanges_direct_durable(req: Check, topology: TopologyRuns) -> None:
    seen = topology
    for name in (amqp.CLAIM_EXCHANGE, amqp.DEAD_EXCHANGE):
        found = seen.exchanges.get(name)
        req.expect(found is not None, f"{edges.EXCHANGES}: {name} 없음 (있는 것: {sorted(seen.exchanges)})")
        assert found is not None
        req.expect(
            found["type"] == "direct" and found["durable"],
            f"{edges.EXCHANGES}: {name} 의 type {found['type']}, durable {found['durable']}",
        )
        req.expect(
            not found.get("auto_delete"),
            f"{edges.EXCHANGES_KEEP}: {name} 이 auto_delete: 마지막 바인딩이 풀리면 교환기가 없어짐",
            hint="exchange_declare 에 auto_delete 를 주지 마세요(기본값 False).",
        )
    internal = seen.exchanges[amqp.CLAIM_EXCHANGE].get("internal")
    req.expect(
        not internal,
        f"{edges.EXCHANGES_KEEP}: {amqp.CLAIM_EXCHANGE} 이 internal: 클라이언트는 이 교환기에 발행할 수 없음",
        hint="exchange_declare 에 internal=True 를 주지 마세요: publish.py 가 발행하는 교환기입니다.",
    )


@pytest.mark.req("M2.3")
def test_M2_3_queues_durable_with_dlx(req: Check, topology: TopologyRuns) -> None:
    seen = topology
    for name in (amqp.CLAIM_QUEUE, amqp.DEAD_QUEUE):
        found = seen.queues.get(name)
        req.expect(
            found is not None and found["durable"],
            f"{edges.QUEUES}: {name} " + ("없음" if found is None else "durable 이 아님"),
        )
    arguments = seen.queues[amqp.CLAIM_QUEUE].get("arguments") or {}
    wrong = {k: arguments.get(k) for k, v in amqp.DLX_ARGUMENTS.items() if arguments.get(k) != v}
    req.expect(not wrong, f"{edges.QUEUES}: claim.in 의 인자 {arguments} (기대: {amqp.DLX_ARGUMENTS})")
    for name in (amqp.CLAIM_QUEUE, amqp.DEAD_QUEUE):
        found = seen.queues[name]
        goes = [flag for flag in ("auto_delete", "exclusive") if found.get(flag)]
        req.expect(
            not goes,
            f"{edges.QUEUES_KEEP}: {name} 이 {', '.join(goes)}: 마지막 소비자나 연결이 떠나면 큐가 "
            "기다리던 청구와 함께 없어짐",
            hint="queue_declare 에 auto_delete·exclusive 를 주지 마세요(기본값 False).",
        )
        removing = {k: v for k, v in (found.get("arguments") or {}).items() if k in REMOVING}
        req.expect(
            not removing,
            f"{edges.QUEUES_KEEP}: {name} 의 인자 {removing}: 큐가 스스로 메시지를 버리거나 넘김",
            hint="유실 없는 큐에는 TTL·길이 제한·만료 인자를 두지 마세요.",
        )


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
        f"{edges.BINDINGS}: 없는 바인딩 "
        + ", ".join(f"{e}→{q}(키 {k})" for e, q, k in missing)
        + f"; 있는 바인딩: {seen.bindings}",
    )
    crossing = [
        (source, queue, key)
        for source, queue, key in seen.bindings
        if (queue == amqp.DEAD_QUEUE and source != amqp.DEAD_EXCHANGE)
        or (queue == amqp.CLAIM_QUEUE and source == amqp.DEAD_EXCHANGE)
    ]
    both = {amqp.CLAIM_EXCHANGE, amqp.DEAD_EXCHANGE}
    crossing += [(s, d, k) for s, d, k in seen.exchange_bindings if {s, d} == both]
    req.expect(
        not crossing,
        f"{edges.BINDINGS_CROSS}: " + ", ".join(f"{s}→{d}(키 {k})" for s, d, k in crossing),
        hint="claim.dead 에는 eai.dlx 만, claim.in 에는 eai.claim 만 바인딩하세요: 그렇지 않으면 청구가 "
        "DLQ 로 복사되거나 죽은 편지가 claim.in 으로 되돌아옵니다.",
    )
