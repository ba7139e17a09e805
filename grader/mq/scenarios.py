"""Behaviour scenarios of the mq lab. Each runs in its own vhost with its own partner process
and random claims, and records what the broker and the claim system saw."""

from __future__ import annotations

import signal
import socket
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from fixtures.claims import Claim, claim_set
from grader.machinery.runner import RunResult
from grader.mq import amqp
from grader.mq.lab import GRACE, MqLab, Scene
from grader.verdict import Missing

ScenarioResult = Any


def _missing(lab: MqLab, *scripts: str) -> Missing | None:
    lab.stage.get()  # the broker is up and the lab root laid out and saved
    for script in scripts:
        if not (lab.live / script).is_file():
            return Missing(lab.shown(script))
    return None


def _claims(lab: MqLab, name: str, good: int = 0, no_docs: int = 0, busy: int = 0) -> list[Claim]:
    return list(claim_set(lab.grading.rng(name), good, no_docs, busy).files)


# step 2 ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TopologyRuns:
    runs: tuple[RunResult, RunResult]
    exchanges: dict[str, dict[str, Any]]  # name -> management API view (type, durable, ...)
    queues: dict[str, dict[str, Any]]
    bindings: list[tuple[str, str, str]]  # (source exchange, destination queue, routing key)


def topology(lab: MqLab) -> TopologyRuns | Missing:
    """M2.1–M2.4: topology.py twice in an empty vhost, then the vhost inspected exactly."""
    if missing := _missing(lab, "topology.py"):
        return missing
    with lab.scene("topology", partner=False) as scene:
        runs = (scene.run("topology.py"), scene.run("topology.py"))
        api, vh = scene.broker.api, scene.broker.q(scene.vhost)
        exchanges = {e["name"]: e for e in api("GET", f"exchanges/{vh}") or []
                     if e["name"] and not e["name"].startswith("amq.")}
        queues = {q["name"]: q for q in api("GET", f"queues/{vh}") or []}
        bindings = [(b["source"], b["destination"], b["routing_key"])
                    for b in api("GET", f"bindings/{vh}") or []
                    if b["source"] and b["destination_type"] == "queue"]
    return TopologyRuns(runs, exchanges, queues, bindings)


# step 3 ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PublishRun:
    claim: Claim
    run: RunResult
    messages: list[amqp.Message]  # what reached claim.in


@dataclass(frozen=True)
class RefusedPublish:
    run: RunResult
    stage_ok: bool  # the broker really refused (checked with the grader's own publisher)


def _claim_file(lab: MqLab, claim: Claim) -> str:
    path = lab.grading.scratch_dir("claim") / claim.name
    path.write_bytes(claim.data)
    return str(path)


def publish(lab: MqLab) -> PublishRun | Missing:
    """M3.1–M3.2: publish.py with a random claim into the lab's topology."""
    if missing := _missing(lab, "publish.py"):
        return missing
    claim = _claims(lab, "publish", good=1)[0]
    with lab.scene("publish", partner=False) as scene:
        amqp.declare_topology(scene.url)
        run = scene.run("publish.py", [_claim_file(lab, claim)])
        return PublishRun(claim, run, amqp.drain(scene.url, amqp.CLAIM_QUEUE))


def unroutable(lab: MqLab) -> RefusedPublish | Missing:
    """M3.3: eai.claim exists but nothing is bound for `claim`."""
    if missing := _missing(lab, "publish.py"):
        return missing
    claim = _claims(lab, "unroutable", good=1)[0]
    with lab.scene("unroutable", partner=False) as scene:
        amqp.declare_topology(scene.url, bind_claim=False)
        return RefusedPublish(scene.run("publish.py", [_claim_file(lab, claim)]), True)


