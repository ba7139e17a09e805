"""Grading is safe against whatever a student's tree or scripts do (issue 8), in both sandboxes:
``namespace`` (bwrap) and ``none`` (forced: the host mode of pods without namespaces).

Each case builds a hostile or careless lab root (the reference walked into it, then made
hostile) and grades it with a real grader run. All cases start at once in one fixture (they
mostly wait on their scripts), and each test reads its own case's outcome.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fixtures.tree import FixtureTree, build
from grader.config import EXIT_BUSY, EXIT_REFUSED
from grader.machinery.snapshot import tree_digest
from grader.queue.catalogue import QUEUE
from solutions.walkthrough import walk_queue
from tests.grading import (
    REPO,
    Graded,
    grade,
    kill_grader,
    needs_chattr,
    pids_mentioning,
    processes_mentioning,
)
from tests.hold import Hold
from tests.variants.variant import Variant

MODES = ("namespace", "none")  # ./dev.sh installs bwrap: without it the namespace runs fail
SLOW = Variant.named("queue", "_slow_but_correct")
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


# building hostile trees ----------------------------------------------------------------------
def walked(base: Path, fixtures: FixtureTree, slow: bool = False) -> Path:
    """A lab root with the reference solution walked into it (slow: 50 ms per message)."""
    solution = SLOW.lay_out(base / "solution") if slow else None
    root = base / "root"
    walk_queue(root, fixtures.root, *([solution] if solution else []))
    return root


def before_exit(root: Path, code: str) -> None:
    """Run ``code`` (Python) in consume.py after its work, before it exits."""
    script = root / "q" / "consume.py"
    text = script.read_text()
    body = textwrap.indent(textwrap.dedent(code), "    ")
    script.write_text(
        text.replace("    sys.exit(main())", f"    _code = main()\n{body}\n    sys.exit(_code)")
    )


def before_work(root: Path, code: str) -> None:
    """Run ``code`` (Python) in consume.py before it starts its work."""
    script = root / "q" / "consume.py"
    body = textwrap.indent(textwrap.dedent(code), "    ")
    script.write_text(script.read_text().replace("    sys.exit(main())", f"{body}\n    sys.exit(main())"))


def in_shell(root: Path, script: str, line: str) -> None:
    path = root / "q" / script
    path.write_text(path.read_text().replace("set -u\n", f"set -u\n{line}\n", 1))


def sandbox(mode: str) -> tuple[str, ...]:
    return ("--sandbox", mode)


def grader_argv(root: Path, fixtures: Path, state: Path, *args: str) -> list[str]:
    # fmt: off
    return [
        sys.executable, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider", "--lab", "queue",
        "--lab-root", str(root), "--fixtures-dir", str(fixtures), "--state-dir", str(state), *args,
    ]
    # fmt: on


def start_grader(argv: list[str], hold: Hold, stderr: Path | None = None) -> subprocess.Popen[bytes]:
    """A grader in the background, to be interrupted or killed where ``hold`` holds it."""
    with open(stderr or os.devnull, "wb") as err:
        return subprocess.Popen(
            argv,
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
            env=os.environ | hold.env(),
        )


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


def inodes(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.lstat().st_ino for p in [root, *root.rglob("*")]}


# the cases -------------------------------------------------------------------------------------
DAEMON = """
import time as _t
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for _ in range(3000):
            for _path, _text in (({results!r}, '{{"score": 999}}'), ({witness!r}, "x")):
                try:
                    with open(_path, "a") as _w:
                        _w.write(_text)
                except OSError:
                    pass
            _t.sleep(0.05)
    os._exit(0)
