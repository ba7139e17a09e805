"""The submission format: a gzipped tar of every lab's directories (LAB_ROOT/q,
LAB_ROOT/eaimw/mq: the catalogue's paths) plus a manifest.

    MANIFEST.json     format, lab root, time, tool version, sha256 of every regular file
    q/...             the queue lab, every file kind kept: modes, links as links, empty folders
    eaimw/mq/...      the mq lab

Unpacking trusts nothing. The archive is read as a stream, one header at a time, by the reader
below (not tarfile): every limit is checked against what a header declares before the bytes it
declares are read or decompressed, so neither time nor memory depends on what the archive
holds beyond the limits. It is read twice: first every entry is checked and nothing is written
(no ``../``, no absolute path, no link leading out, no hard link or special file, no odd
metadata, no oversized member, no entry below a link, no duplicate, the manifest's file list),
then it is written, through a descriptor of the destination, files created without following
links, each file's sha256 checked against the manifest. A folder submission goes through the
same checks by being packed first, and ``pack`` reads back what it wrote the same way.

Names are bytes on disk and in the archive (PAX ``hdrcharset=BINARY`` when they are not UTF-8).
In Python, and as keys of MANIFEST.json, a name is ``os.fsdecode`` of its bytes: a byte that
is not UTF-8 is the lone surrogate U+DC80+byte, written in the JSON as the escape ``\\udcNN``
(JSON allows any ``\\uXXXX``); ``json.loads`` gives back the same string and ``os.fsencode``
the same bytes.

An entry's path below the lab root (``q/...``), with its terminating NUL, must fit in the
PATH_MAX of the filesystem it is packed from or unpacked to, and each of its names in NAME_MAX
(``os.pathconf``): the lab root is reached through a descriptor, so where it lies does not
count.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import posixpath
import re
import stat
import tarfile
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import IO, NamedTuple

from grader.classroom.version import tool_version
from grader.labs import CATALOGUE

PARTS = CATALOGUE.paths  # what a submission holds, relative to the lab root (every lab's)
# Folders above a part (eaimw/ for eaimw/mq/): unpacking makes them, and they may be links.
MADE = tuple(sorted({str(p) for part in PARTS for p in PurePosixPath(part).parents if str(p) != "."}))
PARTS_SHOWN = ", ".join(f"{part}/" for part in PARTS)
MANIFEST = "MANIFEST.json"
FORMAT = "eai-lab-submission/1"
PACKED_SUFFIXES = (".tar.gz", ".tgz", ".tar")

# Limits, each checked before the work it limits.
MAX_MEMBER = 64 * 1024 * 1024  # bytes of one file
MAX_TOTAL = 256 * 1024 * 1024  # bytes of all files together
MAX_MEMBERS = 50_000  # entries, counting the folders an archive implies without listing them
MAX_EXTENDED = 64 * 1024  # bytes of one PAX header, GNU long name or GNU long link
MAX_MANIFEST = 8 * 1024 * 1024  # bytes of MANIFEST.json
MAX_NAMES = 16 * 1024 * 1024  # bytes of all names and link targets together (kept in memory)
# Bytes of tar decompressed, in all: the files, and room for every member's headers and padding.
MAX_UNPACKED = MAX_TOTAL + MAX_MANIFEST + MAX_NAMES + MAX_MEMBERS * 4 * 512
MAX_LINK_STEPS = 1_000_000  # path components walked, all links together, to see where links lead
MAX_LINK_HOPS = 40  # links followed in one path before giving up, as the kernel does (ELOOP)
MTIME_LIMIT = 8**11  # |mtime| below this: what the 11 octal digits of a ustar header hold
ID_LIMIT = 2**32  # uid and gid below this

FILE, DIR, LINK, HARDLINK, SPECIAL = "file", "folder", "link", "hard link", "special"
BLOCK = 512
# json's own (C) string scanner: (text, index after the opening quote) -> (string, index after it)
_scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
CHUNK = 1 << 20  # bytes decompressed, read or written at a time
GZIP_MAGIC = b"\x1f\x8b"


class UnsafeSubmission(ValueError):
    """A submission that cannot be unpacked safely, or packed faithfully: the message says why."""


class _Unreadable(UnsafeSubmission):
    """Not a tar (or gzipped tar) that can be read; ``unpack`` names the file."""


def _shown(name: str) -> str:
    """A name for a message, whatever it holds: bytes that are not UTF-8 as \\xNN and control
    characters escaped, so that a name can neither break a message nor forge a line of it."""
    try:
        raw = os.fsencode(name)
    except UnicodeEncodeError:  # a surrogate os.fsdecode never makes (from JSON)
        raw = name.encode("utf-8", "backslashreplace")
    text = raw.decode("utf-8", "backslashreplace")
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


class _Shown:
    """``_shown(name)``, worked out only if a message is made."""

    def __init__(self, name: str | bytes) -> None:
        self.name = name

    def __str__(self) -> str:  # (and so f"{...}")
        return _shown(os.fsdecode(self.name))


@dataclass(frozen=True)
class Manifest:
    lab_root: str
    created: str
    tool: str
    files: dict[str, str]  # archive path -> sha256 of its bytes

    def to_json(self) -> bytes:
        body = {
            "format": FORMAT,
            "lab_root": self.lab_root,
            "created": self.created,
            "tool": self.tool,
            "files": self.files,
        }
        # A name that is not UTF-8 holds lone surrogates: "backslashreplace" writes each as the
        # JSON escape \udcNN (see the module's docstring). Nothing else is replaced.
        text = json.dumps(body, ensure_ascii=False, indent=2, sort_keys=True)
        return text.encode("utf-8", "backslashreplace")

    @classmethod
    def from_json(cls, data: bytes) -> Manifest:
        try:
            text = data.decode("utf-8")
            _check_shape(text)
            body = json.loads(text)
            if not isinstance(body, dict):
                raise ValueError("JSON 객체가 아닙니다")
            if body.get("format") != FORMAT:
                raise UnsafeSubmission(
                    f"{MANIFEST}: 형식 {body.get('format')!r} 은(는) {FORMAT} 이(가) 아닙니다"
                )
            files = {str(k): str(v) for k, v in body["files"].items()}
            return cls(str(body["lab_root"]), str(body["created"]), str(body["tool"]), files)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            if isinstance(exc, UnsafeSubmission):
                raise
            raise UnsafeSubmission(f"{MANIFEST} 을(를) 읽을 수 없습니다: {exc}") from exc


def _check_shape(text: str) -> None:
    """Refuse, before json builds anything, what a manifest never holds: an array, a third object,
    more strings than two a member. What json then builds is a small multiple of ``text``."""
    objects = strings = 0
    at = 0
    while True:
        quote = text.find('"', at)
        end = len(text) if quote < 0 else quote
        if text.find("[", at, end) >= 0:
            raise ValueError("배열이 있습니다")
        objects += text.count("{", at, end)
        if objects > 2:
            raise ValueError("객체가 너무 많습니다")
        if quote < 0:
            return
        strings += 1
        if strings > 2 * MAX_MEMBERS + 16:
            raise ValueError("문자열이 너무 많습니다")
        _, at = _scanstring(text, quote + 1)


def submission_name(path: Path) -> str:
    """The student's name in a batch: the file or folder name without its extension."""
    for suffix in PACKED_SUFFIXES:
        if path.name.endswith(suffix) and path.is_file():
            return path.name[: -len(suffix)]
    return path.name


