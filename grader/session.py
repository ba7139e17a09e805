"""One grading run: its lab root and working copies, the identity its scripts run under, the
boxes they run in, seals, fixtures and the scenario pool.

The run is built with an ExitStack: each part is closed by what registered it, in reverse, so
a run that fails half-way closes what it opened and nothing else. Closing goes:

1. every script killed (the registry), the scenarios' threads joined (the pool);
2. what the labs opened on the way (boxes, partners, the broker, the watch), last first;
3. every process of the run's identity killed, wherever it is (a fork chain included);
4. the seals checked (nothing the grader runs or reads later was changed);
5. the student's directories put back (host mode), the identity released, the scratch removed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import secrets
import sys
import tempfile
import threading
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from fixtures.tree import FixtureTree, build, load
from grader.config import AMQP_URL_VARIABLE, MANAGEMENT_URL_VARIABLE, GraderConfig
from grader.machinery import acting, proctable, seccomp
from grader.machinery.amqptap import AmqpLog
from grader.machinery.cgroup import Cgroup, CgroupUnavailable
from grader.machinery.environ import script_environment
from grader.machinery.identity import Identity
from grader.machinery.interrupts import Interrupts
from grader.machinery.nodes import stop_leftover_nodes
from grader.machinery.relay import Budget
from grader.machinery.rundir import BOUNDED, BOX_SCRATCH, RunDir, mount_tmpfs, unmount
from grader.machinery.runner import Leftover, Process, ProcessRegistry, RunResult
from grader.machinery.sandbox import (
    BOXED,
    BOXED_VIEW,
    RUN_BROKER_MOST,
    SHARED,
    Box,
    Confinement,
    HostLauncher,
    Launcher,
    Mount,
    Network,
    Request,
    Sandbox,
)
from grader.machinery.scenarios import ScenarioPool
from grader.machinery.seals import Digest, Seals, digest, tree_files
from grader.machinery.treecopy import AS_IT_IS, CopyPlan, shown
from grader.machinery.urls import password_as_written
from grader.machinery.workspace import Refused, Workspace, Workspaces
from grader.verdict import SPACE_SHOWN, ScriptsBroke

REPO = Path(__file__).resolve().parent.parent
FULL_BELOW = 1 << 20  # bytes free under which a bounded space counts as full
GRADER_FILES = ("grader", "fixtures", "solutions", "conftest.py", "pyproject.toml")
# What a seal names, in the students' language.
FIXTURES_SEAL, CODE_SEAL, STATE_SEAL = "픽스처", "채점기 코드", "채점기 상태 디렉터리"
# What a script may use of the machine (a fork bomb, a runaway file or memory stop here).
LIMITS = {
    "RLIMIT_NPROC": (512, 512),
    "RLIMIT_FSIZE": (1 << 30, 1 << 30),
    "RLIMIT_CORE": (0, 0),
    "RLIMIT_AS": (4 << 30, 4 << 30),
}


@dataclass(frozen=True)
class Lane:
    """One more working copy of a graded directory: scenarios that each need the directory to
    themselves run side by side, one per lane (namespace mode only)."""

    relative: str  # "q"
    live: Path


@dataclass
class Closing:
    """What the end of a run found: for the scoreboard and results.json."""

    notes: list[str] = field(default_factory=list)  # said once (kept copies, left-out files)
    not_restored: list[str] = field(default_factory=list)  # a student's directory not back
    errors: list[str] = field(default_factory=list)  # the grader's own cleanup failed
    tampered: dict[str, list[str]] = field(default_factory=dict)  # seal -> what changed
    leftovers: list[tuple[str, Leftover]] = field(default_factory=list)  # (script, process)
    survivors: list[str] = field(default_factory=list)  # processes of the identity that would not die


def _fixture_digest(tree: FixtureTree) -> Digest:
    expected = [tree.queue_inbox / f.name for f in tree.queue.files]
    expected += [tree.claims_dir / c.name for c in tree.claims.files] + [tree.mq_up, tree.partner]
    listed = tree_files(tree.queue_inbox) + tree_files(tree.claims_dir)
    return digest(tree.root, sorted(set(expected + listed)))


def _code_digest() -> Digest:
    paths = [p for name in GRADER_FILES for p in (REPO / name, *tree_files(REPO / name))]
    return digest(REPO, paths)


def _check_scripts_root(scripts_root: Path, sandbox: Sandbox) -> None:
    """Another lab root for the scripts: an existing directory, shown only in a namespace."""
    where = f"--scripts-root {shown(scripts_root)}"
    if not sandbox.namespaces:
        raise Refused(f"{where} 은(는) 네임스페이스 샌드박스에서만 쓸 수 있습니다({sandbox.header()}).")
    if not scripts_root.is_dir() or scripts_root == Path("/"):
        raise Refused(f"{where}: / 가 아닌, 이미 있는 디렉터리여야 합니다(스크립트에게만 비어 보입니다).")


def _check_no_password_shown(config: GraderConfig, sandbox: Sandbox) -> None:
    """Host mode: scripts share the machine's /proc, where every user reads every command line.
    A broker administrator's password in the URL on this run's command line, or on a caller's
    (batch, a wrapper script), would be theirs: refused before anything is changed, with the
    way to pass it unseen. (In a namespace, scripts see only their own processes.)"""
    if sandbox.namespaces:
        return
    shown_as = password_as_written(config.amqp_url, config.management_url)
    if (pid := proctable.on_a_command_line(shown_as, proctable.callers(os.getpid()))) is not None:
        raise Refused(
            f"브로커 관리자 비밀번호가 명령줄에 있습니다(PID {pid}: 이 기계의 모든 사용자가 읽을 수 있음). "
            f"호스트 모드에서는 학생 스크립트도 읽습니다. --amqp-url·--management-url 대신 환경 변수 "
            f"${AMQP_URL_VARIABLE}·${MANAGEMENT_URL_VARIABLE} 로 넘기세요."
        )


def _grader_trees() -> list[Path]:
    """What of the grader a script must not enter on the host: every directory of the
    checkout (its code, the reference solutions, the self-tests, its history) but the
    interpreter's virtualenv and the helpers scripts run (boxed/) and the way to them; or an
    installed grader's packages."""
    if not (REPO / "pyproject.toml").is_file():
        return _hidden_packages()
    keep = [Path(os.path.realpath(sys.prefix)), BOXED]
    found: list[Path] = []

    def walk(directory: Path) -> None:
        for entry in sorted(directory.iterdir()):
            if entry in keep or not entry.is_dir() or entry.is_symlink():
                continue
            if any(k.is_relative_to(entry) for k in keep):
                walk(entry)  # on the way to what scripts use: only its other entries
            else:
                found.append(entry)

    walk(REPO)
    return found


