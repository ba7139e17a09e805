"""What every operator of ours produces, and the text helpers they share."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    """Replace text[start:end] by ``new``: one mutant, made by ``operator``."""

    operator: str
    start: int
    end: int
    new: str

    def apply(self, text: str) -> str:
        return text[: self.start] + self.new + text[self.end :]


@dataclass(frozen=True)
class TextMutant:
    operator: str
    text: str  # the whole mutated file


Operator = Callable[[str], Iterable[Edit]]


def mutants(text: str, operators: Iterable[Operator]) -> list[TextMutant]:
    """Every distinct mutant of ``text`` (a change that yields a text already made, or the
    original, is dropped: the first operator to make it names it)."""
    seen = {text}
    out: list[TextMutant] = []
    for operator in operators:
        for edit in operator(text):
            mutated = edit.apply(text)
            if mutated not in seen:
                seen.add(mutated)
                out.append(TextMutant(edit.operator, mutated))
    return out


@dataclass(frozen=True)
class Line:
    number: int  # 1-based
    start: int  # offset of the line in the text
    end: int  # offset after the line's last character (before its newline)
    code_end: int  # offset where a trailing comment starts (or ``end``)

    def code(self, text: str) -> str:
        return text[self.start : self.code_end]

    def drop(self, text: str) -> tuple[int, int]:
        """The span that removes the whole line, its newline included."""
        return self.start, min(self.end + 1, len(text))


def lines(text: str, comment_at: Callable[[str], int]) -> list[Line]:
    """The lines of ``text`` with where each one's comment starts (``comment_at`` gives the
    index in the line, or its length when it has none)."""
    out: list[Line] = []
    start = 0
    for number, body in enumerate(text.split("\n"), start=1):
        out.append(Line(number, start, start + len(body), start + comment_at(body)))
        start += len(body) + 1
    return out


def quoted_comment_at(line: str, marker: str, needs_space_before: bool) -> int:
    """Where ``marker`` starts a comment in ``line``, outside single and double quotes."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
            continue
        if char in "'\"":
            quote = char
        elif line.startswith(marker, i) and (not needs_space_before or i == 0 or line[i - 1].isspace()):
            return i
    return len(line)


def substitutions(
    operator: str,
    text: str,
    line: Line,
    pattern: re.Pattern[str],
    replace: Callable[[re.Match[str]], Iterable[str]],
) -> Iterator[Edit]:
    """One edit per match of ``pattern`` in the line's code and per replacement of it."""
    code = line.code(text)
    for match in pattern.finditer(code):
        for new in replace(match):
            yield Edit(operator, line.start + match.start(), line.start + match.end(), new)
