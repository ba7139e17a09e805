"""Benchmark: grade a generated class with ``--jobs 1`` and in parallel, compare verdicts.

    python bench/class_bench.py [--size 24] [--jobs N[,N...]] [--runs R]

The class (tests/classgen.py) mixes correct solutions and one-mistake mutants of both labs,
half packed, half as folders; the class of 24 is pinned by name (classgen.CLASS_OF_24), so
figures compare across commits. The ``--jobs 1`` run grades each submission alone: its verdicts
are the solo verdicts, and each must name the mutant's mistake. Every parallel run (each job
count of ``--jobs``: a count, ``auto`` for batch's default, which chooses as it goes, or
``auto2``, that default with its ends doubled; by default ``auto,auto2``; ``--runs`` times in a row) must
give the same verdict on every id of every student. Prints for each run its wall time,
submissions a minute, the speed-up over ``--jobs 1`` and the CPU-seconds a grade (the whole
machine's busy time over the run, from /proc/stat, divided by the submissions: run it on a
quiet machine); exits 1 on any difference or grader error. Aim (issue 17): the class of 24,
both labs, under 90 s on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fixtures.tree import MQ_PLUGINS, build
from grader.classroom.batch import GRADED, BatchOptions, Graded, default_jobs, most_jobs, run_batch
from grader.classroom.shards import read_manifest
from grader.machinery.admission import cpu_times
from grader.machinery.broker import start_local
from tests.classgen import CLASS_OF_24, Student, hand_in, pinned_class, roster
from tests.terminate import exit_on_sigterm

LABS = ("queue", "mq")
AIM = 90.0  # seconds for the class of 24 (issue 17)
SLOWEST = 4  # grades named with their wall time


def busy_seconds() -> float:
    """CPU-seconds the whole machine has spent busy since boot (/proc/stat, every core)."""
    return cpu_times().busy / os.sysconf("SC_CLK_TCK")


def verdicts(graded: list[Graded]) -> dict[str, dict[str, str]]:
    return {g.name: {rid: t.outcome for rid, t in g.results.tests.items()} for g in graded}


def wrong_about_mistakes(students: list[Student], graded: list[Graded]) -> list[str]:
    """Solo verdicts that do not match the class as generated (a correct lab not fully passed,
    a mutant not failed on its id), with what the grader said."""
    solo, runs = verdicts(graded), {g.name: g for g in graded}
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
                    + "".join(said(rid, runs[s.name]) for rid in sorted(failed ^ variant.fails_away))
                )
    return problems


def said(rid: str, *runs: Graded) -> str:
    """What the grader said about ``rid`` in the runs where it was not passed (a verdict that
    changed with the run is a race to find, and its words are the lead)."""
    texts = [
        f"\n      [{run.results.tests[rid].outcome}] {run.results.tests[rid].text.strip()[:1500]}"
        for run in runs
        if rid in run.results.tests and run.results.tests[rid].outcome != "passed"
    ]
    return "".join(texts)


def job_counts(spec: str) -> tuple[int, int | None]:
    """``N``: N at once; ``auto``: batch's default (from default_jobs up to most_jobs as the
    machine shows spare CPU); ``autoK``: that default with both ends times K."""
    if not spec.startswith("auto"):
        return int(spec), None
    times = int(spec[4:] or 1)
    return times * most_jobs(), times * default_jobs()


def timed_batch(submissions: list[Path], out: Path, spec: str) -> tuple[list[Graded], float, float]:
    """The class graded as ``spec`` says (job_counts): its grades, the wall time and CPU-s a
    grade."""
    jobs, least = job_counts(spec)
    started, busy = time.monotonic(), busy_seconds()
    graded = run_batch(
        submissions,
        BatchOptions(out=out, labs=LABS, jobs=jobs, least_jobs=least, force=True, progress=lambda line: None),
    )
    seconds = time.monotonic() - started
    return graded, seconds, (busy_seconds() - busy) / max(1, len(graded))


def figures(spec: str, graded: list[Graded], seconds: float, cpu: float, out: Path) -> str:
    slowest = sorted(graded, key=lambda g: -g.seconds)[:SLOWEST]
    jobs, least = job_counts(spec)
    chosen = f" (from {least} to {jobs}: reached {read_manifest(out).jobs})" if least is not None else ""
    return (
        f"--jobs {spec}{chosen}: {seconds:.0f} s, {len(graded) / seconds * 60:.1f} submissions/min, "
        f"{cpu:.1f} CPU-s a grade, {sum(g.seconds for g in graded) / len(graded):.1f} s a grade "
        f"(slowest: {', '.join(f'{g.name} {g.seconds:.0f} s' for g in slowest)})"
    )


def main() -> int:
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=24)
    parser.add_argument(
        "--jobs",
        default="auto,auto2",
        help="grades at once to compare with --jobs 1, a comma list of counts or 'auto' (batch's "
        "default: chosen as it goes) or 'auto2' (that default, both its ends doubled); default: "
        "auto,auto2",
    )
    parser.add_argument("--runs", type=int, default=1, help="runs in a row of each job count")
    parser.add_argument("--keep", type=Path, help="copy each parallel run's output (report.html, ...) here")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="lab-grader-bench-", dir="/var/tmp"))
    try:
        base.chmod(0o755)
        tree = build(base / "fixtures")
        students = pinned_class() if args.size == len(CLASS_OF_24) else roster(args.size)
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
        solo, solo_s, solo_cpu = timed_batch(submissions, base / "solo", "1")
        print(figures("1", solo, solo_s, solo_cpu, base / "solo"), flush=True)
        problems = [f"{g.name}: {g.status} {g.note[:300]}" for g in solo if g.status != GRADED]
        problems += wrong_about_mistakes(students, solo)
        alone = verdicts(solo)
        solo_by = {g.name: g for g in solo}
        for jobs in (j for j in args.jobs.split(",") for _ in range(args.runs)):
            both, both_s, cpu = timed_batch(submissions, base / f"jobs{jobs}", jobs)
            together, both_by = verdicts(both), {g.name: g for g in both}
            differ = [f"{g.name}: {g.status} {g.note[:300]}" for g in both if g.status != GRADED]
            differ += [
                f"{name}: {rid} alone {alone[name][rid]}, with --jobs {jobs} {together[name].get(rid)}"
                + said(rid, solo_by[name], both_by[name])
                for name in alone
                for rid in alone[name]
                if together[name].get(rid) != alone[name][rid]
            ]
            print(
                f"{figures(jobs, both, both_s, cpu, base / f'jobs{jobs}')}; speed-up {solo_s / both_s:.2f}x; "
                f"{'every verdict equals the solo verdict' if not differ else 'VERDICTS DIFFER'}; "
                f"aim (under {AIM:g} s) {'met' if both_s < AIM else 'NOT met'}",
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
