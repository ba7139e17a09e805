"""Behaviour scenarios of the mq lab. Each runs in its own vhost with its own partner process
and random claims, covers every class of its edge map on every run (grader/mq/edges.py, the
seed only varies values inside a class), and records what the broker and the claim system saw
(records.py). The checks judge; scenarios never do.
"""

from __future__ import annotations

import contextlib
import dataclasses
import signal
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests

from fixtures.claims import Claim, Outcome
from grader.machinery import acting, inotify, sqlitebound
from grader.machinery.broker import BrokerUnavailable
from grader.machinery.runner import Process, RunResult
from grader.machinery.waiting import wait_for, waiting_on
from grader.mq import amqp, drive, edges
from grader.mq.catalogue import MQ
from grader.mq.lab import MqLab, Scene, Stage
from grader.mq.live import Figures, VhostWatch
from grader.mq.records import (
    ConsumerRun,
    Crashes,
    DedupRuns,
    KilledAtItsAck,
    NodeLimit,
    PrefetchRun,
    Published,
    PublishRuns,
    RecordOnSuccess,
    RefusedPublish,
    TopologyRuns,
)
from grader.scenario import Scenarios
from grader.verdict import Missing

scenarios: Scenarios[MqLab] = Scenarios(MQ, MqLab.bring_up)
mq_lab = scenarios.fixture()

# How long consumers that must end by themselves run (--max-seconds). Whole seconds, so a
# student's `type=int` for --max-seconds is graded like `type=float`. Every other consumer gets
# a long --max-seconds and is stopped by the grader once it has decided about its claims.
EMPTY_RUN = 2  # nothing to do at all
DEADLINE_RUN = 3  # a busy queue: far more work than this
# ... with work waiting: the deadline passes during a held call whatever its length (the first
# call alone outlasts it), so the shortest run tells; the same as an idle one's
HANG_BUSY_RUN = 2
HANG_GRACE = 10.0  # ... it may finish one call beyond the deadline (an HTTP timeout up to ~10 s)
STOPPED_RUN = drive.STOPPED_RUN
# The slow claim system
BUSY_DELAY, BUSY_CLAIMS = 0.5, 30  # 15 s of work: the queue is still busy at the deadline
PREFETCH_DELAY, PREFETCH_CLAIMS = 1.0, 24  # the prefetch window stays full while watched
PREFETCH_WINDOW = 1.5  # watched this long after the consumer first takes a message
# Bounds on waits for conditions (they only run out when the student's script is wrong)
TAKE_WAIT = drive.TAKE_WAIT  # for a started consumer to take its first message
HELD_WAIT = 30.0  # for the consumer's request to reach a holding partner
SETTLE_WAIT = drive.SETTLE_WAIT  # for messages to be acked (or dead-lettered)
AFTER_KILL = 5.0  # for a SIGKILLed consumer to be reaped
KILL_TRIALS = 3  # M8.2: trials of the kill right after an ack, when one turns out to be void

NACK_POLICY_WAIT = 10.0  # for the reject-publish policy to take effect
NODE_TIMEOUT = 60.0  # rabbitmqctl eval of the live memory limit


@pytest.fixture(scope="session")
def mq_stage(mq_lab: MqLab) -> Stage:
    """The broker is up and the student's files are saved (a broker fault is an ERROR)."""
    return mq_lab.stage.get()


# step 1 ------------------------------------------------------------------------------------
@scenarios
def student_node(lab: MqLab) -> NodeLimit:
    """M1.3: the judged node answers and its live memory limit (read alongside the scenarios).
    The management API reports the limit the node computed (no statistic that lags: a fixed
    figure); a node that has not reported it yet, or whose statistics database is broken, is
    asked through rabbitmqctl. Away from the student's pod there is no node of theirs to ask:
    the check reads status.txt instead."""
    if lab.grading.config.away_from_pod:
        return NodeLimit(answers=False, limit=None, error=None, from_status_txt=True)
    node = lab.student_node()
    if node is None:
        return NodeLimit(answers=False, limit=None, error=None)
    try:
        listed = {n.get("name"): n for n in node.api("GET", "nodes", stats=True) or []}
    except requests.HTTPError:  # its statistics database is broken: the node itself may not be
        listed = {}
    limit = listed.get(node.node, {}).get("mem_limit")
    if limit is not None:
        return NodeLimit(answers=True, limit=str(limit), error=None)
    if node.ctl is None:
        raise BrokerUnavailable(f"{node.label}: rabbitmqctl is needed to read the node")
    try:
        read = node.ctl(["eval", "vm_memory_monitor:get_memory_limit()."], NODE_TIMEOUT)
    except RuntimeError as exc:
        return NodeLimit(answers=True, limit=None, error=str(exc)[-300:])
    return NodeLimit(answers=True, limit=read.strip(), error=None)


