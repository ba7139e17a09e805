"""Behaviour scenarios of the mq lab. Each runs in its own vhost with its own partner process
and random claims, and records what the broker and the claim system saw (records.py)."""

from __future__ import annotations

import signal
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from fixtures.claims import Claim, claim_set
from grader.mq import amqp
from grader.mq.lab import GRACE, MqLab, Scene, Stage
from grader.mq.records import (
    ConsumerRun,
    DedupRuns,
    HangRun,
    KillRun,
    PrefetchRun,
    PublishRun,
    QueueCounts,
    RecordOnSuccess,
    RefusedPublish,
    TopologyRuns,
)
from grader.scenario import Scenarios
from grader.verdict import Missing

scenarios: Scenarios[MqLab] = Scenarios("mq", lab_fixture="mq_lab")

# How long the consumer runs in each scenario (--max-seconds). Whole seconds, so a student's
# `type=int` for --max-seconds is graded like `type=float`.
SHORT_RUN = 3.0  # a few claims against a partner that answers at once
BUSY_RUN = 4.0  # a BUSY claim: two POSTs with a requeue between them
HANG_RUN = 6.0  # the partner never answers: the consumer's HTTP timeout must end each call
HANG_LIMIT = HANG_RUN + 10.0  # ... and it must still end by itself within this
KILL_RUN = 30.0  # killed long before: the partner holds its request meanwhile
PREFETCH_RUN = 8.0  # outlives the unacked sampling even on a loaded machine
DEDUP_FIRST_RUN = 4.0  # the first consumer: the claim, then the same message_id again
DEDUP_SECOND_RUN = 3.0  # a new consumer process on the same EAI_MQ_DB
# Other waits
PARTNER_DELAY = 1.0  # seconds the slow claim system takes per claim (prefetch scenarios)
PREFETCH_CLAIMS = 24  # 24 s of work at PARTNER_DELAY: the queue stays busy while sampled
SAMPLE_SECONDS = 2.5  # live unacked sampled this long, every 50 ms
HELD_WAIT = 10.0  # for the consumer's first request to reach a holding partner
NACK_POLICY_WAIT = 10.0  # for the reject-publish policy to take effect
RECORD_GRACE = 0.3  # between the 201 and the repeat: the record is written, then acked
SETTLE_WAIT = 3.0  # for a repeated message to be acked (or not)
AFTER_KILL = 5.0  # for a SIGKILLed consumer to be reaped and its messages requeued
FIRST_201_WAIT = 5.0  # for the dedup scenario's first claim to be accepted


@pytest.fixture(scope="session")
def mq_stage(mq_lab: MqLab) -> Stage:
    """The broker is up and the student's files are saved (a broker fault is an ERROR)."""
    return mq_lab.stage.get()


def _missing(lab: MqLab, *scripts: str) -> Missing | None:
    lab.stage.get()  # the broker is up and the lab root laid out and saved
    for script in scripts:
        if not (lab.live / script).is_file():
            return Missing(lab.shown(script))
    return None


def _claims(lab: MqLab, name: str, good: int = 0, no_docs: int = 0, busy: int = 0) -> list[Claim]:
    return list(claim_set(lab.grading.rng(name), good, no_docs, busy).files)


def _claim_file(lab: MqLab, claim: Claim) -> str:
    path = lab.grading.scratch_dir("claim") / claim.name
    path.write_bytes(claim.data)
    return str(path)


# step 2 ------------------------------------------------------------------------------------
@scenarios
def topology(lab: MqLab) -> TopologyRuns | Missing:
    """M2.1–M2.4: topology.py twice in an empty vhost, then the vhost inspected exactly."""
    if missing := _missing(lab, "topology.py"):
        return missing
    with lab.scene("topology", partner=False) as scene:
        runs = (scene.run("topology.py"), scene.run("topology.py"))
        api, vh = scene.broker.api, scene.broker.q(scene.vhost)
        exchanges = {
            e["name"]: e
            for e in api("GET", f"exchanges/{vh}") or []
            if e["name"] and not e["name"].startswith("amq.")
        }
        queues = {q["name"]: q for q in api("GET", f"queues/{vh}") or []}
        bindings = [
            (b["source"], b["destination"], b["routing_key"])
            for b in api("GET", f"bindings/{vh}") or []
            if b["source"] and b["destination_type"] == "queue"
        ]
    return TopologyRuns(runs=runs, exchanges=exchanges, queues=queues, bindings=bindings)


