"""Run untrusted student scripts: a timeout, bounded output, and nothing left running.

Every script is started by a launcher (sandbox.py: a box's first process, or the host
launcher) under a keeper of its own (reaper.py), which is the subreaper of everything the
script starts: whatever is left when the script ends is named in its RunResult and killed, and
a script the grader stops (its timeout, a kill in the middle of its work, the end of the run) is
killed with everything below it by the keeper, on a command pipe the scripts cannot reach.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from grader.machinery import children, proctable
from grader.machinery.sandbox import Confinement, Request
from grader.machinery.textfile import output_text
from grader.machinery.waiting import wait_for

OUTPUT_LIMIT = 64 * 1024  # bytes kept of each stream (the tail)
REPORT_LIMIT = 256 * 1024  # bytes read of the keeper's report
MOST_LEFTOVERS = 20  # named; every one is killed
KILL_ALL = 0xFF  # reaper.KILL_ALL
FREEZE_WAIT = 10.0  # for a SIGSTOPped script to be seen stopped (a safety net: it is at once)
REPORT_WAIT = 10.0  # seconds a killed keeper gets to report before it is taken for gone


@dataclass(frozen=True)
class Leftover:
    """A process a script left running when it ended (killed by the grader since)."""

    pid: int  # as the launcher saw it (inside the box in namespace mode)
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
    out_of_time: bool = False  # stopped because the run's time for scripts was spent (timed_out too)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def tail(self, lines: int = 12) -> str:
        """The last lines of stderr (stdout when stderr is empty), for a failure message."""
        text = self.stderr.strip() or self.stdout.strip()
        return "\n".join(text.splitlines()[-lines:])

    def describe(self) -> str:
        """`종료 코드 1`, `시간 초과(20초)로 강제 종료` ... in the students' language."""
        if self.out_of_time:
            return "이 채점에서 스크립트가 쓸 수 있는 시간을 모두 써서 강제 종료됨(스크립트가 너무 오래 걸림)"
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
        """The keeper's or the script's pid as the launcher's namespace numbers it."""
        self.started.wait(timeout)
        found = [int(f[0]) for f in self.records(kind) if len(f) == 1 and f[0].isdigit()]
        return found[0] if found else None

    def end(self) -> tuple[int | None, tuple[Leftover, ...]]:
        """(exit code as subprocess gives it, leftovers); None when the keeper did not finish."""
        self.done.wait(REPORT_WAIT)
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


class _Launched:
    """A script started by a keeper of the launcher ``confinement`` names (reaper.py)."""

    def __init__(self, confinement: Confinement, request: Request) -> None:
        self.confinement = confinement
        stdin = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        (out, out_w), (err, err_w), (report, report_w) = os.pipe(), os.pipe(), os.pipe()
        commands_r, self._commands = os.pipe()
        os.set_inheritable(self._commands, False)
        try:
            # The script's own output pipes are its identity's: `echo x > /dev/stdout` opens
            # them again by /proc/self/fd, which a pipe of root's (mode 600) refuses (red team 18).
            for fd in (out_w, err_w):
                os.fchown(fd, request.uid, request.gid)
            confinement.launcher.launch(request, [stdin, out_w, err_w, report_w, commands_r])
        except BaseException:
            for fd in (out, err, report, self._commands):
                os.close(fd)
            raise
        finally:
            for fd in (stdin, out_w, err_w, report_w, commands_r):
                os.close(fd)
        self._lock = threading.Lock()
        self.stdout, self.stderr = open(out, "rb", buffering=0), open(err, "rb", buffering=0)  # noqa: SIM115
        self.report = _Report(report)

    def ended(self) -> bool:
        return self.report.done.is_set()

    def wait(self, timeout: float) -> bool:
        return self.report.done.wait(timeout)

    def command(self, byte: int) -> None:
        """Tell the keeper: a signal for the script and every process it started (1-64), or
        KILL_ALL."""
        with self._lock, contextlib.suppress(OSError):
            if self._commands >= 0:
                os.write(self._commands, bytes([byte]))

    def _keeper(self) -> int | None:
        """The keeper's pid on the host: a child of the launcher."""
        keeper, init = self.report.pid("keeper"), self.confinement.launcher.init_pid()
        if keeper is None or init is None:
            return None
        return next((pid for pid in proctable.children(init) if proctable.ns_pid(pid) == keeper), None)

    def stopped_or_gone(self) -> bool:
        """Every process of the script is stopped (or ended): none of them does anything more."""
        if self.ended():
            return True
        keeper = self._keeper()
        if keeper is None:
            return False
        return all(_stopped_or_gone(pid) for pid in proctable.descendants(keeper))

    def script_pid(self) -> int | None:
        keeper, child = self._keeper(), self.report.pid("child")
        if keeper is None or child is None:
            return None
        return next((pid for pid in proctable.children(keeper) if proctable.ns_pid(pid) == child), None)

    def kill(self) -> None:
        self.command(KILL_ALL)

    def finish(self) -> tuple[int | None, tuple[Leftover, ...]]:
        code, leftovers = self.report.end()
        with self._lock:
            if self._commands >= 0:
                os.close(self._commands)  # a keeper that did not report kills what is its own
                self._commands = -1
        return code, leftovers


