"""Copying a student's directory for the scripts to run in, and removing the grader's own
trees, safely whatever the student's tree holds.

- A working copy holds what scripts read: files keep their bytes, modes (the owner's read and
  write bits set, as root has them), times and holes (a sparse file stays sparse); the
  contents of directories the grader empties anyway (``empty``) are never read, so a queue
  folder with 100,000 files costs nothing. A link that stays inside the tree is copied as a
  link; a link leading outside it to a regular file becomes a copy of that file (nothing the
  scripts write reaches outside through it); any other link is copied as it is and never
  written through by the grader. FIFOs, sockets and devices are never opened: they are left
  out.
- Removal never follows a link, never crosses into another filesystem (a mount point is left
  and reported), and clears the immutable and append-only flags of what it removes (it only
  removes the grader's own trees).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import struct
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import partial
from pathlib import Path

# Bytes of file data a working copy may take; the rest is left out (and named). Working copies
# sit on a filesystem of bounded size (rundir.py), two of q/ and one of eaimw/mq among them.
COPY_BUDGET = 128 << 20
PAGE = 4096  # what a file's data and a link take at least, counted against the budget (tmpfs)
# entries below the top a working copy may take (batch refuses a submission of more); the rest
# is left out. 300,000 files in a folder of q/ took a student-mode grade 311 s to copy.
COPY_ENTRIES = 50_000
FS_IOC_GETFLAGS = 0x80086601
FS_IOC_SETFLAGS = 0x40086602
FS_IMMUTABLE_FL = 0x10
FS_APPEND_FL = 0x20
OPEN_QUIETLY = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True)
class CopyPlan:
    """What a working copy does at the top of the copied folder: the contents of the folders
    ``empty`` are never read (the grader empties them), and the names ``first`` (the lab's own
    files) are copied before anything else, so no number of other files can leave them out."""

    empty: frozenset[str] = frozenset()
    first: tuple[str, ...] = ()

    @classmethod
    def of(cls, empty: Collection[str] = (), first: Collection[str] = ()) -> CopyPlan:
        return cls(frozenset(empty), tuple(first))


AS_IT_IS = CopyPlan()  # every folder copied, in the usual order


def shown(path: Path | str) -> str:
    """A path for a message, whatever bytes its name holds."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def flags(path: Path) -> int:
    """The inode flags (chattr) of a directory or regular file; 0 when they cannot be read."""
    try:
        fd = os.open(path, OPEN_QUIETLY)
    except OSError:
        return 0
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode) and not stat.S_ISREG(os.fstat(fd).st_mode):
            return 0
        return int(struct.unpack("i", fcntl.ioctl(fd, FS_IOC_GETFLAGS, b"\0" * 4))[0])
    except OSError:
        return 0
    finally:
        os.close(fd)


def _clear_flags(name: str, dir_fd: int) -> None:
    """Drop immutable and append-only from an entry of the grader's own tree."""
    with contextlib.suppress(OSError):
        fd = os.open(name, OPEN_QUIETLY, dir_fd=dir_fd)
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
                now = struct.unpack("i", fcntl.ioctl(fd, FS_IOC_GETFLAGS, b"\0" * 4))[0]
                wanted = now & ~(FS_IMMUTABLE_FL | FS_APPEND_FL)
                if wanted != now:
                    fcntl.ioctl(fd, FS_IOC_SETFLAGS, struct.pack("i", wanted))
        finally:
            os.close(fd)


