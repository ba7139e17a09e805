"""Run untrusted student scripts: a timeout, bounded output, and nothing left running.

Whatever a script leaves running when it ends is named in its RunResult and killed:
- namespace mode (sandbox.py): the script's namespace begins with the reaper (reaper.py),
  which names and kills every other process of it and reports on a pipe;
- host mode: every process carries a marker in its environment (MARKER), inherited however it
  daemonises; the runner looks for the script's marker in /proc when the script ends.
The marker is set in both modes, so the grader also finds its scripts' processes at the end of
the run and after a grader was killed (rundir.py).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from grader.machinery import proctable
from grader.machinery.sandbox import LEFTOVER_GRACE, NONE, Confinement, Namespace, Sandbox
from grader.machinery.textfile import output_text

OUTPUT_LIMIT = 64 * 1024  # bytes kept of each stream (the tail)
REPORT_LIMIT = 256 * 1024  # bytes read of the reaper's report
MOST_LEFTOVERS = 20  # named; every one is killed
MARKER = "LAB_GRADER_RUN"  # <lab-root key>.<grader pid>.<run number>, in every script's environment
ON_THE_HOST = Confinement(Sandbox(NONE, "on the host"))


@dataclass(frozen=True)
class Leftover:
    """A process a script left running when it ended (killed by the grader since)."""

    pid: int  # as the reaper saw it (inside the namespace in namespace mode)
    name: str
    cmdline: str

    def describe(self) -> str:
        return (
            f"{self.name} (pid {self.pid}: {self.cmdline})"
            if self.cmdline
            else f"{self.name} (pid {self.pid})"
        )


@dataclass(frozen=True)
class RunResult:
    """What one script run did: exit code (None when killed), output tails, wall time."""

    argv: tuple[str, ...]
    returncode: int | None
    timed_out: bool
    stdout: str
    stderr: str
    seconds: float
    leftovers: tuple[Leftover, ...] = ()  # still running when the script ended by itself

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def tail(self, lines: int = 12) -> str:
        """The last lines of stderr (stdout when stderr is empty), for a failure message."""
        text = self.stderr.strip() or self.stdout.strip()
        return "\n".join(text.splitlines()[-lines:])

    def describe(self) -> str:
        """`종료 코드 1`, `시간 초과(20초)로 강제 종료` ... in the students' language."""
        if self.timed_out:
            return f"{self.seconds:.0f}초 안에 끝나지 않아 강제 종료됨"
        if self.returncode is not None and self.returncode < 0:
            return f"시그널 {-self.returncode} 로 종료됨"
        return f"종료 코드 {self.returncode}"


class _Tail:
    """Keeps the last OUTPUT_LIMIT bytes a stream produced, draining it so the child never blocks."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._buffer = bytearray()
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        with stream:
            while chunk := os.read(stream.fileno(), 65536):
                self._buffer += chunk
                if len(self._buffer) > 2 * OUTPUT_LIMIT:
                    del self._buffer[:-OUTPUT_LIMIT]

    def text(self) -> str:
        self._thread.join(timeout=2)
        return self.so_far()

    def so_far(self) -> str:
        """What the stream has said up to now (the process may still be running)."""
        return output_text(bytes(self._buffer[-OUTPUT_LIMIT:]))


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def sweep(prefix: str) -> int:
    """Kill every process whose marker starts with ``prefix`` (a run's or a lab root's), until
    none is left; returns how many there were."""
    seen: set[int] = set()
    for _ in range(50):  # one may fork while being killed: look again
        found = proctable.carrying(MARKER, prefix)
        if not found:
            break
        seen.update(found)
        proctable.kill_all(found)
        time.sleep(0.01)
    return len(seen)


class _Report:
    """What a keeper says on its pipe (see reaper.py): its pid and the script's, then the end."""

    def __init__(self, fd: int) -> None:
        self._data = bytearray()
        self.started = threading.Event()  # the pids are known
        self.done = threading.Event()  # the keeper is gone (reported, or killed)
        self._thread = threading.Thread(target=self._read, args=(fd,), daemon=True)
        self._thread.start()

    def _read(self, fd: int) -> None:
        with open(fd, "rb", buffering=0) as stream:
            while chunk := stream.read(65536):
                if len(self._data) < REPORT_LIMIT:
                    self._data += chunk
                if b"\nchild " in self._data:
                    self.started.set()
        self.started.set()
        self.done.set()

    def records(self, kind: str, final: bool = False) -> list[list[str]]:
        """The fields of every complete record of ``kind``; ``final``: only those of the
        keeper's last block, written when none of the script's processes could write any more."""
        lines = bytes(self._data).decode("ascii", "replace").split("\n")[:-1]
        if final:
            if "begin" not in lines:
                return []
            lines = lines[len(lines) - lines[::-1].index("begin") :]
        return [fields[1:] for fields in map(str.split, lines) if fields and fields[0] == kind]

    def pid(self, kind: str, timeout: float = 2.0) -> int | None:
        """The keeper's or the script's pid as the namespace numbers it (the first said)."""
        self.started.wait(timeout)
        found = [int(f[0]) for f in self.records(kind) if len(f) == 1 and f[0].isdigit()]
        return found[0] if found else None

    def end(self) -> tuple[int | None, tuple[Leftover, ...]]:
        """(exit code as subprocess gives it, leftovers); None when the keeper did not finish."""
        self.done.wait(5)
        status = [f[0] for f in self.records("status", final=True) if len(f) == 1 and f[0].isdigit()]
        if not status:
            return None, ()
        leftovers = []
        for fields in self.records("leftover", final=True):
            try:
                pid, name, cmdline = (
                    int(fields[0]),
                    bytes.fromhex(fields[1][1:]),
                    bytes.fromhex(fields[2][1:]),
                )
            except (ValueError, IndexError):
                continue
            leftovers.append(
                Leftover(pid, name.decode("utf-8", "replace"), cmdline.decode("utf-8", "replace"))
            )
        try:
            return os.waitstatus_to_exitcode(int(status[-1])), tuple(leftovers)
        except ValueError:
            return None, tuple(leftovers)


