"""The Gradescope bundle: its two scripts run locally against a temporary tree laid out like
/autograder (setup.sh installs the grader into a virtualenv, run_autograder grades a packed
submission in student mode), and a grader fault never becomes a score."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.classroom.gradescope import build_bundle, unpack_bundle
from grader.classroom.runjob import TERM_GRACE
from grader.classroom.single import GRADER_FAULT, SingleOptions, grade
from grader.classroom.submission import pack
from grader.labs import CATALOGUE
from solutions.walkthrough import walk_mq, walk_queue
from tests.classroom import processes_under, root_state
from tests.conftest import SharedBroker
from tests.grading import REPO
from tests.hold import Hold
from tests.waiting import SAFETY, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def test_bundle_has_the_two_scripts_at_its_root_and_the_grader(tmp_path: Path) -> None:
    names = build_bundle(tmp_path / "autograder.zip")
    with zipfile.ZipFile(tmp_path / "autograder.zip") as zf:
        modes = {i.filename: (i.external_attr >> 16) & 0o777 for i in zf.infolist()}
    assert modes["setup.sh"] & 0o111 and modes["run_autograder"] & 0o111
    assert {
        "conftest.py",
        "pyproject.toml",
        "grader/plugin.py",
        "fixtures/files/mq-up.sh",
    } <= set(names)
    assert not [n for n in names if "__pycache__" in n or n.startswith(("tests/", "solutions/"))]
    build_bundle(tmp_path / "again.zip")  # the same source gives the same bytes
    assert (tmp_path / "again.zip").read_bytes() == (tmp_path / "autograder.zip").read_bytes()


@pytest.fixture(scope="module")
def autograder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """/autograder after Gradescope built the image: source unzipped, setup.sh run."""
    base = tmp_path_factory.mktemp("gradescope")
    build_bundle(base / "autograder.zip")
    ag = base / "autograder"
    unpack_bundle(base / "autograder.zip", ag / "source")
    env = os.environ | {"AUTOGRADER_ROOT": str(ag)}
    env.pop("VIRTUAL_ENV", None)
    setup = subprocess.run(
        ["bash", str(ag / "source" / "setup.sh")],
        cwd=ag,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert setup.returncode == 0, setup.stdout[-3000:] + setup.stderr[-3000:]
    assert "eai-lab-grader" in setup.stdout  # the installed grader answers --version
    shutil.copy2(ag / "source" / "run_autograder", ag / "run_autograder")  # as Gradescope does
    return ag


def _run_autograder(ag: Path, lab_root: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"AUTOGRADER_ROOT": str(ag), "GRADER_LAB_ROOT": str(lab_root)}
    return subprocess.run(
        [str(ag / "run_autograder")],
        cwd=ag,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_run_autograder_grades_a_packed_submission(
    autograder: Path, fixture_tree: FixtureTree, shared_broker: SharedBroker, tmp_path: Path
) -> None:
    student = tmp_path / "pod"
    walk_queue(student, fixture_tree.root)
    walk_mq(student, shared_broker.status())
    (autograder / "submission").mkdir()
    pack(student, autograder / "submission" / "kim.tar.gz")
    before = root_state()
    run = _run_autograder(autograder, tmp_path / "container-root")
    assert not processes_under(autograder, tmp_path)
    assert root_state() == before
    results = json.loads((autograder / "results" / "results.json").read_text())
    log = run.stdout[-4000:] + run.stderr[-2000:]
    assert run.returncode == 0, log
    assert [t["number"] for t in results["tests"]] == list(CATALOGUE)
    assert all(t["status"] == "passed" and t["score"] == t["max_score"] for t in results["tests"])
    assert results["score"] == len(CATALOGUE)
    assert (
        results["output_format"] == "md"
        and f"합계: {len(CATALOGUE)}/{len(CATALOGUE)} 통과" in results["output"]
    )
    assert results["extra_data"]["gradable"] is True
    first = results["tests"][0]
    assert first["tags"] == ["queue", "queue-step1"] and first["visibility"] == "visible"
    assert first["output_format"] == "md"
    # The submission was laid out where its scripts expect it (/root in the container).
    assert (tmp_path / "container-root" / "q" / "consume.py").is_file()
    assert (tmp_path / "container-root" / "eaimw" / "mq" / "status.txt").is_file()


def test_files_uploaded_as_folders_are_graded_too(
    autograder: Path, fixture_tree: FixtureTree, tmp_path: Path
) -> None:
    shutil.rmtree(autograder / "submission", ignore_errors=True)
    walk_queue(autograder / "submission", fixture_tree.root)  # q/ only: mq is not handed in
    run = _run_autograder(autograder, tmp_path / "container-root")
    results = json.loads((autograder / "results" / "results.json").read_text())
    outcomes = {t["number"]: t["extra_data"]["outcome"] for t in results["tests"]}
    assert run.returncode == 1, run.stdout[-3000:]
    assert {o for r, o in outcomes.items() if r.startswith("Q")} == {"passed"}
    # M1.3 looks at the live node, here the autograder's own: see the README's away-from-pod note.
    assert {o for r, o in outcomes.items() if r.startswith("M") and r != "M1.3"} == {"failed"}
    assert results["extra_data"]["gradable"] is True


def test_a_grader_fault_is_withheld_not_scored(
    fixture_tree: FixtureTree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault: a grade that never ends (tests/hold.py: its first check waits forever), so
    its limit is met whatever the machine's speed."""
    walk_queue(tmp_path / "upload", fixture_tree.root)
    results = tmp_path / "results" / "results.json"
    results.parent.mkdir()
    (tmp_path / "hold").mkdir()
    for name, value in Hold(tmp_path / "hold", ("check",)).env().items():
        monkeypatch.setenv(name, value)  # the grader runs grade starts inherit it
    code = grade(
        tmp_path / "upload",
        SingleOptions(
            lab_root=tmp_path / "root",
            results_json=results,
            labs=("queue",),
            fixtures_dir=fixture_tree.root,
            withhold_faults=True,
            timeout=1.0,
        ),
    )
    assert code == GRADER_FAULT
    assert not results.exists()  # Gradescope then shows a failed run, never 0 points
    kept = json.loads((results.parent / "results.grader-error.json").read_text())
    assert kept["extra_data"]["gradable"] is False and kept["extra_data"]["grader_errors"]
    assert stat.S_ISDIR((tmp_path / "root" / "q").stat().st_mode)