"""


@dataclass(frozen=True)
class Leftovers:
    graded: Graded
    daemon_alive: bool  # a process of consume.py's still runs
    wrote_outside: bool  # the daemon reached a file outside its box
    root: Path
    sleep: str  # the command lag.sh left running


LEFTOVER_SLEEP = {"namespace": 417, "none": 419}


def leftovers(base: Path, fixtures: FixtureTree, mode: str) -> Leftovers:
    """consume.py double-forks a daemon that writes outside and over results.json; lag.sh
    leaves `sleep` running in a session of its own."""
    root = walked(base, fixtures)
    state = base / "state"
    witness = Path("/var/tmp") / f"lab-grader-witness-{os.getpid()}-{mode}"
    witness.write_text("")
    witness.chmod(0o666)  # even a file every user may write is out of a script's reach in a box
    before_exit(root, DAEMON.format(witness=str(witness), results=str(base / "state-results.json")))
    # Both modes' cases run at once: each leaves a sleep of its own length, told apart below.
    sleep = f"sleep {LEFTOVER_SLEEP[mode]}"
    # lag.sh goes on once the process it leaves runs `sleep`: it is named so when lag.sh ends,
    # however slowly it got to exec.
    in_shell(
        root,
        "lag.sh",
        f"setsid {sleep} >/dev/null 2>&1 & _left=$!\n"
        'until [ "$(cat /proc/$_left/comm 2>/dev/null)" = sleep ]; do :; done',
    )
    try:
        graded = grade(root, fixtures.root, state, lab="queue", args=sandbox(mode))
        wrote = witness.read_text() != ""
    finally:
        witness.unlink()
    consume = str(root / "q" / "consume.py")
    return Leftovers(graded, bool(processes_mentioning(consume)), wrote, root, sleep)


@dataclass(frozen=True)
class TwoGraders:
    first: Graded
    second: subprocess.CompletedProcess[str]
    first_still_grading: bool  # when the second had ended
    second_results: dict[str, Any]
    second_state_exists: bool


def two_graders(base: Path, fixtures: FixtureTree, mode: str) -> TwoGraders:
    """A second grader on the same lab root, with a state dir of its own, while the first runs:
    the first holds at its first check (tests/hold.py) until the second has ended, so the
    second meets it mid-grade and stops at once whatever the machine's speed."""
    root = walked(base, fixtures)
    first_state, second_state = base / "state-1", base / "state-2"
    hold = Hold(base / "hold", ("check",))
    hold.folder.mkdir()
    with ThreadPoolExecutor(max_workers=1) as side:
        first = side.submit(
            grade, root, fixtures.root, first_state, lab="queue", args=sandbox(mode), env=hold.env()
        )
        try:
            hold.wait("check", alive=lambda: not first.done())
            results = base / "second.json"
            second = subprocess.run(
                [
                    *grader_argv(root, fixtures.root, second_state, *sandbox(mode)),
                    "--results-json",
                    str(results),
                ],
                cwd=REPO,
                capture_output=True,
                text=True,
                timeout=120,
            )
            still = not first.done()
        finally:
            hold.release("check")
        return TwoGraders(
            first.result(), second, still, json.loads(results.read_text()), second_state.exists()
        )


@dataclass(frozen=True)
class Links:
    graded: Graded
    q_is_link: bool
    target_unchanged: bool
    outside_db_unchanged: bool
    db_is_link: bool


def links(base: Path, fixtures: FixtureTree, mode: str) -> Links:
    """LAB_ROOT/q a link to a directory outside the lab root, and q/ledger.db a link to a
    database elsewhere again."""
    root = walked(base, fixtures)
    outside = base / "elsewhere"
    outside.mkdir()
    (root / "q").rename(outside / "q")
    (root / "q").symlink_to(outside / "q")
    db = base / "databases" / "ledger.db"
    db.parent.mkdir()
    (outside / "q" / "ledger.db").rename(db)
    (outside / "q" / "ledger.db").symlink_to(db)
    target, db_bytes = tree_digest(outside / "q"), db.read_bytes()
    graded = grade(root, fixtures.root, base / "state", lab="queue", args=sandbox(mode))
    return Links(
        graded,
        (root / "q").is_symlink() and os.readlink(root / "q") == str(outside / "q"),
        tree_digest(outside / "q") == target,
        db.read_bytes() == db_bytes,
        (outside / "q" / "ledger.db").is_symlink(),
    )


@dataclass(frozen=True)
class Journal:
    refused: Graded
    unchanged: bool  # the second run changed nothing of the student's (nor outside)
    outside_intact: bool
    leftovers_gone: bool  # the killed run's scripts, frozen, were ended by the second run


