"""Mutation testing of the reference solutions against the grader (a benchmark, not CI).

    python -m bench.mutation [FILE...] [--seeds 1,2,3] [--jobs 2] [--report-only]

Python files are mutated by cosmic-ray, the SQL, shell and CSV files by our own operators
(bench/mutation/ops); every mutant is graded by the real grader on the checks of its lab
step. Prints per file: mutants, killed, survived, equivalent and outside (explained in
equivalent.toml), harness errors, the score killed / (mutants - equivalent - outside), the
wall time, then every survivor not yet explained. Results and logs go to
bench/mutation/results/ (not versioned); --report-only prints the last results again.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import ExitStack
from pathlib import Path
from types import FrameType

from fixtures.tree import build

from . import cosmic, textrun
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


def _run_target(target: Target, seeds: Sequence[int], scratch: Path, fixtures: Path,
                broker: SharedBroker, stop: threading.Event, mq_slots: threading.Semaphore
                ) -> TargetResult:
    work = RESULTS / target.name
    work.mkdir(parents=True, exist_ok=True)
    with mq_slots if target.lab == "mq" else ExitStack():
        print(f"mutants: {target.name}: started ({target.engine})", flush=True)
        if target.engine == COSMIC_RAY:
            sandbox = copy_repo(scratch / f"sandbox-{target.name}")
            extra, env = (broker.args, broker.env) if target.lab == "mq" else ((), {})
            return cosmic.run(target, seeds, sandbox, work, env, extra, _progress(target), stop)
        return textrun.run(target, seeds, fixtures, scratch / f"text-{target.name}",
                           _progress(target), stop)


def run_all(targets: Sequence[Target], seeds: Sequence[int], jobs: int) -> None:
    """Grade every mutant of ``targets``, ``jobs`` targets at a time, the longest first."""
    stop = threading.Event()
    mq_slots = threading.Semaphore(MQ_AT_ONCE)
    with tempfile.TemporaryDirectory(prefix="lab-mutation-", dir="/var/tmp") as tmp, \
            ExitStack() as stack:
        scratch = Path(tmp)
        scratch.chmod(0o755)  # the node runs as user rabbitmq
        tree = build(scratch / "fixtures")
        broker = SharedBroker()
        if any(t.lab == "mq" for t in targets):
            broker = stack.enter_context(shared_broker(tree.mq_up, scratch / "node"))
        pool = stack.enter_context(ThreadPoolExecutor(max_workers=jobs))
        ordered = sorted(targets, key=lambda t: -t.cost)
        futures = {pool.submit(_run_target, t, seeds, scratch, tree.root, broker, stop, mq_slots): t
                   for t in ordered}
        try:
            for future in as_completed(futures):
                target = futures[future]
                result = future.result()
                result.save(RESULTS / f"{target.name}.json")
                print(f"mutants: {target.name}: done in {result.seconds:.0f} s"
                      + (f" — NOT RUN: {result.fault[:300]}" if result.fault else ""), flush=True)
        except BaseException:
            stop.set()  # running targets stop after their current mutant
            raise


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev.sh mutants", description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="solution files (default: all)")
    parser.add_argument("--seeds", type=parse_seeds, default=(1,),
                        help="grader seeds; killed only when every seed kills (default: 1)")
    parser.add_argument("--jobs", type=int, default=2, help="targets graded at once (default 2)")
    parser.add_argument("--report-only", action="store_true", help="print the last results")
    args = parser.parse_args(argv)
    targets = select(args.files)
    explanations = load()  # a broken equivalent.toml fails before the long run, not after
    if not args.report_only:
        signal.signal(signal.SIGTERM, _interrupt)
        RESULTS.mkdir(exist_ok=True)
        started = time.monotonic()
        run_all(targets, args.seeds, max(1, args.jobs))
        print(f"mutants: wall time {time.monotonic() - started:.0f} s", flush=True)
    results = [TargetResult.load(RESULTS / f"{t.name}.json") for t in targets
               if (RESULTS / f"{t.name}.json").is_file()]
    seeds = sorted({s for r in results for s in r.seeds})
    print(f"\nMutation score per file (grader seeds {seeds}):")
    print("\n".join(render(results, explanations)))
    return 1 if any(r.fault for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
