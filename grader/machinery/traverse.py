"""Host mode: letting the scripts' identity pass through directories that would stop it.

On the host, scripts run as the run's identity (identity.py), which may not search /root
(mode 0700) on its way to /root/q, nor a directory above the interpreter or the grader's state
dir. ``grant`` adds one entry to such a directory's POSIX access ACL: search (x) for that
identity only, nothing to list or write; ``revoke`` puts the directory's ACL and mode back
exactly as they were. Every grant is recorded in the run's journal first, so a run killed
before it revoked is undone by the next one (workspace.py), and only on the very directory
recorded (device and inode).

The ACL is written as the kernel stores it (the ``system.posix_acl_access`` attribute), so
nothing beyond the kernel is needed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from grader.machinery import machinelocks

XATTR = "system.posix_acl_access"
LOCKS = "acl"  # machinelocks folder: one lock file per directory whose ACL graders change
VERSION = 2
USER_OBJ, USER, GROUP_OBJ, GROUP, MASK, OTHER = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
UNDEFINED = 0xFFFFFFFF
SEARCH, WRITE = 0o1, 0o2
ENTRY = struct.Struct("<HHI")


class CannotGrant(OSError):
    """The filesystem keeps no ACLs (or refuses one): the identity cannot be let through."""


@dataclass(frozen=True)
class Grant:
    """One directory let through for ``uid``, and how it was before."""

    path: str
    dev: int
    ino: int
    uid: int
    mode: int  # the directory's permission bits before
    acl: str | None  # "had" when the directory had an access ACL of its own before

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "dev": self.dev,
            "ino": self.ino,
            "uid": self.uid,
            "mode": self.mode,
            "acl": self.acl,
        }

    @classmethod
    def from_json(cls, data: object) -> Grant | None:
        if not isinstance(data, dict):
            return None
        try:
            acl = data["acl"]
            return cls(
                str(data["path"]),
                int(data["dev"]),
                int(data["ino"]),
                int(data["uid"]),
                int(data["mode"]),
                None if acl is None else str(acl),
            )
        except (KeyError, TypeError, ValueError):
            return None


def deny(path: Path, uid: int) -> Grant:
    """Keep ``uid`` out of ``path`` (a named entry without permissions comes before "other")."""
    return grant(path, uid, 0)


def allowed(path: Path, uid: int, gid: int) -> int:
    """What ``uid`` (no supplementary groups) may do in ``path`` by its mode bits and ACL: the
    rwx bits (4, 2, 1)."""
    st = os.stat(path)
    if st.st_uid == uid:
        return (st.st_mode >> 6) & 7
    entries = _entries(path)
    if entries is not None:
        for tag, perm, ident in entries:
            if tag == USER and ident == uid:
                mask = next((p for t, p, _ in entries if t == MASK), 0o7)
                return perm & mask
    if st.st_gid == gid:
        return (st.st_mode >> 3) & 7
    return st.st_mode & 7


def searchable_by(path: Path, uid: int, gid: int) -> bool:
    """``uid`` (no supplementary groups) may search directory ``path`` by its mode bits and ACL."""
    return bool(allowed(path, uid, gid) & SEARCH)


def renaming(path: Path, uid: int, gid: int) -> list[Path]:
    """The directories from / down to ``path``'s parent in which ``uid`` may rename or remove
    what is not its own (written to without the sticky bit): there it could move ``path``, or a
    directory above it, away and put something else in its place."""
    return [
        directory
        for directory in reversed(path.parents)
        if directory.is_dir()
        and allowed(directory, uid, gid) & WRITE
        and not os.stat(directory).st_mode & stat.S_ISVTX
    ]


def blocking(path: Path, uid: int, gid: int) -> list[Path]:
    """The directories from / down to ``path`` (itself included) that ``uid`` may not search."""
    found = []
    for directory in [*reversed(path.parents), path]:
        if directory.is_dir() and not searchable_by(directory, uid, gid):
            found.append(directory)
    return found


def _entries(path: Path) -> list[tuple[int, int, int]] | None:
    try:
        raw = os.getxattr(path, XATTR, follow_symlinks=False)
    except OSError as exc:
        if exc.errno in (errno.ENODATA, errno.EOPNOTSUPP):
            return None
        raise
    return _decode(raw)


def _decode(raw: bytes) -> list[tuple[int, int, int]]:
    (version,) = struct.unpack_from("<I", raw)
    if version != VERSION:
        raise CannotGrant(errno.EINVAL, f"unknown ACL version {version}")
    return [ENTRY.unpack_from(raw, 4 + i * ENTRY.size) for i in range((len(raw) - 4) // ENTRY.size)]


def _encode(entries: list[tuple[int, int, int]]) -> bytes:
    ordered = sorted(entries, key=lambda e: (e[0], e[2]))
    return struct.pack("<I", VERSION) + b"".join(ENTRY.pack(*e) for e in ordered)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[int]:
    """The directory, opened, while this process holds the machine's lock on changing its ACL:
    graders running at once (each its own identity) change one directory's ACL one after
    another, never over each other. The lock is a file of root's keyed by the directory's
    device and inode, never the directory itself: a run holds a flock on its lab root for its
    whole length (rundir.py), and two descriptors of one process shut each other out, so a
    lab root the identity had to be let through (/root, mode 0700, in host mode) made the run
    wait on itself for ever."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        with machinelocks.held(machinelocks.folder(LOCKS) / f"{st.st_dev}-{st.st_ino}"):
            yield fd
    finally:
        os.close(fd)


