"""One grading run: its lab root and working copies, scripts, seals, fixtures and scenario pool."""

from __future__ import annotations

import os
import random
import sys
import tempfile
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fixtures.tree import FixtureTree, build, load
from grader.config import GraderConfig
from grader.machinery import proctable
from grader.machinery.environ import environment
from grader.machinery.interrupts import Interrupts
from grader.machinery.nodes import stop_leftover_nodes
from grader.machinery.rundir import RunDir
from grader.machinery.runner import Leftover, Process, ProcessRegistry, RunResult
from grader.machinery.sandbox import Confinement, Mount, Namespace, Sandbox
from grader.machinery.scenarios import ScenarioPool
from grader.machinery.seals import Digest, Seals, digest, tree_files
from grader.machinery.treecopy import shown
from grader.machinery.workspace import Refused, Workspace, Workspaces

REPO = Path(__file__).resolve().parent.parent
GRADER_FILES = ("grader", "fixtures", "solutions", "conftest.py", "pyproject.toml")
# What a seal names, in the students' language.
FIXTURES_SEAL, CODE_SEAL, STATE_SEAL = "픽스처", "채점기 코드", "채점기 상태 디렉터리"


@dataclass(frozen=True)
class Lane:
    """One more working copy of a graded directory, in a namespace of its own that shows it
    where the scripts expect the directory: scenarios that each need the directory to
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
        this process is the grader and nothing else (host mode makes it the subreaper of its
        scripts' orphans, and kills whatever of them is left at the end)."""
        self.config = config
        self.sandbox = sandbox
        self.interrupts = interrupts or Interrupts()
        self.rundir = RunDir.for_lab_root(
            config.state_dir, config.lab_root, recoveries=(stop_leftover_nodes,), protected=protected
        )
        self.recovered = self.rundir.open()
        self.registry = ProcessRegistry(self.rundir.key)
        self.pool = ScenarioPool(config.workers)
        self.seals = Seals()
        self.notes: list[str] = []
        self._cleanups: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._closing: Closing | None = None
        self._confinements: dict[Lane | None, Confinement] = {}  # namespace mode: one namespace each
        self._adopting = adopt_orphans and not sandbox.namespaces
        if self._adopting:
            proctable.become_subreaper()  # a daemon that escapes the marker still comes back here
        try:
            scratch = self.rundir.scratch
            if config.fixtures_dir is None:
                self.fixtures: FixtureTree = build(scratch / "fixtures")
            else:
                self.fixtures = load(config.fixtures_dir)
            self.lab_root = config.lab_root or scratch / "root"
            self.lab_root.mkdir(exist_ok=True)
            if config.lab_root is None:  # the walkthroughs fill them: the namespace shows copies there
                for relative in protected:
                    (self.lab_root / relative).mkdir(parents=True, exist_ok=True)
            self.scripts_root = config.scripts_root or self.lab_root
            if self.scripts_root != self.lab_root:
                _check_scripts_root(self.scripts_root, sandbox)
            self.workspaces = Workspaces(
                self.lab_root,
                self.scripts_root,
                sandbox.namespaces,
                self.rundir.work,
                self.rundir.journal,
                protected,
            )
            self.workspaces.check(graded)
            self.seals.seal(FIXTURES_SEAL, lambda: _fixture_digest(self.fixtures))
            self.seals.seal(CODE_SEAL, _code_digest)
            skip = {
                "run/scratch",
                "run/work",
                "run/own",
                "run/broker",
                "run/root",
                self.rundir.journal.path.name,
            }
            self.seals.seal(STATE_SEAL, lambda: digest(self.rundir.base, tree_files(self.rundir.base, skip)))
        except BaseException:
            self.close()
            raise

    def on_close(self, cleanup: Callable[[], None]) -> None:
        """Run ``cleanup`` when the run ends (last registered, first run), before restoring."""
        with self._lock:
            self._cleanups.append(cleanup)

    def rng(self, scenario: str) -> random.Random:
        """A generator per scenario: reproducible with --grader-seed whatever the thread order."""
        return random.Random(f"{self.config.seed}:{scenario}")

    def scratch_dir(self, name: str) -> Path:
        """A fresh directory of the grader's that scripts may read and write."""
        return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.rundir.scripts_scratch))

    def own_dir(self, name: str) -> Path:
        """A fresh directory of the grader's own, never handed to scripts (read-only to them
        in namespace mode), removed with the run."""
        (self.rundir.scratch / "own").mkdir(mode=0o700, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.rundir.scratch / "own"))

    def live(self, relative: str) -> Path:
        """Where LAB_ROOT/relative's working copy is (or will be): see ``workspace``."""
        return self.workspaces.live(relative)

    def workspace(self, relative: str, empty: Collection[str] = ()) -> Workspace:
        """The working copy of LAB_ROOT/relative, made before any check changes anything:
        ``live`` is where the student's scripts run and the grader writes its inputs,
        ``saved`` the student's directory as found (state checks read it; never written).
        The contents of the subdirectories ``empty`` are left out (the lab empties them)."""
        with self.interrupts.held():  # host mode renames the student's directory: never halfway
            workspace, left_out = self.workspaces.open(relative, empty)
        with self._lock:
            self.notes += [f"작업 사본에서 뺀 것: {what}" for what in left_out]
        return workspace

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of every script the grader runs (a contract, see the README):
        LAB_ROOT (as the scripts see it), LAB_FIXTURES, EAI_AMQP_URL and EAI_MQ_DB always set;
        an mq scene sets its own vhost and database in ``extra``."""
        env = environment(
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

    def lanes(self, relative: str, count: int, empty: Collection[str] = ()) -> list[Lane]:
        """Up to ``count`` more working copies of LAB_ROOT/relative, each with a namespace of
        its own (made on first use); none in host mode, where the scripts can only ever see
        one directory at LAB_ROOT/relative."""
        if not self.sandbox.namespaces or not self.workspaces.open_copy(relative):
            return []
        # What a copy leaves out was said when the directory's own working copy was made.
        return [
            Lane(relative, self.workspaces.another_copy(relative, f"lane-{n}", empty)[0])
            for n in range(1, count + 1)
        ]

    def confinement(self, lane: Lane | None = None) -> Confinement:
        """Where scripts start: on the host, or in the namespace of ``lane`` (the run's own
        when None), made on first use."""
        if not self.sandbox.namespaces:
            return Confinement(self.sandbox)
        with self._lock:
            if lane not in self._confinements:
                # The interpreter behind a virtualenv may live anywhere, even below the scripts'
                # lab root (pyenv in /root): it is mounted over the empty root like the rest.
                interpreter = Path(os.path.realpath(sys.executable)).parent.parent
                read_only = [REPO, Path(sys.prefix), self.fixtures.root, self.config.state_dir]
                read_only += [
                    p for p in {interpreter, Path(sys.base_prefix)} if p.is_relative_to(self.scripts_root)
                ]
                # Each where its links lead: bwrap cannot mount on a path through a link
                # (a virtualenv or a checkout reached by one).
                real = sorted({Path(os.path.realpath(path)) for path in read_only})
                scratch = Path(os.path.realpath(self.rundir.scripts_scratch))
                mounts = [Mount(path, path) for path in real] + [Mount(scratch, scratch, writable=True)]
                lab_mounts, views = self.workspaces.mounts({lane.relative: lane.live} if lane else {})
                self._confinements[lane] = Confinement(
                    self.sandbox, Namespace(mounts + lab_mounts), tuple(views)
                )
            return self._confinements[lane]

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
        env: Mapping[str, str] | None = None,
        lane: Lane | None = None,
    ) -> Process:
        return Process(
            argv,
            cwd=cwd,
            env=self.env(env),
            registry=self.registry,
            confinement=self.confinement(lane),
            label=self._label(argv),
        )

    def run(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        timeout: float,
        env: Mapping[str, str] | None = None,
        lane: Lane | None = None,
    ) -> RunResult:
        return self.start(argv, cwd=cwd, env=env, lane=lane).wait(timeout)

    def close(self) -> Closing:
        """Kill every script and whatever it started, wait for the scenarios, check the seals,
        put the student's directories back, remove the scratch. Never raises: what went wrong
        is in the Closing."""
        if self._closing is not None:
            return self._closing
        closing = self._closing = Closing()
        self.interrupts.finishing()
        # Killing first ends the scripts scenarios wait on, so their threads return; a script a
        # scenario starts after this is killed at once (the registry is closed).
        self.registry.close()
        self.pool.shutdown()
        with self._lock:
            namespaces = [c.namespace for c in self._confinements.values() if c.namespace is not None]
        for namespace in namespaces:
            namespace.close()
        with self._lock:
            cleanups, self._cleanups = self._cleanups, []
        for cleanup in reversed(cleanups):
            try:
                cleanup()
            except Exception as exc:  # cleanup never hides the real failure; report it
                closing.errors.append(f"{cleanup}: {exc}")
        self.registry.close()
        if self._adopting:  # orphans that came back to us (we are their subreaper)
            proctable.kill_all(
                p for p in proctable.children(os.getpid()) if (i := proctable.info(p)) and i.alive
            )
        closing.leftovers = list(self.registry.leftovers)
        self._check_seals(closing)
        if hasattr(self, "workspaces"):
            said, failed = self.workspaces.close()
            closing.notes += self.notes + said
            closing.not_restored += failed
        closing.errors += [f"could not remove {left}" for left in self.rundir.close()]
        return closing

    def _check_seals(self, closing: Closing) -> None:
        closing.tampered = self.seals.broken()
        if FIXTURES_SEAL in closing.tampered and hasattr(self, "fixtures"):
            try:  # set right for the next run
                build(self.fixtures.root)
            except OSError as exc:
                closing.errors.append(f"could not rebuild the fixtures at {self.fixtures.root}: {exc}")
            else:
                closing.notes.append(f"픽스처 {shown(self.fixtures.root)} 를 다시 만들었습니다")
