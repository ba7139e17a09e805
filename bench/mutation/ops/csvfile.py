"""Mutation operators for schema.csv (field,type,role): rows dropped, types and roles wrong."""

from __future__ import annotations

from collections.abc import Iterator

from .common import Edit, Line, Operator
from .common import lines as split_lines

NUMERIC = frozenset({"integer", "int", "bigint", "number", "numeric", "float", "real", "decimal"})
TEXTUAL = frozenset({"string", "text", "str", "varchar"})


def _rows(text: str) -> list[tuple[Line, list[str]]]:
    """Each non-empty line and its fields (the file has no quoted fields)."""
    out = []
    for line in split_lines(text, len):
        body = line.code(text).rstrip("\r")
        if body.strip():
            out.append((line, body.split(",")))
    return out


def _rewrite(operator: str, text: str, rows: list[tuple[Line, list[str]]]) -> Edit:
    """One edit giving each of ``rows`` its new fields (one row, or several in one span)."""
    rows = sorted(rows, key=lambda row: row[0].start)
    ends = [line.start + len(line.code(text).rstrip("\r")) for line, _ in rows]
    first, last = rows[0][0].start, ends[-1]
    new = text[first:last]
    for (line, fields), end in reversed(list(zip(rows, ends, strict=True))):
        new = new[: line.start - first] + ",".join(fields) + new[end - first :]
    return Edit(operator, first, last, new)


def drop_row(text: str) -> Iterator[Edit]:
    """A field forgotten (or the header)."""
    for line, _ in _rows(text):
        yield Edit("csv/drop-row", *line.drop(text), "")


def wrong_type(text: str) -> Iterator[Edit]:
    """A number typed as text, a text typed as a number."""
    for line, fields in _rows(text)[1:]:
        if len(fields) < 2:
            continue
        kind = fields[1].strip().lower()
        new = "string" if kind in NUMERIC else "integer" if kind in TEXTUAL else None
        if new is not None:
            yield _rewrite("csv/wrong-type", text, [(line, [fields[0], new, *fields[2:]])])


def wrong_role(text: str) -> Iterator[Edit]:
    """A role dropped, or moved to the next field that has none."""
    rows = _rows(text)[1:]
    for i, (line, fields) in enumerate(rows):
        if len(fields) < 3 or not fields[2].strip():
            continue
        dropped = [*fields[:2], "", *fields[3:]]
        yield _rewrite("csv/wrong-role", text, [(line, dropped)])
        other_line, other = rows[(i + 1) % len(rows)]
        if len(other) >= 3 and not other[2].strip():
            moved = [*other[:2], fields[2], *other[3:]]
            yield _rewrite("csv/wrong-role", text, [(line, dropped), (other_line, moved)])


OPERATORS: tuple[Operator, ...] = (drop_row, wrong_type, wrong_role)