# step 3 ------------------------------------------------------------------------------------
@scenarios
def publish(lab: MqLab) -> PublishRun | Missing:
    """M3.1–M3.2: publish.py with a random claim into the lab's topology."""
    if missing := _missing(lab, "publish.py"):
        return missing
    claim = _claims(lab, "publish", good=1)[0]
    with lab.scene("publish", partner=False) as scene:
        amqp.declare_topology(scene.url)
        run = scene.run("publish.py", [_claim_file(lab, claim)])
        return PublishRun(claim=claim, run=run, messages=amqp.drain(scene.url, amqp.CLAIM_QUEUE))


@scenarios
def unroutable(lab: MqLab) -> RefusedPublish | Missing:
    """M3.3: eai.claim exists but nothing is bound for `claim`."""
    if missing := _missing(lab, "publish.py"):
        return missing
    claim = _claims(lab, "unroutable", good=1)[0]
    with lab.scene("unroutable", partner=False) as scene:
        amqp.declare_topology(scene.url, bind_claim=False)
        run = scene.run("publish.py", [_claim_file(lab, claim)])
        return RefusedPublish(run=run, stage_ok=True)


@scenarios
def nacked(lab: MqLab) -> RefusedPublish | Missing:
    """M3.4: a policy (max-length 0, reject-publish) makes the broker nack every publish."""
    if missing := _missing(lab, "publish.py"):
        return missing
    claim = _claims(lab, "nacked", good=1)[0]
    with lab.scene("nacked", partner=False) as scene:
        amqp.declare_topology(scene.url)
        scene.broker.set_policy(
            scene.vhost, "grader-reject", r"^claim\.in$", {"max-length": 0, "overflow": "reject-publish"}
        )
        deadline = time.monotonic() + NACK_POLICY_WAIT
        while not (in_force := amqp.nacks_publish(scene.url)) and time.monotonic() < deadline:
            time.sleep(0.1)
        run = scene.run("publish.py", [_claim_file(lab, claim)])
        return RefusedPublish(run=run, stage_ok=in_force)


# steps 4-6: one consumer run against the partner ---------------------------------------------
def _consume(
    scene: Scene,
    claims: list[Claim],
    seconds: float,
    *extra: str,
    claim_url: str | None = None,
    timeout: float | None = None,
) -> ConsumerRun:
    """Publish ``claims`` with the grader's own publisher, run consumer.py once, look."""
    amqp.declare_topology(scene.url)
    amqp.publish(scene.url, *claims)
    run = scene.consumer(seconds, *extra, claim_url=claim_url).wait(timeout or seconds + GRACE)
    if scene.partner is not None:
        scene.partner.control(mode="normal")  # release anything still held
    stats = scene.partner.stats() if scene.partner else {"by_guid": {}, "calls": []}
    return ConsumerRun(
        seconds=seconds,
        published=claims,
        run=run,
        stats=stats,
        ready=amqp.ready(scene.url, amqp.CLAIM_QUEUE) or 0,
        dead=amqp.drain(scene.url, amqp.DEAD_QUEUE),
    )


def _consumer_run(lab: MqLab, name: str, seconds: float, **kinds: int) -> ConsumerRun | Missing:
    if missing := _missing(lab, "consumer.py"):
        return missing
    claims = _claims(lab, name, **kinds)
    with lab.scene(name) as scene:
        return _consume(scene, claims, seconds)


