"""The pytest plugin: wires the labs to the machinery and keeps the books.

- options, resolved once into a GraderConfig;
- the labs (each lab package declares its facts and scenarios) and one Catalogue of them;
- the grading session and each lab brought up before the first check, so that every selected
  lab's scenarios run concurrently (the broker first);
- the lifecycle: one grader per lab root, signals that stop the checks but never the teardown,
  the sandbox chosen once and named in the header;
- requirement bookkeeping: an outcome is "not run" until its check ran and passed; a process a
  script left running fails the id its lab names for that script;
- the Korean scoreboard and results.json, written in every case, after every script is dead.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from grader.config import EXIT_BUSY, EXIT_REFUSED, GraderConfig, add_options
from grader.labs import CATALOGUE, LAB_NAMES
from grader.machinery import sandbox
from grader.machinery.interrupts import Interrupts
from grader.machinery.rundir import GraderBusy
from grader.machinery.runner import Leftover
from grader.machinery.workspace import Refused
from grader.report import ResultBook, printable, scoreboard, write_results
from grader.scenario import Scenarios
from grader.session import Closing, Grading
from grader.verdict import Check, Finding, Missing, StudentFailure

CONFIG = pytest.StashKey[GraderConfig]()
BOOK = pytest.StashKey[ResultBook]()
STARTED = pytest.StashKey[float]()
REQ = pytest.StashKey[str]()
INTERRUPTS = pytest.StashKey[Interrupts]()
SANDBOX = pytest.StashKey["sandbox.Sandbox | str"]()  # the one chosen, or why none can be had
REGISTRIES = pytest.StashKey[list[Scenarios[Any]]]()  # the selected labs', first started first
GRADER = Path(__file__).resolve().parent


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser, labs=LAB_NAMES)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "req(id): the requirement id a grader check asserts")
    config.stash[CONFIG] = GraderConfig.from_pytest(config, labs=LAB_NAMES)
    # Only the selected labs' scenarios are imported (a lab without a broker never loads pika
    # nor requests); their scenarios and the lab itself are fixtures of their own names.
    config.stash[REGISTRIES] = []
    for lab in CATALOGUE.bring_up_order(config.stash[CONFIG].labs):
        module = importlib.import_module(lab.scenarios_module)
        config.pluginmanager.register(module, module.__name__)
        config.stash[REGISTRIES].append(module.scenarios)
    config.stash[BOOK] = ResultBook(CATALOGUE)
    config.stash[STARTED] = time.monotonic()
    config.stash[INTERRUPTS] = Interrupts()
    config.stash[INTERRUPTS].install()  # so teardown restores the student's files


def chosen_sandbox(config: pytest.Config) -> sandbox.Sandbox | str:
    """The sandbox of this run, probed once (or why the one asked for cannot be had)."""
    if SANDBOX not in config.stash:
        try:
            config.stash[SANDBOX] = sandbox.choose(config.stash[CONFIG].sandbox)
        except sandbox.SandboxUnavailable as exc:
            config.stash[SANDBOX] = str(exc)
    return config.stash[SANDBOX]


def requirement_of(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("req")
    return str(marker.args[0]) if marker else None


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The checks of a lab that is not selected are not even imported."""
    if collection_path.parent == GRADER and collection_path.name in set(LAB_NAMES) - set(
        config.stash[CONFIG].labs
    ):
        return True
    return None


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
    """The selected checks are final now (after -k, --lab, ...): each must run and pass
    (unless they are only listed: --collect-only grades nothing)."""
    if session.config.option.collectonly:
        return
    book = session.config.stash[BOOK]
    for item in session.items:
        if REQ in item.stash:
            book.expect(item.stash[REQ])


def pytest_report_header(config: pytest.Config) -> list[str]:
    c = config.stash[CONFIG]
    root = str(c.lab_root) if c.lab_root else "(reference walkthrough in a scratch tree)"
    fixtures = str(c.fixtures_dir) if c.fixtures_dir else "(built fresh)"
    chosen = chosen_sandbox(config)
    box = chosen.header() if isinstance(chosen, sandbox.Sandbox) else f"sandbox=unavailable ({chosen})"
    scripts = f" scripts-root={c.scripts_root}" if c.scripts_root else ""
    return [
        f"grader: labs={','.join(c.labs)} lab-root={root}{scripts} fixtures={fixtures} broker={c.broker} "
        f"seed={c.seed}",
        f"grader: {box}",
    ]


# the grading session and the labs ------------------------------------------------------------
@pytest.fixture(scope="session")
def grading(request: pytest.FixtureRequest) -> Iterator[Grading]:
    config = request.config
    c, book, interrupts = config.stash[CONFIG], config.stash[BOOK], config.stash[INTERRUPTS]
    graded = [path for lab in c.labs for path in CATALOGUE.labs[lab].paths]
    session: Grading | None = None
    try:
        try:
            with interrupts.held():  # recovery and renames are never cut halfway
                chosen = chosen_sandbox(config)
                if isinstance(chosen, str):
                    raise Refused(chosen)
                session = Grading(c, chosen, CATALOGUE.paths, graded, interrupts, adopt_orphans=True)
        except GraderBusy as exc:
            _refuse(book, str(exc), EXIT_BUSY)
        except Refused as exc:
            _refuse(book, str(exc), EXIT_REFUSED)
        assert session is not None
        book.notes += session.recovered
        book.bounds = dict(session.bounds)
        yield session
    finally:
        if session is not None:
            _book_closing(book, session.close())


