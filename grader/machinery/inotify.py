"""Watch the queue directories with inotify and tell how each file travelled.

A consumer that claims a file renames it inbox -> processing -> done; one that reads straight
from inbox shows inbox -> done; a poison loop shows processing -> inbox. A copy shows up as
a CREATE followed by a write (CLOSE_WRITE) without a move; a CREATE with no write is a hard
link (link, then unlink the name in inbox: Maildir's claim), which is a claim like a rename
(red team 18). Events are paired by the kernel's rename cookie. Subdirectories of
processing/ (one per consumer, say) count as processing/ and are watched as they appear, and so
does a processing/ made again (a consumer that removes and makes it when it starts: red team
17, its files were taken for moved past processing/).

``Touches`` says only whether some file of a few names was made or written since it was last
asked (a database's rollback journal appearing: a write begun).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import struct
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

IN_CLOSE_WRITE = 0x08
IN_OPEN = 0x20
IN_MOVED_FROM = 0x40
IN_MOVED_TO = 0x80
IN_CREATE = 0x100
IN_MODIFY = 0x02
IN_DELETE = 0x200
IN_Q_OVERFLOW = 0x4000
IN_ISDIR = 0x40000000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
WATCHED = IN_CLOSE_WRITE | IN_OPEN | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
TOUCHED = IN_CREATE | IN_MODIFY | IN_MOVED_TO  # a file made, written or moved in (Touches)
PARENT = "(parent)"  # the label of processing/'s parent, watched for a processing/ made again
HEADER = struct.Struct("iIII")

_libc = ctypes.CDLL(None, use_errno=True)


@dataclass(frozen=True)
class Event:
    where: str  # label of the watched directory ("inbox", "processing", ...)
    name: str
    mask: int
    cookie: int


@dataclass
class Travel:
    """Where each file (by its name in inbox when watching began) went, in order."""

    hops: dict[str, list[str]] = field(default_factory=dict)
    copied: set[str] = field(default_factory=set)  # reached processing/ by a copy, not a move
    opened_in_inbox: set[str] = field(default_factory=set)
    overflow: bool = False

    def skipped_processing(self) -> list[str]:
        """Files whose first step out of inbox did not go to processing/ by a move."""
        return sorted(
            name
            for name, hops in self.hops.items()
            if len(hops) > 1 and (hops[1] != "processing" or name in self.copied)
        )

    def sent_back_to_inbox(self) -> list[str]:
        return sorted(
            name
            for name, hops in self.hops.items()
            if any(a != "inbox" and b == "inbox" for a, b in pairwise(hops))
        )


def _records(data: bytes) -> Iterator[tuple[int, int, int, bytes]]:
    """The events one read of an inotify descriptor gave: (wd, mask, cookie, name)."""
    offset = 0
    while offset < len(data):
        wd, mask, cookie, length = HEADER.unpack_from(data, offset)
        yield wd, mask, cookie, data[offset + HEADER.size : offset + HEADER.size + length].rstrip(b"\0")
        offset += HEADER.size + length


class Watcher:
    """Collects events of a few directories on a thread until ``stop``."""

    def __init__(self, dirs: Mapping[str, Path]) -> None:
        self._fd = _libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self._fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        self._labels: dict[int, tuple[str, Path]] = {}
        self.events: list[Event] = []
        self.overflow = False
        self.subdirs = 0  # subdirectories of processing/ seen
        self._processing: Path | None = None
        for label, path in dirs.items():
            self._watch(label, path)
            if label == "processing":
                self._watch(PARENT, path.parent, IN_CREATE | IN_MOVED_TO)
                self._processing = path
                for sub in path.iterdir():
                    if sub.is_dir():
                        self.subdirs += 1
                        self._watch(label, sub)
        self._stopping = threading.Event()
        self._failed: BaseException | None = None  # what stopped the reading thread early
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _watch(self, label: str, path: Path, mask: int = WATCHED) -> None:
        wd = _libc.inotify_add_watch(self._fd, os.fsencode(path), mask)
        if wd < 0:
            raise OSError(ctypes.get_errno(), f"inotify_add_watch {path} failed")
        self._labels[wd] = (label, path)

    def _read(self) -> None:
        """Keeps the kernel's queue short while the scripts run (it holds 16,384 events)."""
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        try:
            while not self._stopping.is_set():
                if poller.poll(50):
                    self._drain()
        except BaseException as exc:  # told by stop(): events missed are no verdict
            self._failed = exc

    def _drain(self) -> None:
        """Every event queued now, parsed."""
        while True:
            try:
                data = os.read(self._fd, 1 << 20)
            except BlockingIOError:
                return
            self._parse(data)

    def _parse(self, data: bytes) -> None:
        for wd, mask, cookie, raw in _records(data):
            name = raw.decode("utf-8", "surrogateescape")
            if mask & IN_Q_OVERFLOW:
                self.overflow = True
            elif wd not in self._labels:
                continue
            elif self._labels[wd][0] == PARENT:
                if mask & IN_ISDIR and self._processing and name == self._processing.name:  # made again
                    self._new_processing(self._processing)
            elif not mask & IN_ISDIR:
                self.events.append(Event(self._labels[wd][0], name, mask, cookie))
            elif self._labels[wd][0] == "processing" and mask & (IN_CREATE | IN_MOVED_TO):
                self._new_processing(self._labels[wd][1] / name)

    def _new_processing(self, path: Path) -> None:
        """A folder that counts as processing/ appeared: watched from now on; what went in
        before the watch is joined by name (see ``travel``)."""
        self.subdirs += 1
        with contextlib.suppress(OSError):  # already gone again
            self._watch("processing", path)

    def stop(self) -> list[Event]:
        """Every event since watching began; raises when the reading thread failed (the
        events are then incomplete: a fault of the grader's, never a student's verdict)."""
        self._stopping.set()
        self._thread.join()
        try:
            if self._failed is None:
                # What the thread has not read yet: it may have last looked before the scripts
                # ran (a poll that found nothing, then no CPU until now: a correct consumer's
                # whole run went unseen under load, and failed Q3.4). Every event of theirs is
                # queued by now.
                try:
                    self._drain()
                except Exception as exc:
                    self._failed = exc
        finally:
            os.close(self._fd)
        if self._failed is not None:
            raise RuntimeError("inotify: the watch of the queue folders stopped early") from self._failed
        return self.events


