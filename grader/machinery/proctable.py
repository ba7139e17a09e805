"""The process table, read from /proc: who is alive, whose child, what it runs, what it carries.

Everything here reads; ``kill_all`` is the one thing that acts. A process can vanish between
two reads at any time, so every reader treats "gone" as an answer, never as an error.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
CMDLINE_LIMIT = 300  # characters of a command line kept for a message
PR_SET_CHILD_SUBREAPER = 36
PF_KTHREAD = 0x00200000  # flags (field 9 of /proc/PID/stat) of a kernel thread
EXEC_RETRIES = 40  # looks at a process that shows no environment (it is exec'ing) ...
EXEC_PAUSE = 0.002  # ... this many seconds apart


@dataclass(frozen=True)
class ProcInfo:
    pid: int
    ppid: int
    state: str  # R, S, D, Z ... (field 3 of /proc/PID/stat)
    start: int  # clock ticks after boot: tells a reused pid apart
    name: str  # comm: the executable's name as the kernel keeps it

    @property
    def alive(self) -> bool:
        return self.state not in ("Z", "X")


def info(pid: int) -> ProcInfo | None:
    """/proc/PID/stat of one process; None when it is gone."""
    try:
        stat = (PROC / str(pid) / "stat").read_bytes().decode("utf-8", "replace")
    except OSError:
        return None
    name = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2 :].split()
    return ProcInfo(pid=pid, ppid=int(fields[1]), state=fields[0], start=int(fields[19]), name=name)


def pids() -> list[int]:
    return [int(entry) for entry in os.listdir(PROC) if entry.isdigit()]


def table() -> dict[int, ProcInfo]:
    """Every process this namespace shows, by pid."""
    found = {}
    for pid in pids():
        if (entry := info(pid)) is not None:
            found[pid] = entry
    return found


def cmdline(pid: int) -> str:
    """The command line, shortened for a message ('' when gone or a kernel thread)."""
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()[: CMDLINE_LIMIT * 4]
    except OSError:
        return ""
    text = raw.rstrip(b"\0").replace(b"\0", b" ").decode("utf-8", "replace")
    return text if len(text) <= CMDLINE_LIMIT else text[: CMDLINE_LIMIT - 1] + "…"


def callers(pid: int) -> list[int]:
    """``pid`` and the processes it was started by, up to the first of this namespace."""
    chain: list[int] = []
    while pid > 0 and pid not in chain and (entry := info(pid)) is not None:
        chain.append(pid)
        pid = entry.ppid
    return chain


def on_a_command_line(secrets: Collection[str], pids: Iterable[int]) -> int | None:
    """The first of ``pids`` whose command line (readable by every user of the machine) holds
    one of ``secrets``; None when none does."""
    wanted = [s.encode() for s in secrets if s]
    for pid in pids:
        try:
            raw = (PROC / str(pid) / "cmdline").read_bytes()
        except OSError:
            continue
        if any(s in raw for s in wanted):
            return pid
    return None


def children(pid: int) -> list[int]:
    """Direct children of ``pid`` (every thread's), in the order the kernel lists them."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in (PROC / str(pid) / "task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(c) for c in (task / "children").read_text().split()]
    return found


def descendants(root: int, processes: dict[int, ProcInfo] | None = None) -> list[int]:
    """Every live process below ``root`` (not ``root`` itself), parents before children."""
    processes = table() if processes is None else processes
    below: dict[int, list[int]] = {}
    for entry in processes.values():
        below.setdefault(entry.ppid, []).append(entry.pid)
    found: list[int] = []
    todo = [root]
    while todo:
        for child in sorted(below.get(todo.pop(), [])):
            if child not in found and child != root:
                found.append(child)
                todo.append(child)
    return [pid for pid in found if processes[pid].alive]


def _environ(pid: int) -> bytes | None:
    """/proc/PID/environ; None when the process is gone."""
    try:
        return (PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return None


def _user_process(pid: int) -> bool:
    """Alive and not a kernel thread: a process that has an environment."""
    try:
        stat = (PROC / str(pid) / "stat").read_bytes().decode("utf-8", "replace")
    except OSError:
        return False
    fields = stat[stat.rindex(")") + 2 :].split()
    return fields[0] not in ("Z", "X") and not int(fields[6]) & PF_KTHREAD


def carrying(variable: str, prefix: str) -> list[int]:
    """Live processes whose environment (as they were started) has ``variable`` set to a value
    starting with ``prefix``.

    A process in the middle of execve shows an empty environment for a moment (the new image's
    is not laid out yet): such a process is read again until it shows one, so that a script's
    last process, caught exec'ing as the script ends, is not taken for a stranger."""
    wanted = f"{variable}={prefix}".encode()
    found: list[int] = []
    unsure = pids()
    for attempt in range(EXEC_RETRIES + 1):
        if not unsure:
            break
        if attempt:
            time.sleep(EXEC_PAUSE)
        looked, unsure = unsure, []
        for pid in looked:
            environ = _environ(pid)
            if environ == b"" and _user_process(pid):
                unsure.append(pid)
            elif environ and any(entry.startswith(wanted) for entry in environ.split(b"\0")):
                found.append(pid)
    return [pid for pid in found if (entry := info(pid)) is not None and entry.alive]


def ns_pid(pid: int) -> int | None:
    """The pid ``pid`` has inside its own (innermost) PID namespace."""
    try:
        status = (PROC / str(pid) / "status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("NSpid:"):
            return int(line.split()[-1])
    return None


def kill_all(targets: Iterable[int]) -> None:
    for pid in targets:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def become_subreaper() -> None:
    """Orphans of our descendants (a double-forked daemon) are re-parented to this process."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
