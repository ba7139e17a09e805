"""The grader's own state on disk, and one grader per lab root.

LAB_ROOT itself                            flock held for the whole run: a second grader of the
                                           same lab root stops at once, whatever its state dir
STATE_DIR/<lab-root key>/lock              flock: this directory is in use
STATE_DIR/<lab-root key>/workspaces.json   host mode: the journal of what was changed
STATE_DIR/<lab-root key>/run/              this run's scratch, removed at the end
    run/scratch/<box>/                     directories handed to one box's scripts
    run/work/                              working copies (namespace mode)
    run/own/                               the grader's own files (never handed to scripts)

In namespace mode run/scratch and run/work, all that scripts may write on the machine's disk,
are each a tmpfs of bounded size (``BOUNDED``), and each box's scratch inside run/scratch is a
tmpfs of its own (``BOX_SCRATCH``, mounted by session.py): scripts writing file after file just
under their per-file limit filled 28.6 GB of disk in one grade (red team 20); now they meet
ENOSPC. Their
pages are memory, charged to the scripts' control group (cgroup.py) when scripts write them.
Where no tmpfs can be mounted (no CAP_SYS_ADMIN) they stay plain folders and ``unbounded`` says
why. A mount a dead grader left is taken away with its scratch.

The state dir is the grader's alone: scripts never see it in namespace mode, and on the host
they may only enter their own scratch. Recovery acts only on what the journal recorded and
finds on disk as recorded (workspace.py); the processes a dead grader's scripts left are
found by their identity (identity.py).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from grader.machinery.treecopy import remove_tree, shown
from grader.machinery.workspace import Journal, Workspaces

RETRIES = 20  # times a run's folder is made again when another grader took it away
# Bytes of each tmpfs scripts write in: the working copies (each copy takes at most
# treecopy.COPY_BUDGET of file data) and the boxes' scratch directories. A lab's scripts write
# kilobytes.
BOUNDED = {"work": 640 << 20, "scratch": 128 << 20}
BOX_SCRATCH = 128 << 20  # each box's scratch, a tmpfs of its own inside run/scratch (session.py)
MS_NOSUID, MS_NODEV, MNT_DETACH = 2, 4, 2
_libc = ctypes.CDLL(None, use_errno=True)


class GraderBusy(RuntimeError):
    """Another grader holds this lab root; the message is the one the student reads."""


Recovery = Callable[[Path], list[str]]  # scratch dir of an interrupted run -> what was undone


def lab_key(lab_root: Path) -> str:
    return hashlib.sha256(str(lab_root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]


@dataclass
class RunDir:
    base: Path
    lab_root: Path | None = None  # None: a reference run, whose lab root is made inside
    recoveries: Sequence[Recovery] = ()  # what else an interrupted run may have left in scratch
    protected: Sequence[str] = ()  # the lab root's graded directories ("q", "eaimw/mq")
    bounded: bool = False  # scripts' folders on tmpfs of bounded size (namespace mode)
    unbounded: str | None = None  # why they could not be, when asked
    _locks: list[int] = field(default_factory=list, repr=False)

    @classmethod
    def for_lab_root(
        cls,
        state_dir: Path,
        lab_root: Path | None,
        recoveries: Sequence[Recovery] = (),
        protected: Sequence[str] = (),
        bounded: bool = False,
    ) -> RunDir:
        """One directory per student lab root; a reference run gets its own."""
        if lab_root is None:
            return cls(state_dir / f"reference-{os.getpid()}", None, recoveries, protected, bounded)
        return cls(state_dir / lab_key(lab_root), lab_root.resolve(), recoveries, protected, bounded)

    @property
    def key(self) -> str:
        return self.base.name

    @property
    def scratch(self) -> Path:
        return self.base / "run"

    @property
    def scripts_scratch(self) -> Path:
        return self.scratch / "scratch"

    @property
    def work(self) -> Path:
        return self.scratch / "work"

    @property
    def journal(self) -> Journal:
        return Journal(self.base / "workspaces.json")

    def _lock(self, path: Path, directory: bool) -> bool:
        flags = os.O_RDONLY | os.O_CLOEXEC | (os.O_DIRECTORY if directory else os.O_CREAT)
        fd = os.open(path, flags, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._locks.append(fd)
        return True

    def _make_base(self) -> None:
        if not self.base.parent.exists():  # ours: reachable by user rabbitmq whatever the umask
            self.base.parent.mkdir(parents=True, exist_ok=True)  # (another grader, at once)
            os.chmod(self.base.parent, 0o755)
        self.base.mkdir(exist_ok=True)
        os.chmod(self.base, 0o711)  # the broker (user rabbitmq) and scripts pass through, never list

    def open(self) -> list[str]:
        """Take the lab root (GraderBusy when another grader has it), undo what interrupted runs
        left, and make this run's scratch. Returns what was undone, for the report."""
        if self.lab_root is not None and self.lab_root.is_dir() and not self._lock(self.lab_root, True):
            raise GraderBusy(
                f"다른 채점기가 이미 {shown(self.lab_root)} 을(를) 채점하고 있습니다. 그 채점이 끝난 뒤"
                " 다시 실행하세요(이 실행은 아무것도 바꾸지 않았습니다)."
            )
        try:
            return self._recover_and_make()
        except BaseException:
            self._unlock()
            raise

    def _recover_and_make(self) -> list[str]:
        notes: list[str] = []
        self._make_base()
        for other in sorted(self.base.parent.iterdir()):
            if other != self.base and other.is_dir() and not other.is_symlink():
                left = RunDir(other, None, self.recoveries)
                try:
                    adopted = left._lock(other / "lock", False)
                except FileNotFoundError:  # another grader took it away meanwhile
                    continue
                if adopted:
                    notes += left._clear_scratch()
                    left.close()
        if not self._lock_own():
            raise GraderBusy(f"state dir {shown(self.base)} is in use by another grader")
        notes += self._clear_scratch()
        if self.lab_root is not None:
            lab = self.lab_root
            notes += Workspaces(lab, lab, False, self.work, self.journal, self.protected).recover()
        # The script identity may pass through to its own, never list; the working copies (of
        # a student's work, or of the reference) are nobody else's at all: the run's identity
        # passes by an ACL entry of its own (Workspaces.let_through), other users not even by
        # a path they guess (red team 13 read the reference being graded at work/q/consume.py).
        for path, mode in ((self.scratch, 0o711), (self.scripts_scratch, 0o711), (self.work, 0o700)):
            path.mkdir()
            if self.bounded and path != self.scratch and self.unbounded is None:
                self.unbounded = mount_tmpfs(path, BOUNDED[path.name])
            os.chmod(path, mode)
        return notes

    def _lock_own(self) -> bool:
        """Lock this run's folder. Another grader starting at the same moment may have taken it,
        between its making and this lock, for an interrupted run's and removed it (red team 15:
        two graders started at once in one state dir both failed): then it is made again."""
        for _ in range(RETRIES):
            try:
                return self._lock(self.base / "lock", False)
            except FileNotFoundError:
                self._make_base()
        return self._lock(self.base / "lock", False)

    def _clear_scratch(self) -> list[str]:
        if not self.scratch.is_dir() or self.scratch.is_symlink():
            return []
        notes = []
        for recovery in self.recoveries:
            notes += recovery(self.scratch)
        _unmount(self.scratch)
        left = remove_tree(self.scratch)
        notes.append(f"removed the scratch tree {shown(self.scratch)} of an interrupted run")
        notes += [f"could not remove {problem}" for problem in left]
        return notes

    def close(self) -> list[str]:
        """Remove this run's scratch and let go of the lab root; what could not be removed."""
        left = []
        if self.scratch.is_dir():
            _unmount(self.scratch)
            left = remove_tree(self.scratch)
        if not self.journal.path.exists():  # nothing the next run of this lab root needs
            (self.base / "lock").unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                self.base.rmdir()
                self.base.parent.rmdir()  # the state dir itself when no other lab root uses it
        self._unlock()
        return left

    def _unlock(self) -> None:
        for fd in self._locks:
            os.close(fd)
        self._locks.clear()


