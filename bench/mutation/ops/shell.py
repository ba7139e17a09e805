"""Mutation operators for the lab's bash scripts (lag.sh, replay.sh), line by line.

Each is a mistake a student makes in a small script: a test flipped or off by one at its
boundary, numbers compared as text, a guard or a `mv` dropped, a wrong exit code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .common import Edit, Line, Operator, quoted_comment_at, substitutions
from .common import lines as split_lines

NUMERIC_TESTS = {
    "eq": ["ne"],
    "ne": ["eq"],
    "lt": ["le", "ge"],
    "le": ["lt", "gt"],
    "gt": ["ge", "le"],
    "ge": ["gt", "lt"],
}
# [ A -op B ] compared as text: [[ A < B ]] is a string comparison in bash.
AS_TEXT = {
    "lt": "{a} < {b}",
    "gt": "{a} > {b}",
    "le": "! {a} > {b}",
    "ge": "! {a} < {b}",
    "eq": "{a} == {b}",
    "ne": "{a} != {b}",
}


def _lines(text: str) -> list[Line]:
    return split_lines(text, lambda body: quoted_comment_at(body, "#", needs_space_before=True))


def _code_lines(text: str) -> list[Line]:
    return [ln for ln in _lines(text) if ln.code(text).strip()]


def flip_test(text: str) -> Iterator[Edit]:
    """-le ↔ -lt (boundary) and -le ↔ -gt (negation), and so on; = ↔ != in tests."""
    numeric = re.compile(r"(?<=\s)-(eq|ne|lt|le|gt|ge)(?=\s)")
    strings = re.compile(r"(?<=\s)(!=|==|=)(?=\s)")
    for line in _code_lines(text):
        yield from substitutions(
            "sh/flip-test", text, line, numeric, lambda m: (f"-{op}" for op in NUMERIC_TESTS[m.group(1)])
        )
        if "[" in line.code(text):
            yield from substitutions(
                "sh/flip-test", text, line, strings, lambda m: ["=" if m.group(1) == "!=" else "!="]
            )


def as_text(text: str) -> Iterator[Edit]:
    """A numeric test compared as strings: right for one digit, wrong across 9 → 10."""
    test = re.compile(r"\[\[?\s+(\S+)\s+-(lt|le|gt|ge|eq|ne)\s+(\S+)\s+\]\]?")
    for line in _code_lines(text):
        yield from substitutions(
            "sh/as-text",
            text,
            line,
            test,
            lambda m: ["[[ " + AS_TEXT[m.group(2)].format(a=m.group(1), b=m.group(3)) + " ]]"],
        )


def off_by_one(text: str) -> Iterator[Edit]:
    """+ 1 → + 2 / - 1 / gone in $(( )); a number in a test or an assignment → ± 1."""
    term = re.compile(r"\s*([+-])\s*(\d+)(?=[^$]*\)\))")
    operand = re.compile(r"(-(?:eq|ne|lt|le|gt|ge)\s+)(\d+)\b")
    assignment = re.compile(r"(?<![\w$])([A-Za-z_]\w*=)(\d+)\b")

    def term_changes(m: re.Match[str]) -> list[str]:
        sign, n = m.group(1), int(m.group(2))
        other = "-" if sign == "+" else "+"
        return [f" {sign} {n + 1}", f" {other} {n}", ""]

    def plus_minus_one(m: re.Match[str]) -> list[str]:
        head, n = m.group(1), int(m.group(2))
        return [f"{head}{n + 1}"] + ([f"{head}{n - 1}"] if n > 0 else [])

    for line in _code_lines(text):
        yield from substitutions("sh/off-by-one", text, line, term, term_changes)
        yield from substitutions("sh/off-by-one", text, line, operand, plus_minus_one)
        yield from substitutions("sh/off-by-one", text, line, assignment, plus_minus_one)


def _command(pattern: str) -> re.Pattern[str]:
    """A simple command starting with ``pattern`` up to its list operator or the line's end,
    with the && or ; that follows it."""
    return re.compile(
        rf"(?:^|(?<=[\s;&|]))(?:{pattern})(?:'[^']*'|\"[^\"]*\"|[^;&|'\"])*"
        r"(?:&&\s*|;\s*)?"
    )


def drop_mv(text: str) -> Iterator[Edit]:
    """Drop a `mv` command (the file stays where it is), or copy instead of moving."""
    mv = _command(r"mv\b")
    for line in _code_lines(text):
        code = line.code(text)
        for match in mv.finditer(code):
            if code[: match.start()].strip() == "" and code[match.end() :].strip() == "":
                yield Edit("sh/drop-mv", *line.drop(text), "")
            else:
                yield Edit("sh/drop-mv", line.start + match.start(), line.start + match.end(), "")
            yield Edit("sh/drop-mv", line.start + match.start(), line.start + match.start() + 2, "cp")


def exit_code(text: str) -> Iterator[Edit]:
    """exit N → exit 0 (N > 0) or exit 1 (N = 0); or the exit dropped altogether."""
    number = re.compile(r"\bexit\s+(\d+)")
    dropped = re.compile(r"(\s*(?:\|\||&&)\s*)?\bexit(?:\s+\d+)?")
    for line in _code_lines(text):
        yield from substitutions(
            "sh/exit-code", text, line, number, lambda m: ["exit 1" if m.group(1) == "0" else "exit 0"]
        )
        code = line.code(text)
        for match in dropped.finditer(code):
            if not (code[: match.start()] + code[match.end() :]).strip():
                yield Edit("sh/drop-exit", *line.drop(text), "")
            else:
                yield Edit("sh/drop-exit", line.start + match.start(), line.start + match.end(), "")


def _blocks(
    text: str, opening: re.Pattern[str], closing: re.Pattern[str]
) -> Iterator[tuple[Line, Line, list[Line]]]:
    """(first, last, lines) of each block from a line matching ``opening`` to the matching
    ``closing`` line (nesting counted)."""
    code_lines = _code_lines(text)
    for i, first in enumerate(code_lines):
        if not opening.search(first.code(text)):
            continue
        depth = 0
        for j in range(i, len(code_lines)):
            code = code_lines[j].code(text)
            depth += len(opening.findall(code)) - len(closing.findall(code))
            if depth == 0:
                yield first, code_lines[j], code_lines[i : j + 1]
                break


def drop_case_guard(text: str) -> Iterator[Edit]:
    """Drop a whole `case ... esac` guard, or one alternative of a `a | b | c)` pattern."""
    for first, last, block in _blocks(text, re.compile(r"^\s*case\b"), re.compile(r"\besac\b")):
        yield Edit("sh/drop-case-guard", first.start, last.drop(text)[1], "")
        for line in block[1:]:
            code = line.code(text)
            pattern = re.match(r"(\s*)([^()]*\|[^()]*)\)", code)
            if pattern is None:
                continue
            alternatives = [a.strip() for a in pattern.group(2).split("|")]
            for k in range(len(alternatives)):
                kept = " | ".join(a for n, a in enumerate(alternatives) if n != k)
                start = line.start + pattern.start(2)
                yield Edit("sh/drop-case-guard", start, line.start + pattern.end(2), kept)


def drop_guard(text: str) -> Iterator[Edit]:
    """Drop an `if ...; then ... fi` block, or the `[ test ] &&` before a command."""
    for first, last, _ in _blocks(text, re.compile(r"^\s*if\b"), re.compile(r"\bfi\b")):
        yield Edit("sh/drop-guard", first.start, last.drop(text)[1], "")
    and_guard = re.compile(r"\[\[?\s[^]]*\]\]?\s*&&\s*")
    for line in _code_lines(text):
        yield from substitutions("sh/drop-guard", text, line, and_guard, lambda m: [""])


def negation(text: str) -> Iterator[Edit]:
    """Drop a `!` from a test: `[ ! -f x ]` → `[ -f x ]`, `! [[ ... ]]` → `[[ ... ]]`."""
    bang = re.compile(r"(?<=[\s\[])!\s+(?=[-\[\"$])")
    for line in _code_lines(text):
        yield from substitutions("sh/negation", text, line, bang, lambda m: [""])


def drop_condition(text: str) -> Iterator[Edit]:
    """`if A || B; then` → `if A; then` and `if B; then` (likewise with &&)."""
    condition = re.compile(r"^(\s*if\s+)(.+?)\s*(\|\||&&)\s*(.+?)(\s*;\s*then\b)")
    for line in _code_lines(text):
        match = condition.match(line.code(text))
        if match is None:
            continue
        for kept in (match.group(2), match.group(4)):
            yield Edit("sh/drop-condition", line.start + match.start(2), line.start + match.end(4), kept)


def file_test(text: str) -> Iterator[Edit]:
    """-f (a regular file) ↔ -e (anything by that name)."""
    test = re.compile(r"(?<=\s)-([fe])(?=\s)")
    for line in _code_lines(text):
        if "[" in line.code(text):
            yield from substitutions(
                "sh/file-test", text, line, test, lambda m: ["-e" if m.group(1) == "f" else "-f"]
            )


OPERATORS: tuple[Operator, ...] = (
    flip_test,
    as_text,
    off_by_one,
    drop_mv,
    exit_code,
    drop_case_guard,
    drop_guard,
    negation,
    drop_condition,
    file_test,
)
