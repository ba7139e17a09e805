"""Where a student script runs: in a box (a bubblewrap namespace) or on the host when this
machine has no namespaces (some lab pods). In both, under the run's identity (identity.py),
which holds no capability over the machine, and behind the seccomp filter (seccomp.py).

Namespace mode: one box per scenario (``Box``): a private mount, PID, IPC and UTS namespace
where a script sees
- the machine's system directories (/usr, /etc, the library and binary directories, /sys)
  read-only, and nothing else of the machine's tree: no /root, /home, /var, /srv, /work, no
  grader code, no reference solutions, no state dir, no other run's or scenario's files;
- the interpreter the grader runs scripts with, and the fixture tree, read-only;
- the lab root as an empty directory holding only the working copies, writable, where the
  scripts expect the student's directories (LAB_ROOT/q ...), and the box's own scratch
  directories, writable;
- a private /tmp, /var/tmp and /dev/shm, a /dev of its own and a /proc showing only the box;
- the launcher (reaper.py) as its first process, which starts every script under a keeper of
  its own, as root of a user namespace of its own mapped onto the run's identity.
When the box closes, the kernel kills every process in it.

Host mode: the launcher runs on the host as the grader's child; scripts run as the run's
identity itself, on the machine's tree (they can read what any unprivileged user can).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.machinery import children, proctable
from grader.machinery.amqptap import AmqpLog
from grader.machinery.cgroup import Cgroup
from grader.machinery.environ import environment
from grader.machinery.relay import FREE, Budget, Relay

NAMESPACE, NONE = "namespace", "none"
BOXED = Path(__file__).with_name("boxed")  # what runs inside a box: shown there at BOXED_VIEW
BOXED_VIEW = Path("/run/lab-grader")
REAPER = BOXED / "reaper.py"
LEFTOVER_GRACE = 0.3  # seconds a script's last processes get to end by themselves (reaper.GRACE)
CLOSE_WAIT = 10.0  # seconds a closing box or launcher gets before it is named and left
# The machine's own directories a script may read: its programs, libraries and configuration.
SYSTEM = ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "sys")
# Bytes of each tmpfs of a box (/tmp, /var/tmp, /dev/shm, the lab root around the working
# copies). Their pages are memory no kill gives back, and an mq grade runs a dozen boxes at
# once: at 512 MiB each, scripts filling them took 10 GB and more, and the kernel killed the
# grader and the class broker instead (red team 20). A lab's scripts keep kilobytes there.
TMP_SIZE = 16 << 20
# The launcher keeps what it needs to start scripts under another identity; the scripts keep
# nothing of it (reaper.py). No CAP_SYS_ADMIN: the box's mounts cannot be undone from inside.
LAUNCHER_CAPS = ("CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH")
CAP_SYS_RESOURCE = 24


def _holds(cap: int) -> bool:
    """This process has ``cap`` in effect (some containers' root lacks CAP_SYS_RESOURCE)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("CapEff:"):
                return bool(int(line.split()[1], 16) >> cap & 1)
    return False


# Where the grader holds it, the launcher keeps CAP_SYS_RESOURCE too: with it a keeper gives its
# script the OOM killer's highest score for good (reaper.py), so that the run's memory bound
# (cgroup.py) kills a script, never the launcher.
_KEEPS = (*LAUNCHER_CAPS, "CAP_SYS_RESOURCE") if _holds(CAP_SYS_RESOURCE) else LAUNCHER_CAPS
BOX_FLAGS = (
    "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    "--die-with-parent", "--new-session", "--as-pid-1",
    "--cap-drop", "ALL",
    *(arg for cap in _KEEPS for arg in ("--cap-add", cap)),
)  # fmt: skip


@dataclass(frozen=True)
class Network:
    """What a box's scripts reach of the machine's network: all of it (``SHARED``), or a
    network of their own whose loopback carries ``carried`` (ports of the machine's loopback:
    their scene's broker and claim partner) and nothing else."""

    shared: bool = False
    carried: tuple[int, ...] = ()
    amqp: int | None = None  # of ``carried``: the broker's, its connections read (amqptap.py)


SHARED = Network(shared=True)  # the machine's network, as any process of it has
ALONE = Network()  # a network of their own, nothing carried: scripts that need none
RELAY_MOST = 64  # connections a box's scripts may have carried at once (a scene's vhost takes 64)
# Connections to the broker all the boxes of one run may have carried at once beyond each box's
# first relay.FREE: a grade's dozen and more boxes at RELAY_MOST each once held more than the
# node a class shares takes (CONNECTION_MAX, 512), and classmates' grades waited on it (red
# team 31). A grade's scenes need one or two each, which the FREE ones are.
RUN_BROKER_MOST = 48
MQ_BOXES = 20  # boxes of one mq grade at once, at most: one a scenario
GRADE_BROKER_MOST = RUN_BROKER_MOST + FREE * MQ_BOXES  # what one grade's scripts may hold at once


def carrying(*ports: int, amqp: int | None = None) -> Network:
    return Network(carried=tuple(ports), amqp=amqp)


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


# What the keeper does for each script (boxed/reaper.py): drop to an unprivileged identity, then
# make a user namespace of its own and map it. A kernel that refuses unprivileged user
# namespaces (a sysctl, an AppArmor policy) refuses it here too, and the box is not used.
_PROBE = (
    "import ctypes,os,sys\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "os.setgroups([]); os.setresgid(65534, 65534, 65534); os.setresuid(65534, 65534, 65534)\n"
    "libc.prctl(4, 1, 0, 0, 0)\n"
    "if libc.unshare(0x10000000): sys.exit(ctypes.get_errno())\n"
    "for name, text in (('uid_map', '0 65534 1'), ('setgroups', 'deny'), ('gid_map', '0 65534 1')):\n"
    "    open('/proc/self/' + name, 'w').write(text)\n"
)


@functools.cache
def probe() -> str | None:
    """None when a box like the scripts' starts here and a user namespace can be made in it;
    otherwise why not."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return "bwrap (bubblewrap) is not installed"
    python = os.path.realpath(sys.executable)
    try:
        run = subprocess.run(
            [
                bwrap,
                *BOX_FLAGS,
                "--unshare-net",  # boxes of their own network (relay.py) are made the same way
                *system_view(),
                *_ro(Path(python).parent.parent),
                "--",
                python,
                "-I",
                "-S",
                "-c",
                _PROBE,
            ],
            env=environment(),
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap did not run: {exc}"
    if run.returncode != 0:
        said = run.stderr.strip()[-300:] or f"a user namespace cannot be made in it (errno {run.returncode})"
        return f"bwrap cannot make a box here: {said}"
    return None


def choose(requested: str) -> Sandbox:
    """auto: namespaces when they work here (probed once); namespace: them or an error."""
    if requested == NONE:
        return Sandbox(NONE, "forced by --sandbox none")
    why_not = probe()
    if why_not is None:
        return Sandbox(NAMESPACE, "bwrap: a box per scenario, scripts as root of their own user namespace")
    if requested == NAMESPACE:
        raise SandboxUnavailable(f"--sandbox namespace: {why_not}")
    return Sandbox(NONE, f"no namespaces: {why_not}")


def _ro(path: Path) -> list[str]:
    return ["--ro-bind", str(path), str(path)]


def system_view() -> list[str]:
    """bwrap arguments: the machine's system directories read-only (links as links), private
    temporary directories, a /dev and a /proc of the box's own."""
    args: list[str] = []
    for name in SYSTEM:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += _ro(path)
    args += ["--dev", "/dev", "--proc", "/proc"]
    for tmp in ("/tmp", "/var/tmp", "/dev/shm"):
        args += ["--perms", "1777", "--size", str(TMP_SIZE), "--tmpfs", tmp]
    return args


@dataclass(frozen=True)
class Mount:
    dest: Path
    source: Path | None  # None: an empty tmpfs
    writable: bool = False


@dataclass(frozen=True)
class Request:
    """One script to start, as the launcher reads it (see reaper.py)."""

    argv: Sequence[str]
    cwd: str
    env: Mapping[str, str]
    uid: int
    gid: int
    seccomp: bytes
    limits: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    def encode(self, userns: bool) -> bytes:
        return json.dumps(
            {
                "argv": list(self.argv),
                "cwd": self.cwd,
                "env": dict(self.env),
                "uid": self.uid,
                "gid": self.gid,
                "userns": userns,
                "seccomp": self.seccomp.hex(),
                "limits": {k: list(v) for k, v in self.limits.items()},
            }
        ).encode()


class LauncherGone(RuntimeError):
    """A box or host launcher could not be started, or is gone: a harness fault."""


# kept for the callers that still use the old name
NamespaceGone = LauncherGone


class Launcher:
    """reaper.py started on first use, in a box or on the host, by a thread of its own that
    lives as long as it does (bwrap's --die-with-parent ends a box when the thread that started
    it ends); ``launch`` hands it one script."""

    userns = False

    def __init__(self, cgroup: Cgroup | None = None) -> None:
        self.cgroup = cgroup  # the run's group its processes are born in (None: no group here)
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._started = threading.Event()
        self._closed = threading.Event()
        self._failure: BaseException | None = None
        self.leftover: str | None = None  # what would not end when it closed

    def _argv(self, python: str, control: int) -> list[str]:
        raise NotImplementedError

    def _fds(self) -> tuple[int, ...]:
        """More descriptors ``_argv`` names, for the launcher's process to inherit."""
        return ()

    def _ready(self) -> None:
        """Run once the launcher's process has started, before any script is handed to it."""

    def _start(self) -> socket.socket:
        threading.Thread(target=self._own, name="script-launcher", daemon=True).start()
        self._started.wait()
        if self._control is None:
            raise LauncherGone(f"the script launcher did not start: {self._failure}")
        return self._control

    def _own(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            argv = self._argv(os.path.realpath(sys.executable), theirs.fileno())
            if self.cgroup is not None:
                argv = self.cgroup.join_argv(argv)
            self._process = subprocess.Popen(
                argv,
                # An environment of its own, never the process's: a child started by vfork
                # execs with ``environ`` itself, which pytest's thread may be reallocating
                # (PYTEST_CURRENT_TEST) at that moment: the exec then fails with EFAULT.
                env=environment(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                pass_fds=(theirs.fileno(), *self._fds()),
                start_new_session=True,
            )
            self._ready()
            self._control = ours
        except (OSError, LauncherGone) as exc:
            self._failure = exc
            ours.close()
        finally:
            theirs.close()
            self._started.set()
        self._closed.wait()

    def init_pid(self) -> int | None:
        """The launcher's pid on the host while it runs."""
        raise NotImplementedError

    def launch(self, request: Request, fds: Sequence[int]) -> None:
        """Start ``request`` with ``fds`` (stdin, stdout, stderr, report, commands)."""
        message = request.encode(self.userns)
        with self._lock:
            if self._closed.is_set():
                raise LauncherGone("the run is ending: no script starts any more")
            control = self._control or self._start()
            try:
                socket.send_fds(control, [message], list(fds))
            except OSError as exc:
                raise LauncherGone(f"the script launcher is gone ({exc}): {self._said()}") from exc

    def _said(self) -> str:
        """What the launcher (or bwrap) said on stderr, once it has ended."""
        if self._process is None or self._process.stderr is None or not children.ended(self._process):
            return ""
        return self._process.stderr.read().decode(errors="replace")[-500:]

    def close(self) -> None:
        """End the launcher and every process below it, within CLOSE_WAIT seconds."""
        with self._lock:
            self._closed.set()
            if self._process is None:
                return
            init = self.init_pid()
            if self._control is not None:
                self._control.close()
            if init is not None and init != self._process.pid:
                proctable.kill_all([init])  # looked up just now: bwrap's child
            self._process.kill()  # not if reaped already: its number may be another's (children.py)
            try:
                self._process.wait(CLOSE_WAIT)
            except subprocess.TimeoutExpired:
                self.leftover = f"the script launcher (pid {self._process.pid}) did not end"
            if self._process.stderr is not None:
                self._process.stderr.close()


class Box(Launcher):
    """A bwrap namespace with ``mounts`` on top of the system view (see the module's docstring)."""

    userns = True

    def __init__(
        self,
        mounts: Sequence[Mount],
        network: Network = SHARED,
        cgroup: Cgroup | None = None,
        budget: Budget | None = None,
    ) -> None:
        super().__init__(cgroup)
        self.mounts = tuple(mounts)
        self.network = network
        self.budget = budget  # the run's, for its boxes' connections to the broker
        self._info: tuple[int, int] | None = None  # bwrap's --info-fd: (ours, its)
        self._block: tuple[int, int] | None = None  # bwrap's --block-fd: (its, ours)
        self._relay: Relay | None = None
        # What its scripts tell the broker, when their network is their own (amqptap.py).
        self.amqp = AmqpLog() if network.amqp is not None and not network.shared else None

    def _args(self) -> list[str]:
        args = system_view()
        mounts = [*self.mounts, Mount(BOXED_VIEW, BOXED)]  # the launcher and its helpers
        made = {Path("/"), *(m.dest for m in mounts)}
        for mount in sorted(mounts, key=lambda m: len(m.dest.parts)):  # parents first
            for parent in reversed(mount.dest.parents):  # searchable by all (bwrap's own are 0700)
                if parent not in made:
                    made.add(parent)
                    args += ["--perms", "0755", "--dir", str(parent)]
            if mount.source is None:
                args += ["--perms", "0755", "--size", str(TMP_SIZE), "--tmpfs", str(mount.dest)]
            elif mount.source.exists():
                args += ["--bind" if mount.writable else "--ro-bind", str(mount.source), str(mount.dest)]
        return args

    def _argv(self, python: str, control: int) -> list[str]:
        bwrap = shutil.which("bwrap") or "bwrap"
        reaper = [python, "-I", "-S", str(BOXED_VIEW / REAPER.name), str(control)]
        alone = []
        if not self.network.shared:
            self._info, self._block = os.pipe(), os.pipe()
            alone = ["--unshare-net", "--info-fd", str(self._info[1]), "--block-fd", str(self._block[0])]
        return [bwrap, *BOX_FLAGS, *alone, *self._args(), "--chdir", "/", "--", *reaper]

    def _fds(self) -> tuple[int, ...]:
        return (self._info[1], self._block[0]) if self._info and self._block else ()

    def _ready(self) -> None:
        """A box of its own network: the ports it carries listened on inside, before any
        script starts (bwrap tells the pid of its child, born in the new namespace)."""
        if self._info is None or self._block is None:
            return
        ours, its = self._info
        os.close(its)
        os.close(self._block[0])
        try:
            said = b""
            with os.fdopen(ours, "rb") as info:  # a JSON object over lines; its last line "}"
                while (line := info.readline()) and line.strip() != b"}":
                    said += line
            said += b"}"
            try:
                child = int(json.loads(said)["child-pid"])
            except (ValueError, KeyError, TypeError) as exc:
                raise LauncherGone(f"bwrap did not say where its box is: {said[:200]!r}") from exc
            if self.network.carried:  # its child waits (--block-fd) with its loopback up
                taps = {self.network.amqp: self.amqp} if self.network.amqp and self.amqp else {}
                netns = Path(f"/proc/{child}/ns/net")
                broker = self.network.amqp
                budget = (self.budget, broker) if self.budget is not None and broker else None
                self._relay = Relay(netns, self.network.carried, RELAY_MOST, taps, budget)
        finally:
            os.write(self._block[1], b"go")  # (a box that failed here is killed on close)
            os.close(self._block[1])

    def close(self) -> None:
        super().close()
        if self._relay is not None:
            self._relay.close()

    def init_pid(self) -> int | None:
        if self._process is None or children.ended(self._process):
            return None
        found = proctable.children(self._process.pid)
        return found[0] if found else None


class HostLauncher(Launcher):
    """reaper.py as a child of the grader on the host (host mode)."""

    def _argv(self, python: str, control: int) -> list[str]:
        return [python, "-I", "-S", str(REAPER), str(control), "--host"]

    def init_pid(self) -> int | None:
        if self._process is None or children.ended(self._process):
            return None
        return self._process.pid


@dataclass(frozen=True)
class Confinement:
    """Where a script is started (a box, or the host launcher) and how paths read there."""

    launcher: Launcher
    views: tuple[tuple[Path, Path], ...] = field(default=())  # (grader's path, what scripts see there)

    def view(self, text: str) -> str:
        """``text`` (an argument, the working directory, an environment value) as a script
        sees it: a path below a working copy is shown where it is mounted (LAB_ROOT/q/consume.py,
        not the grader's scratch path)."""
        for host, seen in self.views:
            if text == str(host) or text.startswith(f"{host}/"):
                return str(seen) + text[len(str(host)) :]
        return text