def nacked(lab: MqLab) -> RefusedPublish | Missing:
    """M3.4: a policy (max-length 0, reject-publish) makes the broker nack every publish."""
    if missing := _missing(lab, "publish.py"):
        return missing
    claim = _claims(lab, "nacked", good=1)[0]
    with lab.scene("nacked", partner=False) as scene:
        amqp.declare_topology(scene.url)
        scene.broker.set_policy(scene.vhost, "grader-reject", r"^claim\.in$",
                                {"max-length": 0, "overflow": "reject-publish"})
        deadline = time.monotonic() + 10
        while not (in_force := amqp.nacks_publish(scene.url)) and time.monotonic() < deadline:
            time.sleep(0.1)
        return RefusedPublish(scene.run("publish.py", [_claim_file(lab, claim)]), in_force)


# steps 4-6: one consumer run against the partner ---------------------------------------------
@dataclass(frozen=True)
class ConsumerRun:
    seconds: float  # --max-seconds given
    published: list[Claim]
    run: RunResult
    stats: dict[str, Any]  # the partner's /_stats at the end
    ready: int  # left in claim.in
    dead: list[amqp.Message]  # what claim.dead holds

    def calls(self, claim: Claim) -> int:
        return int(self.stats["by_guid"].get(claim.guid, 0))

    def bodies(self, claim: Claim) -> list[str]:
        return [c["body"] for c in self.stats["calls"] if c["guid"] == claim.guid]

    def dead_guids(self) -> list[str]:
        return [str(m.properties.message_id) for m in self.dead]


def _consume(scene: Scene, claims: list[Claim], seconds: float, *extra: str,
             claim_url: str | None = None, timeout: float | None = None,
             while_running: Callable[[], None] | None = None) -> ConsumerRun:
    amqp.declare_topology(scene.url)
    amqp.publish(scene.url, *claims)
    process = scene.consumer(seconds, *extra, claim_url=claim_url)
    if while_running is not None:
        while_running()
    run = process.wait(timeout or seconds + GRACE)
    if scene.partner is not None:
        scene.partner.control(mode="normal")  # release anything still held
    stats = scene.partner.stats() if scene.partner else {"by_guid": {}, "calls": []}
    ready = amqp.ready(scene.url, amqp.CLAIM_QUEUE) or 0
    return ConsumerRun(seconds, claims, run, stats, ready, amqp.drain(scene.url, amqp.DEAD_QUEUE))


def _consumer_scenario(name: str, seconds: float, partner: bool = True, **kinds: int
                       ) -> Callable[[MqLab], ScenarioResult]:
    def scenario(lab: MqLab) -> ConsumerRun | Missing:
        if missing := _missing(lab, "consumer.py"):
            return missing
        claims = _claims(lab, name, **kinds)
        with lab.scene(name, partner=partner) as scene:
            if partner:
                return _consume(scene, claims, seconds)
            # A port bound but never listened on refuses every connection, and stays ours.
            with socket.socket() as down:
                down.bind(("127.0.0.1", 0))
                url = f"http://127.0.0.1:{down.getsockname()[1]}"
                return _consume(scene, claims, seconds, claim_url=url)
    scenario.__name__ = name
    return scenario


@dataclass(frozen=True)
class HangRun:
    consumed: ConsumerRun
    timeout_given: float


def claim_system_hangs(lab: MqLab) -> HangRun | Missing:
    """M6.3: the partner holds every request; the consumer must time out, treat it as
    transient, and still end near --max-seconds."""
    if missing := _missing(lab, "consumer.py"):
        return missing
    seconds, timeout = 6.0, 6.0 + 10.0
    claims = _claims(lab, "hang", good=1)
    with lab.scene("hang") as scene:
        assert scene.partner is not None
        scene.partner.control(mode="hang")
        return HangRun(_consume(scene, claims, seconds, timeout=timeout), timeout)


# step 4: the kill test -----------------------------------------------------------------------
@dataclass(frozen=True)
class KillRun:
    published: int
    held: bool  # the partner held a request when the consumer was killed
    # (ready, unacked) in claim.in and ready in claim.dead while the partner held the request:
    # a call that timed out meanwhile may have been dead-lettered, which is no ack
    during: tuple[int, int, int]
    after_ready: int
    after_dead: int
    accepted: int  # 201s the partner sent
    run: RunResult


