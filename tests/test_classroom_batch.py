"""Batch grading of queue submissions (no broker needed): verdicts equal solo verdicts, re-runs
regrade only what changed, a refused or hanging submission stops nobody else, and nothing is
left behind."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import re
import signal
import stat
import subprocess
import sys
import tarfile
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.classroom import batch as batch_module
from grader.classroom import runjob as runjob_module
from grader.classroom import submission as submission_module
from grader.classroom.batch import (
    DEFAULT_TIMEOUT,
    FAULT,
    GRADED,
    REFUSED,
    BatchOptions,
    Graded,
    Submission,
    collect,
    job_folder,
    run_batch,
)
from grader.classroom.results import read_results
from grader.classroom.runjob import TERM_GRACE, BrokerAccess, GraderRun
from grader.classroom.version import REPO
from grader.config import AMQP_URL_VARIABLE, MANAGEMENT_URL_VARIABLE
from grader.machinery import proctable
from grader.queue.catalogue import QUEUE
from solutions.walkthrough import walk_queue
from tests.classgen import Student, hand_in, split
from tests.classroom import processes_under, root_state
from tests.grading import grade, hard_code_lab_root
from tests.hold import Hold
from tests.waiting import SAFETY, wait_until

CORRECT, WRONG = split("queue")
MQ_CORRECT, _ = split("mq")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]
CLASS_FOLDERS = Path("/var/tmp/lab-grader-class-*")  # where a batch starts its class node
LABS = ("queue",)
STUDENTS = [
    Student("kim", CORRECT[0], MQ_CORRECT[0]),
    Student("lee", WRONG[0], MQ_CORRECT[0]),
    Student("park", CORRECT[1], MQ_CORRECT[0]),
    Student("choi", WRONG[1], MQ_CORRECT[0]),
]


@pytest.fixture(scope="module")
def handed_in(fixture_tree: FixtureTree, workdir: Callable[[str], Path]) -> tuple[Path, dict[str, Path]]:
    base = workdir("class")
    roots = hand_in(STUDENTS, base, fixture_tree.root, None, LABS)
    hostile = base / "submissions" / "evil.tar.gz"
    with tarfile.open(hostile, "w:gz") as tar:
        info = tarfile.TarInfo("q/../../escaped")
        tar.addfile(info, io.BytesIO(b""))
    return base, roots


def _options(
    out: Path, fixtures: Path, *, force: bool = False, timeout: float = DEFAULT_TIMEOUT
) -> BatchOptions:
    return BatchOptions(
        out=out,
        labs=LABS,
        jobs=2,
        fixtures_dir=fixtures,
        force=force,
        timeout=timeout,
        progress=lambda line: None,
    )


def _statuses(g: Graded) -> dict[str, str]:
    return {rid: t.outcome for rid, t in g.results.tests.items()}


@pytest.fixture(scope="module")
def first_run(
    handed_in: tuple[Path, dict[str, Path]], fixture_tree: FixtureTree
) -> tuple[Path, list[Graded], tuple[object, ...]]:
    base, _ = handed_in
    before = root_state()
    submissions = sorted((base / "submissions").iterdir())
    graded = run_batch(submissions, _options(base / "out", fixture_tree.root))
    return base / "out", graded, before


def test_batch_verdicts_equal_solo_verdicts(
    first_run: tuple[Path, list[Graded], tuple[object, ...]],
    handed_in: tuple[Path, dict[str, Path]],
    fixture_tree: FixtureTree,
    workdir: Callable[[str], Path],
) -> None:
    out, graded, _ = first_run
    by_name = {g.name: g for g in graded}
    for student in STUDENTS:
        solo = grade(handed_in[1][student.name], fixture_tree.root, workdir("solo") / "state", lab="queue")
        assert by_name[student.name].status == GRADED
        assert _statuses(by_name[student.name]) == solo.statuses, (
            f"{student.name} ({student.queue.name})\nsolo: {solo.explain()}\nbatch: "
            + "\n".join(
                f"{rid}: {t.text}"
                for rid, t in by_name[student.name].results.tests.items()
                if t.outcome != "passed"
            )
        )
        assert all(solo.statuses[rid] == "failed" for rid in student.queue.fails)
        # What each student gets: results.json in Gradescope's format and the scoreboard.
        results = read_results(out / student.name / "results.json")
        assert results.gradable and set(results.tests) == set(solo.statuses)
        assert "합계:" in (out / student.name / "scoreboard.txt").read_text()


def test_one_bad_submission_stops_nobody(first_run: tuple[Path, list[Graded], tuple[object, ...]]) -> None:
    out, graded, _ = first_run
    evil = next(g for g in graded if g.name == "evil")
    assert evil.status == REFUSED and "../" in evil.note
    assert {g.status for g in graded if g.name != "evil"} == {GRADED}
    assert not (out.parent / "escaped").exists() and not (out / "escaped").exists()


def test_grades_csv_and_report(first_run: tuple[Path, list[Graded], tuple[object, ...]]) -> None:
    out, graded, _ = first_run
    rows = {r["student"]: r for r in csv.DictReader((out / "grades.csv").open())}
    assert set(rows) == {g.name for g in graded}
    lee = next(g for g in graded if g.name == "lee")
    assert rows["lee"]["score"] == f"{lee.results.score:g}"
    assert rows["lee"][min(WRONG[0].fails)] == "0" and rows["kim"]["Q1.1"] == "1"
    assert rows["evil"]["status"] == REFUSED and rows["evil"]["score"] == "0"
    page = (out / "report.html").read_text()
    assert "학급 채점 보고서" in page and "evil" in page.split('id="refused"')[1]
    # Later students' host-mode scripts pass through OUT: nothing of a classmate is theirs to read,
    # not even the names (red team 21 listed them when OUT was 0755).
    assert stat.S_IMODE(out.stat().st_mode) == 0o711
    assert all(stat.S_IMODE((out / g.name).stat().st_mode) == 0o700 for g in graded)
    assert {stat.S_IMODE((out / f).stat().st_mode) for f in ("grades.csv", "report.html")} == {0o600}


def test_nothing_left_behind(
    first_run: tuple[Path, list[Graded], tuple[object, ...]], handed_in: tuple[Path, dict[str, Path]]
) -> None:
    out, _, before = first_run
    assert not processes_under(out, handed_in[0])
    assert not (out / ".work").exists()
    assert root_state() == before


def test_rerun_regrades_only_what_changed(
    first_run: tuple[Path, list[Graded], tuple[object, ...]],
    handed_in: tuple[Path, dict[str, Path]],
    fixture_tree: FixtureTree,
) -> None:
    out, _, _ = first_run
    base, roots = handed_in
    submissions = sorted((base / "submissions").iterdir())
    record = (out / "kim" / "job.json").read_bytes()
    again = run_batch(submissions, _options(out, fixture_tree.root))
    assert all(g.reused for g in again)
    assert (out / "kim" / "job.json").read_bytes() == record
    with (roots["lee"] / "q" / "dup.txt").open("a") as dup:  # lee hands in a folder: edit it
        dup.write("one more line\n")
    changed = run_batch(submissions, _options(out, fixture_tree.root))
    assert [g.name for g in changed if not g.reused] == ["lee"]


def test_force_regrades_everything(
    first_run: tuple[Path, list[Graded], tuple[object, ...]],
    handed_in: tuple[Path, dict[str, Path]],
    fixture_tree: FixtureTree,
) -> None:
    out, _, _ = first_run
    submissions = sorted((handed_in[0] / "submissions").iterdir())
    forced = run_batch(submissions, _options(out, fixture_tree.root, force=True))
    assert not any(g.reused for g in forced)


def test_a_hanging_grade_is_stopped_and_is_not_a_score(
    handed_in: tuple[Path, dict[str, Path]],
    fixture_tree: FixtureTree,
    workdir: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A grade that never ends (tests/hold.py: its first check waits forever) meets its limit
    whatever the machine's speed; a limit alone, on a grade that ends, raced the machine."""
    out = workdir("hang") / "out"
    kim = handed_in[0] / "submissions" / "kim.tar.gz"
    with monkeypatch.context() as hanging:
        for name, value in Hold(workdir("hang-hold"), ("check",)).env().items():
            hanging.setenv(name, value)  # every grader the batch starts inherits it
        graded = run_batch([kim], _options(out, fixture_tree.root, timeout=1.5))
    assert graded[0].status == FAULT and "limit" in graded[0].note
    results = json.loads((out / "kim" / "results.json").read_text())
    assert results["extra_data"]["gradable"] is False
    assert {t["extra_data"]["outcome"] for t in results["tests"]} == {"error"}
    row = next(csv.DictReader((out / "grades.csv").open()))
    assert row["status"] == FAULT and row["score"] == ""
    assert json.loads((out / "kim" / "job.json").read_text())["score"] is None  # no grade either
    assert not processes_under(out)
    # A grader fault is never reused: the next run grades it again.
    again = run_batch([kim], _options(out, fixture_tree.root))
    assert again[0].status == GRADED and not again[0].reused


