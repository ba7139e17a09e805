"""What a lab is to the grader: its requirement ids, steps, headings and the paths it grades,
whether it needs a broker, and the package that holds its scenarios and checks.

Each lab is a package of grader/ whose ``__init__`` exports ``LAB`` (a ``Lab``); grader/labs.py
finds them and puts them together into one ``Catalogue``. Nothing outside a lab's package names
a lab: the plugin and the class tools loop over the labs. Titles and hints are in Korean, the
labs' language.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Requirement:
    id: str  # "Q3.7": the lab's letter, the step, a number within the step
    title: str  # what is checked, in Korean (the scoreboard's line, results.json's name)
    hint: str  # how to fix it: mostly the lab's own "common mistakes"
    lab: str  # the name of the lab it belongs to
    points: float = 1.0  # max_score in results.json

    @property
    def step(self) -> int:
        return int(self.id[1:].split(".")[0])


@dataclass(frozen=True)
class Lab:
    name: str  # what --lab takes, and its package's name under grader/
    heading: str  # the Korean heading of the scoreboard
    original_title: str  # the title as the lab text has it (the source of the heading)
    steps: dict[int, str]  # step number -> its Korean title, as the lab text names it
    paths: tuple[str, ...]  # what the lab grades, relative to the lab root ("q")
    requirements: tuple[Requirement, ...]
    # script -> the id that judges how it ends: a process it leaves running fails that id
    leftover_judges: dict[str, str] = field(default_factory=dict)
    order: int = 0  # where it comes in reports (and the order the labs are graded in)
    needs_broker: bool = False  # its scenarios run on a RabbitMQ node (started first: the longest wait)
    package: str = ""  # grader.<name>: its scenarios module is <package>.scenarios
    away_note: str = ""  # said in class reports of what grading away from the pod changes

    @property
    def scenarios_module(self) -> str:
        return f"{self.package}.scenarios"

    @property
    def fixture(self) -> str:
        """The session fixture that brings the lab up (declared by its scenarios module)."""
        return f"{self.name}_lab"

    @classmethod
    def declare(
        cls,
        name: str,
        *,
        heading: str,
        original_title: str,
        steps: dict[int, str],
        paths: tuple[str, ...],
        requirements: Iterable[tuple[str, str, str]],
        points: dict[str, float] | None = None,
        leftover_judges: dict[str, str] | None = None,
        order: int = 0,
        needs_broker: bool = False,
        away_note: str = "",
    ) -> Lab:
        """A lab from (id, title, hint) rows; ``points`` gives ids other than 1 point."""
        reqs = tuple(
            Requirement(rid, title, hint, name, (points or {}).get(rid, 1.0))
            for rid, title, hint in requirements
        )
        unknown = {r.step for r in reqs} - steps.keys()
        if unknown:
            raise ValueError(f"lab {name}: requirements of undeclared steps {sorted(unknown)}")
        judges = dict(leftover_judges or {})
        if strange := set(judges.values()) - {r.id for r in reqs}:
            raise ValueError(f"lab {name}: leftover judges name unknown ids {sorted(strange)}")
        package = f"grader.{name}"
        return cls(
            name, heading, original_title, steps, paths, reqs, judges, order, needs_broker, package, away_note
        )


class Catalogue:
    """Every lab's requirements by id, in the labs' order."""

    def __init__(self, labs: Sequence[Lab]) -> None:
        self.labs = {lab.name: lab for lab in sorted(labs, key=lambda lab: lab.order)}
        labs = list(self.labs.values())
        self._by_id: dict[str, Requirement] = {}
        for lab in labs:
            for req in lab.requirements:
                if req.id in self._by_id:
                    raise ValueError(f"requirement id {req.id} declared twice")
                self._by_id[req.id] = req

    def __getitem__(self, rid: str) -> Requirement:
        return self._by_id[rid]

    def __contains__(self, rid: object) -> bool:
        return rid in self._by_id

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    def values(self) -> list[Requirement]:
        return list(self._by_id.values())

    def items(self) -> list[tuple[str, Requirement]]:
        return list(self._by_id.items())

    def order(self, rid: str) -> int:
        return list(self._by_id).index(rid)

    def requirements(self, lab: str) -> list[Requirement]:
        return list(self.labs[lab].requirements)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.labs)

    def needs_broker(self, names: Sequence[str]) -> bool:
        """Some lab of ``names`` runs on a broker."""
        return any(self.labs[name].needs_broker for name in names)

    def bring_up_order(self, names: Sequence[str]) -> list[Lab]:
        """The labs ``names`` in the order to bring them up: those on a broker first (its start
        is the longest wait of all)."""
        return sorted((self.labs[n] for n in names), key=lambda lab: (not lab.needs_broker, lab.order))

    @property
    def paths(self) -> tuple[str, ...]:
        """Every lab's directories, relative to the lab root."""
        return tuple(path for lab in self.labs.values() for path in lab.paths)

    def leftover_judge(self, script: str) -> str | None:
        """The id a process left running by ``script`` fails (None: not a lab's script)."""
        return next(
            (lab.leftover_judges[script] for lab in self.labs.values() if script in lab.leftover_judges), None
        )
