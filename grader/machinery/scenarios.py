"""Scenarios run concurrently on threads; the checks then read their observations.

A scenario drives the student's scripts and returns what it saw (data, never a verdict), so
the slow part overlaps while each check stays a short, sequential assertion. An exception in
a scenario is a harness fault: it reaches the check as an error, never as a pass or a FAIL.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Generic, TypeVar

T = TypeVar("T")


class Once(Generic[T]):
    """A resource made on first use by whichever thread asks first (a broker, a walkthrough)."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._done = False
        self._value: T | None = None
        self._error: BaseException | None = None

    def get(self) -> T:
        with self._lock:
            if not self._done:
                try:
                    self._value = self._make()
                except BaseException as exc:
                    self._error = exc
                self._done = True
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]


class ScenarioPool:
    """Named scenarios, each run at most once, each on a thread of its own: every scenario
    started runs at once (they mostly wait on scripts, the broker or the partner), unless
    ``workers`` caps how many run at a time (the others wait their turn).

    Scenarios come in two waves. Those defined ``first`` are the ones a clock makes long (a
    script run to its own deadline, a watched window): on 2 cores, a dozen scenarios starting
    their scripts at once slow each other's start by a second or more, and the last of the
    first wave to get going ends the grade. So a second-wave scenario that asks
    (``after_first_wave``) waits until every first-wave scenario started is ``under_way``
    (or has ended), at most a bound of its choosing; a first-wave one never waits."""

    def __init__(self, workers: int = 0) -> None:
        # Threads are made on demand, one per scenario waiting for one: no cap is no limit.
        cap = workers if workers > 0 else sys.maxsize
        self._executor = ThreadPoolExecutor(max_workers=cap, thread_name_prefix="scenario")
        self._defined: dict[str, Callable[[], object]] = {}
        self._first: set[str] = set()
        self._futures: dict[str, Future[object]] = {}
        self._lock = threading.Lock()
        self._first_left = 0  # first-wave scenarios started and not yet under way
        self._first_under_way = threading.Event()
        self._first_under_way.set()
        self._running = threading.local()  # .first: this thread runs a first-wave scenario

    def define(self, name: str, run: Callable[[], object], first: bool = False) -> None:
        self._defined[name] = run
        if first:
            self._first.add(name)

    def start(self, names: Iterable[str]) -> None:
        """Start ``names`` (those of the first wave before the others)."""
        for name in sorted(names, key=lambda name: name not in self._first):
            self._future(name)

    def _future(self, name: str) -> Future[object]:
        with self._lock:
            if name not in self._futures:
                if name in self._first:
                    self._first_left += 1
                    self._first_under_way.clear()
                self._futures[name] = self._executor.submit(self._run, name)
            return self._futures[name]

    def _run(self, name: str) -> object:
        first = name in self._first
        self._running.first, self._running.reported = first, not first
        try:
            return self._defined[name]()
        finally:
            self.under_way()
            self._running.first = False

    def under_way(self) -> None:
        """The calling first-wave scenario has started what its clock times (said once; its
        end says it too). Nothing in any other scenario."""
        if getattr(self._running, "reported", True):
            return
        self._running.reported = True
        with self._lock:
            self._first_left -= 1
            if self._first_left == 0:
                self._first_under_way.set()

    def after_first_wave(self, bound: float) -> None:
        """In a second-wave scenario, wait until the first wave is under way, at most ``bound``
        seconds; at once in a first-wave scenario or outside the pool."""
        if getattr(self._running, "first", True):
            return
        self._first_under_way.wait(timeout=bound)

    def result(self, name: str) -> object:
        return self._future(name).result()

    def shutdown(self) -> None:
        """Drop scenarios not started yet and wait for the running ones to return."""
        self._executor.shutdown(wait=True, cancel_futures=True)
