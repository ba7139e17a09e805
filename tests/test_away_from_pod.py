"""--away-from-pod (class grading: batch, Gradescope, the student-repository workflow): M1.3
judges the node as the submitted status.txt shows it, since the student's own node is not
there to ask; M1.1 and M1.2 read the same file as always."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from tests.conftest import SharedBroker
from tests.grading import grade
from tests.test_variants import grade_mq_root
from tests.variants.variant import Variant, variants

pytestmark = pytest.mark.slow  # whole grader runs: not in ./dev.sh test --fast

STEP1 = ("M1.1", "M1.2", "M1.3")
CASES = [v for v in variants("mq") if v.correct][:1] + [
    v for v in variants("mq") if not v.student_broker_down and set(v.fails_away) & set(STEP1)
]


@pytest.mark.parametrize("variant", CASES, ids=lambda v: v.name)
def test_step1_away_from_the_pod(
    variant: Variant,
    fixture_tree: FixtureTree,
    shared_broker: SharedBroker,
    workdir: Callable[[str], Path],
) -> None:
    base = workdir(f"away-{variant.name}")
    root = grade_mq_root(variant, base, shared_broker.status())
    graded = grade(
        root,
        fixture_tree.root,
        base / "state",
        lab="mq",
        args=(*shared_broker.args, "--away-from-pod", "-k", "M1_"),
        env=shared_broker.env,
    )
    failed = {rid for rid in STEP1 if graded.statuses[rid] != "passed"}
    assert failed == set(variant.fails_away) & set(STEP1), graded.explain()
    assert "파드 밖 채점" in graded.log and graded.extra["away_from_pod"] is True
