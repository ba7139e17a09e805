"""Mutation testing of the reference solutions against the grader (a benchmark, not CI).

    python -m bench.mutation [FILE...] [--seeds 1,2,3] [--jobs 2] [--report-only]

Python files are mutated by cosmic-ray, the SQL, shell and CSV files by our own operators
(bench/mutation/ops); every mutant is graded by the real grader on the checks of its lab
step. Prints per file: mutants, killed, survived, equivalent and outside (explained in
equivalent.toml), harness errors, the score killed / (mutants - equivalent - outside), the
wall time, then every survivor not yet explained. A kill resting on one or two ids is graded
a second time before it counts (confirm.py). Results and logs go to bench/mutation/results/
(not versioned); --report-only prints the last results again.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from types import FrameType

from fixtures.tree import build

from . import cosmic, textrun
from .confirm import confirm
from .explain import load
from .mutant import TargetResult
from .report import render
from .sandbox import SharedBroker, copy_repo, shared_broker
from .targets import COSMIC_RAY, Target, select
from .verdict import parse_seeds

RESULTS = Path(__file__).resolve().parent / "results"
MQ_AT_ONCE = 2  # mq grader runs are timing-sensitive: never more than two at once


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _progress(target: Target) -> Callable[[int, int], None]:
    last = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 60 or done == total:
            last[0] = now
            print(f"mutants: {target.name}: {done}/{total} graded", flush=True)

    return report


def _run_target(
    target: Target,
    seeds: Sequence[int],
    scratch: Path,
    fixtures: Path,
    broker: SharedBroker,
    stop: threading.Event,
    mq_slots: threading.Semaphore,
) -> TargetResult:
    work = RESULTS / target.name
    work.mkdir(parents=True, exist_ok=True)
    with mq_slots if target.lab == "mq" else ExitStack():
        print(f"mutants: {target.name}: started ({target.engine})", flush=True)
        if target.engine == COSMIC_RAY:
            sandbox = copy_repo(scratch / f"sandbox-{target.name}")
            extra, env = (broker.args, broker.env) if target.lab == "mq" else ((), {})
            return cosmic.run(target, seeds, sandbox, work, env, extra, _progress(target), stop)
        return textrun.run(target, seeds, fixtures, scratch / f"text-{target.name}", _progress(target), stop)


@contextmanager
def _environment(targets: Sequence[Target]) -> Iterator[tuple[Path, Path, SharedBroker]]:
    """A scratch directory, a fixture tree and, when an mq target is among ``targets``, the
    shared broker; all removed at the end."""
    with tempfile.TemporaryDirectory(prefix="lab-mutation-", dir="/var/tmp") as tmp, ExitStack() as stack:
        scratch = Path(tmp)
        scratch.chmod(0o755)  # the node runs as user rabbitmq
        tree = build(scratch / "fixtures")
        broker = SharedBroker()
        if any(t.lab == "mq" for t in targets):
            broker = stack.enter_context(shared_broker(tree.mq_up, scratch / "node"))
        yield scratch, tree.root, broker


def _in_parallel(
    targets: Sequence[Target], jobs: int, job: Callable[[Target], TargetResult], stop: threading.Event
) -> None:
    """``job`` for every target, ``jobs`` at a time, the longest first; each result saved."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(job, t): t for t in sorted(targets, key=lambda t: -t.cost)}
        try:
            for future in as_completed(futures):
                target = futures[future]
                result = future.result()
                result.save(RESULTS / f"{target.name}.json")
                print(
                    f"mutants: {target.name}: done in {result.seconds:.0f} s"
                    + (f" — NOT RUN: {result.fault[:300]}" if result.fault else ""),
                    flush=True,
                )
        except BaseException:
            stop.set()  # running targets stop after their current mutant
            raise


def run_all(targets: Sequence[Target], seeds: Sequence[int], jobs: int) -> None:
    """Grade every mutant of ``targets``."""
    stop, mq_slots = threading.Event(), threading.Semaphore(MQ_AT_ONCE)
    with _environment(targets) as (scratch, fixtures, broker):
        _in_parallel(
            targets, jobs, lambda t: _run_target(t, seeds, scratch, fixtures, broker, stop, mq_slots), stop
        )


def confirm_saved(targets: Sequence[Target], jobs: int) -> None:
    """Grade the thin kills of saved results again (results made before confirmation)."""
    stop, mq_slots = threading.Event(), threading.Semaphore(MQ_AT_ONCE)
    saved = [t for t in targets if (RESULTS / f"{t.name}.json").is_file()]

    def job(target: Target, scratch: Path, fixtures: Path, broker: SharedBroker) -> TargetResult:
        result = TargetResult.load(RESULTS / f"{target.name}.json")
        started = time.monotonic()
        with mq_slots if target.lab == "mq" else ExitStack():
            if target.engine == COSMIC_RAY:
                sandbox = copy_repo(scratch / f"sandbox-{target.name}")
                session = RESULTS / target.name / f"{target.name}.sqlite"
                mutants = cosmic.read_session(target, session, sandbox / target.path)
                extra, env = (broker.args, broker.env) if target.lab == "mq" else ((), {})
                command = cosmic.test_command(target, result.seeds, sandbox, None, extra)
                confirmed = confirm(mutants, lambda m: cosmic.regrade(target, m, sandbox, command, env), stop)
            else:
                mutants = [
                    m if m.occurrence >= 0 else replace(m, occurrence=n) for n, m in enumerate(result.mutants)
                ]
                confirmed = confirm(
                    mutants,
                    lambda m: textrun.regrade(
                        target, m, result.seeds, fixtures, scratch / f"text-{target.name}"
                    ),
                    stop,
                )
        note = f"thin kills graded again in {time.monotonic() - started:.0f} s"
        return replace(result, mutants=tuple(confirmed), notes=(*result.notes, note))

    with _environment(saved) as (scratch, fixtures, broker):
        _in_parallel(saved, jobs, lambda t: job(t, scratch, fixtures, broker), stop)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev.sh mutants", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="solution files (default: all)")
    parser.add_argument(
        "--seeds",
        type=parse_seeds,
        default=(1,),
        help="grader seeds; killed only when every seed kills (default: 1)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="targets graded at once (default 2)")
    parser.add_argument("--report-only", action="store_true", help="print the last results")
    parser.add_argument(
        "--confirm-only",
        action="store_true",
        help="grade the thin kills of the last results again, then report",
    )
    args = parser.parse_args(argv)
    targets = select(args.files)
    explanations = load()  # a broken equivalent.toml fails before the long run, not after
    if not args.report_only:
        signal.signal(signal.SIGTERM, _interrupt)
        RESULTS.mkdir(exist_ok=True)
        started = time.monotonic()
        if args.confirm_only:
            confirm_saved(targets, max(1, args.jobs))
        else:
            run_all(targets, args.seeds, max(1, args.jobs))
        print(f"mutants: wall time {time.monotonic() - started:.0f} s", flush=True)
    results = [
        TargetResult.load(RESULTS / f"{t.name}.json")
        for t in targets
        if (RESULTS / f"{t.name}.json").is_file()
    ]
    seeds = sorted({r.seeds for r in results}, key=lambda s: -sum(r.seeds == s for r in results))
    common = seeds[0] if seeds else (1,)
    print(f"\nMutation score per file (grader seeds {', '.join(map(str, common))}):")
    for r in results:
        if r.seeds != common:
            print(f"  {r.path}: graded under seeds {', '.join(map(str, r.seeds))}")
    print("\n".join(render(results, explanations)))
    return 1 if any(r.fault for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
