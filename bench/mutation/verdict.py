"""One mutant's verdict: grade it with the real grader and read the per-id outcomes.

Killed means the grader exited non-zero with at least one requirement id FAILED and none in
ERROR. An id in ERROR is a harness fault, a grader run that did not finish in time is a
timeout: neither is ever a kill. Graded under several seeds, a mutant is killed only when
every seed kills it; killed under some seeds only, it is ``seed-dependent`` (a check whose
verdict depends on the seed, which issue 6 wants gone).

Also the test command cosmic-ray runs for each mutant::

    python -m bench.mutation.verdict [--seeds 1,2] [--timeout S] [--state-dir D] [--log F] \\
        -- GRADER ARGS...

It prints one line ``mutation-verdict {json}`` and exits 0 (survived or seed-dependent),
1 (killed) or 2 (error or timeout; cosmic-ray calls any non-zero exit a kill, so the
benchmark reads the printed verdict, never cosmic-ray's own outcome).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

PREFIX = "mutation-verdict "
KILLED, SURVIVED, SEED_DEPENDENT, ERROR, TIMEOUT = (
    "killed",
    "survived",
    "seed-dependent",
    "error",
    "timeout",
)
EXIT_CODES = {SURVIVED: 0, SEED_DEPENDENT: 0, KILLED: 1, ERROR: 2, TIMEOUT: 2}


@dataclass(frozen=True)
class Run:
    """One grader run under one seed."""

    seed: int
    status: str  # killed, survived, error or timeout
    failed: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    returncode: int | None = None
    seconds: float = 0.0
    detail: str = ""  # the failed ids' messages, or what went wrong


@dataclass(frozen=True)
class Verdict:
    status: str
    runs: tuple[Run, ...]

    @property
    def failed(self) -> tuple[str, ...]:
        return tuple(sorted({rid for run in self.runs for rid in run.failed}))

    @property
    def errors(self) -> tuple[str, ...]:
        return tuple(sorted({rid for run in self.runs for rid in run.errors}))

    @property
    def detail(self) -> str:
        return "\n".join(f"seed {r.seed}: {r.status} {r.detail}".rstrip() for r in self.runs)

    def to_line(self) -> str:
        return PREFIX + json.dumps(
            {"status": self.status, "runs": [asdict(r) for r in self.runs]}, ensure_ascii=False
        )

    @classmethod
    def from_output(cls, output: str) -> Verdict | None:
        """The verdict a test command printed, or None (it was killed before printing)."""
        for line in reversed(output.splitlines()):
            if line.startswith(PREFIX):
                data = json.loads(line[len(PREFIX) :])
                runs = tuple(
                    Run(**{**r, "failed": tuple(r["failed"]), "errors": tuple(r["errors"])})
                    for r in data["runs"]
                )
                return cls(str(data["status"]), runs)
        return None


def combine(runs: Sequence[Run]) -> str:
    """The verdict over every seed: any harness fault wins, then unanimity."""
    statuses = [r.status for r in runs]
    for fault in (ERROR, TIMEOUT):
        if fault in statuses:
            return fault
    if all(s == KILLED for s in statuses):
        return KILLED
    if all(s == SURVIVED for s in statuses):
        return SURVIVED
    return SEED_DEPENDENT


def read_results(path: Path, returncode: int | None) -> tuple[str, tuple[str, ...], tuple[str, ...], str]:
    """(status, failed ids, error ids, detail) from the grader's results.json."""
    try:
        tests = json.loads(path.read_text())["tests"]
        outcomes = {
            str(t["number"]): (str(t["extra_data"]["outcome"]), str(t.get("output", ""))) for t in tests
        }
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return ERROR, (), (), f"no readable results.json ({exc!r})"
    failed = tuple(sorted(rid for rid, (o, _) in outcomes.items() if o == "failed"))
    errors = tuple(sorted(rid for rid, (o, _) in outcomes.items() if o == "error"))
    shown = failed + errors
    detail = " | ".join(f"{rid}: {' '.join(outcomes[rid][1].split())[:200]}" for rid in shown)
    if not outcomes:
        return ERROR, (), (), "the grader graded no requirement id"
    if errors:
        return ERROR, failed, errors, detail
    if failed:
        return (KILLED, failed, (), detail) if returncode else (ERROR, failed, (), "failed ids, exit 0")
    if returncode != 0:
        return ERROR, (), (), f"every id passed but the grader exited {returncode}"
    return SURVIVED, (), (), ""