def _hidden_packages() -> list[Path]:
    """The grader's own packages where they would be visible to scripts (an installed grader
    in the interpreter's site-packages): covered by an empty directory in every box."""
    found = []
    for name in ("grader", "fixtures", "solutions"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None):
            found.append(Path(os.path.realpath(str(module.__file__))).parent)
    return found


def _full(path: Path) -> bool:
    """Whether the filesystem of ``path`` has less than FULL_BELOW bytes left."""
    try:
        fs = os.statvfs(path)
    except OSError:
        return False
    return fs.f_bavail * fs.f_frsize < FULL_BELOW


def _space_full(which: str) -> str:
    return (
        f"가득 참({which}): 스크립트들이 쓴 파일로 채점기가 이 검사의 입력을 놓을 수 없었습니다."
        " 스크립트는 큐에 필요한 것만 쓰세요."
    )


def script_python() -> str:
    """The interpreter scripts run with (the grader's own, with pika and requests): its
    directory as it really is, so a box that mounts real paths has it where it is said to be."""
    exe = Path(sys.executable)
    return str(Path(os.path.realpath(exe.parent)) / exe.name)


class Scripts:
    """Where one scenario's scripts run: a box of its own (namespace mode) or the host
    launcher, with scratch directories of its own that only it sees."""

    def __init__(self, grading: Grading, name: str, confinement: Confinement, scratch: Path) -> None:
        self.grading = grading
        self.name = name
        self.confinement = confinement
        self.scratch = scratch

    def scratch_dir(self) -> Path:
        """A fresh directory of this box's that its scripts may read and write (an opaque name:
        scripts must not tell from it what the grader is doing)."""
        with acting.as_scripts(self.grading.identity):
            return Path(tempfile.mkdtemp(prefix="", dir=self.scratch))

    def start(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str] | None = None) -> Process:
        return self.grading.start(argv, cwd=cwd, env=env, confinement=self.confinement)

    def run(
        self, argv: Sequence[str], *, cwd: Path, timeout: float, env: Mapping[str, str] | None = None
    ) -> RunResult:
        return self.start(argv, cwd=cwd, env=env).wait(timeout)

    @property
    def python(self) -> str:
        return script_python()

    @property
    def amqp(self) -> AmqpLog | None:
        """What the box's scripts told the broker (a network of their own, its broker port read:
        sandbox.carrying); None where their connections are not carried (host mode)."""
        launcher = self.confinement.launcher
        return launcher.amqp if isinstance(launcher, Box) else None

    def helper(self, name: str) -> str:
        """Where scripts of this box find the grader helper ``name`` (a file beside reaper.py)."""
        if isinstance(self.confinement.launcher, Box):
            return str(BOXED_VIEW / name)
        return str(BOXED / name)