def _batch(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python -m grader batch ARGS`` from the checkout, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "grader", "batch", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_scripts_root_needs_the_sandbox(tmp_path: Path) -> None:
    run = _batch(
        str(tmp_path), "--out", str(tmp_path / "out"), "--scripts-root", "/root", "--sandbox", "none"
    )
    assert run.returncode != 0 and "sandbox" in run.stderr and "LAB_ROOT" in run.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("sandbox", ["none", "auto"])
def test_without_namespaces_mq_grades_run_one_at_a_time(tmp_path: Path, sandbox: str) -> None:
    """Host mode shares the loopback: a script of one grade could call the claim partner of a
    classmate's grade running beside it. There batch grades mq one submission at a time, says
    so, and its report says 1; with namespaces each grade's scripts have a network of their own."""
    empty, out = tmp_path / "subs" / "empty", tmp_path / "out"
    empty.mkdir(parents=True)
    run = _batch(str(empty), "--out", str(out), "--lab", "mq", "--jobs", "3", "--sandbox", sandbox)
    assert run.returncode == 0, run.stderr[-3000:]
    one = sandbox == "none"
    assert ("--jobs 3 -> 1" in run.stderr) == one, run.stderr[-3000:]
    report = (out / "report.html").read_text()
    assert ("동시 1개" if one else "동시 3개") in report


def test_scripts_that_hard_code_root_see_their_copy_there(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """By default (namespaces here) each copy is shown to its scripts at /root: a consume.py and
    replay.sh that ignore LAB_ROOT are graded right, and the machine's own /root is untouched."""
    base = workdir("hard-coded")
    folder = base / "submissions" / "jung"
    walk_queue(folder, fixture_tree.root)
    hard_code_lab_root(folder / "q", Path("/root"))
    before = root_state()
    run = _batch(
        str(folder), "--out", str(base / "out"), "--lab", "queue", "--fixtures-dir", str(fixture_tree.root)
    )
    assert run.returncode == 0, run.stderr[-3000:]
    results = read_results(base / "out" / "jung" / "results.json")
    outcomes = {rid: t.outcome for rid, t in results.tests.items()}
    assert outcomes.keys() == {r.id for r in QUEUE.requirements}, outcomes
    assert set(outcomes.values()) == {"passed"}, outcomes
    assert root_state() == before
    assert not processes_under(base)


def _batch_command(submissions: Path, out: Path, lab: str, jobs: int, tree: FixtureTree) -> list[str]:
    """``python -m grader batch`` of every submission in ``submissions``."""
    handed = [str(p) for p in sorted(submissions.iterdir())]
    options = ["--out", str(out), "--lab", lab, "--jobs", str(jobs), "--fixtures-dir", str(tree.root)]
    return [sys.executable, "-m", "grader", "batch", *handed, *options]


def test_an_interrupted_batch_leaves_nothing_running(
    handed_in: tuple[Path, dict[str, Path]], fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """Ctrl-C while graders are grading: they hold at their first check (tests/hold.py) and
    would never end by themselves, so the signal meets them there on any machine (never a
    batch that has already finished), and the batch ends only if it stops them and starts no
    other grader run (it once retried each stopped run as a fault). Two more Ctrl-C right
    after change nothing: exit 130, no traceback (red team 11: nested KeyboardInterrupts)."""
    out = workdir("interrupted") / "out"
    hold = Hold(workdir("interrupted-hold"), ("check",))
    batch = subprocess.Popen(
        _batch_command(handed_in[0] / "submissions", out, "queue", 2, fixture_tree),
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ | hold.env(),
    )
    try:
        hold.wait("check", alive=lambda: batch.poll() is None)  # a grader is in the middle of a grade
    finally:
        batch.send_signal(signal.SIGINT)  # (whatever happened: no batch is left holding graders)
    for _ in range(2):  # an impatient operator: later ones cannot cut the cleanup short
        with contextlib.suppress(ProcessLookupError):
            batch.send_signal(signal.SIGINT)
    _, err = batch.communicate(timeout=120)
    assert batch.returncode == 130 and "Traceback" not in err, err
    assert not processes_under(out), err
    assert not (out / ".work").exists()


def test_a_batch_killed_outright_leaves_neither_graders_nor_its_class_node(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """SIGKILL (no handler runs) while a grader is in the middle of an mq grade (held at its
    first check): the batch's watchdog SIGTERMs the grader, which tears down and writes its
    results (SIGKILL after TERM_GRACE, and what it left undone from its state dir), then stops
    the RabbitMQ node the batch started for the class and removes its folder (red team 26
    found both running for good)."""
    base = workdir("killed")
    hand_in([STUDENTS[0]], base, fixture_tree.root, None, ("mq",))
    out = base / "out"
    hold = Hold(workdir("killed-hold"), ("check",))
    before = set(CLASS_FOLDERS.parent.glob(CLASS_FOLDERS.name))
    batch = subprocess.Popen(
        _batch_command(base / "submissions", out, "mq", 1, fixture_tree),
        cwd=REPO,
        stderr=subprocess.DEVNULL,
        env=os.environ | hold.env(),
    )
    try:
        hold.wait("check", alive=lambda: batch.poll() is None)
    finally:
        batch.kill()
        batch.wait()
    (node_folder,) = set(CLASS_FOLDERS.parent.glob(CLASS_FOLDERS.name)) - before
    node_env = str(node_folder / "node" / "node.pid")
    wait_until(
        lambda: not processes_under(out) and not proctable.carrying("RABBITMQ_PID_FILE", node_env),
        "the held grader and the class node ended",
        timeout=TERM_GRACE + SAFETY,
    )
    wait_until(lambda: not node_folder.exists(), "the class node's folder removed")
    mounts = Path("/proc/self/mountinfo").read_text()
    assert str(out) not in mounts, "the grader's scratch and working copies are unmounted"
    # It ended on the SIGTERM, within the grace: its scenes' waits end with their consumers,
    # which its teardown killed (one waited 30 s for a request that could no longer come).
    results = read_results(out / STUDENTS[0].name / "results.json")
    assert not results.gradable


_IGNORES_TERM_UNTIL = """
import os, signal, sys, time
from pathlib import Path
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("ready", flush=True)
while not Path(sys.argv[1]).exists():
    time.sleep(0.01)
"""
_TELLS_IF_ALIVE_ON_TERM = """
import os, signal, sys, time
from pathlib import Path

def on_term(signum, frame):
    try:
        os.kill(int(sys.argv[2]), 0)
        seen = "alive"
    except ProcessLookupError:
        seen = "gone"
    Path(sys.argv[1]).write_text(seen)
    sys.exit(0)

signal.signal(signal.SIGTERM, on_term)
print("ready", flush=True)
while True:
    time.sleep(1)
"""


def test_stopping_grader_runs_gives_them_one_grace_together(tmp_path: Path) -> None:
    """An interrupted batch stops every grader run at once: the second run is told to stop
    while the first, which has not stopped yet, is still there (stopped one after another,
    each with its own grace, N runs took N graces). The first ends only once the second was
    told, so the order is the only thing observed."""
    told = tmp_path / "told"

    def started(code: str, *args: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-c", code, *args], start_new_session=True, stdout=subprocess.PIPE
        )
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        return proc

    first = started(_IGNORES_TERM_UNTIL, str(told))
    second = started(_TELLS_IF_ALIVE_ON_TERM, str(told), str(first.pid))
    try:
        runjob_module._stop([first, second])
        assert told.read_text() == "alive"
        assert first.returncode == 0 and second.returncode == 0
    finally:
        for proc in (first, second):
            proc.kill()
            proc.wait()


def test_an_unexpected_failure_is_that_students_alone(
    handed_in: tuple[Path, dict[str, Path]],
    fixture_tree: FixtureTree,
    workdir: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = submission_module.lay_out

    def lay_out(submission: Path, dest: Path) -> submission_module.Manifest:
        if submission.name == "lee":
            raise OSError(28, "No space left on device")
        return real(submission, dest)

    monkeypatch.setattr(batch_module, "lay_out", lay_out)
    subs = handed_in[0] / "submissions"
    graded = run_batch(
        [subs / "kim.tar.gz", subs / "lee"], _options(workdir("unexpected") / "out", fixture_tree.root)
    )
    assert [(g.name, g.status) for g in graded] == [("kim", GRADED), ("lee", FAULT)]
    assert "No space left" in graded[1].note


@pytest.mark.parametrize(
    "name",
    [
        "grades.csv",
        "report.html",
        "shard.json",
        "GRADES.csv",
        "Report.HTML",
        ".work",
        "kim",
        "=cmd|'calc'!A0",
        "@sum",
        "-x",
    ],
)
def test_names_that_would_take_the_batchs_own_files_are_refused_before_grading(
    name: str, tmp_path: Path
) -> None:
    """A student's folder is OUT/<name>: a name the batch writes a file of its own under (or
    two submissions of one name) would crash the batch at its end, after every grade; a name
    that starts as a formula would run in the spreadsheet grades.csv is opened in."""
    paths = [tmp_path / f"{name}.tar.gz", tmp_path / "kim"]
    paths[0].write_bytes(b"")
    paths[1].mkdir()
    with pytest.raises(SystemExit, match=f"batch: {re.escape(name)}: "):
        collect(paths)


@pytest.mark.parametrize(
    ("names", "refused"),
    [
        ([os.fsdecode(b"a\xffb"), "kim"], "is not UTF-8"),  # crashed the batch at grades.csv
        (["kim\u200b", "lee"], "invisible"),
        (["kim\u202eevil", "lee"], "invisible"),
        (["mona\u2028zed,graded,28,28", "lee"], "invisible"),  # a line to str.splitlines (red team 24)
        (["mona\u2029zed", "lee"], "invisible"),
        ([unicodedata.normalize("NFC", "김민수"), unicodedata.normalize("NFD", "김민수")], "looks the same"),
        (["Kim", "kim"], "looks the same"),
        (["kim", "\u043aim"], "looks the same"),  # Cyrillic к (red team 6)
        (["park", "\u0440\u0430rk"], "looks the same"),  # Cyrillic р and а
        (["lee", "\uff4c\uff45\uff45"], "looks the same"),  # full-width letters
        (["kato", "\u03baato"], "looks the same"),  # Greek κ
    ],
)
def test_names_that_cannot_be_told_apart_or_written_are_refused(
    names: list[str], refused: str, tmp_path: Path
) -> None:
    """grades.csv and report.html are read by people: a name that is not text, holds what
    cannot be seen, or looks like another student's is refused before anything is graded."""
    paths = [tmp_path / n for n in names]
    for path in paths:
        path.mkdir()
    with pytest.raises(SystemExit, match=refused):
        collect(paths)


def test_names_that_only_share_letters_are_both_taken(tmp_path: Path) -> None:
    """Look-alikes are letters drawn the same, not similar names: ali and all, kim and kin,
    a Cyrillic name and a Latin one that differ, are all taken."""
    names = ["ali", "all", "kim", "kin", "\u0438\u0432\u0430\u043d", "ivan", "김민수"]
    for name in names:
        (tmp_path / name).mkdir()
    assert len(collect([tmp_path / n for n in names])) == len(names)


def test_a_name_alone_in_any_unicode_form_is_taken(tmp_path: Path) -> None:
    """A Korean name as macOS writes it (decomposed) is a name like any other."""
    (tmp_path / unicodedata.normalize("NFD", "김민수")).mkdir()
    assert len(collect([tmp_path / unicodedata.normalize("NFD", "김민수")])) == 1


def test_a_folder_submission_is_fingerprinted_without_reading_what_it_may_not_hand_in(
    tmp_path: Path,
) -> None:
    """A sparse file of 1 TiB with 100 more names (red team 7: 8 GiB and 200 names stalled a
    batch for as long as it liked, read in full once a name before the refusal): its
    fingerprint reads none of it, and still changes when the file does."""
    q = tmp_path / "sparse" / "q"
    q.mkdir(parents=True)
    with (q / "notes.bin").open("wb") as f:
        f.truncate(1 << 40)
    for i in range(100):
        os.link(q / "notes.bin", q / f"h{i}.bin")
    submission = Submission("sparse", tmp_path / "sparse")
    first = submission.digest()
    with (q / "notes.bin").open("r+b") as f:
        f.write(b"x")
    os.utime(q / "notes.bin", ns=(1, 2))
    assert submission.digest() != first


def test_a_students_job_folder_is_named_by_the_batch() -> None:
    """The student's name never reaches the paths their scripts are given."""
    for name in ("kim", "x\ny", "a b", os.fsdecode(b"a\xffb")):
        assert re.fullmatch(r"job-[0-9a-f]{16}", job_folder(name))
    assert job_folder("kim") != job_folder("lee")


def test_no_password_is_put_on_a_command_line(tmp_path: Path) -> None:
    """Any user of the machine may read a process's command line (a host-mode script reading
    /proc/PID/cmdline of the grader run beside it): the class broker's administrator URL goes
    to each grader run through its environment, which only its own user may read."""
    url = "amqp://lab-grader-admin:s3cret@127.0.0.1:5700/%2F"
    access = BrokerAccess(url, "http://127.0.0.1:15700", "rabbit@x", (("E", "1"),))
    job = GraderRun(tmp_path, tmp_path, tmp_path, tmp_path / "r.json", tmp_path / "log", ("mq",), access, 60)
    assert not any("s3cret" in arg or "15700" in arg for arg in job.argv()), job.argv()
    assert access.environment() == {
        "E": "1",
        AMQP_URL_VARIABLE: access.amqp_url,
        MANAGEMENT_URL_VARIABLE: access.management_url,
    }