# entries and their checks ------------------------------------------------------------------------
class Entry(NamedTuple):
    """One entry of a submission: its path below the lab root (``os.fsdecode`` of its bytes, no
    trailing slash), its kind (FILE, DIR, LINK, HARDLINK, SPECIAL) and the metadata kept."""

    name: str
    kind: str
    mode: int
    mtime: int
    size: int = 0
    target: str = ""  # where a link (or hard link) points


def _part_of(name: str) -> str | None:
    return next((p for p in PARTS if name == p or name.startswith(f"{p}/")), None)


def _fs_limits(root: Path) -> tuple[int, int]:
    """PATH_MAX and NAME_MAX of the filesystem ``root`` is on, or will be on once made."""
    at = root
    while not at.exists() and at != at.parent:
        at = at.parent
    try:
        path_max, name_max = os.pathconf(at, "PC_PATH_MAX"), os.pathconf(at, "PC_NAME_MAX")
    except (OSError, ValueError):
        path_max = name_max = -1
    return (path_max if path_max > 0 else 4096), (name_max if name_max > 0 else 255)


def _leads_out(name: str, target: str) -> UnsafeSubmission:
    return UnsafeSubmission(f"{_shown(name)} -> {_shown(target)}: 제출물 밖을 가리키는 링크입니다")


def _too_many(count: int) -> UnsafeSubmission:
    return UnsafeSubmission(f"항목이 {count}개로 너무 많습니다(최대 {MAX_MEMBERS})")


