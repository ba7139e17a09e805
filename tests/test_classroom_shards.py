"""A class graded in shards (batch --shard K/N) and merged gives what one batch gives; merge
refuses outputs that do not belong together; the class workflow template's shard and merge
steps, run locally as the runner runs them, do the same. The queue lab only (no broker)."""

from __future__ import annotations

import csv
import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from fixtures.tree import FixtureTree
from grader.__main__ import parser
from grader.classroom.batch import GRADED, BatchOptions, collect, run_batch
from grader.classroom.merge import MergeRefused, merge
from grader.classroom.runjob import sandbox_options
from grader.classroom.shards import MANIFEST, WHOLE, Shard, read_manifest, shard_of
from grader.classroom.version import REPO
from grader.labs import CATALOGUE
from tests.classgen import Student, hand_in, pinned_class, split
from tests.classroom import processes_under, root_state, run_step

pytestmark = pytest.mark.timeout(900)
LABS = ("queue",)
N = 4
CORRECT, WRONG = split("queue")
MQ_CORRECT, _ = split("mq")
# Names chosen so that every one of the four shards holds a student (shard_of: 1, 4, 1, 2, 3, 4).
STUDENTS = [
    Student("kim", CORRECT[0], MQ_CORRECT[0]),
    Student("lee", WRONG[0], MQ_CORRECT[0]),
    Student("park", WRONG[3], MQ_CORRECT[0]),
    Student("jung", CORRECT[1], MQ_CORRECT[0]),
    Student("seo", CORRECT[2], MQ_CORRECT[0]),
    Student("yoon", WRONG[4], MQ_CORRECT[0]),
]
TIME_COLUMNS = ("seconds", "graded_at", "time")  # none in grades.csv today; left out if ever added
TEMPLATE = REPO / "templates" / "github" / "class-grade.yml"


@pytest.fixture(scope="module")
def submissions(fixture_tree: FixtureTree, workdir: Callable[[str], Path]) -> list[Path]:
    base = workdir("sharded-class")
    hand_in(STUDENTS, base, fixture_tree.root, None, LABS)
    return sorted((base / "submissions").iterdir())


def _options(out: Path, fixtures: Path, shard: Shard = WHOLE) -> BatchOptions:
    """What `python -m grader batch` would use here (the sandbox as its command line chooses
    it), so that a shard the workflow's step grades merges with these."""
    scripts_root, sandbox = sandbox_options(None, "auto")
    return BatchOptions(
        out=out,
        labs=LABS,
        jobs=2,
        fixtures_dir=fixtures,
        shard=shard,
        scripts_root=scripts_root,
        sandbox=sandbox,
        progress=lambda _: None,
    )


@pytest.fixture(scope="module")
def whole(submissions: list[Path], fixture_tree: FixtureTree, workdir: Callable[[str], Path]) -> Path:
    """The class in one batch, as before shards."""
    out = workdir("whole") / "out"
    run_batch(submissions, _options(out, fixture_tree.root))
    return out


