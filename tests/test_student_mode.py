"""Student mode: grading never loses or changes a student's files, leaves nothing behind,
and a run killed with SIGKILL is repaired by the next run before anything else."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.machinery.broker import student_node
from grader.machinery.snapshot import tree_digest
from grader.mq.catalogue import MQ
from solutions.walkthrough import walk_mq, walk_queue
from tests.conftest import SharedBroker
from tests.grading import REPO, grade
from tests.variants.variant import Variant

SLOW = Variant.named("queue", "_slow_but_correct")


def _processes_mentioning(text: str) -> list[str]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in args and str(os.getpid()) not in cmdline.parent.name:
            found.append(args)
    return found


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
    assert not _processes_mentioning(str(root))


def test_sigkilled_grader_is_repaired_by_the_next_run(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    base = workdir("killed")
    solution = SLOW.lay_out(base / "solution")
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
        str(fixture_tree.root),
        "--state-dir",
        str(state),
    ]
    grader = subprocess.Popen(
        argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    inbox = root / "q" / "inbox"
    deadline = time.monotonic() + 60
    while not any(inbox.iterdir()):  # a behaviour check has laid out its own inbox
        assert time.monotonic() < deadline and grader.poll() is None, "grader never got going"
        time.sleep(0.01)
    time.sleep(0.3)  # the slow consume.py is busy in the student's q now
    grader.send_signal(signal.SIGKILL)
    grader.wait()
    assert tree_digest(root) != before, "the kill did not interrupt a change in progress"
    assert list(state.rglob("snapshot.json")), "no snapshot journal survived the kill"

    graded = grade(root, fixture_tree.root, state, lab="queue")
    assert not graded.not_passed, graded.explain()
    assert "restored" in graded.log and "killed" in graded.log, graded.log[-2000:]
    assert tree_digest(root) == before
    assert not state.exists()
    assert not _processes_mentioning(str(root))


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
    assert "채점기 오류" in graded.outputs["M1.1"]


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
