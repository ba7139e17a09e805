"""The queue directory: listing it, fingerprinting it, resetting it for a behaviour check.

Nothing here opens anything but a regular file or a directory: a FIFO, socket or device a
student left in the tree is named by its kind, never read.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

from grader.machinery.textfile import Unreadable, kind, read_bytes
from grader.queue import ledger

DIRS = ("inbox", "processing", "done", "error")
Listing = dict[str, frozenset[str]]
FINGERPRINT_LIMIT = 1 << 24  # 16 MiB: far above any message


def entries(base: Path, deep: bool) -> list[Path]:
    """The entries of ``base`` (a folder of a q/ tree); ``deep``: at any depth, but only below
    a directory of the tree itself. A queue folder that is a link is listed when it leads to
    a folder of the same tree (never walked), and holds nothing when it leads out of it (to
    ``/``, to the reference solutions ...): no reader follows a link out of the student's tree."""
    if not base.is_dir():
        return []
    if base.is_symlink():
        tree = base.parent.resolve()
        if not base.resolve().is_relative_to(tree):
            return []
        return list(base.iterdir())
    return list(base.rglob("*") if deep else base.iterdir())


def listing(q: Path) -> Listing:
    """Names of the regular files in each queue directory, hidden files left out (they are not
    messages). In processing/, also those in a consumer's own subfolder: a file left there is
    still stuck in processing/."""

    def names(d: str) -> frozenset[str]:
        found = entries(q / d, deep=d == "processing")
        return frozenset(p.name for p in found if p.is_file() and not p.name.startswith("."))

    return {d: names(d) for d in DIRS}


def special_entries(q: Path) -> list[str]:
    """Entries of the queue directories that are neither a file nor a directory (FIFO,
    socket, device), as 'inbox/NAME (FIFO)'."""
    found = []
    for d in DIRS:
        for path in entries(q / d, deep=True):
            try:
                what = kind(path.stat().st_mode)
            except OSError:
                continue  # a dangling link: not a special file
            if what is not None and what != "디렉터리":
                found.append(f"{path.relative_to(q)} ({what})")
    return sorted(found)


def _digest(path: Path) -> str:
    try:
        st = path.lstat()
    except OSError:
        return "gone"
    if stat.S_ISLNK(st.st_mode):
        return f"link:{os.readlink(path)}"
    if stat.S_ISDIR(st.st_mode):
        return "dir"
    try:
        return hashlib.sha256(read_bytes(path, FINGERPRINT_LIMIT)).hexdigest()
    except Unreadable as exc:
        return exc.reason


def fingerprint(q: Path) -> dict[str, str]:
    """Every path under the four directories with a hash of its bytes ('dir' for a directory,
    the kind for anything else), read safely."""
    return {str(p.relative_to(q)): _digest(p) for d in DIRS for p in sorted(entries(q / d, deep=True))}


def reset(q: Path, blank_ledger: bytes | None) -> None:
    """Empty the four directories and start the ledger afresh; the student's scripts stay.

    The ledger becomes a new file (``blank_ledger``'s bytes: the student's schema, no rows
    processed), so a lock that a student's own process holds on the old one is not in the way,
    and nothing is ever written through a link. None: no ledger (the consumer makes its own).
    Run with the scripts' powers (acting.py): the scripts may have left anything here.
    """
    for d in DIRS:
        path = q / d
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        path.mkdir(parents=True)
    db = q / "ledger.db"
    for path in (db, *(db.with_name(db.name + suffix) for suffix in ledger.COMPANIONS)):
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            path.unlink()
    if blank_ledger is not None and not os.path.lexists(db):
        fd = os.open(db, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        with os.fdopen(fd, "wb") as out:
            out.write(blank_ledger)


def counts_text(found: Listing) -> str:
    return ", ".join(f"{d} {len(found[d])}" for d in DIRS)
