"""``python -m grader``: the class tools around ``pytest grader``.

python -m grader pack --lab-root /root -o FILE.tar.gz
python -m grader batch SUBMISSION... --out DIR [--jobs N] [--lab queue|mq] [--force] [--shard K/N]
python -m grader merge OUT... --out DIR
python -m grader grade SUBMISSION --lab-root /root --results-json F [--markdown F]
python -m grader gradescope -o autograder.zip
python -m grader dist -o DIR
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from grader.classroom.shards import parse_shard
from grader.classroom.version import tool_version
from grader.config import AMQP_URL_VARIABLE, MANAGEMENT_URL_VARIABLE
from grader.labs import LAB_NAMES as LABS


def _labs(lab: str | None) -> tuple[str, ...]:
    return LABS if lab is None else (lab,)


def cmd_pack(args: argparse.Namespace) -> int:
    from grader.classroom.submission import UnsafeSubmission, pack

    try:
        manifest = pack(args.lab_root, args.output)
    except UnsafeSubmission as exc:
        print(f"pack: {exc}", file=sys.stderr)
        return 1
    print(f"pack: {args.output} ({len(manifest.files)} files from {manifest.lab_root})")
    return 0


def cmd_batch(args: argparse.Namespace) -> int:
    from grader.classroom.batch import FAULT, BatchOptions, jobs_for, run_batch
    from grader.classroom.infra import ExternalBroker
    from grader.classroom.runjob import sandbox_options
    from grader.classroom.shards import WHOLE
    from grader.machinery.interrupts import Interrupts
    from grader.machinery.sandbox import NONE
    from grader.machinery.urls import password_as_written

    scripts_root, sandbox = sandbox_options(args.scripts_root, args.sandbox)
    if sandbox == NONE and password_as_written(args.amqp_url, args.management_url):
        raise SystemExit(
            "batch: --amqp-url/--management-url hold the broker administrator's password on a "
            "command line, which every user reads, and without namespaces the students' scripts "
            f"run as users of this machine: pass them in ${AMQP_URL_VARIABLE} and "
            f"${MANAGEMENT_URL_VARIABLE} instead (a process's environment is its user's alone)"
        )
    jobs, least_jobs, fewer = jobs_for(args.jobs, _labs(args.lab), sandbox != NONE)
    if fewer:
        print(fewer, file=sys.stderr)
    amqp_url = args.amqp_url or os.environ.get(AMQP_URL_VARIABLE)
    management_url = args.management_url or os.environ.get(MANAGEMENT_URL_VARIABLE)
    options = BatchOptions(
        out=args.out,
        labs=_labs(args.lab),
        jobs=jobs,
        timeout=args.timeout,
        force=args.force,
        fixtures_dir=args.fixtures_dir,
        broker=ExternalBroker(amqp_url, management_url, args.rabbitmq_node) if amqp_url else None,
        scripts_root=scripts_root,
        sandbox=sandbox,
        shard=args.shard or WHOLE,
        least_jobs=least_jobs,
    )
    # The first Ctrl-C (or SIGTERM, SIGHUP) stops the batch: every grader run is stopped and
    # restores its copy; later ones only say so, so they cannot cut that cleanup short.
    Interrupts().install()
    try:
        graded = run_batch(args.submissions, options)
    except KeyboardInterrupt:
        print(f"batch: interrupted; {args.out} holds no finished output (run it again)", file=sys.stderr)
        return 130
    faults = [g.name for g in graded if g.status == FAULT]
    print(f"batch: {len(graded)} submissions → {args.out / 'grades.csv'}, {args.out / 'report.html'}")
    if faults:
        print(f"batch: grader errors (not grades; rerun): {', '.join(faults)}", file=sys.stderr)
        return 1
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    from grader.classroom.batch import FAULT
    from grader.classroom.merge import MergeRefused, merge

    try:
        graded = merge(args.outputs, args.out)
    except MergeRefused as exc:
        print(
            f"merge: refused, nothing written: these outputs do not belong together:\n{exc}", file=sys.stderr
        )
        return 2
    print(
        f"merge: {len(args.outputs)} shard(s), {len(graded)} students → "
        f"{args.out / 'grades.csv'}, {args.out / 'report.html'}"
    )
    faults = [g.name for g in graded if g.status == FAULT]
    if faults:
        print(f"merge: grader errors (not grades; rerun their shards): {', '.join(faults)}", file=sys.stderr)
        return 1
    return 0


def cmd_grade(args: argparse.Namespace) -> int:
    from grader.classroom.single import SingleOptions, grade

    return grade(
        args.submission,
        SingleOptions(
            lab_root=args.lab_root,
            results_json=args.results_json,
            labs=_labs(args.lab),
            markdown=args.markdown,
            fixtures_dir=args.fixtures_dir,
            withhold_faults=args.grader_fault == "withhold",
        ),
    )


def cmd_gradescope(args: argparse.Namespace) -> int:
    from grader.classroom.gradescope import build_bundle

    names = build_bundle(args.output)
    print(f"gradescope: {args.output} ({len(names)} files; upload it as the autograder)")
    return 0


def cmd_dist(args: argparse.Namespace) -> int:
    from grader.classroom.gradescope import build_dist

    names = build_dist(args.output)
    print(f"dist: {args.output} ({len(names)} files; no reference solutions)")
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m grader", description=__doc__.splitlines()[0])
    p.add_argument("--version", action="version", version=tool_version())
    sub = p.add_subparsers(required=True, metavar="COMMAND")

    pack = sub.add_parser("pack", help="pack LAB_ROOT/q and LAB_ROOT/eaimw/mq into one file")
    pack.add_argument("--lab-root", type=Path, default=Path("/root"))
    pack.add_argument("-o", "--output", type=Path, required=True)
    pack.set_defaults(func=cmd_pack)

    batch = sub.add_parser("batch", help="grade every submission of a class")
    batch.add_argument(
        "submissions", type=Path, nargs="+", help="packed files, or folders holding q/ and/or eaimw/mq/"
    )
    batch.add_argument("--out", type=Path, required=True)
    batch.add_argument(
        "--jobs",
        type=int,
        help="submissions graded at once (default: chosen as it goes, from one per CPU core up "
        "to two per core while the cores have time to spare)",
    )
    batch.add_argument("--lab", choices=LABS)
    batch.add_argument("--force", action="store_true", help="regrade unchanged submissions too")
    batch.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="wall-clock limit of one submission's grade, seconds (300)",
    )
    batch.add_argument("--fixtures-dir", type=Path, help="default: built fresh")
    batch.add_argument(
        "--scripts-root",
        type=Path,
        help="where the students' scripts see "
        "their lab root (default: /root where the grader's namespace sandbox works here; "
        "without namespaces each copy is graded where it is unpacked)",
    )
    batch.add_argument("--sandbox", choices=("auto", "namespace", "none"), default="auto")
    batch.add_argument(
        "--amqp-url",
        help="use this broker (administrator rights) instead of starting a private one; better "
        f"${AMQP_URL_VARIABLE}, which no other user reads (refused here without namespaces)",
    )
    batch.add_argument("--management-url", help=f"its management API (or ${MANAGEMENT_URL_VARIABLE})")
    batch.add_argument("--rabbitmq-node")
    batch.add_argument(
        "--shard",
        type=parse_shard,
        metavar="K/N",
        help="grade only shard K of N: the submissions whose student's name hashes to K (the "
        "same student is always in the same shard); join the N outputs with merge",
    )
    batch.set_defaults(func=cmd_batch)

    merge = sub.add_parser(
        "merge", help="join the outputs of a class graded in shards (batch --shard K/N) into one"
    )
    merge.add_argument("outputs", type=Path, nargs="+", metavar="OUT", help="each shard's batch --out")
    merge.add_argument("--out", type=Path, required=True, help="where the merged class goes")
    merge.set_defaults(func=cmd_merge)

    grade = sub.add_parser(
        "grade", help="grade one submission on a machine made for it (Gradescope, GitHub Actions)"
    )
    grade.add_argument("submission", type=Path)
    grade.add_argument(
        "--lab-root",
        type=Path,
        required=True,
        help="where to lay the submission out; q/ and eaimw/mq/ must not exist",
    )
    grade.add_argument("--results-json", type=Path, required=True)
    grade.add_argument("--markdown", type=Path, help="append the scoreboard as Markdown here")
    grade.add_argument("--lab", choices=LABS)
    grade.add_argument("--fixtures-dir", type=Path, help="default: built fresh")
    grade.add_argument(
        "--grader-fault",
        choices=("report", "withhold"),
        default="report",
        help="on a grader fault: results.json says so (report), or is not "
        "written at all (withhold: Gradescope shows a failed run, not 0 points)",
    )
    grade.set_defaults(func=cmd_grade)

    dist = sub.add_parser("dist", help="the grader directory students get in their pods (no solutions)")
    dist.add_argument("-o", "--output", type=Path, required=True)
    dist.set_defaults(func=cmd_dist)

    bundle = sub.add_parser("gradescope", help="build the Gradescope autograder bundle")
    bundle.add_argument("-o", "--output", type=Path, default=Path("autograder.zip"))
    bundle.set_defaults(func=cmd_gradescope)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
