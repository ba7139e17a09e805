"""Behaviour scenarios of the queue lab: they run the student's scripts and record what
happened. Verdicts are the checks' business (test_step*.py)."""

from __future__ import annotations

import sqlite3
import time
from collections import Counter
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from fixtures.queue_messages import QueueSet, order_messages, random_set
from grader.machinery.inotify import Travel, Watcher, travel
from grader.machinery.runner import RunResult
from grader.machinery.sqlscript import SqlResult, run_sql_script
from grader.machinery.textfile import Unreadable, read_text
from grader.queue import ledger, queuedir
from grader.queue.lab import BIG_CONSUME_TIMEOUT, QueueLab
from grader.scenario import Scenarios
from grader.verdict import Missing

scenarios: Scenarios[QueueLab] = Scenarios("queue", lab_fixture="queue_lab")


@dataclass(frozen=True)
class ConsumeRun:
    """One or more consume.py runs over ``messages`` and the queue they left."""

    messages: QueueSet
    runs: tuple[RunResult, ...]
    after: queuedir.Listing
    rows: list[ledger.Row] | None  # None: no readable processed table
    rows_error: str = ""
    travel: Travel | None = None


@dataclass(frozen=True)
class Rerun:
    first: ConsumeRun
    again: ConsumeRun  # some of the same messages delivered again under new file names


@dataclass(frozen=True)
class Race:
    """Two consumers released together on messages sharing msg_ids (SQLite lock held)."""

    messages: QueueSet
    runs: tuple[RunResult, ...]
    rows_per_id: dict[str, int]


@dataclass(frozen=True)
class TwoConsumers:
    race: Race
    crowd: ConsumeRun  # a few hundred messages, both consumers at once


def _read_rows(q: Path) -> tuple[list[ledger.Row] | None, str]:
    db = q / "ledger.db"
    if "msg_id" not in ledger.columns(db):
        return None, "ledger.db 에 processed 테이블(msg_id 포함)이 없음"
    try:
        return ledger.rows(db), ""
    except sqlite3.Error as exc:
        return None, f"processed 를 읽지 못함: {exc}"


def _observe(
    lab: QueueLab, messages: QueueSet, runs: tuple[RunResult, ...], seen: Travel | None = None
) -> ConsumeRun:
    rows, error = _read_rows(lab.live)
    return ConsumeRun(messages, runs, queuedir.listing(lab.live), rows, error, seen)


def _consume_watched(lab: QueueLab, messages: QueueSet) -> ConsumeRun:
    messages.write(lab.live / "inbox")
    watcher = Watcher({d: lab.live / d for d in queuedir.DIRS})
    run = lab.consume()
    seen = travel(watcher.stop(), messages.names, watcher.overflow, watcher.subdirs)
    return _observe(lab, messages, (run,), seen)