def _mask_of(entries: list[tuple[int, int, int]] | None) -> int | None:
    return next((p for t, p, _ in entries or [] if t == MASK), None)


def _with_mask(
    entries: list[tuple[int, int, int]], kept: int | None = None, ours: int = 0
) -> list[tuple[int, int, int]]:
    """``entries`` with a mask: the one the directory had (``kept``) with only our entry's
    bits (``ours``) added, so nobody else's entry gains a permission by it (red team 19: a
    mask of r-x recomputed to rwx let a named user write to the lab root); with no mask before,
    the one every named entry and the owning group need (nobody's entry loses a permission)."""
    named = [e for e in entries if e[0] in (USER, GROUP)]
    rest = [e for e in entries if e[0] != MASK]
    if not named:
        return rest
    if kept is not None:
        return [*rest, (MASK, kept | ours, UNDEFINED)]
    mask = 0
    for tag, perm, _ in rest:
        if tag in (USER, GROUP, GROUP_OBJ):
            mask |= perm
    return [*rest, (MASK, mask, UNDEFINED)]


def grant(path: Path, uid: int, perm: int = SEARCH) -> Grant:
    """Let ``uid`` search ``path`` (``perm`` 0: keep it out altogether, whatever the mode bits
    let others do); the Grant says how to undo it. Only ``uid``'s own entry is ever added or
    taken away: other graders' entries stay as they are."""
    st = os.stat(path, follow_symlinks=False)
    if not stat.S_ISDIR(st.st_mode):
        raise CannotGrant(errno.ENOTDIR, f"{path} is not a directory")
    with _locked(path) as fd:
        st = os.fstat(fd)
        before = _entries(path)
        mode = stat.S_IMODE(st.st_mode)
        if before is None:
            entries = [
                (USER_OBJ, (mode >> 6) & 7, UNDEFINED),
                (GROUP_OBJ, (mode >> 3) & 7, UNDEFINED),
                (OTHER, mode & 7, UNDEFINED),
            ]
        else:
            entries = [e for e in before if not (e[0] == USER and e[2] == uid)]
        entries = _with_mask([*entries, (USER, perm, uid)], _mask_of(before), perm)
        record = Grant(str(path), st.st_dev, st.st_ino, uid, mode, None if before is None else "had")
        try:
            os.setxattr(fd, XATTR, _encode(entries))
        except OSError as exc:
            raise CannotGrant(exc.errno, f"{path}: {exc.strerror}") from exc
    return record


def revoke(record: Grant) -> bool:
    """Take ``record``'s entry away again; the directory's own ACL, when the last named entry
    goes, goes with it (its permission bits as before). False when the directory is no longer
    the one recorded."""
    path = Path(record.path)
    try:
        st = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return True  # gone: nothing left to undo
    if (st.st_dev, st.st_ino) != (record.dev, record.ino) or not stat.S_ISDIR(st.st_mode):
        return False
    with _locked(path) as fd:
        entries = _entries(path)
        if entries is None:
            return True
        left = [e for e in entries if not (e[0] == USER and e[2] == record.uid)]
        if any(e[0] in (USER, GROUP) for e in left):
            # The mask as it is, less what no entry left needs (the search only ours did).
            needed = _mask_of(_with_mask(left)) or 0
            os.setxattr(fd, XATTR, _encode(_with_mask(left, (_mask_of(entries) or 0) & needed, 0)))
            return True
        group = next((p for t, p, _ in left if t == GROUP_OBJ), 0)
        try:
            os.removexattr(fd, XATTR)
        except OSError as exc:
            if exc.errno != errno.ENODATA:
                raise
        mode = stat.S_IMODE(os.fstat(fd).st_mode)
        os.chmod(fd, (mode & ~0o070) | (group << 3))
    return True