# step 2 ------------------------------------------------------------------------------------
@scenarios
def topology(lab: MqLab) -> TopologyRuns | Missing:
    """M2.1–M2.4: topology.py in an empty vhost, then again while claims wait in both queues."""
    if missing := drive.missing(lab, "topology.py"):
        return missing
    waiting_claims = drive.claims(lab, "topology", good=2, no_docs=2)
    with lab.scene("topology", partner=False) as scene:
        first = scene.run("topology.py")
        waiting = {
            amqp.CLAIM_QUEUE: amqp.put(scene.url, amqp.CLAIM_QUEUE, *waiting_claims[:2]),
            amqp.DEAD_QUEUE: amqp.put(scene.url, amqp.DEAD_QUEUE, *waiting_claims[2:]),
        }
        second = scene.run("topology.py")
        api, vh = scene.broker.api, scene.broker.q(scene.vhost.name)
        exchanges = {
            e["name"]: e
            for e in api("GET", f"exchanges/{vh}") or []
            if e["name"] and not e["name"].startswith("amq.")
        }
        queues = {q["name"]: q for q in api("GET", f"queues/{vh}") or []}
        every = [b for b in api("GET", f"bindings/{vh}") or [] if b["source"]]
        bindings = [
            (b["source"], b["destination"], b["routing_key"])
            for b in every
            if b["destination_type"] == "queue"
        ]
        joined = [
            (b["source"], b["destination"], b["routing_key"])
            for b in every
            if b["destination_type"] == "exchange"
        ]
        left = {queue: amqp.ready(scene.url, queue) for queue in waiting}
    return TopologyRuns(first, second, exchanges, queues, bindings, waiting, left, joined)


# step 3 ------------------------------------------------------------------------------------
@scenarios
def publish(lab: MqLab) -> PublishRuns | Missing:
    """M3.1–M3.2: publish.py with a claim file of every kind, one after the other."""
    if missing := drive.missing(lab, "publish.py"):
        return missing
    kind = {c.outcome: c for c in drive.claims(lab, "publish", good=1, no_docs=1, busy=1)}
    cases = [
        (edges.PUBLISH_GOOD, kind[Outcome.ACCEPTED], kind[Outcome.ACCEPTED].data),
        (edges.PUBLISH_EMPTY_DOCS, kind[Outcome.NO_DOCS], kind[Outcome.NO_DOCS].compact),
        (edges.PUBLISH_BUSY, kind[Outcome.BUSY], kind[Outcome.BUSY].data),
    ]
    runs = []
    with lab.scene("publish", partner=False) as scene:
        scene.declare()
        for edge, claim, data in cases:
            run = scene.run("publish.py", [drive.claim_file(scene, claim, data)])
            messages = amqp.drain(scene.url, amqp.CLAIM_QUEUE)
            runs.append((edge, Published(claim, data, run, messages)))
    edges.ensure("publish", (edge for edge, _ in runs))
    return PublishRuns(runs)


@scenarios
def unroutable(lab: MqLab) -> RefusedPublish | Missing:
    """M3.3: nothing bound for `claim`: first no queue at all, then claim.in bound otherwise."""
    if missing := drive.missing(lab, "publish.py"):
        return missing
    claim = drive.claims(lab, "unroutable", good=1)[0]
    with lab.scene("unroutable", partner=False) as scene:
        scene.declare(bind_claim=False)
        no_queue = scene.run("publish.py", [drive.claim_file(scene, claim, claim.data)])
        scene.declare(claim_key="claim.other")
        other_key = scene.run("publish.py", [drive.claim_file(scene, claim, claim.data)])
    runs = [(edges.UNROUTABLE_NO_QUEUE, no_queue), (edges.UNROUTABLE_OTHER_KEY, other_key)]
    edges.ensure("unroutable", (edge for edge, _ in runs))
    return RefusedPublish(runs=runs, stage_ok=True)


@scenarios
def nacked(lab: MqLab) -> RefusedPublish | Missing:
    """M3.4: a policy (max-length 0, reject-publish) makes the broker nack every publish."""
    if missing := drive.missing(lab, "publish.py"):
        return missing
    claim = drive.claims(lab, "nacked", good=1)[0]
    with lab.scene("nacked", partner=False) as scene:
        scene.declare()
        scene.broker.set_policy(
            scene.vhost.name, "grader-reject", r"^claim\.in$", {"max-length": 0, "overflow": "reject-publish"}
        )
        deadline = time.monotonic() + NACK_POLICY_WAIT
        while not (in_force := amqp.nacks_publish(scene.url)) and time.monotonic() < deadline:
            time.sleep(0.1)
        run = scene.run("publish.py", [drive.claim_file(scene, claim, claim.data)])
        return RefusedPublish(runs=[(edges.NACKED, run)], stage_ok=in_force)


# steps 4-6: consumer runs that end by themselves ---------------------------------------------
def _decided(lab: MqLab, name: str, repeat_retried: bool = False, **kinds: int) -> ConsumerRun | Missing:
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    batch = drive.claims(lab, name, **kinds)
    with lab.scene(name) as scene:
        return drive.consume_until_decided(lab, scene, batch, repeat_retried=repeat_retried)


@scenarios
def good_claims(lab: MqLab) -> ConsumerRun | Missing:
    """M4.1: good claims only."""
    return _decided(lab, "good_claims", good=5)


@scenarios
def mixed_claims(lab: MqLab) -> ConsumerRun | Missing:
    """M4.1, M5.1, M6.1, M8.1: several claims of every outcome, shuffled, in one queue (one of
    them a good claim the partner answers 503 once: a transient failure that passes on the
    retry, then published again: success on the retry is success)."""
    return _decided(lab, "mixed_claims", repeat_retried=True, good=3, no_docs=2, busy=2, busy_once=1)


