"""Where a student script runs: inside a private mount and PID namespace (bubblewrap), or on
the host when this machine has no namespaces (some lab pods).

Namespace mode: every script gets the machine's own tree with, on top,
- the grader's working copies mounted writable where the script expects the student's
  directories (LAB_ROOT/q ...), so the student's own directories are never touched;
- the grader's code, its interpreter, the fixtures and the state dir read-only (only the
  scratch dirs scripts are handed stay writable);
- a PID namespace whose first process is the reaper (reaper.py): nothing the script starts
  can leave it, and whatever is left when the script ends is named and killed;
- every capability dropped except those a root student needs for their own files: never
  CAP_SYS_ADMIN (the mounts cannot be undone) nor CAP_LINUX_IMMUTABLE, and no_new_privs.

Host mode starts the script itself, in a session of its own; the runner finds what it leaves
by the marker in its environment (runner.py).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

NAMESPACE, NONE = "namespace", "none"
REAPER = Path(__file__).with_name("reaper.py")
LEFTOVER_GRACE = 0.3  # seconds a script's last processes get to end by themselves
# What a root student needs for their own files; everything else is dropped.
KEEP_CAPS = ("CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL")
NAMESPACE_FLAGS = (
    "--bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--unshare-pid",
    "--die-with-parent",
    "--new-session",
    "--as-pid-1",
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
            [bwrap, *NAMESPACE_FLAGS, "--", "true"], capture_output=True, text=True, timeout=20, check=False
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


@dataclass(frozen=True)
class Confinement:
    """How one script is started: the reaper in front of it, in a namespace or not."""

    sandbox: Sandbox
    mounts: tuple[Mount, ...] = ()
    views: tuple[tuple[Path, Path], ...] = ()  # (grader's path, the path scripts see there)

    def view(self, text: str) -> str:
        """``text`` (an argument, the working directory, an environment value) as a script
        sees it: a path below a working copy is shown where it is mounted (LAB_ROOT/q/consume.py,
        not the grader's scratch path)."""
        for host, seen in self.views:
            if text == str(host) or text.startswith(f"{host}/"):
                return str(seen) + text[len(str(host)) :]
        return text

    def command(self, argv: Sequence[str], cwd: Path, report_fd: int | None) -> tuple[list[str], Path]:
        """The command line to start and the directory to start it in (namespace mode: the
        reaper reports on ``report_fd``)."""
        if not self.sandbox.namespaces:
            return list(argv), cwd
        reaper = [sys.executable, "-I", "-S", str(REAPER), str(report_fd), str(LEFTOVER_GRACE), "--"]
        bwrap = shutil.which("bwrap") or "bwrap"
        mounts: list[str] = []
        for mount in sorted(self.mounts, key=lambda m: len(m.dest.parts)):  # parents first
            if mount.source is None:
                mounts += ["--tmpfs", str(mount.dest)]
            elif mount.source.exists():
                mounts += ["--bind" if mount.writable else "--ro-bind", str(mount.source), str(mount.dest)]
        chdir = ["--chdir", self.view(str(cwd))]
        return [bwrap, *NAMESPACE_FLAGS, *mounts, *chdir, "--", *reaper, *map(self.view, argv)], Path("/")