def journal(base: Path, fixtures: FixtureTree, how: str) -> Journal:
    """A host-mode grader SIGKILLed mid-run; its journal then deleted or forged; the next run
    acts only on what a journal recorded and finds as recorded: it refuses, changing nothing."""
    root = walked(base, fixtures, slow=True)
    state = base / "state"
    outside = base / "precious"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine\n")
    hold = Hold(base / "hold", ("check",))  # never released: it cannot finish before the kill
    hold.folder.mkdir()
    grader = start_grader(grader_argv(root, fixtures.root, state, *sandbox("none")), hold)
    try:
        hold.wait("check", alive=lambda: grader.poll() is None)
        wait_for(lambda: bool(pids_mentioning(str(root / "q" / "consume.py"))), "a consume.py at work")
    finally:
        kill_grader(grader.pid)
        grader.wait()
    entries = list(state.glob("*/workspaces.json"))
    assert entries and (root / ".lab-grader-saved.q").is_dir(), "the kill did not interrupt a host-mode grade"
    # The killed run's scripts may still be at work in the tree (nobody was left to stop them):
    # frozen, they change nothing while the tree is compared, and only the next run can end them.
    for _ in range(2):  # a second pass for a child started while the first froze its parent
        for pid in pids_mentioning(str(root)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
    frozen = pids_mentioning(str(root))
    if how == "deleted":
        entries[0].unlink()
    else:  # forged: the identity of a directory outside as the saved copy's
        st = outside.stat()
        forged = {"token": "x", "copies": {"q": {"saved": [st.st_dev, st.st_ino]}}, "grants": []}
        entries[0].write_text(json.dumps(forged))
    before = tree_digest(root), tree_digest(outside)
    refused = grade(root, fixtures.root, state, lab="queue", args=sandbox("none"))
    unchanged = (tree_digest(root), tree_digest(outside)) == before
    gone = not set(frozen) & set(pids_mentioning(str(root)))
    for pid in pids_mentioning(str(root)):  # the test's own cleanup, whatever the verdict
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    # Put right by hand, as the message says, for the test's own cleanup.
    shutil.rmtree(root / "q")
    (root / ".lab-grader-saved.q").rename(root / "q")
    return Journal(refused, unchanged, (outside / "keep.txt").read_text() == "mine\n", gone)


@dataclass(frozen=True)
class Immutable:
    graded: Graded
    unchanged: bool
    state_left: bool


def immutable(base: Path, fixtures: FixtureTree, mode: str) -> Immutable:
    """chattr +i on LAB_ROOT/q: host mode cannot put it aside and back, so it refuses."""
    needs_chattr(base)
    root = walked(base, fixtures)
    before = tree_digest(root)
    subprocess.run(["chattr", "+i", str(root / "q")], check=True)
    try:
        graded = grade(root, fixtures.root, base / "state", lab="queue", args=sandbox(mode))
        return Immutable(graded, tree_digest(root) == before, (base / "state").exists())
    finally:
        subprocess.run(["chattr", "-i", str(root / "q")], check=True)


@dataclass(frozen=True)
class LockedOut:
    graded: Graded
    again: Graded
    restored: bool


def locked_out(base: Path, fixtures: FixtureTree, mode: str) -> LockedOut:
    """Scripts can no longer make the lab root immutable (no privilege over it): consume.py
    tries. Then, with the grader held before its teardown, the lab root is made immutable from
    outside (as an administrator might): the restore fails loudly, and the next run retries."""
    needs_chattr(base)
    root = walked(base, fixtures)
    before_exit(
        root,
        f"""
        import subprocess
        subprocess.run(["chattr", "+i", {str(root)!r}], stderr=subprocess.DEVNULL)
        """,
    )
    before = tree_digest(root)
    hold = Hold(base / "hold", ("teardown",))
    hold.folder.mkdir()
    with ThreadPoolExecutor(max_workers=1) as side:
        graded_later = side.submit(
            grade, root, fixtures.root, base / "state", lab="queue", args=sandbox(mode), env=hold.env()
        )
        try:
            hold.wait("teardown", alive=lambda: not graded_later.done())
            subprocess.run(["chattr", "+i", str(root)], check=True)
        finally:
            hold.release("teardown")
        try:
            graded = graded_later.result()
        finally:
            subprocess.run(["chattr", "-i", str(root)], check=True)
    again = grade(root, fixtures.root, base / "state", lab="queue", args=sandbox(mode))
    return LockedOut(graded, again, tree_digest(root) == before)


@dataclass(frozen=True)
class OddTree:
    graded: Graded
    special_kept: bool
    inodes_kept: bool
    sparse_kept: bool
    cwd_alive: bool
    handle_alive: bool


def odd_tree(base: Path, fixtures: FixtureTree, mode: str) -> OddTree:
    """A FIFO, a socket and a /dev/zero node in q; a name that is not UTF-8 in q/done; a sparse
    file; a shell whose cwd is q; the ledger held open; q itself of mode 000 (root's all the
    same, in a pod)."""
    root = walked(base, fixtures)
    q = root / "q"
    os.mkfifo(q / "pipe")
    os.mkfifo(q / "done" / "pipe2")
    os.mknod(q / "zero", stat.S_IFCHR | 0o666, os.makedev(1, 5))
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(q / "sock"))
    with open(os.fsencode(q / "done") + b"/\xff\xfe-bad.json", "w") as f:
        f.write("{}\n")
    with open(q / "sparse.bin", "wb") as f:
        f.truncate(64 << 20)
        f.seek(32 << 20)
        f.write(b"x")
    blocks = (q / "sparse.bin").stat().st_blocks
    shell = subprocess.Popen(["sleep", "600"], cwd=q)
    handle = os.open(q / "ledger.db", os.O_RDONLY)
    q.chmod(0o000)
    ids = inodes(root)
    try:
        graded = grade(root, fixtures.root, base / "state", lab="queue", args=sandbox(mode))
        special = all(
            check(os.lstat(q / name).st_mode)
            for name, check in (("pipe", stat.S_ISFIFO), ("zero", stat.S_ISCHR), ("sock", stat.S_ISSOCK))
        )
        return OddTree(
            graded,
            special and stat.S_ISFIFO(os.lstat(q / "done" / "pipe2").st_mode),
            inodes(root) == ids,
            (q / "sparse.bin").stat().st_blocks == blocks,
            os.readlink(f"/proc/{shell.pid}/cwd") == str(q),
            os.fstat(handle).st_ino == (q / "ledger.db").stat().st_ino and os.fstat(handle).st_nlink > 0,
        )
    finally:
        q.chmod(0o755)
        shell.kill()
        shell.wait()
        os.close(handle)
        listener.close()