@scenarios
def idle_queue(lab: MqLab) -> ConsumerRun | Missing:
    """M4.2: nothing to consume at all, until the deadline."""
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    with lab.scene("idle_queue") as scene:
        return drive.consume(scene, [], EMPTY_RUN)


@scenarios.first
def busy_queue(lab: MqLab) -> ConsumerRun | Missing:
    """M4.2: far more work than --max-seconds before a slow claim system."""
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    batch = drive.claims(lab, "busy_queue", good=BUSY_CLAIMS)
    with lab.scene("busy_queue") as scene:
        assert scene.partner is not None
        scene.partner.control(delay=BUSY_DELAY)
        return drive.consume(scene, batch, DEADLINE_RUN)


@scenarios
def one_of_each(lab: MqLab) -> ConsumerRun | Missing:
    """M5.1, M6.1: one good, one no-docs (422) and one BUSY (503) claim."""
    return _decided(lab, "one_of_each", good=1, no_docs=1, busy=1)


@scenarios
def claim_system_down(lab: MqLab) -> ConsumerRun | Missing:
    """M6.2: the claim system refuses every connection."""
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    batch = drive.claims(lab, "claim_system_down", good=3)
    with lab.scene("claim_system_down", partner=False) as scene, socket.socket() as down:
        # A port bound but never listened on refuses every connection, and stays ours.
        down.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{down.getsockname()[1]}"
        return drive.consume_until_decided(lab, scene, batch, claim_url=url)


def _hanging(
    lab: MqLab, name: str, claims: int, drive_it: Callable[[Scene, list[Claim]], ConsumerRun]
) -> ConsumerRun | Missing:
    """``claims`` claims for a partner that holds every request until the client gives up."""
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    batch = drive.claims(lab, name, good=claims)
    with lab.scene(name) as scene:
        assert scene.partner is not None
        scene.partner.control(mode="hang")
        return drive_it(scene, batch)


HANG_TWICE_BOUND = 2 * HANG_GRACE + 5.0  # from the first POST: two calls of an HTTP timeout up to ~10 s


@scenarios.first
def claim_system_hangs_twice(lab: MqLab) -> ConsumerRun | Missing:
    """M6.3: the partner holds every request and the consumer's deadline is far: it must time
    out, treat the timeout as transient (requeue once), and dead-letter the redelivered message
    when its second call times out too. (Ending near --max-seconds while calls hang: HANG_BUSY.)"""
    bound = HANG_TWICE_BOUND
    return _hanging(lab, "hang-twice", 1, lambda s, b: drive.consume_until_second_chance(s, b, bound))


HANG_BUSY = 60  # claims waiting on a claim system that hangs: more than any consumer drains in time


@scenarios.first
def claim_system_hangs_busy(lab: MqLab) -> ConsumerRun | Missing:
    """M6.3 with work waiting: the queue never empties in time (each claim is held until the
    consumer's own HTTP timeout, twice), so a consumer that looks at its deadline only when
    idle runs on; one that looks between calls ends within one call of it."""
    run, grace = HANG_BUSY_RUN, HANG_GRACE
    return _hanging(lab, "hang-busy", HANG_BUSY, lambda s, b: drive.consume(s, b, run, grace=grace))


# step 4: crashes -----------------------------------------------------------------------------
def _released(watch: VhostWatch) -> Figures | None:
    """Once a killed consumer's connection is gone and its messages are back (by a look in
    which claim.in answered: one that did not carries older figures)."""
    return watch.when(lambda f: f.claim_known and f.unacked == 0 and f.consumers == 0, SETTLE_WAIT)


