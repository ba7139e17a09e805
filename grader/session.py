"""One grading run: its scratch tree, processes, snapshots, fixtures and scenario pool."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from fixtures.tree import FixtureTree, build, load
from grader.config import GraderConfig
from grader.machinery.broker import stop_leftover_nodes
from grader.machinery.environ import environment
from grader.machinery.rundir import RunDir
from grader.machinery.runner import Process, ProcessRegistry, RunResult
from grader.machinery.scenarios import ScenarioPool
from grader.machinery.snapshot import Snapshot


class Grading:
    """Everything a run owns. ``close`` leaves nothing behind and the student's files as found."""

    def __init__(self, config: GraderConfig) -> None:
        self.config = config
        self.rundir = RunDir.for_lab_root(
            config.state_dir, config.lab_root, recoveries=(stop_leftover_nodes,)
        )
        self.recovered = self.rundir.open()
        self.registry = ProcessRegistry(self.rundir.processes)
        self.pool = ScenarioPool(config.workers)
        self._snapshots: list[Snapshot] = []
        self._cleanups: list[Callable[[], None]] = []
        try:
            scratch = self.rundir.scratch
            if config.fixtures_dir is None:
                self.fixtures: FixtureTree = build(scratch / "fixtures")
            else:
                self.fixtures = load(config.fixtures_dir)
            self.lab_root = config.lab_root or scratch / "root"
            self.lab_root.mkdir(exist_ok=True)
        except BaseException:
            self.close()
            raise

    def on_close(self, cleanup: Callable[[], None]) -> None:
        """Run ``cleanup`` when the run ends (last registered, first run), before restoring."""
        self._cleanups.append(cleanup)

    def rng(self, scenario: str) -> random.Random:
        """A generator per scenario: reproducible with --grader-seed whatever the thread order."""
        return random.Random(f"{self.config.seed}:{scenario}")

    def scratch_dir(self, name: str) -> Path:
        return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=self.rundir.scratch))

    def snapshot(self, relative: str) -> Snapshot:
        """Save LAB_ROOT/relative before any check changes it; restored by ``close``."""
        store = self.rundir.snapshots / relative.replace("/", "_")
        snapshot = Snapshot.save(self.lab_root / relative, store)
        self._snapshots.append(snapshot)
        return snapshot

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment of every script the grader runs (a contract, see the README):
        LAB_ROOT, LAB_FIXTURES, EAI_AMQP_URL and EAI_MQ_DB always set; an mq scene sets its
        own vhost and database in ``extra``."""
        env = environment(
            LAB_ROOT=str(self.lab_root),
            LAB_FIXTURES=str(self.fixtures.root),
            EAI_AMQP_URL="amqp://guest:guest@127.0.0.1:5672/%2F",
            EAI_MQ_DB=str(self.rundir.scratch / "no-mq-scene.db"),
            PYTHONDONTWRITEBYTECODE="1",
            PYTHONUNBUFFERED="1",
            LC_ALL="C.UTF-8",
        )
        env.update(extra or {})
        return env

    def start(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str] | None = None) -> Process:
        return Process(argv, cwd=cwd, env=self.env(env), registry=self.registry)

    def run(
        self,
        argv: Sequence[str],
        *,
        cwd: Path,
        timeout: float,
        env: Mapping[str, str] | None = None,
    ) -> RunResult:
        return self.start(argv, cwd=cwd, env=env).wait(timeout)

    def close(self) -> None:
        """Kill every process group, wait for the scenarios, restore the student's files."""
        # Killing first ends the scripts scenarios wait on, so their threads return; a process
        # a scenario starts after this is killed at once (the registry is closed).
        self.registry.close()
        self.pool.shutdown()
        errors = []
        for cleanup in reversed(self._cleanups):
            try:
                cleanup()
            except Exception as exc:  # cleanup never hides the real failure; report it
                errors.append(f"{cleanup}: {exc}")
        self._cleanups.clear()
        for snapshot in reversed(self._snapshots):
            snapshot.restore()
        self._snapshots.clear()
        self.rundir.close()
        if errors:
            raise RuntimeError("cleanup failed: " + "; ".join(errors))