class Checks:
    """Everything a submission's entries must pass, checked entry by entry in archive order, the
    same way when packing and when unpacking (so the packer refuses what the unpacker would):
    refused, with the entry's name and the reason, is anything that could write outside the lab
    root or is not a faithful part of one. ``root`` is the lab root packed from or unpacked to:
    its filesystem's PATH_MAX and NAME_MAX limit the names, and what lies in it outside q/ and
    eaimw/mq/ is where a link may lead through. Memory is bounded by MAX_NAMES."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.abspath(root))
        self.path_max, self.name_max = _fs_limits(self.root)
        self.count = 0
        self.total = 0
        self.names = 0
        self.kinds: dict[str, str] = {}  # every name seen, and the folders implied -> kind
        self.implied: set[str] = set()  # folders no entry has named (yet)
        self.links: dict[str, str] = {}  # link -> target
        self.files: set[str] = set()  # regular files but the manifest

    def add(self, entry: Entry) -> list[str]:
        """Check ``entry``; returns the folders it implies (its parents no entry named before it,
        outermost first), which unpacking makes and which count as entries."""
        self.count += 1
        if self.count > MAX_MEMBERS:
            raise _too_many(self.count)
        name = entry.name
        shown = _Shown(name)
        if "\0" in name:
            raise UnsafeSubmission(f"{shown}: 이름에 NUL 문자가 있습니다")
        if name.startswith("/") or posixpath.isabs(name):
            raise UnsafeSubmission(f"{shown}: 절대 경로 항목은 받을 수 없습니다")
        parts = name.split("/")
        if "" in parts or "." in parts or ".." in parts:  # normalized: no "//", "/./", "/../"
            raise UnsafeSubmission(f"{shown}: ../ 나 정규화되지 않은 경로는 받을 수 없습니다")
        raw = os.fsencode(name)
        if len(raw) >= self.path_max:
            raise UnsafeSubmission(
                f"{str(shown)[:200]}...: 경로가 {len(raw)} 바이트로 너무 깁니다(최대 {self.path_max - 1})"
            )
        longest = max(map(len, raw.split(b"/")))
        if longest > self.name_max:
            raise UnsafeSubmission(
                f"{str(shown)[:200]}: 이름 하나가 {longest} 바이트로 너무 깁니다(최대 {self.name_max})"
            )
        if name != MANIFEST and _part_of(name) is None:
            raise UnsafeSubmission(f"{shown}: {PARTS_SHOWN} 밖의 항목입니다")
        made = self._parents(name, shown)
        upgrade = name in self.implied and entry.kind == DIR  # a folder named after its content
        if name in self.kinds and not upgrade:
            raise UnsafeSubmission(f"{shown}: 같은 이름의 항목이 두 번 있습니다")
        if entry.kind == HARDLINK:
            raise UnsafeSubmission(f"{shown}: 하드 링크는 받을 수 없습니다(파일로 담으세요)")
        if entry.kind == SPECIAL:
            raise UnsafeSubmission(f"{shown}: 특수 파일(장치, FIFO 등)은 받을 수 없습니다")
        if name in PARTS and entry.kind != DIR:
            raise UnsafeSubmission(f"{shown} 은(는) 폴더여야 합니다(링크나 파일이 아니라)")
        if name == MANIFEST and entry.kind != FILE:
            raise UnsafeSubmission(f"{MANIFEST} 은(는) 일반 파일이어야 합니다")
        if entry.kind != FILE and entry.size:
            raise UnsafeSubmission(
                f"{shown}: 파일이 아닌 항목({entry.kind})에 {entry.size} 바이트가 있습니다"
            )
        if not 0 <= entry.mode <= 0o7777:
            raise UnsafeSubmission(f"{shown}: 권한 값 {entry.mode:o} 이(가) 이상합니다")
        if not -MTIME_LIMIT < entry.mtime < MTIME_LIMIT:
            raise UnsafeSubmission(f"{shown}: 수정 시각 {entry.mtime} 이(가) 범위 밖입니다")
        target = self._target(name, shown, entry.target) if entry.kind == LINK else 0
        limit = MAX_MANIFEST if name == MANIFEST else MAX_MEMBER
        if entry.size > limit:
            raise UnsafeSubmission(f"{shown}: {entry.size} 바이트로 너무 큽니다(최대 {limit})")
        self.total += entry.size
        if self.total > MAX_TOTAL:
            raise UnsafeSubmission(f"제출물이 모두 {self.total} 바이트를 넘어 너무 큽니다(최대 {MAX_TOTAL})")
        self.count += len(made) - upgrade
        if self.count > MAX_MEMBERS:
            raise _too_many(self.count)
        self.names += (0 if upgrade else len(raw)) + target + sum(len(os.fsencode(m)) for m in made)
        if self.names > MAX_NAMES:
            raise UnsafeSubmission(
                f"이름과 링크 대상이 모두 {self.names} 바이트로 너무 깁니다(최대 {MAX_NAMES})"
            )
        for folder in made:
            self.kinds[folder] = DIR
            self.implied.add(folder)
        self.implied.discard(name)
        self.kinds[name] = entry.kind
        if entry.kind == LINK:
            self.links[name] = entry.target
        elif entry.kind == FILE and name != MANIFEST:
            self.files.add(name)
        return made

    def _parents(self, name: str, shown: _Shown) -> list[str]:
        top = _made_above(name)  # unpacking makes it if need be
        made: list[str] = []
        parent = posixpath.dirname(name)
        while parent != top:
            kind = self.kinds.get(parent)
            if kind == LINK:
                raise UnsafeSubmission(f"{shown}: 링크 아래에 놓인 항목은 받을 수 없습니다")
            if kind is not None and kind != DIR:
                raise UnsafeSubmission(f"{shown}: 폴더가 아닌 {_shown(parent)} 아래에 놓인 항목입니다")
            if kind == DIR:
                break  # its own parents were checked when it came
            made.append(parent)
            parent = posixpath.dirname(parent)
        made.reverse()
        return made

    def _target(self, name: str, shown: _Shown, target: str) -> int:
        """Check a link's target on its own; returns its size in bytes."""
        if not target or "\0" in target:
            raise UnsafeSubmission(f"{shown}: 링크 대상이 비었거나 NUL 문자가 있습니다")
        raw = os.fsencode(target)
        if len(raw) >= self.path_max:
            raise UnsafeSubmission(
                f"{shown}: 링크 대상이 {len(raw)} 바이트로 너무 깁니다(최대 {self.path_max - 1})"
            )
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
        if posixpath.isabs(target) or resolved == ".." or resolved.startswith("../"):
            raise _leads_out(name, target)
        return len(raw)

    def finish(self) -> None:
        """Once every entry is in: refuse a link that leads out of the lab root when followed
        through the other links (and what is already in the lab root outside the parts), as the
        kernel would follow it. Each link alone was checked by ``add``."""
        steps = 0
        for name, target in self.links.items():
            steps = self._follow(name, target, steps)

    def _follow(self, name: str, target: str, steps: int) -> int:
        known = posixpath.dirname(name)  # a real folder: no entry lies below a link
        beyond = 0  # components past ``known`` naming nothing: only ".." can matter there
        pending = target.split("/")[::-1]
        hops = 0
        while pending:
            steps += 1
            if steps > MAX_LINK_STEPS:
                raise UnsafeSubmission(
                    f"링크가 너무 많이 얽혀 있습니다(따라갈 단계가 {MAX_LINK_STEPS}개를 넘습니다)"
                )
            part = pending.pop()
            if part in ("", "."):
                continue
            if part == "..":
                if beyond:
                    beyond -= 1
                elif known:
                    known = posixpath.dirname(known)
                else:
                    raise _leads_out(name, target)
                continue
            if beyond:
                beyond += 1
                continue
            at = f"{known}/{part}" if known else part
            kind, points_to = self._lookup(at, name, target)
            if kind == DIR:
                known = at
            elif kind == LINK:
                hops += 1
                if hops > MAX_LINK_HOPS:
                    return steps  # a loop: the kernel gives up (ELOOP) and reaches nothing
                if points_to.startswith("/"):
                    raise _leads_out(name, target)
                pending.extend(points_to.split("/")[::-1])
            else:
                beyond = 1
        return steps

    def _lookup(self, at: str, name: str, target: str) -> tuple[str | None, str]:
        """What ``at`` is: in the parts, what the archive says; elsewhere, what is on disk."""
        if _part_of(at) is not None:
            return self.kinds.get(at), self.links.get(at, "")
        path = os.path.join(self.root, at)
        try:
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                return LINK, os.readlink(path)
        except (FileNotFoundError, NotADirectoryError):
            # Unpacking makes eaimw/ for eaimw/mq/: a folder then, that a link may lead through.
            made = at in MADE and any(p.startswith(f"{at}/") and p in self.kinds for p in PARTS)
            return (DIR if made else None), ""
        except OSError as exc:
            raise UnsafeSubmission(
                f"{_shown(name)} -> {_shown(target)}: 링크가 가리키는 곳을 알 수 없습니다: {exc.strerror}"
            ) from exc
        return (DIR if stat.S_ISDIR(st.st_mode) else FILE), ""