@scenarios
def crashes(lab: MqLab) -> Crashes | Missing:
    """M4.3–M4.4: SIGKILL while the partner holds a request; then a new consumer stopped with
    a 201 on its way and SIGKILLed before it could read it."""
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    batch = drive.claims(lab, "kill", good=3)
    fresh = drive.claims(lab, "kill-fresh", good=2)
    with lab.scene("kill") as scene:
        watch = drive.watch(scene)
        partner = scene.partner
        assert partner is not None
        partner.control(mode="hang")
        scene.declare()
        amqp.publish(scene.url, *batch)
        process = scene.consumer(STOPPED_RUN)
        held = partner.wait_for(lambda s: s["in_flight"] >= 1, HELD_WAIT, until=lambda: not process.running())
        # Frozen at once: the look below may take a while on a loaded machine, and meanwhile
        # the consumer's own HTTP timeout would end the held request (then it nacks, or acks
        # what it had recorded): the kill must meet it holding that request.
        process.freeze()
        during = watch.now() if held else None
        process.signal(signal.SIGKILL)
        first = process.wait(AFTER_KILL)
        # No 201 was sent to anyone yet: any claim acked (or dead-lettered unanswered) so far
        # went before one, whatever claim.in's figures say (a consumer that puts a copy back
        # into claim.in and acks the original at once keeps them as they were: red team 28; one
        # that rejects it and purges claim.dead: red team 30).
        guids = [c.guid for c in batch]
        taken_first = drive.taken_before_an_answer(scene, AFTER_KILL, guids)
        partner.control(mode="drop")  # the held request ends unanswered: no 201 to a dead client
        calls = partner.stats()["calls"]
        accepted = sum(1 for c in calls if c["status"] == 201)
        dropped = {i for i, c in enumerate(calls) if c["status"] is None}  # never to be answered
        after = _released(watch)
        # A new consumer, two fresh claims beside the three it finds redelivered. Its own
        # fresh database: how it restarts on an old one is step 8's business.
        amqp.publish(scene.url, *fresh)
        partner.control(mode="hang")
        elsewhere = dataclasses.replace(scene, db=scene.box.scratch_dir() / "processed.db")
        again = elsewhere.consumer(STOPPED_RUN)
        second_held = partner.wait_for(
            lambda s: s["in_flight"] >= 1, HELD_WAIT, until=lambda: not again.running()
        )
        answered = False
        instead: tuple[int, ...] = ()
        if second_held:
            again.freeze()  # it cannot read the answer, nor ack
            partner.control(mode="normal")
            # Every request it holds answered (frozen, it sends no more): a 201 among them, or
            # what requests the claim system does not take got instead (the consumer's mistake).
            partner.wait_for(lambda s: s["in_flight"] == 0 and not _held(s, dropped), timeout=SETTLE_WAIT)
            stats = partner.stats()
            answered = stats["by_status"].get("201", 0) > accepted
            instead = tuple(
                int(c["status"])
                for i, c in enumerate(stats["calls"])
                if i not in dropped and c["status"] not in (None, 201)
            )
        again.signal(signal.SIGKILL)
        second = again.wait(AFTER_KILL)
        # The 201s came to a stopped consumer.
        taken_all = drive.taken_before_an_answer(scene, AFTER_KILL, guids + [c.guid for c in fresh])
        after_second = _released(watch)
        return Crashes(
            published=len(batch),
            held=held,
            during=during,
            after=after,
            accepted=accepted,
            first=first,
            fresh=len(fresh),
            second_held=second_held,
            answered_201=answered,
            answered_instead=instead,
            after_second=after_second,
            second=second,
            taken_first=taken_first,
            taken_second=None if taken_all is None or taken_first is None else taken_all - taken_first,
        )


def _held(stats: dict[str, Any], dropped: set[int]) -> list[int]:
    """The calls still waiting for an answer (the partner's statistics), but ``dropped``."""
    return [i for i, c in enumerate(stats["calls"]) if i not in dropped and c["status"] is None]