@pytest.fixture(scope="module")
def shard_outs(
    submissions: list[Path], fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> Iterator[list[Path]]:
    base = workdir("shards")
    before = root_state()
    outs = []
    for k in range(1, N + 1):
        out = base / f"out-{k}"
        run_batch(submissions, _options(out, fixture_tree.root, Shard(k, N)))
        outs.append(out)
    yield outs
    assert not processes_under(base)
    assert root_state() == before


def _rows(grades: Path) -> list[dict[str, str]]:
    """grades.csv's rows, in order, without time columns."""
    with grades.open(newline="") as f:
        return [{k: v for k, v in row.items() if k not in TIME_COLUMNS} for row in csv.DictReader(f)]


# which shard ---------------------------------------------------------------------------------
def test_a_students_shard_depends_on_the_name_alone() -> None:
    names = [f"student{i:03d}" for i in range(400)] + ["김민준", "lee", "o'brien"]
    first = {n: shard_of(n, 7) for n in names}
    rng = random.Random(7)
    for _ in range(5):  # other orders, other classes: nobody moves
        others = rng.sample(names, rng.randrange(1, len(names)))
        assert {n: shard_of(n, 7) for n in others} == {n: first[n] for n in others}
    assert set(first.values()) == set(range(1, 8))
    sizes = [list(first.values()).count(k) for k in range(1, 8)]
    assert max(sizes) < 2 * min(sizes), sizes  # a hash spreads a class about evenly
    assert {shard_of(n, 1) for n in names} == {1}


def test_a_shard_is_chosen_from_the_submissions_given(submissions: list[Path]) -> None:
    everyone = collect(submissions)
    for order in (everyone, everyone[::-1]):
        picked = [[s.name for s in order if Shard(k, N).holds(s.name)] for k in range(1, N + 1)]
        assert sorted(name for shard in picked for name in shard) == sorted(s.name for s in everyone)
        assert all(picked), picked  # STUDENTS' names fill every shard
        assert {name for name in picked[0]} == {"kim", "park"}


@pytest.mark.parametrize(
    ("value", "said"),
    [("0/4", "between 1 and N=4"), ("5/4", "between 1 and N=4"), ("2", "not K/N"), ("a/b", "not K/N"),
     ("1/0", "at least 1"), ("1.5/4", "not K/N")],
)  # fmt: skip
def test_a_bad_shard_is_refused_before_anything_runs(
    value: str, said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as exit_:
        parser().parse_args(["batch", str(tmp_path), "--out", str(tmp_path / "out"), "--shard", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--shard" in err and said in err and "K/N" in err
    assert not (tmp_path / "out").exists()


# (a) four shards merged = one batch -------------------------------------------------------------
@pytest.mark.slow  # a class graded by batch runs
def test_four_shards_merged_equal_one_batch(
    submissions: list[Path], whole: Path, shard_outs: list[Path], workdir: Callable[[str], Path]
) -> None:
    merged = workdir("merged") / "class"
    graded = merge(shard_outs, merged)
    order = [s.name for s in collect(submissions)]
    assert [g.name for g in graded] == order and all(g.reused for g in graded)
    assert _rows(merged / "grades.csv") == _rows(whole / "grades.csv")
    rows = {row["student"]: row for row in _rows(merged / "grades.csv")}
    for student in STUDENTS:  # and they are the verdicts the class was made to get
        assert rows[student.name]["status"] == GRADED
        assert all(rows[student.name][rid] == "0" for rid in student.queue.fails), student.name
        if student.queue.correct:
            assert rows[student.name]["score"] == rows[student.name]["max_score"]
        for name in ("results.json", "scoreboard.txt", "grader.log", "job.json"):
            assert (merged / student.name / name).is_file(), (student.name, name)
        mine = json.loads((merged / student.name / "results.json").read_text())
        alone = json.loads((whole / student.name / "results.json").read_text())
        assert [(t["number"], t["status"]) for t in mine["tests"]] == [
            (t["number"], t["status"]) for t in alone["tests"]
        ]
    page = (merged / "report.html").read_text()
    assert "학급 채점 보고서" in page and "샤드 4개" in page
    manifest = read_manifest(merged)
    assert manifest.shard == WHOLE and len(manifest.merged_from) == N
    assert list(manifest.students) == order == list(manifest.roster)


@pytest.mark.slow  # a class graded by batch runs
def test_each_shard_holds_its_own_students_only(shard_outs: list[Path]) -> None:
    seen: list[str] = []
    for k, out in enumerate(shard_outs, start=1):
        manifest = read_manifest(out)
        assert manifest.shard == Shard(k, N) and manifest.labs == LABS
        assert len(manifest.roster) == len(STUDENTS)
        names = [row["student"] for row in _rows(out / "grades.csv")]
        assert names == list(manifest.students) and all(shard_of(n, N) == k for n in names)
        assert f"샤드 {k}/{N}" in (out / "report.html").read_text()
        seen += names
    assert sorted(seen) == sorted(s.name for s in STUDENTS)


# (b) merge refuses outputs that do not belong together ------------------------------------------
def _altered(out: Path, where: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """A copy of a shard's output whose manifest ``change`` edits."""
    copy = where / out.name
    shutil.copytree(out, copy, symlinks=True)
    data = json.loads((copy / MANIFEST).read_text())
    change(data)
    (copy / MANIFEST).write_text(json.dumps(data))
    return copy


def _refusal(outs: list[Path], dest: Path) -> str:
    with pytest.raises(MergeRefused) as refused:
        merge(outs, dest)
    assert not dest.exists(), "a refused merge wrote something"
    return str(refused.value)


@pytest.mark.slow  # a class graded by batch runs
def test_merge_refuses_a_missing_or_doubled_shard(shard_outs: list[Path], tmp_path: Path) -> None:
    one, two, three, four = shard_outs
    said = _refusal([one, two, four], tmp_path / "merged")
    assert "shard 3/4 missing" in said and "seo" in said
    said = _refusal([one, two, two, three, four], tmp_path / "merged")
    assert "shard 2/4 given more than once" in said and str(two) in said


@pytest.mark.slow  # a class graded by batch runs
def test_merge_refuses_shards_of_other_graders_labs_or_classes(
    shard_outs: list[Path], tmp_path: Path
) -> None:
    one, two, three, four = shard_outs

    def other_labs(data: dict[str, Any]) -> None:
        data["labs"] = list(CATALOGUE.names)

    def other_grader(data: dict[str, Any]) -> None:
        data["tool"] += "-changed"
        data["code_hash"] = "0" * 64

    def other_class(data: dict[str, Any]) -> None:
        data["class"] = [name for name in data["class"] if name != "lee"] + ["kang"]

    for change, words in [
        (other_labs, ["different labs", str(tmp_path / "labs" / three.name)]),
        (other_grader, ["different grader code", "-changed", str(tmp_path / "grader" / three.name)]),
        (other_class, ["different classes", "lacks lee", "lacks kang"]),
    ]:
        (tmp_path / change.__name__.split("_")[1]).mkdir()
        odd = _altered(three, tmp_path / change.__name__.split("_")[1], change)
        said = _refusal([one, two, odd, four], tmp_path / "merged")
        assert all(word in said for word in words), (words, said)


@pytest.mark.slow  # a class graded by batch runs
def test_merge_refuses_overlapping_students_and_other_ns(
    shard_outs: list[Path], whole: Path, tmp_path: Path
) -> None:
    one, two, three, four = shard_outs
    kim_key = read_manifest(one).students["kim"]

    def holds_kim(data: dict[str, Any]) -> None:
        data["students"]["kim"] = kim_key

    odd = _altered(two, tmp_path, holds_kim)
    shutil.copytree(one / "kim", odd / "kim")
    said = _refusal([one, odd, three, four], tmp_path / "merged")
    assert "holds kim, whose shard is 1/4" in said and "kim is in more than one shard" in said
    # The class in one batch (shard 1/1) is no shard of four.
    said = _refusal([one, two, three, four, whole], tmp_path / "merged")
    assert "different numbers of shards N" in said and str(whole) in said


@pytest.mark.slow  # a class graded by batch runs
def test_merge_refuses_what_is_no_finished_output(shard_outs: list[Path], tmp_path: Path) -> None:
    one, two, three, four = shard_outs
    (tmp_path / "empty").mkdir()
    said = _refusal([one, two, three, tmp_path / "empty"], tmp_path / "merged")
    assert f"{tmp_path / 'empty'}: no {MANIFEST}" in said
    changed = tmp_path / "changed"
    changed.mkdir()
    odd = _altered(four, changed, lambda data: None)
    name = next(iter(read_manifest(odd).students))
    record = json.loads((odd / name / "job.json").read_text())
    (odd / name / "job.json").write_text(json.dumps(record | {"key": "another grade"}))
    said = _refusal([one, two, three, odd], tmp_path / "merged")
    assert f"{name}/job.json is not what this batch recorded" in said
    said = _refusal([one, two, three, four], three / "inside")
    assert "must lie apart" in said


@pytest.mark.slow  # a class graded by batch runs
def test_the_merge_command_says_why_and_exits_2(shard_outs: list[Path], tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "grader", "merge", *map(str, shard_outs[:3]), "--out", str(tmp_path / "m")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 2, run.stderr
    assert "do not belong together" in run.stderr and "shard 4/4 missing" in run.stderr
    assert not (tmp_path / "m").exists()


# (c) the workflow template's steps ---------------------------------------------------------------
def _workflow() -> dict[str, Any]:
    workflow: dict[str, Any] = yaml.safe_load(TEMPLATE.read_text())
    return workflow


def _step(job: str, step_id: str) -> dict[str, Any]:
    step: dict[str, Any] = next(s for s in _workflow()["jobs"][job]["steps"] if s.get("id") == step_id)
    return step


def test_the_matrix_covers_every_shard_and_the_merge_takes_them_all() -> None:
    workflow = _workflow()
    grade, last = workflow["jobs"]["grade"], workflow["jobs"]["merge"]
    shards = grade["strategy"]["matrix"]["shard"]
    assert shards == list(range(1, len(shards) + 1)) and len(shards) > 1
    assert grade["strategy"]["fail-fast"] is False
    # N is the matrix's size, K the job's entry: the two never disagree.
    assert _step("grade", "batch")["env"] == {
        "SHARD": "${{ matrix.shard }}",
        "SHARDS": "${{ strategy.job-total }}",
    }
    assert '--shard "$SHARD/$SHARDS"' in _step("grade", "batch")["run"]
    upload = next(s for s in grade["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    assert upload["if"] == "always()"
    assert (
        upload["with"]["name"] == "shard-${{ matrix.shard }}"
        and upload["with"]["path"] == "out-${{ matrix.shard }}"
    )
    assert last["needs"] == "grade" and "cancelled()" in last["if"]
    download = next(
        s for s in last["steps"] if str(s.get("uses", "")).startswith("actions/download-artifact")
    )
    assert download["with"] == {"pattern": "shard-*", "path": "shards"}
    assert "shards/shard-*" in _step("merge", "merge")["run"]
    kept = next(s for s in last["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    assert kept["if"] == "always()"
    assert kept["with"]["path"].split() == ["class-grades/grades.csv", "class-grades/report.html"]
    assert "bubblewrap" in grade["steps"][0]["run"] and "rabbitmq-server" in grade["steps"][0]["run"]


def _run_step(
    job: str, step_id: str, workspace: Path, expressions: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    """A `run:` step as the runner runs it: bash -e in the workspace, the workflow's, the job's
    and the step's env (the step's `${{ }}` expressions given), the grader checked out at
    .grader and installed in this venv, the queue lab only (the course's GRADER_LAB)."""
    workflow = _workflow()
    step = _step(job, step_id)
    env = os.environ | {str(k): str(v) for k, v in workflow["env"].items()}
    env |= {str(k): str(v) for k, v in workflow["jobs"][job].get("env", {}).items()}
    env |= {str(k): expressions[str(v)] for k, v in step.get("env", {}).items()}
    env |= {"GITHUB_WORKSPACE": str(workspace), "GRADER_VENV": sys.prefix, "GRADER_LAB": "queue"}
    return run_step(step["run"], workspace, env)


@pytest.mark.slow  # a class graded by batch runs
def test_a_shard_job_and_the_merge_job_as_the_runner_runs_them(
    submissions: list[Path], whole: Path, shard_outs: list[Path], tmp_path: Path
) -> None:
    """One shard job's batch step (on the course's repository, with a fixture tree of its own),
    then the merge job's step over that shard's artifact and the other shards' outputs."""
    shards = _workflow()["jobs"]["grade"]["strategy"]["matrix"]["shard"]
    assert len(shards) == len(shard_outs)
    workspace = tmp_path / "grade-job-1"
    workspace.mkdir()
    (workspace / "class").symlink_to(submissions[0].parent.parent)  # holds submissions/
    run = _run_step(
        "grade",
        "batch",
        workspace,
        {"${{ matrix.shard }}": "1", "${{ strategy.job-total }}": str(len(shards))},
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert read_manifest(workspace / "out-1").shard == Shard(1, len(shards))
    assert _rows(workspace / "out-1" / "grades.csv") == _rows(shard_outs[0] / "grades.csv")
    downloaded = tmp_path / "merge-job" / "shards"  # download-artifact: a folder per artifact
    shutil.copytree(workspace / "out-1", downloaded / "shard-1")
    for k, out in enumerate(shard_outs[1:], start=2):
        shutil.copytree(out, downloaded / f"shard-{k}")
    run = _run_step("merge", "merge", tmp_path / "merge-job", {})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    merged = tmp_path / "merge-job" / "class-grades"
    assert _rows(merged / "grades.csv") == _rows(whole / "grades.csv")
    assert (merged / "report.html").is_file()
    assert not processes_under(tmp_path)


def test_the_benchmarks_class_is_the_one_it_names() -> None:
    """bench/class_bench.py grades CLASS_OF_24: every variant it names exists (a renamed one
    fails here, not as a quietly different class), a third of the class correct in both labs."""
    students = pinned_class()
    assert [s.name for s in students] == [f"s{n:02d}" for n in range(1, 25)]
    assert sum(s.queue.correct and s.mq.correct for s in students) == 8
