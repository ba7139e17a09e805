"""Student mode: grading never loses or changes a student's files, leaves nothing behind,
and a run killed with SIGKILL is repaired by the next run before anything else."""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.config import EXIT_REFUSED
from grader.machinery import proctable
from grader.machinery.broker import student_node
from grader.machinery.inotify import Event, Watcher
from grader.machinery.snapshot import tree_digest
from grader.mq.catalogue import MQ
from solutions.walkthrough import walk_mq, walk_queue
from tests.conftest import SharedBroker
from tests.grading import (
    REPO,
    grade,
    hard_code_lab_root,
    kill_grader,
    processes_mentioning,
    still_running,
)
from tests.variants.variant import Variant
from tests.waiting import wait_until

pytestmark = pytest.mark.slow  # whole grader runs: not in ./dev.sh test --fast

SLOW = Variant.named("queue", "_slow_but_correct")


def test_lab_root_is_byte_identical_after_grading(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    root = workdir("student") / "root"
    walk_queue(root, fixture_tree.root)
    (root / "q" / "notes.txt").write_text("a student's own file\n")
    before = tree_digest(root)
    state = workdir("state") / "lab-grader"
    graded = grade(root, fixture_tree.root, state, lab="queue")
    assert not graded.not_passed, graded.explain()
    assert tree_digest(root) == before
    assert not state.exists(), f"left behind: {list(state.rglob('*'))}"
    assert not processes_mentioning(str(root))


@pytest.mark.parametrize("mode", ["none", "namespace"])
def test_a_lab_root_of_mode_0700_is_graded_in_either_mode(
    mode: str, fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """A pod's /root is 0700: in host mode the scripts' identity must be let through it (an
    ACL entry), while the run holds its lock on that same folder. Before, the ACL's own lock
    waited on the run's: the grade never ended, nor did the next one (red team 5)."""
    root = workdir(f"closed-{mode}") / "root"
    walk_queue(root, fixture_tree.root)
    root.chmod(0o700)
    before = tree_digest(root)
    times = root.stat().st_mtime_ns, (root / "q").stat().st_mtime_ns
    graded = grade(
        root,
        fixture_tree.root,
        workdir(f"closed-state-{mode}") / "s",
        lab="queue",
        args=("--sandbox", mode),
        timeout=300,
    )
    assert not graded.errors and not graded.not_passed, graded.explain()
    assert tree_digest(root) == before and stat.S_IMODE(root.stat().st_mode) == 0o700
    # host mode renames q/ aside and back inside the lab root: its times are put back too
    assert (root.stat().st_mtime_ns, (root / "q").stat().st_mtime_ns) == times


DAEMON_SLEEP = {"namespace": 423, "none": 427}


def _daemons(seconds: int) -> list[str]:
    return [p for p in processes_mentioning(f"sleep {seconds}") if p.startswith(f"sleep {seconds}")]


@pytest.mark.parametrize("mode", ["namespace", "none"])
def test_sigkilled_grader_is_repaired_by_the_next_run(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path], mode: str
) -> None:
    """The grader and all its helpers SIGKILLed in the middle of a consume.py run that has
    started a daemon (setsid). Namespace mode: the namespace dies with the grader and the
    student's q was never touched. Host mode: the daemon outlives it and q is the working copy;
    the keeper kills the daemon when its command pipe ends, or the next run does (by the
    identity it runs under), and puts q back."""
    base = workdir(f"killed-{mode}")
    solution = SLOW.lay_out(base / "solution")
    daemon = DAEMON_SLEEP[mode]
    # The daemon starts only under the first grader: its fixture tree carries a flag file.
    hostile = base / "hostile-fixtures"
    shutil.copytree(fixture_tree.root, hostile)
    (hostile / "hostile").touch()
    script = solution / "consume.py"
    start = (
        "    if os.path.exists(os.path.join(os.environ.get('LAB_FIXTURES', '/nowhere'), 'hostile')):\n"
        "        import subprocess\n"
        f"        subprocess.Popen(['setsid', 'sleep', '{daemon}'])\n"
    )
    script.write_text(script.read_text().replace("    sys.exit(main())", start + "    sys.exit(main())"))
    root = base / "root"
    walk_queue(root, fixture_tree.root, solution)
    before = tree_digest(root)
    state = base / "state"
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "grader",
        "-q",
        "-p",
        "no:cacheprovider",
        "--lab",
        "queue",
        "--lab-root",
        str(root),
        "--fixtures-dir",
        str(hostile),
        "--state-dir",
        str(state),
        "--sandbox",
        mode,
    ]
    grader = subprocess.Popen(
        argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    # A consume.py is busy on the grader's inbox once its daemon runs: kill the grader then.
    wait_until(lambda: bool(_daemons(daemon)) or grader.poll() is not None, "the daemon started")
    assert _daemons(daemon), "grader never got going"
    # Everything of the grader's but the daemon: once all of it has ended, nothing is left that
    # could still end the daemon (the namespace's first process, a keeper), and what is alive
    # stays alive until the next run; no guessed pause.
    helpers = [
        entry
        for pid in proctable.descendants(grader.pid)
        if (entry := proctable.info(pid)) is not None and not proctable.cmdline(pid).startswith("sleep ")
    ]
    kill_grader(grader.pid)
    grader.wait()
    wait_until(
        lambda: not any(still_running(helper) for helper in helpers), "the killed grader's helpers ended"
    )
    if mode == "namespace":
        assert not _daemons(daemon), "a daemon outlived the grader's namespace"
        assert tree_digest(root) == before, "the student's q was touched"
    else:
        assert tree_digest(root) != before and list(state.glob("*/workspaces.json"))
        # A script's keeper that outlives the grader kills the daemon itself; one that did not
        # get to leaves it to the next run, which finds it by its identity.
        survived = bool(_daemons(daemon))

    graded = grade(root, fixture_tree.root, state, lab="queue", args=("--sandbox", mode))
    assert not graded.not_passed, graded.explain()
    if mode == "none":
        assert "restored" in graded.log, graded.log[-2000:]
        assert "killed" in graded.log or not survived, graded.log[-2000:]
    assert tree_digest(root) == before
    assert not state.exists()
    assert not _daemons(daemon) and not processes_mentioning(str(root))


def test_scripts_root_shows_the_scripts_their_lab_root_where_they_expect_it(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """--scripts-root: a copy of a submission graded where it is unpacked, its scripts seeing
    it at the path they hard-code (as /root/q); the machine's own directory there untouched."""
    base = workdir("scripts-root")
    root = base / "submission" / "root"
    walk_queue(root, fixture_tree.root)
    view = base / "machine-root"  # stands for the machine's /root
    view.mkdir()
    (view / "machine.txt").write_text("the machine's own\n")
    hard_code_lab_root(root / "q", view)
    state = workdir("scripts-root-state") / "s"
    graded = grade(root, fixture_tree.root, state, lab="queue", args=("--scripts-root", str(view)))
    assert not graded.not_passed and graded.lab_root_unchanged, graded.explain()
    assert [p.name for p in view.iterdir()] == ["machine.txt"]
    refused = grade(
        root, fixture_tree.root, state, lab="queue", args=("--scripts-root", str(view), "--sandbox", "none")
    )
    assert refused.returncode == EXIT_REFUSED and "--scripts-root" in refused.extra["refused"]


def test_a_grader_reached_through_links_grades_as_any(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """The checkout, the virtualenv and the state dir each reached through a symbolic link (a
    venv linked in from elsewhere, a checkout under a linked home): the namespace mounts them
    where the links lead, and the reference passes every id."""
    base = workdir("linked")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    (base / "state-real").mkdir()
    for link, target in (("checkout", REPO), ("venv", Path(sys.prefix)), ("state", base / "state-real")):
        (base / link).symlink_to(target, target_is_directory=True)
    python = str(base / "venv" / "bin" / Path(sys.executable).name)
    graded = grade(
        root, fixture_tree.root, base / "state" / "s", lab="queue", repo=base / "checkout", python=python
    )
    assert not graded.not_passed and graded.returncode == 0, graded.explain()


@pytest.mark.parametrize("mode", ["namespace", "none"])
def test_a_big_queue_folder_costs_the_grade_next_to_nothing(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path], mode: str
) -> None:
    """20,000 extra files in q/done: never copied nor moved (inotify on q/done sees none of
    them opened, moved or deleted while the grader runs), their inodes kept. What that saves in
    time is a benchmark (bench/big_tree.py, 100,000 files: at most 3x the plain time), not a
    test: a ratio of two wall times here followed the machine's load, not the grader."""
    base = workdir(f"big-{mode}")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    done = root / "q" / "done"
    for i in range(20_000):
        (done / f"extra-{i:05d}.json").write_bytes(b"{}\n")
    inodes = {p.name: p.stat().st_ino for p in done.iterdir()}
    seen: list[Event] = []
    overflow: list[bool] = []

    @contextmanager
    def watching_done() -> Iterator[None]:  # the grader's run only (grade() digests the tree)
        watcher = Watcher({"done": done})
        try:
            yield
        finally:
            seen.extend(watcher.stop())
            overflow.append(watcher.overflow)

    graded = grade(
        root, fixture_tree.root, base / "state", lab="queue", args=("--sandbox", mode), during=watching_done
    )
    assert graded.statuses and not graded.errors, graded.explain()
    assert not seen and overflow == [False], f"{len(seen)} events in q/done, e.g. {seen[:5]}"
    assert {p.name: p.stat().st_ino for p in done.iterdir()} == inodes
    assert graded.lab_root_unchanged


def test_harness_fault_is_an_error_never_a_pass(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """No broker to be had: every mq id is an ERROR, the exit is non-zero, results written."""
    root = workdir("nobroker") / "root"
    root.mkdir()
    graded = grade(
        root,
        fixture_tree.root,
        workdir("nobroker-state") / "s",
        lab="mq",
        args=("--broker", "url", "--amqp-url", "amqp://guest:guest@127.0.0.1:1/%2F"),
    )
    assert len(graded.statuses) == len(MQ.requirements)
    assert set(graded.statuses.values()) == {"error"}, graded.explain()
    assert graded.returncode != 0
    first = graded.outputs["M1.1"]
    assert "채점기 오류" in first and "\n  at grader/machinery/broker.py:" in first, first  # and where


def test_student_broker_down_fails_m1_3_and_grades_the_rest_privately(
    fixture_tree: FixtureTree, shared_broker: SharedBroker, workdir: Callable[[str], Path]
) -> None:
    """--lab-root with no rabbit@localhost on 5672: M1.3 fails with the mq-up.sh hint, every
    other step is graded on a private node (the `auto` backend), the files stay as they were."""
    if student_node() is not None:
        pytest.skip("a broker answers on 5672/15672 here: the student's node is not down")
    root = workdir("mq-student") / "root"
    walk_mq(root, shared_broker.status())  # status.txt of a node started by mq-up.sh
    before = tree_digest(root)
    state = Path(tempfile.mkdtemp(prefix="lab-grader-state-", dir="/var/tmp"))  # rabbitmq reads it
    state.chmod(0o755)
    try:
        graded = grade(root, fixture_tree.root, state / "s", lab="mq")
    finally:
        shutil.rmtree(state, ignore_errors=True)
    assert graded.not_passed == {"M1.3"}, graded.explain()
    assert "mq-up.sh" in graded.outputs["M1.3"]
    assert graded.lab_root_unchanged and tree_digest(root) == before
