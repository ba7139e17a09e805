"""How the mq scenarios drive the student's scripts: claims and claim files, consumer runs that
end by themselves (judged from when they were seen at work) or are stopped once they have
decided about every claim, and the record database.

Waits are for conditions (a POST arrived, the broker holds what it should), never bare sleeps;
a bound on a wait only costs time when the student's script is wrong. So a verdict does not
depend on how loaded the machine is.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import pika.exceptions

from fixtures.claims import Claim, Outcome, claim_set
from grader.machinery import acting, sqlitebound, textfile
from grader.machinery.runner import Process, RunResult
from grader.mq import amqp, live
from grader.mq.lab import MqLab, Scene
from grader.mq.records import ConsumerRun, Repeat
from grader.verdict import Missing

# A consumer must end within --max-seconds plus a grace, counted from when it was first seen at
# work (consuming claim.in, or POSTing: its clock was surely running then, however slowly the
# machine started it) ...
GRACE = 5.0
# ... or, when it never was, from its start: then the grace also covers starting Python and
# pika on a loaded machine.
START_GRACE = 8.0
STOPPED_RUN = 60  # --max-seconds of a consumer the grader stops itself once it has seen enough
TAKE_WAIT = 30.0  # for a started consumer to POST (or take) its claims: its start included
SETTLE_WAIT = 10.0  # then for claim.in to hold nothing (by the watch's clock)
SQLITE_HEADER = b"SQLite format 3\0"


def missing(lab: MqLab, *scripts: str) -> Missing | None:
    # No verdict without a broker, not even "missing": when none can be had, every mq id is an
    # ERROR (a harness fault), never a FAIL the same tree would not get on a working machine.
    lab.broker.get()
    lab.files.get()  # the lab root laid out and saved: the working copy is there
    for script in scripts:
        if not (lab.live / script).is_file():
            return Missing(lab.shown(script))
    return None


def claims(
    lab: MqLab, name: str, good: int = 0, no_docs: int = 0, busy: int = 0, busy_once: int = 0
) -> list[Claim]:
    """Fixed counts of each kind; the scenario's seed varies their values and their order."""
    made = claim_set(lab.grading.rng(name), good, no_docs, busy, shuffled=True, busy_once=busy_once)
    return list(made.files)


def publish(scene: Scene, *batch: Claim, compact: bool = False) -> None:
    """Publish ``batch`` into claim.in, the scene's partner told first which of them meet a 503
    on their next call (BUSY_ONCE claims: a transient failure that passes on the retry)."""
    once = [claim.guid for claim in batch if claim.outcome is Outcome.BUSY_ONCE]
    if once:
        assert scene.partner is not None
        scene.partner.control(busy_once=once)
    amqp.publish(scene.url, *batch, compact=compact)


def claim_file(scene: Scene, claim: Claim, data: bytes) -> str:
    """A claim file in the scene's own scratch, for publish.py to read."""
    path = scene.box.scratch_dir() / claim.name
    with acting.as_scripts(scene.lab.grading.identity):
        path.write_bytes(data)
    return str(path)


def taken_before_an_answer(scene: Scene, timeout: float, guids: Collection[str]) -> int | None:
    """How many deliveries of the claims ``guids`` the scene's scripts took off claim.in
    without a 201 having reached them: acked, or dead-lettered (rejected or nacked without
    requeue) on their first delivery, as read from their connections once they are killed (it
    waits ``timeout`` for every connection to end). Only the claims count: a script's own queue
    is its business (red team 30: a correct consumer that acked pings on a private queue). A
    redelivered claim may be dead-lettered without a try (the lab's decision). None where the
    grader does not carry their connections (host mode, a broker elsewhere) or could not read
    them as AMQP: then only the broker's figures judge."""
    log = scene.box.amqp
    if log is None or not log.ended(timeout) or log.opaque:
        return None
    taken = 0
    for how in ("ack", "reject", "nack"):
        for settled in log.settled(how):
            dead = how != "ack" and not settled.requeue and not settled.redelivered
            taken += settled.message_id in guids and (how == "ack" or dead)
    return taken


def watch(scene: Scene) -> live.VhostWatch:
    """The live figures of the scene's queues (one watch serves the whole run)."""
    return scene.lab.watch.get().vhost(scene.vhost.name)


# consumers that end by themselves -------------------------------------------------------------
@dataclass(frozen=True)
class RunEnd:
    """How a consumer run ended, before anyone looked at the queues."""

    run: RunResult
    ended_after: float  # seconds from when it was seen at work (or from its start)
    counted_from: str  # what it was seen doing first: "claim.in 소비 시작", "첫 POST" or "시작"
    grace: float  # what it was allowed beyond --max-seconds from then
    held: int  # requests the partner held when it had to be stopped


