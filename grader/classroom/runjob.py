"""One ``pytest grader`` run as a subprocess with a wall-clock limit, and what it left.

The grader restores the lab root and kills its scripts itself; when it has to be killed (it
overran its limit), the next grader's own crash recovery (``RunDir``) is run on its state dir
so its scripts' process groups and snapshots never outlive it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from grader.classroom.results import Results, ResultsUnreadable, read_results
from grader.classroom.version import REPO
from grader.config import AMQP_URL_VARIABLE, MANAGEMENT_URL_VARIABLE
from grader.machinery import sandbox
from grader.machinery.broker import Broker
from grader.machinery.rundir import recover
from grader.machinery.watchdog import Watchdog

SCOREBOARD_HEADER = "채점 결과 (grader scoreboard)"
TERM_GRACE = 30.0  # seconds a grader gets to restore and clean up after SIGTERM


@dataclass(frozen=True)
class BrokerAccess:
    """How a grader run reaches a broker it does not own (``--broker url``)."""

    amqp_url: str
    management_url: str
    node: str | None
    env: tuple[tuple[str, str], ...] = ()  # ERL_EPMD_PORT for a private node's rabbitmqctl

    @classmethod
    def of(cls, broker: Broker) -> BrokerAccess:
        return cls(
            broker.amqp_url("/"),
            f"http://{broker.host}:{broker.mgmt_port}",
            broker.node,
            tuple(sorted(broker.ctl_env.items())),
        )

    def args(self) -> list[str]:
        """The grader's arguments: nothing secret (any process of the machine may read a
        command line, a host-mode script included)."""
        return ["--broker", "url", *(["--rabbitmq-node", self.node] if self.node else [])]

    def environment(self) -> dict[str, str]:
        """The URLs with the administrator's password, and rabbitmqctl's settings: the
        environment of a process is its user's alone to read."""
        secret = {AMQP_URL_VARIABLE: self.amqp_url, MANAGEMENT_URL_VARIABLE: self.management_url}
        return dict(self.env) | secret


@dataclass(frozen=True)
class GraderRun:
    lab_root: Path
    fixtures: Path
    state_dir: Path
    results_json: Path
    log: Path
    labs: tuple[str, ...]
    broker: BrokerAccess | None
    timeout: float
    scripts_root: Path | None = None  # where scripts see the lab root (see sandbox_options)
    sandbox: str | None = None

    def argv(self) -> list[str]:
        argv = [
            sys.executable,
            "-m",
            "pytest",
            "grader",
            "-q",
            "-p",
            "no:cacheprovider",
            "--lab-root",
            str(self.lab_root),
            "--fixtures-dir",
            str(self.fixtures),
            "--results-json",
            str(self.results_json),
            "--state-dir",
            str(self.state_dir),
            "--away-from-pod",  # a submission: the student's own node is not here to ask (M1.3)
            # scripts that overrun the grade's time are the student's FAIL, not this limit's
            "--scripts-budget",
            f"{self.timeout / 2:g}",
        ]
        if len(self.labs) == 1:
            argv += ["--lab", self.labs[0]]
        if self.broker is not None:
            argv += self.broker.args()
        if self.scripts_root is not None:
            argv += ["--scripts-root", str(self.scripts_root)]
        if self.sandbox is not None:
            argv += ["--sandbox", self.sandbox]
        return argv


@dataclass(frozen=True)
class RunOutcome:
    returncode: int | None  # None: killed at the wall-clock limit
    seconds: float
    results: Results | None
    fault: str | None  # why this run is not a grade (None: it is one)
    scoreboard: str


def run(job: GraderRun) -> RunOutcome:
    """Grade ``job.lab_root``; never raises for what the grader or the student's scripts do."""
    if _stopped:  # keep what the stopped run left (its log); looked at again below, in the lock
        return RunOutcome(None, 0.0, None, STOPPED, "")
    job.results_json.unlink(missing_ok=True)
    env = os.environ | (job.broker.environment() if job.broker else {}) | {"PYTHONDONTWRITEBYTECODE": "1"}
    started = time.monotonic()
    with job.log.open("wb") as log:
        with _LIVE_LOCK:  # stop_all() either sees this run or this run sees it was called
            if _stopped:
                return RunOutcome(None, 0.0, None, STOPPED, "")
            proc = subprocess.Popen(
                job.argv(),
                cwd=REPO,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env=env,
                start_new_session=True,
            )
            _LIVE.add(proc)
            if _GUARD is not None:
                _GUARD.guard_group(proc.pid, job.state_dir, job.lab_root)
        returncode: int | None
        try:
            returncode = proc.wait(job.timeout)
        except subprocess.TimeoutExpired:
            _stop([proc])
            returncode = None
        except BaseException:  # Ctrl-C of the batch: leave nothing running
            _stop([proc])
            raise
        finally:
            with _LIVE_LOCK:
                _LIVE.discard(proc)
                if _GUARD is not None:
                    _GUARD.release_group(proc.pid)
    seconds = time.monotonic() - started
    recover(job.state_dir, job.lab_root)  # a no-op unless the grader was killed mid-run
    text = job.log.read_text(errors="replace")
    return _outcome(job, returncode, seconds, text)


