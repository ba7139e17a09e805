"""Behaviour scenarios of the queue lab: they run the student's scripts and record what
happened. Verdicts are the checks' business (test_step*.py).

Every scenario runs every class of input of its ids' edge maps (grader/queue/edges.py) in
every run and ends with ``edges.ensure``; the random seed varies only values inside a class.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from fixtures.queue_messages import (
    QueueFile,
    QueueSet,
    consumer_inbox,
    crowd_inbox,
    earlier_inbox,
    poisons_with_known_ids,
    race_copies,
    valid_bodies,
)
from grader.machinery import sqlitebound
from grader.machinery.inotify import Travel, Watcher, travel
from grader.machinery.runner import Process, RunResult
from grader.machinery.sqlscript import SqlResult, run_sql_script, run_sql_scripts
from grader.machinery.textfile import Unreadable, read_text
from grader.machinery.waiting import waiting_on
from grader.queue import edges, ledger, queuedir
from grader.queue.cases import LagLayout, LedgerCase, ReplayCase, lag_layouts, order_ledgers, replay_layout
from grader.queue.catalogue import QUEUE
from grader.queue.lab import NETWORK, QueueLab
from grader.scenario import Scenarios
from grader.verdict import Missing, ScriptsBroke

scenarios: Scenarios[QueueLab] = Scenarios(QUEUE, QueueLab.bring_up)
queue_lab = scenarios.fixture()


@dataclass(frozen=True)
class ConsumeRun:
    """One or more consume.py runs over ``messages`` and the queue they left."""

    messages: QueueSet
    runs: tuple[RunResult, ...]
    after: queuedir.Listing
    rows: list[ledger.Row] | None  # None: no readable processed table
    rows_error: str = ""
    travel: Travel | None = None
    unique: bool | None = None  # the ledger left still keeps msg_id unique; None: no table
    # files in done/ or error/ the grader never delivered to this queue (no message made them)
    invented: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Rerun:
    empty: RunResult  # consume.py over an empty inbox
    first: ConsumeRun  # every class of message at once
    again: ConsumeRun  # some of the same messages delivered again under new file names
    known_ids: ConsumeRun  # then poisons carrying msg_ids processed before
    covered: frozenset[str]


def _read_rows(q: Path) -> tuple[list[ledger.Row] | None, str]:
    db = q / "ledger.db"
    if (problem := ledger.problem(db)) is not None:
        return None, f"ledger.db: {problem}"
    if "msg_id" not in ledger.columns(db):
        return None, "ledger.db 에 processed 테이블(msg_id 포함)이 없음"
    try:
        return ledger.rows(db), ""
    except Unreadable as exc:
        return None, f"ledger.db: {exc.reason}"


def _still_unique(q: Path, rows: list[ledger.Row] | None) -> bool | None:
    """Whether the ledger a consumer left still has its constraint on msg_id: a consumer that
    drops it in some runs only (a small inbox, say) deduplicates by luck there (Q3.6: "a
    constraint, not luck"). None when there is no table to ask."""
    return None if rows is None else ledger.msg_id_is_unique(q / "ledger.db")


def _observe(
    lab: QueueLab,
    messages: QueueSet,
    runs: tuple[RunResult, ...],
    seen: Travel | None = None,
    earlier: Iterable[QueueSet] = (),
) -> ConsumeRun:
    """What ``runs`` over ``messages`` left; ``earlier``: what was delivered to the queue
    before them since its reset."""
    with lab.acting():
        rows, error = _read_rows(lab.live)
        listing = queuedir.listing(lab.live)
        unique = _still_unique(lab.live, rows)
    delivered = messages.names.union(*(e.names for e in earlier))
    invented = (listing["done"] | listing["error"]) - delivered
    return ConsumeRun(messages, runs, listing, rows, error, seen, unique, invented)


def _deliver(lab: QueueLab, messages: QueueSet) -> None:
    """``messages`` into the lane's inbox, each file whole or not at all (Maildir's rule)."""
    with lab.acting():
        messages.write(lab.live / "inbox")


def _consume_watched(lab: QueueLab, messages: QueueSet) -> ConsumeRun:
    _deliver(lab, messages)
    with lab.acting():
        watcher = Watcher({d: lab.live / d for d in queuedir.DIRS})
    run = lab.consume()
    seen = travel(watcher.stop(), messages.names, watcher.overflow, watcher.subdirs)
    return _observe(lab, messages, (run,), seen)


# Re-delivered in the second run: ordinary messages only, so a mistake about one class of
# message (a falsy value, say) shows on the ids judging that class and not on Q3.6.
AGAIN = ("valid", "seq-across-9-10", "seq-across-99-100", "amount-widths")
SAME_NAME = 2  # of them again under their own names (done/ holds a file of that name)


@scenarios
def fresh_run(lab: QueueLab) -> Rerun | Missing:
    """Q3.3–Q3.6, Q3.8: an empty inbox, then every class of message at once, then some of
    the same messages again under new names with the first run's state still there, then two
    poisons that carry msg_ids processed before."""
    if (missing := lab.script("consume.py")) is not None:
        return missing
    rng = lab.grading.rng("fresh_run")
    messages = consumer_inbox(rng)
    ordinary = sorted({str(f.message["msg_id"]) for f in messages.of_case(*AGAIN) if f.message})
    again_ids = set(rng.sample(ordinary, len(ordinary) // 2))
    # Every copy of those ids (duplicates too), under names the queue has not seen; and two
    # more ordinary files under the very names done/ holds them by, as a student re-copying the
    # fixture inbox to check step 4 delivers them (a final move that refuses an existing name
    # crashes there, or leaves them behind).
    renamed = tuple(
        replace(f, name=f"again-{f.name}")
        for f in messages.files
        if f.message is not None and str(f.message["msg_id"]) in again_ids
    )
    others = [f for f in messages.of_case(*AGAIN) if f.message and str(f.message["msg_id"]) not in again_ids]
    again_set = QueueSet(renamed + tuple(others[:SAME_NAME]))
    # Then two poisons carrying ids processed before: a known id makes no message valid.
    known = [f.message for f in messages.of_case(*AGAIN) if f.message is not None][:2]
    prefix = _prefix_of(messages)
    known_set = QueueSet(
        tuple(
            replace(f, name=f"known-{prefix}-{i}.json")
            for i, f in enumerate(poisons_with_known_ids(rng, known), 1)
        )
    )
    with lab.lane("fresh-run") as lane:
        lane.reset()
        empty = lane.consume()
        first = _consume_watched(lane, messages)
        _deliver(lane, again_set)
        again = _observe(lane, again_set, (lane.consume(),), earlier=(messages,))
        _deliver(lane, known_set)
        known_ids = _observe(lane, known_set, (lane.consume(),), earlier=(messages, again_set))
    same_names = {"again-same-name"} if again_set.names & messages.names else set()
    same_names |= {"blank-names"} if any(" " in name for name in messages.names) else set()
    covered = messages.cases | known_set.cases | {"empty-inbox", "rerun-state-present"} | same_names
    edges.ensure("fresh_run", covered)
    return Rerun(empty, first, again, known_ids, frozenset(covered))


def _prefix_of(messages: QueueSet) -> str:
    """The name prefix of an inbox's files (PREFIX-0001.json)."""
    return messages.files[0].name.rsplit("-", 1)[0]


# Q3.7: two consumers ---------------------------------------------------------------------------
SETTLE_TIMEOUT = 10.0  # a consumer's start and first claim, on a loaded machine
LOCK_PATIENCE = 3.5  # a consumer waiting at the lock is released before Python's default 5 s
RACE_ATTEMPTS = 3
WAITING = ("holding", "not-holding")  # states of a consumer asleep at the lock


@dataclass(frozen=True)
class Race:
    """Two consumers, each holding one copy of the same msg_id, released together."""

    messages: QueueSet
    runs: tuple[RunResult, ...]
    rows_per_id: dict[str, int]
    contended: bool  # both were seen waiting at the lock, each holding its copy
    attempts: int
    unique: bool | None  # the ledger left still keeps msg_id unique; None: no table


@dataclass(frozen=True)
class TwoConsumers:
    race: Race
    earlier: ConsumeRun  # one run before the crowd: the state the crowd meets
    crowd: ConsumeRun  # a few hundred messages, both consumers at once
    lockstep: bool  # both consumers were waiting at the lock when it was released
    covered: frozenset[str]


@contextmanager
def _write_lock(lab: QueueLab) -> Iterator[None]:
    """Hold SQLite's write lock on the live ledger (a copy the grader made, see lab.reset),
    with the scripts' powers (the ledger is theirs to replace by anything)."""
    with lab.acting():
        if (odd := sqlitebound.not_a_file(lab.live / "ledger.db")) is not None:
            why = f"consume.py 가 남긴 {odd} 이(가) 일반 파일이 아님(FIFO·링크 등): SQLite 가 열 수 없음"
            raise ScriptsBroke(lab.shown(odd), why)
        conn = sqlite3.connect(lab.live / "ledger.db", timeout=10, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:  # the ledger the consumer left (or its -wal/-shm) is unusable
            conn.close()
            why = f"consume.py 가 남긴 ledger.db 에 SQLite 가 쓰기 잠금을 걸 수 없음({exc})"
            raise ScriptsBroke(lab.shown("ledger.db"), why) from exc
    try:
        yield
    finally:
        with lab.acting():
            conn.execute("ROLLBACK")
            conn.close()


def _ledger_files(lab: QueueLab) -> list[Path]:
    db = lab.live / "ledger.db"
    return [db, *(db.with_name(db.name + s) for s in ledger.COMPANIONS)]


def _settle(lab: QueueLab, process: Process, holding: Callable[[], bool], timeout: float) -> str:
    """Wait until ``process`` has ended ('ended'), or waits at the lock: holding its file
    ('holding') or not ('not-holding'); 'late' if neither within ``timeout`` s."""
    files = _ledger_files(lab)
    deadline = time.monotonic() + timeout
    grace: float | None = None  # a consumer asleep before its claim: give it a moment
    while True:
        if not process.running():
            return "ended"
        if waiting_on(process.pid, files):
            if holding():
                return "holding"
            grace = grace or time.monotonic() + 1.0
            if time.monotonic() > grace:
                return "not-holding"
        if time.monotonic() > deadline:
            return "late"
        time.sleep(0.02)


def _ledger_ready(lab: QueueLab) -> None:
    """A ledger to hold the lock on, as the consumer leaves it after a run over an empty inbox
    (whatever its way): made by it when there was none, and in the journal mode it sets. A
    consumer that switches the ledger to WAL needs an exclusive lock for that, which SQLite
    refuses at once, without waiting, while another holds the lock (red team 14: the reference
    with `PRAGMA journal_mode=WAL` failed the race every time, alone it never does); on a ledger
    already in WAL the pragma takes no lock."""
    lab.consume()


def _race_once(lab: QueueLab, copies: tuple[QueueFile, QueueFile]) -> tuple[Race, bool]:
    """One attempt; the flag says whether it was spoilt by time (worth another attempt)."""
    lab.reset()
    _ledger_ready(lab)
    inbox = lab.live / "inbox"
    first, second = copies
    with _write_lock(lab):
        _deliver(lab, QueueSet((first,)))
        a = lab.start_consume()
        state_a = _settle(lab, a, lambda: not (inbox / first.name).exists(), SETTLE_TIMEOUT)
        _deliver(lab, QueueSet((second,)))
        b = lab.start_consume()
        # A waits at the lock from now on: release before a default busy timeout (5 s) ends it.
        patience = LOCK_PATIENCE if state_a in WAITING else SETTLE_TIMEOUT
        state_b = _settle(lab, b, lambda: not (inbox / second.name).exists(), patience)
    runs = tuple(lab.wait_consume(p) for p in (a, b))
    with lab.acting():
        rows, _ = _read_rows(lab.live)
        unique = _still_unique(lab.live, rows)
    race = Race(
        QueueSet(copies),
        runs,
        dict(Counter(r.msg_id for r in rows or [])),
        contended=state_a == state_b == "holding",
        attempts=1,
        unique=unique,
    )
    return race, "late" in (state_a, state_b)


@scenarios.first  # the longest: it takes a lane before the others queue for one
def two_consumers(lab: QueueLab) -> TwoConsumers | Missing:
    """Q3.7: two consume.py at once: a race on one msg_id, and a crowd of a few hundred files."""
    if (missing := lab.script("consume.py")) is not None:
        return missing
    rng = lab.grading.rng("two_consumers")
    copies = race_copies(rng)
    crowd_set = crowd_inbox(rng)
    earlier_set = earlier_inbox(rng)
    with lab.lane("two-consumers") as lane:
        attempts = 0
        while True:  # a race spoilt by time (a consumer too slow to start) is run again
            attempts += 1
            race, late = _race_once(lane, copies)
            if not late or attempts == RACE_ATTEMPTS:
                break
        race = replace(race, attempts=attempts)

        # The crowd meets a queue that has run: its rows must stay whichever consumer takes the
        # lock first (a consumer that clears the ledger when it starts loses them every time).
        lane.reset()
        _deliver(lane, earlier_set)
        earlier = _observe(lane, earlier_set, (lane.consume(),))
        _deliver(lane, crowd_set)
        with _write_lock(lane):  # both start, then go at once
            started = [lane.start_consume() for _ in range(2)]
            first = _settle(lane, started[0], lambda: True, SETTLE_TIMEOUT)
            patience = LOCK_PATIENCE if first in WAITING else SETTLE_TIMEOUT
            states = [first, _settle(lane, started[1], lambda: True, patience)]
        crowd_runs = tuple(lane.wait_consume(p) for p in started)
        crowd = _observe(lane, crowd_set, crowd_runs, earlier=(earlier_set,))
    covered = crowd_set.cases | {"race", "crowd", "crowd-state-present"}
    edges.ensure("two_consumers", covered)
    return TwoConsumers(race, earlier, crowd, all(s == "holding" for s in states), frozenset(covered))


# Q6: order-check.sql ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LedgerRun:
    case: LedgerCase
    result: SqlResult


@dataclass(frozen=True)
class OrderChecks:
    """order-check.sql on a copy of the student's ledger and on every ledger of the grader's."""

    own: SqlResult | Missing  # Missing: the student's ledger cannot be used, and why
    runs: tuple[LedgerRun, ...]
    covered: frozenset[str]

    def of(self, rid: str) -> list[LedgerRun]:
        return [r for r in self.runs if r.case.rid == rid]


def _own_ledger(
    lab: QueueLab, work: Path, run: Callable[[Path], SqlResult]
) -> tuple[SqlResult | Missing, str | None]:
    """The SQL on a copy of the student's ledger, and the student's CREATE TABLE processed."""
    student_db = lab.student_ledger()
    shown = lab.shown("ledger.db")
    if not student_db.exists():
        return Missing(shown), None
    if (problem := ledger.problem(student_db)) is not None:
        return Missing(shown, problem), None
    ddl = ledger.processed_ddl(student_db)
    if ddl is None:
        return Missing(shown, "processed 테이블이 없음"), None
    copy = work / "own.db"
    try:
        ledger.copy_of(student_db, copy)  # before any script of the box runs: then it is theirs
    except sqlite3.OperationalError as exc:
        if exc.sqlite_errorcode != sqlite3.SQLITE_FULL:
            raise
        # The box's bounded scratch cannot hold it: a ledger of this lab is a few hundred rows
        # (red team 24: one of 140 MiB made Q6.1-Q6.4 a grader error in student mode).
        copy.unlink(missing_ok=True)
        size = student_db.stat().st_size >> 20
        why = f"ledger.db({size} MiB)가 너무 커서 order-check.sql 을 돌릴 사본을 만들 공간이 없음"
        return Missing(shown, why), ddl
    lab.grading.identity.hand_over(copy)
    return run(copy), ddl


def _blank_of(lab: QueueLab) -> bytes | None:
    """The student's ledger with no row in any table (their views, indexes and tables kept),
    made in a folder of the grader's own (out of the scripts' reach), for the grader's ledgers
    to copy."""
    blank = lab.grading.own_dir("order-checks") / "blank.db"
    return blank.read_bytes() if ledger.blank_copy(lab.student_ledger(), blank, every_table=True) else None


@scenarios
def order_checks(lab: QueueLab) -> OrderChecks | Missing:
    """Q6.1–Q6.4: the student's SQL, run in a box of its own on copies only."""
    sql_file = lab.saved / "order-check.sql"
    if not sql_file.exists() and not sql_file.is_symlink():
        return Missing(lab.shown("order-check.sql"))
    try:
        sql = read_text(sql_file)
    except Unreadable as exc:
        return Missing(lab.shown("order-check.sql"), exc.reason)
    rng = lab.grading.rng("order_checks")
    python = os.path.realpath(sys.executable)
    with lab.grading.scripts("order-checks", network=NETWORK) as box:
        work = box.scratch_dir()
        script = work / "order-check.sql"
        with lab.acting():
            script.write_text(sql, encoding="utf-8")

        def run(db: Path) -> SqlResult:
            return run_sql_script(box, python, db, script)

        own, ddl = _own_ledger(lab, work, run)
        like = _blank_of(lab) if ddl is not None else None
        cases = order_ledgers(rng)
        dbs = [work / f"{i:02d}-{case.key}.db" for i, case in enumerate(cases)]
        ledgers = ledger.GraderLedgers(ddl, like)
        with lab.acting():
            for db, case in zip(dbs, cases, strict=True):
                ledgers.make(db, case.rows)
        if ledgers.too_costly:
            lab.grading.note(
                "ledger.db 의 인덱스·CHECK·트리거가 행 하나에 너무 많은 일을 해서, 채점기가 만든 장부 일부는"
                " 학생의 스키마 대신 실습의 다섯 컬럼 processed 표로 만들었습니다"
            )
        results = run_sql_scripts(box, python, dbs, script)
        runs = [LedgerRun(case, result) for case, result in zip(cases, results, strict=True)]
    covered = {r.case.key for r in runs} | {"own-ledger", "scrambled"}
    edges.ensure("order_checks", covered)
    return OrderChecks(own, tuple(runs), frozenset(covered))


# Q7: lag.sh ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LagCase:
    layout: LagLayout
    threshold: int
    keys: frozenset[str]  # its Q7.2 classes
    run: RunResult

    @property
    def line(self) -> str:
        files = self.layout.files
        return f"inbox={files['inbox']} processing={files['processing']} error={files['error']}"


def _lay_out_lag(queue: Path, layout: LagLayout) -> None:
    """The layout's files, each a hard link to one message file (a regular file like any
    other, made without writing hundreds of files)."""
    queue.mkdir(parents=True)
    message = queue.parent / "message.json"
    message.write_text("{}\n")
    for d, n in layout.files.items():
        (queue / d).mkdir()
        for i in range(n):
            os.link(message, queue / d / f"{d}-{i:04d}.json")
    for d, n in layout.subdirs.items():
        sub = queue / d / f"{d}-batch"
        sub.mkdir()
        for i in range(n):
            os.link(message, sub / f"sub-{i:04d}.json")
    for i in range(layout.hidden):
        os.link(message, queue / "inbox" / f".pending-{i}.json")
    for d in ("inbox", "processing", "error"):  # each one file however its name splits
        for i in range(min(layout.blank_named, layout.files[d])):
            (queue / d / f"{d}-{i:04d}.json").rename(queue / d / f"{d}-{i:04d} (2).json")


@scenarios
def lag_runs(lab: QueueLab) -> list[LagCase] | Missing:
    """Q7.1–Q7.2: lag.sh on queue dirs of the grader's (not /root/q): counts 0, 1 and across
    digit lengths, subfolders and a hidden file, thresholds around the inbox count."""
    if (missing := lab.script("lag.sh")) is not None:
        return missing
    rng = lab.grading.rng("lag_runs")
    jobs: list[tuple[LagLayout, Path, int, frozenset[str]]] = []
    with lab.lane("lag") as lane:
        for layout in lag_layouts(rng):
            queue = lane.scratch_dir() / "queue"
            with lane.acting():
                _lay_out_lag(queue, layout)
            jobs += [(layout, queue, t, keys) for t, keys in layout.thresholds]

        def run(job: tuple[LagLayout, Path, int, frozenset[str]]) -> LagCase:
            layout, queue, threshold, keys = job
            return LagCase(layout, threshold, keys, lane.shell("lag.sh", str(queue), str(threshold)))

        lane.reset()  # an empty /root/q, so a script counting it instead is caught
        with ThreadPoolExecutor(max_workers=4) as pool:
            cases = list(pool.map(run, jobs))
    covered = {k for c in cases for k in c.keys | c.layout.shows}
    edges.ensure("lag_runs", covered)
    return cases


# Q8: replay.sh ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ReplayRun:
    case: ReplayCase
    run: RunResult
    before: dict[str, str]
    after: dict[str, str]
    expected: dict[str, str]  # the queue as it must be afterwards
    outside_intact: bool = True


def _lay_out_replay(lab: QueueLab, dirs: dict[str, dict[str, bytes]], held: str) -> None:
    lab.reset()
    with lab.acting():
        for d, files in dirs.items():
            for name, data in files.items():
                (lab.live / d / name).write_bytes(data)
        (lab.live / "error" / held).mkdir()
        (lab.live / "error" / held / "inside.json").write_bytes(b"{}\n")


@scenarios
def replay_runs(lab: QueueLab) -> list[ReplayRun] | Missing:
    """Q8.1–Q8.3: replay.sh in the live queue: names to move, names not in error/, hostile
    names. The queue is laid out again after any case that changed it."""
    if (missing := lab.script("replay.sh")) is not None:
        return missing
    rng = lab.grading.rng("replay_runs")
    runs: list[ReplayRun] = []
    with lab.lane("replay") as lane:
        outside = lane.scratch_dir() / f"outside-{rng.getrandbits(32):08x}.json"
        with lane.acting():
            outside.write_text("{}\n")
        layout = replay_layout(rng, valid_bodies(rng, 12), str(lane.live), str(outside))
        dirty = True
        for case in layout.cases:
            if dirty:
                _lay_out_replay(lane, layout.dirs, layout.held)
            with lane.acting():
                before = queuedir.fingerprint(lane.live)
            expected = dict(before)
            if case.moves is not None:
                expected[f"inbox/{case.moves}"] = expected.pop(f"error/{case.moves}")
            run = lane.shell("replay.sh", case.argument)
            with lane.acting():
                after = queuedir.fingerprint(lane.live)
                intact = outside.is_file()
            runs.append(ReplayRun(case, run, before, after, expected, intact))
            dirty = after != before
    covered = {r.case.key for r in runs}
    edges.ensure("replay_runs", covered)
    return runs