# reaching entries at any depth -------------------------------------------------------------------
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class _Cursor:
    """One open folder below a lab root's descriptor, moved from entry to entry. Entries come
    parents first, so the next folder is mostly the same, or one level down or up: each entry
    is then reached by one short name, and no syscall walks a long path again and again (a
    path 2,000 folders deep would cost 2,000 lookups an entry). No folder opened is a link."""

    def __init__(self, root_fd: int) -> None:
        self._root = root_fd
        self._path = ""
        self._fd = root_fd

    def at(self, folder: str) -> int:
        """A descriptor of ``folder`` ("" for the root), valid until the next call."""
        here = self._path
        if folder == here:
            return self._fd
        if not folder:
            fd = self._root
        elif here and folder.startswith(f"{here}/") and "/" not in folder[len(here) + 1 :]:
            fd = os.open(folder[len(here) + 1 :], _DIR_FLAGS, dir_fd=self._fd)
        elif "/" in here and posixpath.dirname(here) == folder:
            fd = os.open("..", _DIR_FLAGS, dir_fd=self._fd)
        else:  # eaimw/ itself may be a link (the lab root's own): it is followed, as always
            flags = _DIR_FLAGS & ~os.O_NOFOLLOW if folder in MADE else _DIR_FLAGS
            fd = os.open(folder, flags, dir_fd=self._root)
        self.close()
        self._path, self._fd = folder, fd
        return fd

    def close(self) -> None:
        if self._fd != self._root:
            os.close(self._fd)
        self._path, self._fd = "", self._root


# reading a tar stream ---------------------------------------------------------------------------
class _Source:
    """The tar bytes of a submission file (gzip, or plain tar), decompressed only on demand: no
    more than MAX_UNPACKED of them, refused before they are produced."""

    def __init__(self, f: IO[bytes]) -> None:
        self._f = f
        self.produced = 0
        self._read = 0  # compressed bytes
        gzipped = f.read(2) == GZIP_MAGIC
        f.seek(0)
        self._inflate = zlib.decompressobj(wbits=31) if gzipped else None

    def read(self, n: int) -> bytes:
        """Exactly ``n`` bytes."""
        if self.produced + n > MAX_UNPACKED:
            raise UnsafeSubmission(f"압축을 푼 내용이 너무 큽니다(최대 {MAX_UNPACKED} 바이트)")
        chunks = []
        left = n
        while left:
            chunk = self._some(min(left, CHUNK))
            if not chunk:
                raise _Unreadable("파일이 중간에 끊겼습니다")
            chunks.append(chunk)
            left -= len(chunk)
        self.produced += n
        return b"".join(chunks)

    def skip(self, n: int) -> None:
        while n:
            n -= len(self.read(min(n, CHUNK)))

    def _input(self) -> bytes:
        data = self._f.read(1 << 16)
        self._read += len(data)
        if self._read > MAX_UNPACKED + CHUNK:  # deflate never needs that much for what it may give
            raise _Unreadable("압축된 내용이 너무 깁니다")
        return data

    def _some(self, want: int) -> bytes:
        """Up to ``want`` bytes; b"" at the end of the data."""
        if self._inflate is None:
            return self._plain(want)
        while True:
            if self._inflate.eof:  # another gzip member may follow (as gzip allows)
                rest = self._inflate.unused_data
                if len(rest) < 2:
                    rest += self._input()
                if not rest.startswith(GZIP_MAGIC):
                    return b""
                self._inflate = zlib.decompressobj(wbits=31)
                data = rest
            else:
                data = self._inflate.unconsumed_tail or self._input()
            try:
                out = self._inflate.decompress(data, want)
            except zlib.error as exc:
                raise _Unreadable(f"gzip 이 손상되었습니다: {exc}") from exc
            if out:
                return out
            if not data and not self._inflate.eof:
                return b""

    def _plain(self, want: int) -> bytes:
        data = self._f.read(want)
        self._read += len(data)
        return data


class _Header(NamedTuple):
    name: bytes
    linkname: bytes
    flag: bytes
    mode: int
    mtime: int
    size: int


_OCTAL = re.compile(rb"[0-7]*")


def _octal(field: bytes, what: str, where: _Shown) -> int:
    """A number field of a ustar header: octal digits, or GNU base-256."""
    if field[0] == 0x80:
        return int.from_bytes(field[1:], "big")
    if field[0] == 0xFF:
        return int.from_bytes(field, "big", signed=True)
    digits = field.split(b"\0", 1)[0].strip()
    if not _OCTAL.fullmatch(digits):
        raise UnsafeSubmission(f"{where}: 헤더의 {what} 칸 {digits!r} 이(가) 8진수가 아닙니다")
    return int(digits, 8) if digits else 0


