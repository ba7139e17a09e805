"""results.json read tolerantly, and the results of a submission the grader could not judge.

The grader writes Gradescope's format (grader/report.py). Fields that come later (top-level
``extra_data.gradable`` and ``grader_errors``, ``tags``, ``visibility``, ``output_format``)
are used when present and derived when absent, so this module works with either version.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fixtures.atomic import write_atomic
from grader.labs import CATALOGUE
from grader.machinery.mdtext import plain

PASSED, FAILED, ERROR = "passed", "failed", "error"
FAULT_PREFIX = "채점기 오류"
OBSERVED = "관찰:"


class ResultsUnreadable(ValueError):
    """results.json is missing or not the contract's shape: a grader fault."""


@dataclass(frozen=True)
class IdResult:
    id: str
    name: str
    outcome: str  # passed / failed / error
    score: float
    max_score: float
    output: str
    blocked_by: str | None = None  # the missing artefact that made this id unjudgeable
    seen: str | None = None  # the 관찰 line (extra_data.seen)
    markdown: bool = False  # output_format md: ``output`` is Markdown

    @property
    def text(self) -> str:
        """The output as a reader sees it."""
        return plain(self.output) if self.markdown else self.output

    @property
    def observations(self) -> list[str]:
        """The 관찰 lines of a failure: what the grader saw."""
        if self.seen:
            return [self.seen]
        return [
            line.removeprefix(OBSERVED).strip()
            for line in self.text.splitlines()
            if line.startswith(OBSERVED)
        ]

    @property
    def lab(self) -> str:
        return CATALOGUE[self.id].lab

    @property
    def step(self) -> int:
        return CATALOGUE[self.id].step


@dataclass(frozen=True)
class Results:
    tests: dict[str, IdResult]  # in the file's order (the catalogue's)
    faults: tuple[str, ...] = ()  # grader errors outside any id
    output: str = ""
    execution_time: float | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def errors(self) -> list[str]:
        return [rid for rid, t in self.tests.items() if t.outcome == ERROR]

    @property
    def gradable(self) -> bool:
        """Every id got a verdict and the harness reported no fault: the score means something."""
        declared = self.raw.get("extra_data", {}).get("gradable")
        if isinstance(declared, bool) and not declared:
            return False
        return bool(self.tests) and not self.faults and not self.errors

    @property
    def all_passed(self) -> bool:
        return self.gradable and all(t.outcome == PASSED for t in self.tests.values())

    @property
    def score(self) -> float:
        return sum(t.score for t in self.tests.values())

    @property
    def max_score(self) -> float:
        return sum(t.max_score for t in self.tests.values())

    @property
    def passed(self) -> int:
        return sum(t.outcome == PASSED for t in self.tests.values())

    def fault_text(self) -> str:
        lines = list(self.faults)
        lines += [f"{rid}: {(self.tests[rid].text.strip().splitlines() or [''])[-1]}" for rid in self.errors]
        return "\n".join(lines)


def parse_results(data: dict[str, Any]) -> Results:
    try:
        tests = {}
        for t in data["tests"]:
            rid = str(t["number"])
            extra = t.get("extra_data") or {}
            outcome = str(extra.get("outcome") or t.get("status") or ERROR)
            output = str(t.get("output", ""))
            tests[rid] = IdResult(
                rid,
                str(t.get("name", rid)),
                outcome,
                float(t.get("score", 0)),
                float(t.get("max_score", 1)),
                output,
                extra.get("blocked_by") or _blocked_by(output),
                extra.get("seen"),
                t.get("output_format") == "md",
            )
        output = str(data.get("output") or "")
        extra = data.get("extra_data") or {}
        if isinstance(extra.get("grader_errors"), list):
            faults = tuple(str(f) for f in extra["grader_errors"])
        else:  # today's report.py: one "채점기 오류: ..." line per fault in the top-level output
            faults = tuple(
                line.split(":", 1)[1].strip()
                for line in output.splitlines()
                if line.startswith(f"{FAULT_PREFIX}:")
            )
        seconds = data.get("execution_time")
        return Results(tests, faults, output, float(seconds) if seconds is not None else None, data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ResultsUnreadable(f"results.json is not Gradescope's format: {exc!r}") from exc


_BLOCKED = re.compile(r"^관찰: (.+) 이\(가\) 없어 판정할 수 없음$", re.M)


def _blocked_by(output: str) -> str | None:
    """Today's results.json says "관찰: X 이(가) 없어 판정할 수 없음" for a blocked id."""
    found = _BLOCKED.search(output)
    return found.group(1) if found else None


def read_results(path: Path) -> Results:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResultsUnreadable(f"{path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ResultsUnreadable(f"{path}: not a JSON object")
    return parse_results(data)


def expected_ids(labs: tuple[str, ...]) -> list[str]:
    return [r.id for lab in labs for r in CATALOGUE.requirements(lab)]


def _unjudged(labs: tuple[str, ...], outcome: str, output: str, extra: dict[str, Any]) -> dict[str, Any]:
    tests = [
        {
            "name": f"{rid} {CATALOGUE[rid].title}",
            "number": rid,
            "score": 0.0,
            "max_score": 1.0,
            "status": FAILED,
            "output": output,
            "extra_data": {"outcome": outcome},
        }
        for rid in expected_ids(labs)
    ]
    return {"score": 0.0, "output": output, "tests": tests, "extra_data": extra}


def grader_fault_results(labs: tuple[str, ...], message: str) -> dict[str, Any]:
    """The grader could not judge (it crashed, hung, or wrote no results): every id is an error,
    and the file says it is not a grade."""
    text = f"{FAULT_PREFIX}(학생 잘못이 아님, 다시 채점합니다): {message}"
    return _unjudged(labs, ERROR, text, {"gradable": False, "grader_errors": [message]})


def refused_results(labs: tuple[str, ...], reason: str) -> dict[str, Any]:
    """The submission itself could not be unpacked: a verdict on the submission, every id failed."""
    text = (
        f"확인: 제출물을 풀 수 있다\n관찰: 제출물을 풀 수 없음: {reason}\n"
        "힌트: python -m grader pack --lab-root /root -o 제출.tar.gz 로 다시 만드세요."
    )
    return _unjudged(labs, FAILED, text, {"gradable": True, "refused": reason})


def write_json(path: Path, data: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2).encode())


_VOLATILE = re.compile(
    r"\b[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b"  # uuids (claim guids)
    r"|\b(?=[0-9A-Za-z]*\d)(?=[0-9A-Za-z]*[A-Za-z])[0-9A-Za-z]{6,}\b"  # random ids: q62a295
    r"|(?:/var)?/tmp/\S+"  # the run's scratch paths
)
_NUMBER = re.compile(r"\d+")


def observation_key(line: str) -> str:
    """A 관찰 line with its run-specific parts blanked (random ids and paths become …, numbers
    #: the grader's fixtures are randomised per run), so one mistake made by different students
    groups together."""
    return _NUMBER.sub("#", _VOLATILE.sub("…", line)).strip()