def seen_running(scene: Scene, process: Process, until: float) -> tuple[float, str] | None:
    """When the consumer was first seen at work: consuming claim.in (the broker counts it as a
    consumer) or POSTing (the partner's clock is the system's monotonic clock, like ours). None
    when neither happened by ``until`` or before it ended (it polls with basic_get, or crashed)."""
    with amqp.kept_channel(scene.url) as channel:
        while True:
            calls = scene.partner.stats()["calls"] if scene.partner else []
            if calls:
                return float(min(c["at"] for c in calls)), "첫 POST"
            with contextlib.suppress(pika.exceptions.AMQPError):
                if channel.queue_declare(amqp.CLAIM_QUEUE, passive=True).method.consumer_count:
                    return time.monotonic(), "claim.in 소비 시작"
            if not process.running() or time.monotonic() > until:
                return None
            time.sleep(0.05)


def run_to_end(scene: Scene, process: Process, started: float, seconds: float, grace: float) -> RunEnd:
    """Let a consumer end by itself: within ``seconds`` + ``grace`` of being seen at work, or
    ``seconds`` + START_GRACE of its start when it never was; stopped when it overruns."""
    seen = seen_running(scene, process, started + seconds + START_GRACE)
    reference, counted_from = seen or (started, "시작")
    allowed = grace if seen else START_GRACE
    deadline = reference + seconds + allowed
    while process.running() and time.monotonic() < deadline:
        time.sleep(0.05)
    held = scene.partner.stats()["in_flight"] if process.running() and scene.partner else 0
    run = process.wait(0)
    return RunEnd(run, time.monotonic() - reference, counted_from, allowed, int(held))


def consume(
    scene: Scene,
    batch: list[Claim],
    seconds: float,
    *extra: str,
    claim_url: str | None = None,
    grace: float = GRACE,
) -> ConsumerRun:
    """Publish ``batch``, run consumer.py with --max-seconds ``seconds`` to its own end, look."""
    scene.declare()
    amqp.publish(scene.url, *batch)
    started = time.monotonic()
    end = run_to_end(scene, scene.consumer(seconds, *extra, claim_url=claim_url), started, seconds, grace)
    return _looked(scene, batch, seconds, end, stopped=False)


# consumers the grader stops once they have decided ---------------------------------------------
def consume_until_second_chance(scene: Scene, batch: list[Claim], bound: float) -> ConsumerRun:
    """Publish ``batch`` to a partner that holds every call, run consumer.py with a long
    --max-seconds (its deadline never cuts a call short), stop it once claim.in holds nothing
    (each claim dead-lettered), a claim was POSTed a third time (requeued after its redelivery
    failed), or ``bound`` seconds after its first POST (two calls of an HTTP timeout up to the
    grace), look."""
    partner = scene.partner
    assert partner is not None
    scene.declare()
    amqp.publish(scene.url, *batch)
    started = time.monotonic()
    process = scene.consumer(STOPPED_RUN)
    partner.wait_for(
        lambda s: all(s["by_guid"].get(c.guid, 0) for c in batch) or not process.running(), timeout=TAKE_WAIT
    )

    def third() -> bool:
        by_guid = partner.stats()["by_guid"]
        return not process.running() or any(by_guid.get(c.guid, 0) >= 3 for c in batch)

    watch(scene).when(lambda f: f.in_claim == 0, bound, until=third)
    stopped = process.running()
    held = int(partner.stats()["in_flight"]) if stopped else 0
    end = RunEnd(process.kill(), time.monotonic() - started, "시작", 0.0, held)
    partner.wait_for(lambda s: s.get("connections", 0) <= 1, timeout=SETTLE_WAIT)
    return _looked(scene, batch, STOPPED_RUN, end, stopped=stopped)


def decided(scene: Scene, process: Process, batch: list[Claim]) -> live.Figures | None:
    """Wait until every claim of ``batch`` was POSTed at least once (when there is a partner)
    and claim.in holds nothing, ready or unacked: the consumer has acked or dead-lettered each
    one, so nothing it does later can change where they are. None when that never came."""
    if scene.partner is not None:
        scene.partner.wait_for(
            lambda s: all(s["by_guid"].get(c.guid, 0) for c in batch) or not process.running(),
            timeout=TAKE_WAIT,
        )
    else:  # nothing to ask but the queue: first the consumer at work (its start may be slow)
        watch(scene).when(
            lambda f: f.consumers > 0 or f.in_claim < len(batch),
            TAKE_WAIT,
            until=lambda: not process.running(),
        )
    return watch(scene).when(lambda f: f.in_claim == 0, SETTLE_WAIT, until=lambda: not process.running())


