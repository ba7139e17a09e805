"""The identity student scripts run under: a uid and gid of their own that own nothing on the
machine but what the grader hands over (the working copies, the scratch directories).

Each grading run claims one identity for all its scripts, from a range no account uses
(``FIRST`` .. ``FIRST + COUNT``). A claim is a lock (flock) on the identity's file in
/run/lab-grader/identities, a folder of root's alone: machine-wide, out of every script's reach,
released by the kernel when the grader ends however it ends. A process of an identity nobody
claims is a leftover of a grader that died: claiming the identity kills it first.

Scripts hold no capability over the machine under this identity: in a box (namespace mode) they
are root in a user namespace of their own mapped onto it (reaper.py), on the host they run as
it. ``kill_all`` ends every process of the identity, a fork chain included: one kill(-1,
SIGKILL) sent with the identity's own credentials reaches each of them at once (a fork under
way when it lands fails), wherever they are.

In host mode a run lends its identity search through folders like /root by ACL entries
(traverse.py). Each one is written down beside the identity's claim (``UID.grants``) before it
is made, as well as in the lab root's journal: a grader killed before it took them back leaves
them on folders no later run of that lab root may ever visit, so whichever grader next claims
or sweeps the identity takes them back (red team 14).
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import grp
import json
import os
import pwd
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fixtures.atomic import write_atomic
from grader.machinery import machinelocks, traverse
from grader.machinery.treecopy import remove_tree
from grader.machinery.walk import walk

FIRST = 61400  # below nobody (65534), inside the range a container's uid map usually holds
COUNT = 256
CLAIMS = machinelocks.ROOT / "identities"  # one lock file per identity: root's alone
GRANTS = ".grants"  # CLAIMS/UID.grants: the ACL entries lent to UID not yet taken back
KILL_ROUNDS = 50
# How deep below / the folders every user may write to are looked for (/tmp, /var/tmp, /dev/shm,
# /run/lock, /dev/mqueue, /var/lib/php/sessions ...): what an identity left there (host mode) is
# removed when its processes are gone, so the next run given that identity finds nothing.
SHARED_DEPTH = 4
SYSV_IPC = {"shm": "shmid", "msg": "msqid", "sem": "semid"}  # /proc/sysvipc/NAME: its id column
IPC_RMID = 0
# Run under the identity itself: signal every process it may (its own), until none is left to
# signal. A zombie can be signalled again and again, so the rounds are counted by the caller.
_KILLER = "import os,signal\ntry:\n    os.kill(-1, signal.SIGKILL)\nexcept ProcessLookupError:\n    pass\n"


class NoIdentity(RuntimeError):
    """Every identity of the range is claimed (or in use by an account): a harness fault."""


def _unused(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        try:
            grp.getgrgid(uid)
        except KeyError:
            return True
    return False


@functools.cache
def shared_folders(top: Path = Path("/"), depth: int = SHARED_DEPTH) -> list[Path]:
    """The folders every user may write to, down to ``depth`` below ``top``, through folders
    every user may enter (/proc and /sys passed by); looked for once a process (0.1 s). A
    folder an identity makes world-writable later is its own, in one of these: removed whole."""
    found = []
    for entry in walk(top, depth, prune=("proc", "sys"), enter=lambda e: bool(e.st.st_mode & stat.S_IXOTH)):
        if entry.is_dir() and entry.st.st_mode & stat.S_IWOTH and entry.st.st_mode & stat.S_IXOTH:
            found.append(top / entry.path)
    return found


def _remove_sysv_ipc(uid: int) -> list[str]:
    """Remove the System V IPC objects ``uid`` owns or made (shared memory, message queues,
    semaphore sets); what could not be removed."""
    libc = ctypes.CDLL(None, use_errno=True)
    remove: dict[str, Callable[[int], int]] = {
        "shm": lambda ident: int(libc.shmctl(ident, IPC_RMID, None)),
        "msg": lambda ident: int(libc.msgctl(ident, IPC_RMID, None)),
        "sem": lambda ident: int(libc.semctl(ident, 0, IPC_RMID)),
    }
    problems = []
    for kind, id_column in SYSV_IPC.items():
        try:
            header, *rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except (OSError, ValueError):
            continue
        names = header.split()
        for row in rows:
            fields = dict(zip(names, row.split(), strict=False))
            if str(uid) in (fields.get("uid"), fields.get("cuid")) and remove[kind](int(fields[id_column])):
                problems.append(f"System V {kind} {fields[id_column]}: {os.strerror(ctypes.get_errno())}")
    return problems


def _remove_posix_mqueues(uid: int) -> list[str]:
    """Remove the POSIX message queues ``uid`` made. Where no mqueue filesystem is mounted (at
    /dev/mqueue they are among the shared folders) one is, over an existing folder, in a mount
    namespace of its own that ends with the command (nothing is written on the machine);
    where that cannot be done, nothing is said."""
    if os.path.ismount("/dev/mqueue"):
        return []
    where = next((p for p in ("/dev/mqueue", "/mnt", "/tmp") if os.path.isdir(p)), None)
    if where is None:
        return []
    remove = 'mount -t mqueue none "$1" && find "$1" -maxdepth 1 -type f -uid "$2" -delete'
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            ["unshare", "--mount", "--propagation", "private", "sh", "-c", remove, "sh", where, str(uid)],
            capture_output=True,
            timeout=30,
            check=False,
            env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"},
        )
    return []


def processes_of(uid: int) -> list[int]:
    """Live processes whose real, effective, saved or filesystem uid is ``uid``."""
    return [pid for pid, uids in _by_uid().items() if uid in uids]


def _by_uid() -> dict[int, set[int]]:
    """pid -> the uids of every live process."""
    found: dict[int, set[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        state = uids = None
        for line in status.splitlines():
            if line.startswith("State:"):
                state = line.split()[1]
            elif line.startswith("Uid:"):
                uids = line.split()[1:]
                break
        if uids and state not in ("Z", "X"):
            found[int(entry)] = {int(u) for u in uids}
    return found


def _claimed(uid: int) -> int | None:
    """A claim on ``uid`` (an open descriptor holding the lock on its file), or None when
    somebody holds it. A lock in a folder of root's alone, not a name scripts can reach: an
    abstract socket's name lives in the network namespace scripts share, so a script could
    bind every identity's name first and leave every grader after it without one."""
    try:
        claims = machinelocks.folder(CLAIMS.name)
    except machinelocks.NotPrivate as exc:
        raise NoIdentity(str(exc)) from exc
    fd = machinelocks.open_lock(claims / str(uid))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _granted(first: int, count: int) -> set[int]:
    """The identities of the range with ACL entries written down (see ``Identity.granted``)."""
    try:
        names = os.listdir(CLAIMS)
    except OSError:
        return set()
    uids = {name.removesuffix(GRANTS) for name in names if name.endswith(GRANTS)}
    return {int(u) for u in uids if u.isdigit() and first <= int(u) < first + count}


