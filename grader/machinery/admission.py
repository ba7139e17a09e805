"""How many jobs run at once, from what the machine shows.

A gate every job passes before it starts. ``least`` jobs may always be in at once; the count
allowed grows by one, up to ``most``, each time that, with that many in, since the latest job
went in (its load shows by then) and over at least ``window`` seconds, the machine's cores were
``spare`` of a core idle or more; a job beyond ``least`` also needs ``memory`` bytes available
by the kernel's count. The count never shrinks: a job's end lets the next in at once. What it
reads: /proc/stat (busy and idle time of every core) and /proc/meminfo (MemAvailable).

Jobs that wait (a grade's scripts waiting on a claim partner's clock) leave the cores idle, and
another job goes in; jobs that keep every core busy keep the others out. So
the count follows the jobs and the machine (its cores, its speed, whatever else runs on it)
rather than a rule fixed for one of them; ``most`` bounds it to what was shown to leave every
verdict as it is alone.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

WINDOW = 1.0  # seconds of the machine's figures behind each "one more"
SPARE = 0.25  # of a core, idle over the window, for one more job
MEMORY = 1 << 30  # bytes available for one more job (a grade's processes take a few hundred MiB)


@dataclass(frozen=True)
class CpuTimes:
    """Ticks every core has spent since boot: busy, and in all."""

    busy: int
    total: int


def cpu_times(stat: Path = Path("/proc/stat")) -> CpuTimes:
    user, nice, system, idle, iowait, irq, softirq, steal = (
        int(x) for x in stat.read_text().split("\n", 1)[0].split()[1:9]
    )
    busy = user + nice + system + irq + softirq + steal  # guests are counted in user
    return CpuTimes(busy, busy + idle + iowait)


def available_memory(meminfo: Path = Path("/proc/meminfo")) -> int:
    for line in meminfo.read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return 0


def idle_cores(before: CpuTimes, after: CpuTimes, cores: int) -> float:
    """Cores' worth idle between two readings (0 when no time passed)."""
    total = after.total - before.total
    if total <= 0:
        return 0.0
    return cores * (1.0 - (after.busy - before.busy) / total)


class Admission:
    """The gate: ``enter`` before a job (blocks until it may go; False once closed), ``leave``
    after it. How many may be in grows from ``least`` by one for each window of spare CPU seen
    while that many were in, up to ``most``; it never shrinks (a job that ends makes room for
    the next at once)."""

    def __init__(
        self,
        least: int,
        most: int,
        *,
        cores: int | None = None,
        window: float = WINDOW,
        spare: float = SPARE,
        memory: int = MEMORY,
        cpu: Callable[[], CpuTimes] = cpu_times,
        available: Callable[[], int] = available_memory,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.least = max(1, least)
        self.most = max(self.least, most)
        self.allowed = self.least  # how many may be in now
        self.peak = 0  # most that were in at once
        self._cores = cores or os.cpu_count() or 1
        self._window, self._spare, self._memory = window, spare, memory
        self._cpu, self._available, self._clock = cpu, available, clock
        self._changed = threading.Condition()
        self._running = 0
        self._closed = False
        self._mark = (clock(), cpu())  # the reading the next "one more" is judged from

    def enter(self) -> bool:
        with self._changed:
            while not self._closed:
                if self._running < self.allowed and (
                    self._running < self.least or self._available() >= self._memory
                ):
                    self._running += 1
                    self.peak = max(self.peak, self._running)
                    self._mark = (self._clock(), self._cpu())  # its load shows from now on
                    return True
                self._changed.wait(self._grow())
            return False

    def _grow(self) -> float:
        """One more allowed if every allowed job has been in for a window and the cores had
        ``spare`` idle over it; how long to wait before looking again."""
        since, before = self._mark
        waited = self._clock() - since
        if self._running < self.allowed or self.allowed >= self.most:
            return self._window  # waiting on memory, or on a job's end (it wakes us)
        if waited < self._window:
            return self._window - waited
        now = self._cpu()
        self._mark = (self._clock(), now)
        if idle_cores(before, now, self._cores) >= self._spare:
            self.allowed += 1
            return 0.0
        return self._window

    def leave(self) -> None:
        with self._changed:
            self._running -= 1
            self._changed.notify_all()

    def close(self) -> None:
        """Nothing more goes in; jobs waiting to go are told so (``enter`` returns False)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
