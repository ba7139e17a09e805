"""Harnesses (benchmarks, the population) that start a RabbitMQ node or busy loops."""

from __future__ import annotations

import signal
import sys


def exit_on_sigterm() -> None:
    """A SIGTERM (`kill`, `timeout`) ends this process as an exception does, so that its
    ``finally`` blocks stop the node and the helpers it started: killed outright, a population
    run left its node running (seen 2026-12-05: two nodes and their epmd, found by hand)."""
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