@scenarios
def good_claims(lab: MqLab) -> ConsumerRun | Missing:
    """M4.1–M4.2: good claims only."""
    return _consumer_run(lab, "good_claims", SHORT_RUN, good=5)


@scenarios
def business_rejection(lab: MqLab) -> ConsumerRun | Missing:
    """M5.1: a claim without documents (422) beside a good one."""
    return _consumer_run(lab, "business_rejection", SHORT_RUN, good=1, no_docs=1)


@scenarios
def busy_claim(lab: MqLab) -> ConsumerRun | Missing:
    """M6.1: a BUSY claim (503) beside a good one."""
    return _consumer_run(lab, "busy_claim", BUSY_RUN, good=1, busy=1)


@scenarios
def claim_system_down(lab: MqLab) -> ConsumerRun | Missing:
    """M6.2: the claim system refuses every connection."""
    if missing := _missing(lab, "consumer.py"):
        return missing
    claims = _claims(lab, "claim_system_down", good=2)
    with lab.scene("claim_system_down", partner=False) as scene, socket.socket() as down:
        # A port bound but never listened on refuses every connection, and stays ours.
        down.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{down.getsockname()[1]}"
        return _consume(scene, claims, SHORT_RUN, claim_url=url)


@scenarios
def claim_system_hangs(lab: MqLab) -> HangRun | Missing:
    """M6.3: the partner holds every request; the consumer must time out, treat it as
    transient, and still end near --max-seconds."""
    if missing := _missing(lab, "consumer.py"):
        return missing
    claims = _claims(lab, "hang", good=1)
    with lab.scene("hang") as scene:
        assert scene.partner is not None
        scene.partner.control(mode="hang")
        consumed = _consume(scene, claims, HANG_RUN, timeout=HANG_LIMIT)
        return HangRun(consumed=consumed, timeout_given=HANG_LIMIT)


# step 4: the kill test -----------------------------------------------------------------------
def _counts(scene: Scene) -> QueueCounts | None:
    """claim.in's ready and unacked and claim.dead's ready right now (rabbitmqctl)."""
    counts = scene.broker.queue_counts(scene.vhost)
    if counts is None:
        return None
    ready, unacked = counts.get(amqp.CLAIM_QUEUE, (0, 0))
    return QueueCounts(ready=ready, unacked=unacked, dead=counts.get(amqp.DEAD_QUEUE, (0, 0))[0])


@scenarios
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
        process = scene.consumer(KILL_RUN)
        held = partner.wait_for(lambda s: s["in_flight"] >= 1, timeout=HELD_WAIT)
        during = _counts(scene)
        process.signal(signal.SIGKILL)
        run = process.wait(AFTER_KILL)
        partner.control(mode="drop")  # the held request ends unanswered: no 201 to a dead client
        accepted = sum(1 for c in partner.stats()["calls"] if c["status"] == 201)
        after_ready = amqp.wait_ready(scene.url, amqp.CLAIM_QUEUE, len(claims) - accepted, SETTLE_WAIT) or 0
        return KillRun(
            published=len(claims),
            held=held,
            during=during,
            after_ready=after_ready,
            after_dead=amqp.ready(scene.url, amqp.DEAD_QUEUE) or 0,
            accepted=accepted,
            run=run,
        )


def _settled(scene: Scene, timeout: float) -> QueueCounts:
    """Wait until claim.in holds nothing, ready or unacked (every delivery acked or
    dead-lettered); then, or at ``timeout``, the counts. Without rabbitmqctl only ready
    messages can be seen."""
    deadline = time.monotonic() + timeout
    while True:
        counts = _counts(scene) or QueueCounts(
            ready=amqp.ready(scene.url, amqp.CLAIM_QUEUE) or 0,
            unacked=0,
            dead=amqp.ready(scene.url, amqp.DEAD_QUEUE) or 0,
        )
        if counts.ready + counts.unacked == 0 or time.monotonic() > deadline:
            return counts
        time.sleep(0.1)


