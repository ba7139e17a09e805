"""The student's directories during a grade: where the scripts run, and where checks read.

Each graded directory (LAB_ROOT/q, LAB_ROOT/eaimw/mq) gets a working copy (treecopy.py) for
the student's scripts to run in and the grader to write its inputs into (``live``), while
state checks read the student's directory exactly as found (``saved``):

- namespace mode: the working copy lives in the grader's scratch and is mounted over the
  student's directory inside the scripts' namespace only. The student's directory is never
  touched; ``saved`` is the directory itself.
- host mode (no namespaces): the student's directory is renamed aside within its own parent
  (``.lab-grader-saved.<name>``: same filesystem, O(1), every inode kept), the working copy is
  put in its place, and at the end it is removed and the original renamed back. Before any of
  that the grader checks the renames can be undone (no mount point, no chattr +i/+a, not
  read-only) and refuses otherwise, changing nothing. A run killed meanwhile is put right by
  the next one (``recover``), which acts only on names derived from the lab root; the journal
  in the state dir only confirms which directory is the grader's working copy (device and
  inode), and anything it cannot confirm is kept under a ``.lab-grader-kept.*`` name and
  named, never deleted.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import threading
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from fixtures.atomic import write_atomic
from grader.machinery.sandbox import Mount
from grader.machinery.treecopy import FS_APPEND_FL, FS_IMMUTABLE_FL, flags, remove_tree, shown, working_copy

SAVED, BUILDING, KEPT = ".lab-grader-saved.", ".lab-grader-work.", ".lab-grader-kept."
Identity = tuple[int, int]  # (st_dev, st_ino) of a working copy the grader made


class Refused(RuntimeError):
    """Grading would change what it could not put back (or an earlier run's could not be put
    back): nothing was changed. The message, in Korean, names the entry and what to do."""


@dataclass(frozen=True)
class Workspace:
    relative: str  # "q"
    live: Path  # the working copy: scripts run in it, the grader writes inputs and reads results
    saved: Path  # the student's directory as found: read by state checks, never written
    view: Path  # where the scripts see ``live``
    copied: bool  # False: the student has no such directory (nothing to run)


def _identity(path: Path) -> Identity | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


class Journal:
    """The identities of the working copies put in place of students' directories (host mode)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, Identity]:
        """What was recorded; anything unreadable or malformed counts as nothing recorded."""
        try:
            data = json.loads(self.path.read_bytes()[:65536])
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {
            k: (v[0], v[1])
            for k, v in data.items()
            if isinstance(v, list) and len(v) == 2 and all(isinstance(n, int) for n in v)
        }

    def write(self, entries: dict[str, Identity]) -> None:
        if entries:
            write_atomic(self.path, json.dumps({k: list(v) for k, v in entries.items()}).encode())
        else:
            self.path.unlink(missing_ok=True)


@dataclass(frozen=True)
class _Aside:
    original: Path
    saved: Path
    building: Path

    @classmethod
    def of(cls, original: Path) -> _Aside:
        parent = original.parent
        return cls(original, parent / f"{SAVED}{original.name}", parent / f"{BUILDING}{original.name}")