def killed_mid_request(lab: MqLab) -> KillRun | Missing:
    """M4.3–M4.4: SIGKILL the consumer while the partner holds its request."""
    if missing := _missing(lab, "consumer.py"):
        return missing
    claims = _claims(lab, "kill", good=3)
    with lab.scene("kill") as scene:
        partner = scene.partner
        assert partner is not None
        partner.control(mode="hang")
        amqp.declare_topology(scene.url)
        amqp.publish(scene.url, *claims)
        process = scene.consumer(30)
        held = partner.wait_for(lambda s: s["in_flight"] >= 1, timeout=10)
        during = _live_counts(scene)
        process.signal(signal.SIGKILL)
        run = process.wait(5)
        partner.control(mode="drop")  # the held request ends unanswered: no 201 to a dead client
        accepted = sum(1 for c in partner.stats()["calls"] if c["status"] == 201)
        return KillRun(len(claims), held, during,
                       amqp.wait_ready(scene.url, amqp.CLAIM_QUEUE, len(claims) - accepted, 3) or 0,
                       amqp.ready(scene.url, amqp.DEAD_QUEUE) or 0, accepted, run)


def _live_counts(scene: Scene) -> tuple[int, int, int]:
    """(ready, unacked) of claim.in and ready of claim.dead right now, from rabbitmqctl."""
    if scene.broker.ctl is None:
        return (-1, -1, -1)
    out = scene.broker.ctl(["-q", "list_queues", "-p", scene.vhost, "name", "messages_ready",
                            "messages_unacknowledged"], 60)
    counts: dict[str, tuple[int, int]] = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            counts[parts[0]] = (int(parts[1]), int(parts[2]))
    ready, unacked = counts.get(amqp.CLAIM_QUEUE, (0, 0))
    return ready, unacked, counts.get(amqp.DEAD_QUEUE, (0, 0))[0]


def _settled(scene: Scene, timeout: float) -> tuple[int, int, int]:
    """Wait until claim.in holds nothing, ready or unacked (every delivery acked or
    dead-lettered); then, or at ``timeout``, (ready, unacked) of claim.in and claim.dead's ready.
    Without rabbitmqctl only ready messages can be seen."""
    deadline = time.monotonic() + timeout
    while True:
        ready, unacked, dead = _live_counts(scene)
        if ready < 0:
            ready, unacked = amqp.ready(scene.url, amqp.CLAIM_QUEUE) or 0, 0
            dead = amqp.ready(scene.url, amqp.DEAD_QUEUE) or 0
        if ready + unacked == 0 or time.monotonic() > deadline:
            return ready, unacked, dead
        time.sleep(0.1)


# step 7 --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PrefetchRun:
    prefetch: int
    samples: list[int]  # live unacked of claim.in
    consumers: list[tuple[str, bool, int]]  # (queue, ack_required, prefetch_count)
    run: RunResult
    published: int


def _prefetch(lab: MqLab, name: str, prefetch: int, *extra: str) -> PrefetchRun | Missing:
    if missing := _missing(lab, "consumer.py"):
        return missing
    claims = _claims(lab, name, good=24)
    with lab.scene(name) as scene:
        assert scene.partner is not None
        scene.partner.control(delay=1.0)  # a slow claim system: 24 claims take 24 s
        amqp.declare_topology(scene.url)
        amqp.publish(scene.url, *claims)
        seconds = 8.0  # outlives the sampling even on a loaded machine
        process = scene.consumer(seconds, *extra)
        scene.partner.wait_for(lambda s: s["in_flight"] >= 1, timeout=5)
        with ThreadPoolExecutor(max_workers=1) as side:  # both rabbitmqctl calls at once
            settings = side.submit(scene.broker.consumers, scene.vhost)
            samples = scene.broker.sample_unacked(scene.vhost, amqp.CLAIM_QUEUE, 2.5)
            consumers = settings.result()
        run = process.wait(seconds + GRACE)
        return PrefetchRun(prefetch, samples, consumers, run, len(claims))


def prefetch_default(lab: MqLab) -> PrefetchRun | Missing:
    """M7.1: no --prefetch: never more than 5 unacked, and 5 reached, before a slow partner."""
    return _prefetch(lab, "prefetch5", 5)


