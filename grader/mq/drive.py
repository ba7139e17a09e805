"""How the mq scenarios drive the student's scripts: claims and claim files, consumer runs
judged from the moment their clock is known to run, the live watch, the record database.

Waits are for conditions (a POST arrived, the broker holds what it should), never bare sleeps;
a bound on a wait only costs time when the student's script is wrong.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pika.exceptions

from fixtures.claims import Claim, claim_set
from grader.machinery.environ import environment
from grader.machinery.runner import Process, RunResult
from grader.mq import amqp, live
from grader.mq.lab import MqLab, Scene
from grader.mq.records import ConsumerRun
from grader.verdict import Missing

# A consumer must end within --max-seconds plus a grace, counted from when it was first seen at
# work (consuming claim.in, or POSTing: its clock was surely running then, however slowly the
# machine started it) ...
GRACE = 5.0
# ... or, when it never was, from its start: then the grace also covers starting Python and
# pika on a loaded machine.
START_GRACE = 8.0
SQLITE_HEADER = b"SQLite format 3\0"


def missing(lab: MqLab, *scripts: str) -> Missing | None:
    lab.stage.get()  # the broker is up and the lab root laid out and saved
    for script in scripts:
        if not (lab.live / script).is_file():
            return Missing(lab.shown(script))
    return None


def claims(lab: MqLab, name: str, good: int = 0, no_docs: int = 0, busy: int = 0) -> list[Claim]:
    """Fixed counts of each kind; the scenario's seed varies their values and their order."""
    return list(claim_set(lab.grading.rng(name), good, no_docs, busy, shuffled=True).files)


def claim_file(lab: MqLab, claim: Claim, data: bytes) -> str:
    path = lab.grading.scratch_dir("claim") / claim.name
    path.write_bytes(data)
    return str(path)


@contextlib.contextmanager
def watch(scene: Scene) -> Iterator[live.Watch]:
    """The live figures of the scene's queues, up before anything is asked of them."""
    grading = scene.lab.grading

    def start(argv: Sequence[str], cwd: Path, env: dict[str, str]) -> Process:
        # rabbitmqctl is the grader's own tool: it runs on the host, never confined like a
        # student's script, and is killed with the run like every process the grader starts.
        return Process(argv, cwd=cwd, env=environment(**env), registry=grading.registry)

    watcher = live.Watch(start, scene.broker, scene.vhost, grading.scratch_dir("watch"))
    try:
        yield watcher
    finally:
        watcher.close()


@dataclass(frozen=True)
class RunEnd:
    """How a consumer run ended, before anyone looked at the queues."""

    run: RunResult
    ended_after: float  # seconds from when it was seen running (or from its start)
    counted_from: str  # what it was seen doing first: "claim.in 소비 시작", "첫 POST" or "시작"
    grace: float  # what it was allowed beyond --max-seconds from then
    held: int  # requests the partner held when it had to be stopped


def seen_running(scene: Scene, process: Process, until: float) -> tuple[float, str] | None:
    """When the consumer was first seen at work: consuming claim.in (the broker counts it as a
    consumer) or POSTing (the partner's clock is the system's monotonic clock, like ours). Its
    own clock was surely running by then, however slowly the machine started it. None when
    neither happened by ``until`` or before it ended (it polls with basic_get, or crashed)."""
    with contextlib.ExitStack() as stack:
        channel = stack.enter_context(amqp.channel(scene.url))
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
    compact: bool = False,
) -> ConsumerRun:
    """Publish ``batch`` with the grader's own publisher, run consumer.py once to its end, look."""
    amqp.declare_topology(scene.url)
    amqp.publish(scene.url, *batch, compact=compact)
    started = time.monotonic()
    end = run_to_end(scene, scene.consumer(seconds, *extra, claim_url=claim_url), started, seconds, grace)
    if scene.partner is not None:
        scene.partner.control(mode="normal")  # release anything still held
    stats = scene.partner.stats() if scene.partner else {"by_guid": {}, "calls": []}
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
    )


def names(db: Path, text: str) -> bool:
    """Some column of some table of the SQLite file ``db`` holds ``text`` (any shape of table:
    a column of ids, a key-value table, a JSON list in one cell)."""
    try:
        return _names(db, text)
    except sqlite3.Error:
        return False


def _names(db: Path, text: str) -> bool:
    # Read-write: a consumer SIGKILLed mid-transaction leaves a hot journal that SQLite rolls
    # back on open (the file is the grader's scratch copy, never the student's).
    with contextlib.closing(sqlite3.connect(db, timeout=5)) as conn:
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
    try:
        with db.open("rb") as f:
            return f.read(16) == SQLITE_HEADER
    except OSError:
        return False
