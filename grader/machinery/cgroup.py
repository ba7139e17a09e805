"""A control group per run holding every process the run's scripts are started from: their
memory as a whole (the tmpfs pages they write included: the kernel charges a page to the group of
the process that wrote it) and their number of tasks as a whole are bounded by the kernel, and
their CPU is one share, however many processes they run (the cpu controller, where there is one).

Each process limit of a script (session.LIMITS) bounds one process; without a group, scripts that
each stay inside them (hundreds of processes of 4 GiB each) could still take the machine's memory
and the kernel would kill the grader or the class broker instead (red team 20). Nor did anything
bound their CPU as a whole: 120 busy loops of one student's consume.py, each process within its
limits, starved a classmate graded beside it in a batch, whose replay.sh then overran its time
(red team 31). As one group the scripts weigh CPU_SHARES against every other task and group,
whatever number of processes they run.

The group is named after the run's identity (``lab-grader-UID``): the identity's claim makes it
the run's alone, and a group of that name found at claim time is what a grader that died left
(its processes are killed, the group removed). Both kernel interfaces are served: the unified
hierarchy (cgroup v2, where the memory and pids controllers can be given to a group of ours) and
the separate memory and pids hierarchies of cgroup v1, below this process's own group there (so
a container's own limit still holds above ours). Where neither can be written (an unprivileged
container, a read-only /sys/fs/cgroup) the run goes on without one and says why.

Processes join before anything else runs: a launcher's first program writes its own pid into
each group and only then becomes the launcher (``join_argv``), so whatever it starts is born
inside. Nothing inside can leave: the group's files are root's, and a box shows /sys read-only.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MEMORY_MOST = 2 << 30  # bytes every script process of a run may hold at once, tmpfs pages included
TASKS_MOST = 2048  # processes and threads at once (the identity's RLIMIT_NPROC is 512)
# The scripts' CPU weight as a whole, where contended: as much as eight busy processes of the
# machine's (the kernel's default weight is 1024, cgroup v2's cpu.weight 100). A grade's own
# scripts run a few processes at once (a dozen scenes, most of them waiting), so against the
# grader and the broker they weigh about as before; 120 busy loops weigh the same as eight.
CPU_SHARES = 8192
CPU_WEIGHT = 800
PREFIX = "lab-grader-"
# How long killed members may take to leave their group: a process leaves when it has exited
# (under cgroup v1 before it is reaped), which a process in an uninterruptible sleep, or one
# that gets no CPU on a loaded machine, does late. Rounds counted once gave up after about a
# second, and a busy class's grade then had no bound or a grader error.
REMOVE_WAIT = 60.0
QUIET = 0.01
# The launcher's first program, as root: into each group, out of the OOM killer's choice (the
# launcher and its keepers; each keeper gives its script the highest score: reaper.py), then the
# launcher itself. A group that cannot be joined ends it (exit 125): the launcher never starts.
_JOIN = (
    'while [ "$1" != -- ]; do echo 0 >"$1" || exit 125; shift; done; shift; '
    'echo -1000 >/proc/self/oom_score_adj 2>/dev/null; exec "$@"'
)


class CgroupUnavailable(RuntimeError):
    """No group of ours can be made here: why, for the report."""


@dataclass(frozen=True)
class Hierarchy:
    version: int  # 1 or 2
    mount: Path  # where the hierarchy is mounted
    base: Path  # the folder groups of ours are made in
    controllers: tuple[str, ...]  # what a group of ours bounds there: "memory", "pids", "cpu"


def _mounts() -> list[tuple[Path, str, str, set[str]]]:
    """(mount point, root inside the hierarchy, fstype, super options) of every cgroup mount."""
    found = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        fields, more = left.split(), right.split()
        if len(fields) < 5 or len(more) < 3 or more[0] not in ("cgroup", "cgroup2"):
            continue
        point = Path(fields[4].replace("\\040", " "))
        found.append((point, fields[3], more[0], set(more[2].split(","))))
    return found


def _own_groups() -> dict[str, str]:
    """controller list ("memory", "pids", "" for v2) -> this process's group path."""
    own = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        own[controllers] = path
    return own


def _inside(mount: Path, root: str, path: str) -> Path:
    """The folder of group ``path`` under a hierarchy mounted at ``mount`` showing ``root``."""
    relative = os.path.relpath(path, root) if path.startswith(root) else path.lstrip("/")
    return mount if relative in (".", "") else mount / relative


def _writable(folder: Path) -> bool:
    return os.access(folder, os.W_OK) and (folder / "cgroup.procs").exists()


def hierarchies() -> list[Hierarchy]:
    """Where groups of ours bound memory, tasks and CPU: the unified hierarchy when it has the
    memory and pids controllers to give (and cpu, when it has that too), otherwise the v1
    memory, pids and cpu hierarchies (any but memory may be missing). CgroupUnavailable when
    memory cannot be bounded at all."""
    mounts, own = _mounts(), _own_groups()
    for point, _root, fstype, _ in mounts:
        if fstype != "cgroup2":
            continue
        with contextlib.suppress(OSError):
            offered = set((point / "cgroup.controllers").read_text().split())
            if {"memory", "pids"} <= offered and _writable(point):
                given = ("memory", "pids", "cpu") if "cpu" in offered else ("memory", "pids")
                return [Hierarchy(2, point, point / "lab-grader", given)]
    found = []
    for controller in ("memory", "pids", "cpu"):
        for point, root, fstype, options in mounts:
            if fstype == "cgroup" and controller in options:
                path = next((p for c, p in own.items() if controller in c.split(",")), "/")
                base = _inside(point, root, path)
                if _writable(base):
                    found.append(Hierarchy(1, point, base, (controller,)))
                break
    if not any("memory" in h.controllers for h in found):
        raise CgroupUnavailable("no memory controller this process may give to a group of its own")
    return found


