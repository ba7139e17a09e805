"""The grader accepts correct mq solutions written differently, and rejects each one-mistake
mutant of the reference on the requirement id that names the mistake (real broker, real
partner: one private node shared by every grader run)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.catalogue import requirements
from grader.machinery.broker import VHOST_PREFIX
from solutions.walkthrough import SOLUTIONS, walk_mq
from tests.conftest import SharedBroker
from tests.grading import Graded, assert_passes_every_id, assert_rejected_on, grade
from tests.variants.mq import CORRECT, WRONG
from tests.variants.variant import Variant

# Grading every variant happens in one module fixture: allow it the time.
pytestmark = pytest.mark.timeout(1800)


def _grade_variant(variant: Variant, tree: FixtureTree, broker: SharedBroker,
                   workdir: Callable[[str], Path]) -> Graded:
    base = workdir(variant.name)
    solution = variant.lay_out(SOLUTIONS / "mq", base / "solution")
    walk_mq(base / "root", broker.broker.ctl, solution)
    if variant.tamper is not None:
        variant.tamper(base / "root" / "eaimw" / "mq")
    return grade(base / "root", tree.root, base / "state", lab="mq", args=broker.args,
                 env=broker.env)


@pytest.fixture(scope="module")
def graded(fixture_tree: FixtureTree, shared_broker: SharedBroker,
           workdir: Callable[[str], Path]) -> dict[str, Graded]:
    """Every variant graded once, two at a time (more would make the two cores the limit)."""
    variants = CORRECT + WRONG
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(
            lambda v: _grade_variant(v, fixture_tree, shared_broker, workdir), variants
        )
        return {v.name: g for v, g in zip(variants, results, strict=True)}


@pytest.mark.parametrize("variant", CORRECT, ids=lambda v: v.name)
def test_correct_solution_passes_every_id(variant: Variant, graded: dict[str, Graded]) -> None:
    assert_passes_every_id(graded[variant.name], len(requirements("mq")))


@pytest.mark.parametrize("variant", WRONG, ids=lambda v: f"{v.rejected_on}-{v.name}")
def test_wrong_solution_rejected_on_its_id(variant: Variant, graded: dict[str, Graded]) -> None:
    assert_rejected_on(graded[variant.name], variant.rejected_on)


def test_no_vhost_is_left_on_the_broker(graded: dict[str, Graded],
                                        shared_broker: SharedBroker) -> None:
    left = [v["name"] for v in shared_broker.broker.api("GET", "vhosts") or []
            if v["name"].startswith(VHOST_PREFIX)]
    assert graded and not left


def test_catalogue_of_wrong_solutions_is_rich_enough() -> None:
    assert len(WRONG) >= 16
    assert len(CORRECT) >= 2