def _header(block: bytes) -> _Header:
    name = block[0:100].split(b"\0", 1)[0]
    if block[257:263] == b"ustar\0":  # POSIX ustar: a long name may be split into a prefix
        prefix = block[345:500].split(b"\0", 1)[0]
        if prefix:
            name = prefix + b"/" + name
    where = _Shown(name)
    try:
        checksum = _octal(block[148:156], "checksum", where)
    except UnsafeSubmission:
        checksum = -1
    unsigned = sum(block) - sum(block[148:156]) + 8 * 32  # the checksum field counts as spaces
    if checksum != unsigned and checksum != unsigned - 256 * sum(b > 127 for b in block):  # signed
        raise _Unreadable(f"{where}: 헤더의 checksum 이 맞지 않습니다(tar 가 아니거나 손상되었습니다)")
    for what, at in (("uid", 108), ("gid", 116)):
        if not 0 <= _octal(block[at : at + 8], what, where) < ID_LIMIT:
            raise UnsafeSubmission(f"{where}: 사용자·그룹 번호({what})가 이상합니다")
    size = _octal(block[124:136], "size", where)
    if size < 0:
        raise UnsafeSubmission(f"{where}: 크기 {size} 이(가) 음수입니다")
    return _Header(
        name=name,
        linkname=block[157:257].split(b"\0", 1)[0],
        flag=block[156:157],
        mode=_octal(block[100:108], "mode", where),
        mtime=_octal(block[136:148], "mtime", where),
        size=size,
    )


_PAX_TIME = re.compile(rb"-?[0-9]{1,30}(\.[0-9]{1,30})?")
_PAX_UTF8 = b"ISO-IR 10646 2000 UTF-8"
_KINDS = {  # typeflag -> kind; the extended headers (x, X, L, K) are read before their entry
    **dict.fromkeys((b"0", b"\0", b"7"), FILE),
    **dict.fromkeys((b"3", b"4", b"6"), SPECIAL),
    **{b"5": DIR, b"2": LINK, b"1": HARDLINK},
}


def _pax(data: bytes, where: _Shown) -> dict[str, bytes]:
    """The records of a PAX header: "<length> <keyword>=<value>\\n" each."""
    records: dict[str, bytes] = {}
    at = 0
    while at < len(data):
        if data[at] == 0 and data.count(0, at) == len(data) - at:
            break  # padding
        space = data.find(b" ", at, at + 24)
        end = at + int(data[at:space]) if space > at and data[at:space].isdigit() else -1
        equals = data.find(b"=", space + 1, end)
        if not space + 1 < equals < end <= len(data) or data[end - 1] != 0x0A:
            raise _Unreadable(f"{where}: PAX 헤더의 기록이 깨졌습니다")
        try:
            keyword = data[space + 1 : equals].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _Unreadable(f"{where}: PAX 헤더의 키가 UTF-8 이 아닙니다") from exc
        records[keyword] = data[equals + 1 : end - 1]
        at = end
    return records


def _entry(header: _Header, pax: dict[str, bytes], long_name: bytes | None, long_link: bytes | None) -> Entry:
    """The entry a header describes, with what the PAX and GNU headers before it replace."""
    name = header.name if long_name is None else long_name
    link = header.linkname if long_link is None else long_link
    where = _Shown(pax.get("path", name))
    charset = pax.get("hdrcharset", _PAX_UTF8)
    if charset not in (_PAX_UTF8, b"BINARY"):
        raise UnsafeSubmission(f"{where}: PAX 헤더의 hdrcharset {charset!r} 을(를) 모릅니다")
    for key, value in pax.items():
        if key.startswith("GNU.sparse."):
            raise UnsafeSubmission(f"{where}: sparse 파일(GNU.sparse)은 받을 수 없습니다")
        if key in ("path", "linkpath", "uname", "gname") and charset != b"BINARY":
            try:
                value.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise UnsafeSubmission(
                    f"{where}: PAX 헤더의 {key} 이(가) UTF-8 이 아닙니다(hdrcharset=BINARY 도 없습니다)"
                ) from exc
        if key in ("mtime", "atime", "ctime") and not _PAX_TIME.fullmatch(value):
            raise UnsafeSubmission(f"{where}: PAX 헤더의 시각 {key}={value[:40]!r} 이(가) 숫자가 아닙니다")
        if key in ("uid", "gid", "size") and not (value.isdigit() and len(value) <= 30):
            raise UnsafeSubmission(
                f"{where}: PAX 헤더의 {key}={value[:40]!r} 이(가) 음이 아닌 정수가 아닙니다"
            )
        if key in ("uid", "gid") and int(value) >= ID_LIMIT:
            raise UnsafeSubmission(f"{where}: 사용자·그룹 번호({key})가 이상합니다")
    name = pax.get("path", name)
    link = pax.get("linkpath", link)
    size = int(pax["size"]) if "size" in pax else header.size
    mtime = int(pax["mtime"].split(b".")[0]) if "mtime" in pax else header.mtime
    kind = _KINDS.get(header.flag)
    if kind is None:
        if header.flag == b"S":
            raise UnsafeSubmission(f"{where}: sparse 파일(GNU)은 받을 수 없습니다")
        if header.flag == b"g":
            raise UnsafeSubmission(f"{where}: 전역 PAX 헤더(g)는 받을 수 없습니다")
        raise UnsafeSubmission(f"{where}: 알 수 없는 종류({header.flag!r})의 항목은 받을 수 없습니다")
    if kind == DIR or (header.flag == b"\0" and name.endswith(b"/")):  # (old tars: a folder)
        kind, name = DIR, name.rstrip(b"/")
    target = os.fsdecode(link) if kind in (LINK, HARDLINK) else ""
    return Entry(os.fsdecode(name), kind, header.mode, mtime, size, target)


