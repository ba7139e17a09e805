"""The grader's own state on disk: one locked directory per lab root, nothing else anywhere.

STATE_DIR/<lab-root key>/lock          flock held for the whole run
STATE_DIR/<lab-root key>/snapshots/    saved student directories (see snapshot.py)
STATE_DIR/<lab-root key>/processes     process groups started (killed after a crash)
STATE_DIR/<lab-root key>/run/          scratch space of this run, removed at the end
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from grader.machinery.runner import ProcessRegistry
from grader.machinery.snapshot import recover


class GraderBusy(RuntimeError):
    pass


Recovery = Callable[[Path], list[str]]  # scratch dir of an interrupted run -> what was undone


@dataclass
class RunDir:
    base: Path
    # What else an interrupted run may have left in its scratch tree (a RabbitMQ node, ...).
    recoveries: Sequence[Recovery] = ()
    _lock: IO[str] | None = field(default=None, repr=False)

    @classmethod
    def for_lab_root(
        cls, state_dir: Path, lab_root: Path | None, recoveries: Sequence[Recovery] = ()
    ) -> RunDir:
        """One directory per student lab root (two graders on one root exclude each other);
        a reference run, whose lab root is made inside the run, gets its own."""
        if lab_root is None:
            return cls(state_dir / f"reference-{os.getpid()}", recoveries)
        key = hashlib.sha256(str(lab_root.resolve()).encode()).hexdigest()[:16]
        return cls(state_dir / key, recoveries)

    @property
    def snapshots(self) -> Path:
        return self.base / "snapshots"

    @property
    def processes(self) -> Path:
        return self.base / "processes"

    @property
    def scratch(self) -> Path:
        return self.base / "run"

    def _try_lock(self) -> bool:
        if not self.base.parent.exists():  # ours: reachable by user rabbitmq whatever the umask
            self.base.parent.mkdir(parents=True)
            os.chmod(self.base.parent, 0o755)
        self.base.mkdir(exist_ok=True)
        os.chmod(self.base, 0o755)  # the broker runs as user rabbitmq below scratch/
        self._lock = (self.base / "lock").open("w")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lock.close()
            self._lock = None
            return False
        return True

    def _recover(self) -> list[str]:
        notes = []
        killed = ProcessRegistry.kill_journal(self.processes)
        if killed:
            notes.append(f"killed {killed} process group(s) left by an interrupted run")
        for recovery in self.recoveries:
            notes += recovery(self.scratch)
        notes += [f"restored {path} from an interrupted run" for path in recover(self.snapshots)]
        if self.scratch.exists():
            shutil.rmtree(self.scratch)
            notes.append(f"removed the scratch tree {self.scratch} of an interrupted run")
        return notes

    def open(self) -> list[str]:
        """Undo whatever interrupted runs left (theirs first), then lock our own directory.

        Returns what was recovered, for the report header.
        """
        notes: list[str] = []
        if self.base.parent.is_dir():
            for other in sorted(self.base.parent.iterdir()):
                left = RunDir(other, self.recoveries)
                if other != self.base and other.is_dir() and left._try_lock():
                    notes += left._recover()
                    left.close()
        if not self._try_lock():
            raise GraderBusy(f"another grader is running on this lab root (lock {self.base / 'lock'})")
        notes += self._recover()
        self.scratch.mkdir()
        os.chmod(self.scratch, 0o755)
        return notes

    def close(self) -> None:
        """Remove everything but the (empty) base; the lock goes with the file handle."""
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.processes.unlink(missing_ok=True)
        if self.snapshots.exists() and not any(self.snapshots.iterdir()):
            self.snapshots.rmdir()
        if self._lock is not None:
            (self.base / "lock").unlink(missing_ok=True)
            self._lock.close()
            self._lock = None
        try:
            self.base.rmdir()
            self.base.parent.rmdir()  # the state dir itself when no other lab root uses it
        except OSError:
            pass
