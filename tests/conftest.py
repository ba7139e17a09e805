"""Self-test fixtures: a fixture tree, and lab roots walked with variants of the reference."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree, build


@pytest.fixture(scope="session")
def fixture_tree(tmp_path_factory: pytest.TempPathFactory) -> FixtureTree:
    return build(tmp_path_factory.mktemp("fixtures"))


@pytest.fixture(scope="session")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """A fresh directory per name, for lab roots and grader state dirs."""
    return lambda name: tmp_path_factory.mktemp(name)
