"""Grade the blind population (README.md beside this file) and print every disagreement.

    python -m tests.population.grade [--lab queue|mq] [--jobs N] [NAME ...]     (./dev.sh population)

Each submission is laid out in a lab pod of its own (pod.sh: its lay.sh, run as the student
ran it, with /root a fresh directory and the fixture tree at /opt/lab/fixtures; for the mq lab
a node rabbit@localhost started by the fixture's own mq-up.sh answers rabbitmqctl) and graded
by a real grader run, as the student would grade it in the pod. A submission agrees when:

- expect = "pass": every id passed;
- expect = "fail": at least the ids it names in ``fails`` failed (a mistake may spill over into
  other ids: those are listed, not counted against it).

A grader error (an id in error, no results) is a disagreement of its own. Exit 1 when any
submission disagrees (or errs), 0 otherwise.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from fixtures.tree import FixtureTree, build
from tests.conftest import SharedBroker, private_node
from tests.grading import Graded, grade
from tests.terminate import exit_on_sigterm

HERE = Path(__file__).resolve().parent
POD = HERE / "pod.sh"
LAB_DIR = {"queue": "q", "mq": "eaimw/mq"}


@dataclass(frozen=True)
class Submission:
    lab: str
    name: str
    folder: Path
    expect: str  # pass / fail
    fails: frozenset[str]
    mistake: str
    resolution: str  # why the writer was wrong, once looked at ("" when not)

    @classmethod
    def of(cls, folder: Path) -> Submission:
        data = tomllib.loads((folder / "submission.toml").read_text())
        expect = data["expect"]
        if expect not in ("pass", "fail"):
            raise ValueError(f"{folder}: expect must be pass or fail")
        return cls(
            folder.parent.name,
            folder.name,
            folder,
            expect,
            frozenset(data.get("fails", [])),
            " ".join(str(data.get("mistake", "")).split()),
            " ".join(str(data.get("resolution", "")).split()),
        )


def submissions(lab: str | None = None, names: list[str] | None = None) -> list[Submission]:
    found = []
    for lab_dir in sorted(HERE.iterdir()):
        if not lab_dir.is_dir() or lab_dir.name not in LAB_DIR or (lab and lab_dir.name != lab):
            continue
        for folder in sorted(lab_dir.iterdir()):
            if (folder / "submission.toml").is_file() and (not names or folder.name in names):
                found.append(Submission.of(folder))
    return found


@dataclass(frozen=True)
class Verdict:
    submission: Submission
    graded: Graded | None
    problem: str  # "" when the grader and the writer agree

    @property
    def agrees(self) -> bool:
        return not self.problem


def judge(submission: Submission, graded: Graded) -> str:
    """Why the grader and the writer disagree ("" when they agree)."""
    if graded.errors or not graded.statuses:
        return f"grader error on {sorted(graded.errors) or 'every id'} (exit {graded.returncode})"
    failed = graded.not_passed
    if submission.expect == "pass":
        return f"a correct submission failed {sorted(failed)}" if failed else ""
    if not failed:
        return f"a wrong submission passed every id (mistake: {submission.mistake})"
    if missed := submission.fails - failed:
        return f"failed {sorted(failed)} but not {sorted(missed)} (mistake: {submission.mistake})"
    return ""


class LayOutFailed(RuntimeError):
    """The pod could not run the submission's lay.sh (a harness fault, not the student's)."""


def lay_out(submission: Submission, home: Path, fixtures: Path, env: dict[str, str]) -> str:
    """Run the submission's lay.sh in a pod whose /root is ``home``; its output. What lay.sh
    itself exits with is the student's business (a step may fail); a pod that did not start is
    not (bwrap, the interpreter)."""
    home.mkdir(parents=True)
    pod_env = {
        "SUBMISSION": str(submission.folder),
        "POD_FIXTURES": str(fixtures),
        "POD_PYTHON": sys.executable,
    }
    run = subprocess.run(
        [str(POD), str(home), "bash", "-c", 'echo lab-grader-pod-started; exec bash "$SUBMISSION/lay.sh"'],
        env=os.environ | env | pod_env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    said = (run.stdout + run.stderr)[-3000:]
    if not run.stdout.startswith("lab-grader-pod-started"):
        raise LayOutFailed(f"the pod did not start (exit {run.returncode}): {said[-800:]}")
    return said


def grade_one(
    submission: Submission, base: Path, tree: FixtureTree, broker: SharedBroker | None, seed: int | None
) -> Verdict:
    home = base / submission.name / "root"
    env = dict(broker.env) if broker else {}
    if broker:
        env["EAI_AMQP_URL"] = broker.broker.amqp_url("/")
    try:
        said = lay_out(submission, home, tree.root, env)
    except LayOutFailed as exc:
        return Verdict(submission, None, str(exc))
    # The scripts see their lab root where the student's pod has it (they may hard-code /root/q).
    args: tuple[str, ...] = (
        "--scripts-root",
        "/root",
        *(broker.args if broker else ()),
        *(("--grader-seed", str(seed)) if seed else ()),
    )
    try:
        graded = grade(
            home, tree.root, base / submission.name / "state", lab=submission.lab, args=args, env=env
        )
    except Exception as exc:  # no results file, ...: the grader's fault
        return Verdict(submission, None, f"grader run failed: {exc!r}; lay.sh said: {said[-500:]}")
    return Verdict(submission, graded, judge(submission, graded))


@contextmanager
def _broker(tree: FixtureTree, needed: bool) -> Iterator[SharedBroker | None]:
    if not needed:
        yield None
        return
    with private_node(tree.mq_up) as (node, _):
        yield SharedBroker(node)


def run(chosen: list[Submission], jobs: int, seed: int | None = None) -> list[Verdict]:
    with ExitStack() as stack:
        base = Path(
            # A grader that died leaves its tmpfs mounted there (its verdict says so): the next
            # grader on that lab root takes them away; the report must still come out.
            stack.enter_context(
                tempfile.TemporaryDirectory(
                    prefix="lab-grader-population-", dir="/var/tmp", ignore_cleanup_errors=True
                )
            )
        )
        os.chmod(base, 0o755)
        tree = build(base / "fixtures")
        broker = stack.enter_context(_broker(tree, any(s.lab == "mq" for s in chosen)))
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(
                pool.map(lambda s: grade_one(s, base, tree, broker if s.lab == "mq" else None, seed), chosen)
            )


def report(verdicts: list[Verdict]) -> str:
    lines = []
    for lab in LAB_DIR:
        mine = [v for v in verdicts if v.submission.lab == lab]
        if not mine:
            continue
        agree = sum(v.agrees for v in mine)
        lines.append(f"{lab}: {agree}/{len(mine)} agree")
        for verdict in mine:
            s = verdict.submission
            spill = ""
            if verdict.graded is not None and s.expect == "fail" and verdict.agrees:
                extra = verdict.graded.not_passed - s.fails
                spill = f" (also failed {sorted(extra)})" if extra else ""
            mark = "ok  " if verdict.agrees else "DIFF"
            lines.append(f"  {mark} {s.name} [{s.expect}]{spill}")
            if not verdict.agrees:
                lines.append(f"       {verdict.problem}")
                if verdict.graded is not None:
                    for rid in sorted(verdict.graded.not_passed):
                        lines.append(f"       {rid}: {' '.join(verdict.graded.outputs[rid].split())[:400]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    exit_on_sigterm()
    parser = argparse.ArgumentParser(prog="python -m tests.population.grade")
    parser.add_argument("names", nargs="*", help="only these submissions (folder names)")
    parser.add_argument("--lab", choices=sorted(LAB_DIR))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, help="the grader seed of every run")
    args = parser.parse_args(argv)
    chosen = submissions(args.lab, args.names)
    if not chosen:
        print("no submission chosen", file=sys.stderr)
        return 2
    verdicts = run(chosen, args.jobs, args.seed)
    print(report(verdicts))
    return 0 if all(v.agrees for v in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
