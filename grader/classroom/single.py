"""Grade one submission on a machine made for it (a Gradescope container, a GitHub runner):
lay it out in the lab root, start RabbitMQ with the lab's own mq-up.sh, grade, write results.

    python -m grader grade SUBMISSION --lab-root /root --results-json F [--markdown F]

A grader fault (after one retry) is never a score: with ``--grader-fault withhold``
(Gradescope) no results.json is written, so the platform shows the run as failed rather than
as 0 points, and the would-be results go to results.grader-error.json beside it for staff;
with ``report`` (GitHub) results.json says ``gradable: false`` and the run exits 2.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grader.classroom.infra import class_broker, fixture_tree
from grader.classroom.markdown import finding, scoreboard
from grader.classroom.results import (
    grader_fault_results,
    parse_results,
    refused_results,
    write_json,
)
from grader.classroom.runjob import TERM_GRACE, GraderRun, RunOutcome, guarded_by, run
from grader.classroom.submission import UnsafeSubmission, lay_out
from grader.classroom.version import tool_version
from grader.labs import CATALOGUE
from grader.machinery.treecopy import remove_tree
from grader.machinery.watchdog import Watchdog

ALL_PASSED, NOT_YET, GRADER_FAULT = 0, 1, 2


@dataclass(frozen=True)
class SingleOptions:
    lab_root: Path
    results_json: Path
    labs: tuple[str, ...]
    markdown: Path | None = None
    fixtures_dir: Path | None = None
    withhold_faults: bool = False
    timeout: float = 900.0


def complete_for_gradescope(data: dict[str, Any]) -> dict[str, Any]:
    """Fill the Gradescope fields today's report.py does not write yet (tags, visibility,
    Markdown output, the scoreboard, gradable): a no-op for each field once it writes it."""
    results = parse_results(data)  # before the outputs become Markdown
    if "output_format" not in data:
        data["output"], data["output_format"] = scoreboard(results), "md"
    extra = data.setdefault("extra_data", {})
    extra.setdefault("gradable", results.gradable)
    extra.setdefault("tool", tool_version())
    for test in data["tests"]:
        requirement = CATALOGUE[str(test["number"])]
        lab = requirement.lab
        test.setdefault("tags", [lab, f"{lab}-step{requirement.step}"])
        test.setdefault("visibility", "visible")
        if "output_format" not in test:
            test["output"], test["output_format"] = finding(str(test.get("output", ""))), "md"
    return data


def grade(submission: Path, options: SingleOptions) -> int:
    try:
        lay_out(submission, options.lab_root)
    except UnsafeSubmission as exc:
        print(f"grade: 제출물을 풀 수 없습니다: {exc}", flush=True)
        return _finish(refused_results(options.labs, str(exc)), options)
    try:
        outcome = _grade_lab_root(options)
    except Exception as exc:  # no broker could be started, ...: a fault, reported as one
        outcome = RunOutcome(None, 0.0, None, f"could not grade: {exc!r}"[:2000], "")
    if outcome.fault is not None or outcome.results is None:
        print(f"grade: 채점기 오류(학생 잘못이 아님): {outcome.fault}", flush=True)
        data = grader_fault_results(options.labs, outcome.fault or "unknown")
        if options.withhold_faults:
            write_json(options.results_json.with_name("results.grader-error.json"), data)
            options.results_json.unlink(missing_ok=True)
            print(
                "grade: results.json 을 쓰지 않았습니다: 점수 0 이 아니라 '채점 실패'로 "
                "보이게 하려는 것입니다. 다시 채점하세요.",
                flush=True,
            )
            return GRADER_FAULT
        return _finish(data, options)
    return _finish(outcome.results.raw, options)


@contextlib.contextmanager
def _scratch(watchdog: Watchdog) -> Iterator[Path]:
    """The grade's own folder (fixture tree, grader state, log, the node's files), removed when
    the grade ends, or by ``watchdog`` when this process is killed outright."""
    scratch = Path(tempfile.mkdtemp(prefix="lab-grader-grade-", dir="/var/tmp"))
    watchdog.guard_folder(scratch)
    try:
        yield scratch
    finally:
        remove_tree(scratch)
        watchdog.release_folder(scratch)


def _grade_lab_root(options: SingleOptions) -> RunOutcome:
    # The watchdog first: a SIGKILL at any later point leaves nothing it was not told of.
    with Watchdog(TERM_GRACE) as watchdog, guarded_by(watchdog), _scratch(watchdog) as scratch:
        return _grade_in(options, scratch, watchdog)


def _grade_in(options: SingleOptions, scratch: Path, watchdog: Watchdog) -> RunOutcome:
    tree = fixture_tree(options.fixtures_dir, scratch)
    job = GraderRun(
        lab_root=options.lab_root,
        fixtures=tree.root,
        state_dir=scratch / "state",
        results_json=options.results_json,
        log=scratch / "grader.log",
        labs=options.labs,
        broker=None,
        timeout=options.timeout,
    )
    if CATALOGUE.needs_broker(options.labs):  # the watchdog guards the graders: see batch._grade_all
        with class_broker(tree, None, watchdog) as (broker, access):
            print(f"grade: RabbitMQ {broker.label} started by the lab's mq-up.sh", flush=True)
            job = dataclasses.replace(job, broker=access)
            return _twice(job)
    return _twice(job)


def _twice(job: GraderRun) -> RunOutcome:
    outcome = run(job)
    sys.stdout.write(job.log.read_text(errors="replace"))
    if outcome.fault is not None:
        print(f"grade: grader fault, grading once more: {outcome.fault}", flush=True)
        outcome = run(job)
        sys.stdout.write(job.log.read_text(errors="replace"))
    sys.stdout.flush()
    return outcome


def _finish(data: dict[str, Any], options: SingleOptions) -> int:
    results = parse_results(data)
    write_json(options.results_json, complete_for_gradescope(data))
    if options.markdown is not None:
        with options.markdown.open("a", encoding="utf-8") as summary:
            summary.write(scoreboard(results))
    if not results.gradable:
        return GRADER_FAULT
    return ALL_PASSED if results.all_passed else NOT_YET
