"""Self-test solutions: correct alternatives and one-mistake variants, each a real folder.

    tests/variants/<lab>/<name>/
        variant.toml    why = "..." (the mistake, or how this correct solution differs)
                        fails = ["Q6.3"] (exactly the ids it must fail; [] for a correct one)
        *.py, *.sh, ... whole files laid over the reference solution (solutions/<lab>/)
        *.patch         unified diffs applied to the reference (patch -p1), for small edits
        after-walk.sh   optional: steps the student did by hand, run in the lab directory
                        after the walkthrough (bash, cwd = LAB_ROOT/q or LAB_ROOT/eaimw/mq)

variant.toml may also say away_fails = [...] (mq): the exact ids it must fail when graded away
from the student's pod (--away-from-pod: M1.3 reads status.txt), when they differ from fails.

variant.toml may also say student_broker = "down" (mq): the student's rabbit@localhost is not
running when they grade (the grader then finds no node on 5672 and starts its own).

The .py files are linted and type-checked with the rest of the repository (leniently: they
are written as students write). A folder whose name starts with "_" is a helper for another
self-test, not graded as a variant.
"""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

VARIANTS = Path(__file__).resolve().parent
SOLUTIONS = VARIANTS.parent.parent / "solutions"
NOT_LAID_OUT = ("variant.toml", "__init__.py", "after-walk.sh", "*.patch", "__pycache__")


@dataclass(frozen=True)
class Variant:
    lab: str
    name: str
    folder: Path
    why: str
    fails: frozenset[str]  # exactly the ids it must fail; empty for a correct solution
    student_broker_down: bool = False
    away_fails: frozenset[str] | None = None  # graded away from the pod, when not ``fails``

    @classmethod
    def named(cls, lab: str, name: str) -> Variant:
        folder = VARIANTS / lab / name
        data = tomllib.loads((folder / "variant.toml").read_text())
        unknown = data.keys() - {"why", "fails", "student_broker", "away_fails"}
        if unknown or data.get("student_broker", "down") != "down":
            raise ValueError(f"{folder}/variant.toml: unknown keys {sorted(unknown)} or student_broker")
        why = " ".join(data["why"].split())
        away = frozenset(data["away_fails"]) if "away_fails" in data else None
        return cls(lab, name, folder, why, frozenset(data["fails"]), "student_broker" in data, away)

    @property
    def fails_away(self) -> frozenset[str]:
        """The ids it must fail when graded away from the student's pod (class grading)."""
        return self.fails if self.away_fails is None else self.away_fails

    @property
    def correct(self) -> bool:
        return not self.fails

    def lay_out(self, dest: Path) -> Path:
        """The reference solution with this variant's patches and files, at ``dest``."""
        shutil.copytree(SOLUTIONS / self.lab, dest, ignore=shutil.ignore_patterns("__pycache__"))
        for patch in sorted(self.folder.glob("*.patch")):
            subprocess.run(["patch", "-s", "-p1", "-d", str(dest), "-i", str(patch)], check=True)
        ignore = shutil.ignore_patterns(*NOT_LAID_OUT)
        shutil.copytree(self.folder, dest, ignore=ignore, dirs_exist_ok=True)
        return dest

    def after_walk(self, lab_dir: Path) -> None:
        """What the student did by hand after running the scripts (steps 4, 5 ...)."""
        script = self.folder / "after-walk.sh"
        if script.is_file():
            subprocess.run(["bash", str(script)], cwd=lab_dir, check=True)


def variants(lab: str) -> list[Variant]:
    """Every graded variant of ``lab``, by name."""
    return [
        Variant.named(lab, folder.name)
        for folder in sorted((VARIANTS / lab).iterdir())
        if (folder / "variant.toml").is_file() and not folder.name.startswith("_")
    ]
