"""The queue lab's session fixtures: the lab, and one fixture per behaviour scenario."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from grader.conftest import needed_fixtures
from grader.queue import scenarios
from grader.queue.lab import QueueLab
from grader.session import Grading
from grader.verdict import Missing
from solutions.walkthrough import walk_queue


@pytest.fixture(scope="session")
def queue_lab(request: pytest.FixtureRequest, grading: Grading) -> QueueLab:
    if not grading.config.student_mode:
        walk_queue(grading.lab_root, grading.fixtures.root)
    snapshot = grading.snapshot("q")
    lab = QueueLab(grading, grading.fixtures.queue, snapshot.target, snapshot.saved)
    for name, scenario in scenarios.SCENARIOS.items():
        grading.pool.define(f"queue.{name}", partial(scenario, lab))
    needed = needed_fixtures(request.session) & scenarios.SCENARIOS.keys()
    grading.pool.start(f"queue.{name}" for name in sorted(needed))
    return lab


def _observed(lab: QueueLab, name: str) -> Any:
    return lab.grading.pool.result(f"queue.{name}")


@pytest.fixture(scope="session")
def fresh_run(queue_lab: QueueLab) -> scenarios.Rerun | Missing:
    return _observed(queue_lab, "fresh_run")


@pytest.fixture(scope="session")
def two_consumers(queue_lab: QueueLab) -> scenarios.TwoConsumers | Missing:
    return _observed(queue_lab, "two_consumers")


@pytest.fixture(scope="session")
def order_checks(queue_lab: QueueLab) -> scenarios.OrderChecks | Missing:
    return _observed(queue_lab, "order_checks")


@pytest.fixture(scope="session")
def lag_runs(queue_lab: QueueLab) -> list[scenarios.LagCase] | Missing:
    return _observed(queue_lab, "lag_runs")


@pytest.fixture(scope="session")
def replay_runs(queue_lab: QueueLab) -> scenarios.ReplayRuns | Missing:
    return _observed(queue_lab, "replay_runs")