def barrier(lab: MqLab, scene: Scene, process: Process) -> bool:
    """Publish one more good claim and wait until it is POSTed and acked: a consumer handles its
    messages one after the other, so it has then finished everything it did for the earlier
    ones (a record written after a reject, say). False when that never came."""
    marker = _marker(lab, scene)
    amqp.publish(scene.url, marker)
    return _through(scene, process, marker)


def _marker(lab: MqLab, scene: Scene) -> Claim:
    """A barrier's claim: one never seen before. A repeated one was POSTed (or recorded) by an
    earlier run, so "POSTed" held at once and an auto-acking consumer was stopped before it had
    POSTed what the barrier was meant to wait for."""
    assert scene.partner is not None
    scene.barriers += 1
    return _marker_of(lab, scene, scene.barriers)


def _marker_of(lab: MqLab, scene: Scene, number: int) -> Claim:
    return claims(lab, f"marker:{scene.vhost.name}:{number}", good=1)[0]


def _markers(scene: Scene) -> list[Claim]:
    """Every barrier's claim published in ``scene`` so far (made again from their names)."""
    return [_marker_of(scene.lab, scene, number) for number in range(1, scene.barriers + 1)]


def _through(scene: Scene, process: Process, marker: Claim) -> bool:
    """Wait until ``marker`` is POSTed, then until claim.in holds nothing (each bounded)."""
    assert scene.partner is not None
    posted = scene.partner.wait_for(
        lambda s: bool(s["by_guid"].get(marker.guid)) or not process.running(), timeout=TAKE_WAIT
    )
    acked = watch(scene).when(lambda f: f.in_claim == 0, SETTLE_WAIT, until=lambda: not process.running())
    return posted and acked is not None and process.running()


def consume_until_decided(
    lab: MqLab,
    scene: Scene,
    batch: list[Claim],
    *,
    claim_url: str | None = None,
    then_barrier: bool = False,
    barrier_behind: bool = False,
    compact: bool = False,
    repeat_retried: bool = False,
) -> ConsumerRun:
    """Publish ``batch`` (the file's bytes, or one-line JSON with ``compact``), run consumer.py
    with a long --max-seconds, stop it once it has decided about every claim (and, with
    ``then_barrier``, finished what it did after), look. How long that takes never decides a
    verdict: on a loaded machine it only takes longer.

    ``barrier_behind``: the barrier's claim is published right behind the batch, and the run
    ends once it is POSTed and claim.in holds nothing: one wait where a claim never acked (a
    wrong consumer's duplicate) cost two, the batch's and the barrier's. Only for a batch the
    partner accepts at once, which a consumer handles in order, each before the barrier: a
    claim requeued for a retry would come back behind the barrier.

    ``repeat_retried``: once every claim is decided, the BUSY_ONCE claims it accepted on their
    retry are published again, and a barrier behind them (see _repeat_retried)."""
    scene.declare()
    marker = _marker(lab, scene) if barrier_behind else None
    publish(scene, *batch, compact=compact)
    if marker is not None:
        amqp.publish(scene.url, marker)
    started = time.monotonic()
    process = scene.consumer(STOPPED_RUN, claim_url=claim_url)
    repeat = None
    if marker is not None:
        _through(scene, process, marker)
    else:
        settled = decided(scene, process, batch)
        if then_barrier and scene.partner is not None:
            barrier(lab, scene, process)
        if repeat_retried and settled is not None and process.running():
            repeat = _repeat_retried(lab, scene, process, batch)
    stopped = process.running()
    end = RunEnd(process.kill(), time.monotonic() - started, "시작", 0.0, 0)
    if scene.partner is not None:  # what the killed consumer sent is all counted (one: ours)
        scene.partner.wait_for(lambda s: s.get("connections", 0) <= 1, timeout=SETTLE_WAIT)
    return _looked(scene, batch, STOPPED_RUN, end, stopped=stopped, repeat=repeat)


