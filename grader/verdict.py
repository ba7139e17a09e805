"""Student verdicts: a FAIL says what was checked, what was seen, and a hint, in Korean.

Two kinds of failure never mix: a student's mistake is raised from here (pytest: failed);
anything else raised by the harness is a harness fault (pytest: error).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

from grader.catalogue import Requirement
from grader.machinery.mdtext import code_block, literal
from grader.machinery.runner import RunResult
from grader.machinery.textfile import Unreadable, read_text, visible

# What a FAIL says it saw may quote a student's file (dup.txt, a CSV row, a status line): at
# most this many characters of it (red team 14: a 1 MiB one-line dup.txt went three times
# into results.json).
SEEN_MOST = 4_000


def bounded(seen: str, most: int = SEEN_MOST) -> str:
    """``seen`` cut to ``most`` characters, saying how many were left out."""
    if len(seen) <= most:
        return seen
    return f"{seen[:most]}… (이하 {len(seen) - most:,}자 생략)"


@dataclass(frozen=True)
class Finding:
    requirement: Requirement
    seen: str
    hint: str
    tail: str = ""
    blocked_by: str | None = None  # the missing artefact that makes this id unjudgeable

    def render(self, checked: bool = True) -> str:
        """확인 (what was checked), 관찰 (what was seen), 힌트, and the script's output tail;
        what a script printed is made visible, never obeyed by a terminal (textfile.visible)."""
        lines = [f"확인: {self.requirement.title}"] if checked else []
        # What was seen may hold a student's line breaks (a value read from their files): its
        # later lines are marked as the output tail's are, never lines of the scoreboard's own.
        seen = visible(self.seen).splitlines() or [""]
        lines.append(f"관찰: {seen[0]}")
        lines += [f"  | {line}" for line in seen[1:]]
        if self.hint:
            lines.append(f"힌트: {self.hint}")
        if self.tail:
            lines.append("스크립트 출력(끝부분):")
            lines += [f"  | {line}" for line in visible(self.tail).splitlines()]
        return "\n".join(lines)

    def markdown(self) -> str:
        """The same, for results.json (output_format md)."""
        parts = [f"**확인**: {literal(self.requirement.title)}", f"**관찰**: {literal(visible(self.seen))}"]
        if self.hint:
            parts.append(f"**힌트**: {literal(self.hint)}")
        if self.tail:
            parts.append(f"스크립트 출력(끝부분):\n\n{code_block(visible(self.tail))}")
        return "\n\n".join(parts)


class StudentFailure(pytest.fail.Exception):  # type: ignore[name-defined,misc]
    """A requirement the student's work does not meet."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.render(), pytrace=False)
        self.finding = finding


SPACE_SHOWN = "스크립트가 쓰는 공간"  # what a FAIL names when the scripts filled their bounded space


class ScriptsBroke(Exception):
    """The student's scripts took apart the stage a scenario set for them (a queue folder
    moved away, a queue deleted, an exchange redeclared): what the grader meant to do next
    cannot be done, and that is the student's doing, a FAIL of every check reading the
    scenario, never a grader error. ``shown_as`` and ``why`` as Missing's."""

    def __init__(self, shown_as: str, why: str) -> None:
        super().__init__(f"{shown_as}: {why}")
        self.shown_as = shown_as
        self.why = why


@dataclass(frozen=True)
class Missing:
    """A scenario could not run because an artefact of the student's is missing (or is there
    but cannot be used: ``why`` says how)."""

    artefact: str
    why: str | None = None


class Check:
    """The requirement a test asserts; its methods raise StudentFailure with a Korean message."""

    def __init__(self, requirement: Requirement) -> None:
        self.requirement = requirement

    def fail(self, seen: str, hint: str | None = None, run: RunResult | None = None) -> NoReturn:
        __tracebackhide__ = True
        tail = run.tail() if run is not None else ""
        raise StudentFailure(Finding(self.requirement, bounded(seen), self.hint(hint), tail))

    def expect(
        self, condition: bool, seen: str, hint: str | None = None, run: RunResult | None = None
    ) -> None:
        __tracebackhide__ = True
        if not condition:
            self.fail(seen, hint, run)

    def expect_ran(self, run: RunResult, what: str) -> None:
        """The script ended by itself with exit 0."""
        __tracebackhide__ = True
        if not run.ok:
            self.fail(f"{what}: {run.describe()}", run=run)

    def needs(self, path: Path, shown_as: str) -> None:
        """Unjudgeable without ``path``: say so once, instead of a cascade of tracebacks."""
        __tracebackhide__ = True
        if path.exists():
            return
        shown = Path(shown_as)
        while not path.parent.exists() and shown.parent != shown:  # blame the topmost missing
            path, shown = path.parent, shown.parent
        self.blocked(str(shown))

    def text(self, path: Path, shown_as: str) -> str:
        """A text file of the student's (read tolerantly: BOM, CRLF, no final newline), or a
        FAIL that says why it cannot be read (a FIFO, not UTF-8, far too big ...)."""
        __tracebackhide__ = True
        self.needs(path, shown_as)
        try:
            return read_text(path)
        except Unreadable as exc:
            self.fail(f"{shown_as}: {exc.reason}", hint=f"{shown_as} 을(를) UTF-8 텍스트 파일로 만드세요.")

    def blocked(self, shown_as: str, why: str | None = None) -> NoReturn:
        """Unjudgeable without ``shown_as``; when it exists but cannot be used, ``why``."""
        __tracebackhide__ = True
        if why is not None:
            self.fail(f"{shown_as}: {why} — 판정할 수 없음", hint=f"{shown_as} 을(를) 고치세요.")
        raise StudentFailure(
            Finding(
                self.requirement,
                f"{shown_as} 이(가) 없어 판정할 수 없음",
                f"{shown_as} 을(를) 먼저 만드세요.",
                blocked_by=shown_as,
            )
        )

    def hint(self, override: str | None) -> str:
        return self.requirement.hint if override is None else override
