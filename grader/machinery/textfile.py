"""One tolerant, safe reader for every text a student produces (files and scripts' output).

Tolerant: UTF-8 with or without a BOM, LF or CRLF (or CR) line ends, with or without a final
newline all read the same. Anything stricter is the caller's business, with its own message.

Safe: only a regular file is ever opened for reading (a FIFO would block, /dev/zero never
ends), and only its first ``limit`` bytes are read. A file that cannot be read as text raises
``Unreadable`` with a Korean reason that says exactly what is wrong.
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from pathlib import Path

TEXT_LIMIT = 1 << 20  # 1 MiB: far above any report or script of the labs
BOM = "\ufeff"
KINDS = {
    stat.S_IFIFO: "FIFO(이름 있는 파이프)",
    stat.S_IFSOCK: "소켓",
    stat.S_IFCHR: "문자 장치",
    stat.S_IFBLK: "블록 장치",
    stat.S_IFDIR: "디렉터리",
}


class Unreadable(Exception):
    """The file is there but cannot be read as text; ``reason`` says why, in Korean."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def kind(mode: int) -> str | None:
    """The Korean name of a file type that is not a regular file; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    return KINDS.get(stat.S_IFMT(mode), "특수 파일")


def read_bytes(path: Path, limit: int = TEXT_LIMIT) -> bytes:
    """The bytes of a regular file (following links), never more than ``limit``."""
    data = head(path, limit + 1)
    if len(data) > limit:
        raise Unreadable(path, f"{limit // 1024} KiB 보다 큼: 텍스트 파일이 맞나요?")
    return data


def head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of a regular file (following links); anything else (a FIFO
    would block, a device never ends, a directory) raises Unreadable saying what it is."""
    try:
        before = path.stat()
    except OSError as exc:
        raise Unreadable(path, f"읽을 수 없음({exc.strerror})") from exc
    if (what := kind(before.st_mode)) is not None:
        raise Unreadable(path, f"보통 파일이 아니라 {what}")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise Unreadable(path, f"읽을 수 없음({exc.strerror})") from exc
    try:
        if (what := kind(os.fstat(fd).st_mode)) is not None:  # swapped since the stat
            raise Unreadable(path, f"보통 파일이 아니라 {what}")
        return os.read(fd, size)
    finally:
        os.close(fd)


def decode(data: bytes, what: str = "내용") -> str:
    """UTF-8 (a BOM dropped), every line end as LF. Raises ValueError naming the bad byte."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{what}이 UTF-8 이 아님({exc.start + 1}번째 바이트 0x{data[exc.start]:02x})"
        ) from exc
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: Path, limit: int = TEXT_LIMIT) -> str:
    """A student's text file, read tolerantly and safely."""
    try:
        return decode(read_bytes(path, limit), "파일 내용")
    except ValueError as exc:
        raise Unreadable(path, str(exc)) from exc


def lines(text: str) -> list[str]:
    """The lines of ``text`` without their ends; a final newline adds no empty line."""
    return text.splitlines()


def output_text(data: bytes) -> str:
    """A script's output as text, tolerantly: a byte that is not UTF-8 becomes U+FFFD."""
    return data.decode("utf-8", "replace").removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


# Characters a terminal or an editor acts on instead of showing: C0 and C1 controls but the line
# break and the tab (ESC starts colour, cursor moves, a window title, a clipboard write: OSC
# 52), DEL, and the bidirectional overrides and isolates (text shown in another order).
_ACTED_ON = {
    *(c for c in range(0x20) if c not in (0x0A, 0x09)),
    *range(0x7F, 0xA0),
    *range(0x202A, 0x202F),
    *range(0x2066, 0x206A),
}
_VISIBLE = {c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}" for c in _ACTED_ON}


def visible(text: str) -> str:
    """``text`` with every character a terminal would act on written out as an escape (``\\x1b``):
    what a script printed is shown to students and instructors, never obeyed by their terminal."""
    return text.translate(_VISIBLE)


class NotParsed(ValueError):
    """A student's text that does not parse as the format asked; ``reason`` in Korean."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def csv_rows(text: str) -> list[list[str]]:
    """The rows of a student's CSV text (``skipinitialspace``), as the csv module reads them:
    fields of any length the text may hold (the module's own limit is 128 Ki characters: a
    longer field was a grader error, red team 14); what it cannot read raises NotParsed."""
    csv.field_size_limit(max(csv.field_size_limit(), len(text) + 1))
    try:
        return list(csv.reader(io.StringIO(text), skipinitialspace=True))
    except csv.Error as exc:
        raise NotParsed(f"CSV 로 읽을 수 없음({exc})") from exc


def json_value(data: str | bytes) -> object:
    """A student's JSON, decoded; NotParsed for anything that is not JSON, or nests deeper than
    the decoder goes (red team 14: a body of 200,000 nested arrays was a RecursionError, a
    grader error)."""
    try:
        return json.loads(data)
    except RecursionError as exc:
        raise NotParsed("JSON 이 너무 깊게 중첩됨") from exc
    except ValueError as exc:  # also a byte string that is not UTF-8
        raise NotParsed(f"JSON 이 아님({exc})") from exc
