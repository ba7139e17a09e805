"""The benchmark's figures per file and the survivors nobody has explained yet."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .explain import Explanation, explain
from .mutant import ANNOTATION_NOTE, FLAKY, SKIPPED, Mutant, TargetResult
from .verdict import ERROR, KILLED, SEED_DEPENDENT, SURVIVED, TIMEOUT

NOT_KILLED = (SURVIVED, SEED_DEPENDENT, FLAKY)  # survivors, in the figures


@dataclass(frozen=True)
class Counts:
    mutants: int = 0
    killed: int = 0
    survived: int = 0  # survived, seed-dependent or flaky, explained or not
    equivalent: int = 0
    outside: int = 0
    errors: int = 0  # harness errors and timeouts: never kills
    seconds: float = 0.0

    @property
    def score(self) -> float | None:
        """Killed among the mutants that are neither equivalent nor outside the requirements."""
        relevant = self.mutants - self.equivalent - self.outside
        return self.killed / relevant if relevant else None

    def __add__(self, other: Counts) -> Counts:
        m, k, s, e, o, err, seconds = other.row()
        return Counts(
            self.mutants + m,
            self.killed + k,
            self.survived + s,
            self.equivalent + e,
            self.outside + o,
            self.errors + err,
            self.seconds + seconds,
        )

    def row(self) -> tuple[int, int, int, int, int, int, float]:
        return (
            self.mutants,
            self.killed,
            self.survived,
            self.equivalent,
            self.outside,
            self.errors,
            self.seconds,
        )


def count(result: TargetResult, explanations: list[Explanation]) -> Counts:
    run = [m for m in result.mutants if m.status != SKIPPED]
    survivors = [m for m in run if m.status in NOT_KILLED]
    kinds = [e.kind for m in survivors if (e := explain(m, explanations)) is not None]
    return Counts(
        mutants=len(run),
        killed=sum(m.status == KILLED for m in run),
        survived=len(survivors),
        equivalent=kinds.count("equivalent"),
        outside=kinds.count("outside"),
        errors=sum(m.status in (ERROR, TIMEOUT) for m in run),
        seconds=result.seconds,
    )


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}m{int(seconds % 60):02d}s"


def _score(counts: Counts) -> str:
    return "-" if counts.score is None else f"{100 * counts.score:.1f}%"


def _tag(mutant: Mutant) -> str:
    """What to know about a survivor beyond its change."""
    if mutant.status == SEED_DEPENDENT:
        killed = re.findall(r"^seed (\d+): killed", mutant.detail, re.M)
        return f"  [seed-dependent: killed under seed {', '.join(killed)} only, by {mutant.failed}]"
    if mutant.status == FLAKY:
        return f"  [flaky: killed once by {', '.join(mutant.failed)}, not when graded again]"
    return ""


def render(results: Sequence[TargetResult], explanations: list[Explanation]) -> list[str]:
    header = (
        f"{'file':34} {'mutants':>7} {'killed':>6} {'surv':>5} {'equiv':>5} "
        f"{'outside':>7} {'errors':>6} {'score':>7} {'time':>7}"
    )
    lines = [header, "-" * len(header)]
    total = Counts()
    for result in results:
        counts = count(result, explanations)
        total += counts
        m, k, s, e, o, err, seconds = counts.row()
        lines.append(
            f"{result.path.removeprefix('solutions/'):34} {m:7} {k:6} {s:5} {e:5} {o:7} "
            f"{err:6} {_score(counts):>7} {_minutes(seconds):>7}"
        )
    m, k, s, e, o, err, seconds = total.row()
    lines += [
        "-" * len(header),
        f"{'total':34} {m:7} {k:6} {s:5} {e:5} {o:7} {err:6} {_score(total):>7} "
        f"{_minutes(seconds):>7}  (time: sum over files)",
    ]
    lines += [f"note: {r.path}: {note}" for r in results for note in r.notes]
    lines += [
        f"note: {m.file}:{m.line} {m.operator} not run: {m.detail[:200]}"
        for r in results
        for m in r.mutants
        if m.status == SKIPPED and m.detail != ANNOTATION_NOTE
    ]
    lines += [f"NOT RUN: {r.path}: {r.fault}" for r in results if r.fault]

    every = [m for r in results for m in r.mutants]
    unexplained = [m for m in every if m.status in NOT_KILLED and explain(m, explanations) is None]
    lines += ["", f"Survivors not yet explained ({len(unexplained)}):"]
    lines += [f"  {m.describe()}{_tag(m)}" for m in unexplained] or ["  (none)"]
    faults = [m for m in every if m.status in (ERROR, TIMEOUT)]
    if faults:
        lines += ["", f"Harness errors and timeouts, not counted as kills ({len(faults)}):"]
        lines += [
            f"  {m.describe()}  [{m.status}: {m.detail.splitlines()[0][:160] if m.detail else ''}]"
            for m in faults
        ]
    lines += _stale(results, explanations)
    return lines


def _stale(results: Sequence[TargetResult], explanations: list[Explanation]) -> list[str]:
    """Explanations that no longer describe a survivor: the mutant is killed, or gone."""
    files = {r.path for r in results}
    every = [m for r in results for m in r.mutants if m.status != SKIPPED]
    out: list[str] = []
    for e in explanations:
        if not any(e.covers(f) for f in files):
            continue
        matched = [m for m in every if e.matches(m)]
        if not matched:
            out.append(f"  {e.file} {e.operator} {e.original!r}: matches no mutant any more")
        elif all(m.status == KILLED for m in matched):
            out.append(f"  {e.file} {e.operator} {e.original!r}: listed as {e.kind}, but killed")
    return ["", "Stale entries in equivalent.toml:", *out] if out else []