def _named(pids: list[int]) -> tuple[Leftover, ...]:
    return tuple(
        Leftover(pid, entry.name, proctable.cmdline(pid))
        for pid in sorted(pids)[:MOST_LEFTOVERS]
        if (entry := proctable.info(pid)) is not None
    )


class _OnHost:
    """A script started by the grader itself; the marker finds what it leaves."""

    def __init__(self, argv: Sequence[str], cwd: Path, env: dict[str, str], marker: str) -> None:
        self.marker = marker
        self.popen = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        assert self.popen.stdout is not None and self.popen.stderr is not None
        self.stdout, self.stderr = self.popen.stdout, self.popen.stderr

    def ended(self) -> bool:
        return self.popen.poll() is not None

    def wait(self, timeout: float) -> bool:
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def script_pid(self) -> int | None:
        return self.popen.pid if self.popen.returncode is None else None

    def kill(self) -> None:
        for _ in range(50):  # the script's group and tree, and whatever carries its marker
            targets = proctable.carrying(MARKER, self.marker)
            if self.popen.poll() is None:  # not reaped: its pid is still its own
                kill_group(self.popen.pid)
                targets += [self.popen.pid, *proctable.descendants(self.popen.pid)]
            if not targets:
                return
            proctable.kill_all(targets)
            time.sleep(0.005)

    def finish(self, ended_by_itself: bool) -> tuple[int | None, tuple[Leftover, ...]]:
        self.popen.wait()
        if not ended_by_itself:
            sweep(self.marker)
            return self.popen.returncode, ()
        found = proctable.carrying(MARKER, self.marker)
        deadline = time.monotonic() + LEFTOVER_GRACE  # a pipeline's last process may be exiting
        while found and time.monotonic() < deadline:
            time.sleep(0.02)
            found = proctable.carrying(MARKER, self.marker)
        named = _named(found)
        sweep(self.marker)
        return self.popen.returncode, named


class _InNamespace:
    """A script started by the keeper the run's namespace gives it (reaper.py)."""

    def __init__(
        self, namespace: Namespace, argv: list[str], cwd: str, env: dict[str, str], marker: str
    ) -> None:
        self.namespace, self.marker = namespace, marker
        stdin = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        (out, out_w), (err, err_w), (report, report_w) = os.pipe(), os.pipe(), os.pipe()
        try:
            namespace.launch(argv, cwd, env, [stdin, out_w, err_w, report_w])
        except BaseException:
            for fd in (out, err, report):
                os.close(fd)
            raise
        finally:
            for fd in (stdin, out_w, err_w, report_w):
                os.close(fd)
        self.stdout, self.stderr = open(out, "rb", buffering=0), open(err, "rb", buffering=0)  # noqa: SIM115
        self.report = _Report(report)

    def ended(self) -> bool:
        return self.report.done.is_set()

    def wait(self, timeout: float) -> bool:
        return self.report.done.wait(timeout)

    def _keeper(self) -> int | None:
        """The keeper's pid on the host: a child of the namespace's first process."""
        keeper, init = self.report.pid("keeper"), self.namespace.init_pid()
        if keeper is None or init is None:
            return None
        return next((pid for pid in proctable.children(init) if proctable.ns_pid(pid) == keeper), None)

    def script_pid(self) -> int | None:
        keeper, child = self._keeper(), self.report.pid("child")
        if keeper is None or child is None:
            return None
        return next((pid for pid in proctable.children(keeper) if proctable.ns_pid(pid) == child), None)

    def kill(self) -> None:
        for _ in range(50):  # the keeper, and everything of the script (it carries the marker)
            targets = proctable.carrying(MARKER, self.marker)
            if not self.report.done.is_set() and (keeper := self._keeper()) is not None:
                targets.append(keeper)
            if not targets:
                return
            proctable.kill_all(targets)
            time.sleep(0.005)

    def finish(self, ended_by_itself: bool) -> tuple[int | None, tuple[Leftover, ...]]:
        code, leftovers = self.report.end()
        if code is not None:
            return code, leftovers
        # The keeper did not finish: the grader killed it (SIGKILL, as on the host), or the
        # script did. What the script left carries its marker.
        stray = _named(proctable.carrying(MARKER, self.marker))
        sweep(self.marker)
        return (None, stray) if ended_by_itself else (-signal.SIGKILL, ())