def _enable_v2(hierarchy: Hierarchy) -> None:
    """The unified hierarchy: memory and pids given down from the mount to our folder."""
    hierarchy.base.mkdir(exist_ok=True)
    for folder in (hierarchy.mount, hierarchy.base):
        control = folder / "cgroup.subtree_control"
        given = set(control.read_text().split())
        for controller in hierarchy.controllers:
            if controller not in given:
                # cpu only where it can be given (a real-time process in the way refuses it)
                with contextlib.suppress(OSError) if controller == "cpu" else contextlib.nullcontext():
                    control.write_text(f"+{controller}")


@dataclass
class Cgroup:
    """The groups (one per hierarchy) of one run's scripts."""

    folders: tuple[tuple[Hierarchy, Path], ...]
    memory_most: int = MEMORY_MOST

    @classmethod
    def make(cls, uid: int, memory_most: int = MEMORY_MOST, tasks_most: int = TASKS_MOST) -> Cgroup:
        """The groups of the identity ``uid`` (held by the caller), made afresh: what a dead
        grader left under that name is killed and removed first. CgroupUnavailable if not."""
        made: list[tuple[Hierarchy, Path]] = []
        try:
            found = hierarchies()
            for hierarchy in found:
                if hierarchy.version == 2:
                    _enable_v2(hierarchy)
                folder = hierarchy.base / f"{PREFIX}{uid}"
                if folder.exists():
                    _remove(folder)
                folder.mkdir()
                made.append((hierarchy, folder))
            group = cls(tuple(made), memory_most)
            group._limit(memory_most, tasks_most)
        except OSError as exc:
            for _, folder in made:  # none half made is left (empty: nothing joined it yet)
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise CgroupUnavailable(f"a group of its own could not be made: {exc}") from exc
        return group

    def _limit(self, memory_most: int, tasks_most: int) -> None:
        for hierarchy, folder in self.folders:
            if hierarchy.version == 2:
                (folder / "memory.max").write_text(str(memory_most))
                with contextlib.suppress(OSError):  # no swap accounting: nothing to bound
                    (folder / "memory.swap.max").write_text("0")
                (folder / "pids.max").write_text(str(tasks_most))
                if (folder / "cpu.weight").exists():
                    (folder / "cpu.weight").write_text(str(CPU_WEIGHT))
            elif "cpu" in hierarchy.controllers:
                (folder / "cpu.shares").write_text(str(CPU_SHARES))
            elif "memory" in hierarchy.controllers:
                (folder / "memory.limit_in_bytes").write_text(str(memory_most))
                with contextlib.suppress(OSError):  # no swap accounting: nothing to bound
                    (folder / "memory.memsw.limit_in_bytes").write_text(str(memory_most))
            else:
                (folder / "pids.max").write_text(str(tasks_most))

    def join_argv(self, argv: Sequence[str]) -> list[str]:
        """``argv`` started inside the groups (see the module's docstring)."""
        procs = [str(folder / "cgroup.procs") for _, folder in self.folders]
        return ["/bin/sh", "-c", _JOIN, "sh", *procs, "--", *argv]

    @property
    def cpu_shared(self) -> bool:
        """The scripts' CPU is one share (there was a cpu controller to give)."""
        return any(
            (folder / ("cpu.weight" if hierarchy.version == 2 else "cpu.shares")).exists()
            for hierarchy, folder in self.folders
            if "cpu" in hierarchy.controllers
        )

    def kills(self) -> int:
        """How many processes the kernel killed for the group's memory bound so far."""
        for hierarchy, folder in self.folders:
            name = "memory.events" if hierarchy.version == 2 else "memory.oom_control"
            if "memory" in hierarchy.controllers:
                with contextlib.suppress(OSError, ValueError):
                    for line in (folder / name).read_text().splitlines():
                        key, _, value = line.partition(" ")
                        if key == "oom_kill":
                            return int(value)
        return 0

    def close(self) -> list[str]:
        """Kill what is still inside and remove the groups: what could not be."""
        problems = []
        for _, folder in self.folders:
            try:
                _remove(folder)
            except OSError as exc:
                problems.append(f"control group {folder}: {exc}")
        return problems


def _members(folder: Path) -> list[int]:
    return [int(pid) for pid in (folder / "cgroup.procs").read_text().split()]


def _remove(folder: Path) -> None:
    """Kill every process of the group ``folder`` (and its subgroups) and remove it. A killed
    process leaves the group once it has exited (see REMOVE_WAIT): tried again meanwhile."""
    members: list[int] = []
    deadline = time.monotonic() + REMOVE_WAIT
    while True:
        groups = [*reversed(_subgroups(folder)), folder]  # children first
        members = [pid for group in groups for pid in _members(group)]
        for pid in members:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            for group in groups:
                group.rmdir()
            return
        except OSError as exc:
            if exc.errno != errno.EBUSY:
                raise
        if time.monotonic() > deadline:
            raise OSError(errno.EBUSY, f"processes {members[:10]} of {folder} would not go")
        time.sleep(QUIET)


def _subgroups(folder: Path) -> list[Path]:
    """Groups made below ``folder`` (scripts cannot make any: a safeguard), parents first."""
    return sorted((p for p in folder.rglob("*") if (p / "cgroup.procs").exists() and p.is_dir()), key=str)
