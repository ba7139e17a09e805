"""The student-repository workflow template: its grading step, run locally as the runner would
run it (actionlint checks the file itself: ./dev.sh actionlint)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from fixtures.tree import FixtureTree
from grader.classroom.version import REPO
from grader.labs import CATALOGUE
from solutions.walkthrough import walk_mq, walk_queue
from tests.classgen import split
from tests.classroom import processes_under, root_state, run_step
from tests.conftest import SharedBroker

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]
TEMPLATE = REPO / "templates" / "github" / "lab-grade.yml"


def _steps() -> list[dict[str, Any]]:
    workflow = yaml.safe_load(TEMPLATE.read_text())
    steps: list[dict[str, Any]] = workflow["jobs"]["grade"]["steps"]
    return steps


def test_the_workflow_keeps_results_and_summarises() -> None:
    steps = _steps()
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("actions/upload-artifact"))
    assert upload["if"] == "always()" and upload["with"]["path"] == "results.json"
    grade = next(s for s in steps if s.get("id") == "grade")
    assert "$GITHUB_STEP_SUMMARY" in grade["run"] and "results.json" in grade["run"]
    assert "rabbitmq-server" in steps[0]["run"]


def _grade_step(workspace: Path, lab_root: Path) -> subprocess.CompletedProcess[str]:
    """The Grade step's script with bash -e, as the runner runs a `run:` step."""
    script = next(s for s in _steps() if s.get("id") == "grade")["run"]
    env = os.environ | {
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_STEP_SUMMARY": str(workspace / "summary.md"),
        "GRADER_VENV": str(REPO / ".venv"),
        "GRADER_LAB_ROOT": str(lab_root),
    }
    return run_step(script, workspace, env)


def test_a_correct_repository_passes(
    fixture_tree: FixtureTree, shared_broker: SharedBroker, tmp_path: Path
) -> None:
    repo = tmp_path / "ws" / "submission"  # the student's repository: q/ and eaimw/mq/
    walk_queue(repo, fixture_tree.root)
    walk_mq(repo, shared_broker.status())
    before = root_state()
    run = _grade_step(tmp_path / "ws", tmp_path / "root")
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    summary = (tmp_path / "ws" / "summary.md").read_text()
    assert summary.startswith(f"## 채점 결과: {len(CATALOGUE)}/{len(CATALOGUE)} 통과\n")
    results = json.loads((tmp_path / "ws" / "results.json").read_text())
    assert {t["status"] for t in results["tests"]} == {"passed"}
    assert not processes_under(tmp_path)
    assert root_state() == before


def test_a_repository_with_a_mistake_fails_the_job(fixture_tree: FixtureTree, tmp_path: Path) -> None:
    mutant = next(v for v in split("queue")[1] if "Q3.4" in v.fails)
    repo = tmp_path / "ws" / "submission"
    solution = mutant.lay_out(tmp_path / "solution")
    walk_queue(repo, fixture_tree.root, solution)  # and no eaimw/mq at all
    run = _grade_step(tmp_path / "ws", tmp_path / "root")
    assert run.returncode == 1, run.stdout[-4000:]
    summary = (tmp_path / "ws" / "summary.md").read_text()
    assert "아직 남았습니다" in summary and "Q3.4" in summary and "**관찰**:" in summary
    # mq not handed in: said once per missing file, not once per id.
    assert "M2.1, M2.2, M2.3, M2.4 을(를) 판정하지 못했습니다" in summary
    assert "<summary>✗ M2.1" not in summary
