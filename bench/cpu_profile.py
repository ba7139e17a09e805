"""Benchmark: where the CPU of an mq grade goes, by kind of process (issue 17, item 2).

    python bench/cpu_profile.py [--runs N] [--against DIR]

Grades the reference mq lab in student mode against a broker already running (as
bench/grade_time.py does) under BSD process accounting (`accton`, Debian's package acct), and
prints the CPU-seconds of each kind of process the grade ran, the median of ``--runs``:

- the node: every process whose environment names the benchmark's node (read from /proc
  before and after: it outlives the grade);
- the grader: the pytest process itself;
- Erlang VMs: the live watch's bare VM and any rabbitmqctl the grade ran;
- scripts: every process of the run's identity (uids from identity.FIRST), the student's
  scripts and what they start, in their boxes or on the host;
- helpers: the grader's other processes (claim partners, box launchers and keepers, bwrap).

Only processes that ended during the grade and descend from it are counted (the node apart):
other work on the machine stays out of the figures, though it slows them. ``--against DIR``
measures another checkout turn about with this one, as grade_time.py does.
"""

from __future__ import annotations

import argparse
import collections
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.grade_time import _as_before, running_broker  # noqa: E402
from grader.machinery.identity import COUNT, FIRST  # noqa: E402
from tests.terminate import exit_on_sigterm  # noqa: E402

# struct acct_v3 (linux/acct.h): flag, version, tty, exitcode, uid, gid, pid, ppid, btime,
# etime, then utime, stime, mem, io, rw, minflt, majflt, swaps (comp_t), then comm[16]
RECORD = struct.Struct("<BBHIIIIIIf8H16s")
GRADE = [sys.executable, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider"]
KINDS = ("node", "grader", "Erlang VMs", "scripts", "helpers")
Counted = dict[str, float]


def _comp(value: int) -> float:
    """A comp_t (13-bit mantissa, 3-bit base-8 exponent) of clock ticks, in seconds."""
    return ((value & 0x1FFF) << (3 * (value >> 13))) / 100


def _records(path: Path) -> list[tuple[int, int, int, float, str]]:
    """(pid, ppid, uid, CPU-seconds, command name) of each process accounting recorded."""
    data = path.read_bytes()
    found = []
    for offset in range(0, len(data) - RECORD.size + 1, RECORD.size):
        fields = RECORD.unpack_from(data, offset)
        uid, pid, ppid = fields[4], fields[6], fields[7]
        comm = fields[18].split(b"\0")[0].decode(errors="replace")
        found.append((pid, ppid, uid, _comp(fields[10]) + _comp(fields[11]), comm))
    return found


def _node_cpu(marker: str) -> float:
    """CPU-seconds so far of the processes whose environment holds ``marker``."""
    total, ticks = 0.0, os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or marker.encode() not in (entry / "environ").read_bytes():
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def _kind(pid: int, uid: int, comm: str, root: int) -> str:
    if pid == root:
        return "grader"
    if FIRST <= uid < FIRST + COUNT:
        return "scripts"
    if comm.startswith(("beam", "erl_child", "inet_gethost")) or "sched" in comm or "poller" in comm:
        return "Erlang VMs"
    return "helpers"


def profiled(argv: list[str], cwd: Path, env: dict[str, str], node: str) -> tuple[float, Counted]:
    """One grade's wall time and CPU-seconds by kind."""
    with tempfile.TemporaryDirectory(prefix="lab-grader-acct-") as folder:
        accounts = Path(folder) / "pacct"
        accounts.touch()
        subprocess.run(["accton", str(accounts)], check=True, capture_output=True)
        try:
            node_before, started = _node_cpu(node), time.monotonic()
            grade = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
            wall = time.monotonic() - started
            node_cpu = _node_cpu(node) - node_before
        finally:
            subprocess.run(["accton", "off"], check=True, capture_output=True)
        if grade.returncode != 0:
            sys.exit(f"grading the reference failed (exit {grade.returncode}):\n{grade.stdout[-3000:]}")
        records = _records(accounts)
    parent = {pid: ppid for pid, ppid, _, _, _ in records}
    root = _grader_pid(records)
    counted: Counted = collections.defaultdict(float)
    counted["node"] = node_cpu
    for pid, _, uid, cpu, comm in records:
        if _descends(pid, root, parent):
            counted[_kind(pid, uid, comm, root)] += cpu
    return wall, counted


def _grader_pid(records: list[tuple[int, int, int, float, str]]) -> int:
    """The grade's own process: the interpreter this benchmark started (accton is one too)."""
    mine = (pid for pid, ppid, _, _, comm in records if ppid == os.getpid() and comm.startswith("python"))
    return next(mine, -1)


def _descends(pid: int, root: int, parent: dict[int, int]) -> bool:
    for _ in range(64):
        if pid == root:
            return True
        if pid not in parent:
            return False
        pid = parent[pid]
    return False


def report(label: str, runs: list[tuple[float, Counted]]) -> None:
    walls = [wall for wall, _ in runs]
    medians = {kind: statistics.median(c.get(kind, 0.0) for _, c in runs) for kind in KINDS}
    print(f"{label}: wall median {statistics.median(walls):.2f} s, CPU-seconds (medians):", flush=True)
    for kind in KINDS:
        print(f"    {kind:<12} {medians[kind]:6.2f}", flush=True)
    print(f"    {'in all':<12} {sum(medians.values()):6.2f}", flush=True)


def main() -> int:
    exit_on_sigterm()
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout, measured turn about with this one")
    options = parser.parse_args()
    if shutil.which("accton") is None:
        sys.exit("accton is missing: apt-get install -y acct (BSD process accounting)")
    repos = [REPO, *([options.against.resolve()] if options.against else [])]
    measured: dict[Path, list[tuple[float, Counted]]] = {repo: [] for repo in repos}
    with running_broker() as (args, env):
        node = str(Path(args[args.index("--state-dir") + 1]).parent / "node")
        for n in range(options.runs):
            for repo in repos if n % 2 == 0 else repos[::-1]:
                grader_args = args if repo == REPO else _as_before(args, env)
                measured[repo].append(profiled([*GRADE, *grader_args], repo, os.environ | env, node))
    for repo, runs in measured.items():
        report("student-mode mq grade" + ("" if repo == REPO else f" [{repo}]"), runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
