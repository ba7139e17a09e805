"""Locks every grader of a machine shares: files in folders under /run/lab-grader, a tree of
root's alone (out of every script's reach, whatever its identity). A lock is a flock on its
file, held through one descriptor and gone with it (a grader that dies lets go)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from collections.abc import Iterator
from pathlib import Path

ROOT = Path("/run/lab-grader")


class NotPrivate(PermissionError):
    """A lock folder somebody other than root may enter: its locks cannot be trusted."""


def folder(name: str) -> Path:
    """/run/lab-grader/NAME, made if need be; NotPrivate unless root's alone."""
    for path in (ROOT, ROOT / name):
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
        st = os.lstat(path)
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != 0 or st.st_mode & 0o077:
            raise NotPrivate(f"{path} must be a folder of root's that nobody else may enter")
    return ROOT / name


def open_lock(path: Path) -> int:
    """A descriptor on the lock file ``path`` (made 0600 if need be), not locked yet."""
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)


@contextlib.contextmanager
def held(path: Path) -> Iterator[None]:
    """The lock on ``path``, waited for, held while the block runs."""
    fd = open_lock(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
