"""The queue lab's scenarios set up what their edge maps promise, on the reference solution:
the race of Q3.7 really has both consumers waiting at the lock, each holding its copy, and
every scenario's record covers every class of its ids (in-process, tests/queue_lab.py)."""

from __future__ import annotations

import pytest

from grader.queue import edges
from grader.queue.lab import QueueLab
from grader.queue.scenarios import LagCase, OrderChecks, ReplayRun, Rerun, TwoConsumers
from tests.queue_lab import observe

pytestmark = pytest.mark.timeout(300)


def test_race_and_crowd_are_released_together(lab: QueueLab) -> None:
    both = observe("two_consumers", lab)
    assert isinstance(both, TwoConsumers)
    assert both.race.contended and both.race.attempts == 1
    assert all(run.ok for run in both.race.runs) and set(both.race.rows_per_id.values()) == {1}
    assert both.lockstep and all(run.ok for run in both.crowd.runs)


def test_every_scenario_covers_its_map(lab: QueueLab) -> None:
    fresh = observe("fresh_run", lab)
    assert isinstance(fresh, Rerun) and fresh.first.runs[0].ok
    for rid in ("Q3.3", "Q3.4", "Q3.5", "Q3.6", "Q3.8"):
        assert edges.scenario_keys(rid) <= fresh.covered, rid
    order = observe("order_checks", lab)
    assert isinstance(order, OrderChecks)
    for rid in ("Q6.1", "Q6.2", "Q6.3", "Q6.4"):
        assert edges.scenario_keys(rid) <= order.covered, rid
    lag = observe("lag_runs", lab)
    assert isinstance(lag, list) and all(isinstance(c, LagCase) for c in lag)
    assert edges.scenario_keys("Q7.2") <= {k for c in lag for k in c.keys}
    replay = observe("replay_runs", lab)
    assert isinstance(replay, list) and all(isinstance(r, ReplayRun) for r in replay)
    assert {r.case.rid for r in replay} == {"Q8.1", "Q8.2", "Q8.3"}


def test_a_scenario_that_leaves_a_class_out_is_a_harness_fault() -> None:
    with pytest.raises(RuntimeError, match=r"Q6\.3"):
        edges.ensure(
            "order_checks", edges.scenario_keys("Q6.2") | edges.scenario_keys("Q6.4") | {"own-ledger"}
        )