def recover(state_dir: Path, lab_root: Path) -> None:
    """What a grader killed mid-run left (its scripts' process groups, snapshots, scratch,
    mounts) is undone the way the next grader run of ``lab_root`` would undo it; nothing when
    another grader holds that lab root now."""
    rundir = RunDir.for_lab_root(state_dir, lab_root.resolve())
    try:
        rundir.open()
    except GraderBusy:
        return
    rundir.close()


def mount_tmpfs(path: Path, size: int) -> str | None:
    """A tmpfs of ``size`` bytes on the empty folder ``path``; None, or why not."""
    options = f"size={size},mode=0700".encode()
    if _libc.mount(b"tmpfs", os.fsencode(path), b"tmpfs", MS_NOSUID | MS_NODEV, options) != 0:
        return f"tmpfs on {shown(path)}: {os.strerror(ctypes.get_errno())}"
    return None


def unmount(path: Path) -> None:
    """Take away the tmpfs mounted on ``path`` and every mount below it (detached: gone once
    nothing uses it)."""
    if os.path.ismount(path):
        _libc.umount2(os.fsencode(path), MNT_DETACH)


def _unmount(scratch: Path) -> None:
    """Take away the tmpfs a run mounted in ``scratch`` (the boxes' own with them)."""
    for name in BOUNDED:
        unmount(scratch / name)