class ProcessRegistry:
    """Every script the grader started; killed at the end.

    With a ``budget``, the scripts of a run have that many seconds from the first one's start,
    all together: each script has a limit of its own, but a run starts some of them dozens of
    times, one after another, so scripts that each stay just inside their limits could keep a
    grade going past any limit set on the whole of it (batch's), and a student's mistake would
    be a grader error. When the budget is spent, every script still running is stopped as out
    of time, and one started later is stopped at once: the grade ends, its checks FAIL on the
    runs stopped. A correct lab's scripts use a few seconds of it."""

    def __init__(self, budget: float | None = None) -> None:
        self._live: set[Process] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._spent = False
        self._budget = budget
        self._timer: threading.Timer | None = None
        self.leftovers: list[tuple[str, Leftover]] = []  # (script label, process it left)

    def add(self, process: Process) -> None:
        with self._lock:
            closed, spent = self._closed, self._spent
            self._live.add(process)
            if self._budget is not None and self._timer is None and not closed:
                self._timer = threading.Timer(self._budget, self._spend)
                self._timer.daemon = True
                self._timer.start()
        if closed:  # the run is ending: nothing new may keep running
            process.kill()
        elif spent:
            process.out_of_time()

    def _spend(self) -> None:
        with self._lock:
            self._spent = True
            live = list(self._live)
        for process in live:
            process.out_of_time()

    def discard(self, process: Process, result: RunResult) -> None:
        with self._lock:
            self._live.discard(process)
            self.leftovers += [(process.label, leftover) for leftover in result.leftovers]

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Kill every script still running and refuse to keep new ones alive."""
        with self._lock:
            self._closed = True
            live = list(self._live)
            if self._timer is not None:
                self._timer.cancel()
        for process in live:
            process.kill()


Requester = Callable[[Sequence[str], str, Mapping[str, str]], Request]  # (argv, cwd, env) -> Request


class Process:
    """A started script; ``wait`` or ``kill`` always ends everything it started."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        registry: ProcessRegistry,
        confinement: Confinement,
        request: Requester,
        label: str | None = None,
    ) -> None:
        self.argv = tuple(argv)
        self.label = label or Path(self.argv[-1] if len(self.argv) > 1 else self.argv[0]).name
        self._registry = registry
        self._started = time.monotonic()
        self._signalled = False
        self._timed_out = False
        self._out_of_time = False
        self._result: RunResult | None = None
        self._lock = threading.Lock()
        view = confinement.view
        seen_env = {k: view(v) for k, v in env.items()}
        self._run = _Launched(confinement, request([view(a) for a in self.argv], view(str(cwd)), seen_env))
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

    def ended(self, within: float) -> bool:
        """Whether the script ends within ``within`` seconds (it is left running either way)."""
        return self._run.wait(within)

    def wait(self, timeout: float) -> RunResult:
        """Wait up to ``timeout`` s for the script; then kill it. What it left is killed too."""
        if not self._run.wait(timeout):
            self._timed_out = True
        return self.kill()

    def out_of_time(self) -> None:
        """Stop the script as out of the run's time (see ProcessRegistry); nothing when it
        has ended already."""
        with self._lock:
            if self._result is None and not self._run.ended():
                self._timed_out = self._out_of_time = True
        self.kill()

    def kill(self) -> RunResult:
        """End the script (if still running) and everything it started; its RunResult."""
        with self._lock:
            if self._result is not None:
                return self._result
            ended_by_itself = self._run.ended() and not self._timed_out
            if not ended_by_itself:
                self._run.kill()
            code, leftovers = self._run.finish()
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
                out_of_time=self._out_of_time,
            )
        self._registry.discard(self, self._result)
        return self._result

    def signal(self, signum: int) -> None:
        """Signal the script and every process it started (e.g. SIGKILL in the middle of its
        work: a consumer doing its work in a child process is killed whole, as a service
        manager kills a service). Its keeper sends it: this returns before the script has it
        (see ``freeze``)."""
        if not self._run.ended():
            self._signalled = True
            self._run.command(signum)

    def freeze(self) -> bool:
        """SIGSTOP the script and every process it started, and return once they are stopped
        (or gone): from then on none does anything more, whatever the grader does next (a
        partner answering it, a look at the broker that takes its time). False when they could
        not be seen stopped."""
        self.signal(signal.SIGSTOP)
        return wait_for(self._run.stopped_or_gone, FREEZE_WAIT)

    def thaw(self) -> None:
        self.signal(signal.SIGCONT)


def _stopped_or_gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in (b"T", b"t", b"Z", b"X")


class OwnProcess:
    """A process of the grader's own (a claim partner): trusted code, run on the host in a
    session of its own, never handed anything of the scripts'; killed with its group. Its
    standard input is a pipe only the grader holds: a program that ends when it reads to the
    end (partner.py --until-stdin-closes) ends with the grader, a grader SIGKILLed included."""

    def __init__(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> None:
        import subprocess

        self.argv = tuple(argv)
        self._popen = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.PIPE,  # never written: its end is the grader's end
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        assert self._popen.stdout is not None
        self._stdout = _Tail(self._popen.stdout)
        self._started = time.monotonic()

    def stdout_so_far(self) -> str:
        return self._stdout.so_far()

    def running(self) -> bool:
        return not children.ended(self._popen)

    def kill(self) -> RunResult:
        children.signal_group(self._popen, signal.SIGKILL)
        if self._popen.stdin is not None:
            self._popen.stdin.close()
        import subprocess

        with contextlib.suppress(subprocess.TimeoutExpired):
            self._popen.wait(10)
        return RunResult(
            self.argv,
            self._popen.returncode,
            False,
            self._stdout.text(),
            "",
            time.monotonic() - self._started,
        )
