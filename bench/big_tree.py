"""Benchmark: a queue grade of a student's lab root, plain and with 100,000 extra files in q/done.

    python bench/big_tree.py [--files 100000] [--runs 3] [--sandbox auto|namespace|none]

The grader's time must grow with what it changes, not with the size of the student's tree:
the files in q/done are never copied nor moved (aim: at most 3x the plain time). Prints the
median wall time of each and their ratio; checks the lab root is byte for byte the same after.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # solutions/ is not an installed package

from fixtures.tree import build  # noqa: E402
from grader.machinery.snapshot import tree_digest  # noqa: E402
from solutions.walkthrough import walk_queue  # noqa: E402


def wall_time(root: Path, fixtures: Path, state: Path, sandbox: str) -> float:
    argv = [sys.executable, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider", "--lab", "queue"]
    argv += ["--lab-root", str(root), "--fixtures-dir", str(fixtures), "--state-dir", str(state)]
    argv += ["--sandbox", sandbox]
    started = time.monotonic()
    run = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    # The extra files fail Q1.2 and Q4.1 (files the fixtures do not have): a verdict, not a fault.
    if run.returncode not in (0, 1) or "채점기 오류" in run.stdout:
        sys.exit(f"grading failed (exit {run.returncode}):\n{run.stdout[-3000:]}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sandbox", default="auto", choices=("auto", "namespace", "none"))
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="lab-grader-big-", dir="/var/tmp"))
    try:
        fixtures = build(base / "fixtures")
        root = base / "root"
        walk_queue(root, fixtures.root)
        state = base / "state"
        plain = [wall_time(root, fixtures.root, state, args.sandbox) for _ in range(args.runs)]
        done = root / "q" / "done"
        for i in range(args.files):
            (done / f"extra-{i:06d}.json").write_bytes(b"{}\n")
        before = tree_digest(root)
        big = [wall_time(root, fixtures.root, state, args.sandbox) for _ in range(args.runs)]
        if tree_digest(root) != before:
            sys.exit("the lab root changed")
        p, b = statistics.median(plain), statistics.median(big)
        print(f"queue grade, plain: median {p:.2f} s (min {min(plain):.2f}, max {max(plain):.2f})")
        spread = f"(min {min(big):.2f}, max {max(big):.2f})"
        print(f"queue grade, {args.files} extra files in q/done: median {b:.2f} s {spread}")
        print(f"ratio: {b / p:.2f}x (aim: at most 3x); sandbox {args.sandbox}; lab root unchanged")
        return 0
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