class ProcessRegistry:
    """Every script the grader started; killed at the end. ``tag`` starts every marker."""

    def __init__(self, tag: str = "grader") -> None:
        self.tag = f"{tag}.{os.getpid()}."
        self._live: dict[str, Process] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._numbers = itertools.count(1)
        self.leftovers: list[tuple[str, Leftover]] = []  # (script label, process it left)

    def marker(self) -> str:
        with self._lock:
            return f"{self.tag}{next(self._numbers)}."  # the dot: run 1 is no prefix of run 10

    def add(self, process: Process) -> None:
        with self._lock:
            closed = self._closed
            self._live[process.marker] = process
        if closed:  # the run is ending: nothing new may keep running
            process.kill()

    def discard(self, process: Process, result: RunResult) -> None:
        with self._lock:
            self._live.pop(process.marker, None)
            self.leftovers += [(process.label, leftover) for leftover in result.leftovers]

    def close(self) -> int:
        """Kill every script still running, refuse to keep new ones alive, and kill whatever
        still carries this run's marker; returns how many of those there were."""
        with self._lock:
            self._closed = True
            live = list(self._live.values())
        for process in live:
            process.kill()
        return sweep(self.tag)


class Process:
    """A started script; ``wait`` or ``kill`` always ends everything it started."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        registry: ProcessRegistry,
        confinement: Confinement = ON_THE_HOST,
        label: str | None = None,
    ) -> None:
        self.argv = tuple(argv)
        self.label = label or Path(self.argv[-1] if len(self.argv) > 1 else self.argv[0]).name
        self.marker = registry.marker()
        self._registry = registry
        self._started = time.monotonic()
        self._signalled = False
        self._timed_out = False
        self._result: RunResult | None = None
        self._lock = threading.Lock()
        view = confinement.view
        shown_env = {**{k: view(v) for k, v in env.items()}, MARKER: self.marker}
        if confinement.namespace is not None:
            argv_seen = [view(a) for a in self.argv]
            self._run: _OnHost | _InNamespace = _InNamespace(
                confinement.namespace, argv_seen, view(str(cwd)), shown_env, self.marker
            )
        else:
            self._run = _OnHost(self.argv, cwd, shown_env, self.marker)
        self._stdout = _Tail(self._run.stdout)
        self._stderr = _Tail(self._run.stderr)
        registry.add(self)

    @property
    def pid(self) -> int:
        """The script's own pid on the host (also its session's id); -1 once it is gone."""
        pid = self._run.script_pid()
        return -1 if pid is None else pid

    def stdout_so_far(self) -> str:
        return self._stdout.so_far()

    def running(self) -> bool:
        return not self._run.ended()

    def wait(self, timeout: float) -> RunResult:
        """Wait up to ``timeout`` s for the script; then kill it. What it left is killed too."""
        if not self._run.wait(timeout):
            self._timed_out = True
        return self.kill()

    def kill(self) -> RunResult:
        """End the script (if still running) and everything it started; its RunResult."""
        with self._lock:
            if self._result is not None:
                return self._result
            ended_by_itself = self._run.ended() and not self._timed_out
            if not ended_by_itself:
                self._run.kill()
            code, leftovers = self._run.finish(ended_by_itself)
            if not ended_by_itself or self._signalled:
                leftovers = ()  # the grader ended it: what it left is not its doing
            self._result = RunResult(
                argv=self.argv,
                returncode=None if self._timed_out else code,
                timed_out=self._timed_out,
                stdout=self._stdout.text(),
                stderr=self._stderr.text(),
                seconds=time.monotonic() - self._started,
                leftovers=leftovers,
            )
        self._registry.discard(self, self._result)
        return self._result

    def signal(self, signum: int) -> None:
        """Signal the script itself (e.g. SIGKILL in the middle of its work)."""
        pid = self._run.script_pid()
        if pid is not None:
            self._signalled = True
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signum)


def run(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    registry: ProcessRegistry,
    confinement: Confinement = ON_THE_HOST,
) -> RunResult:
    """Run a script to completion (or to its timeout) and return what it did."""
    return Process(argv, cwd=cwd, env=env, registry=registry, confinement=confinement).wait(timeout)