class Workspaces:
    def __init__(
        self,
        lab_root: Path,
        scripts_root: Path,
        namespaces: bool,
        work_dir: Path,
        journal: Journal,
        protected: Sequence[str],
    ) -> None:
        self.lab_root = lab_root
        self.scripts_root = scripts_root
        self.namespaces = namespaces
        self.work_dir = work_dir
        self.journal = journal
        self.protected = tuple(protected)
        self._open: dict[str, Workspace] = {}
        self._identities: dict[str, Identity] = {}
        self._lock = threading.Lock()

    # the run -----------------------------------------------------------------------------
    def live(self, relative: str) -> Path:
        """Where ``relative``'s working copy is (or will be)."""
        return self.work_dir / relative if self.namespaces else self.lab_root / relative

    def check(self, relatives: Collection[str]) -> None:
        """Host mode: refuse (changing nothing) unless each directory can be put aside and back."""
        if self.namespaces:
            return
        for relative in relatives:
            _can_put_aside(_Aside.of(self.lab_root / relative))

    def open(self, relative: str, empty: Collection[str] = ()) -> tuple[Workspace, list[str]]:
        """The working copy of LAB_ROOT/relative, made now; and what it left out."""
        original = self.lab_root / relative
        view = self.scripts_root / relative
        live = self.live(relative)
        with self._lock:
            if relative in self._open:
                raise ValueError(f"{relative} opened twice")
            if self.namespaces:
                left_out: list[str] = []
                copied = original.is_dir()
                if copied:  # into the directory already mounted for the scripts (``mounts``)
                    live.mkdir(parents=True, exist_ok=True)
                    left_out = working_copy(original, live, empty, exists=True)
                workspace = Workspace(relative, live, original, view, copied)
            elif not os.path.lexists(original):
                workspace, left_out = Workspace(relative, live, original, view, False), []
            else:
                aside = _Aside.of(original)
                left_out = self._put_aside(relative, aside, empty)
                workspace = Workspace(relative, live, aside.saved, view, True)
            self._open[relative] = workspace
        return workspace, left_out

    def _put_aside(self, relative: str, aside: _Aside, empty: Collection[str]) -> list[str]:
        _can_put_aside(aside)
        try:
            os.rename(aside.original, aside.saved)
        except OSError as exc:
            raise Refused(
                f"{shown(aside.original)} 을(를) 잠시 옮겨 둘 수 없습니다({exc.strerror})."
            ) from exc
        try:
            aside.building.mkdir(mode=0o700)
            identity = _identity(aside.building)
            assert identity is not None
            self._identities[relative] = identity
            self.journal.write(self._identities)
            left_out = working_copy(aside.saved, aside.building, empty, exists=True)
            os.rename(aside.building, aside.original)
        except BaseException:
            problems = self._put_back(relative, aside, self._identities.get(relative))[1]
            if problems:
                raise Refused(" ".join(problems)) from None
            raise
        return left_out

    def open_copy(self, relative: str) -> bool:
        """``relative`` is open and has a working copy (the student has the directory)."""
        with self._lock:
            return relative in self._open and self._open[relative].copied

    def another_copy(self, relative: str, name: str, empty: Collection[str] = ()) -> tuple[Path, list[str]]:
        """Namespace mode: one more working copy of LAB_ROOT/relative, under the working
        copies' directory (``name``/relative), for a namespace of its own (see ``mounts``)."""
        if not self.namespaces:
            raise ValueError("another working copy needs namespaces")
        live = self.work_dir / "lanes" / name / relative
        live.mkdir(parents=True)
        return live, working_copy(self.lab_root / relative, live, empty, exists=True)

    def mounts(self, lanes: Mapping[str, Path] | None = None) -> tuple[list[Mount], list[tuple[Path, Path]]]:
        """Namespace mode: what the scripts see at each graded directory (the working copy's
        directory, made now and filled by ``open``), and how paths below a working copy read
        for them. A student's directory that is a link is mounted over where it leads (bwrap
        would resolve an absolute link against its own new root), so the link shows the copy.
        One that does not exist is not mounted over (that would create it). ``lanes``: another
        working copy (``another_copy``) to show instead of a directory's own."""
        moved = self.scripts_root != self.lab_root
        mounts = [Mount(self.scripts_root, None)] if moved else []
        views: list[tuple[Path, Path]] = []
        for relative in self.protected:
            live, view = (lanes or {}).get(relative, self.live(relative)), self.scripts_root / relative
            if moved:
                where = view
            elif (self.lab_root / relative).is_dir():
                where = Path(os.path.realpath(self.lab_root / relative))
            else:
                continue
            live.mkdir(parents=True, exist_ok=True)
            mounts.append(Mount(where, live, writable=True))
            views.append((live, view))
        return mounts, views

    def close(self) -> tuple[list[str], list[str]]:
        """Host mode: every working copy removed, every original back. (notes, problems): a
        problem is a student's directory not back where it was."""
        notes: list[str] = []
        problems: list[str] = []
        with self._lock:
            opened = [w for w in self._open.values() if w.copied and not self.namespaces]
            self._open.clear()
        for workspace in opened:
            said, failed = self._put_back(
                workspace.relative,
                _Aside.of(self.lab_root / workspace.relative),
                self._identities.get(workspace.relative),
            )
            notes += said
            problems += failed
        return notes, problems

    # put back, now or after a crash --------------------------------------------------------
    def recover(self) -> list[str]:
        """Put back what an interrupted host-mode run left (whatever this run's mode); raises
        Refused when a student's directory cannot be put back."""
        notes: list[str] = []
        recorded = self.journal.read()
        for relative in self.protected:
            aside = _Aside.of(self.lab_root / relative)
            if not os.path.lexists(aside.saved):
                if os.path.lexists(aside.building):
                    notes += self._set_apart(aside.building, recorded.get(relative))
                continue
            said, problems = self._put_back(relative, aside, recorded.get(relative))
            if problems:
                raise Refused(" ".join(problems))
            notes += [*said, f"restored {shown(aside.original)} (중단된 채점이 옮겨 둔 원본을 되돌림)"]
        self.journal.write({})
        return notes

    def _put_back(
        self, relative: str, aside: _Aside, identity: Identity | None
    ) -> tuple[list[str], list[str]]:
        notes: list[str] = []
        if not os.path.lexists(aside.saved):
            return notes, []
        still_there = (
            f"원본은 {shown(aside.saved)} 에 그대로 있고, 다음 채점이 먼저 다시 되돌립니다"
            " (그 전에 직접 옮겨도 됩니다)."
        )
        for path in (aside.building, aside.original):
            if os.path.lexists(path):
                try:
                    notes += self._set_apart(path, identity)
                except OSError as exc:
                    why = f"{shown(path)} 의 채점용 작업 사본을 치우지 못했습니다({exc.strerror})."
                    return notes, [f"{why} {still_there}"]
        try:
            os.rename(aside.saved, aside.original)
        except OSError as exc:
            return notes, [
                f"{shown(aside.original)} 을(를) 되돌리지 못했습니다({exc.strerror}). {still_there}"
            ]
        self._identities.pop(relative, None)
        with contextlib.suppress(OSError):
            self.journal.write(self._identities)
        return notes, []

    def _set_apart(self, path: Path, identity: Identity | None) -> list[str]:
        """Remove the grader's working copy at ``path``; keep anything else (or what cannot be
        removed) under a .lab-grader-kept.* name, and say so."""
        if identity is not None and _identity(path) == identity:
            left = remove_tree(path)
            if not left:
                return []
            why = f"채점용 작업 사본을 다 지우지 못함: {'; '.join(left[:3])}"
        else:
            why = "채점기가 만든 작업 사본인지 확인할 수 없어 지우지 않음"
        kept = path.parent / f"{KEPT}{path.name.removeprefix(BUILDING)}.{time.strftime('%Y%m%d-%H%M%S')}"
        n = 0
        while os.path.lexists(kept):
            n += 1
            kept = kept.with_name(f"{kept.name.split('~')[0]}~{n}")
        os.rename(path, kept)
        return [f"{shown(path)} 에 있던 것을 {shown(kept)} 에 남겨 두었습니다({why})"]


