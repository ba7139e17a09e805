"""Fixtures shared by both labs' checks: start every selected lab's scenarios at once."""

from __future__ import annotations

import pytest

from grader.plugin import REQ
from grader.session import Grading


def selected_labs(session: pytest.Session) -> set[str]:
    return {item.stash[REQ][0] for item in session.items if REQ in item.stash}


@pytest.fixture(scope="session", autouse=True)
def _labs_started(request: pytest.FixtureRequest, grading: Grading) -> None:
    """Bring up every selected lab before the first check, so their scenarios overlap."""
    for prefix, fixture in (("Q", "queue_lab"), ("M", "mq_lab")):
        if prefix in selected_labs(request.session):
            request.getfixturevalue(fixture)


def needed_fixtures(session: pytest.Session) -> set[str]:
    return {name for item in session.items for name in getattr(item, "fixturenames", ())}
