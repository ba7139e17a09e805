"""Benchmark: the reference grade alone, then N graders at once on one broker.

    python bench/load.py [--at-once 8] [--broker URL --management-url URL --rabbitmq-node NODE]

Without --broker a private node is started for the benchmark (mq-up.sh, as the self-tests
do) and every grader reaches it with ``--broker url``. Prints the solo wall time, each
concurrent run's wall time and its ratio to solo (aim: under 3x on a 2-core machine), and
fails (exit 1) when any concurrent run's verdicts differ from the solo run's or it has a
harness error: load must never change a verdict.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from fixtures.tree import MQ_PLUGINS, build
from grader.config import AMQP_URL_VARIABLE, MANAGEMENT_URL_VARIABLE
from grader.machinery.broker import Broker, start_local
from tests.terminate import exit_on_sigterm

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Run:
    seconds: float
    returncode: int
    verdicts: dict[str, str]  # id -> passed / failed / error
    errors: list[str]


def grade(broker_args: list[str], env: dict[str, str], state: Path, extra: list[str]) -> Run:
    results = state.parent / f"{state.name}.json"
    argv = [sys.executable, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider", *broker_args]
    argv += ["--state-dir", str(state), "--results-json", str(results), *extra]
    started = time.monotonic()
    run = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, env=env, check=False)
    seconds = time.monotonic() - started
    data = json.loads(results.read_text())
    verdicts = {t["number"]: t["extra_data"]["outcome"] for t in data["tests"]}
    errors = [  # what was seen, not the script's output tail
        t["number"] + ": " + " ".join(t["output"].split())[:400]
        for t in data["tests"]
        if t["extra_data"]["outcome"] != "passed"
    ]
    errors += data["extra_data"]["faults"]
    return Run(seconds, run.returncode, verdicts, errors)


def main() -> int:
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at-once", type=int, default=8)
    parser.add_argument("--broker", help="an AMQP URL with admin rights (default: a private node)")
    parser.add_argument("--management-url")
    parser.add_argument("--rabbitmq-node")
    parser.add_argument("--lab", choices=("queue", "mq"), help="one lab only (default: both)")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="lab-grader-load-", dir="/var/tmp"))
    base.chmod(0o755)  # the private node runs as user rabbitmq below it
    broker: Broker | None = None
    env = dict(os.environ)
    try:
        if args.broker:
            url, mgmt, node = args.broker, args.management_url, args.rabbitmq_node
        else:
            broker = start_local(build(base / "fixtures").mq_up, base / "node", plugins=MQ_PLUGINS)
            url, mgmt, node = broker.amqp_url("/"), f"http://127.0.0.1:{broker.mgmt_port}", broker.node
            env |= broker.ctl_env
        broker_args = ["--broker", "url", *(["--rabbitmq-node", node] if node else [])]
        env[AMQP_URL_VARIABLE] = url  # where no other user reads it, unlike a command line
        if mgmt:
            env[MANAGEMENT_URL_VARIABLE] = mgmt
        extra = ["--lab", args.lab] if args.lab else []
        solo = grade(broker_args, env, base / "solo", extra)
        print(f"solo: {solo.seconds:.1f} s, exit {solo.returncode}, {len(solo.verdicts)} ids")
        for error in solo.errors:
            print(f"  solo not passed: {error}")
        with ThreadPoolExecutor(max_workers=args.at_once) as pool:
            runs = list(
                pool.map(lambda i: grade(broker_args, env, base / f"run{i}", extra), range(args.at_once))
            )
        flips = 0
        for i, run in enumerate(runs):
            changed = sorted(rid for rid in solo.verdicts if run.verdicts.get(rid) != solo.verdicts[rid])
            flips += len(changed) + (run.returncode != solo.returncode)
            ratio = run.seconds / solo.seconds
            same = f", verdicts differ on {', '.join(changed)}" if changed else ", same verdicts"
            print(f"run {i}: {run.seconds:.1f} s ({ratio:.1f}x solo), exit {run.returncode}{same}")
            for error in run.errors:
                print(f"  not passed: {error}")
        worst = max(run.seconds for run in runs)
        ratio = worst / solo.seconds
        print(f"{args.at_once} at once: slowest {worst:.1f} s = {ratio:.1f}x solo (aim: under 3x)")
        return 1 if flips else 0
    finally:
        if broker is not None:
            broker.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
