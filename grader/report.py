"""The books of a run: an outcome per requirement id, the Korean scoreboard, results.json."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fixtures.atomic import write_atomic
from grader.catalogue import Catalogue, Requirement
from grader.machinery.mdtext import code_block, literal
from grader.machinery.textfile import visible
from grader.machinery.urls import without_passwords
from grader.verdict import Finding

NOT_RUN, PASSED, FAILED, ERROR = "not-run", "passed", "failed", "error"
MARK = {PASSED: "✓", FAILED: "✗", ERROR: "!", NOT_RUN: "!"}
GRADER_ERROR = "채점기 오류(학생 잘못이 아님, 다시 돌리거나 조교에게 알리세요)"


@dataclass
class Outcome:
    requirement: Requirement
    status: str = NOT_RUN  # only a check that ran and passed makes it PASSED
    finding: Finding | None = None
    error: str = ""

    @property
    def blocked_by(self) -> str | None:
        return self.finding.blocked_by if self.finding else None

    def text(self, checked: bool = True) -> str:
        if self.status == PASSED:
            return "통과"
        if self.finding is not None:
            return self.finding.render(checked)
        return f"{GRADER_ERROR}:\n{self.error}"

    def markdown(self) -> str:
        if self.status == PASSED:
            return "통과"
        if self.finding is not None:
            return self.finding.markdown()
        return f"**{GRADER_ERROR}**\n\n{code_block(self.error)}"


@dataclass
class ResultBook:
    """Outcomes by requirement id. A later report never turns a non-pass into a pass."""

    catalogue: Catalogue
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    faults: list[str] = field(default_factory=list)  # harness faults outside any requirement
    notes: list[str] = field(default_factory=list)  # what this run repaired before grading
    refused: str | None = None  # graded nothing: why (another grader, a directory it cannot put back)
    tampered: dict[str, list[str]] = field(default_factory=dict)  # what a script changed that it must not
    not_restored: list[str] = field(default_factory=list)  # a student's directory not back: where it is
    bounds: dict[str, str] = field(default_factory=dict)  # what bounded the scripts as a whole (session)

    def expect(self, rid: str) -> None:
        self.outcomes.setdefault(rid, Outcome(self.catalogue[rid]))

    def passed(self, rid: str) -> None:
        outcome = self.outcomes[rid]
        if outcome.status == NOT_RUN:
            outcome.status = PASSED

    def failed(self, rid: str, finding: Finding) -> None:
        self._worse(rid, FAILED, finding, "")

    def error(self, rid: str, text: str) -> None:
        self._worse(rid, ERROR, None, text)

    def failed_also(self, rid: str, finding: Finding) -> None:
        """A FAIL found after the check ran (a process its script left running): it fails a
        passed id, and is added to the finding of a failed one."""
        outcome = self.outcomes[rid]
        if outcome.status == FAILED and outcome.finding is not None:
            outcome.finding = replace(outcome.finding, seen=f"{outcome.finding.seen}\n또한: {finding.seen}")
        else:
            self._worse(rid, FAILED, finding, "")

    def _worse(self, rid: str, status: str, finding: Finding | None, error: str) -> None:
        outcome = self.outcomes[rid]
        # setup, call and teardown each report: the first one that is not a pass stands.
        if outcome.status in (NOT_RUN, PASSED):
            outcome.status, outcome.finding, outcome.error = status, finding, error

    def close(self, reason: str) -> None:
        """The run is over: a check that never ran is a harness error, never a pass."""
        for rid, outcome in self.outcomes.items():
            if outcome.status == NOT_RUN:
                self.error(rid, reason)

    def ordered(self) -> list[Outcome]:
        return sorted(self.outcomes.values(), key=lambda o: self.catalogue.order(o.requirement.id))

    @property
    def gradable(self) -> bool:
        """The outcomes are a grade: nothing refused, tampered with or left unrestored."""
        return self.refused is None and not self.tampered and not self.not_restored

    @property
    def all_passed(self) -> bool:
        return (
            bool(self.outcomes)
            and not self.faults
            and self.gradable
            and all(o.status == PASSED for o in self.outcomes.values())
        )

    def first_error_line(self, rid: str) -> str:
        return (self.outcomes[rid].error.strip().splitlines() or [""])[0]

    @property
    def grader_errors(self) -> list[str]:
        return [o.requirement.id for o in self.ordered() if o.status in (ERROR, NOT_RUN)]


def _blocked_groups(outcomes: Iterable[Outcome]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for o in outcomes:
        if o.blocked_by:
            groups.setdefault(o.blocked_by, []).append(o.requirement.id)
    return groups


def scoreboard(book: ResultBook, header: str) -> list[str]:
    """Lines of the Korean scoreboard: per lab, per step, each failure explained once."""
    lines = [header]
    if book.refused is not None:
        return [*lines, f"! 채점하지 않았습니다: {book.refused}"]
    lines += [f"grader: {note}" for note in book.notes]
    outcomes = book.ordered()
    for lab in book.catalogue.labs.values():
        mine = [o for o in outcomes if o.requirement.lab == lab.name]
        if not mine:
            continue
        passed = sum(o.status == PASSED for o in mine)
        lines += ["", f"[{lab.name}] {lab.heading}: {passed}/{len(mine)} 통과"]
        for step, title in lab.steps.items():
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
    for seal, changed in book.tampered.items():
        lines += [
            "",
            f"! 채점 중에 스크립트가 {seal} 을(를) 바꾸었습니다: {', '.join(changed[:5])}"
            + (f" 외 {len(changed) - 5}개" if len(changed) > 5 else ""),
            "  이 결과는 성적으로 쓸 수 없습니다(채점 불가). 스크립트는 자기 디렉터리 밖을 바꾸면 안 됩니다.",
        ]
    for problem in book.not_restored:
        lines += ["", f"! 학생 파일을 되돌리지 못했습니다: {problem}"]
    total = len(outcomes)
    passed = sum(o.status == PASSED for o in outcomes)
    lines += ["", f"합계: {passed}/{total} 통과" + ("" if book.all_passed else " — 아직 남았습니다")]
    return lines


def results(
    book: ResultBook, seconds: float, header: str, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Gradescope's results format: one test per requirement id, its name starting with the id.

    A grader error is never a silent zero: the test says 채점기 오류, the top-level output
    starts with a notice that the score is not final, and extra_data names the ids
    (``gradable`` false).
    """
    tests: list[dict[str, Any]] = [
        {
            "name": f"{o.requirement.id} {o.requirement.title}",
            "number": o.requirement.id,
            "score": o.requirement.points if o.status == PASSED else 0.0,
            "max_score": o.requirement.points,
            "status": PASSED if o.status == PASSED else FAILED,
            "output": o.markdown(),
            "output_format": "md",
            "tags": [o.requirement.lab, f"{o.requirement.lab}-step{o.requirement.step}"],
            "visibility": "visible",
            "extra_data": {
                "outcome": o.status,
                "lab": o.requirement.lab,
                "step": o.requirement.step,
                "seen": visible(o.finding.seen) if o.finding else None,  # the 관찰 line, for class reports
                "blocked_by": o.blocked_by,
            },
        }
        for o in book.ordered()
    ]
    errors = book.grader_errors if book.refused is None else []
    notice = []
    if book.refused is not None:
        notice = [f"**채점하지 않았습니다**: {literal(book.refused)}", ""]
    elif not book.gradable:
        notice = ["**채점 불가**: 이 점수는 성적으로 쓸 수 없습니다(아래 표의 ! 줄을 보세요).", ""]
    elif errors or book.faults:
        notice = [
            "**채점기 오류가 있어 이 점수는 확정이 아닙니다** — 학생 잘못이 아닙니다. "
            "다시 채점하거나 조교에게 알리세요. "
            f"(오류: {literal(', '.join(errors + book.faults))})",
            "",
        ]
    board = "\n".join(scoreboard(book, header))
    return {
        "score": sum(t["score"] for t in tests),
        "execution_time": round(seconds, 1),
        "output": "\n".join([*notice, code_block(board, "text")]),
        "output_format": "md",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "extra_data": {
            # A score means something only when every id got a verdict and nothing else failed.
            "gradable": bool(tests) and book.gradable and not errors and not book.faults,
            "grader_errors": [*book.faults, *(f"{rid}: {book.first_error_line(rid)}" for rid in errors)],
            "faults": book.faults,
            "refused": book.refused,
            "tampered": book.tampered,
            "not_restored": book.not_restored,
            "bounds": book.bounds,
            "labs": sorted({t["extra_data"]["lab"] for t in tests}),
            **(extra or {}),
        },
        "tests": [] if book.refused is not None else tests,
    }


def printable(text: str) -> str:
    """``text`` as valid UTF-8 whatever bytes it came from: a file name that is not UTF-8
    (held as surrogates) shows its bytes as \\xNN."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no decoder made
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _printable_tree(value: Any) -> Any:
    if isinstance(value, str):
        return without_passwords(printable(value))
    if isinstance(value, dict):
        return {printable(str(k)): _printable_tree(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_printable_tree(v) for v in value]
    return value


def write_results(
    book: ResultBook, path: Path, seconds: float, header: str, extra: dict[str, Any] | None = None
) -> None:
    data = _printable_tree(results(book, seconds, header, extra))
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=2).encode())
