"""Fixtures shared by both labs' checks: each lab, brought up before the first check so the
scenarios of every selected lab overlap."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

import pytest

from grader.mq import scenarios as mq_scenarios
from grader.mq.lab import MqLab
from grader.plugin import REQ
from grader.queue import scenarios as queue_scenarios
from grader.queue.lab import QueueLab
from grader.session import Grading
from solutions.walkthrough import walk_queue


def _start(grading: Grading, session: pytest.Session, lab: str,
           scenarios: Mapping[str, Any], target: object, first: tuple[str, ...] = ()) -> None:
    """Define the lab's scenarios on the pool and start those the selected checks read."""
    for name, scenario in scenarios.items():
        grading.pool.define(f"{lab}.{name}", partial(scenario, target))
    wanted = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    grading.pool.start([*first, *(f"{lab}.{name}" for name in sorted(wanted & scenarios.keys()))])


@pytest.fixture(scope="session")
def queue_lab(request: pytest.FixtureRequest, grading: Grading) -> QueueLab:
    if not grading.config.student_mode:
        walk_queue(grading.lab_root, grading.fixtures.root)
    snapshot = grading.snapshot("q")
    lab = QueueLab(grading, grading.fixtures.queue, snapshot.target, snapshot.saved)
    _start(grading, request.session, "queue", queue_scenarios.SCENARIOS, lab)
    return lab


@pytest.fixture(scope="session")
def mq_lab(request: pytest.FixtureRequest, grading: Grading) -> MqLab:
    lab = MqLab(grading)
    grading.pool.define("mq.stage", lab.stage.get)  # the broker starts first, on the pool
    _start(grading, request.session, "mq", mq_scenarios.SCENARIOS, lab, first=("mq.stage",))
    return lab


@pytest.fixture(scope="session", autouse=True)
def _labs_started(request: pytest.FixtureRequest, grading: Grading) -> None:
    """Bring up every selected lab (the broker first) before the first check runs."""
    labs = {item.stash[REQ][0] for item in request.session.items if REQ in item.stash}
    for prefix, fixture in (("M", "mq_lab"), ("Q", "queue_lab")):
        if prefix in labs:
            request.getfixturevalue(fixture)
