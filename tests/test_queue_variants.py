"""The grader accepts correct queue solutions written differently, and rejects each one-mistake
mutant of the reference on the requirement id that names the mistake."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.catalogue import requirements
from solutions.walkthrough import SOLUTIONS, walk_queue
from tests.grading import Graded, assert_passes_every_id, assert_rejected_on, grade
from tests.variants.queue import CORRECT, WRONG
from tests.variants.variant import Variant

# Grading every variant happens in one module fixture: allow it the time.
pytestmark = pytest.mark.timeout(1800)


def _grade_variant(variant: Variant, tree: FixtureTree, workdir: Callable[[str], Path]) -> Graded:
    base = workdir(variant.name)
    solution = variant.lay_out(SOLUTIONS / "queue", base / "solution")
    walk_queue(base / "root", tree.root, solution)
    if variant.tamper is not None:
        variant.tamper(base / "root" / "q")
    return grade(base / "root", tree.root, base / "state", lab="queue")


@pytest.fixture(scope="module")
def graded(fixture_tree: FixtureTree, workdir: Callable[[str], Path]) -> dict[str, Graded]:
    """Every variant graded once, three at a time (the grader runs are independent)."""
    variants = CORRECT + WRONG
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = pool.map(lambda v: _grade_variant(v, fixture_tree, workdir), variants)
        return {v.name: g for v, g in zip(variants, results, strict=True)}


@pytest.mark.parametrize("variant", CORRECT, ids=lambda v: v.name)
def test_correct_solution_passes_every_id(variant: Variant, graded: dict[str, Graded]) -> None:
    assert_passes_every_id(graded[variant.name], len(requirements("queue")))


@pytest.mark.parametrize("variant", WRONG, ids=lambda v: f"{v.rejected_on}-{v.name}")
def test_wrong_solution_rejected_on_its_id(variant: Variant, graded: dict[str, Graded]) -> None:
    assert_rejected_on(graded[variant.name], variant.rejected_on)


def test_catalogue_of_wrong_solutions_is_rich_enough() -> None:
    named = {v.rejected_on for v in WRONG}
    assert len(WRONG) >= 14 and {"Q3.4", "Q3.1", "Q3.8"} <= named
