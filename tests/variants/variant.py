"""Self-test solutions: correct alternatives and one-mistake variants, each a real folder or
one file.

    tests/variants/<lab>/<name>/
        variant.toml    why = "..." (the mistake, or how this correct solution differs)
                        fails = ["Q6.3"] (exactly the ids it must fail; [] for a correct one;
                        a pattern such as "Q7.*" stands for every id of the lab it matches)
        *.py, *.sh, ... whole files laid over the reference solution (solutions/<lab>/)
        *.patch         unified diffs applied to the reference (patch -p1), for small edits
        after-walk.sh   optional: steps the student did by hand, run in the lab directory
                        after the walkthrough (bash, cwd = LAB_ROOT/q or LAB_ROOT/eaimw/mq)

    tests/variants/<lab>/<name>.toml    the same in one file: why, fails (as above) and
        patch = '''...'''      a unified diff applied to the reference (patch -p1)
        [files]                whole files laid over it: "lag.sh" = '''...''' (made executable
                               when they start with #!)
        after_walk = '''...'''  steps the student did by hand (as after-walk.sh)

variant.toml may also say away_fails = [...] (mq): the exact ids it must fail when graded away
from the student's pod (--away-from-pod: M1.3 reads status.txt), when they differ from fails.

variant.toml may also say based_on = "<name>": it is laid out as that variant is, and its own
patches and files go over that (a mistake made in another correct variant's way of writing).

variant.toml may also say student_broker = "down" (mq): the student's rabbit@localhost is not
running when they grade (the grader then finds no node on 5672 and starts its own).

The .py files are linted and type-checked with the rest of the repository (leniently: they
are written as students write). A folder whose name starts with "_" is a helper for another
self-test, not graded as a variant.
"""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from grader.labs import CATALOGUE

VARIANTS = Path(__file__).resolve().parent
SOLUTIONS = VARIANTS.parent.parent / "solutions"
NOT_LAID_OUT = ("variant.toml", "__init__.py", "after-walk.sh", "*.patch", "__pycache__")


KEYS = {"why", "fails", "student_broker", "away_fails", "based_on"}
ONE_FILE_KEYS = {"patch", "files", "after_walk"}


def _ids(lab: str, listed: list[str]) -> frozenset[str]:
    """``listed`` with each pattern ("Q7.*") replaced by the lab's ids it matches."""
    ids = [r.id for r in CATALOGUE.requirements(lab)]
    found: set[str] = set()
    for item in listed:
        matched = fnmatch.filter(ids, item) if any(c in item for c in "*?[") else [item]
        if not matched:
            raise ValueError(f"{lab}: {item!r} names no requirement id")
        found.update(matched)
    return frozenset(found)


@dataclass(frozen=True)
class Variant:
    lab: str
    name: str
    folder: Path  # the variant's folder, or its one file (<name>.toml)
    why: str
    fails: frozenset[str]  # exactly the ids it must fail; empty for a correct solution
    student_broker_down: bool = False
    away_fails: frozenset[str] | None = None  # graded away from the pod, when not ``fails``
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def named(cls, lab: str, name: str) -> Variant:
        one_file = VARIANTS / lab / f"{name}.toml"
        source = one_file if one_file.is_file() else VARIANTS / lab / name / "variant.toml"
        data = tomllib.loads(source.read_text())
        unknown = data.keys() - KEYS - (ONE_FILE_KEYS if source == one_file else set())
        if unknown or data.get("student_broker", "down") != "down":
            raise ValueError(f"{source}: unknown keys {sorted(unknown)} or student_broker")
        why = " ".join(data["why"].split())
        away = _ids(lab, data["away_fails"]) if "away_fails" in data else None
        folder = one_file if source == one_file else source.parent
        return cls(lab, name, folder, why, _ids(lab, data["fails"]), "student_broker" in data, away, data)

    @property
    def fails_away(self) -> frozenset[str]:
        """The ids it must fail when graded away from the student's pod (class grading)."""
        return self.fails if self.away_fails is None else self.away_fails

    @property
    def correct(self) -> bool:
        return not self.fails

    @property
    def one_file(self) -> bool:
        return self.folder.is_file()

    def lay_out(self, dest: Path) -> Path:
        """The reference solution (or the variant it is based on) with this variant's patches
        and files, at ``dest``."""
        if based_on := self.data.get("based_on"):
            Variant.named(self.lab, based_on).lay_out(dest)
        else:
            shutil.copytree(SOLUTIONS / self.lab, dest, ignore=shutil.ignore_patterns("__pycache__"))
        if self.one_file:
            if patch := self.data.get("patch"):
                subprocess.run(["patch", "-s", "-p1", "-d", str(dest)], input=patch.encode(), check=True)
            for relative, text in dict(self.data.get("files", {})).items():
                path = dest / relative
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
                path.chmod(0o755 if text.startswith("#!") else 0o644)
            return dest
        for patch_file in sorted(self.folder.glob("*.patch")):
            subprocess.run(["patch", "-s", "-p1", "-d", str(dest), "-i", str(patch_file)], check=True)
        ignore = shutil.ignore_patterns(*NOT_LAID_OUT)
        shutil.copytree(self.folder, dest, ignore=ignore, dirs_exist_ok=True)
        return dest

    def after_walk(self, lab_dir: Path) -> None:
        """What the student did by hand after running the scripts (steps 4, 5 ...)."""
        if self.one_file:
            if steps := self.data.get("after_walk"):
                subprocess.run(["bash", "-c", steps], cwd=lab_dir, check=True)
            return
        script = self.folder / "after-walk.sh"
        if script.is_file():
            subprocess.run(["bash", str(script)], cwd=lab_dir, check=True)


def variants(lab: str) -> list[Variant]:
    """Every graded variant of ``lab``, by name (folders and one-file variants alike)."""
    names = [
        entry.name if entry.is_dir() else entry.stem
        for entry in (VARIANTS / lab).iterdir()
        if ((entry / "variant.toml").is_file() or (entry.is_file() and entry.suffix == ".toml"))
        and not entry.name.startswith("_")
    ]
    return [Variant.named(lab, name) for name in sorted(names)]
