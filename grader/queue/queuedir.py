"""The queue directory: listing it, fingerprinting it, resetting it for a behaviour check.

Nothing here opens anything but a regular file or a directory: a FIFO, socket or device a
student left in the tree is named by its kind, never read.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from grader.machinery.textfile import Unreadable, kind
from grader.machinery.treecopy import remove_tree
from grader.machinery.walk import MAX_DEPTH, Found, walk
from grader.queue import ledger

DIRS = ("inbox", "processing", "done", "error")
Listing = dict[str, frozenset[str]]
FINGERPRINT_LIMIT = 1 << 24  # 16 MiB: far above any message


def found(base: Path, deep: bool) -> Iterator[Found]:
    """The entries of ``base`` (a folder of a q/ tree); ``deep``: at any depth (walk.py: a
    chain of folders is no harm), but only below a directory of the tree itself. A queue
    folder that is a link is listed when it leads to a folder of the same tree (never walked),
    and holds nothing when it leads out of it (to ``/``, to the reference solutions ...): no
    reader follows a link out of the student's tree. Each entry is read before the next."""
    if not base.is_dir():
        return
    if base.is_symlink():
        if not base.resolve().is_relative_to(base.parent.resolve()):
            return
        deep = False
    yield from walk(base, max_depth=MAX_DEPTH if deep else 1)


def _mode(entry: Found) -> int | None:
    """What the entry is; a link, what it leads to (None: nothing). Never opened."""
    if not stat.S_ISLNK(entry.st.st_mode):
        return entry.st.st_mode
    try:
        return os.stat(entry.name, dir_fd=entry.dir_fd).st_mode
    except OSError:
        return None


def listing(q: Path) -> Listing:
    """Names of the regular files in each queue directory, hidden files left out (they are not
    messages). In processing/, also those in a consumer's own subfolder: a file left there is
    still stuck in processing/."""

    def names(d: str) -> frozenset[str]:
        return frozenset(
            e.name
            for e in found(q / d, deep=d == "processing")
            if (mode := _mode(e)) is not None and stat.S_ISREG(mode) and not e.name.startswith(".")
        )

    return {d: names(d) for d in DIRS}


def left_below(folder: Path) -> list[str]:
    """Everything below ``folder`` but its folders and its empty hidden files, as paths
    relative to it, sorted; a folder deeper than anyone looks (walk.MAX_DEPTH) counts as
    something left. An empty hidden file is no message left behind: it is what keeps an empty
    folder in git (``.gitkeep``; red team 19: a correct lab handed in through git could never
    pass Q3.2), as every other check of the tree leaves hidden files out."""
    return sorted(
        e.path for e in found(folder, deep=True) if (not e.is_dir() or e.deeper) and not _keeps_a_folder(e)
    )


def _keeps_a_folder(entry: Found) -> bool:
    return entry.name.startswith(".") and stat.S_ISREG(entry.st.st_mode) and entry.st.st_size == 0


def special_entries(q: Path) -> list[str]:
    """Entries of the queue directories that are neither a file nor a directory (FIFO,
    socket, device), as 'inbox/NAME (FIFO)'."""
    special = []
    for d in DIRS:
        for entry in found(q / d, deep=True):
            mode = _mode(entry)
            what = None if mode is None else kind(mode)  # a dangling link: not a special file
            if what is not None and what != "디렉터리":
                special.append(f"{d}/{entry.path} ({what})")
    return sorted(special)


def _digest(entry: Found) -> str:
    if stat.S_ISLNK(entry.st.st_mode):
        try:
            return f"link:{entry.readlink()}"
        except OSError:
            return "gone"
    if entry.is_dir():
        return "dir (더 깊은 곳은 보지 않음)" if entry.deeper else "dir"
    if (what := kind(entry.st.st_mode)) is not None:
        return f"보통 파일이 아니라 {what}"
    try:
        return hashlib.sha256(entry.read(FINGERPRINT_LIMIT)).hexdigest()
    except Unreadable as exc:
        return exc.reason


def fingerprint(q: Path) -> dict[str, str]:
    """Every path under the four directories with a hash of its bytes ('dir' for a directory,
    the kind for anything else), read safely."""
    return {f"{d}/{e.path}": _digest(e) for d in DIRS for e in found(q / d, deep=True)}


def reset(q: Path, blank_ledger: bytes | None) -> None:
    """Empty the four directories and start the ledger afresh; the student's scripts stay.

    The ledger becomes a new file (``blank_ledger``'s bytes: the student's schema, no rows
    processed), so a lock that a student's own process holds on the old one is not in the way,
    and nothing is ever written through a link. None: no ledger (the consumer makes its own).
    Run with the scripts' powers (acting.py): the scripts may have left anything here.
    """
    for path in (q, *(q / d for d in DIRS)):
        _reopen(path)
    for d in DIRS:
        path = q / d
        if left := remove_tree(path):  # any depth: a script may leave a chain of folders
            raise OSError(f"{path} could not be emptied: {'; '.join(left[:3])}")
        path.mkdir(parents=True)
    db = q / "ledger.db"
    for path in (db, *(db.with_name(db.name + suffix) for suffix in ledger.COMPANIONS)):
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            path.unlink()
    if blank_ledger is not None and not os.path.lexists(db):
        fd = os.open(db, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        with os.fdopen(fd, "wb") as out:
            out.write(blank_ledger)


def _reopen(path: Path) -> None:
    """A directory an earlier scenario's script shut to its owner (chmod 0: the scripts own
    their working copy) is opened again, so that what it did there stays that scenario's
    FAIL and the next scenario on the lane still has its queue. A link is left alone."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode) and st.st_mode & 0o700 != 0o700:
        os.chmod(path, stat.S_IMODE(st.st_mode) | 0o700)


def counts_text(found: Listing) -> str:
    return ", ".join(f"{d} {len(found[d])}" for d in DIRS)
