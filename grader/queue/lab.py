"""The queue lab as the checks see it: the student's q/ (live and as saved) and its scripts."""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from fixtures.queue_messages import QueueSet
from grader.machinery import acting, shebang
from grader.machinery.runner import Process, RunResult
from grader.machinery.sandbox import ALONE
from grader.machinery.scenarios import ScenarioPool
from grader.machinery.textfile import kind
from grader.machinery.treecopy import CopyPlan
from grader.queue import ledger, queuedir
from grader.queue.catalogue import Q_DIR
from grader.scenario import reference_walkthrough
from grader.session import Grading, Lane, Scripts
from grader.verdict import Missing, ScriptsBroke

LayOut = Callable[[Path, Path], None]  # (lab root, fixture root): the reference walkthrough
# A working copy of q/: the queue folders' contents are never copied (every scenario empties
# them first), and the files the lab has the student write come before anything else in q/.
COPY = CopyPlan.of(
    empty=queuedir.DIRS,
    first=(
        "consume.py",
        "lag.sh",
        "replay.sh",
        "order-check.sql",
        "ledger.db",
        "ledger.db-wal",
        "ledger.db-shm",
        "ledger.db-journal",
        "schema.csv",
        "dup.txt",
        "error.csv",
        "order-result.txt",
    ),
)

# A consume.py run ends when it ends; the grader stops it when it has stopped getting anywhere:
# for STILL seconds, no file left inbox/ for the first time, no file left inbox/ and
# processing/ for good, and the ledger grew no bigger than it ever was. Each of those is work a
# run can do only so many times (the messages it was given are finite), so a poison message
# looping between inbox/ and processing/, a loop polling an empty inbox and a consumer that
# never exits but writes a file now and then (a heartbeat in done/) are stopped STILL seconds
# after their last real step. One file takes a correct consumer a fraction of a second even in
# a shell loop that starts python and sqlite3 for each, on a loaded machine: a slow consumer is
# never cut off while it works. MOST bounds a run whatever happens, well inside batch's limit
# of a whole grade (300 s), so that a script that reaches it is a FAIL, not a grader error.
STILL = 10.0
MOST = 120.0
AFTER_A_HANG = 5.0  # once consume.py has got stuck, later runs of it get this long: fail fast
SHELL_TIMEOUT = 10.0
SHELL_AFTER_A_HANG = 2.0  # once lag.sh or replay.sh has overrun SHELL_TIMEOUT, its later runs
# get this long: a script that hangs on every call (replay.sh is run ~20 times) made a grade
# overrun batch's 300 s limit, a grader error for a student's mistake (red team 5)
# The lab's scripts read and write files only: their boxes get a network of their own with
# nothing in it, so nothing on the machine's loopback (a class's broker, its epmd, the claim
# partners of the mq scenes running beside them) is within their reach.
NETWORK = ALONE
# Working copies of q/ the behaviour scenarios share out (namespace mode): one per core, as
# each keeps about one busy while it runs.
LANES = max(1, min(2, os.cpu_count() or 1))


def _further(seen: tuple[int, int, int], best: list[int]) -> bool:
    """Whether ``seen`` (QueueLab._progress) goes where no look went before: fewer files in
    inbox/, fewer in inbox/ and processing/, a bigger ledger. ``best`` is updated."""
    further = False
    for i, value in enumerate(seen):
        if value >= 0 and (best[i] < 0 or (value > best[i] if i == 2 else value < best[i])):
            best[i] = value
            further = True
    return further