@contextlib.contextmanager
def unclaimed(uid: int) -> Iterator[bool]:
    """Whether nobody holds ``uid``'s claim; while the block runs nobody can take it."""
    claim = _claimed(uid)
    try:
        yield claim is not None
    finally:
        if claim is not None:
            os.close(claim)


@dataclass
class Identity:
    uid: int
    gid: int
    _claim: int | None = field(default=None, repr=False)

    @classmethod
    def claim(cls, first: int = FIRST, count: int = COUNT) -> Identity:
        """The first identity of the range nobody holds (``sweep`` first: a claim's last
        holder may have died leaving processes)."""
        for uid in range(first, first + count):
            if _unused(uid) and (claim := _claimed(uid)) is not None:
                found = cls(uid, uid, claim)
                found.take_back_grants()
                return found
        raise NoIdentity(f"no free script identity in uids {first}..{first + count - 1}")

    @classmethod
    def sweep(cls, first: int = FIRST, count: int = COUNT) -> list[int]:
        """Kill the processes of every identity of the range that nobody holds (what graders
        that died left running) and take back the ACL entries lent to it; the pids killed."""
        swept: list[int] = []
        running = {u for uids in _by_uid().values() for u in uids if first <= u < first + count}
        for uid in sorted(running | _granted(first, count)):
            if _unused(uid) and (claim := _claimed(uid)) is not None:
                orphaned = cls(uid, uid, claim)
                if uid in running:
                    swept += processes_of(uid)
                    orphaned.kill_all()
                    orphaned.remove_leftovers()
                orphaned.take_back_grants()
                orphaned.release()
        return swept

    # the ACL entries lent to the identity (host mode) ------------------------------------------
    def _grants_file(self) -> Path:
        return machinelocks.folder(CLAIMS.name) / f"{self.uid}{GRANTS}"

    def granted(self, grants: Sequence[traverse.Grant]) -> None:
        """Write down the ACL entries lent to this identity and not yet taken back (each one
        before it is made); called by their holder on every change."""
        mine = [g.to_json() for g in grants if g.uid == self.uid]
        if mine:
            write_atomic(self._grants_file(), json.dumps(mine).encode(), mode=0o600)
        else:
            self._grants_file().unlink(missing_ok=True)

    def take_back_grants(self) -> None:
        """Take back what an earlier holder of this identity lent it and did not (a grader
        killed mid-run); only while holding the claim. A folder no longer the one recorded
        is left alone (traverse.revoke)."""
        path = self._grants_file()
        try:
            data = json.loads(path.read_bytes()[: 1 << 20])
        except (OSError, ValueError):
            data = []
        for grant in map(traverse.Grant.from_json, data if isinstance(data, list) else []):
            if grant is not None and grant.uid == self.uid:
                with contextlib.suppress(OSError):
                    traverse.revoke(grant)
        path.unlink(missing_ok=True)

    def remove_leftovers(self, folders: Iterable[Path] | None = None) -> list[str]:
        """Remove what this identity owns at the top of ``folders`` (default: every folder any
        user may write to, see ``shared_folders``: files, folders with all they hold, links,
        FIFOs, POSIX message queues) and its System V shared memory, message queues and
        semaphores; call once its processes are gone. What could not be removed, for a note."""
        problems = _remove_sysv_ipc(self.uid) + _remove_posix_mqueues(self.uid)
        for folder in shared_folders() if folders is None else folders:
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                try:
                    owner = entry.stat(follow_symlinks=False).st_uid
                except OSError:
                    continue
                if owner == self.uid:
                    problems += remove_tree(Path(entry.path))
        return problems

    def release(self) -> None:
        if self._claim is not None:
            os.close(self._claim)
            self._claim = None

    def kill_all(self, rounds: int = KILL_ROUNDS) -> list[int]:
        """Kill every process of this identity; returns those still alive after ``rounds``
        (a process the kernel cannot kill: stuck in an uninterruptible wait)."""
        left = processes_of(self.uid)
        for _ in range(rounds):
            if not left:
                return []
            subprocess.run(
                [sys.executable, "-I", "-S", "-c", _KILLER],
                user=self.uid,
                group=self.gid,
                extra_groups=[],
                env={},
                cwd="/",
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=30,
                check=False,
            )
            time.sleep(0.01)
            left = processes_of(self.uid)
        return left

    # what the scripts may write --------------------------------------------------------------
    def hand_over(self, path: Path) -> None:
        """``path`` and everything below it (links not followed, any depth and path length) now
        belong to the identity."""
        os.lchown(path, self.uid, self.gid)
        if not path.is_dir() or path.is_symlink():
            return
        flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
        stack = [os.open(path, flags)]
        try:
            while stack:
                fd = stack.pop()
                try:
                    for entry in os.scandir(fd):
                        os.chown(entry.name, self.uid, self.gid, dir_fd=fd, follow_symlinks=False)
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(os.open(entry.name, flags, dir_fd=fd))
                finally:
                    os.close(fd)
        finally:
            for fd in stack:
                os.close(fd)

    @contextlib.contextmanager
    def handed(self, path: Path) -> Iterator[Path]:
        """Make ``path`` (a new directory) and hand it over once the caller has filled it."""
        path.mkdir(parents=True, exist_ok=True)
        yield path
        self.hand_over(path)
