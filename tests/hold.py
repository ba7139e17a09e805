"""A grader run that hangs for real where a self-test needs it to, with no hook in the grader.

A grader started by a self-test (directly, or by ``batch`` and ``grade``, which pass their
environment on) loads this module as a pytest plugin when its environment says so
(``Hold.env``): ``PYTEST_ADDOPTS="-p tests.hold"`` (every grader runs from the checkout, so
``tests`` is importable) and where to hold. At each point named, the grader writes
``DIR/POINT.held.PID`` and then waits until ``DIR/POINT.go`` exists: forever, unless the test
releases it. So a wall-clock limit meets a grade that really never ends, on any machine, and a
test acts while a grader is provably in the middle of a grade, instead of after a guessed time.

Points:

- ``check``: the call of the first check. The lab root is locked, the working copies are in
  place and every scenario has started (their scripts run on while the check waits). The first
  Ctrl-C or SIGTERM ends the wait as it would end any check (KeyboardInterrupt).
- ``teardown``: before the session's teardown (scripts killed, the student's files put back,
  results written), that is, after the checks have stopped (the last check's own teardown in
  a whole run, the session's end after a first signal, say). The
  grader then only says it is finishing on a signal, and the wait goes on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.waiting import wait_until

FOLDER = "LAB_GRADER_SELFTEST_HOLD_DIR"
POINTS = "LAB_GRADER_SELFTEST_HOLD_AT"
_held: set[str] = set()  # in the grader: the points held already (each is held once)


def _hold(point: str) -> None:
    folder = os.environ.get(FOLDER)
    if not folder or point not in os.environ.get(POINTS, "").split(",") or point in _held:
        return
    _held.add(point)
    (Path(folder) / f"{point}.held.{os.getpid()}").touch()
    go = Path(folder) / f"{point}.go"
    while not go.exists():
        time.sleep(0.02)  # a signal handler runs in here: the grader's first signal raises


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    _hold("check")
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    if nextitem is None:  # the last check's teardown ends the session's fixtures (a whole run)
        _hold("teardown")
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> Generator[None, None, None]:
    _hold("teardown")  # an interrupted run tears its fixtures down here
    return (yield)


# the test's side ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hold:
    """Where the graders a test starts hold (``folder``, made by the test), and at which points."""

    folder: Path
    points: tuple[str, ...]

    def env(self) -> dict[str, str]:
        """The variables to add to a grader's environment (or to os.environ, for the graders
        that batch or grade start)."""
        addopts = " ".join(filter(None, [os.environ.get("PYTEST_ADDOPTS", ""), "-p tests.hold"]))
        return {"PYTEST_ADDOPTS": addopts, FOLDER: str(self.folder), POINTS: ",".join(self.points)}

    def held(self, point: str) -> list[int]:
        """The pids of the graders that reached ``point``."""
        return [int(marker.suffix[1:]) for marker in self.folder.glob(f"{point}.held.*")]

    def wait(self, point: str, alive: Callable[[], bool] = lambda: True) -> list[int]:
        """Wait until a grader reached ``point`` (while ``alive()``: its process runs)."""
        wait_until(lambda: bool(self.held(point)) or not alive(), f"a grader holding at {point}")
        assert self.held(point), f"the grader ended before it reached {point}"
        return self.held(point)

    def release(self, point: str) -> None:
        (self.folder / f"{point}.go").touch()
