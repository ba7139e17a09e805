"""The queue lab's scenarios set up what their edge maps promise, on the reference solution:
the race of Q3.7 really has both consumers waiting at the lock, each holding its copy, and
every scenario's record covers every class of its ids (in-process, tests/queue_lab.py)."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.machinery import sandbox
from grader.machinery.snapshot import tree_digest
from grader.queue import edges
from grader.queue.lab import LANES, QueueLab
from grader.queue.scenarios import LagCase, OrderChecks, ReplayRun, Rerun, TwoConsumers
from tests.queue_lab import make_grading, observe

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


@pytest.mark.parametrize("mode", ["namespace", "none"])
def test_behaviour_scenarios_share_out_working_copies_of_q(
    fixture_tree: FixtureTree, walked: Path, tmp_path: Path, mode: str
) -> None:
    """Namespace mode: the lab has LANES working copies of q/, each shown to its scripts at
    LAB_ROOT/q in a namespace of its own, so scenarios can run side by side; the student's q/
    is untouched. Host mode: one, the student's q/ itself (put aside and back)."""
    if mode == "namespace" and sandbox.probe() is not None:
        pytest.skip(f"no namespaces here: {sandbox.probe()}")
    root = tmp_path / "root"
    shutil.copytree(walked, root / "q", symlinks=True)
    before = tree_digest(root)
    grading = make_grading(fixture_tree, root, tmp_path / "state", mode, protected=("q",))
    try:
        lab = QueueLab.open(grading, None)
        with contextlib.ExitStack() as stack:
            held = [
                stack.enter_context(lab.lane(f"t{n}")) for n in range(LANES if mode == "namespace" else 1)
            ]
            for n, lane in enumerate(held):
                with lane.acting():
                    (lane.live / "which.sh").write_text('cat "$LAB_ROOT/q/marker"; echo " $PWD"\n')
                    (lane.live / "marker").write_text(f"lane-{n}")
            seen = [lane.shell("which.sh").stdout.split() for lane in held]
    finally:
        grading.close()
    assert seen == [[f"lane-{n}", str(root / "q")] for n in range(len(held))]
    assert len({lane.live for lane in held}) == len(held)
    assert tree_digest(root) == before
