"""Run untrusted student scripts: own process group, a timeout, bounded output, no orphans."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from grader.machinery.textfile import output_text

OUTPUT_LIMIT = 64 * 1024  # bytes kept of each stream (the tail)


@dataclass(frozen=True)
class RunResult:
    """What one script run did: exit code (None when killed), output tails, wall time."""

    argv: tuple[str, ...]
    returncode: int | None
    timed_out: bool
    stdout: str
    stderr: str
    seconds: float

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


def _start_time(pid: int) -> str | None:
    """The kernel's start time of ``pid`` (field 22 of /proc/PID/stat): tells a reused pid apart."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


class ProcessRegistry:
    """Every process group the grader started; killed at the end, even after a grader crash.

    Each group is also written to ``journal`` so the next run can kill what a SIGKILLed
    grader left running.
    """

    def __init__(self, journal: Path | None = None) -> None:
        self._journal = journal
        self._live: dict[int, Process] = {}
        self._lock = threading.Lock()
        self._closed = False

    def add(self, process: Process) -> None:
        with self._lock:
            if self._closed:  # the run is ending: nothing new may keep running
                kill_group(process.pid)
            self._live[process.pid] = process
            if self._journal is not None:
                with self._journal.open("a") as out:
                    out.write(f"{process.pid} {_start_time(process.pid)}\n")

    def discard(self, process: Process) -> None:
        with self._lock:
            self._live.pop(process.pid, None)

    def close(self) -> None:
        """Kill every group still running and refuse to keep new ones alive."""
        with self._lock:
            self._closed = True
            live = list(self._live.values())
        for process in live:
            process.kill()

    @staticmethod
    def kill_journal(journal: Path) -> int:
        """Kill the groups a dead grader recorded in ``journal``; returns how many were alive."""
        killed = 0
        if not journal.exists():
            return 0
        for line in journal.read_text().splitlines():
            pid_text, _, started = line.partition(" ")
            pid = int(pid_text)
            if _start_time(pid) == started:
                kill_group(pid)
                killed += 1
        journal.unlink()
        return killed


class Process:
    """A started script in its own session; ``wait`` or ``kill`` always reaps the whole group."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        registry: ProcessRegistry,
    ) -> None:
        self.argv = tuple(argv)
        self._registry = registry
        self._started = time.monotonic()
        self._popen = subprocess.Popen(
            self.argv,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        assert self._popen.stdout is not None and self._popen.stderr is not None
        self._stdout = _Tail(self._popen.stdout)
        self._stderr = _Tail(self._popen.stderr)
        self._timed_out = False
        registry.add(self)

    @property
    def pid(self) -> int:
        return self._popen.pid

    def stdout_so_far(self) -> str:
        return self._stdout.so_far()

    def running(self) -> bool:
        return self._popen.poll() is None

    def wait(self, timeout: float) -> RunResult:
        """Wait up to ``timeout`` s; then kill the group. Children left behind are killed too."""
        try:
            self._popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._timed_out = True
        return self.kill()

    def kill(self) -> RunResult:
        kill_group(self.pid)
        self._popen.wait()
        self._registry.discard(self)
        return RunResult(
            argv=self.argv,
            returncode=None if self._timed_out else self._popen.returncode,
            timed_out=self._timed_out,
            stdout=self._stdout.text(),
            stderr=self._stderr.text(),
            seconds=time.monotonic() - self._started,
        )

    def signal(self, signum: int) -> None:
        """Signal the script itself (e.g. SIGKILL in the middle of its work)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signum)


def run(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,
    registry: ProcessRegistry,
) -> RunResult:
    """Run a script to completion (or to its timeout) and return what it did."""
    return Process(argv, cwd=cwd, env=env, registry=registry).wait(timeout)
