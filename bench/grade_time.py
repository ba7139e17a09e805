"""Benchmark: wall time of `pytest grader` on the reference solution.

    python bench/grade_time.py [--runs N]

Prints the wall time of `pytest grader --lab queue` (target: under 5 s on a 2-core machine)
and of a full `pytest grader` (both labs, the private RabbitMQ node's start included; target:
under 20 s). Each is a fresh process, so nothing is cached between runs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CASES = {"pytest grader --lab queue": ["--lab", "queue"], "pytest grader (both labs)": []}


def wall_time(args: list[str]) -> float:
    started = time.monotonic()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.monotonic() - started
    if run.returncode != 0:
        sys.exit(f"grading the reference failed (exit {run.returncode}):\n{run.stdout[-3000:]}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    for label, args in CASES.items():
        times = [wall_time(args) for _ in range(runs)]
        print(
            f"{label}: median {statistics.median(times):.2f} s "
            f"(min {min(times):.2f}, max {max(times):.2f}, {runs} runs)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