def _refuse(book: ResultBook, why: str, code: int) -> None:
    """Grade nothing: one message, its own exit code, results.json saying so."""
    book.refused = why
    pytest.exit(f"채점하지 않았습니다: {printable(why)}", returncode=code)


def _book_closing(book: ResultBook, closing: Closing) -> None:
    book.notes += closing.notes
    book.faults += closing.errors
    book.tampered.update(closing.tampered)
    book.not_restored += closing.not_restored
    by_id: dict[str, list[tuple[str, Leftover]]] = {}
    for script, leftover in closing.leftovers:
        rid = CATALOGUE.leftover_judge(script)
        if rid is None or rid not in book.outcomes:
            book.faults.append(f"{script} left {leftover.describe()} running (killed)")
        else:
            by_id.setdefault(rid, []).append((script, leftover))
    for rid, left in by_id.items():
        named = "; ".join(f"{script} → {leftover.describe()}" for script, leftover in left[:3])
        more = f" 외 {len(left) - 3}개" if len(left) > 3 else ""
        seen = (
            f"스크립트가 끝난 뒤에도 그것이 시작한 프로세스가 살아 있었습니다(채점기가 끝냄): {named}{more}"
        )
        hint = (
            "스크립트가 띄운 프로세스(& 백그라운드, fork, setsid, 데몬)는 스크립트가 끝나기 전에 모두"
            " 끝내세요(wait, join). 남겨 두면 채점이 끝난 뒤에도 큐를 건드립니다."
        )
        book.failed_also(rid, Finding(CATALOGUE[rid], seen, hint))


@pytest.fixture(scope="session", autouse=True)
def _labs_started(request: pytest.FixtureRequest) -> None:
    """Bring up every selected lab (the broker first) before the first check runs. Nothing
    at all when no grader check is selected (the self-tests load this plugin too)."""
    labs = {CATALOGUE[item.stash[REQ]].lab for item in request.session.items if REQ in item.stash}
    for registry in request.config.stash[REGISTRIES]:
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
        book.error(rid, (text.strip()[-2000:] + _where_raised(excinfo)).strip())
    return report


def _where_raised(excinfo: pytest.ExceptionInfo[BaseException] | None) -> str:
    """The grader's own frames the error came through, innermost first (at most three), for
    whoever reports it: a grader error names where it happened."""
    if excinfo is None:
        return ""
    ours = []
    for entry in excinfo.traceback:
        path = Path(str(entry.path))
        if path.is_relative_to(GRADER):
            ours.append(f"{path.relative_to(GRADER.parent)}:{entry.lineno + 1} ({entry.name})")
    return "\n  at " + " <- ".join(reversed(ours[-3:])) if ours else ""


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    book = terminalreporter.config.stash[BOOK]
    if not book.outcomes and book.refused is None:
        return
    terminalreporter.section("채점 결과 (grader scoreboard)", sep="=", bold=True)
    for line in scoreboard(book, _where(terminalreporter.config.stash[CONFIG])):
        terminalreporter.write_line(printable(line))


def _where(c: GraderConfig) -> str:
    where = f"lab root: {c.lab_root}" if c.lab_root else "참조 답안(reference) 채점"
    if c.away_from_pod:
        where += " (파드 밖 채점: M1.3 은 살아 있는 노드 대신 제출된 status.txt 로 판정)"
    return where


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    if nextitem is None:  # the session's teardown follows: no signal may cut it short
        item.config.stash[INTERRUPTS].finishing()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """The session's teardown is over (every script dead, the student's files back): close the
    books before the scoreboard is printed, and fail the run unless every id passed."""
    _close_books(session)


def _close_books(session: pytest.Session) -> None:
    book = session.config.stash[BOOK]
    book.close("실행되지 않음(채점이 중단됨)")
    if book.refused is None and not book.outcomes and session.exitstatus not in (0, 5):
        book.faults.append(f"채점 항목을 모으지 못했습니다(pytest exit {int(session.exitstatus)})")
    if (book.outcomes or book.refused) and not book.all_passed and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(wrapper=True)
def pytest_unconfigure(config: pytest.Config) -> Generator[None, None, None]:
    """results.json, when asked: last of all, whatever happened before (a teardown that raised
    skips later sessionfinish hooks, never this)."""
    if INTERRUPTS in config.stash:
        config.stash[INTERRUPTS].finishing()
    try:
        yield
    finally:
        grader_config = config.stash.get(CONFIG, None)
        if grader_config is not None and grader_config.results_json is not None:
            book = config.stash[BOOK]
            book.close("실행되지 않음(채점이 중단됨)")
            seconds = time.monotonic() - config.stash[STARTED]
            write_results(
                book,
                grader_config.results_json,
                seconds,
                _where(grader_config),
                {"seed": grader_config.seed, "away_from_pod": grader_config.away_from_pod},
            )
