"""Benchmark: the queue lab's self-test variants graded under several seeds.

    python bench/seeds.py [--seeds 10] [--jobs 3] [--busy N] [--only NAME ...]

Each variant is walked into its own lab root once and graded by a real grader run per seed
(``--grader-seed``, as tests/grading.py does with LAB_GRADER_SELFTEST_SEED). Prints, per
variant, the ids it failed and whether that set is the same under every seed and equal to
what its variant.toml declares. A verdict that changes with the seed is a check that covers
its edges by luck (or a race in the variant itself: what the grader said is printed). --busy N
keeps N busy loops running beside the grades: load must not change a verdict either. Exit 1
when any verdict differs between seeds or from the declaration.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fixtures.tree import build
from solutions.walkthrough import walk_queue
from tests.grading import Graded as GradeRun
from tests.grading import grade
from tests.terminate import exit_on_sigterm
from tests.variants.variant import Variant, variants

Verdicts = dict[int, frozenset[str]]  # seed -> the ids a variant did not pass
Said = dict[str, str]  # id -> what the grader said (the first time it was not passed, or erred)
Graded = tuple[Variant, Verdicts, Said, Said]  # the verdicts, harness errors and failures


def options(description: str, jobs: int) -> argparse.Namespace:
    """The command line both seed benchmarks share."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=jobs)
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the grades")
    parser.add_argument("--only", nargs="*", default=None)
    return parser.parse_args()


@contextmanager
def busy(loops: int) -> Iterator[None]:
    """``loops`` processes spinning on a core each, for as long as the block runs."""
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(loops)]
    try:
        yield
    finally:
        for p in spinning:
            p.kill()
            p.wait()


def record(graded: GradeRun, seed: int, failed: Verdicts, errors: Said, said: Said) -> None:
    """One grade's verdict under ``seed``, its harness errors and what its failures said."""
    failed[seed] = frozenset(graded.not_passed)
    errors.update({rid: graded.outputs[rid] for rid in graded.errors})
    for rid in failed[seed]:
        said.setdefault(rid, graded.outputs[rid])


def chosen(lab: str, args: argparse.Namespace) -> tuple[list[Variant], list[int]]:
    """The variants asked for and the seeds to grade them under."""
    return (
        [v for v in variants(lab) if args.only is None or v.name in args.only],
        [1000 + 7919 * i for i in range(args.seeds)],
    )


def report(results: list[Graded], seeds: list[int], started: float) -> int:
    """Print each variant's verdicts; 1 when any changed with the seed, differs from its
    declaration, or met a harness error."""
    bad = 0
    for variant, failed, errors, said in results:
        verdicts = set(failed.values())
        steady = len(verdicts) == 1
        declared = all(f == variant.fails for f in failed.values())
        ok = steady and declared and not errors
        bad += not ok
        shown = sorted(next(iter(verdicts))) if steady else "varies"
        print(f"{'ok ' if ok else 'BAD'} {variant.name}: failed {shown} (declared {sorted(variant.fails)})")
        if not steady:
            for seed, ids in failed.items():
                print(f"      seed {seed}: {sorted(ids)}")
        # What the grader said where the verdict varied or went past the declaration.
        for rid in sorted(
            (frozenset.union(*verdicts) - frozenset.intersection(*verdicts))
            | (frozenset.union(*verdicts) - variant.fails)
        ):
            print(f"      {rid} said: " + said[rid].strip()[-900:].replace("\n", "\n      "))
        if errors:
            print(f"      harness errors on {sorted(errors)}; the first said:")
            print("      " + errors[min(errors)].strip()[-600:].replace("\n", "\n      "))
    print(
        f"{len(results)} variants x {len(seeds)} seeds in {time.monotonic() - started:.0f} s: "
        + ("all verdicts identical across seeds and as declared" if not bad else f"{bad} not")
    )
    return 1 if bad else 0


def main() -> int:
    exit_on_sigterm()
    args = options(__doc__.splitlines()[0], jobs=3)
    picked, seeds = chosen("queue", args)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="seeds-", dir="/var/tmp") as tmp:
        base = Path(tmp)
        fixtures = build(base / "fixtures").root

        def grade_all(variant: Variant) -> Graded:
            work = base / variant.name
            walk_queue(work / "root", fixtures, variant.lay_out(work / "solution"))
            variant.after_walk(work / "root" / "q")
            failed: Verdicts = {}
            errors: Said = {}
            said: Said = {}
            for seed in seeds:
                graded = grade(
                    work / "root",
                    fixtures,
                    work / f"state-{seed}",
                    lab="queue",
                    args=("--grader-seed", str(seed)),
                )
                record(graded, seed, failed, errors, said)
            return variant, failed, errors, said

        with busy(args.busy), ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(grade_all, picked))
    return report(results, seeds, started)


if __name__ == "__main__":
    sys.exit(main())
