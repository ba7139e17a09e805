"""The committed explanations of survivors (equivalent.toml) and how a mutant finds its own.

An entry names the file, the operator and a snippet of the original line(s) and, when one
line has several mutants of that operator, a snippet of the mutated line(s). Snippets are
matched as substrings with runs of whitespace made one space, so an entry survives edits
elsewhere in the file (line numbers are never part of the key).
"""

from __future__ import annotations

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

    def matches(self, mutant: Mutant) -> bool:
        return (
            mutant.file == self.file
            and mutant.operator == self.operator
            and _squeeze(self.original) in _squeeze(" ⏎ ".join(mutant.removed))
            and (self.mutated is None or _squeeze(self.mutated) in _squeeze(" ⏎ ".join(mutant.added)))
        )


def load(path: Path = FILE) -> list[Explanation]:
    entries = tomllib.loads(path.read_text()).get("survivor", [])
    out: list[Explanation] = []
    for number, entry in enumerate(entries, start=1):
        kind = entry.get("kind")
        if kind not in KINDS or not entry.get("reason") or not entry.get("original"):
            raise ValueError(f"{path.name}: entry {number} needs file, operator, original, "
                             f"kind ({' or '.join(KINDS)}) and reason")
        out.append(Explanation(str(entry["file"]), str(entry["operator"]), str(entry["original"]),
                               entry.get("mutated"), str(kind), str(entry["reason"])))
    return out


def explain(mutant: Mutant, explanations: list[Explanation]) -> Explanation | None:
    return next((e for e in explanations if e.matches(mutant)), None)