def _outcome(job: GraderRun, returncode: int | None, seconds: float, log: str) -> RunOutcome:
    board = scoreboard_of(log)
    if returncode is None:
        return RunOutcome(
            None, seconds, None, f"grader overran its {job.timeout:.0f} s limit and was stopped", board
        )
    try:
        results = read_results(job.results_json)
    except ResultsUnreadable as exc:
        return RunOutcome(
            returncode,
            seconds,
            None,
            f"grader exit {returncode} without a results file ({exc}): {log.strip()[-600:]}",
            board,
        )
    if returncode not in (0, 1):
        fault = f"grader exit {returncode}: {log.strip()[-600:]}"
    elif (returncode == 0) != results.all_passed and results.gradable:
        fault = f"grader exit {returncode} disagrees with its results file"
    elif not results.gradable:
        fault = results.fault_text() or "the results file says it is not a grade"
    else:
        fault = None
    return RunOutcome(returncode, seconds, results, fault, board or results.output)


_LIVE: set[subprocess.Popen[bytes]] = set()  # grader runs going on in this process
_LIVE_LOCK = threading.Lock()
_stopped = False  # stop_all() was called: start no grader run (until resume())
_GUARD: Watchdog | None = None  # ends the runs going on should this process be killed outright
STOPPED = "the batch was interrupted before this grader run started"


def stop_all() -> None:
    """Stop every grader run still going (the batch was interrupted): each restores its lab
    root on SIGTERM, and its thread then returns. From now on ``run`` starts nothing: a thread
    whose run was stopped would otherwise retry it (a stopped run is a fault) and the batch
    would wait for that new grader to end by itself."""
    global _stopped
    with _LIVE_LOCK:
        _stopped = True
        running = list(_LIVE)
    _stop(running)


@contextlib.contextmanager
def guarded_by(watchdog: Watchdog) -> Iterator[None]:
    """Within the block, every grader run started is named to ``watchdog`` while it runs: a
    process killed with SIGKILL (no stop_all) still has its runs SIGTERMed, then killed."""
    global _GUARD
    with _LIVE_LOCK:
        _GUARD = watchdog
    try:
        yield
    finally:
        with _LIVE_LOCK:
            _GUARD = None


def resume() -> None:
    """A new batch may start grader runs again."""
    global _stopped
    with _LIVE_LOCK:
        _stopped = False


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM every grader's process group at once (each restores its lab root on it), then
    SIGKILL the ones still there when the grace is over: the grace is shared, so stopping N
    grader runs takes as long as stopping one."""
    for sig, grace in ((signal.SIGTERM, TERM_GRACE), (signal.SIGKILL, 10.0)):
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)
        deadline = time.monotonic() + grace
        procs = [proc for proc in procs if not _ended_by(proc, deadline)]
        if not procs:
            return


def _ended_by(proc: subprocess.Popen[bytes], deadline: float) -> bool:
    try:
        proc.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return False
    return True


def scoreboard_of(log: str) -> str:
    """The Korean scoreboard section of the grader's terminal output (up to its 합계 line)."""
    lines = log.splitlines()
    start = next((i for i, line in enumerate(lines) if SCOREBOARD_HEADER in line), None)
    if start is None:
        return ""
    board = []
    for line in lines[start + 1 :]:
        board.append(line)
        if line.startswith("합계:"):
            break
    return "\n".join(board).strip() + "\n"


SCRIPTS_ROOT = Path("/root")  # where the labs' scripts expect their lab root


def sandbox_options(scripts_root: Path | None, requested: str) -> tuple[Path | None, str]:
    """(--scripts-root, --sandbox) for every submission's grade.

    Scripts hard-code /root/q and /root/eaimw/mq, so by default each copy is shown to its
    scripts at /root, inside the grader's namespace sandbox (the machine's own /root is never
    touched). Without namespaces here that cannot be done: each copy is graded where it is
    unpacked (scripts that honour LAB_ROOT are graded right), and batch says so once. Asking
    for /root (or namespaces) where they cannot be had is an error before anything runs."""
    try:
        chosen = sandbox.choose(requested)
    except sandbox.SandboxUnavailable as exc:
        raise SystemExit(f"--sandbox {requested}: {exc}") from None
    if chosen.namespaces:
        return (scripts_root or SCRIPTS_ROOT), chosen.mechanism
    if scripts_root is not None:
        raise SystemExit(
            f"--scripts-root {scripts_root}: the student's scripts can only see their copy at "
            f"{scripts_root} inside the grader's namespace sandbox, and it is not available "
            f"({chosen.why}). Without --scripts-root each copy is graded where it is unpacked: "
            "scripts that honour LAB_ROOT are graded correctly, scripts that hard-code /root/q "
            "are not."
        )
    print(
        f"batch: no namespace sandbox ({chosen.why}): each submission is graded where it is "
        "unpacked; scripts that hard-code /root/q instead of honouring LAB_ROOT will fail",
        file=sys.stderr,
    )
    return None, chosen.mechanism