class _Tar:
    """The entries of a tar stream, one header at a time. An entry is handed over before any of
    its data is read; its data is read through ``data()``, or skipped at the next entry."""

    def __init__(self, source: _Source) -> None:
        self._source = source
        self._left = 0
        self._pad = 0

    def __iter__(self) -> Iterator[Entry]:
        while True:
            self._source.skip(self._left + self._pad)
            self._left = self._pad = 0
            entry = self._next()
            if entry is None:
                return
            if entry.kind == FILE:
                self._left, self._pad = entry.size, -entry.size % BLOCK
            yield entry

    def data(self) -> Iterator[bytes]:
        """The data of the entry last handed over, in chunks."""
        while self._left:
            chunk = self._source.read(min(self._left, CHUNK))
            self._left -= len(chunk)
            yield chunk

    def _next(self) -> Entry | None:
        pax: dict[str, bytes] | None = None
        long_name: bytes | None = None
        long_link: bytes | None = None
        while True:
            block = self._source.read(BLOCK)
            if not block.strip(b"\0"):  # the end (tarfile, too, stops at the first zero block)
                if pax is not None or long_name is not None or long_link is not None:
                    raise _Unreadable("확장 헤더 뒤에 항목 없이 끝났습니다")
                return None
            header = _header(block)
            if header.flag in (b"x", b"X", b"L", b"K"):
                where = _Shown(header.name)
                if header.size > MAX_EXTENDED:  # before a byte of it is read
                    raise UnsafeSubmission(
                        f"{where}: 확장 헤더({header.flag.decode()})가 {header.size} 바이트로 "
                        f"너무 큽니다(최대 {MAX_EXTENDED})"
                    )
                seen = {b"x": pax, b"X": pax, b"L": long_name, b"K": long_link}[header.flag]
                if seen is not None:
                    raise _Unreadable(
                        f"{where}: 같은 항목에 확장 헤더({header.flag.decode()})가 두 번 있습니다"
                    )
                data = self._source.read(header.size)
                self._source.skip(-header.size % BLOCK)
                if header.flag == b"L":
                    long_name = data.split(b"\0", 1)[0]
                elif header.flag == b"K":
                    long_link = data.split(b"\0", 1)[0]
                else:
                    pax = _pax(data, where)
                continue
            return _entry(header, pax or {}, long_name, long_link)


def _scan(archive: IO[bytes], root: Path) -> tuple[Manifest, bytes]:
    """Check the whole archive, writing nothing; returns its manifest and a digest of its entries
    in order (what the writing pass must see again)."""
    checks = Checks(root)
    tar = _Tar(_Source(archive))
    sequence = hashlib.sha256()
    data: bytes | None = None
    for entry in tar:
        checks.add(entry)
        sequence.update(repr(entry).encode())
        if entry.name == MANIFEST:
            data = b"".join(tar.data())
    checks.finish()
    if data is None:
        raise UnsafeSubmission(f"{MANIFEST} 이(가) 없습니다: python -m grader pack 으로 만든 파일이 아닙니다")
    manifest = Manifest.from_json(data)
    if checks.files != set(manifest.files):
        extra = sorted(checks.files ^ set(manifest.files))[:5]
        raise UnsafeSubmission(f"{MANIFEST} 의 파일 목록이 내용과 다릅니다: {[_shown(n) for n in extra]}")
    return manifest, sequence.digest()


# packing --------------------------------------------------------------------------------------
def _found(dir_fd: int, name: str, path: str, linked: bool = True) -> Entry:
    """The entry for ``name`` in the folder ``dir_fd``, which is ``path`` below the lab root;
    ``linked`` False: a file with more than one name is refused."""
    st = os.lstat(name, dir_fd=dir_fd)
    mode, mtime = stat.S_IMODE(st.st_mode) & 0o777, int(st.st_mtime)
    if stat.S_ISLNK(st.st_mode):
        return Entry(path, LINK, mode, mtime, target=os.readlink(name, dir_fd=dir_fd))
    if stat.S_ISDIR(st.st_mode):
        return Entry(path, DIR, mode, mtime)
    if stat.S_ISREG(st.st_mode):
        if not linked and st.st_nlink > 1:
            raise UnsafeSubmission(
                f"{_shown(path)}: 하드 링크(이름이 {st.st_nlink}개인 파일)는 받을 수 없습니다"
                "(파일로 복사해 담으세요)"
            )
        return Entry(path, FILE, mode, mtime, st.st_size)
    raise UnsafeSubmission(f"{_shown(path)}: 일반 파일·폴더·링크가 아닌 특수 파일은 담을 수 없습니다")


def _walk(cursor: _Cursor, part: str, checks: Checks, linked: bool = True) -> Iterator[Entry]:
    """``part`` and everything below it, parents first, each folder's names sorted (os.walk's
    order), each checked as it is found. Without recursion, through descriptors: no depth or
    path length is too much."""
    entry = _found(cursor.at(posixpath.dirname(part)), posixpath.basename(part), part, linked)
    checks.add(entry)
    yield entry
    stack = [part]
    while stack:
        folder = stack.pop()
        names = []
        with os.scandir(cursor.at(folder)) as listing:
            for item in listing:
                names.append(item.name)
                if checks.count + len(names) > MAX_MEMBERS:
                    raise _too_many(checks.count + len(names))
        subfolders = []
        for name in sorted(names):
            entry = _found(cursor.at(folder), name, f"{folder}/{name}", linked)
            checks.add(entry)
            yield entry
            if entry.kind == DIR:
                subfolders.append(entry.name)
        stack.extend(reversed(subfolders))


