"""Benchmark: wall time of grading the reference solution, as its users run it.

    python bench/grade_time.py [--runs N]      (./dev.sh bench)

Prints the median (and min/max) wall time of, each a fresh process:
- `pytest grader --lab queue`                    the queue lab (aim: under 2 s)
- `pytest grader --lab mq --lab-root R --broker url ...`
                                                 the mq lab in student mode with a broker
                                                 already running (aim: under 8 s)
- `pytest grader`                                both labs, the private broker's start
                                                 included (aim: under 12 s)
on this machine (the figures in the README were taken on 2 cores), and for each the stages
and scenarios that ended last in its median run: when each started and ended after the grader
started (the critical path), and how long it took (LAB_GRADER_TIMINGS).

``--against DIR`` runs the grader of another checkout (an older commit) turn about with this
one, run for run, on this interpreter: this machine's speed drifts by more than a change is
worth within the hour, so only figures taken side by side compare.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from fixtures.tree import MQ_PLUGINS, build  # noqa: E402
from grader.config import AMQP_URL_VARIABLE, MANAGEMENT_URL_VARIABLE  # noqa: E402
from grader.machinery.broker import start_local  # noqa: E402
from solutions.walkthrough import walk_mq  # noqa: E402
from tests.terminate import exit_on_sigterm  # noqa: E402

URL_FLAGS = (("amqp-url", AMQP_URL_VARIABLE), ("management-url", MANAGEMENT_URL_VARIABLE))
SHOWN = 5  # stages and scenarios listed per case
Timings = list[tuple[str, float, float]]  # (what, started, ended) in seconds after the start


def wall_time(args: list[str], env: dict[str, str] | None = None, repo: Path = REPO) -> tuple[float, Timings]:
    with tempfile.NamedTemporaryFile(prefix="timings-", suffix=".txt") as timings:
        started = time.monotonic()
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider", *args],
            cwd=repo,
            capture_output=True,
            text=True,
            check=False,
            env=os.environ | (env or {}) | {"LAB_GRADER_TIMINGS": timings.name},
        )
        seconds = time.monotonic() - started
        lines = Path(timings.name).read_text().splitlines()  # empty from a grader without it
    if run.returncode != 0:
        sys.exit(f"grading the reference failed (exit {run.returncode}):\n{run.stdout[-3000:]}")
    ended = []
    for line in lines:
        what, begin, end = line.split()
        ended.append((what, float(begin) - started, float(end) - started))
    return seconds, sorted(ended, key=lambda t: -t[2])


@contextmanager
def running_broker() -> Iterator[tuple[list[str], dict[str, str]]]:
    """A node started by the lab's mq-up.sh, a lab root walked with the reference: the grader
    arguments of a student-mode mq grade against that running broker."""
    base = Path(tempfile.mkdtemp(prefix="lab-grader-bench-", dir="/var/tmp"))
    base.chmod(0o755)  # the node runs as user rabbitmq
    tree = build(base / "fixtures")
    broker = start_local(tree.mq_up, base / "node", plugins=MQ_PLUGINS)
    try:
        assert broker.ctl is not None
        walk_mq(base / "root", broker.ctl(["status"], 60))
        yield [
            "--lab", "mq", "--lab-root", str(base / "root"), "--fixtures-dir", str(tree.root),
            "--state-dir", str(base / "state"), "--broker", "url", "--rabbitmq-node", broker.node,
        ], {
            **broker.ctl_env,  # the administrator's URLs where no other user reads them
            AMQP_URL_VARIABLE: broker.amqp_url("/"),
            MANAGEMENT_URL_VARIABLE: f"http://127.0.0.1:{broker.mgmt_port}",
        }  # fmt: skip
    finally:
        broker.stop()
        shutil.rmtree(base, ignore_errors=True)


def report(label: str, measured: list[tuple[float, Timings]]) -> None:
    times = [seconds for seconds, _ in measured]
    print(
        f"{label}: median {statistics.median(times):.2f} s "
        f"(min {min(times):.2f}, max {max(times):.2f}, {len(times)} runs)",
        flush=True,
    )
    median_run = sorted(measured, key=lambda m: m[0])[len(measured) // 2]
    for what, begin, end in median_run[1][:SHOWN]:
        print(f"    {what:<28} {begin:6.2f} -> {end:6.2f} s  ({end - begin:.2f} s)", flush=True)


def _as_before(args: list[str], env: dict[str, str]) -> list[str]:
    """An older checkout's arguments: one from before the broker's URLs were read from the
    environment takes them on its command line (a benchmark's own node: no script reads it)."""
    urls = [(f"--{flag}", env[name]) for flag, name in URL_FLAGS if name in env and "--broker" in args]
    return [*args, *(part for pair in urls for part in pair)]


def measured(label: str, runs: int, args: list[str], env: dict[str, str], against: Path | None) -> None:
    """``runs`` grades of this checkout, and with ``against`` as many of that one, turn about."""
    ours: list[tuple[float, Timings]] = []
    theirs: list[tuple[float, Timings]] = []
    for n in range(runs):
        order = [(ours, REPO), (theirs, against)] if against is not None else [(ours, REPO)]
        for into, repo in order if n % 2 == 0 else order[::-1]:
            into.append(wall_time(args if repo == REPO else _as_before(args, env), env, repo))
    report(label, ours)
    if against is not None:
        report(f"{label} [{against}]", theirs)


def main() -> int:
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--case", choices=("queue", "mq", "full"), action="append", help="only these (repeatable)"
    )
    parser.add_argument("--against", type=Path, help="another checkout, graded turn about with this one")
    options = parser.parse_args()
    runs, cases, against = options.runs, options.case or ["queue", "mq", "full"], options.against
    if "queue" in cases:
        measured("pytest grader --lab queue", runs, ["--lab", "queue"], {}, against)
    if "mq" in cases:
        with running_broker() as (args, env):
            measured("pytest grader --lab mq (student mode, broker running)", runs, args, env, against)
    if "full" in cases:
        measured("pytest grader (both labs, broker start included)", runs, [], {}, against)
    return 0


if __name__ == "__main__":
    sys.exit(main())
