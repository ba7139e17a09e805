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
    ``workers`` caps how many run at a time (the others wait their turn)."""

    def __init__(self, workers: int = 0) -> None:
        # Threads are made on demand, one per scenario waiting for one: no cap is no limit.
        cap = workers if workers > 0 else sys.maxsize
        self._executor = ThreadPoolExecutor(max_workers=cap, thread_name_prefix="scenario")
        self._defined: dict[str, Callable[[], object]] = {}
        self._futures: dict[str, Future[object]] = {}
        self._lock = threading.Lock()

    def define(self, name: str, run: Callable[[], object]) -> None:
        self._defined[name] = run

    def start(self, names: Iterable[str]) -> None:
        for name in names:
            self._future(name)

    def _future(self, name: str) -> Future[object]:
        with self._lock:
            if name not in self._futures:
                self._futures[name] = self._executor.submit(self._defined[name])
            return self._futures[name]

    def result(self, name: str) -> object:
        return self._future(name).result()

    def shutdown(self) -> None:
        """Drop scenarios not started yet and wait for the running ones to return."""
        self._executor.shutdown(wait=True, cancel_futures=True)
