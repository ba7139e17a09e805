"""What the class tools' self-tests share: what they check after every batch (nothing left
running, the machine's own /root untouched), and a workflow step run as a runner runs it."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from grader.classroom.version import REPO
from grader.machinery.snapshot import tree_digest

MACHINE_ROOT = Path("/root")


def root_state() -> tuple[str, str, frozenset[str]]:
    """The machine's own lab folders and /root's top level (its caches are too big to hash)."""
    return (
        tree_digest(MACHINE_ROOT / "q"),
        tree_digest(MACHINE_ROOT / "eaimw"),
        frozenset(p.name for p in MACHINE_ROOT.iterdir()),
    )


def processes_under(*folders: Path) -> list[str]:
    """Processes whose command line or working directory lies under one of ``folders``."""
    marks = [str(f.resolve()) for f in folders]
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            cwd = os.readlink(proc / "cwd")
        except OSError:
            continue  # gone, or a kernel thread
        if any(m in cmdline or cwd.startswith(m) for m in marks):
            found.append(f"{proc.name}: {cmdline[:200]} (cwd {cwd})")
    return found


def run_step(script: str, workspace: Path, env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """A workflow's `run:` script with bash -e in ``workspace`` (the grader checked out at
    ``workspace``/.grader), as the runner runs a step."""
    (workspace / ".grader").symlink_to(REPO)
    return subprocess.run(
        ["bash", "-e", "-c", script],
        cwd=workspace,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
