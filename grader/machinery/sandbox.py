"""Where a student script runs: inside a private mount and PID namespace (bubblewrap), or on
the host when this machine has no namespaces (some lab pods).

Namespace mode: one namespace per grading run (``Namespace``), where every script sees the
machine's own tree with, on top,
- the grader's working copies mounted writable where the script expects the student's
  directories (LAB_ROOT/q ...), so the student's own directories are never touched;
- the grader's code, its interpreter, the fixtures and the state dir read-only (only the
  scratch dirs scripts are handed stay writable);
- a PID namespace whose first process is the reaper (reaper.py), which starts every script
  under a keeper of its own: nothing a script starts can leave the namespace, and whatever is
  left when the script ends is named and killed;
- every capability dropped except those a root student needs for their own files: never
  CAP_SYS_ADMIN (the mounts cannot be undone) nor CAP_LINUX_IMMUTABLE, and no_new_privs.

Host mode starts the script itself, in a session of its own; the runner finds what it leaves
by the marker in its environment (runner.py).
"""

from __future__ import annotations

import functools
import json
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.machinery import proctable
from grader.machinery.environ import environment

NAMESPACE, NONE = "namespace", "none"
REAPER = Path(__file__).with_name("reaper.py")
LEFTOVER_GRACE = 0.3  # seconds a script's last processes get to end by themselves (reaper.GRACE)
# What a root student needs for their own files; everything else is dropped.
KEEP_CAPS = ("CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL")
NAMESPACE_FLAGS = (
    "--bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--unshare-pid",
    "--die-with-parent",
    "--new-session",
    "--cap-drop", "ALL",
    *(arg for cap in KEEP_CAPS for arg in ("--cap-add", cap)),
)  # fmt: skip


class SandboxUnavailable(RuntimeError):
    """--sandbox namespace (or --scripts-root) asked for namespaces this machine lacks."""


@dataclass(frozen=True)
class Sandbox:
    mechanism: str  # NAMESPACE or NONE
    why: str  # for the report header: how it was chosen

    @property
    def namespaces(self) -> bool:
        return self.mechanism == NAMESPACE

    def header(self) -> str:
        return f"sandbox={self.mechanism} ({self.why})"