@dataclass(frozen=True)
class Interrupted:
    returncode: int
    results: dict[str, Any] | None
    restored: bool
    left: list[str]
    state_left: bool
    held_signals: int  # sent while the grader was held before its teardown
    finishing: int  # times it said it is finishing (one per signal after the first)


HELD_SIGNALS = 6
FINISHING = "채점기: 정리 중입니다"


def interrupted(base: Path, fixtures: FixtureTree, mode: str) -> Interrupted:
    """Ctrl-C in the middle of grading (held at its first check, its scenarios at work on the
    queue), then Ctrl-C and SIGTERM while it is held before its teardown (each one seen: the
    grader says it is finishing), then every 20 ms through the teardown itself until it ends."""
    root = walked(base, fixtures, slow=True)
    before = tree_digest(root)
    state, results, err = base / "state", base / "results.json", base / "grader.err"
    hold = Hold(base / "hold", ("check", "teardown"))
    hold.folder.mkdir()
    grader = start_grader(
        [*grader_argv(root, fixtures.root, state, *sandbox(mode)), "--results-json", str(results)], hold, err
    )
    inbox = root / "q" / "inbox"
    try:
        hold.wait("check", alive=lambda: grader.poll() is None)
        wait_for(
            lambda: any(state.glob("*/run/work/q/inbox/*")) or (inbox.is_dir() and any(inbox.iterdir())),
            "a run",
        )
        os.kill(grader.pid, signal.SIGINT)
        hold.wait("teardown", alive=lambda: grader.poll() is None)
        for sent in range(1, HELD_SIGNALS + 1):
            os.kill(grader.pid, signal.SIGTERM if sent % 2 else signal.SIGINT)
            wait_for(finishing(err, sent), "the signal seen")
    except BaseException:  # never leave a held grader behind
        kill_grader(grader.pid)
        grader.wait()
        raise
    finally:
        hold.release("teardown")
    sent = 0
    while grader.poll() is None and sent < 500:  # and through the teardown, as many as land
        os.kill(grader.pid, signal.SIGINT if sent % 2 == 0 else signal.SIGTERM)
        sent += 1
        time.sleep(0.02)
    code = grader.wait(timeout=120)
    data = json.loads(results.read_bytes().decode()) if results.exists() else None
    return Interrupted(
        code,
        data,
        tree_digest(root) == before,
        processes_mentioning(str(root)),
        state.exists(),
        HELD_SIGNALS,
        said(err).count(FINISHING),
    )


def said(err: Path) -> str:
    return err.read_text(errors="replace")


def finishing(err: Path, times: int) -> Callable[[], bool]:
    """The grader has said ``times`` times that it is finishing (once for each signal)."""
    return lambda: said(err).count(FINISHING) >= times


@dataclass(frozen=True)
class Tampered:
    graded: Graded
    fixtures_right: bool
    code_right: bool


