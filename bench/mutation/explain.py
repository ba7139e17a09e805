"""The committed explanations of survivors (equivalent.toml) and how a mutant finds its own.

An entry names the file, the operator and a snippet of the original line(s); when that is
not enough, a snippet of the mutated line(s) (one line, several mutants) and of the three
lines before the change (the same line in several places). Snippets are matched as
substrings with runs of whitespace made one space, so an entry survives edits elsewhere in
the file (line numbers are never part of the key). ``file`` may be a glob (``solutions/*/*.py``).
"""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .mutant import Mutant

KINDS = {
    "equivalent": "behaves like the reference on every input the lab allows",
    "outside": "a difference the lab's requirements do not ask for",
}
FILE = Path(__file__).resolve().parent / "equivalent.toml"


def _squeeze(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Explanation:
    file: str
    operator: str
    original: str
    mutated: str | None
    kind: str
    reason: str
    context: str | None = None

    def covers(self, path: str) -> bool:
        return fnmatch.fnmatchcase(path, self.file)

    def matches(self, mutant: Mutant) -> bool:
        def within(snippet: str | None, lines: tuple[str, ...]) -> bool:
            return snippet is None or _squeeze(snippet) in _squeeze(" ⏎ ".join(lines))

        return (
            fnmatch.fnmatchcase(mutant.file, self.file)
            and mutant.operator == self.operator
            and within(self.original, mutant.removed)
            and within(self.mutated, mutant.added)
            and within(self.context, mutant.context)
        )


def load(path: Path = FILE) -> list[Explanation]:
    entries = tomllib.loads(path.read_text()).get("survivor", [])
    out: list[Explanation] = []
    for number, entry in enumerate(entries, start=1):
        kind = entry.get("kind")
        if kind not in KINDS or not entry.get("reason") or not entry.get("original"):
            raise ValueError(
                f"{path.name}: entry {number} needs file, operator, original, "
                f"kind ({' or '.join(KINDS)}) and reason"
            )
        out.append(
            Explanation(
                str(entry["file"]),
                str(entry["operator"]),
                str(entry["original"]),
                entry.get("mutated"),
                str(kind),
                str(entry["reason"]),
                entry.get("context"),
            )
        )
    return out


def explain(mutant: Mutant, explanations: list[Explanation]) -> Explanation | None:
    return next((e for e in explanations if e.matches(mutant)), None)
