"""The student's directories during a grade: where the scripts run, and where checks read.

Each graded directory (LAB_ROOT/q, LAB_ROOT/eaimw/mq) gets a working copy (treecopy.py) for
the student's scripts to run in and the grader to write its inputs into (``live``), owned by
the run's script identity, while state checks read the student's directory exactly as found
(``saved``):

- namespace mode: the working copy lives in the grader's scratch and is shown to the scripts
  in their box, in place of the student's directory, inside an otherwise empty lab root. The
  student's directory is never touched; ``saved`` is the directory itself.
- host mode (no namespaces): the student's directory is renamed aside within its own parent
  (``.lab-grader-saved.<name>``: same filesystem, O(1), every inode kept), the working copy is
  put in its place, and at the end it is removed and the original renamed back. Before any of
  that the grader checks the renames can be undone (no mount point, no chattr +i/+a, not
  read-only) and refuses otherwise, changing nothing. The directories the script identity must
  pass through are opened to it for search only (traverse.py) and closed again.

Every step of host mode is written to the journal (the state dir, the grader's alone) before it
is taken: the identities (device, inode) of the saved original and of the working copy, a
random token the grader also writes on its working copy (a trusted extended attribute, which
no script can set), and each directory opened. A run killed half-way is put right by the next
one (``recover``), which acts only on what the journal recorded and finds on disk as recorded;
anything else under the grader's names is refused loudly and left as it is.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import secrets
import stat
import threading
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from fixtures.atomic import write_atomic
from grader.machinery import identity, traverse
from grader.machinery.sandbox import Mount
from grader.machinery.treecopy import (
    AS_IT_IS,
    FS_APPEND_FL,
    FS_IMMUTABLE_FL,
    CopyPlan,
    flags,
    remove_tree,
    shown,
    working_copy,
)

SAVED, BUILDING = ".lab-grader-saved.", ".lab-grader-work."
TOKEN_XATTR = "trusted.lab-grader"
DEFAULT_ACL = "system.posix_acl_default"
Identity = tuple[int, int]  # (st_dev, st_ino)


class Refused(RuntimeError):
    """Grading would change what it could not put back (or an earlier run's could not be put
    back): nothing was changed. The message, in Korean, names the entry and what to do."""


class Owner(Protocol):
    uid: int
    gid: int

    def hand_over(self, path: Path) -> None: ...

    def granted(self, grants: Sequence[traverse.Grant]) -> None: ...


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


def _entry(path: Path) -> Identity | None:
    """(st_dev, st_ino) of whatever ``path`` is (a student's q/ may be a link to elsewhere)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _token_of(path: Path) -> str | None:
    try:
        return os.getxattr(path, TOKEN_XATTR, follow_symlinks=False).decode("ascii", "replace")
    except OSError:
        return None


@dataclass
class Record:
    """What the journal holds: the run's token, each working copy put in place, each grant."""

    token: str = ""
    # relative -> "saved" and "copy" (identities), "parent_times" (atime and mtime in ns of the
    # folder holding it, as found: the renames change them, the last one puts them back)
    copies: dict[str, dict[str, Identity]] = field(default_factory=dict)
    grants: list[traverse.Grant] = field(default_factory=list)

    def empty(self) -> bool:
        return not self.copies and not self.grants


class Journal:
    """The grader's record of what it changed in host mode (see the module's docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> Record:
        """What was recorded; anything unreadable or malformed counts as nothing recorded."""
        try:
            data = json.loads(self.path.read_bytes()[: 1 << 20])
        except (OSError, ValueError):
            return Record()
        if not isinstance(data, dict):
            return Record()
        copies: dict[str, dict[str, Identity]] = {}
        for relative, entry in (data.get("copies") or {}).items():
            if isinstance(entry, dict):
                ids = {k: _pair(v) for k, v in entry.items() if k in ("saved", "copy", "parent_times")}
                copies[str(relative)] = {k: v for k, v in ids.items() if v is not None}
        grants = [g for g in map(traverse.Grant.from_json, data.get("grants") or []) if g is not None]
        return Record(str(data.get("token") or ""), copies, grants)

    def write(self, record: Record) -> None:
        if record.empty():
            self.path.unlink(missing_ok=True)
            return
        data: dict[str, Any] = {
            "token": record.token,
            "copies": {k: {n: list(v) for n, v in e.items()} for k, e in record.copies.items()},
            "grants": [g.to_json() for g in record.grants],
        }
        write_atomic(self.path, json.dumps(data).encode(), mode=0o600)


def _pair(value: object) -> Identity | None:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(n, int) for n in value):
        return (value[0], value[1])
    return None


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
        owner: Owner | None = None,
    ) -> None:
        self.lab_root = lab_root
        self.scripts_root = scripts_root
        self.namespaces = namespaces
        self.work_dir = work_dir
        self.journal = journal
        self.protected = tuple(protected)
        self.owner = owner
        self._open: dict[str, Workspace] = {}
        self._record = Record(token=secrets.token_hex(16))
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

    def let_through(self, paths: Iterable[Path]) -> None:
        """Open every directory on the way to ``paths`` that would stop the script identity,
        for search only (journaled first; closed again at the end): in host mode the scripts
        walk these paths, in both modes the grader does when it acts as them (acting.py)."""
        if self.owner is None:
            return
        for path in paths:
            for directory in traverse.blocking(path, self.owner.uid, self.owner.gid):
                self._grant(
                    directory,
                    traverse.SEARCH,
                    "스크립트를 권한 없는 사용자로 돌리는데, 그 사용자가"
                    f" {shown(directory)} 을(를) 지나갈 수 없고 ACL 로 열어 줄 수도 없습니다({{why}})."
                    " 네임스페이스가 되는 기계에서 채점하거나, 채점기를 모두가 읽을 수 있는 곳에 두세요.",
                )

    def keep_out(self, paths: Iterable[Path]) -> None:
        """Host mode: the script identity may not enter ``paths`` (the grader's code and the
        reference solutions, which every user could read otherwise), journaled like a grant."""
        if self.namespaces or self.owner is None:
            return
        for path in paths:
            if not path.is_dir() or path.is_symlink():
                continue
            self._grant(
                path,
                0,
                f"스크립트가 채점기의 코드와 참조 답안({shown(path)})을 읽지 못하게 막을 수 없습니다"
                "({why}). 네임스페이스가 되는 기계에서 채점하세요.",
                again=True,
            )

    def _hold_in_place(self, saved: Path) -> None:
        """Host mode: the script identity may not rename anything in the directories above the
        saved original (a lab root or eaimw/ of mode 777, say): it could move the original
        away and put something else in its place. It keeps what else it may do there."""
        if self.namespaces or self.owner is None:
            return
        uid, gid = self.owner.uid, self.owner.gid
        for directory in traverse.renaming(saved, uid, gid):
            self._grant(
                directory,
                traverse.allowed(directory, uid, gid) & ~traverse.WRITE,
                f"모두가 쓸 수 있는 {shown(directory)} 에서 스크립트가 원본을 옮기지 못하게 막을 수"
                " 없습니다({why}). 그 디렉터리의 쓰기 권한을 거두거나(chmod o-w) 네임스페이스가 되는"
                " 기계에서 채점하세요.",
            )

    def _grant(self, directory: Path, perm: int, refused: str, again: bool = False) -> None:
        """Give the script identity ``perm`` on ``directory`` by an ACL entry, journaled first
        (closed again at the end, or by the next run); once a directory (``again``: even when
        an earlier grant was made). ``refused``: the message when it cannot be, with {why}."""
        assert self.owner is not None
        with self._lock:
            if not again and any(g.path == str(directory) for g in self._record.grants):
                return
            st = os.stat(directory)
            pending = traverse.Grant(str(directory), st.st_dev, st.st_ino, self.owner.uid, 0, None)
            self._record.grants.append(pending)  # recorded before it is made
            self._write_grants()
            try:
                made = traverse.grant(directory, self.owner.uid, perm)
            except traverse.CannotGrant as exc:
                self._record.grants.remove(pending)
                self._write_grants()
                raise Refused(refused.replace("{why}", exc.strerror or str(exc))) from exc
            self._record.grants[self._record.grants.index(pending)] = made
            self._write_grants()

    def _write_grants(self) -> None:
        """The run's grants, in the lab root's journal and beside the identity's claim (which
        the next grader to claim or sweep that identity reads, whatever lab root it grades)."""
        assert self.owner is not None
        self.journal.write(self._record)
        self.owner.granted(self._record.grants)

    def open(self, relative: str, plan: CopyPlan = AS_IT_IS) -> tuple[Workspace, list[str]]:
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
            live.mkdir(parents=True, exist_ok=True)
            if copied:
                left_out = working_copy(original, live, plan, exists=True)
            self._hand_over(live)
            workspace = Workspace(relative, live, original, view, copied)
        elif not os.path.lexists(original):
            workspace, left_out = Workspace(relative, live, original, view, False), []
        else:
            aside = _Aside.of(original)
            left_out = self._put_aside(relative, aside, plan)
            workspace = Workspace(relative, live, aside.saved, view, True)
            self.let_through([live])
        with self._lock:
            self._open[relative] = workspace
        return workspace, left_out

    def _hand_over(self, path: Path) -> None:
        if self.owner is not None:
            self.owner.hand_over(path)

    def _put_aside(self, relative: str, aside: _Aside, plan: CopyPlan) -> list[str]:
        _can_put_aside(aside)
        saved = _entry(aside.original)
        assert saved is not None
        parent = os.stat(aside.original.parent)
        with self._lock:
            self._record.copies[relative] = {
                "saved": saved,
                "parent_times": (parent.st_atime_ns, parent.st_mtime_ns),
            }
            self.journal.write(self._record)
        try:
            self._hold_in_place(aside.saved)
            os.rename(aside.original, aside.saved)
        except Refused:
            self._forget(relative)
            raise
        except OSError as exc:
            self._forget(relative)
            raise Refused(
                f"{shown(aside.original)} 을(를) 잠시 옮겨 둘 수 없습니다({exc.strerror})."
            ) from exc
        # The original aside is the student's, whatever its modes say (a tree of mode 777 is
        # writable by every user): the scripts' identity may not even enter it.
        try:
            self.keep_out([aside.saved])
        except Refused:
            with contextlib.suppress(OSError):
                os.rename(aside.saved, aside.original)
                self._forget(relative)
            raise
        try:
            aside.building.mkdir(mode=0o700)
            _without_inherited_acl(aside.building)
            copy = _identity(aside.building)
            assert copy is not None
            with contextlib.suppress(OSError):  # where the filesystem keeps no such attribute: inode alone
                os.setxattr(aside.building, TOKEN_XATTR, self._record.token.encode())
            with self._lock:
                self._record.copies[relative]["copy"] = copy
                self.journal.write(self._record)
            # Whatever else stands there (a file, a FIFO, a link to nothing or to a file) the
            # scripts meet an empty folder, as in a box; the checks read it as it is.
            is_folder = os.path.isdir(aside.saved)
            left_out = working_copy(aside.saved, aside.building, plan, exists=True) if is_folder else []
            self._hand_over(aside.building)
            os.rename(aside.building, aside.original)
        except BaseException:
            problems = self._put_back(relative, aside, self._record)
            if problems:
                raise Refused(" ".join(problems)) from None
            raise
        return left_out

    def _forget(self, relative: str) -> None:
        with self._lock:
            self._record.copies.pop(relative, None)
            self.journal.write(self._record)

    def open_copy(self, relative: str) -> bool:
        """``relative`` is open and has a working copy (the student has the directory)."""
        with self._lock:
            return relative in self._open and self._open[relative].copied

    def another_copy(self, relative: str, name: str, plan: CopyPlan = AS_IT_IS) -> tuple[Path, list[str]]:
        """Namespace mode: one more working copy of LAB_ROOT/relative, under the working
        copies' directory (``name``/relative), for a box of its own (see ``mounts``)."""
        if not self.namespaces:
            raise ValueError("another working copy needs namespaces")
        live = self.work_dir / "lanes" / name / relative
        live.mkdir(parents=True)
        left_out = working_copy(self.lab_root / relative, live, plan, exists=True)
        self._hand_over(live)
        return live, left_out

    def mounts(self, lanes: Mapping[str, Path] | None = None) -> tuple[list[Mount], list[tuple[Path, Path]]]:
        """Namespace mode: the lab root as the scripts see it, an empty directory holding each
        graded directory's working copy (``lanes``: another copy to show instead of a
        directory's own); and how paths below a working copy read for them."""
        mounts = [Mount(self.scripts_root, None)]
        views: list[tuple[Path, Path]] = []
        for relative in self.protected:
            live, view = (lanes or {}).get(relative, self.live(relative)), self.scripts_root / relative
            live.mkdir(parents=True, exist_ok=True)
            mounts.append(Mount(view, live, writable=True))
            views.append((live, view))
        return mounts, views

    def close(self) -> tuple[list[str], list[str]]:
        """Host mode: every working copy removed, every original back, every directory closed
        again. (notes, problems): a problem is a student's directory not back where it was."""
        problems: list[str] = []
        with self._lock:
            opened = [w for w in self._open.values() if w.copied and not self.namespaces]
            self._open.clear()
        for workspace in opened:
            problems += self._put_back(
                workspace.relative, _Aside.of(self.lab_root / workspace.relative), self._record
            )
        problems += self._revoke(self._record)
        if self.owner is not None:
            self.owner.granted(self._record.grants)
        return [], problems

    # put back, now or after a crash --------------------------------------------------------
    def recover(self) -> list[str]:
        """Put back what an interrupted host-mode run recorded in the journal (whatever this
        run's mode). Anything under the grader's names that the journal does not account for
        is refused (Refused), and nothing is changed."""
        record = self.journal.read()
        self._refuse_strangers(record)
        notes: list[str] = []
        for relative in list(record.copies):
            aside = _Aside.of(self.lab_root / relative)
            had = os.path.lexists(aside.saved)
            problems = self._put_back(relative, aside, record)
            if problems:
                raise Refused(" ".join(problems))
            if had:
                notes.append(f"restored {shown(aside.original)} (중단된 채점이 옮겨 둔 원본을 되돌림)")
        if problems := self._revoke(record, recovering=True):
            raise Refused(" ".join(problems))
        self.journal.write(record)
        return notes

    def _refuse_strangers(self, record: Record) -> None:
        """Every entry under the grader's names must be one the journal recorded, as recorded."""
        for relative in self.protected:
            aside = _Aside.of(self.lab_root / relative)
            ids = record.copies.get(relative, {})
            for path, kind in ((aside.saved, "saved"), (aside.building, "copy")):
                if not os.path.lexists(path):
                    continue
                if kind == "saved" and "saved" in ids and _entry(path) == ids["saved"]:
                    continue
                if kind == "copy" and self._is_copy(path, ids, record.token):
                    continue
                raise Refused(
                    f"{shown(path)} 은(는) 이 채점기의 기록에 없는 것입니다(이름만 채점기의 것을 씀)."
                    " 무엇인지 확인해 직접 옮기거나 지운 뒤 다시 채점하세요."
                    " 채점기는 아무것도 바꾸지 않았습니다."
                )
            original = aside.original
            both = os.path.lexists(aside.saved) and os.path.lexists(original)
            if "saved" in ids and both and not self._is_copy(original, ids, record.token):
                raise Refused(
                    f"{shown(aside.saved)} 에 중단된 채점이 옮겨 둔 원본이 있는데,"
                    f" {shown(original)} 에 있는 것이 채점기의 작업 사본이 아닙니다."
                    " 둘을 확인해 하나만 남긴 뒤 다시 채점하세요. 채점기는 아무것도 바꾸지 않았습니다."
                )

    @staticmethod
    def _is_copy(path: Path, ids: Mapping[str, Identity], token: str) -> bool:
        if "copy" not in ids or _identity(path) != ids["copy"]:
            return False
        found = _token_of(path)
        return found is None or found == token

    def _put_back(self, relative: str, aside: _Aside, record: Record) -> list[str]:
        ids = record.copies.get(relative, {})
        if not os.path.lexists(aside.saved):
            for path in (aside.building, aside.original):
                ours = os.path.lexists(path) and self._is_copy(path, ids, record.token)
                if ours and (left := remove_tree(path)):
                    return [
                        f"{shown(path)} 의 채점용 작업 사본을 다 지우지 못했습니다: {'; '.join(left[:3])}"
                    ]
            record.copies.pop(relative, None)
            self._write(record)
            return []
        still_there = (
            f"원본은 {shown(aside.saved)} 에 그대로 있고, 다음 채점이 먼저 다시 되돌립니다"
            " (그 전에 직접 옮겨도 됩니다)."
        )
        for path in (aside.building, aside.original):
            if not os.path.lexists(path):
                continue
            if not self._is_copy(path, ids, record.token):
                return [
                    f"{shown(path)} 에 채점기의 작업 사본이 아닌 것이 있어 되돌리지 않았습니다. {still_there}"
                ]
            if left := remove_tree(path):
                why = f"{shown(path)} 의 채점용 작업 사본을 다 지우지 못했습니다({'; '.join(left[:3])})."
                return [f"{why} {still_there}"]
        for kept_out in [g for g in record.grants if g.path == str(aside.saved)]:  # its ACL as it was
            if not traverse.revoke(kept_out):
                why = f"{shown(aside.saved)} 이(가) 기록된 디렉터리가 아니어서 ACL 을 되돌리지 않았습니다."
                return [f"{why} {still_there}"]
            record.grants.remove(kept_out)
            self._write(record)
        try:
            os.rename(aside.saved, aside.original)
        except OSError as exc:
            return [f"{shown(aside.original)} 을(를) 되돌리지 못했습니다({exc.strerror}). {still_there}"]
        if (times := ids.get("parent_times")) is not None:
            with contextlib.suppress(OSError):  # the folder's times as found, not the renames'
                os.utime(aside.original.parent, ns=times, follow_symlinks=False)
        record.copies.pop(relative, None)
        self._write(record)
        return []

    def _revoke(self, record: Record, recovering: bool = False) -> list[str]:
        """Take back ``record``'s grants. ``recovering`` (an interrupted run's record): an
        entry for an identity another grader holds now is left alone, dropped from the record:
        that grader took back what was lent to its identity before when it claimed it, and the
        entry there now may be its own (two graders' entries for one uid are one entry)."""
        problems = []
        for made in list(reversed(record.grants)):
            try:
                with identity.unclaimed(made.uid) if recovering else contextlib.nullcontext(True) as free:
                    done = traverse.revoke(made) if free else True
            except OSError as exc:
                problems.append(f"{shown(made.path)} 의 ACL 을 되돌리지 못했습니다({exc.strerror}).")
                continue
            if not done:
                problems.append(
                    f"{shown(made.path)} 이(가) 기록된 디렉터리가 아니어서 ACL 을 되돌리지 않았습니다."
                )
                continue
            record.grants.remove(made)
            self._write(record)
        return problems

    def _write(self, record: Record) -> None:
        with contextlib.suppress(OSError):
            self.journal.write(record)


def _without_inherited_acl(folder: Path) -> None:
    """``folder`` (just made) without the ACLs it took from a default ACL of its parent (a lab
    root with one, red team 19): its mode alone, 0700, and nothing for what is made in it to
    inherit. A default ACL of `user::r-x` left the identity no way to write its own copy."""
    for name in (traverse.XATTR, DEFAULT_ACL):
        with contextlib.suppress(OSError):  # none there, or a filesystem without ACLs
            os.removexattr(folder, name, follow_symlinks=False)
    os.chmod(folder, 0o700)


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
    except (FileNotFoundError, NotADirectoryError):  # not there (eaimw/ a file: no eaimw/mq)
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


__all__ = ["Journal", "Record", "Refused", "Workspace", "Workspaces", "errno"]