class _Copy:
    """A tree copied entry by entry through directory descriptors, so a path of any length
    (a student's 4,085-byte path under q/ is longer than PATH_MAX once it sits in the
    grader's scratch) is copied like any other."""

    def __init__(self, root: Path, plan: CopyPlan) -> None:
        self.root = os.path.realpath(root)
        self.empty = plan.empty
        self.first = plan.first
        self.budget = COPY_BUDGET
        self.entries = COPY_ENTRIES
        self.left_out: list[str] = []

    def inside(self, path: str) -> bool:
        return path == self.root or path.startswith(self.root + os.sep)

    def tree(self, src: Path, dest: Path, top: bool, exists: bool = False) -> None:
        if not exists:
            dest.mkdir(mode=0o700)
        try:
            src_fd = os.open(src, OPEN_DIR & ~os.O_NOFOLLOW)  # the student's q/ may be a link
        except OSError as exc:  # where it leads cannot be opened: nothing to copy
            self.left_out.append(f"{shown(src)} ({exc.strerror}: 복사하지 않음)")
            return
        try:
            dest_fd = os.open(dest, OPEN_DIR)
            try:
                self._tree(src_fd, dest_fd, str(src), top)
            finally:
                os.close(dest_fd)
        finally:
            os.close(src_fd)

    def _tree(self, src_fd: int, dest_fd: int, where: str, top: bool) -> None:
        """Copy the directory ``src_fd`` into ``dest_fd``, depth first without recursion and
        with two open descriptors on each side whatever the depth (a chain of folders deeper
        than the descriptor limit is copied like a flat one): down by a child's name, back up by
        "..", the source checked to be the folder it came from. Each folder's metadata is set
        once it is full. Paths for messages are made only when one is needed."""
        src, dest = os.dup(src_fd), os.dup(dest_fd)
        names: list[str] = []  # the current folder's path below ``where``
        # per level above the current one: (its (dev, inode), top level?, entries left, stat)
        above: list[tuple[tuple[int, int], bool, list[str], os.stat_result]] = []
        st = os.fstat(src)
        at_top, left = top, []
        try:
            left = _listed(src, self.first if top else ())
        except OSError as exc:
            self.left_out.append(f"{shown(where)} ({exc.strerror})")

        def at(*more: str) -> str:
            return "/".join([where, *names, *more])

        try:
            while True:
                if names and left and self.entries <= 0:  # the top level is always copied
                    if self.entries == 0:  # said once
                        self.entries = -1
                        self.left_out.append(
                            f"{shown(at())} 부터 (항목이 {COPY_ENTRIES}개를 넘어 복사하지 않음)"
                        )
                    left = []
                if not left:
                    _same_metadata(st, dest)
                    if not above:
                        return
                    parent, at_top, left, st = above.pop()
                    done = names.pop()
                    try:
                        src = _up(src)
                    except OSError as exc:  # gone meanwhile (a process's folder of /proc ended)
                        self.left_out.append(f"{shown(at(done))} ({exc.strerror}: 나머지는 빠짐)")
                        return
                    dest = _up(dest)
                    here = os.fstat(src)
                    if (here.st_dev, here.st_ino) != parent:  # moved meanwhile: stop there
                        self.left_out.append(f"{shown(at(done))} (복사하는 중에 옮겨짐: 나머지는 빠짐)")
                        return
                    continue
                name = left.pop(0)
                if names:
                    self.entries -= 1
                # by the folder's descriptor open now (a listing's entries keep the number of
                # the descriptor they were listed through, closed once the copy went below)
                try:
                    est = os.stat(name, dir_fd=src, follow_symlinks=False)
                except OSError as exc:  # gone meanwhile, or a name the kernel will not show
                    self.left_out.append(f"{shown(at(name))} ({exc.strerror})")
                    continue
                if at_top and name in self.empty:
                    os.mkdir(name, dir_fd=dest)  # the grader empties it before any script runs
                elif stat.S_ISDIR(est.st_mode):
                    os.mkdir(name, 0o700, dir_fd=dest)
                    try:
                        sub = os.open(name, OPEN_DIR, dir_fd=src)
                    except OSError as exc:
                        self.left_out.append(f"{shown(at(name))} ({exc.strerror})")
                        continue
                    try:
                        out = os.open(name, OPEN_DIR, dir_fd=dest)
                    except OSError:
                        os.close(sub)
                        raise
                    try:
                        listed = _listed(sub)
                    except OSError as exc:
                        os.close(sub)
                        os.close(out)
                        self.left_out.append(f"{shown(at(name))} ({exc.strerror})")
                        continue
                    above.append(((st.st_dev, st.st_ino), at_top, left, st))
                    os.close(src)
                    os.close(dest)
                    src, dest = sub, out
                    names.append(name)
                    st, at_top, left = os.fstat(src), False, listed
                elif stat.S_ISREG(est.st_mode):
                    self._file(src, name, dest, name, at(name))
                elif stat.S_ISLNK(est.st_mode):
                    self._link(src, dest, name, at(name))
                else:
                    self.left_out.append(f"{shown(at(name))} (특수 파일: 열지 않음)")
        finally:
            os.close(src)
            os.close(dest)

    def _link(self, src_fd: int, dest_fd: int, name: str, at: str) -> None:
        try:
            points_to = os.readlink(name, dir_fd=src_fd)
        except OSError as exc:  # a link the kernel will not read (/proc/PID/cwd of another's)
            self.left_out.append(f"{shown(at)} ({exc.strerror})")
            return
        try:
            resolved = os.path.realpath(at)
            outside_file = not self.inside(resolved) and os.path.isfile(resolved)
        except OSError:  # a path too long to resolve: kept as a link, never written through
            outside_file = False
        if outside_file:
            try:
                fd = os.open(resolved, OPEN_QUIETLY & ~os.O_NOFOLLOW)
            except OSError as exc:
                self.left_out.append(f"{shown(at)} ({exc.strerror})")
                return
            try:
                self._data(fd, dest_fd, name, at)  # a copy: nothing written to it reaches outside
            finally:
                os.close(fd)
        elif self.budget < PAGE:  # a link's target may take a page of its own (red team 21:
            self.left_out.append(f"{shown(at)} (복사 한도를 넘어 복사하지 않음)")  # 50,000 of them)
        else:
            self.budget -= PAGE
            os.symlink(points_to, name, dir_fd=dest_fd)

    def _file(self, src_fd: int, src_name: str, dest_fd: int, name: str, at: str) -> None:
        try:
            fd = os.open(src_name, OPEN_QUIETLY, dir_fd=src_fd)
        except OSError as exc:
            self.left_out.append(f"{shown(at)} ({exc.strerror})")
            return
        try:
            self._data(fd, dest_fd, name, at)
        finally:
            os.close(fd)

    def _data(self, fd: int, dest_fd: int, name: str, at: str) -> None:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped for something else since it was listed
            self.left_out.append(f"{shown(at)} (특수 파일: 열지 않음)")
            return
        used = -(-max(min(st.st_size, st.st_blocks * 512), 1) // PAGE) * PAGE  # whole pages
        if used > self.budget:
            what = "복사 한도가 다 참" if self.budget < PAGE else "남은 복사 한도보다 큼"
            self.left_out.append(f"{shown(at)} ({st.st_size} 바이트: {what})")
            return
        self.budget -= used
        out = os.open(
            name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600, dir_fd=dest_fd
        )
        try:
            _copy_data(fd, out, st.st_size)
            _same_metadata(st, out)
        finally:
            os.close(out)


def _listed(dir_fd: int, first: tuple[str, ...] = ()) -> list[str]:
    """A folder's names in the order they are copied: ``first`` (the lab's own files, in
    that order), then its files smallest first, then the rest by name. When the budget runs
    out, what is left out is the largest files or, where tens of thousands of small files
    take it (a page each), other files than the lab's own (red team 21: two 64 MiB files named
    first left consume.py out; red team 23: 33,000 empty ones did)."""

    def order(name: str) -> tuple[int, int, str]:
        if name in first:
            return (0, first.index(name), name)
        try:
            st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except OSError:
            return (2, 0, name)
        return (1, st.st_size, name) if stat.S_ISREG(st.st_mode) else (2, 0, name)

    return sorted(os.listdir(dir_fd), key=order)


def _up(dir_fd: int) -> int:
    """The parent of ``dir_fd``, which is closed once the parent is open (and only then)."""
    up = os.open("..", OPEN_DIR, dir_fd=dir_fd)
    os.close(dir_fd)
    return up


def _copy_data(src: int, dest: int, size: int) -> None:
    """Copy the data extents of ``src`` only: holes stay holes."""
    offset = 0
    while offset < size:
        try:
            data = os.lseek(src, offset, os.SEEK_DATA)
            hole = os.lseek(src, data, os.SEEK_HOLE)
        except OSError as exc:
            if exc.errno == errno.ENXIO:  # nothing but a hole up to the end
                break
            data, hole = offset, size  # no SEEK_DATA here: copy it all
        hole = min(hole, size)
        at = data
        while at < hole:
            try:
                done = os.copy_file_range(src, dest, hole - at, at, at)
            except OSError:
                chunk = os.pread(src, min(hole - at, 1 << 20), at)
                done = os.pwrite(dest, chunk, at) if chunk else 0
            if done <= 0:
                break
            at += done
        offset = hole
    os.ftruncate(dest, size)


def _same_metadata(st: os.stat_result, dest: int) -> None:
    """``dest`` (an open file or directory) gets ``st``'s permission bits and times, never its
    setuid, setgid or sticky bits (the copy is the scripts' identity's; see identity.py). The
    identity stands for root, who reads and writes what it owns (and enters its directories)
    whatever their bits say: those owner bits are set (a q/ of mode 000 works for root in a
    pod, and so in its copy); a file's execute bits stay as they are (root needs one too)."""
    owner = 0o700 if stat.S_ISDIR(st.st_mode) else 0o600
    os.chmod(dest, (stat.S_IMODE(st.st_mode) & 0o777) | owner)
    os.utime(dest, ns=(st.st_atime_ns, st.st_mtime_ns))


def working_copy(src: Path, dest: Path, plan: CopyPlan = AS_IT_IS, exists: bool = False) -> list[str]:
    """Make ``dest`` (new, or ``exists`` and empty) a copy of directory ``src`` for scripts to
    run in (see the module's docstring and ``CopyPlan``); returns what was left out, for the
    report."""
    copy = _Copy(src, plan)
    copy.tree(src, dest, top=True, exists=exists)
    return copy.left_out


def remove_tree(path: Path) -> list[str]:
    """Remove ``path`` (a tree of the grader's own); returns what could not be removed."""
    problems: list[str] = []
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return problems
    if not stat.S_ISDIR(st.st_mode):
        try:
            os.unlink(path)
        except OSError as exc:
            problems.append(f"{shown(path)}: {exc.strerror}")
        return problems
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        _empty(fd, st.st_dev, shown(path), problems)
    finally:
        os.close(fd)
    if not problems:
        parent = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            _remove_entry(path.name, parent, True, lambda: shown(path), problems, ours=False)
        finally:
            os.close(parent)
    return problems


def _empty(dir_fd: int, dev: int, where: str, problems: list[str]) -> None:
    """Remove everything below ``dir_fd``, depth first without recursion and with two open
    descriptors whatever the depth (a script can make a chain of folders far deeper than any
    path or descriptor limit): down by a child's name, back up by "..", checked to be the
    folder it came from. Each folder is listed once; what cannot be removed is reported."""
    fd = os.dup(dir_fd)
    # per level below the top: (the folder's name in its parent, the parent's (dev, inode),
    # the parent's subfolders still to empty)
    path: list[tuple[str, tuple[int, int], list[str]]] = []
    left = _clear_files(fd, dev, lambda name: _shown_at(where, path, name), problems)
    try:
        while True:
            if left:
                name = left.pop()
                try:
                    child = os.open(name, OPEN_DIR, dir_fd=fd)
                except OSError as exc:
                    problems.append(f"{_shown_at(where, path, name)}: {exc.strerror}")
                    continue
                here = os.fstat(fd)
                path.append((name, (here.st_dev, here.st_ino), left))
                os.close(fd)
                fd = child
                left = _clear_files(fd, dev, lambda name: _shown_at(where, path, name), problems)
                continue
            if not path:
                return
            name, parent, left = path.pop()
            up = os.open("..", OPEN_DIR, dir_fd=fd)
            os.close(fd)
            fd = up
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != parent:  # moved meanwhile: nothing more is touched
                problems.append(f"{_shown_at(where, path, name)}: 지우는 중에 옮겨짐")
                return
            _remove_entry(name, fd, True, partial(_shown_at, where, path, name), problems)
    finally:
        os.close(fd)


def _shown_at(where: str, path: list[tuple[str, tuple[int, int], list[str]]], *more: str) -> str:
    return "/".join([where, *(shown(name) for name, _, _ in path), *(shown(m) for m in more)])


def _clear_files(fd: int, dev: int, at: Callable[[str], str], problems: list[str]) -> list[str]:
    """Remove every entry of ``fd`` but its folders; returns the names of those on ``dev`` (a
    mount point is reported and left). ``at(name)``: an entry's path, for a message (made
    only then: a path thousands of folders deep is long)."""
    folders = []
    for entry in list(os.scandir(fd)):
        try:
            est = entry.stat(follow_symlinks=False)
        except FileNotFoundError:
            continue
        if not stat.S_ISDIR(est.st_mode):
            _remove_entry(entry.name, fd, False, partial(at, entry.name), problems)
        elif est.st_dev != dev:
            problems.append(f"{at(entry.name)}: 다른 파일 시스템이 마운트되어 있음(건드리지 않음)")
        else:
            folders.append(entry.name)
    return folders


def _remove_entry(
    name: str, dir_fd: int, is_dir: bool, at: Callable[[], str], problems: list[str], ours: bool = True
) -> None:
    """Remove one entry of ``dir_fd``; ``ours``: that directory is the grader's too; ``at()``:
    its path, for a message."""
    for attempt in range(2):
        try:
            if is_dir:
                os.rmdir(name, dir_fd=dir_fd)
            else:
                os.unlink(name, dir_fd=dir_fd)
            return
        except FileNotFoundError:
            return
        except OSError as exc:
            if exc.errno != errno.EPERM or attempt:
                if exc.errno != errno.ENOTEMPTY:  # a child's problem is reported already
                    problems.append(f"{at()}: {exc.strerror}")
                return
            _clear_flags(name, dir_fd)  # chattr +i / +a on our own copy
            if ours:
                _clear_flags(".", dir_fd)
