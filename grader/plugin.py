"""The pytest plugin: options, the grading session, requirement bookkeeping, the report."""

from __future__ import annotations

import signal
import time
from collections.abc import Generator, Iterator
from types import FrameType

import pytest

from grader.catalogue import CATALOGUE
from grader.config import GraderConfig, add_options
from grader.report import ERROR, FAILED, PASSED, ResultBook, scoreboard, write_results
from grader.session import Grading
from grader.verdict import Check, StudentFailure

CONFIG = pytest.StashKey[GraderConfig]()
BOOK = pytest.StashKey[ResultBook]()
STARTED = pytest.StashKey[float]()
REQ = pytest.StashKey[str]()
RAN = pytest.StashKey[set[str]]()  # ids whose check body actually ran


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")  # so teardown restores the student's files


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "req(id): the requirement id a grader check asserts")
    config.stash[CONFIG] = GraderConfig.from_pytest(config)
    config.stash[BOOK] = ResultBook()
    config.stash[STARTED] = time.monotonic()
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGHUP, _terminate)


def requirement_of(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("req")
    return str(marker.args[0]) if marker else None


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Keep the selected labs' checks; every check names exactly one catalogue id."""
    grader_config = config.stash[CONFIG]
    keep, drop = [], []
    seen: dict[str, str] = {}
    for item in items:
        rid = requirement_of(item)
        if rid is None:
            keep.append(item)
            continue
        if rid not in CATALOGUE:
            raise pytest.UsageError(f"{item.nodeid}: unknown requirement id {rid}")
        if rid in seen:
            raise pytest.UsageError(f"{rid} is asserted twice: {seen[rid]} and {item.nodeid}")
        seen[rid] = item.nodeid
        if CATALOGUE[rid].lab in grader_config.labs:
            item.stash[REQ] = rid
            keep.append(item)
        else:
            drop.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_collection_finish(session: pytest.Session) -> None:
    """The selected checks are final now (after -k, --lab, ...): each must pass."""
    book = session.config.stash[BOOK]
    for item in session.items:
        if REQ in item.stash:
            book.expect(item.stash[REQ])


def pytest_report_header(config: pytest.Config) -> list[str]:
    c = config.stash[CONFIG]
    root = str(c.lab_root) if c.lab_root else "(reference walkthrough in a scratch tree)"
    fixtures = str(c.fixtures_dir) if c.fixtures_dir else "(built fresh)"
    return [
        f"grader: labs={','.join(c.labs)} lab-root={root} fixtures={fixtures} "
        f"broker={c.broker} seed={c.seed}"
    ]


@pytest.fixture(scope="session")
def grading(request: pytest.FixtureRequest) -> Iterator[Grading]:
    session = Grading(request.config.stash[CONFIG])
    request.config.stash[BOOK].notes += session.recovered
    try:
        yield session
    finally:
        session.close()


@pytest.fixture
def req(request: pytest.FixtureRequest) -> Check:
    rid = requirement_of(request.node)
    if rid is None:
        raise pytest.UsageError(f"{request.node.nodeid} uses `req` without @pytest.mark.req")
    return Check(CATALOGUE[rid])


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    rid = item.stash.get(REQ, None)
    if rid is None:
        return report
    book = item.config.stash[BOOK]
    if call.when == "call":
        item.config.stash.setdefault(RAN, set()).add(rid)
    if report.passed:
        return report
    excinfo = call.excinfo
    if report.skipped:  # a skipped check is never a pass
        book.record(rid, ERROR, None, f"건너뜀: {report.longreprtext}")
    elif excinfo is not None and isinstance(excinfo.value, StudentFailure) and call.when == "call":
        book.record(rid, FAILED, excinfo.value.finding, "")
    else:
        text = excinfo.exconly() if excinfo is not None else report.longreprtext
        book.record(rid, ERROR, None, text.strip()[-2000:])
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    book = terminalreporter.config.stash[BOOK]
    if not book.outcomes:
        return
    terminalreporter.section("채점 결과 (grader scoreboard)", sep="=", bold=True)
    c = terminalreporter.config.stash[CONFIG]
    where = f"lab root: {c.lab_root}" if c.lab_root else "참조 답안(reference) 채점"
    for line in scoreboard(book, where):
        terminalreporter.write_line(line)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Write results.json (always, when asked) and fail the run unless every id passed."""
    config = session.config
    book = config.stash[BOOK]
    grader_config = config.stash[CONFIG]
    ran = config.stash.get(RAN, set())
    for rid, outcome in book.outcomes.items():
        if outcome.status == PASSED and rid not in ran:
            outcome.status, outcome.error = ERROR, "실행되지 않음(채점이 중단됨)"
    if not book.outcomes and exitstatus not in (0, pytest.ExitCode.NO_TESTS_COLLECTED):
        book.faults.append(f"채점 항목을 모으지 못했습니다(pytest exit {int(exitstatus)})")
    if grader_config.results_json is not None:
        write_results(book, grader_config.results_json, time.monotonic() - config.stash[STARTED])
    if book.outcomes and not book.all_passed and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
