"""Benchmark: the mq lab's self-test variants graded under several seeds.

    python bench/mq_seeds.py [--seeds 10] [--jobs 2] [--busy N] [--only NAME ...]

Starts one private RabbitMQ node (as the self-tests do), walks each variant into its own lab
root once, and grades it by a real grader run per seed (``--grader-seed``). Prints, per
variant, the ids it failed and whether that set is the same under every seed and equal to what
its variant.toml declares. A verdict that changes with the seed is a check that covers its
edges by luck; --busy N keeps N busy loops beside the grades. Exit 1 when any verdict
differs between seeds or from the declaration, or a harness error occurred. Heavy: run it
under `flock /work/heavy.lock`.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.seeds import Graded, Said, Verdicts, busy, chosen, options, record, report
from fixtures.tree import MQ_PLUGINS, build
from grader.machinery.broker import start_local
from tests.conftest import SharedBroker
from tests.terminate import exit_on_sigterm
from tests.test_variants import grade_mq
from tests.variants.variant import Variant


def main() -> int:
    exit_on_sigterm()
    args = options(__doc__.splitlines()[0], jobs=2)
    picked, seeds = chosen("mq", args)
    started = time.monotonic()
    # The node runs as user rabbitmq: its directory must be reachable.
    base = Path(tempfile.mkdtemp(prefix="mq-seeds-", dir="/var/tmp"))
    base.chmod(0o755)
    node = start_local(build(base / "fixtures").mq_up, base / "node", plugins=MQ_PLUGINS)
    try:
        broker = SharedBroker(node)
        status = broker.status()
        fixtures = base / "fixtures"

        def grade_all(variant: Variant) -> Graded:
            failed: Verdicts = {}
            errors: Said = {}
            said: Said = {}
            for seed in seeds:
                graded = grade_mq(variant, base / variant.name, fixtures, broker, status, seed)
                record(graded, seed, failed, errors, said)
            return variant, failed, errors, said

        with busy(args.busy), ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(grade_all, picked))
    finally:
        node.stop()
        shutil.rmtree(base, ignore_errors=True)
    return report(results, seeds, started)


if __name__ == "__main__":
    sys.exit(main())
