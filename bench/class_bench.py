"""Benchmark: grade a generated class with ``--jobs 1`` and with the default, compare verdicts.

    python bench/class_bench.py [--size 24] [--jobs N]

The class (tests/classgen.py) mixes correct solutions and one-mistake mutants of both labs,
half packed, half as folders. The ``--jobs 1`` run grades each submission alone: its verdicts
are the solo verdicts, and each must name the mutant's mistake. The parallel run must give
the same verdict on every id of every student. Prints submissions per minute and the speed-up;
exits 1 on any difference or grader error. Aim: the whole class under 3 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fixtures.tree import MQ_PLUGINS, build
from grader.classroom.batch import GRADED, BatchOptions, Graded, default_jobs, run_batch
from grader.machinery.broker import start_local
from tests.classgen import Student, hand_in, roster

LABS = ("queue", "mq")


def verdicts(graded: list[Graded]) -> dict[str, dict[str, str]]:
    return {g.name: {rid: t.outcome for rid, t in g.results.tests.items()} for g in graded}


def wrong_about_mistakes(students: list[Student], solo: dict[str, dict[str, str]]) -> list[str]:
    """Solo verdicts that do not match the class as generated (a correct lab not fully passed,
    a mutant not failed on its id)."""
    problems = []
    for s in students:
        for lab in LABS:
            variant = s.variant(lab)
            mine = {rid: o for rid, o in solo[s.name].items() if rid[0] == lab[0].upper()}
            failed = {rid for rid, o in mine.items() if o != "passed"}
            if failed != variant.fails_away:
                problems.append(
                    f"{s.name} ({variant.name}): {lab} ids not passed "
                    f"{sorted(failed)}, declared {sorted(variant.fails_away)}"
                )
    return problems


def timed_batch(submissions: list[Path], out: Path, jobs: int) -> tuple[list[Graded], float]:
    started = time.monotonic()
    graded = run_batch(
        submissions, BatchOptions(out=out, labs=LABS, jobs=jobs, force=True, progress=lambda line: None)
    )
    return graded, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=24)
    parser.add_argument(
        "--jobs",
        default=str(default_jobs(LABS)),
        help="parallel runs to compare with --jobs 1 (a comma list: 2,3,4)",
    )
    parser.add_argument("--keep", type=Path, help="copy each parallel run's output (report.html, ...) here")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="lab-grader-bench-", dir="/var/tmp"))
    try:
        base.chmod(0o755)
        tree = build(base / "fixtures")
        students = roster(args.size)
        # A node for each student's status.txt.
        node = start_local(tree.mq_up, base / "status-node", plugins=MQ_PLUGINS)
        try:
            hand_in(students, base / "class", tree.root, node.ctl(["status"], 60) if node.ctl else None)
        finally:
            node.stop()
        submissions = sorted((base / "class" / "submissions").iterdir())
        print(
            f"class: {len(submissions)} submissions (both labs), "
            f"{sum(s.queue.correct and s.mq.correct for s in students)}"
            " correct in both",
            flush=True,
        )
        solo, solo_s = timed_batch(submissions, base / "solo", 1)
        print(f"--jobs 1: {solo_s:.0f} s, {len(solo) / solo_s * 60:.1f} submissions/min", flush=True)
        problems = [f"{g.name}: {g.status} {g.note[:300]}" for g in solo if g.status != GRADED]
        problems += wrong_about_mistakes(students, verdicts(solo))
        alone = verdicts(solo)
        for jobs in (int(j) for j in args.jobs.split(",")):
            both, both_s = timed_batch(submissions, base / f"jobs{jobs}", jobs)
            together = verdicts(both)
            differ = [f"{g.name}: {g.status} {g.note[:300]}" for g in both if g.status != GRADED]
            differ += [
                f"{name}: {rid} alone {alone[name][rid]}, with --jobs {jobs} {together[name].get(rid)}"
                for name in alone
                for rid in alone[name]
                if together[name].get(rid) != alone[name][rid]
            ]
            print(
                f"--jobs {jobs}: {both_s:.0f} s, {len(both) / both_s * 60:.1f} submissions/min; "
                f"speed-up {solo_s / both_s:.2f}x; "
                f"{'every verdict equals the solo verdict' if not differ else 'VERDICTS DIFFER'}; "
                f"aim (under 180 s) {'met' if both_s < 180 else 'NOT met'}",
                flush=True,
            )
            problems += differ
            if args.keep:
                shutil.rmtree(args.keep / f"jobs{jobs}", ignore_errors=True)
                shutil.copytree(base / f"jobs{jobs}", args.keep / f"jobs{jobs}")
        for problem in problems:
            print(f"  {problem}")
        return 1 if problems else 0
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
