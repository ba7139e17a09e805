"""Benchmark: the mq lab's self-test variants graded under several seeds.

    python bench/mq_seeds.py [--seeds 10] [--jobs 2] [--only NAME ...]

Starts one private RabbitMQ node (as the self-tests do), walks each variant into its own lab
root once, and grades it by a real grader run per seed (``--grader-seed``). Prints, per
variant, the ids it failed and whether that set is the same under every seed and equal to what
its variant.toml declares. A verdict that changes with the seed is a check that covers its
edges by luck. Exit 1 when any verdict differs between seeds or from the declaration, or a
harness error occurred. Heavy: run it under `flock /work/heavy.lock`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fixtures.tree import build
from grader.machinery.broker import start_local
from tests.conftest import SharedBroker
from tests.test_variants import grade_mq
from tests.variants.variant import Variant, variants


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    chosen = [v for v in variants("mq") if args.only is None or v.name in args.only]
    seeds = [1000 + 7919 * i for i in range(args.seeds)]
    started = time.monotonic()
    # The node runs as user rabbitmq: its directory must be reachable.
    base = Path(tempfile.mkdtemp(prefix="mq-seeds-", dir="/var/tmp"))
    base.chmod(0o755)
    node = start_local(build(base / "fixtures").mq_up, base / "node")
    try:
        broker = SharedBroker(node)
        status = broker.status()
        fixtures = base / "fixtures"

        def grade_all(variant: Variant) -> tuple[Variant, dict[int, frozenset[str]], set[str]]:
            failed: dict[int, frozenset[str]] = {}
            errors: set[str] = set()
            for seed in seeds:
                graded = grade_mq(variant, base / variant.name, fixtures, broker, status, seed)
                failed[seed] = frozenset(graded.not_passed)
                errors |= graded.errors
            return variant, failed, errors

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(grade_all, chosen))
    finally:
        node.stop()
        shutil.rmtree(base, ignore_errors=True)
    bad = 0
    for variant, failed, errors in results:
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
        if errors:
            print(f"      harness errors on {sorted(errors)}")
    print(
        f"{len(results)} variants x {len(seeds)} seeds in {time.monotonic() - started:.0f} s: "
        + ("all verdicts identical across seeds and as declared" if not bad else f"{bad} not")
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
