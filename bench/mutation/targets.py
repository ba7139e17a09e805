"""The files of solutions/ the benchmark mutates, and how each one's mutants are graded."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

COSMIC_RAY, TEXT = "cosmic-ray", "text"  # engines: Python through cosmic-ray, the rest ours


def _steps(lab: str, *steps: int) -> str:
    """A pytest -k expression selecting the checks of these steps (test_M4_..., test_Q6_...)."""
    return " or ".join(f"test_{lab}{step}_" for step in steps)


@dataclass(frozen=True)
class Target:
    path: str  # relative to the repository
    engine: str
    lab: str  # queue or mq
    select: str | None  # a pytest -k expression; None: every check of the lab
    timeout: float  # one grader run's limit (the grader's own timeouts are far below it)
    cost: float  # rough seconds per mutant, to start the longest targets first

    @property
    def name(self) -> str:
        return PurePosixPath(self.path).name

    @property
    def grader_args(self) -> tuple[str, ...]:
        return ("--lab", self.lab) + (("-k", self.select) if self.select else ())


TARGETS: tuple[Target, ...] = (
    # Python: cosmic-ray mutates the file in a copy of the repository, which is then graded
    # in reference mode (the walkthrough lays that copy's solutions/ into a scratch lab root).
    Target("solutions/mq/consumer.py", COSMIC_RAY, "mq", _steps("M", 4, 5, 6, 7, 8), 300, 12),
    Target("solutions/queue/consume.py", COSMIC_RAY, "queue", None, 150, 3),
    Target("solutions/mq/publish.py", COSMIC_RAY, "mq", _steps("M", 3), 200, 5),
    Target("solutions/mq/topology.py", COSMIC_RAY, "mq", _steps("M", 2), 200, 5),
    # SQL, shell and CSV: our own operators, graded in student mode on a walked lab root.
    Target("solutions/queue/order-check.sql", TEXT, "queue", _steps("Q", 6), 150, 2),
    Target("solutions/queue/lag.sh", TEXT, "queue", _steps("Q", 7), 150, 2),
    Target("solutions/queue/replay.sh", TEXT, "queue", _steps("Q", 8), 150, 2),
    Target("solutions/queue/schema.csv", TEXT, "queue", _steps("Q", 2), 150, 2),
)


def select(names: list[str]) -> list[Target]:
    """The targets named by path or file name (all when none is named)."""
    if not names:
        return list(TARGETS)
    chosen: list[Target] = []
    for name in names:
        found = [t for t in TARGETS if name in (t.path, t.name) or t.path.endswith("/" + name)]
        if not found:
            known = ", ".join(t.name for t in TARGETS)
            raise SystemExit(f"mutants: no target {name!r} (known: {known})")
        chosen += [t for t in found if t not in chosen]
    return chosen