def test_a_grade_killed_outright_leaves_no_folder_of_its_own(
    fixture_tree: FixtureTree, tmp_path: Path
) -> None:
    """`python -m grader grade` SIGKILLed while its grader holds at its first check: no finally
    runs, and its watchdog ends the grader, undoes the grader's run and removes the grade's own
    folder in /var/tmp (fixture tree, state, log), which was left behind (red team 27's run)."""
    walk_queue(tmp_path / "upload", fixture_tree.root)
    hold = Hold(tmp_path / "hold", ("check",))
    hold.folder.mkdir()
    # fmt: off
    argv = [
        sys.executable, "-m", "grader", "grade", str(tmp_path / "upload"), "--lab", "queue",
        "--lab-root", str(tmp_path / "root"), "--results-json", str(tmp_path / "results.json"),
    ]
    # fmt: on
    graded = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL, env=os.environ | hold.env())
    try:
        (held,) = hold.wait("check", alive=lambda: graded.poll() is None)
        command = Path(f"/proc/{held}/cmdline").read_bytes().split(b"\0")
        scratch = Path(os.fsdecode(command[command.index(b"--state-dir") + 1])).parent
        assert scratch.is_dir() and scratch.name.startswith("lab-grader-grade-"), scratch
    finally:
        graded.kill()  # the grade alone, as `kill -9 PID` does: its watchdog sees it gone
        graded.wait()
    wait_until(lambda: not scratch.exists(), "the grade's folder removed", timeout=TERM_GRACE + SAFETY)
    assert not processes_under(scratch), "its grader ended"
    assert str(scratch) not in Path("/proc/self/mountinfo").read_text()
    assert (tmp_path / "root" / "q" / "consume.py").is_file()  # the laid-out submission is kept


def test_a_harness_failure_is_reported_as_a_fault(fixture_tree: FixtureTree, tmp_path: Path) -> None:
    walk_queue(tmp_path / "upload", fixture_tree.root)
    (tmp_path / "no-fixtures").mkdir()
    results = tmp_path / "results.json"
    code = grade(
        tmp_path / "upload",
        SingleOptions(
            lab_root=tmp_path / "root",
            results_json=results,
            labs=("queue",),
            fixtures_dir=tmp_path / "no-fixtures",
        ),
    )
    data = json.loads(results.read_text())
    assert code == GRADER_FAULT and data["extra_data"]["gradable"] is False
    assert "fixture tree" in data["extra_data"]["grader_errors"][0]
    assert {t["extra_data"]["outcome"] for t in data["tests"]} == {"error"}


def test_what_leaves_the_checkout_holds_no_reference(tmp_path: Path) -> None:
    """The Gradescope bundle and the students' build carry the grader and the fixtures, never
    the reference solutions nor the self-tests; and such a build refuses to grade a reference
    (a checkout's job) with a harness error, not a grade."""
    bundle = build_bundle(tmp_path / "autograder.zip")
    dist = tmp_path / "dist"
    from grader.classroom.gradescope import build_dist

    shipped = build_dist(dist)
    for names in (bundle, shipped):
        assert any(n.startswith("grader/") for n in names) and any(n.startswith("fixtures/") for n in names)
        assert not [n for n in names if n.startswith(("solutions/", "tests/", "bench/", ".git"))]
    results = tmp_path / "reference.json"
    # As a pod has it: the dist alone and the dependencies, nothing of this checkout (the
    # checkout's editable install puts its root on every path; -S leaves .pth files unread).
    site = [p for p in sys.path if p.endswith("site-packages")]
    run = subprocess.run(
        [
            sys.executable,
            "-S",
            "-m",
            "pytest",
            "grader",
            "-q",
            "-p",
            "no:cacheprovider",
            "--lab",
            "queue",
            "--results-json",
            str(results),
            "--state-dir",
            str(tmp_path / "state"),
        ],
        cwd=dist,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(site)},
        check=False,
    )
    data = json.loads(results.read_text())
    assert run.returncode != 0 and data["extra_data"]["gradable"] is False, run.stdout[-2000:]
    assert {t["extra_data"]["outcome"] for t in data["tests"]} == {"error"}
    assert "reference" in data["tests"][0]["output"]