def _tarinfo(entry: Entry) -> tarfile.TarInfo:
    info = tarfile.TarInfo(entry.name)
    info.mode, info.mtime = entry.mode, entry.mtime
    if entry.kind == LINK:
        info.type, info.linkname = tarfile.SYMTYPE, entry.target
    elif entry.kind == DIR:
        info.type = tarfile.DIRTYPE
    else:
        info.type, info.size = tarfile.REGTYPE, entry.size
    return info


def _open_below(cursor: _Cursor, path: str) -> io.BufferedReader:
    folder, name = posixpath.split(path)
    return os.fdopen(
        os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=cursor.at(folder)), "rb"
    )


def pack(lab_root: Path, out: Path, parts: tuple[str, ...] = PARTS, linked: bool = True) -> Manifest:
    """Pack the lab root's q/ and eaimw/mq/ (those present) into ``out`` (a .tar.gz). Any name the
    filesystem allows is kept byte for byte; what ``unpack`` would refuse is refused here.
    ``linked`` False: a file with more than one name (a hard link, maybe to a file outside)
    is refused, as unpacking refuses one (a folder handed in is packed so)."""
    present = [p for p in parts if (lab_root / p).exists() or (lab_root / p).is_symlink()]
    if not present:
        raise UnsafeSubmission(f"{lab_root} 에 {' 도 '.join(parts)} 도 없습니다: 담을 것이 없습니다")
    for part in present:
        if (lab_root / part).is_symlink() or not (lab_root / part).is_dir():
            raise UnsafeSubmission(f"{lab_root / part} 은(는) 폴더여야 합니다(링크나 파일이 아니라)")
    checks = Checks(lab_root)
    now = int(datetime.now().timestamp())
    checks.add(Entry(MANIFEST, FILE, 0o644, now))  # first in the archive; its size is checked below
    root_fd = os.open(lab_root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    cursor = _Cursor(root_fd)
    try:
        entries = [entry for part in present for entry in _walk(cursor, part, checks, linked)]
        checks.finish()
        files = {}
        for entry in entries:
            if entry.kind == FILE:
                with _open_below(cursor, entry.name) as f:
                    files[entry.name] = hashlib.file_digest(f, "sha256").hexdigest()
        created = datetime.now(UTC).isoformat(timespec="seconds")
        manifest = Manifest(str(lab_root), created, tool_version(), files)
        data = manifest.to_json()
        if len(data) > MAX_MANIFEST:
            raise UnsafeSubmission(f"{MANIFEST}: {len(data)} 바이트로 너무 큽니다(최대 {MAX_MANIFEST})")
        out.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out.parent, prefix=f".{out.name}.", delete=False) as tmp:
            try:
                with tarfile.open(fileobj=tmp, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
                    head = tarfile.TarInfo(MANIFEST)
                    head.size, head.mode, head.mtime = len(data), 0o644, now
                    tar.addfile(head, io.BytesIO(data))
                    for entry in entries:
                        if entry.kind == FILE:
                            with _open_below(cursor, entry.name) as f:
                                tar.addfile(_tarinfo(entry), f)
                        else:
                            tar.addfile(_tarinfo(entry))
                tmp.flush()
                os.fsync(tmp.fileno())
                tmp.seek(0)
                _scan(tmp, lab_root)  # read back as unpack reads it: what it refuses is not handed over
                os.rename(tmp.name, out)
            except BaseException:
                os.unlink(tmp.name)
                raise
    finally:
        cursor.close()
        os.close(root_fd)
    return manifest


# unpacking --------------------------------------------------------------------------------------
def unpack(archive: Path, dest: Path) -> Manifest:
    """Unpack a packed submission into the lab root ``dest``, which must hold neither q/ nor
    eaimw/mq/ yet. Nothing is written unless every entry passes the checks."""
    for part in PARTS:
        if (dest / part).exists() or (dest / part).is_symlink():
            raise UnsafeSubmission(f"{dest / part} 이(가) 이미 있습니다: 빈 곳에만 풉니다")
    try:
        with archive.open("rb") as f:
            manifest, sequence = _scan(f, dest)
            f.seek(0)
            dest.mkdir(parents=True, exist_ok=True)
            had = {made for made in MADE if os.path.lexists(dest / made)}
            dest_fd = os.open(dest, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                _extract(f, dest_fd, dest, manifest, sequence)
            except BaseException:
                _remove(dest_fd, had)
                raise
            finally:
                os.close(dest_fd)
    except _Unreadable as exc:
        raise UnsafeSubmission(f"{_shown(archive.name)}: tar.gz 로 읽을 수 없습니다: {exc}") from exc
    except OSError as exc:
        raise UnsafeSubmission(f"{_shown(archive.name)}: tar.gz 로 읽을 수 없습니다: {exc}") from exc
    return manifest


def _extract(archive: IO[bytes], dest_fd: int, dest: Path, manifest: Manifest, sequence: bytes) -> None:
    """Write what ``_scan`` passed, every path relative to ``dest_fd``, each entry checked again
    before it is written (the file is read a second time: it is trusted no more than before)."""
    checks = Checks(dest)
    tar = _Tar(_Source(archive))
    cursor = _Cursor(dest_fd)
    seen = hashlib.sha256()
    written = 0
    dirs: list[Entry] = []
    made_above: set[str] = set()
    try:
        for entry in tar:
            implied = entry.name in checks.implied
            made = checks.add(entry)
            seen.update(repr(entry).encode())
            if entry.name == MANIFEST:
                continue
            for above in MADE:
                if above not in made_above and entry.name.startswith(f"{above}/"):
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(above, dir_fd=dest_fd)
                    made_above.add(above)
            for folder in made:
                os.mkdir(posixpath.basename(folder), dir_fd=cursor.at(posixpath.dirname(folder)))
            folder, name = posixpath.split(entry.name)
            fd = cursor.at(folder)
            if entry.kind == DIR:
                if not implied:  # else made already, for an entry below it
                    os.mkdir(name, 0o700, dir_fd=fd)
                dirs.append(entry)
            elif entry.kind == LINK:
                os.symlink(entry.target, name, dir_fd=fd)
                os.utime(name, (entry.mtime, entry.mtime), dir_fd=fd, follow_symlinks=False)
            else:
                expected = manifest.files.get(entry.name)
                if expected is None:
                    raise UnsafeSubmission(f"{MANIFEST} 의 파일 목록에 {_shown(entry.name)} 이(가) 없습니다")
                _write_file(tar, entry, fd, name, expected)
                written += 1
        if seen.digest() != sequence or written != len(manifest.files):
            raise UnsafeSubmission("제출 파일이 읽는 동안 바뀌었습니다")
        for entry in reversed(dirs):  # last, so a read-only folder did not stop its own content
            folder, name = posixpath.split(entry.name)
            fd = cursor.at(folder)
            os.chmod(name, entry.mode & 0o777, dir_fd=fd)  # never setgid or sticky
            os.utime(name, (entry.mtime, entry.mtime), dir_fd=fd, follow_symlinks=False)
    finally:
        cursor.close()


def _write_file(tar: _Tar, entry: Entry, dir_fd: int, name: str, expected: str) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    digest = hashlib.sha256()
    with os.fdopen(os.open(name, flags, 0o600, dir_fd=dir_fd), "wb") as out:
        for chunk in tar.data():
            digest.update(chunk)
            out.write(chunk)
        out.flush()
        if digest.hexdigest() != expected:
            raise UnsafeSubmission(
                f"{_shown(entry.name)}: 내용이 {MANIFEST} 의 sha256 과 다릅니다(손상된 파일)"
            )
        os.fchmod(out.fileno(), entry.mode & 0o777)  # never setuid, setgid or sticky
        os.utime(out.fileno(), (entry.mtime, entry.mtime))


def _remove(dest_fd: int, had: set[str]) -> None:
    """Undo a refused unpack: the parts did not exist before it, so they go whole (and the
    folders above them it made)."""
    for part in PARTS:
        _remove_tree(dest_fd, part)
    for above in sorted(set(MADE) - had, key=len, reverse=True):
        with contextlib.suppress(OSError):  # not empty: it was not ours alone
            os.rmdir(above, dir_fd=dest_fd)


def _made_above(name: str) -> str:
    """The folder above a part that ``name`` is under ("" for none): unpacking makes it."""
    return next((m for m in sorted(MADE, key=len, reverse=True) if name.startswith(f"{m}/")), "")


def _remove_tree(root_fd: int, top: str) -> None:
    """Remove ``top`` (relative to ``root_fd``) and all below it, whatever the depth: without
    recursion or following a link, one descriptor moved down into a folder and up by "..", a
    read-only folder made writable first."""
    try:
        if not stat.S_ISDIR(os.lstat(top, dir_fd=root_fd).st_mode):
            os.unlink(top, dir_fd=root_fd)
            return
    except FileNotFoundError:
        return
    os.chmod(top, 0o700, dir_fd=root_fd)
    fd = os.open(top, _DIR_FLAGS, dir_fd=root_fd)
    try:
        stack = [(top, os.listdir(fd))]  # each folder down to here, and what is left in it
        while stack:
            name, left = stack[-1]
            if left:
                child = left.pop()
                if stat.S_ISDIR(os.lstat(child, dir_fd=fd).st_mode):
                    os.chmod(child, 0o700, dir_fd=fd)
                    below = os.open(child, _DIR_FLAGS, dir_fd=fd)
                    os.close(fd)
                    fd = below
                    stack.append((child, os.listdir(fd)))
                else:
                    os.unlink(child, dir_fd=fd)
                continue
            stack.pop()
            if stack:
                above = os.open("..", _DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = above
                os.rmdir(name, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(top, dir_fd=root_fd)


def lay_out(submission: Path, dest: Path) -> Manifest:
    """Put a submission (a packed file, a folder holding just one, or a folder holding q/ and/or
    eaimw/mq/) into the lab root ``dest``, checked the same way either way."""
    packed = submission if submission.is_file() else packed_file_in(submission)
    if packed is not None:
        return unpack(packed, dest)
    folder = find_lab_root(submission)
    with tempfile.TemporaryDirectory(prefix="submission-") as tmp:
        repacked = Path(tmp) / "submission.tar.gz"
        pack(folder, repacked, linked=False)
        return unpack(repacked, dest)


def find_lab_root(folder: Path) -> Path:
    """The folder holding q/ or eaimw/mq/: ``folder`` itself or, for an upload wrapped in one
    more folder, its single subfolder."""
    if not folder.is_dir():
        raise UnsafeSubmission(f"{folder}: 제출물(파일이나 폴더)을 찾을 수 없습니다")
    if any((folder / p).exists() for p in PARTS):
        return folder
    inside = [p for p in folder.iterdir() if not p.name.startswith(".")]
    if len(inside) == 1 and inside[0].is_dir() and not inside[0].is_symlink():
        return find_lab_root(inside[0])
    raise UnsafeSubmission(
        f"{folder}: {PARTS_SHOWN} 가 하나도 없습니다(실습 파일을 그 이름의 폴더로 올리세요)"
    )


def packed_file_in(folder: Path) -> Path | None:
    """The one packed submission in an upload folder, if that is what was uploaded."""
    packed = (
        [p for p in folder.iterdir() if p.is_file() and p.name.endswith(PACKED_SUFFIXES)]
        if folder.is_dir()
        else []
    )
    return packed[0] if len(packed) == 1 and not any((folder / p).exists() for p in PARTS) else None
