"""Seals on what the student's scripts must not change (the fixtures, the grader's own code,
its state): a digest of each taken before the first script runs and compared once every
script is dead. Namespace mode mounts them read-only as well; the seals catch the host mode,
and whatever a read-only mount did not cover."""

from __future__ import annotations

import hashlib
import os
import stat
import threading
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from grader.machinery.walk import walk

READ_LIMIT = 64 << 20  # bytes hashed of one file (none of ours is near it)
Digest = dict[str, str]  # relative path -> what it is (kind and hash)


def tree_files(root: Path, skip: Collection[str] = ()) -> list[Path]:
    """Every entry below ``root``, links not followed, ``skip`` (relative paths) left out."""
    return [root / e.path for e in walk(root, prune=skip)]


def digest(root: Path, paths: Iterable[Path]) -> Digest:
    """What each path is: a regular file by its bytes, a link by its target, anything else by
    its type (a FIFO or device is never opened)."""
    out: Digest = {}
    for path in paths:
        name = os.fsencode(path.relative_to(root)).decode("utf-8", "backslashreplace")
        try:
            st = os.lstat(path)
        except OSError:
            out[name] = "absent"
            continue
        mode = f"{stat.S_IFMT(st.st_mode):o}:{stat.S_IMODE(st.st_mode):o}"
        if stat.S_ISLNK(st.st_mode):
            out[name] = f"{mode}:{os.fsencode(os.readlink(path)).hex()}"
        elif stat.S_ISREG(st.st_mode):
            hasher = hashlib.sha256()
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
                with os.fdopen(fd, "rb") as f:
                    hasher.update(f.read(READ_LIMIT))
            except OSError as exc:
                hasher.update(f"unreadable {exc.errno}".encode())
            out[name] = f"{mode}:{hasher.hexdigest()}"
        else:
            out[name] = mode
    return out


class Seals:
    """Named digests and what has changed since each was taken."""

    def __init__(self) -> None:
        self._readers: dict[str, Callable[[], Digest]] = {}
        self._sealed: dict[str, Digest] = {}
        self._lock = threading.Lock()

    def seal(self, label: str, read: Callable[[], Digest]) -> None:
        """Take (or take again, after the grader's own change) the digest ``label``."""
        taken = read()
        with self._lock:
            self._readers[label] = read
            self._sealed[label] = taken

    def broken(self) -> dict[str, list[str]]:
        """label -> the entries that differ from the seal (added, removed or changed)."""
        with self._lock:
            sealed = list(self._sealed.items())
        found: dict[str, list[str]] = {}
        for label, before in sealed:
            now = self._readers[label]()
            changed = sorted(k for k in before.keys() | now.keys() if before.get(k) != now.get(k))
            if changed:
                found[label] = changed
        return found
