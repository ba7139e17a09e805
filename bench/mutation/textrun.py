"""Mutants of the SQL, shell and CSV solutions (our own operators), graded in student mode.

Each mutant is laid out as a copy of solutions/queue with the one file changed, walked into
a fresh lab root by the walkthrough (steps 1-8, as a student would) and graded with
``pytest grader --lab-root ROOT --fixtures-dir FIX --lab queue`` and the target's checks.
"""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from solutions.walkthrough import walk_queue

from .confirm import confirm
from .mutant import Mutant, TargetResult, changed_lines, context_before
from .ops import mutants_of
from .targets import Target
from .verdict import SURVIVED, Verdict, grade

REPO = Path(__file__).resolve().parents[2]


def _graded(target: Target, text: str | None, seeds: Sequence[int], fixtures: Path, base: Path) -> Verdict:
    """Lay out solutions/queue with ``text`` as the target file (None: unchanged), walk it
    and grade it."""
    source = REPO / target.path
    solution = base / "solution"
    shutil.copytree(source.parent, solution, ignore=shutil.ignore_patterns("__pycache__"))
    if text is not None:
        (solution / source.name).write_text(text)
    try:
        walk_queue(base / "root", fixtures, solution)
        args = ("--lab-root", str(base / "root"), "--fixtures-dir", str(fixtures), *target.grader_args)
        return grade(REPO, args, seeds, base / "state", target.timeout)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def regrade(target: Target, mutant: Mutant, seeds: Sequence[int], fixtures: Path, work: Path) -> Verdict:
    """Grade one mutant again (its occurrence is its place among the file's mutants)."""
    candidate = mutants_of(target.name, (REPO / target.path).read_text())[mutant.occurrence]
    return _graded(target, candidate.text, seeds, fixtures, work / f"again-{mutant.occurrence:03d}")


def run(
    target: Target,
    seeds: Sequence[int],
    fixtures: Path,
    work: Path,
    progress: Callable[[int, int], None],
    stop: threading.Event,
) -> TargetResult:
    started = time.monotonic()
    original = (REPO / target.path).read_text()
    baseline = _graded(target, None, seeds, fixtures, work / "baseline")
    if baseline.status != SURVIVED:
        return TargetResult(
            target.path,
            target.engine,
            time.monotonic() - started,
            tuple(seeds),
            fault=f"the unmutated file does not pass its checks: {baseline.detail}",
        )
    candidates = mutants_of(target.name, original)
    graded: list[Mutant] = []
    for number, candidate in enumerate(candidates):
        if stop.is_set():
            break
        verdict = _graded(target, candidate.text, seeds, fixtures, work / f"mutant-{number:03d}")
        line, removed, added = changed_lines(original, candidate.text)
        graded.append(
            Mutant(
                target.path,
                candidate.operator,
                line,
                removed,
                added,
                verdict.status,
                verdict.failed,
                verdict.errors,
                "" if verdict.status == SURVIVED else verdict.detail,
                context_before(original.splitlines(), line),
                number,
            )
        )
        progress(number + 1, len(candidates))
    graded = confirm(graded, lambda m: regrade(target, m, seeds, fixtures, work), stop)
    notes = (f"interrupted after {len(graded)} of {len(candidates)}",) if stop.is_set() else ()
    return TargetResult(
        target.path, target.engine, time.monotonic() - started, tuple(seeds), tuple(graded), notes=notes
    )