@dataclass
class QueueLab:
    grading: Grading
    expected: QueueSet  # the fixture inbox: where every expected number comes from
    live: Path  # the working copy the scripts see as LAB_ROOT/q: behaviour checks run here
    saved: Path  # the student's q/ exactly as found: state checks read it (never written)
    lane_of: Lane | None = None  # another working copy shown as LAB_ROOT/q (None: the lab's own)
    box: Scripts | None = None  # where this lane's scripts run while a scenario holds it
    hung_once: threading.Event = field(default_factory=threading.Event)  # consume.py overran a timeout
    shells_hung: set[str] = field(default_factory=set)  # the shell scripts that overran SHELL_TIMEOUT
    _lanes: queue.SimpleQueue[QueueLab] | None = field(default=None, repr=False)

    @classmethod
    def bring_up(cls, grading: Grading, wanted: frozenset[str]) -> QueueLab:
        """The lab of a run: the student's q/, or the reference walked into the run's lab root."""
        reference = None
        if not grading.config.student_mode:
            walkthrough: Any = reference_walkthrough()  # a checkout's: a student build has none
            reference = walkthrough.walk_queue
        return cls.open(grading, reference)

    @classmethod
    def open(cls, grading: Grading, reference: LayOut | None) -> QueueLab:
        """The student's q/ saved before anything changes it (laid out first by the reference
        walkthrough when grading the reference solution), and its working copies."""
        if reference is not None:
            reference(grading.lab_root, grading.fixtures.root)
        workspace = grading.workspace(Q_DIR, COPY)
        lab = cls(grading, grading.fixtures.queue, workspace.live, workspace.saved)
        lab.share_out(grading.lanes(Q_DIR, LANES - 1, COPY))
        return lab

    def __post_init__(self) -> None:
        if self._lanes is None:  # the lab itself (its copies share its lanes)
            self._lanes = queue.SimpleQueue()
            self._lanes.put(self)

    def share_out(self, lanes: list[Lane]) -> None:
        """Let scenarios use ``lanes`` too, each one scenario at a time (see ``lane``)."""
        assert self._lanes is not None
        for lane in lanes:
            self._lanes.put(replace(self, live=lane.live, lane_of=lane))

    @contextmanager
    def lane(self, purpose: str) -> Iterator[QueueLab]:
        """The lab with a working copy of q/ that no other scenario uses meanwhile, and a box
        of its own showing it as LAB_ROOT/q: a behaviour scenario resets it and runs the
        scripts there. Scenarios run side by side, each on its own copy (namespace mode), or
        one after the other (host mode: one copy)."""
        assert self._lanes is not None
        mine = self._lanes.get()
        try:
            with self.grading.scripts(purpose, mine.lane_of, NETWORK) as box:
                lane = replace(mine, box=box)
                try:
                    yield lane
                except OSError as exc:  # the grader's next step found q/ taken apart?
                    if (broken := lane.taken_apart()) is not None:
                        raise ScriptsBroke(lane.shown(), broken) from exc
                    raise
        finally:
            self._lanes.put(mine)

    def taken_apart(self) -> str | None:
        """What of q/ as the grader set it up (the four folders, entered and listed with the
        scripts' powers) is gone or shut; None when all is there."""
        problems = []
        with self.acting():
            for name in ("", *queuedir.DIRS):
                where = self.live / name
                try:
                    os.listdir(where)
                except FileNotFoundError:
                    problems.append(f"{name or 'q'}/ 가 없어짐")
                except OSError as exc:
                    problems.append(f"{name or 'q'}/ 를 열 수 없음({exc.strerror})")
                if problems and not name:
                    break  # q/ itself: nothing below it can be told
        if not problems:
            return None
        return "스크립트 실행 뒤 " + ", ".join(problems) + ": 채점을 이어 갈 수 없음"

    def scratch_dir(self) -> Path:
        """A directory of this lane's box, for inputs its scripts read."""
        assert self.box is not None, "scripts run in a lane: use lab.lane()"
        return self.box.scratch_dir()

    def acting(self) -> acting.Acting:
        """File work in the working copy and the box's scratch, with the scripts' powers."""
        return acting.as_scripts(self.grading.identity)

    @property
    def pool(self) -> ScenarioPool:
        return self.grading.pool

    def shown(self, name: str = "") -> str:
        """How the student knows the path: /root/q/NAME."""
        return str(self.grading.scripts_root / Q_DIR / name).rstrip("/")

    def script(self, name: str) -> Missing | None:
        """None when the live q/NAME is a regular file a scenario can run; otherwise why not."""
        path = self.live / name
        try:
            mode = path.stat().st_mode
        except FileNotFoundError:
            return Missing(self.shown(name))
        except OSError as exc:
            return Missing(self.shown(name), f"읽을 수 없음({exc.strerror})")
        what = kind(mode)
        return None if what is None else Missing(self.shown(name), f"보통 파일이 아니라 {what}")

    def student_ledger(self) -> Path:
        """The student's ledger.db as last committed, in a fresh copy of the grader's own (see
        ledger.as_committed): what every check of the ledger reads."""
        return ledger.as_committed(
            self.saved / "ledger.db", self.grading.own_dir("student-ledger") / "ledger.db"
        )

    @cached_property
    def blank_ledger(self) -> bytes | None:
        """The student's ledger schema with no row processed, or None (no usable ledger.db):
        every behaviour run starts from a copy. Made once per lane, by the scenario holding it."""
        with acting.as_grader():
            blank = self.grading.own_dir("ledger") / "blank.db"
            return blank.read_bytes() if ledger.blank_copy(self.student_ledger(), blank) else None

    def reset(self) -> None:
        """Empty queue dirs and a fresh ledger (see queuedir.reset); call on a ``lane``."""
        blank = self.blank_ledger
        with self.acting():
            queuedir.reset(self.live, blank)

    def start_consume(self) -> Process:
        assert self.box is not None, "scripts run in a lane: use lab.lane()"
        return self.box.start([self.box.python, str(self.live / "consume.py")], cwd=self.live)

    def _progress(self) -> tuple[int, int, int]:
        """Where a working consumer gets: files in inbox/, in inbox/ and processing/ together
        (fewer is work), and the ledger's size (bigger is work); -1 when unreadable."""
        with self.acting():
            counts = []
            for names in (("inbox",), ("inbox", "processing")):
                try:
                    counts.append(sum(1 for name in names for _ in os.scandir(self.live / name)))
                except OSError:
                    counts.append(-1)
            try:
                ledger_size = os.stat(self.live / "ledger.db", follow_symlinks=False).st_size
            except OSError:
                ledger_size = -1
        return counts[0], counts[1], ledger_size

    def wait_consume(self, process: Process) -> RunResult:
        """Wait for a consume.py to end, stopping it once it has stopped getting anywhere (see
        STILL); one that got stuck makes the later runs of the grade fail fast."""
        if self.hung_once.is_set():
            return process.wait(AFTER_A_HANG)
        started = time.monotonic()
        best = list(self._progress())
        quiet_since = started
        while not process.ended(within=0.5):
            now = time.monotonic()
            if _further(self._progress(), best):
                quiet_since = now  # a step never taken before: the run got somewhere
            if now - quiet_since > STILL or now - started > MOST:
                result = process.wait(0)
                self.hung_once.set()
                return result
        return process.wait(0)

    def consume(self) -> RunResult:
        return self.wait_consume(self.start_consume())

    def shell(self, script: str, *args: str) -> RunResult:
        """``bash q/SCRIPT ARGS`` (or the interpreter its first line names: shebang.py); a
        script that once overran its limit gets a short one after."""
        assert self.box is not None, "scripts run in a lane: use lab.lane()"
        limit = SHELL_AFTER_A_HANG if script in self.shells_hung else SHELL_TIMEOUT
        with self.acting():  # its first line, read with the scripts' own powers
            started = shebang.command(self.live / script, self.box.python)
        run = self.box.run([*started, *args], cwd=self.live, timeout=limit)
        if run.timed_out:
            self.shells_hung.add(script)  # shared by every lane (a copy made by replace)
        return run
