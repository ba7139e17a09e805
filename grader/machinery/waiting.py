"""Tell, from /proc, that a consumer is waiting at SQLite's lock.

The race of Q3.7 holds the ledger's write lock until each consumer holds its file and waits
to insert it. SQLite's busy handler sleeps between tries (clock_nanosleep), holding no lock
in between, so the sign is: a process of the consumer's session has the ledger open and is
asleep in a nanosleep. Waiting for that condition, rather than for a fixed time, keeps the
race the same on an idle machine and on a loaded one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

PROC = Path("/proc")


def _session_of(stat: str) -> int:
    # pid (comm) state ppid pgrp session ...: comm may hold blanks and parentheses.
    return int(stat.rsplit(")", 1)[1].split()[3])


FileId = tuple[int, int]  # (st_dev, st_ino): the file itself, whatever path leads to it


def _file_ids(files: Iterable[Path]) -> frozenset[FileId]:
    ids = set()
    for f in files:
        try:
            st = f.stat()
        except OSError:
            continue
        ids.add((st.st_dev, st.st_ino))
    return frozenset(ids)


def _holds_open(pid: Path, files: frozenset[FileId]) -> bool:
    try:
        fds = list((pid / "fd").iterdir())
    except OSError:
        return False
    for fd in fds:
        try:
            st = fd.stat()  # follows the descriptor to its file
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in files:
            return True
    return False


def _asleep(pid: Path) -> bool:
    """Some thread of ``pid`` sleeps in a nanosleep (or, where the kernel hides wchan, sleeps)."""
    try:
        tasks = list((pid / "task").iterdir())
    except OSError:
        return False
    for task in tasks:
        try:
            wchan = (task / "wchan").read_text().strip()
            state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if "sleep" in wchan or (wchan in ("", "0") and state == "S"):
            return True
    return False


def waiting_on(session: int, files: Iterable[Path]) -> bool:
    """A process of ``session`` has one of ``files`` open and sleeps (SQLite's busy wait)."""
    ids = _file_ids(files)
    for pid in PROC.iterdir():
        if not pid.name.isdigit():
            continue
        try:
            if _session_of((pid / "stat").read_text()) != session:
                continue
        except (OSError, ValueError, IndexError):
            continue
        if _holds_open(pid, ids) and _asleep(pid):
            return True
    return False


def wait_for(condition: Callable[[], bool], timeout: float, interval: float = 0.02) -> bool:
    """Poll ``condition`` until it holds (True) or ``timeout`` s pass (False)."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)
