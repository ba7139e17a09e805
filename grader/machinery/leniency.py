"""The leniency model: for each artefact a student writes, the ways a correct student may
legitimately write it, each with the submissions that show the grader accepts it.

Rejecting a correct student weighs as much as accepting a wrong one, so a way is listed only
with its evidence: ``variant NAME`` (a correct self-test variant, graded by a real grader run
in tests/test_variants.py and required to pass every id), ``population NAME`` (a blind
submission its writer expects to pass, graded by ``./dev.sh population``) or a self-test
``tests/FILE.py::test_NAME`` that runs the check on that way. This module knows nothing of any
lab: each lab lists its own ways.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Way:
    artefact: str  # the file the student writes ("consume.py", "schema.csv")
    way: str  # how a correct student may write it, in English
    accepted_by: tuple[str, ...]  # evidence: "variant NAME", "population NAME", "tests/...::test_..."


class Leniency:
    def __init__(self) -> None:
        self.ways: list[Way] = []

    def way(self, artefact: str, way: str, *accepted_by: str) -> None:
        if not accepted_by:
            raise ValueError(f"{artefact}: {way}: no submission shows it accepted")
        self.ways.append(Way(artefact, " ".join(way.split()), accepted_by))

    def markdown(self) -> str:
        out = ["## Ways a correct student may write it", ""]
        for artefact in dict.fromkeys(w.artefact for w in self.ways):
            out += [f"### {artefact}", ""]
            for w in (w for w in self.ways if w.artefact == artefact):
                out.append(f"- {w.way} — {', '.join(w.accepted_by)}")
            out.append("")
        return "\n".join(out)