def grade_once(
    repo: Path,
    grader_args: Sequence[str],
    seed: int,
    state_dir: Path,
    timeout: float,
    env: Mapping[str, str] | None = None,
) -> Run:
    """Run ``pytest grader GRADER_ARGS`` in ``repo`` and classify it."""
    state_dir.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix="results-", suffix=".json", dir=state_dir.parent)
    os.close(fd)
    results = Path(name)
    argv = [
        sys.executable,
        "-m",
        "pytest",
        "grader",
        "-q",
        "-p",
        "no:cacheprovider",
        "--grader-seed",
        str(seed),
        "--state-dir",
        str(state_dir),
        "--results-json",
        str(results),
        *grader_args,
    ]
    started = time.monotonic()
    parent = os.getppid()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            argv,
            cwd=repo,
            env=os.environ | dict(env or {}),
            text=True,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            finished = _wait(proc, started + timeout, parent)
            out.seek(0)
            output = out.read()
            if not finished:
                return Run(
                    seed,
                    TIMEOUT,
                    seconds=time.monotonic() - started,
                    detail=f"the grader did not finish within {timeout:.0f} s "
                    f"(or whoever ran it went away): {output[-500:]}",
                )
            status, failed, errors, detail = read_results(results, proc.returncode)
            if status == ERROR and not errors:
                detail = f"{detail}; grader output: {output[-1500:]}"
            return Run(seed, status, failed, errors, proc.returncode, time.monotonic() - started, detail)
        finally:
            results.unlink(missing_ok=True)


def _wait(proc: subprocess.Popen[str], deadline: float, parent: int) -> bool:
    """Wait for the grader; stop it at the deadline or when our parent (cosmic-ray) is gone,
    so no grader outlives an interrupted benchmark. True when it finished by itself."""
    while time.monotonic() < deadline and os.getppid() == parent:
        try:
            proc.wait(timeout=1)
            return True
        except subprocess.TimeoutExpired:
            continue
    for sig, grace in ((signal.SIGTERM, 30.0), (signal.SIGKILL, 10.0)):
        # SIGTERM first: the grader then restores the lab root and stops what it started.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    return False


def grade(
    repo: Path,
    grader_args: Sequence[str],
    seeds: Sequence[int],
    state_dir: Path,
    timeout: float,
    env: Mapping[str, str] | None = None,
) -> Verdict:
    runs = tuple(grade_once(repo, grader_args, seed, state_dir, timeout, env) for seed in seeds)
    return Verdict(combine(runs), runs)


def parse_seeds(text: str) -> tuple[int, ...]:
    seeds = tuple(int(s) for s in text.split(",") if s.strip())
    if not seeds:
        raise argparse.ArgumentTypeError("at least one seed")
    return seeds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.mutation.verdict", description="grade the code in the current directory once"
    )
    parser.add_argument("--seeds", type=parse_seeds, default=(1,))
    parser.add_argument("--timeout", type=float, default=300.0, help="one grader run's limit")
    parser.add_argument("--state-dir", type=Path, default=Path(".mutation-state"))
    parser.add_argument("--log", type=Path, help="append the verdict line to this file")
    parser.add_argument("grader_args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    grader_args = args.grader_args[1:] if args.grader_args[:1] == ["--"] else args.grader_args
    verdict = grade(Path.cwd(), grader_args, args.seeds, args.state_dir.resolve(), args.timeout)
    line = verdict.to_line()
    print(line, flush=True)
    if args.log is not None:
        with args.log.open("a") as log:
            log.write(line + "\n")
    return EXIT_CODES[verdict.status]


if __name__ == "__main__":
    sys.exit(main())