def _repeat_retried(lab: MqLab, scene: Scene, process: Process, batch: list[Claim]) -> Repeat | None:
    """The BUSY_ONCE claims of ``batch`` the partner accepted (201 on their retry), published
    again to the consumer that has decided about every claim, then a barrier: success on the
    retry is a success, so no POST (M8.1). Where things stood before is kept, so that what the
    consumer does with the repeat is judged by M8.1 alone (what claim.dead holds then is read
    and put back as it was). None when none was accepted."""
    assert scene.partner is not None
    calls = scene.partner.stats()["calls"]
    accepted = [
        claim
        for claim in batch
        if claim.outcome is Outcome.BUSY_ONCE
        and any(c["guid"] == claim.guid and c["status"] == 201 for c in calls)
    ]
    if not accepted:
        return None
    dead = amqp.drain(scene.url, amqp.DEAD_QUEUE)
    amqp.put_back(scene.url, amqp.DEAD_QUEUE, dead)
    before = tuple(scene.partner.calls(claim.guid) for claim in accepted)
    amqp.publish(scene.url, *accepted)  # no 503 ordered for them this time
    through = barrier(lab, scene, process)
    return Repeat(tuple(accepted), before, tuple(str(m.message_id) for m in dead), through)


def _looked(
    scene: Scene, batch: list[Claim], seconds: float, end: RunEnd, stopped: bool, repeat: Repeat | None = None
) -> ConsumerRun:
    # It has ended: what it held unacked goes back to claim.in once the broker has seen its
    # connection go (carried by the relay, a moment after the process): drained after that, not
    # before, or a claim on its way back would seem lost.
    watch(scene).when(lambda f: f.claim_known and f.unacked == 0 and f.consumers == 0, SETTLE_WAIT)
    if scene.partner is not None:
        scene.partner.control(mode="normal")  # release anything still held
    stats = scene.partner.stats(bodies=True) if scene.partner else {"by_guid": {}, "calls": []}
    known = {claim.guid for claim in batch} | {claim.guid for claim in _markers(scene)}
    if repeat is not None:
        known |= {claim.guid for claim in repeat.claims}
    strangers = tuple(call["guid"] for call in stats["calls"] if call["guid"] not in known)
    return ConsumerRun(
        seconds=seconds,
        published=batch,
        run=end.run,
        stats=stats,
        left=amqp.drain(scene.url, amqp.CLAIM_QUEUE),
        dead=amqp.drain(scene.url, amqp.DEAD_QUEUE),
        ended_after=end.ended_after,
        counted_from=end.counted_from,
        grace=end.grace,
        held_when_stopped=end.held,
        stopped=stopped,
        repeat=repeat,
        strangers=strangers,
    )


# the record database ---------------------------------------------------------------------------
def names(db: Path, text: str, timeout: float = 5.0, known: bool = False) -> bool:
    """Some column of some table of the SQLite file ``db`` holds ``text`` (any shape of table:
    a column of ids, a key-value table, a JSON list in one cell). False too when it cannot be
    read within ``timeout`` (locked). ``known``: ``db`` is known to be SQLite, and its header
    is not read first: a file the process opens and closes outside SQLite lets go of every
    lock the process holds on it (POSIX), the grader's held record lock among them."""
    return named(db, text, timeout, known) is True


def named(db: Path, text: str, timeout: float, known: bool = False) -> bool | None:
    """``names``, told apart from a file locked the whole ``timeout`` or not SQLite at all (not
    there yet, say): None, nothing can be said of what it holds."""
    if not known and not is_sqlite(db):
        return None
    try:
        return _names(db, text, timeout)
    except sqlite3.OperationalError as exc:
        return None if "locked" in str(exc) or "busy" in str(exc) else False
    except sqlite3.Error:
        return False


def _names(db: Path, text: str, timeout: float) -> bool:
    # Read-write: a consumer SIGKILLed mid-transaction leaves a hot journal that SQLite rolls
    # back on open (the file is the grader's scratch copy, never the student's).
    with contextlib.closing(sqlitebound.bounded(sqlite3.connect(db, timeout=timeout))) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            quoted = '"' + table.replace('"', '""') + '"'
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({quoted})")]
            for column in columns:
                col = '"' + str(column).replace('"', '""') + '"'
                hit = conn.execute(
                    f"SELECT 1 FROM {quoted} WHERE instr(CAST({col} AS TEXT), ?) > 0 LIMIT 1", (text,)
                ).fetchone()
                if hit:
                    return True
    return False


def is_sqlite(db: Path) -> bool:
    """``db`` is a regular file that starts as an SQLite database does (never opens a FIFO or
    a device a consumer left at EAI_MQ_DB)."""
    try:
        return textfile.head(db, len(SQLITE_HEADER)) == SQLITE_HEADER
    except textfile.Unreadable:
        return False
