"""A tree's fingerprint: what "byte for byte the same" means when a student's files come back.

(Grading no longer copies the student's tree: see workspace.py. The fingerprint is what the
self-tests, and tools around the grader, compare a lab root by.)
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from grader.machinery.walk import Found, walk


def tree_digest(root: Path, read_at_most: int | None = None) -> str:
    """A hash of everything under ``root``: names (any bytes), types, modes, the bytes and the
    size of regular files, link targets, device numbers. Links are never followed and FIFOs,
    sockets and devices never opened. ``root`` itself may be a link: it is described, and so is
    the directory it leads to. Folders deeper than walk.MAX_DEPTH count by their names only.

    ``read_at_most``: bytes of file data read in all, each file's data once whatever its names;
    a file that would go past it counts by its size and modification time (a tree of anybody's,
    such as a sparse file of 8 GiB with 200 names, is fingerprinted without reading it all)."""
    digest = hashlib.sha256()
    read: dict[tuple[int, int], None] = {}
    left = read_at_most
    if not os.path.lexists(root):
        return "absent"
    if root.is_symlink():
        digest.update(b"link:" + os.fsencode(os.readlink(root)) + b"\0")
    for entry in walk(root):
        st = entry.st
        digest.update(os.fsencode(entry.path) + f"\0{st.st_mode:o}\0".encode())
        if stat.S_ISLNK(st.st_mode):
            digest.update(os.fsencode(entry.readlink()))
        elif stat.S_ISREG(st.st_mode):
            digest.update(f"{st.st_size}\0".encode())
            if left is None:
                _file_bytes(digest, entry)
            elif (st.st_dev, st.st_ino) in read:
                digest.update(b"read already\0")
            elif st.st_size <= left:
                read[(st.st_dev, st.st_ino)] = None
                left -= st.st_size
                _file_bytes(digest, entry)
            else:
                digest.update(f"not read:{st.st_mtime_ns}\0".encode())
        elif stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
            digest.update(f"{st.st_rdev}".encode())
        elif entry.deeper:
            digest.update(b"deeper\0")
    return digest.hexdigest()


def _file_bytes(digest: hashlib._Hash, entry: Found) -> None:
    fd = os.open(entry.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=entry.dir_fd)
    with os.fdopen(fd, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
