"""One session fixture per behaviour scenario of the queue lab (the lab itself: grader/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from grader.queue.lab import QueueLab


def _observed(lab: QueueLab, name: str) -> Any:
    return lab.grading.pool.result(f"queue.{name}")


@pytest.fixture(scope="session")
def fresh_run(queue_lab: QueueLab) -> Any:
    return _observed(queue_lab, "fresh_run")


@pytest.fixture(scope="session")
def two_consumers(queue_lab: QueueLab) -> Any:
    return _observed(queue_lab, "two_consumers")


@pytest.fixture(scope="session")
def order_checks(queue_lab: QueueLab) -> Any:
    return _observed(queue_lab, "order_checks")


@pytest.fixture(scope="session")
def lag_runs(queue_lab: QueueLab) -> Any:
    return _observed(queue_lab, "lag_runs")


@pytest.fixture(scope="session")
def replay_runs(queue_lab: QueueLab) -> Any:
    return _observed(queue_lab, "replay_runs")
