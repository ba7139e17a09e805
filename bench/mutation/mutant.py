"""A graded mutant, the same for cosmic-ray's and our own, and the file of a target's results."""

from __future__ import annotations

import difflib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

SKIPPED = "skipped"  # never run: inside an annotation, or the tool could not make it
FLAKY = "flaky"  # killed once, but not when graded again: not a kill (see confirm.py)
ANNOTATION_NOTE = "inside an annotation, never evaluated (from __future__ import annotations)"


@dataclass(frozen=True)
class Mutant:
    file: str  # relative to the repository
    operator: str
    line: int  # first changed line, 1-based
    removed: tuple[str, ...]  # the original lines it changed, stripped
    added: tuple[str, ...]  # what replaced them, stripped (empty: lines dropped)
    status: str  # killed, survived, seed-dependent, error, timeout or skipped
    failed: tuple[str, ...] = ()  # ids that failed (under any seed)
    errors: tuple[str, ...] = ()  # ids in harness error
    detail: str = ""
    context: tuple[str, ...] = ()  # the non-blank lines before the change, stripped
    occurrence: int = -1  # which mutant of its operator (cosmic-ray) or of the file (ours)

    def describe(self) -> str:
        before = " ⏎ ".join(self.removed) or "(nothing)"
        after = " ⏎ ".join(self.added) or "(dropped)"
        return f"{self.file}:{self.line} {self.operator}: {before}  →  {after}"


def context_before(lines: list[str], line: int, size: int = 3) -> tuple[str, ...]:
    """The ``size`` non-blank lines before 1-based ``line``, stripped: tells apart mutants of
    the same text in different places (e.g. `return 1` in two except branches)."""
    before = [text.strip() for text in lines[: max(line - 1, 0)] if text.strip()]
    return tuple(before[-size:])


def changed_lines(original: str, mutated: str) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """(first changed line, original lines, mutated lines) between two versions of a file."""
    a, b = original.splitlines(), mutated.splitlines()
    first, removed, added = 0, [], []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        first = first or i1 + 1
        removed += a[i1:i2]
        added += b[j1:j2]
    return first, tuple(s.strip() for s in removed), tuple(s.strip() for s in added)


def from_unified_diff(diff: str) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """The same from a unified diff (cosmic-ray records one per mutant)."""
    first, removed, added, line = 0, [], [], 0
    for text in diff.splitlines():
        if text.startswith("@@"):
            line = int(text.split()[1].lstrip("-").split(",")[0])
        elif text.startswith(("---", "+++")):
            continue
        elif text.startswith("-"):
            first = first or line
            removed.append(text[1:].strip())
            line += 1
        elif text.startswith("+"):
            first = first or line
            added.append(text[1:].strip())
        elif text.startswith(" "):
            line += 1
    return first, tuple(removed), tuple(added)


@dataclass(frozen=True)
class TargetResult:
    path: str
    engine: str
    seconds: float  # wall time of the target's whole run
    seeds: tuple[int, ...]
    mutants: tuple[Mutant, ...] = ()
    fault: str = ""  # why the target could not be run (e.g. the baseline failed)
    notes: tuple[str, ...] = field(default=())

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), ensure_ascii=False, indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> TargetResult:
        data = json.loads(path.read_text())
        lists = ("removed", "added", "failed", "errors", "context")
        mutants = tuple(
            Mutant(**{**m, **{k: tuple(m.get(k, ())) for k in lists}}) for m in data.pop("mutants")
        )
        return cls(
            **{**data, "seeds": tuple(data["seeds"]), "notes": tuple(data["notes"]), "mutants": mutants}
        )