class Grading:
    """Everything a run owns. ``close`` leaves nothing running and the student's files as found."""

    def __init__(
        self,
        config: GraderConfig,
        sandbox: Sandbox,
        protected: Sequence[str] = (),
        graded: Collection[str] = (),
        interrupts: Interrupts | None = None,
        adopt_orphans: bool = False,
    ) -> None:
        """``protected``: every lab's directories (relative to the lab root); ``graded``: the
        selected labs' (host mode checks first that it can put each back); ``adopt_orphans``:
        unused (kept for callers; every process of the run's identity is found by identity)."""
        self.config = config
        self.sandbox = sandbox
        self.interrupts = interrupts or Interrupts()
        self.registry = ProcessRegistry(config.scripts_budget)
        self.pool = ScenarioPool(config.workers)
        self.seals = Seals()
        self.notes: list[str] = []
        self.recovered: list[str] = []
        self.bounds: dict[str, str] = {}  # what bounds the scripts as a whole here: for results.json
        self._lock = threading.Lock()
        self._closing: Closing | None = None
        self._boxes = 0
        self._stack = ExitStack()
        self._found = Closing()
        try:
            self._open(protected, graded)
        except BaseException:
            self.close()
            raise

    # building the run ----------------------------------------------------------------------------
    def _guarded(self, what: str, action: Callable[[], None]) -> None:
        """Register ``action`` to run at close; a failure of it is reported, never raised."""

        def run() -> None:
            try:
                action()
            except Exception as exc:  # cleanup never hides the real failure; report it
                self._found.errors.append(f"{what}: {exc}")

        self._stack.callback(run)

    def _open(self, protected: Sequence[str], graded: Collection[str]) -> None:
        config = self.config
        _check_no_password_shown(config, self.sandbox)
        # What scripts of a dead grader still run goes first: a recovery (or its refusal) acts on
        # a tree nothing else changes any more (a leftover consume.py kept moving files while a
        # refused run's tree was being compared).
        swept = Identity.sweep()
        self.rundir = RunDir.for_lab_root(
            config.state_dir,
            config.lab_root,
            recoveries=(stop_leftover_nodes,),
            protected=protected,
            bounded=self.sandbox.namespaces,
        )
        self.recovered = self.rundir.open()
        self._guarded("removing the scratch", lambda: self._found.errors.extend(
            f"could not remove {left}" for left in self.rundir.close()
        ))  # fmt: skip
        if swept:
            self.recovered.append(
                f"killed {len(swept)} process(es) left by an interrupted run (중단된 채점의 프로세스를 끝냄)"
            )
        self.identity = Identity.claim()
        self._stack.callback(self.identity.release)
        self.cgroup: Cgroup | None = None
        # Every box's connections to the broker count against one budget for the run.
        self.broker_budget = Budget(RUN_BROKER_MOST)
        try:
            self.cgroup = Cgroup.make(self.identity.uid)
            self._guarded("removing the scripts' control group", self._close_cgroup)
            self.bounds = {"memory": f"{self.cgroup.memory_most >> 20} MiB for all scripts at once"}
            self.bounds["cpu"] = (
                "one share for all scripts at once" if self.cgroup.cpu_shared else "per process"
            )
        except CgroupUnavailable as exc:
            self.bounds = {"memory": f"per process only ({exc})", "cpu": "per process"}
        if not self.sandbox.namespaces:
            self.bounds["disk"] = "per file only (host mode)"
        elif self.rundir.unbounded is not None:
            self.bounds["disk"] = f"per file only ({self.rundir.unbounded})"
        else:
            self.bounds["disk"] = ", ".join(f"{name} {size >> 20} MiB" for name, size in BOUNDED.items())
        if not self.sandbox.namespaces:  # what a dead grader's scripts left, before any script runs
            self.identity.remove_leftovers()
        self.seccomp = seccomp.program()
        scratch = self.rundir.scratch
        self.fixtures: FixtureTree = (
            build(scratch / "fixtures") if config.fixtures_dir is None else load(config.fixtures_dir)
        )
        self.lab_root = config.lab_root or scratch / "root"
        self.lab_root.mkdir(exist_ok=True)
        if config.lab_root is None:  # the walkthroughs fill it with the reference solutions:
            self.lab_root.chmod(0o700)  # nobody's to read (another grade's host-mode script)
            for relative in protected:
                (self.lab_root / relative).mkdir(parents=True, exist_ok=True)
        self.scripts_root = config.scripts_root or self.lab_root
        if self.scripts_root != self.lab_root:
            _check_scripts_root(self.scripts_root, self.sandbox)
        self.workspaces = Workspaces(
            self.lab_root,
            self.scripts_root,
            self.sandbox.namespaces,
            self.rundir.work,
            self.rundir.journal,
            protected,
            owner=self.identity,
        )
        self.workspaces.check(graded)
        self._stack.callback(self._restore)
        # What the identity walks to: the trees the grader works in as the scripts (both
        # modes), and on the host what the scripts themselves run and read.
        reached = {self.rundir.scripts_scratch, self.rundir.work}
        if not self.sandbox.namespaces:
            reached |= {Path(sys.executable).parent, Path(os.path.realpath(sys.executable)).parent}
            reached |= {Path(sys.prefix), Path(sys.base_prefix), BOXED, self.fixtures.root}
        self.workspaces.let_through(sorted(reached))
        self.workspaces.keep_out(_grader_trees())
        self.seals.seal(FIXTURES_SEAL, lambda: _fixture_digest(self.fixtures))
        self.seals.seal(CODE_SEAL, _code_digest)
        skip = {"run", self.rundir.journal.path.name}
        self.seals.seal(STATE_SEAL, lambda: digest(self.rundir.base, tree_files(self.rundir.base, skip)))
        self._stack.callback(self._check_seals)
        self._stack.callback(self._end_identity)
        self._resources = self._stack.enter_context(ExitStack())  # what the labs open on the way
        self._host: HostLauncher | None = None
        if not self.sandbox.namespaces:
            self._host = HostLauncher(self.cgroup)
            self.on_close(self._host.close)
        self._stack.callback(self.pool.shutdown)
        self._stack.callback(self.registry.close)

    # closing --------------------------------------------------------------------------------------
    def close(self) -> Closing:
        """Kill every script and whatever it started, wait for the scenarios, check the seals,
        put the student's directories back, remove the scratch. Never raises: what went wrong
        is in the Closing."""
        if self._closing is not None:
            return self._closing
        self.interrupts.finishing()
        try:
            self._stack.close()
        except Exception as exc:  # a closer registered without a guard: still a report
            self._found.errors.append(f"closing: {exc}")
        closing = self._found
        closing.leftovers = list(self.registry.leftovers)
        closing.notes = self.notes + closing.notes
        self._closing = closing
        return closing

    def on_close(self, cleanup: Callable[[], None]) -> None:
        """Run ``cleanup`` when the run ends (last registered, first run), once every script of
        the run is dead, before the identity's last processes are killed."""
        with self._lock:
            self._resources.callback(self._guard(cleanup))

    def _guard(self, cleanup: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                cleanup()
            except Exception as exc:
                # its name, never its repr: a bound method's shows its object's fields
                self._found.errors.append(f"{getattr(cleanup, '__qualname__', 'cleanup')}: {exc}")

        return run

    def _close_cgroup(self) -> None:
        """After the identity's processes are gone: say what the memory bound killed, remove it."""
        assert self.cgroup is not None
        if kills := self.cgroup.kills():
            self._found.notes.append(
                "스크립트들이 채점 한 번에 함께 쓸 수 있는 메모리"
                f"({self.cgroup.memory_most >> 20} MiB)를 넘어,"
                f" 커널이 스크립트 프로세스 {kills}개를 끝냈습니다. 그 스크립트의 검사는 실패로 나옵니다."
            )
        self._found.errors.extend(self.cgroup.close())

    def _end_identity(self) -> None:
        survivors = self.identity.kill_all()
        self._found.survivors = [f"pid {pid}" for pid in survivors]
        if survivors:
            self._found.errors.append(
                f"processes of the script identity {self.identity.uid} would not die: {survivors}"
            )
            return
        if self.sandbox.namespaces:
            return  # its /tmp, /dev/shm and IPC were the box's own, gone with it
        for problem in self.identity.remove_leftovers():
            self._found.notes.append(f"스크립트가 남긴 임시 파일을 지우지 못함: {problem}")

    def _check_seals(self) -> None:
        closing = self._found
        closing.tampered = self.seals.broken()
        if FIXTURES_SEAL in closing.tampered:
            try:  # set right for the next run
                build(self.fixtures.root)
            except OSError as exc:
                closing.errors.append(f"could not rebuild the fixtures at {self.fixtures.root}: {exc}")
            else:
                closing.notes.append(f"픽스처 {shown(self.fixtures.root)} 를 다시 만들었습니다")

    def _restore(self) -> None:
        said, failed = self.workspaces.close()
        self._found.notes += said
        self._found.not_restored += failed

    # what the labs use ----------------------------------------------------------------------------
    def rng(self, scenario: str) -> random.Random:
        """A generator per scenario: reproducible with --grader-seed whatever the thread order."""
        return random.Random(f"{self.config.seed}:{scenario}")

    def own_dir(self, name: str) -> Path:
        """A fresh directory of the grader's own, never handed to scripts (out of their sight
        in namespace mode), removed with the run."""
        (self.rundir.scratch / "own").mkdir(mode=0o700, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.rundir.scratch / "own"))

    def scripts_space_full(self) -> str | None:
        """Whether the working copies' bounded space (namespace mode: a tmpfs of BOUNDED
        bytes that every scenario's scripts share) is full, in Korean; None when it is not."""
        path = self.rundir.work
        if not os.path.ismount(path) or not _full(path):
            return None
        return _space_full(f"작업 사본 {BOUNDED[path.name] >> 20} MiB") + (
            " 채점 한 번의 스크립트들이 이 공간을 나눠 쓰므로,"
            " 어느 스크립트가 채웠든 그 뒤의 검사가 실패합니다."
        )

    def note(self, text: str) -> None:
        """A line for the report's notes: something the grader did the student should know."""
        with self._lock:
            self.notes.append(text)

    def live(self, relative: str) -> Path:
        """Where LAB_ROOT/relative's working copy is (or will be): see ``workspace``."""
        return self.workspaces.live(relative)

    def workspace(self, relative: str, plan: CopyPlan = AS_IT_IS) -> Workspace:
        """The working copy of LAB_ROOT/relative, made before any check changes anything:
        ``live`` is where the student's scripts run and the grader writes its inputs,
        ``saved`` the student's directory as found (state checks read it; never written).
        ``plan`` says which subdirectories' contents are left out (the lab empties them) and
        which of the lab's files come first (``CopyPlan``)."""
        with self.interrupts.held():  # host mode renames the student's directory: never halfway
            workspace, left_out = self.workspaces.open(relative, plan)
        with self._lock:
            self.notes += [f"작업 사본에서 뺀 것: {what}" for what in left_out]
        return workspace

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of every script the grader runs (a contract, see the README):
        LAB_ROOT (as the scripts see it), LAB_FIXTURES, EAI_AMQP_URL and EAI_MQ_DB always set;
        an mq scene sets its own vhost and database in ``extra``. Nothing else of the grader's
        environment reaches a script (it may hold credentials)."""
        env = script_environment(
            HOME=str(self.scripts_root),
            LAB_ROOT=str(self.scripts_root),
            LAB_FIXTURES=str(self.fixtures.root),
            EAI_AMQP_URL="amqp://guest:guest@127.0.0.1:5672/%2F",
            EAI_MQ_DB=str(self.rundir.scripts_scratch / "no-mq-scene.db"),
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONUNBUFFERED="1",
            LC_ALL="C.UTF-8",
        )
        env.update(extra or {})
        return env

    def lanes(self, relative: str, count: int, plan: CopyPlan = AS_IT_IS) -> list[Lane]:
        """Up to ``count`` more working copies of LAB_ROOT/relative (made now); none in host
        mode, where the scripts can only ever see one directory at LAB_ROOT/relative."""
        if not self.sandbox.namespaces or not self.workspaces.open_copy(relative):
            return []
        # What a copy leaves out was said when the directory's own working copy was made.
        return [
            Lane(relative, self.workspaces.another_copy(relative, f"lane-{n}", plan)[0])
            for n in range(1, count + 1)
        ]

    @contextlib.contextmanager
    def scripts(self, purpose: str, lane: Lane | None = None, network: Network = SHARED) -> Iterator[Scripts]:
        """A box for one scenario's scripts (``lane``: another working copy shown in place of
        its directory; ``network``: what its scripts reach of the machine's, see sandbox.Network),
        closed with everything in it when the scenario is done with it. (Host mode shares the
        machine's network whatever ``network`` says.)"""
        with self._lock:
            self._boxes += 1
            name = f"{self._boxes:03d}-{purpose}"  # for the grader's own messages
        # An opaque directory: its scripts see its path, which must not tell them the scene.
        scratch = self.rundir.scripts_scratch / secrets.token_hex(6)
        scratch.mkdir(mode=0o700)
        if self._host is not None:
            self.identity.hand_over(scratch)
            yield Scripts(self, name, Confinement(self._host), scratch)
            return
        # A box's scratch is a tmpfs of its own: what its scripts write there fills nobody
        # else's (red team 21: one consumer's 200 MiB failed the order checks and lag.sh).
        bounded = self.rundir.unbounded is None and self.rundir.bounded
        if bounded and (why := mount_tmpfs(scratch, BOX_SCRATCH)) is not None:
            raise OSError(errno.EIO, why)
        try:
            os.chmod(scratch, 0o700)
            self.identity.hand_over(scratch)
            box = self._box(scratch, lane, network)
            self.on_close(box.launcher.close)  # a box the scenario never got to close (an interrupted run)
            try:
                yield Scripts(self, name, box, scratch)
            except OSError as exc:
                if bounded and exc.errno in (errno.ENOSPC, errno.EDQUOT) and _full(scratch):
                    raise ScriptsBroke(
                        SPACE_SHOWN, _space_full(f"임시 폴더 {BOX_SCRATCH >> 20} MiB")
                    ) from exc
                raise
            finally:
                box.launcher.close()
        finally:
            if bounded:
                unmount(scratch)

    def _box(self, scratch: Path, lane: Lane | None, network: Network) -> Confinement:
        """A box's view (see sandbox.py): the interpreter, the fixtures, the launcher, the
        working copies where the scripts expect them, and ``scratch``."""
        interpreter = Path(os.path.realpath(sys.executable)).parent.parent
        read_only = {interpreter, Path(sys.prefix), Path(sys.base_prefix), self.fixtures.root}
        real = sorted({Path(os.path.realpath(path)) for path in read_only})
        mounts = [Mount(path, path) for path in real]
        mounts += [
            Mount(path, None) for path in _hidden_packages() if any(path.is_relative_to(r) for r in real)
        ]
        default_fixtures = Path("/opt/lab/fixtures")
        if Path(os.path.realpath(self.fixtures.root)) != default_fixtures:
            mounts.append(Mount(default_fixtures, self.fixtures.root))
        lab_mounts, views = self.workspaces.mounts({lane.relative: lane.live} if lane else {})
        mounts += [*lab_mounts, Mount(scratch, scratch, writable=True)]
        return Confinement(Box(mounts, network, self.cgroup, self.broker_budget), tuple(views))

    def _request(self, argv: Sequence[str], cwd: str, env: Mapping[str, str]) -> Request:
        return Request(argv, cwd, env, self.identity.uid, self.identity.gid, self.seccomp, LIMITS)

    def _label(self, argv: Sequence[str]) -> str:
        """The script a command runs, by name (consume.py): who answers for its leftovers."""
        for arg in argv[1:]:
            if arg.startswith("/") and os.path.isfile(arg):
                return Path(arg).name
        return Path(argv[0]).name

    def start(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        confinement: Confinement,
        env: Mapping[str, str] | None = None,
    ) -> Process:
        return Process(
            argv,
            cwd=cwd,
            env=self.env(env),
            registry=self.registry,
            confinement=confinement,
            request=self._request,
            label=self._label(argv),
        )

    @property
    def launcher(self) -> Launcher | None:
        """The host launcher (host mode), else None."""
        return self._host
