"""The pytest plugin: wires the labs to the machinery and keeps the books.

- options, resolved once into a GraderConfig;
- the labs (each lab package declares its facts and scenarios) and one Catalogue of them;
- the grading session and each lab brought up before the first check, so that every selected
  lab's scenarios run concurrently (the broker first);
- requirement bookkeeping: an outcome is "not run" until its check ran and passed;
- the Korean scoreboard and results.json, written in every case.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Generator, Iterable, Iterator
from types import FrameType

import pytest

from grader.config import GraderConfig, add_options
from grader.labs import CATALOGUE, LAB_NAMES
from grader.mq import scenarios as mq_scenarios
from grader.mq.lab import MqLab
from grader.queue import scenarios as queue_scenarios
from grader.queue.lab import QueueLab
from grader.report import ResultBook, scoreboard, write_results
from grader.session import Grading
from grader.verdict import Check, Missing, StudentFailure
from solutions import walkthrough

CONFIG = pytest.StashKey[GraderConfig]()
BOOK = pytest.StashKey[ResultBook]()
STARTED = pytest.StashKey[float]()
REQ = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser, labs=LAB_NAMES)


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")  # so teardown restores the student's files


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "req(id): the requirement id a grader check asserts")
    for module in (queue_scenarios, mq_scenarios):  # scenarios are fixtures of their own names
        config.pluginmanager.register(module, module.__name__)
    config.stash[CONFIG] = GraderConfig.from_pytest(config, labs=LAB_NAMES)
    config.stash[BOOK] = ResultBook(CATALOGUE)
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
    """The selected checks are final now (after -k, --lab, ...): each must run and pass."""
    book = session.config.stash[BOOK]
    for item in session.items:
        if REQ in item.stash:
            book.expect(item.stash[REQ])


def pytest_report_header(config: pytest.Config) -> list[str]:
    c = config.stash[CONFIG]
    root = str(c.lab_root) if c.lab_root else "(reference walkthrough in a scratch tree)"
    fixtures = str(c.fixtures_dir) if c.fixtures_dir else "(built fresh)"
    return [
        f"grader: labs={','.join(c.labs)} lab-root={root} fixtures={fixtures} broker={c.broker} seed={c.seed}"
    ]


# the grading session and the labs ------------------------------------------------------------
@pytest.fixture(scope="session")
def grading(request: pytest.FixtureRequest) -> Iterator[Grading]:
    session = Grading(request.config.stash[CONFIG])
    request.config.stash[BOOK].notes += session.recovered
    try:
        yield session
    finally:
        session.close()


def _wanted(session: pytest.Session) -> Iterable[str]:
    """Every fixture a selected check asks for: the scenarios to start early."""
    return {name for item in session.items for name in getattr(item, "fixturenames", ())}


@pytest.fixture(scope="session")
def queue_lab(request: pytest.FixtureRequest, grading: Grading) -> QueueLab:
    reference = None if grading.config.student_mode else walkthrough.walk_queue
    lab = QueueLab.open(grading, reference)
    queue_scenarios.scenarios.start(lab, _wanted(request.session))
    return lab


@pytest.fixture(scope="session")
def mq_lab(request: pytest.FixtureRequest, grading: Grading) -> MqLab:
    reference = None if grading.config.student_mode else walkthrough.walk_mq
    lab = MqLab(grading, reference)
    lab.pool.define("mq.stage", lab.stage.get)  # the broker starts first, on the pool
    lab.pool.start(["mq.stage"])
    mq_scenarios.scenarios.start(lab, _wanted(request.session))
    return lab


@pytest.fixture(scope="session", autouse=True)
def _labs_started(request: pytest.FixtureRequest) -> None:
    """Bring up every selected lab (the broker first) before the first check runs. Nothing
    at all when no grader check is selected (the self-tests load this plugin too)."""
    labs = {CATALOGUE[item.stash[REQ]].lab for item in request.session.items if REQ in item.stash}
    for registry in (mq_scenarios.scenarios, queue_scenarios.scenarios):
        if registry.lab in labs:
            request.getfixturevalue(registry.lab_fixture)


@pytest.fixture
def req(request: pytest.FixtureRequest) -> Check:
    rid = requirement_of(request.node)
    if rid is None:
        raise pytest.UsageError(f"{request.node.nodeid} uses `req` without @pytest.mark.req")
    return Check(CATALOGUE[rid])


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> None:
    """A check reading a scenario that could not run (a missing artefact) is a blocked FAIL,
    said once on the scoreboard, instead of a traceback in the check's body."""
    rid = pyfuncitem.stash.get(REQ, None)
    for value in pyfuncitem.funcargs.values():
        if isinstance(value, Missing) and rid is not None:
            Check(CATALOGUE[rid]).blocked(value.artefact, value.why)


# bookkeeping and the report --------------------------------------------------------------------
@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    rid = item.stash.get(REQ, None)
    if rid is None:
        return report
    book = item.config.stash[BOOK]
    excinfo = call.excinfo
    if report.passed:
        if call.when == "call":
            book.passed(rid)
    elif report.skipped:  # a skipped check is never a pass
        book.error(rid, f"건너뜀: {report.longreprtext}")
    elif excinfo is not None and isinstance(excinfo.value, StudentFailure) and call.when == "call":
        book.failed(rid, excinfo.value.finding)
    else:
        text = excinfo.exconly() if excinfo is not None else report.longreprtext
        book.error(rid, text.strip()[-2000:])
    return report


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    book = terminalreporter.config.stash[BOOK]
    if not book.outcomes:
        return
    terminalreporter.section("채점 결과 (grader scoreboard)", sep="=", bold=True)
    for line in scoreboard(book, _where(terminalreporter.config.stash[CONFIG])):
        terminalreporter.write_line(line)


def _where(c: GraderConfig) -> str:
    return f"lab root: {c.lab_root}" if c.lab_root else "참조 답안(reference) 채점"


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Write results.json (always, when asked) and fail the run unless every id passed."""
    config = session.config
    book = config.stash[BOOK]
    grader_config = config.stash[CONFIG]
    book.close("실행되지 않음(채점이 중단됨)")
    if not book.outcomes and exitstatus not in (0, pytest.ExitCode.NO_TESTS_COLLECTED):
        book.faults.append(f"채점 항목을 모으지 못했습니다(pytest exit {int(exitstatus)})")
    if grader_config.results_json is not None:
        write_results(
            book,
            grader_config.results_json,
            time.monotonic() - config.stash[STARTED],
            _where(grader_config),
            {"seed": grader_config.seed},
        )
    if book.outcomes and not book.all_passed and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