def prefetch_two(lab: MqLab) -> PrefetchRun | Missing:
    """M7.2: --prefetch 2."""
    return _prefetch(lab, "prefetch2", 2, "--prefetch", "2")


# step 8 --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DedupRuns:
    claim: Claim
    first: RunResult
    calls_after_first: int
    calls_after_same_process_repeat: int
    # claim.in (ready + unacked) after the repeat inside the same process: a duplicate the
    # consumer holds without acking is unacked, not ready, until it ends
    ready_after_repeat: int
    second: RunResult
    calls_after_restart: int
    ready_after_restart: int
    db_exists: bool
    db_is_sqlite: bool
    dead: int = 0
    dead_after_repeat: int = 0  # claim.dead then: a duplicate rejected is not acked either


def dedup(lab: MqLab) -> DedupRuns | Missing:
    """M8.1–M8.3: a processed message_id published again, to the same process and after a
    restart on the same EAI_MQ_DB."""
    if missing := _missing(lab, "consumer.py"):
        return missing
    claim = _claims(lab, "dedup", good=1)[0]
    with lab.scene("dedup") as scene:
        partner = scene.partner
        assert partner is not None
        amqp.declare_topology(scene.url)
        amqp.publish(scene.url, claim)
        process = scene.consumer(4.0)
        partner.wait_for(lambda s: s["by_status"].get("201", 0) >= 1, timeout=5)
        # Record, then ack: nothing outside the student's own database shows when it has
        # recorded, so give it a moment before the same message_id comes again.
        time.sleep(0.3)
        after_first = partner.calls(claim.guid)
        amqp.publish(scene.url, claim)
        ready, unacked, dead_repeat = _settled(scene, timeout=3)  # a POST comes before its ack
        after_repeat = partner.calls(claim.guid)
        first = process.wait(4.0 + GRACE)
        amqp.publish(scene.url, claim)
        second = scene.consumer(3.0).wait(3.0 + GRACE)  # whole seconds (int --max-seconds)
        db = scene.db
        header = db.read_bytes()[:16] if db.is_file() else b""
        return DedupRuns(
            claim, first, after_first, after_repeat, ready + unacked, second,
            partner.calls(claim.guid), amqp.ready(scene.url, amqp.CLAIM_QUEUE) or 0,
            db.is_file(), header == b"SQLite format 3\0",
            amqp.ready(scene.url, amqp.DEAD_QUEUE) or 0, dead_repeat,
        )


@dataclass(frozen=True)
class RecordOnSuccess:
    claim: Claim
    first: ConsumerRun
    second: ConsumerRun


def record_only_success(lab: MqLab) -> RecordOnSuccess | Missing:
    """M8.4: a claim that went to claim.dead, published again once the partner accepts it,
    is POSTed again and acked."""
    if missing := _missing(lab, "consumer.py"):
        return missing
    claim = _claims(lab, "record", busy=1)[0]
    with lab.scene("record") as scene:
        assert scene.partner is not None
        first = _consume(scene, [claim], 3.0)  # whole seconds: an int --max-seconds is fine too
        scene.partner.control(accept_busy=True)
        second = _consume(scene, [claim], 3.0)
        return RecordOnSuccess(claim, first, second)


SCENARIOS: dict[str, Callable[[MqLab], ScenarioResult]] = {
    "topology": topology,
    "publish": publish,
    "unroutable": unroutable,
    "nacked": nacked,
    "good_claims": _consumer_scenario("good_claims", 3.0, good=5),
    "killed_mid_request": killed_mid_request,
    "business_rejection": _consumer_scenario("business_rejection", 3.0, good=1, no_docs=1),
    "busy_claim": _consumer_scenario("busy_claim", 4.0, good=1, busy=1),
    "claim_system_down": _consumer_scenario("claim_system_down", 3.0, partner=False, good=2),
    "claim_system_hangs": claim_system_hangs,
    "prefetch_default": prefetch_default,
    "prefetch_two": prefetch_two,
    "dedup": dedup,
    "record_only_success": record_only_success,
}