@scenarios
def fresh_run(lab: QueueLab) -> Rerun | Missing:
    """Q3.3–Q3.6, Q3.8: a fresh randomised inbox with every kind of poison, then some of the
    same messages again under new names."""
    if not (lab.live / "consume.py").is_file():
        return Missing(lab.shown("consume.py"))
    rng = lab.grading.rng("fresh_run")
    messages = random_set(rng, valid=30, duplicates=5)
    with lab.exclusive:
        queuedir.reset(lab.live)
        first = _consume_watched(lab, messages)
        # Half of the msg_ids (every copy) again: a consumer that empties its ledger on each run
        # is idempotent by luck, not by a constraint, and ends with fewer rows than before.
        ids = sorted(messages.messages)
        again_ids = set(rng.sample(ids, len(ids) // 2))
        valid = [f for f in messages.files if f.message is not None and str(f.message["msg_id"]) in again_ids]
        again_set = QueueSet(tuple(type(f)(f"again-{f.name}", f.data, f.kind, f.message) for f in valid))
        again_set.write(lab.live / "inbox")
        again = _observe(lab, again_set, (lab.consume(),))
    return Rerun(first, again)


def _hold_lock_until_claimed(lab: QueueLab, db: Path, consumers: int) -> tuple[RunResult, ...]:
    """Start the consumers while holding SQLite's write lock, release once each holds a file.

    A consumer that checks "already there?" in code and then inserts sees nothing for both
    files of a pair; a DB constraint still keeps one row.
    """
    with closing(sqlite3.connect(db, timeout=10, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        started = [lab.start_consume() for _ in range(consumers)]
        deadline = time.monotonic() + 2.5
        while time.monotonic() < deadline:
            if len(list((lab.live / "processing").iterdir())) >= consumers:
                time.sleep(0.3)  # let them reach their INSERT
                break
            time.sleep(0.02)
        conn.execute("ROLLBACK")
    return tuple(lab.wait_consume(p, BIG_CONSUME_TIMEOUT) for p in started)


@scenarios
def two_consumers(lab: QueueLab) -> TwoConsumers | Missing:
    """Q3.7: two consume.py at once, on a small contended set and on a few hundred files."""
    if not (lab.live / "consume.py").is_file():
        return Missing(lab.shown("consume.py"))
    rng = lab.grading.rng("two_consumers")
    with lab.exclusive:
        queuedir.reset(lab.live)
        lab.consume()  # an empty run lets a consumer create its ledger the way it does
        pairs = random_set(rng, valid=4, duplicates=4, full_poison=False)
        pairs = QueueSet(tuple(f for f in pairs.files if f.message is not None))
        pairs.write(lab.live / "inbox")
        runs = _hold_lock_until_claimed(lab, lab.live / "ledger.db", 2)
        rows, _ = _read_rows(lab.live)
        race = Race(pairs, runs, dict(Counter(r.msg_id for r in rows or [])))

        crowd_set = random_set(rng, valid=240, duplicates=40)
        queuedir.reset(lab.live)
        crowd_set.write(lab.live / "inbox")
        started = [lab.start_consume() for _ in range(2)]
        crowd_runs = tuple(lab.wait_consume(p, BIG_CONSUME_TIMEOUT) for p in started)
        crowd = _observe(lab, crowd_set, crowd_runs)
    return TwoConsumers(race, crowd)


@dataclass(frozen=True)
class OrderChecks:
    """order-check.sql on the student's ledger and on three ledgers of the grader's."""

    own: SqlResult | None  # None: the student's ledger has no processed table
    duplicated: SqlResult
    hole: SqlResult
    clean: SqlResult


@scenarios
def order_checks(lab: QueueLab) -> OrderChecks | Missing:
    """Q6.1–Q6.4: the student's SQL, run on copies only."""
    sql_file = lab.saved / "order-check.sql"
    if not sql_file.is_file():
        return Missing(lab.shown("order-check.sql"))
    try:
        sql = read_text(sql_file)
    except Unreadable as exc:
        return Missing(lab.shown("order-check.sql"), exc.reason)
    rng = lab.grading.rng("order_checks")
    work = lab.grading.scratch_dir("order-check")
    student_db = lab.saved / "ledger.db"
    ddl = ledger.processed_ddl(student_db)
    own = None
    if ddl is not None:
        copy = work / "own.db"
        copy.write_bytes(student_db.read_bytes())
        own = run_sql_script(copy, sql)

    sizes = [rng.randrange(10, 16), rng.randrange(10, 14)] + [rng.randrange(3, 9) for _ in range(5)]
    clean = order_messages(rng, sum(sizes), sizes)
    stamp = {"processed_at": "2026-11-02T10:00:00+00:00"}
    by_order: dict[object, list[dict[str, object]]] = {}
    for entry in clean:
        by_order.setdefault(entry["order_no"], []).append(entry | stamp)
    orders = list(by_order.values())
    victim = rng.choice(orders)
    repeated = dict(rng.choice(victim)) | {"msg_id": f"m-{rng.getrandbits(40):010x}"}
    hole_at = rng.randrange(1, len(victim) - 1)  # never the first or the last seq

    def ledger_sql(name: str, entries: list[dict[str, object]]) -> SqlResult:
        shuffled = entries[:]
        rng.shuffle(shuffled)
        db = work / f"{name}.db"
        ledger.make_ledger(db, ddl, shuffled)
        return run_sql_script(db, sql)

    every = [e for entries in orders for e in entries]
    return OrderChecks(
        own=own,
        duplicated=ledger_sql("duplicated", [*every, repeated]),
        hole=ledger_sql("hole", [e for e in every if e is not victim[hole_at]]),
        clean=ledger_sql("clean", every),
    )


@dataclass(frozen=True)
class LagCase:
    counts: dict[str, int]  # inbox, processing, error of the grader's queue dir
    threshold: int
    run: RunResult


@scenarios
def lag_runs(lab: QueueLab) -> list[LagCase] | Missing:
    """Q7.1–Q7.2: lag.sh on queue dirs of the grader's (not /root/q), thresholds around the
    inbox count (equality included)."""
    if not (lab.live / "lag.sh").is_file():
        return Missing(lab.shown("lag.sh"))
    rng = lab.grading.rng("lag_runs")
    busy = {
        "inbox": rng.randrange(4, 13),
        "processing": rng.randrange(1, 6),
        "error": rng.randrange(1, 7),
        "done": rng.randrange(2, 9),
    }
    empty = dict.fromkeys(busy, 0)
    cases: list[LagCase] = []
    with lab.exclusive:
        queuedir.reset(lab.live)  # an empty /root/q, so a script counting it is caught
        for counts, thresholds in ((busy, (busy["inbox"] + d for d in (-1, 0, 1))), (empty, (0,))):
            queue = lab.grading.scratch_dir("lag") / "queue"
            for d, n in counts.items():
                (queue / d).mkdir(parents=True)
                for i in range(n):
                    (queue / d / f"{d}-{rng.getrandbits(32):08x}-{i}.json").write_text("{}\n")
            shown = {d: n for d, n in counts.items() if d != "done"}
            cases += [LagCase(shown, t, lab.shell("lag.sh", str(queue), str(t))) for t in thresholds]
    return cases


@dataclass(frozen=True)
class ReplayCase:
    argument: str
    run: RunResult
    before: dict[str, str]
    after: dict[str, str]
    expected: dict[str, str]  # the queue as it must be afterwards
    outside_intact: bool = True


@dataclass(frozen=True)
class ReplayRuns:
    moved: ReplayCase
    missing: list[ReplayCase]
    hostile: list[ReplayCase]


@scenarios
def replay_runs(lab: QueueLab) -> ReplayRuns | Missing:
    """Q8.1–Q8.3: replay.sh in the live queue, each case on a freshly laid-out queue."""
    if not (lab.live / "replay.sh").is_file():
        return Missing(lab.shown("replay.sh"))
    rng = lab.grading.rng("replay_runs")
    files = [f for f in random_set(rng, valid=8, duplicates=0).files if f.message is not None]
    layout = {"inbox": files[:2], "done": files[2:5], "error": files[5:8]}
    outside = lab.grading.scratch_dir("replay-outside") / f"outside-{rng.getrandbits(32):08x}.json"
    outside.write_text("{}\n")
    prefix = files[0].name.split("-")[0]

    def case(argument: str, moves: str | None = None) -> ReplayCase:
        queuedir.reset(lab.live)
        for d, entries in layout.items():
            QueueSet(tuple(entries)).write(lab.live / d)
        before = queuedir.fingerprint(lab.live)
        expected = dict(before)
        if moves is not None:
            expected[f"inbox/{moves}"] = expected.pop(f"error/{moves}")
        run = lab.shell("replay.sh", argument)
        return ReplayCase(argument, run, before, queuedir.fingerprint(lab.live), expected, outside.is_file())

    with lab.exclusive:
        target = layout["error"][1].name
        return ReplayRuns(
            moved=case(target, moves=target),
            missing=[case(layout["done"][0].name), case(f"{prefix}-9999.json")],
            hostile=[
                case(f"../done/{layout['done'][1].name}"),
                case(str(outside)),
                case(""),
                case(f"{prefix} copy 2.json"),
            ],
        )