def tampering(base: Path, fixtures: FixtureTree, mode: str) -> Tampered:
    """consume.py writes into the fixture tree, the state dir and the grader's own code."""
    repo = base / "grader-copy"
    for name in ("grader", "fixtures", "solutions", "conftest.py", "pyproject.toml"):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, repo / name)
    own = build(base / "fixtures")  # the test's own fixture tree: this case writes into it
    pristine = tree_digest(own.root)
    code = tree_digest(repo / "grader")
    root = walked(base, own)
    before_exit(
        root,
        f"""
        for _path, _text in (
            (os.environ["LAB_FIXTURES"] + "/eai/queue/inbox/zz-tampered.json", "{{}}"),
            (os.environ["LAB_FIXTURES"] + "/eaimw/partner.py", "# tampered"),
            (str(Path(os.environ["EAI_MQ_DB"]).parents[2] / "tampered.txt"), "x"),
            ({str(repo / "grader" / "zz_tampered.py")!r}, "x = 1"),
        ):
            try:
                with open(_path, "a") as _f:
                    _f.write(_text)
            except OSError:
                pass
        """,
    )
    graded = grade(root, own.root, base / "state", lab="queue", args=sandbox(mode), repo=repo)
    return Tampered(graded, tree_digest(own.root) == pristine, tree_digest(repo / "grader") == code)


# running them ----------------------------------------------------------------------------------
CASES: dict[str, Callable[[Path, FixtureTree, str], Any]] = {
    "leftovers": leftovers,
    "links": links,
    "immutable": immutable,
    "locked_out": locked_out,
    "odd_tree": odd_tree,
    "interrupted": interrupted,
    "tampering": tampering,
}
ONCE: dict[str, tuple[Callable[[Path, FixtureTree, str], Any], str]] = {
    "two_graders": (two_graders, "namespace"),
    "journal-deleted": (journal, "deleted"),
    "journal-forged": (journal, "forged"),
}
AT_ONCE = 4  # grader runs at once: mostly waiting on their scripts


def _case_of(item: pytest.Item) -> str:
    """The case a test of this module reads: its ``case`` marker, and its parameter."""
    marker = item.get_closest_marker("case")
    assert marker is not None, f"{item.nodeid} names no case"
    params = getattr(item, "callspec", None)
    return "-".join([marker.args[0], *(str(v) for v in (params.params.values() if params else ()))])