@functools.cache
def probe() -> str | None:
    """None when a bwrap namespace like the scripts' starts here; otherwise why not."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bwrap (bubblewrap) is not installed"
    try:
        run = subprocess.run(
            [bwrap, *NAMESPACE_FLAGS, "--as-pid-1", "--", "true"],
            env=environment(),
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap did not run: {exc}"
    if run.returncode != 0:
        return f"bwrap cannot make a namespace here: {run.stderr.strip()[-300:]}"
    return None


def choose(requested: str) -> Sandbox:
    """auto: namespaces when they work here (probed once); namespace: them or an error."""
    if requested == NONE:
        return Sandbox(NONE, "forced by --sandbox none")
    why_not = probe()
    if why_not is None:
        return Sandbox(NAMESPACE, "bwrap: private mount and PID namespace")
    if requested == NAMESPACE:
        raise SandboxUnavailable(f"--sandbox namespace: {why_not}")
    return Sandbox(NONE, f"no namespaces: {why_not}")


@dataclass(frozen=True)
class Mount:
    dest: Path
    source: Path | None  # None: an empty tmpfs
    writable: bool = False


class NamespaceGone(RuntimeError):
    """The script namespace could not be started, or is gone: a harness fault."""


class Namespace:
    """The run's script namespace: bwrap with ``mounts`` and the reaper as its first process,
    started on first use; ``launch`` starts one script in it."""

    def __init__(self, mounts: Sequence[Mount]) -> None:
        self.mounts = tuple(mounts)
        self._lock = threading.Lock()
        self._bwrap: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._started = threading.Event()
        self._closed = threading.Event()
        self._failure: BaseException | None = None

    def _args(self) -> list[str]:
        args: list[str] = []
        for mount in sorted(self.mounts, key=lambda m: len(m.dest.parts)):  # parents first
            if mount.source is None:
                args += ["--tmpfs", str(mount.dest)]
            elif mount.source.exists():
                args += ["--bind" if mount.writable else "--ro-bind", str(mount.source), str(mount.dest)]
        return args

    def _start(self) -> socket.socket:
        """bwrap is started by a thread of its own that lives as long as the namespace:
        --die-with-parent ends the namespace when the thread that started it ends."""
        threading.Thread(target=self._own, name="script-namespace", daemon=True).start()
        self._started.wait()
        if self._control is None:
            raise NamespaceGone(f"the script namespace did not start: {self._failure}")
        return self._control

    def _own(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        bwrap = shutil.which("bwrap") or "bwrap"
        reaper = [sys.executable, "-I", "-S", str(REAPER), str(theirs.fileno())]
        try:
            self._bwrap = subprocess.Popen(
                [bwrap, *NAMESPACE_FLAGS, "--as-pid-1", *self._args(), "--chdir", "/", "--", *reaper],
                # An environment of its own, never the process's: a child started by vfork
                # execs with ``environ`` itself, which pytest's thread may be reallocating
                # (PYTEST_CURRENT_TEST) at that moment: the exec then fails with EFAULT.
                env=environment(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                pass_fds=(theirs.fileno(),),
                start_new_session=True,
            )
            self._control = ours
        except OSError as exc:
            self._failure = exc
            ours.close()
        finally:
            theirs.close()
            self._started.set()
        self._closed.wait()

    def init_pid(self) -> int | None:
        """The reaper's pid on the host while it runs (bwrap's child: never a reused pid)."""
        if self._bwrap is None or self._bwrap.poll() is not None:
            return None
        found = proctable.children(self._bwrap.pid)
        return found[0] if found else None

    def launch(self, argv: Sequence[str], cwd: str, env: Mapping[str, str], fds: Sequence[int]) -> None:
        """Start ``argv`` in the namespace with ``fds`` (stdin, stdout, stderr, report)."""
        request = json.dumps({"argv": list(argv), "cwd": cwd, "env": dict(env)}).encode()
        with self._lock:
            control = self._control or self._start()
            try:
                socket.send_fds(control, [request], list(fds))
            except OSError as exc:
                raise NamespaceGone(f"the script namespace is gone ({exc}): {self._said()}") from exc

    def _said(self) -> str:
        """What bwrap said on stderr, once it has ended."""
        if self._bwrap is None or self._bwrap.stderr is None or self._bwrap.poll() is None:
            return ""
        return self._bwrap.stderr.read().decode(errors="replace")[-500:]

    def close(self) -> None:
        """End the namespace: every process in it is killed."""
        with self._lock:
            self._end()
        self._closed.set()

    def _end(self) -> None:
        if self._bwrap is not None:
            init = self.init_pid()
            if self._control is not None:
                self._control.close()
            proctable.kill_all([init] if init is not None else [])
            if init is None and self._bwrap.poll() is None:
                proctable.kill_all([self._bwrap.pid])
            self._bwrap.wait()
            if self._bwrap.stderr is not None:
                self._bwrap.stderr.close()


@dataclass(frozen=True)
class Confinement:
    """Where a script is started: the run's namespace, or the host."""

    sandbox: Sandbox
    namespace: Namespace | None = None
    views: tuple[tuple[Path, Path], ...] = field(default=())  # (grader's path, what scripts see there)

    def view(self, text: str) -> str:
        """``text`` (an argument, the working directory, an environment value) as a script
        sees it: a path below a working copy is shown where it is mounted (LAB_ROOT/q/consume.py,
        not the grader's scratch path)."""
        for host, seen in self.views:
            if text == str(host) or text.startswith(f"{host}/"):
                return str(seen) + text[len(str(host)) :]
        return text
