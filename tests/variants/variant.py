"""A variant is the reference solution with edits: a correct alternative or a one-mistake
mutant, which names the requirement id that must reject it."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` by ``new`` in ``file`` (``old`` must be there: a stale edit is an error)."""

    file: str
    old: str
    new: str


@dataclass(frozen=True)
class Replace:
    """Replace a whole file of the solution (or add one)."""

    file: str
    text: str


@dataclass(frozen=True)
class Variant:
    name: str
    why: str  # the mistake, or how this correct solution differs
    changes: tuple[Edit | Replace, ...] = ()
    rejected_on: str | None = None  # None: a correct solution that must pass every id
    tamper: Callable[[Path], None] | None = field(default=None, compare=False)  # after walking

    def lay_out(self, reference: Path, dest: Path) -> Path:
        """Copy the reference solution to ``dest`` and apply the changes."""
        shutil.copytree(reference, dest, ignore=shutil.ignore_patterns("__pycache__"))
        for change in self.changes:
            path = dest / change.file
            if isinstance(change, Replace):
                path.write_text(change.text)
                if path.suffix in (".sh", ".py"):
                    path.chmod(0o755)
                continue
            text = path.read_text()
            if change.old not in text:
                raise AssertionError(f"variant {self.name}: {change.file} has no {change.old!r}")
            path.write_text(text.replace(change.old, change.new))
        return dest