@pytest.fixture(scope="module")
def outcomes(
    request: pytest.FixtureRequest, fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> Iterator[dict[str, Future[Any]]]:
    """Every case a selected test reads, started at once."""
    jobs = {f"{name}-{mode}": (run, mode) for name, run in CASES.items() for mode in MODES}
    jobs.update(ONCE)
    wanted = {
        _case_of(item) for item in request.session.items if getattr(item, "module", None) is request.module
    }
    with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
        yield {
            key: pool.submit(run, workdir(key.replace("_", "-")), fixture_tree, how)
            for key, (run, how) in jobs.items()
            if key in wanted
        }


@pytest.fixture
def hostile(request: pytest.FixtureRequest, outcomes: dict[str, Future[Any]]) -> Any:
    """The outcome of the case this test reads (waiting for it)."""
    return outcomes[_case_of(request.node)].result()


@pytest.mark.case("leftovers")
# item 1 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_a_process_left_running_is_killed_and_fails_its_scripts_id(hostile: Any, mode: str) -> None:
    case: Leftovers = hostile
    graded = case.graded
    assert graded.not_passed == {"Q3.3", "Q7.1"} and not graded.errors, graded.explain()
    assert "살아 있었습니다" in graded.outputs["Q3.3"] and "consume.py" in graded.outputs["Q3.3"]
    assert case.sleep in graded.outputs["Q7.1"], graded.outputs["Q7.1"]
    assert not case.daemon_alive, "a daemon outlived the grader"
    # On the host a file every user may write is the daemon's to write too (it runs as an
    # unprivileged user); in a box nothing outside is in sight.
    assert not case.wrote_outside or mode == "none"
    assert not processes_mentioning(case.sleep) and not processes_mentioning(str(case.root))
    assert graded.lab_root_unchanged


# item 2 ------------------------------------------------------------------------------------------
@pytest.mark.case("two_graders")
def test_a_second_grader_on_the_same_lab_root_stops_at_once(hostile: Any) -> None:
    case: TwoGraders = hostile
    second = case.second
    assert second.returncode == EXIT_BUSY, second.stdout[-2000:]
    assert (second.stdout + second.stderr).count("다른 채점기가 이미") == 1, second.stdout[-2000:]
    assert (
        case.second_results["tests"] == [] and "다른 채점기가" in case.second_results["extra_data"]["refused"]
    )
    assert case.second_results["extra_data"]["gradable"] is False
    assert not case.second_state_exists  # it touched nothing
    assert case.first_still_grading  # it stopped at once: it did not wait for the first
    assert not case.first.not_passed and case.first.lab_root_unchanged, case.first.explain()


@pytest.mark.case("links")
# item 3 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_links_stay_links_and_are_never_written_through(hostile: Any, mode: str) -> None:
    case: Links = hostile
    assert case.q_is_link and case.db_is_link
    assert case.target_unchanged and case.outside_db_unchanged
    assert not case.graded.not_passed, case.graded.explain()


@pytest.mark.case("journal")
# item 4 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["deleted", "forged"])
def test_a_journal_the_grader_cannot_trust_is_refused_and_nothing_changes(hostile: Any, how: str) -> None:
    case: Journal = hostile
    graded = case.refused
    assert graded.returncode == EXIT_REFUSED, graded.log[-3000:]
    assert "기록에 없는" in graded.extra["refused"] or "작업 사본이 아닙니다" in graded.extra["refused"]
    assert case.unchanged and case.outside_intact
    assert case.leftovers_gone, "the killed run's scripts outlived the run that refused"


@pytest.mark.case("immutable")
# item 5 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_what_cannot_be_put_back_is_refused_before_anything_changes(hostile: Any, mode: str) -> None:
    case: Immutable = hostile
    graded = case.graded
    assert case.unchanged
    if mode == "namespace":  # nothing of the student's is touched: nothing to put back
        assert not graded.not_passed, graded.explain()
        return
    assert graded.returncode == EXIT_REFUSED, graded.log[-2000:]
    assert graded.extra["refused"] and "chattr" in graded.extra["refused"] and "/q" in graded.extra["refused"]
    assert graded.log.count("채점하지 않았습니다") >= 1 and not graded.statuses
    assert not case.state_left


@pytest.mark.case("locked_out")
@pytest.mark.parametrize("mode", MODES)
def test_a_restore_that_fails_is_loud_and_retried(hostile: Any, mode: str) -> None:
    case: LockedOut = hostile
    if mode == "namespace":  # the student's directories were never touched: nothing to put back
        assert not case.graded.extra["not_restored"] and not case.graded.not_passed, case.graded.explain()
    else:
        problems = case.graded.extra["not_restored"]
        assert problems and ".lab-grader-saved.q" in problems[0], case.graded.log[-3000:]
        assert case.graded.returncode != 0 and case.graded.extra["gradable"] is False
        assert "restored" in case.again.log, case.again.log[-3000:]
    assert case.restored


@pytest.mark.case("odd_tree")
# items 6, 7 (names), 9 -------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_an_odd_tree_is_graded_and_kept_as_it_is(hostile: Any, mode: str) -> None:
    case: OddTree = hostile
    graded = case.graded
    assert not graded.errors, graded.explain()
    assert "Q1.2" in graded.not_passed and "\\xff\\xfe-bad.json" in graded.outputs["Q1.2"], graded.explain()
    assert case.special_kept and case.inodes_kept and case.sparse_kept
    assert case.cwd_alive and case.handle_alive
    assert graded.lab_root_unchanged


@pytest.mark.case("interrupted")
# item 7 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_signals_during_teardown_cannot_skip_the_restore_or_the_results(hostile: Any, mode: str) -> None:
    case: Interrupted = hostile
    assert case.finishing >= case.held_signals  # every signal came during the teardown, and waited
    assert case.results is not None and len(case.results["tests"]) == len(QUEUE.requirements)
    assert case.restored and not case.left and not case.state_left
    assert case.returncode != 0


@pytest.mark.case("tampering")
# item 11 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_tampering_is_seen_and_set_right(hostile: Any, mode: str) -> None:
    case: Tampered = hostile
    graded = case.graded
    # Read-only in a box; on the host the scripts' identity owns none of it: every write
    # failed, nothing to see, in both modes.
    assert case.fixtures_right and graded.lab_root_unchanged
    assert case.code_right and graded.extra["gradable"] is True and not graded.extra["tampered"]
    assert not graded.not_passed, graded.explain()