# step 7 --------------------------------------------------------------------------------------
def _prefetch(lab: MqLab, name: str, prefetch: int, *extra: str) -> PrefetchRun | Missing:
    if missing := _missing(lab, "consumer.py"):
        return missing
    claims = _claims(lab, name, good=PREFETCH_CLAIMS)
    with lab.scene(name) as scene:
        assert scene.partner is not None
        scene.partner.control(delay=PARTNER_DELAY)  # a slow claim system
        amqp.declare_topology(scene.url)
        amqp.publish(scene.url, *claims)
        process = scene.consumer(PREFETCH_RUN, *extra)
        scene.partner.wait_for(lambda s: s["in_flight"] >= 1, timeout=HELD_WAIT)
        with ThreadPoolExecutor(max_workers=1) as side:  # both rabbitmqctl calls at once
            settings = side.submit(scene.broker.consumers, scene.vhost)
            samples = scene.broker.sample_unacked(scene.vhost, amqp.CLAIM_QUEUE, SAMPLE_SECONDS)
            consumers = settings.result()
        run = process.wait(PREFETCH_RUN + GRACE)
        return PrefetchRun(
            prefetch=prefetch, samples=samples, consumers=consumers, run=run, published=len(claims)
        )


@scenarios
def prefetch_default(lab: MqLab) -> PrefetchRun | Missing:
    """M7.1: no --prefetch: never more than 5 unacked, and 5 reached, before a slow partner."""
    return _prefetch(lab, "prefetch5", 5)


@scenarios
def prefetch_two(lab: MqLab) -> PrefetchRun | Missing:
    """M7.2: --prefetch 2."""
    return _prefetch(lab, "prefetch2", 2, "--prefetch", "2")


# step 8 --------------------------------------------------------------------------------------
@scenarios
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
        process = scene.consumer(DEDUP_FIRST_RUN)
        partner.wait_for(lambda s: s["by_status"].get("201", 0) >= 1, timeout=FIRST_201_WAIT)
        # Record, then ack: nothing outside the student's own database shows when it has
        # recorded, so give it a moment before the same message_id comes again.
        time.sleep(RECORD_GRACE)
        after_first = partner.calls(claim.guid)
        amqp.publish(scene.url, claim)
        repeat = _settled(scene, timeout=SETTLE_WAIT)  # a POST would come before its ack
        after_repeat = partner.calls(claim.guid)
        first = process.wait(DEDUP_FIRST_RUN + GRACE)
        amqp.publish(scene.url, claim)
        second = scene.consumer(DEDUP_SECOND_RUN).wait(DEDUP_SECOND_RUN + GRACE)
        db = scene.db
        header = db.read_bytes()[:16] if db.is_file() else b""
        return DedupRuns(
            claim=claim,
            first=first,
            calls_after_first=after_first,
            calls_after_same_process_repeat=after_repeat,
            ready_after_repeat=repeat.ready + repeat.unacked,
            dead_after_repeat=repeat.dead,
            second=second,
            calls_after_restart=partner.calls(claim.guid),
            ready_after_restart=amqp.ready(scene.url, amqp.CLAIM_QUEUE) or 0,
            dead=amqp.ready(scene.url, amqp.DEAD_QUEUE) or 0,
            db_exists=db.is_file(),
            db_is_sqlite=header == b"SQLite format 3\0",
        )


@scenarios
def record_only_success(lab: MqLab) -> RecordOnSuccess | Missing:
    """M8.4: a claim that went to claim.dead, published again once the partner accepts it,
    is POSTed again and acked."""
    if missing := _missing(lab, "consumer.py"):
        return missing
    claim = _claims(lab, "record", busy=1)[0]
    with lab.scene("record") as scene:
        assert scene.partner is not None
        first = _consume(scene, [claim], SHORT_RUN)
        scene.partner.control(accept_busy=True)
        second = _consume(scene, [claim], SHORT_RUN)
        return RecordOnSuccess(claim=claim, first=first, second=second)