def travel(
    events: Iterable[Event],
    inbox_names: Iterable[str],
    overflow: bool = False,
    subdirs: int = 0,
) -> Travel:
    """Follow every file that was in inbox when watching began through the events.

    A move whose other half was not seen (a subdirectory of processing/ made a moment before
    the file went in, not watched yet) is joined by the file's name; with subdirectories of
    processing/ about, that unseen place is processing/.
    """
    result = Travel(overflow=overflow)
    where: dict[tuple[str, str], str] = {}  # (dir, name) -> original inbox name
    for name in inbox_names:
        where[("inbox", name)] = name
        result.hops[name] = ["inbox"]
    leaving: dict[int, str] = {}
    made: dict[tuple[str, str], str] = {}  # made in processing/ while still in inbox: copy or link?
    for ev in events:
        key = (ev.where, ev.name)
        if ev.mask & IN_OPEN and ev.where == "inbox" and key in where:
            result.opened_in_inbox.add(where[key])
        elif ev.mask & IN_CLOSE_WRITE:
            if key in made:  # written: a copy, no claim (two consumers both get it)
                result.copied.add(made.pop(key))
        elif ev.mask & IN_MOVED_FROM:
            made.pop(key, None)
            if key in where:
                leaving[ev.cookie] = where.pop(key)
        elif ev.mask & IN_MOVED_TO:
            origin = leaving.pop(ev.cookie, None)
            if origin is None:  # came from somewhere unwatched: the file it left as?
                unseen = [c for c, o in leaving.items() if o == ev.name]
                if unseen:
                    origin = leaving.pop(unseen[0])
                    result.hops[origin].append("processing" if subdirs else "(밖)")
            if origin is not None:
                where[key] = origin
                result.hops[origin].append(ev.where)
        elif ev.mask & IN_CREATE:
            copies = [o for (_, n), o in where.items() if n == ev.name]
            if copies:
                origin = copies[0]
                if ev.where == "processing" and result.hops[origin][-1] == "inbox":
                    made[key] = origin  # a copy once it is written; else a hard link
                where[key] = origin
                result.hops[origin].append(ev.where)
        elif ev.mask & IN_DELETE:
            where.pop(key, None)
            made.pop(key, None)
    for origin in leaving.values():  # moved somewhere unwatched
        result.hops[origin].append("(밖)")
    return result


class Touches:
    """Whether a file of a few names in one directory was made or written since last asked.

    No thread: the kernel queues the events and ``seen`` drains them. A directory that cannot
    be watched (gone, or no inotify instance left) is never seen touched; callers keep their
    other signs and bounds."""

    def __init__(self, directory: Path, names: Iterable[str]) -> None:
        self._names = {os.fsencode(n) for n in names}
        self._fd = _libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self._fd >= 0 and _libc.inotify_add_watch(self._fd, os.fsencode(directory), TOUCHED) < 0:
            os.close(self._fd)
            self._fd = -1

    def seen(self) -> bool:
        touched = False
        while self._fd >= 0:
            try:
                data = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                break
            for _wd, mask, _cookie, name in _records(data):
                touched = touched or bool(mask & IN_Q_OVERFLOW) or name in self._names
        return touched

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Touches:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
