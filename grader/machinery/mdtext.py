"""Student text inside Markdown (Gradescope's ``output_format: md``, GitHub's job summary):
shown as written, never read as Markdown or HTML. A student's script output or file content
that could close a code block, draw a heading, a link, an image or a tag would let a
submission dress up its own report (a fake "통과" line, a link to anywhere). A URL's password
is never shown (urls.without_passwords): once escaped, it could no longer be found."""

from __future__ import annotations

import re

from grader.machinery.urls import without_passwords

_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # ASCII punctuation: CommonMark escapes any of it
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_BACKTICKS = re.compile(r"`+")
_LABEL = re.compile(r"^\*\*([^*]+)\*\*:")


def literal(text: str) -> str:
    """``text`` for a Markdown paragraph: every ASCII punctuation mark backslash-escaped, so
    it shows as itself (no emphasis, link, heading, list, table cell, HTML tag or entity)."""
    return _PUNCTUATION.sub(r"\\\1", without_passwords(text))


def plain(markdown: str) -> str:
    """The text a reader sees of Markdown made with ``literal`` and ``code_block`` (and bold
    labels): fences dropped, ``**label**:`` as ``label:``, escapes undone outside code blocks."""
    lines, fence = [], ""
    for line in markdown.splitlines():
        run = len(line) - len(line.lstrip("`"))
        if run >= 3 and (not fence or line.strip() == fence):
            fence = "" if fence else "`" * run
            continue
        lines.append(line if fence else _ESCAPED.sub(r"\1", _LABEL.sub(r"\1:", line)))
    return "\n".join(lines)


def code_block(text: str, info: str = "") -> str:
    """``text`` in a fenced code block whose fence no line of ``text`` can close: one backtick
    longer than its longest run of backticks (at least three)."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{text}\n{fence}"
