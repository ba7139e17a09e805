"""Behaviour scenarios, declared once.

A scenario drives the student's scripts and returns what it saw: a record, never a verdict.
Declaring one with a lab's ``Scenarios`` registry does three things at once, so they cannot
drift apart:

- it registers the scenario, so the lab starts it on the pool as soon as the lab comes up,
  when any selected check asks for it (all of them run concurrently);
- it makes a session fixture of the same name, whose value is the scenario's record;
- a check asks for the record by that name, typed: ``def test_Q3_3_...(req, fresh_run: Rerun)``.

``@scenarios.first`` declares one in the first wave: a scenario a clock makes long (a script
run to its own deadline, a watched window) starts its scripts before the others start theirs,
so that the grade does not wait for it to get going behind them (machinery.scenarios).

A scenario that cannot run because the student's artefact is missing returns ``Missing``; the
plugin turns that into one blocked FAIL per check that reads it (see plugin.pytest_pyfunc_call).
One whose stage the student's scripts took apart on the way raises ``ScriptsBroke``: the same.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import pytest

from grader.catalogue import Lab
from grader.machinery.scenarios import ScenarioPool
from grader.verdict import SPACE_SHOWN, Missing, ScriptsBroke

if TYPE_CHECKING:
    from grader.session import Grading

R = TypeVar("R")


class Staged(Protocol):
    """A lab object whose scenarios run on a pool, in a grading run."""

    @property
    def pool(self) -> ScenarioPool: ...

    @property
    def grading(self) -> Grading: ...


LabT = TypeVar("LabT", bound=Staged)


BringUp = Callable[["Grading", frozenset[str]], LabT]  # (the run, its scenarios wanted) -> the lab


class NoReference(RuntimeError):
    """The reference solutions are not in this build (a student's, a Gradescope bundle)."""


def reference_walkthrough() -> object:
    """solutions.walkthrough, the reference answer walked into a lab root: a checkout's alone."""
    try:
        from solutions import walkthrough
    except ModuleNotFoundError as exc:
        raise NoReference(
            "this grader holds no reference solutions (a student build or a bundle): grading the "
            "reference is a checkout's job; grade a student's work with --lab-root"
        ) from exc
    return walkthrough


def wanted(session: pytest.Session) -> frozenset[str]:
    """Every fixture a selected check asks for: the scenarios to start early."""
    return frozenset(name for item in session.items for name in getattr(item, "fixturenames", ()))


class Scenarios(Generic[LabT]):
    """The scenarios of one lab, read by checks through fixtures of their own names, and how
    the lab comes up (``bring_up``: the session fixture ``lab.fixture``, made by ``fixture``)."""

    def __init__(self, lab: Lab, bring_up: BringUp[LabT]) -> None:
        self.lab = lab.name
        self.lab_fixture = lab.fixture  # the session fixture that brings the lab up
        self._bring_up = bring_up
        self._defined: dict[str, Callable[[LabT], object]] = {}
        self._first: set[str] = set()

    def fixture(self) -> Callable[..., LabT]:
        """The lab's session fixture: brought up (with the scenarios some selected check reads),
        its scenarios started on the pool. A lab's scenarios module exposes it."""

        def brought_up(request: pytest.FixtureRequest, grading: Grading) -> LabT:
            mine = wanted(request.session) & self.names
            lab = self._bring_up(grading, mine)
            self.start(lab, mine)
            return lab

        brought_up.__name__ = brought_up.__qualname__ = self.lab_fixture
        return pytest.fixture(scope="session", name=self.lab_fixture)(brought_up)

    def __call__(self, scenario: Callable[[LabT], R | Missing]) -> Callable[..., R]:
        """Declare ``scenario``; returns the fixture (so the module exposes it to pytest)."""
        name = scenario.__name__
        if name in self._defined:
            raise ValueError(f"scenario {self.lab}.{name} declared twice")
        self._defined[name] = scenario
        return self._fixture(name, scenario)

    def first(self, scenario: Callable[[LabT], R | Missing]) -> Callable[..., R]:
        """Declare ``scenario`` in the first wave: a clock makes it long, so it starts its
        scripts before the others start theirs (see machinery.scenarios.ScenarioPool)."""
        fixture = self(scenario)
        self._first.add(scenario.__name__)
        return fixture

    def _fixture(self, name: str, scenario: Callable[[LabT], R | Missing]) -> Callable[..., R]:
        key = self.key(name)

        def observed(request: pytest.FixtureRequest) -> R:
            lab: LabT = request.getfixturevalue(self.lab_fixture)  # started the scenarios
            # R or Missing: a Missing never reaches a check's body (plugin.pytest_pyfunc_call).
            return lab.pool.result(key)  # type: ignore[return-value]

        observed.__name__ = observed.__qualname__ = name
        observed.__doc__ = scenario.__doc__
        return pytest.fixture(scope="session", name=name)(observed)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._defined)

    def observe(self, name: str, lab: LabT) -> object:
        """Run scenario ``name`` on ``lab`` directly, outside a grading session (self-tests)."""
        return self._defined[name](lab)

    def key(self, name: str) -> str:
        return f"{self.lab}.{name}"

    def start(self, lab: LabT, wanted: Iterable[str]) -> None:
        """Define every scenario on the lab's pool and start those some check reads."""
        for name, scenario in self._defined.items():
            lab.pool.define(self.key(name), _timed(self.key(name), scenario, lab), first=name in self._first)
        lab.pool.start(self.key(name) for name in sorted(self.names & set(wanted)))


# LAB_GRADER_TIMINGS=FILE: each scenario appends "key start end" (monotonic seconds) to FILE
# when it returns (bench/grade_time.py reads it to name the longest scenarios).
TIMINGS = os.environ.get("LAB_GRADER_TIMINGS")


def timing(key: str, started: float) -> None:
    """Note that ``key`` (a scenario, a lab's stage) ran from ``started`` until now."""
    if TIMINGS:
        with open(TIMINGS, "a") as out:
            out.write(f"{key} {started:.3f} {time.monotonic():.3f}\n")


def _timed(key: str, scenario: Callable[[LabT], object], lab: LabT) -> Callable[[], object]:
    def run() -> object:
        started = time.monotonic()
        try:
            return scenario(lab)
        except ScriptsBroke as broke:  # the student's scripts took the stage apart: a FAIL
            return Missing(broke.shown_as, broke.why)
        except OSError as exc:  # the space scripts write in, bounded, full: theirs, not ours
            if (
                exc.errno not in (errno.ENOSPC, errno.EDQUOT)
                or (full := lab.grading.scripts_space_full()) is None
            ):
                raise
            return Missing(SPACE_SHOWN, full)
        finally:
            timing(key, started)

    return run
