"""Waiting for an event a self-test observes (a marker file, a process state, a handled signal)
instead of sleeping for a guessed time."""

from __future__ import annotations

import time
from collections.abc import Callable

# Seconds before a wait gives up. Only a hang meets it: every event waited for comes within a
# second or so of a correct run, on a machine three times slower too.
SAFETY = 120.0


def wait_until(condition: Callable[[], bool], what: str, timeout: float = SAFETY) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.01)
