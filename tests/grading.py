"""Run the grader the way its users do (a subprocess, results.json) and read the verdicts."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from grader.machinery import proctable
from grader.machinery.mdtext import plain
from grader.machinery.snapshot import tree_digest

REPO = Path(__file__).resolve().parent.parent
# Every grader run of the self-tests takes this seed when set (see bench/seeds.py): a verdict
# that changes with the seed is a check that covers its edges by luck.
SEED = os.environ.get("LAB_GRADER_SELFTEST_SEED")


@dataclass(frozen=True)
class Graded:
    returncode: int
    statuses: dict[str, str]  # requirement id -> passed / failed / error
    outputs: dict[str, str]
    log: str
    lab_root_unchanged: bool  # the lab root's tree hash is the same after grading
    extra: dict[str, Any] = field(default_factory=dict)  # results.json's top-level extra_data

    @property
    def not_passed(self) -> set[str]:
        return {rid for rid, status in self.statuses.items() if status != "passed"}

    @property
    def errors(self) -> set[str]:
        return {rid for rid, status in self.statuses.items() if status == "error"}

    def explain(self) -> str:
        lines = [f"grader exit {self.returncode}"]
        lines += [f"{rid} {self.statuses[rid]}: {self.outputs[rid]}" for rid in sorted(self.not_passed)]
        return "\n".join(lines) + "\n--- grader output (tail) ---\n" + self.log[-4000:]


def grade(
    lab_root: Path,
    fixtures: Path,
    state_dir: Path,
    *,
    lab: str,
    args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    timeout: float = 600,
    repo: Path = REPO,
    python: str = sys.executable,
    during: Callable[[], AbstractContextManager[object]] = nullcontext,
) -> Graded:
    """Grade ``lab_root`` with the grader of ``repo`` (a copy, for a test that lets scripts
    write into the grader's own files) run by ``python``, as its users do; ``during`` is
    entered just around the grader's run (after the lab root's digest, before the next)."""
    results = state_dir.parent / f"{state_dir.name}-results.json"
    # fmt: off
    argv = [
        python, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider",
        "--lab-root", str(lab_root), "--fixtures-dir", str(fixtures), "--lab", lab,
        "--results-json", str(results), "--state-dir", str(state_dir), *args,
        *(("--grader-seed", SEED) if SEED else ()),
    ]
    # fmt: on
    before = tree_digest(lab_root)
    with during():
        run = subprocess.run(
            argv,
            cwd=repo,
            capture_output=True,
            text=True,
            errors="backslashreplace",
            timeout=timeout,
            env=os.environ | (env or {}),
        )
    if not results.is_file():  # the grader's own promise: a failure of it, shown whole
        raise AssertionError(
            f"no results.json (grader exit {run.returncode})\n--- stdout (tail) ---\n{run.stdout[-4000:]}"
            f"\n--- stderr (tail) ---\n{run.stderr[-4000:]}"
        )
    data = json.loads(results.read_bytes().decode("utf-8"))  # valid UTF-8, whatever names the tree holds
    results.unlink()
    # The results contract (Gradescope's format): one test per id, its name starting with it.
    numbers = [t["number"] for t in data["tests"]]
    assert len(numbers) == len(set(numbers))
    assert all(t["name"].startswith(f"{t['number']} ") for t in data["tests"])
    assert all(t["status"] in ("passed", "failed") for t in data["tests"])
    assert data["score"] == sum(t["score"] for t in data["tests"])
    return Graded(
        returncode=run.returncode,
        statuses={t["number"]: t["extra_data"]["outcome"] for t in data["tests"]},
        outputs={t["number"]: plain(t["output"]) for t in data["tests"]},  # as a reader sees it
        log=run.stdout + run.stderr,
        lab_root_unchanged=tree_digest(lab_root) == before,
        extra=data["extra_data"],
    )


def processes_mentioning(text: str) -> list[str]:
    """Command lines of live processes (not this one) that contain ``text``."""
    return list(_mentioning(text).values())


def pids_mentioning(text: str) -> list[int]:
    """Pids of live processes (not this one) whose command line contains ``text``."""
    return list(_mentioning(text))


def _mentioning(text: str) -> dict[int, str]:
    found = {}
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in args and cmdline.parent.name != str(os.getpid()):
            found[int(cmdline.parent.name)] = args
    return found


def still_running(process: proctable.ProcInfo) -> bool:
    """``process`` has not ended yet (a zombie has; a reused pid is another start time)."""
    now = proctable.info(process.pid)
    return now is not None and now.alive and now.start == process.start


def needs_chattr(directory: Path) -> None:
    """Skip (saying why) where the filesystem has no inode flags (tmpfs, some overlays)."""
    probe = directory / ".chattr-probe"
    probe.touch()
    works = subprocess.run(["chattr", "+i", str(probe)], capture_output=True, check=False).returncode == 0
    subprocess.run(["chattr", "-i", str(probe)], capture_output=True, check=False)
    probe.unlink()
    if not works:
        pytest.skip(f"chattr does not work on the filesystem of {directory}")


def kill_grader(pid: int) -> None:
    """SIGKILL a grader and every helper it started (reapers, bwrap) at once, as an OOM killer
    or `kill -9 -1` would: all frozen first, so none of them can clean up after the others."""
    os.kill(pid, signal.SIGSTOP)  # first: a stopped grader starts no helper meanwhile
    children = proctable.children(pid)  # every thread's (a thread may end while listed)
    for signum in (signal.SIGSTOP, signal.SIGKILL):
        for target in [pid, *children]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(target, signum)


def assert_passes_every_id(result: Graded, ids: int) -> None:
    """A correct solution: every one of the lab's ids passed, exit 0, files untouched."""
    __tracebackhide__ = True
    assert len(result.statuses) == ids, result.explain()
    assert not result.not_passed and result.returncode == 0, result.explain()
    assert result.lab_root_unchanged


def assert_rejected_on_exactly(result: Graded, ids: frozenset[str]) -> None:
    """A wrong solution: FAILED (a verdict, not a harness error) on exactly ``ids``, exit 1,
    files untouched. A mistake that spills into other ids shows up here."""
    __tracebackhide__ = True
    assert not result.errors, f"harness errors, not verdicts:\n{result.explain()}"
    assert result.not_passed == ids, (
        f"expected to fail exactly {sorted(ids)}, failed {sorted(result.not_passed)}\n" + result.explain()
    )
    assert result.returncode == 1, result.explain()
    assert result.lab_root_unchanged


def hard_code_lab_root(q: Path, root: Path) -> None:
    """Make the reference consume.py and replay.sh in ``q`` ignore LAB_ROOT and use ``root`` as
    written in (as a student who hard-codes /root would)."""
    for name, old, new in (
        ("consume.py", 'Path(os.environ.get("LAB_ROOT", "/root"))', f'Path("{root}")'),
        ("replay.sh", "${LAB_ROOT:-/root}", str(root)),
    ):
        text = (q / name).read_text()
        assert old in text, f"the reference {name} changed: update hard_code_lab_root"
        (q / name).write_text(text.replace(old, new))
