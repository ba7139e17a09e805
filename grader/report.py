"""The per-step Korean scoreboard and the Gradescope results file."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from fixtures.atomic import write_atomic
from grader.catalogue import CATALOGUE, LAB_TITLES, STEPS, Requirement
from grader.verdict import Finding

PASSED, FAILED, ERROR = "passed", "failed", "error"
MARK = {PASSED: "✓", FAILED: "✗", ERROR: "!"}


@dataclass
class Outcome:
    requirement: Requirement
    status: str = PASSED
    finding: Finding | None = None
    error: str = ""
    seconds: float = 0.0

    @property
    def blocked_by(self) -> str | None:
        return self.finding.blocked_by if self.finding else None

    def text(self, checked: bool = True) -> str:
        if self.status == PASSED:
            return "통과"
        if self.finding is not None:
            return self.finding.render(checked)
        return f"채점기 오류(학생 잘못이 아님, 다시 돌리거나 조교에게 알리세요):\n{self.error}"


@dataclass
class ResultBook:
    """Outcomes by requirement id, in catalogue order."""

    outcomes: dict[str, Outcome] = field(default_factory=dict)
    faults: list[str] = field(default_factory=list)  # harness faults outside any requirement
    notes: list[str] = field(default_factory=list)  # what this run repaired before grading

    def expect(self, rid: str) -> None:
        self.outcomes.setdefault(rid, Outcome(CATALOGUE[rid]))

    def record(self, rid: str, status: str, finding: Finding | None, error: str) -> None:
        outcome = self.outcomes[rid]
        # setup, call and teardown each report: the worst one stands.
        if status != PASSED and outcome.status == PASSED:
            outcome.status, outcome.finding, outcome.error = status, finding, error

    def ordered(self) -> list[Outcome]:
        order = list(CATALOGUE)
        return sorted(self.outcomes.values(), key=lambda o: order.index(o.requirement.id))

    @property
    def all_passed(self) -> bool:
        return bool(self.outcomes) and not self.faults and all(
            o.status == PASSED for o in self.outcomes.values()
        )


def _blocked_groups(outcomes: Iterable[Outcome]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for o in outcomes:
        if o.blocked_by:
            groups.setdefault(o.blocked_by, []).append(o.requirement.id)
    return groups


def scoreboard(book: ResultBook, header: str) -> list[str]:
    """Lines of the Korean scoreboard: per lab, per step, each failure explained once."""
    lines = [header]
    lines += [f"grader: {note} (중단된 이전 채점의 흔적을 되돌렸습니다)" for note in book.notes]
    outcomes = book.ordered()
    for lab in ("queue", "mq"):
        mine = [o for o in outcomes if o.requirement.lab == lab]
        if not mine:
            continue
        passed = sum(o.status == PASSED for o in mine)
        lines += ["", f"[{lab}] {LAB_TITLES[lab]}: {passed}/{len(mine)} 통과"]
        for step, title in STEPS[lab].items():
            in_step = [o for o in mine if o.requirement.step == step]
            if not in_step:
                continue
            ok = sum(o.status == PASSED for o in in_step)
            mark = "✓" if ok == len(in_step) else "✗"
            lines.append(f" {mark} {step}단계 {title}: {ok}/{len(in_step)}")
            for o in in_step:
                if o.status == PASSED or o.blocked_by:
                    continue
                lines.append(f"     {MARK[o.status]} {o.requirement.id} {o.requirement.title}")
                lines += [f"         {line}" for line in o.text(checked=False).splitlines()]
        for artefact, ids in _blocked_groups(mine).items():
            lines.append(
                f" · {artefact} 이(가) 없어 {', '.join(ids)} 을(를) 판정하지 못했습니다 "
                f"({artefact} 을(를) 먼저 만드세요)."
            )
    for fault in book.faults:
        lines += ["", f"! 채점기 오류(학생 잘못이 아님): {fault}"]
    total = len(outcomes)
    passed = sum(o.status == PASSED for o in outcomes)
    lines += ["", f"합계: {passed}/{total} 통과" + ("" if book.all_passed else " — 아직 남았습니다")]
    return lines


def write_results(book: ResultBook, path: Path, seconds: float) -> None:
    """Gradescope's results.json: one test per requirement id, its name starting with the id."""
    tests = [
        {
            "name": f"{o.requirement.id} {o.requirement.title}",
            "number": o.requirement.id,
            "score": 1.0 if o.status == PASSED else 0.0,
            "max_score": 1.0,
            "status": PASSED if o.status == PASSED else FAILED,
            "output": o.text(),
            "extra_data": {"outcome": o.status, "step": o.requirement.step},
        }
        for o in book.ordered()
    ]
    results = {
        "score": sum(t["score"] for t in tests),  # type: ignore[misc]
        "execution_time": round(seconds, 1),
        "output": "\n".join(f"채점기 오류: {f}" for f in book.faults) or "",
        "tests": tests,
    }
    write_atomic(path, json.dumps(results, ensure_ascii=False, indent=2).encode())