def _can_put_aside(aside: _Aside) -> None:
    original, where = aside.original, shown(aside.original)
    if os.path.lexists(aside.saved):
        raise Refused(
            f"이전 채점이 옮겨 둔 원본이 {shown(aside.saved)} 에 남아 있습니다: 그것을 {where} 로"
            " 되돌린 뒤 다시 채점하세요. 채점기는 아무것도 바꾸지 않았습니다."
        )
    try:
        st = os.lstat(original)
        parent = os.stat(original.parent)
        read_only = os.statvfs(original.parent).f_flag & os.ST_RDONLY
    except FileNotFoundError:
        return
    locked = FS_IMMUTABLE_FL | FS_APPEND_FL
    if stat.S_ISDIR(st.st_mode) and st.st_dev != parent.st_dev:
        why = f"{where} 이(가) 마운트 지점이라"
    elif read_only:
        why = f"{where} 이(가) 읽기 전용 파일 시스템에 있어"
    elif flags(original.parent) & locked:
        why = f"{shown(original.parent)} 에 chattr +i 또는 +a 가 걸려 있어(chattr -i -a 로 풀 수 있음)"
    elif stat.S_ISDIR(st.st_mode) and flags(original) & locked:
        why = f"{where} 에 chattr +i 또는 +a 가 걸려 있어(chattr -i -a 로 풀 수 있음)"
    else:
        return
    raise Refused(
        f"{why} 채점 중에 {where} 을(를) 잠시 옮겨 두었다가 되돌릴 수 없습니다. 채점기는 아무것도"
        " 바꾸지 않았습니다(이 기계에는 네임스페이스가 없어 원본을 옮겨 두고 채점합니다)."
    )
