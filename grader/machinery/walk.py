"""Walking a tree a script may have shaped: no recursion, no path longer than one name, links
never followed, two descriptors open at any depth.

Python 3.11's os.walk, Path.rglob and shutil.rmtree recurse once per folder and pass whole
paths to the kernel, so a script's chain of 1,500 folders ended them with RecursionError (and
a longer one with ENAMETOOLONG). ``walk`` goes down by a folder's name and back up by "..",
checked to be the folder it came from, and enters no folder deeper than ``max_depth``: what
lies below is reported as such, never read.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

from grader.machinery.textfile import Unreadable, kind

MAX_DEPTH = 256  # folders below the top that are entered; a lab's trees are a few deep
OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
OPEN_FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY


@dataclass(frozen=True)
class Found:
    """One entry below the top. ``dir_fd`` (the folder holding it) is open only until the walk
    goes on: read what you need before asking for the next entry."""

    path: str  # relative to the top, "/"-joined (may be longer than any path the kernel takes)
    name: str
    st: os.stat_result
    dir_fd: int
    deeper: bool = False  # a folder at ``max_depth``: not entered, what it holds is unseen

    @property
    def depth(self) -> int:
        return self.path.count("/") + 1

    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.st.st_mode)

    def is_file(self) -> bool:
        return stat.S_ISREG(self.st.st_mode)

    def readlink(self) -> str:
        return os.readlink(self.name, dir_fd=self.dir_fd)

    def read(self, limit: int) -> bytes:
        """A regular file's bytes (a FIFO or device is never opened to block); Unreadable
        when it is something else now, cannot be opened or holds more than ``limit``."""
        try:
            fd = os.open(self.name, OPEN_FILE, dir_fd=self.dir_fd)
        except OSError as exc:
            raise Unreadable(Path(self.path), f"읽을 수 없음({exc.strerror})") from exc
        try:
            if (what := kind(os.fstat(fd).st_mode)) is not None:  # swapped since it was listed
                raise Unreadable(Path(self.path), f"보통 파일이 아니라 {what}")
            data = os.read(fd, limit + 1)
        finally:
            os.close(fd)
        if len(data) > limit:
            raise Unreadable(Path(self.path), f"{limit} 바이트보다 큼")
        return data


def walk(
    top: Path,
    max_depth: int = MAX_DEPTH,
    prune: Collection[str] = (),
    enter: Callable[[Found], bool] = lambda found: True,
) -> Iterator[Found]:
    """Every entry below the directory ``top`` (``top`` itself may be a link to one), parents
    before children, each folder's names sorted; the folders in ``prune`` (paths relative to
    ``top``) are passed by whole, those ``enter`` refuses are listed but not entered. A folder
    that cannot be opened, or is swapped for another while it is walked, is passed by; nothing
    is ever followed out of the tree."""
    try:
        fd = os.open(top, OPEN_DIR & ~os.O_NOFOLLOW)
    except OSError:
        return
    # per level entered below the top: (what is left of the folder above, its path prefix,
    # its (dev, inode))
    above: list[tuple[list[str], str, tuple[int, int]]] = []
    left, prefix = _names(fd), ""
    try:
        while True:
            if left:
                name = left.pop()
                try:
                    st = os.lstat(name, dir_fd=fd)
                except OSError:
                    continue  # gone since it was listed
                path = prefix + name
                if path in prune:
                    continue
                deeper = stat.S_ISDIR(st.st_mode) and len(above) + 1 >= max_depth
                found = Found(path, name, st, fd, deeper)
                yield found
                if not stat.S_ISDIR(st.st_mode) or deeper or not enter(found):
                    continue
                child = _enter(fd, name, st)
                if child is None:
                    continue
                here = os.fstat(fd)
                above.append((left, prefix, (here.st_dev, here.st_ino)))
                os.close(fd)
                fd, left, prefix = child, _names(child), path + "/"
                continue
            if not above:
                return
            left, prefix, parent = above.pop()
            up = os.open("..", OPEN_DIR, dir_fd=fd)
            os.close(fd)
            fd = up
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != parent:
                return  # moved while it was walked: nothing more is read
    finally:
        os.close(fd)


def _names(fd: int) -> list[str]:
    """The folder's names, sorted last first (taken with pop())."""
    try:
        return sorted(os.listdir(fd), reverse=True)
    except OSError:
        return []


def _enter(fd: int, name: str, st: os.stat_result) -> int | None:
    try:
        child = os.open(name, OPEN_DIR, dir_fd=fd)
    except OSError:
        return None
    cst = os.fstat(child)
    if (cst.st_dev, cst.st_ino) != (st.st_dev, st.st_ino):  # swapped since it was looked at
        os.close(child)
        return None
    return child