# step 7 --------------------------------------------------------------------------------------
def _prefetch(lab: MqLab, name: str, prefetch: int, *extra: str) -> PrefetchRun | Missing:
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    batch = drive.claims(lab, name, good=PREFETCH_CLAIMS)
    with lab.scene(name) as scene:
        watch = drive.watch(scene)
        assert scene.partner is not None
        scene.partner.control(delay=PREFETCH_DELAY)  # a slow claim system
        scene.declare()
        amqp.publish(scene.url, *batch)
        watched_from = time.time()
        process = scene.consumer(STOPPED_RUN, *extra)
        took = watch.when(
            lambda f: f.claim is not None and (f.consumers > 0 or f.unacked > 0 or f.ready < len(batch)),
            timeout=TAKE_WAIT,
            until=lambda: not process.running(),
        )
        if took is not None and took.consumers == 0 and took.unacked == 0:
            # claim.in shrank before anyone was seen holding a claim (a loaded broker answers
            # the watch's looks a second apart): the window starts once someone holds one.
            watch.when(
                lambda f: f.consumers > 0 or f.unacked > 0,
                timeout=TAKE_WAIT,
                until=lambda: not process.running(),
            )
        if took is not None:  # the window, cut short once the limit is clearly broken
            watch.when(lambda f: f.unacked > prefetch, timeout=PREFETCH_WINDOW)
        seen = watch.since(watched_from) if took is not None else []
        ended_by_itself = not process.running()
        run = process.kill()
        holding = [f for f in seen if f.consumers > 0]
        return PrefetchRun(
            prefetch=prefetch,
            published=len(batch),
            took=took is not None,
            ended_by_itself=ended_by_itself,
            unacked=[f.unacked for f in seen],
            settings=(holding or seen or [watch.now()])[-1].settings(),
            run=run,
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
@dataclasses.dataclass
class Held:
    """The lock _record_held holds: ``holding`` until ``release()``."""

    release: Callable[[], None]
    holding: Callable[[], bool]


@contextlib.contextmanager
def _record_held(scene: Scene, hold: bool = True) -> Iterator[Held]:
    """A lock held on the consumer's EAI_MQ_DB (as the scripts: it is theirs), so that no
    record can be committed until ``release()`` (or the block's end). Nothing is held when the
    file is not there or not SQLite (M8.3 says so), or not ``hold``.

    A rollback-journal database gets a read lock: the consumer may begin its transaction and
    write, and waits at its COMMIT, so a consumer that acks before it commits is seen to have
    acked while it waits (red team 24: with the write lock held, one that began its
    transaction before the POST waited at the BEGIN, was let go as one that records first, and
    then acked before its COMMIT; nor could a probe of the write lock tell the trial apart). A
    WAL database's commit cannot be held back by a reader: it gets the write lock."""
    conn: sqlite3.Connection | None = None
    with acting.as_scripts(scene.lab.grading.identity):
        if hold and drive.is_sqlite(scene.db) and sqlitebound.not_a_file(scene.db) is None:
            try:
                conn = sqlite3.connect(scene.db, timeout=10, isolation_level=None)
                if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
                    conn.execute("BEGIN IMMEDIATE")
                else:
                    conn.execute("BEGIN")
                    conn.execute("SELECT count(*) FROM sqlite_master").fetchall()  # its read lock
            except sqlite3.Error:  # held by the consumer itself (locking_mode=EXCLUSIVE, say)
                if conn is not None:
                    conn.close()
                conn = None

    def release() -> None:
        nonlocal conn
        if conn is not None:
            with acting.as_scripts(scene.lab.grading.identity), contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
                conn.close()
            conn = None

    try:
        yield Held(release, lambda: conn is not None)
    finally:
        release()


@dataclasses.dataclass(frozen=True)
class KillWindow:
    run: RunResult
    ack_seen: bool
    waited: bool  # seen waiting at the held record, and let go on then
    ended_early: bool  # ended by itself before its ack was seen
    dead_lettered: bool = False  # sent the claim to claim.dead instead of acking it
    unrecorded_at_ack: bool = False  # acked while the lock was held, EAI_MQ_DB naming it not
    # ... read from its own connection (amqptap): its word, so it stands whatever later trials
    # find (red team 29: one that wrote slowly had this trial voided, and passed on the next)
    told_unrecorded: bool = False


def _kill_right_after_its_ack(
    scene: Scene, process: Process, claim: Claim, before: Figures, hold: bool = True
) -> KillWindow:
    """Publish ``claim`` with the record held (_record_held) and SIGKILL the consumer as soon as
    it is seen to have acked it: whatever it does after its ack never happens. A consumer that
    records before it acks waits at the lock first (seen: asleep with EAI_MQ_DB open; at its
    COMMIT, or in WAL at its first write, which may come before its POST: a transaction across
    the POST is fine) and is let go on then, to record and ack; one that acks first is killed
    with its record unwritten (or uncommitted), every run. A consumer that does not sleep at
    the lock but gives up and tries again later (no busy timeout; it closes the file between
    tries) shows its tries by the rollback journal it makes each time it begins to write:
    that too is "at the lock" (before this it was let go only after TAKE_WAIT, to a trial
    holding nothing).

    Which of the two waits is told by events, not by a clock: the first look of the broker
    taken after the consumer was seen waiting (one in which claim.in answered) shows the claim
    acked already (it acked, then went to record: killed there) or held unacked (it waits to
    record before its ack: let go). A consumer seen at EAI_MQ_DB before it even took the claim
    was there for reasons of its own: looked at again. A claim that left claim.in is an ack
    only if it did not go to claim.dead: the consumer is frozen as soon as the claim is seen
    gone, and a later look tells (a consumer whose record failed at the held lock may
    dead-letter the claim, as step 6 does with any failure: KillWindow.dead_lettered).

    ``before``: claim.in before ``claim`` was published (a duplicate a wrong consumer never
    acks, say): the claim is acked once claim.in holds no more than then, and held by the
    consumer while it holds more unacked than then. Comparing with an empty claim.in instead
    never ended for such a consumer: it was killed after TAKE_WAIT, its ack never seen.

    Not ``hold``: nothing is held, and the kill comes when the ack is seen (a trial after one
    where the consumer ended by itself at the held record)."""
    watch = drive.watch(scene)
    files = [scene.db, *(scene.db.with_name(scene.db.name + s) for s in ("-journal", "-wal", "-shm"))]
    at_db = False  # as last seen: one look, never taken back by a later one

    partner = scene.partner
    assert partner is not None
    posted = False

    def left_claim_in(figures: Figures) -> bool:
        """Gone from claim.in, by a look in which both queues answered, once the claim system
        has had it: a look before that may still show claim.in as it was before the claim
        arrived (seen on a loaded node), and no consumer acks a claim it never received."""
        nonlocal posted
        if not figures.answered or figures.in_claim > before.in_claim:
            return False
        posted = posted or partner.calls(claim.guid) >= 1
        return posted

    def dead_lettered(figures: Figures) -> bool:
        """Left claim.in for claim.dead (rejected or nacked without requeue): red team 25, a
        correct consumer with no busy timeout that failed to record at the held lock
        dead-lettered the claim, and was taken to have acked it."""
        return left_claim_in(figures) and figures.dead_ready > before.dead_ready

    def at_db_or_ended() -> bool:
        nonlocal at_db
        if not process.running() or False in named_at_ack:  # or acked with no record: told
            return True
        at_db = writing.seen() or waiting_on(process.pid, files)
        return at_db

    waited = False
    # Each ack of the claim the consumer sends is read on its way (amqptap), before the broker
    # has it: the consumer is stopped there, and EAI_MQ_DB read. Its own word, whatever claim.in's
    # figures show (red team 28: a copy put back into claim.in and the original acked at once
    # keeps them as they were) and whatever lock its writes take or not (red team 25).
    log = scene.box.amqp
    named_at_ack: list[bool] = []
    with _record_held(scene, hold) as held, inotify.Touches(scene.db.parent, [files[1].name]) as writing:

        def at_its_ack() -> None:
            # Stopped first: nothing it does after its ack happens before the broker has it
            # (red team 30: one that acked, then wrote its record a few milliseconds later,
            # was read after that write). Read then: with the grader's lock held, no record can
            # have been committed, and a busy read is a commit waiting (and the file's header is
            # not read: a plain open and close would let go of the lock); without it, a file
            # the consumer keeps locked tells nothing (PRAGMA locking_mode=EXCLUSIVE, a commit
            # of its next write: red team 30), and is not held against it.
            process.freeze()
            holding = held.holding()
            with acting.as_scripts(scene.lab.grading.identity):
                found = drive.named(scene.db, claim.guid, timeout=0.0, known=holding)
            if found is not None or holding:
                named_at_ack.append(bool(found))

        if log is not None:
            log.stop_at_ack(claim.guid, at_its_ack)
        amqp.publish(scene.url, claim)
        # Bounded only for one that neither acks nor records (it is then killed, and M8.2
        # judges what it left): anything else acks or waits at once.
        deadline = time.monotonic() + drive.TAKE_WAIT
        seen = None
        while seen is None and process.running() and (left := deadline - time.monotonic()) > 0:
            seen = watch.when(left_claim_in, left, until=at_db_or_ended)
            if seen is not None or not at_db:
                break
            # Frozen at once (its busy wait then spends none of its own timeout), it waits
            # for the first look taken after that in which the queues answered, however long
            # a loaded broker takes to give one.
            process.freeze()
            look = watch.when(lambda f: f.answered, drive.TAKE_WAIT) or watch.now()
            if not left_claim_in(look) and look.unacked > before.unacked:
                # An ack sent just before the freeze may still be on its way into claim.in
                # (a busy node: acked_then_recorded once passed so): ask again, after that
                # look answered. The frozen consumer sends nothing more meanwhile.
                look = watch.when(lambda f: f.answered, drive.TAKE_WAIT) or look
            if left_claim_in(look):
                seen = look  # it acked (or dead-lettered) before it records: told below
                break
            if look.unacked > before.unacked:
                waited = True
                held.release()  # it waits to record before its ack: let it record, then ack
                process.thaw()
                seen = watch.when(left_claim_in, drive.TAKE_WAIT, until=lambda: not process.running())
                break
            process.thaw()  # it had not taken the claim yet: its sleep was its own
        if seen is not None and not dead_lettered(seen):
            # Out of claim.in: frozen at once (whatever it does after its ack never happens),
            # then told from later looks whether it went to claim.dead after all. Dead-
            # lettering hands the claim to claim.dead's queue process as it leaves claim.in,
            # but that process answers a look before a delivery already waiting for it
            # (RabbitMQ's queue process serves info calls at priority 9, deliveries at 0): the
            # first look after may not count it yet; the one after that, taken once the
            # process has answered the first and gone on to the delivery, does.
            process.freeze()
            for _ in range(2):
                if not dead_lettered(seen):
                    seen = watch.when(lambda f: f.answered, drive.TAKE_WAIT) or seen
        lettered = seen is not None and dead_lettered(seen)
        ack_seen = seen is not None and not lettered
        # Acked while the grader held EAI_MQ_DB's lock (no record could be committed through
        # it): was the claim's record there already? Frozen, it writes nothing meanwhile. Not
        # there: it acked before it recorded, whatever other file it keeps (red team 26: a
        # consumer that acked, then wrote the message_id to a file of its own and only then to
        # EAI_MQ_DB, was seen acked while waiting at the lock, and skipped the claim once
        # restarted, reading its own file). A read the lock makes busy (the consumer waits at
        # its COMMIT, holding SQLite's PENDING lock) is no record either.
        unrecorded = False
        if ack_seen and held.holding():
            with acting.as_scripts(scene.lab.grading.identity):
                unrecorded = not drive.names(scene.db, claim.guid, timeout=0.0)
        ended_early = seen is None and not process.running()
        process.signal(signal.SIGKILL)
        run = process.wait(AFTER_KILL)
        if log is not None:
            log.stop_at_ack(claim.guid, None)
        told = False in named_at_ack  # an ack of it sent while EAI_MQ_DB did not name it
        return KillWindow(run, ack_seen, waited, ended_early, lettered, unrecorded or told, told)


@scenarios
def dedup(lab: MqLab) -> DedupRuns | Missing:
    """M8.1–M8.3: a message_id published again after its success, to the same process, beside
    the same claim under a new message_id (no duplicate); then a
    fresh claim with the process SIGKILLed right after its ack (its record held back until then,
    so the window is hit every run), and both published again to a new process on the same
    EAI_MQ_DB."""
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    claim, fresh = drive.claims(lab, "dedup", good=2)
    resent = claim.resent(lab.grading.rng("dedup-resent"))  # a new message, not a duplicate
    spares = drive.claims(lab, "dedup-again", good=KILL_TRIALS - 1)
    with lab.scene("dedup") as scene:
        watch = drive.watch(scene)
        partner = scene.partner
        assert partner is not None
        scene.declare()
        amqp.publish(scene.url, claim)
        process = scene.consumer(STOPPED_RUN)
        # Each time: once claim.in holds nothing, a barrier (one more claim, POSTed and acked)
        # shows the consumer has finished with the claim before the calls are counted.
        drive.decided(scene, process, [claim])
        acks_when_free = drive.barrier(lab, scene, process)  # nothing held: it acked the barrier
        after_success = partner.calls(claim.guid)
        ended_before_repeat = not process.running()
        amqp.publish(scene.url, claim)
        amqp.publish(scene.url, resent)
        # The barrier waits for claim.in to hold nothing once its claim is POSTed: the repeat,
        # handled before it, acked too. When that never came within SETTLE_WAIT, the repeat is
        # held unacked; no second wait for it (a consumer that never acks a duplicate waited
        # SETTLE_WAIT three times here, the slowest grade of a class).
        settled = drive.barrier(lab, scene, process)
        after_repeat, resent_calls = partner.calls(claim.guid), partner.calls(resent.guid)
        # Judged only from looks taken once the barrier's claim was POSTed: the consumer had the
        # repeat long before, so no look can show claim.in as it was before the repeat arrived
        # (a look just after a publish did, on a loaded node, and a consumer that never acks a
        # duplicate passed).
        repeat = None
        if settled:
            repeat = watch.when(lambda f: f.in_claim == 0, SETTLE_WAIT, until=lambda: not process.running())
        repeat = repeat or watch.now()
        hold = True
        told_unrecorded = False  # in any trial: its own connection said so
        for spare in [*spares, None]:
            # What claim.in holds already (a duplicate a wrong consumer never acked, say): only
            # more than that after the kill is the fresh claim come back.
            # Taken from a look in which both queues answered: a look that did not carries the
            # last figures it told, maybe a barrier's claim not acked yet, and the fresh claim
            # back after the kill then seemed no more than before (a CI run under load: a
            # correct consumer failed M8.2).
            before = watch.when(lambda f: f.answered, drive.TAKE_WAIT) or watch.now()
            window = _kill_right_after_its_ack(scene, process, fresh, before, hold)
            told_unrecorded = told_unrecorded or window.told_unrecorded
            fresh_calls = partner.calls(fresh.guid)
            back = _released(watch)
            if spare is None or back is None or not back.claim_known:
                break
            if hold and window.dead_lettered:
                # It sent the claim to claim.dead at the held lock: its record failed there (no
                # busy timeout) and it dead-lettered the claim, as step 6 allows for a failure
                # (red team 25). The lock is the grader's doing: that claim is taken out of
                # claim.dead (what else is there stays), and the next trial, with another
                # claim on a new process, holds nothing.
                dead = amqp.drain(scene.url, amqp.DEAD_QUEUE)
                amqp.put_back(scene.url, amqp.DEAD_QUEUE, [m for m in dead if m.message_id != fresh.guid])
                hold = False
                process = scene.consumer(STOPPED_RUN)
                drive.barrier(lab, scene, process)
                fresh = spare
                continue
            came_back = back.in_claim > before.in_claim
            quiet = acks_when_free and not (window.ack_seen or window.waited)
            if hold and came_back and (window.ended_early or quiet):
                # It ended by itself, unacked, while the grader held EAI_MQ_DB's lock: a write
                # of its before its ack does not wait at a lock (the sqlite3 shell, which has no
                # busy timeout, fails at once). Or, though it acks when nothing is held, it
                # neither acked nor was seen waiting at the lock within TAKE_WAIT: it retries
                # its record in a way not seen as waiting (closes the file and sleeps between
                # tries: red team 24, a correct consumer that failed M8.2). The lock is the
                # grader's doing, never the lab's, so the next trial holds nothing and kills it
                # when its ack is seen.
                hold = False
            elif not window.ack_seen or not came_back:
                break  # acked when it was killed (the trial M8.2 judges), or never acked
            # The claim came back to claim.in: it had not been acked when the kill came (a
            # look of a loaded broker told otherwise), so this was no kill right after an
            # ack. Another trial with another claim on a new process, on the same EAI_MQ_DB,
            # once what came back is handled.
            process = scene.consumer(STOPPED_RUN)
            drive.decided(scene, process, [fresh])
            drive.barrier(lab, scene, process)
            fresh = spare
        # Both were POSTed before (each decided by the partner at once): the barrier's claim goes
        # right behind them, and a consumer that never acks a duplicate costs one wait, not two.
        restarted = drive.consume_until_decided(lab, scene, [claim, fresh], barrier_behind=True, compact=True)
        db = scene.db
        with acting.as_scripts(lab.grading.identity):  # the record is the consumer's to shape
            exists, is_sqlite, names_it = db.is_file(), drive.is_sqlite(db), drive.names(db, claim.guid)
        return DedupRuns(
            claim=claim,
            fresh=fresh,
            first=window.run,
            calls_after_success=after_success,
            calls_after_repeat=after_repeat,
            resent=resent,
            resent_calls=resent_calls,
            repeat=repeat,
            ended_before_repeat=ended_before_repeat,
            fresh_ack_seen=window.ack_seen,
            fresh_waited=window.waited,
            fresh_ended_early=window.ended_early,
            fresh_unrecorded_at_ack=window.unrecorded_at_ack or told_unrecorded,
            fresh_calls_before_kill=fresh_calls,
            restart=restarted,
            db_exists=exists,
            db_is_sqlite=is_sqlite,
            db_names_it=names_it,
        )


@scenarios
def record_only_success(lab: MqLab) -> RecordOnSuccess | Missing:
    """M8.4: a claim whose call the partner held unanswered when its consumer was SIGKILLed,
    found again by the next consumer on the same EAI_MQ_DB, is POSTed again; claims that went
    to claim.dead (503 twice; 422), published again once the claim system accepts them, are
    POSTed again and acked."""
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    kind = {c.outcome: c for c in drive.claims(lab, "record", no_docs=1, busy=1)}
    busy, no_docs = kind[Outcome.BUSY], kind[Outcome.NO_DOCS]
    (held,) = drive.claims(lab, "record-held", good=1)
    with lab.scene("record") as scene:
        partner = scene.partner
        assert partner is not None
        # Killed while its call is held: nothing succeeded, so nothing may say it did (red team
        # 27: a consumer that recorded before its POST, and deleted the record when the call
        # failed, passed every id; the next consumer acked this claim without calling).
        partner.control(mode="hang")
        scene.declare()
        amqp.publish(scene.url, held)
        process = scene.consumer(STOPPED_RUN)
        was_held = partner.wait_for(
            lambda s: s["in_flight"] >= 1, HELD_WAIT, until=lambda: not process.running()
        )
        process.freeze()  # its own HTTP timeout cannot end the held call before the kill
        process.signal(signal.SIGKILL)
        process.wait(AFTER_KILL)
        partner.control(mode="drop")  # the held call ends unanswered: no 201 to a dead client
        # Judged only when the claim is back in claim.in for the next consumer: one acked before
        # its answer (on receipt, or auto-ack) is lost already, which is M4.3's and M4.4's.
        back = _released(drive.watch(scene))
        held_calls = partner.calls(held.guid)
        partner.control(mode="normal")
        # Stopped only once it has finished what it did after its rejects (a record, say); the
        # held claim, back at the head of claim.in, is handled before the batch.
        first = drive.consume_until_decided(lab, scene, [busy, no_docs], then_barrier=True)
        partner.control(accept_busy=True)
        again = [busy, no_docs.with_docs(lab.grading.rng("record-docs"))]
        # The partner's counts go on from the first run, so "every claim POSTed" holds at once:
        # the barrier (handled after both, in order) says when the consumer is through with them.
        second = drive.consume_until_decided(lab, scene, again, then_barrier=True)
        return RecordOnSuccess(
            busy=busy,
            no_docs=no_docs,
            first=first,
            second=second,
            held=held,
            held_then_killed=was_held and back is not None and back.in_claim > 0,
            held_calls=held_calls,
        )


@scenarios
def killed_at_its_ack(lab: MqLab) -> KilledAtItsAck | Missing:
    """M8.2, in the lab's words: "처리에 성공하면 기록하고 ack 합니다. 기록과 ack 사이에 죽어도
    다음에 온 같은 메시지는 기록 덕분에 걸러집니다." The consumer is stopped and SIGKILLed as
    its ack of a claim is read on its way out (amqptap), and that ack never reaches the broker:
    the claim comes back, flagged redelivered, to a new consumer on the same EAI_MQ_DB, which
    acks it without calling the claim system (a record looked up only for messages not
    redelivered, or one that counts only once a mark written after the ack is there, calls it
    again). Without the grader carrying the connection (host mode) there is no ack to stop at:
    not judged."""
    if missing := drive.missing(lab, "consumer.py"):
        return missing
    (claim,) = drive.claims(lab, "killed-at-ack", good=1)
    with lab.scene("killed_at_ack") as scene:
        partner, log = scene.partner, scene.box.amqp
        assert partner is not None
        if log is None:  # not carried: no ack to stop at, nothing run
            return KilledAtItsAck(claim, killed=False, first=None, calls_before=0, restart=None)
        scene.declare()
        process = scene.consumer(STOPPED_RUN)
        killed = threading.Event()

        def at_its_ack() -> bool:
            process.freeze()  # nothing it does after its ack happens
            process.signal(signal.SIGKILL)
            killed.set()
            return True  # and the ack never reaches the broker

        log.stop_at_ack(claim.guid, at_its_ack)
        amqp.publish(scene.url, claim)
        # bounded only for one that never acks it
        wait_for(lambda: killed.is_set() or not process.running(), drive.TAKE_WAIT)
        first = process.wait(AFTER_KILL) if killed.is_set() else process.kill()
        log.stop_at_ack(claim.guid, None)
        calls_before = partner.calls(claim.guid)
        back = _released(drive.watch(scene)) if killed.is_set() else None
        restart = None
        if back is not None and back.in_claim > 0:
            # Back at the head of claim.in: handled before the barrier's claim, behind it.
            restart = drive.consume_until_decided(lab, scene, [], then_barrier=True)
        return KilledAtItsAck(
            claim=claim,
            killed=killed.is_set(),
            first=first,
            calls_before=calls_before,
            restart=restart,
        )
