"""A new lab is a package of grader/ and nothing else: every tool takes it up.

A copy of the checkout gains a throwaway lab ("tiny": one requirement, one script, one
check) as a package of its own, and nothing else of the copy changes. Its reference is graded
by `pytest grader`, and a student's submission of it by `python -m grader pack`, `batch`
(grades.csv, report.html) and `grade` (Gradescope's results.json).
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.grading import REPO

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

TINY = {
    "__init__.py": '''
        """A throwaway lab: hello.sh says hello."""

        from grader.catalogue import Lab

        LAB = Lab.declare(
            "tiny",
            heading="작은 실습",
            original_title="작은 실습",
            steps={1: "인사"},
            paths=("tiny",),
            requirements=[("T1.1", "hello.sh 가 hello 를 출력한다", "echo hello 한 줄이면 됩니다.")],
            order=3,
        )
    ''',
    "scenarios.py": '''
        """The tiny lab's one scenario: hello.sh, run in a box of its own."""

        from __future__ import annotations

        from dataclasses import dataclass
        from pathlib import Path

        from grader.machinery.runner import RunResult
        from grader.machinery.scenarios import ScenarioPool
        from grader.scenario import Scenarios
        from grader.session import Grading
        from grader.tiny import LAB
        from grader.verdict import Missing


        @dataclass
        class TinyLab:
            grading: Grading
            live: Path

            @property
            def pool(self) -> ScenarioPool:
                return self.grading.pool

            @classmethod
            def bring_up(cls, grading: Grading, wanted: frozenset[str]) -> TinyLab:
                if not grading.config.student_mode:  # the reference, laid out as a student would
                    (grading.lab_root / "tiny" / "hello.sh").write_text("echo hello\\n")
                return cls(grading, grading.workspace("tiny").live)


        scenarios: Scenarios[TinyLab] = Scenarios(LAB, TinyLab.bring_up)
        tiny_lab = scenarios.fixture()


        @scenarios
        def hello(lab: TinyLab) -> RunResult | Missing:
            if not (lab.live / "hello.sh").is_file():
                return Missing(str(lab.grading.scripts_root / "tiny" / "hello.sh"))
            with lab.grading.scripts("hello") as box:
                return box.run(["bash", str(lab.live / "hello.sh")], cwd=lab.live, timeout=30)
    ''',
    "test_step1_hello.py": """
        import pytest

        from grader.machinery.runner import RunResult
        from grader.verdict import Check


        @pytest.mark.req("T1.1")
        def test_T1_1_says_hello(req: Check, hello: RunResult) -> None:
            req.expect(hello.stdout.strip() == "hello", f"출력: {hello.stdout.strip()!r}")
    """,
}


def _checkout_with_tiny(where: Path) -> Path:
    repo = where / "checkout"
    for name in ("grader", "fixtures", "solutions", "conftest.py", "pyproject.toml"):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, repo / name)
    (repo / "grader" / "tiny").mkdir()
    for name, text in TINY.items():
        (repo / "grader" / "tiny" / name).write_text(textwrap.dedent(text).lstrip())
    return repo


def _run(repo: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], cwd=repo, capture_output=True, text=True, timeout=600, check=False
    )


def test_a_new_lab_package_is_taken_up_by_every_tool(tmp_path: Path) -> None:
    repo = _checkout_with_tiny(tmp_path)

    # the reference, by the grader itself
    reference = _run(repo, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider", "--lab", "tiny")
    assert reference.returncode == 0 and "T1.1" not in reference.stdout.split("합계")[0].split("✗")[-1]
    assert "합계: 1/1 통과" in reference.stdout, reference.stdout[-2000:]

    # a student's submission: packed, graded in a batch, and as Gradescope grades one
    lab_root = tmp_path / "student" / "root"
    (lab_root / "tiny").mkdir(parents=True)
    (lab_root / "tiny" / "hello.sh").write_text("echo bye\n")
    packed = tmp_path / "kim.tar.gz"
    pack = _run(repo, "-m", "grader", "pack", "--lab-root", str(lab_root), "-o", str(packed))
    assert pack.returncode == 0, pack.stderr
    out = tmp_path / "out"
    batch = _run(repo, "-m", "grader", "batch", str(packed), "--out", str(out), "--lab", "tiny")
    assert batch.returncode == 0, batch.stdout + batch.stderr
    row = next(csv.DictReader((out / "grades.csv").open()))
    assert row["status"] == "graded" and row["T1.1"] == "0" and float(row["score"]) == 0, row
    assert "T1.1" in (out / "report.html").read_text()

    results = tmp_path / "gradescope" / "results.json"
    results.parent.mkdir()
    single = _run(
        repo,
        "-m",
        "grader",
        "grade",
        str(packed),
        "--lab-root",
        str(tmp_path / "gs-root"),
        "--results-json",
        str(results),
        "--lab",
        "tiny",
    )
    data = json.loads(results.read_text())
    assert single.returncode == 1, single.stdout[-2000:]  # graded, not all passed
    assert [t["number"] for t in data["tests"]] == ["T1.1"] and data["tests"][0]["score"] == 0
    assert "작은 실습" in data["output"]
