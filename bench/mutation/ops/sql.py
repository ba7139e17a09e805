"""Mutation operators for the lab's SQL (order-check.sql), on a small SQLite tokenizer.

Each is a mistake a student makes in a query: a comparison flipped or off by one, a number
compared as text, a clause (WHERE, JOIN, GROUP BY, HAVING, PARTITION BY, ORDER BY) or one
condition of it dropped.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .common import Edit, Operator

NUMERIC_COLUMNS = frozenset({"seq", "amount"})  # the lab's numeric fields (queue.md, step 3)
COMPARISONS = {
    "=": ["<>"],
    "==": ["<>"],
    "<>": ["="],
    "!=": ["="],
    "<": ["<=", ">="],
    "<=": ["<", ">"],
    ">": [">=", "<="],
    ">=": [">", "<"],
}
SWAPS = {"LAG": "LEAD", "LEAD": "LAG", "MIN": "MAX", "MAX": "MIN"}
JOIN_WORDS = frozenset({"JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "OUTER"})
CLAUSE_STOPS = frozenset(
    {
        "WHERE",
        "GROUP",
        "HAVING",
        "ORDER",
        "LIMIT",
        "WINDOW",
        "UNION",
        "EXCEPT",
        "INTERSECT",
        "ROWS",
        "RANGE",
        "GROUPS",
        "PARTITION",
    }
    | JOIN_WORDS - {"OUTER"}
)
TOKEN = re.compile(
    r"""(?P<space>\s+)
      | (?P<comment>--[^\n]*|/\*.*?\*/)
      | (?P<string>'(?:[^']|'')*')
      | (?P<ident>"(?:[^"]|"")*"|`[^`]*`)
      | (?P<number>\d+(?:\.\d*)?)
      | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<op><>|!=|<=|>=|==|\|\||.)""",
    re.S | re.X,
)


@dataclass(frozen=True)
class Token:
    kind: str
    value: str
    start: int
    end: int
    depth: int  # parentheses open around it (a parenthesis itself counts as outside)

    @property
    def upper(self) -> str:
        return self.value.upper() if self.kind == "word" else ""


def tokens(text: str) -> list[Token]:
    """The significant tokens (no whitespace, no comments)."""
    out: list[Token] = []
    depth = 0
    for match in TOKEN.finditer(text):
        kind = match.lastgroup or "op"
        value = match.group()
        if kind in ("space", "comment"):
            continue
        if value == ")":
            depth -= 1
        out.append(Token(kind, value, match.start(), match.end(), depth))
        if value == "(":
            depth += 1
    return out


def flip_comparison(text: str) -> Iterator[Edit]:
    """<> ↔ =, < ↔ <= (boundary), < ↔ >= (negation), ..."""
    for t in tokens(text):
        for new in COMPARISONS.get(t.value, []) if t.kind == "op" else []:
            yield Edit("sql/flip-comparison", t.start, t.end, new)


def null_test(text: str) -> Iterator[Edit]:
    """IS NOT NULL ↔ IS NULL."""
    ts = tokens(text)
    for a, b, c in zip(ts, ts[1:], ts[2:], strict=False):
        if (a.upper, b.upper, c.upper) == ("IS", "NOT", "NULL"):
            yield Edit("sql/null-test", b.start, c.start, "")
        elif (a.upper, b.upper) == ("IS", "NULL"):
            yield Edit("sql/null-test", b.start, b.start, "NOT ")


def and_or(text: str) -> Iterator[Edit]:
    """AND ↔ OR (not the AND of BETWEEN x AND y)."""
    between = 0
    for t in tokens(text):
        if t.upper == "BETWEEN":
            between += 1
        elif t.upper == "AND" and between:
            between -= 1
        elif t.upper in ("AND", "OR"):
            yield Edit("sql/and-or", t.start, t.end, "OR" if t.upper == "AND" else "AND")


def as_text(text: str) -> Iterator[Edit]:
    """A numeric column compared or ordered as text: CAST(seq AS TEXT) sorts 10 before 9."""
    ts = tokens(text)
    for i, t in enumerate(ts):
        if t.kind != "word" or t.value.lower() not in NUMERIC_COLUMNS:
            continue
        before = ts[i - 1] if i else None
        if before is not None and before.upper == "AS":
            continue  # an alias being defined
        if i + 1 < len(ts) and ts[i + 1].value == ".":
            continue  # a table named like a column
        start = ts[i - 2].start if before is not None and before.value == "." and i >= 2 else t.start
        yield Edit("sql/as-text", start, t.end, f"CAST({text[start : t.end]} AS TEXT)")


def quote_number(text: str) -> Iterator[Edit]:
    """A number written as a string literal: 1 → '1'."""
    for t in tokens(text):
        if t.kind == "number" and t.value.isdigit():
            yield Edit("sql/quote-number", t.start, t.end, f"'{t.value}'")


def off_by_one(text: str) -> Iterator[Edit]:
    """A number ± 1, and a `+ N` / `- N` term dropped."""
    ts = tokens(text)
    for i, t in enumerate(ts):
        if t.kind != "number" or not t.value.isdigit():
            continue
        n = int(t.value)
        for new in [n + 1] + ([n - 1] if n > 0 else []):
            yield Edit("sql/off-by-one", t.start, t.end, str(new))
        sign = ts[i - 1] if i else None
        if (
            sign is not None
            and sign.value in "+-"
            and i >= 2
            and (ts[i - 2].kind != "op" or ts[i - 2].value == ")")
        ):
            yield Edit("sql/off-by-one", ts[i - 2].end, t.end, "")


def _clause_end(ts: list[Token], first: int) -> int:
    """The index of the last token of the clause whose first keyword is ts[first]."""
    depth = ts[first].depth
    last = first
    for j in range(first + 1, len(ts)):
        t = ts[j]
        if t.depth < depth or (t.depth == depth and (t.value == ";" or t.upper in CLAUSE_STOPS)):
            break
        last = j
    return last


def _starters(ts: list[Token]) -> Iterator[tuple[str, int, int]]:
    """(clause name, index of its first token, index where its body starts)."""
    i = 0
    while i < len(ts):
        t, nxt = ts[i], ts[i + 1].upper if i + 1 < len(ts) else ""
        if t.upper in ("WHERE", "HAVING"):
            yield t.upper, i, i + 1
        elif t.upper in ("GROUP", "ORDER", "PARTITION") and nxt == "BY":
            yield f"{t.upper} BY", i, i + 2
            i += 1
        elif t.upper in JOIN_WORDS:
            j = i
            while j < len(ts) and ts[j].upper in JOIN_WORDS:
                j += 1
            yield "JOIN", i, j
            i = j - 1
        i += 1


def drop_clause(text: str) -> Iterator[Edit]:
    """Drop a WHERE, JOIN ... ON, GROUP BY, HAVING, PARTITION BY or ORDER BY clause."""
    ts = tokens(text)
    for _, first, body in _starters(ts):
        last = max(_clause_end(ts, body - 1), body - 1)
        yield Edit("sql/drop-clause", ts[first].start, ts[last].end, "")


def drop_condition(text: str) -> Iterator[Edit]:
    """Drop one condition of an AND chain in WHERE, HAVING or ON."""
    ts = tokens(text)
    for name, _, body in _starters(ts):
        if name not in ("WHERE", "HAVING", "JOIN"):
            continue
        last = _clause_end(ts, body - 1)
        if name == "JOIN":
            ons = [j for j in range(body, last + 1) if ts[j].upper == "ON"]
            if not ons:
                continue
            body = ons[0] + 1
        depth = ts[body].depth if body <= last else 0
        ands, between = [], 0
        for j in range(body, last + 1):
            if ts[j].depth != depth:
                continue
            if ts[j].upper == "BETWEEN":
                between += 1
            elif ts[j].upper == "AND":
                if between:
                    between -= 1
                else:
                    ands.append(j)
        if not ands:
            continue
        bounds = [body - 1, *ands, last + 1]  # token indexes around each condition
        for k in range(len(bounds) - 1):
            lo, hi = bounds[k], bounds[k + 1]
            if k == 0:  # the first condition and the AND after it
                yield Edit("sql/drop-condition", ts[lo + 1].start, ts[hi + 1].start, "")
            else:  # the AND before it and the condition
                yield Edit("sql/drop-condition", ts[lo - 1].end, ts[hi - 1].end, "")


def swap_function(text: str) -> Iterator[Edit]:
    """LAG ↔ LEAD, MIN ↔ MAX."""
    ts = tokens(text)
    for t, nxt in itertools.pairwise(ts):
        if t.upper in SWAPS and nxt.value == "(":
            yield Edit("sql/swap-function", t.start, t.end, SWAPS[t.upper])


def drop_distinct(text: str) -> Iterator[Edit]:
    ts = tokens(text)
    for t, nxt in itertools.pairwise(ts):
        if t.upper == "DISTINCT":
            yield Edit("sql/drop-distinct", t.start, nxt.start, "")


OPERATORS: tuple[Operator, ...] = (
    flip_comparison,
    null_test,
    and_or,
    as_text,
    quote_number,
    off_by_one,
    drop_clause,
    drop_condition,
    swap_function,
    drop_distinct,
)
