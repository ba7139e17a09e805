"""Student-mode safety: save a directory before checks change it, restore it byte for byte.

A snapshot is journalled on disk before anything is changed, so a run killed by Ctrl-C or
SIGKILL is restored by the next run before it does anything else.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from fixtures.atomic import write_atomic

META = "snapshot.json"


def tree_digest(root: Path) -> str:
    """A hash of everything under ``root``: paths, types, modes, bytes, symlink targets."""
    digest = hashlib.sha256()
    if not root.exists():
        return "absent"
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = Path(dirpath, name)
            st = path.lstat()
            digest.update(f"{path.relative_to(root)}\0{st.st_mode:o}\0".encode())
            if path.is_symlink():
                digest.update(os.readlink(path).encode())
            elif path.is_file():
                digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class Snapshot:
    """The saved copy of ``target``, kept in ``store`` until restored."""

    target: Path
    store: Path

    @property
    def saved(self) -> Path:
        """The pristine copy: state checks read the student's work from here."""
        return self.store / "saved"

    @classmethod
    def save(cls, target: Path, store: Path) -> Snapshot:
        if store.exists():
            shutil.rmtree(store)
        store.mkdir(parents=True)
        present = target.exists()
        if present:
            shutil.copytree(target, store / "saving", symlinks=True)
            os.rename(store / "saving", store / "saved")
        # The journal entry is written last: only a complete copy is ever restored.
        meta = {"target": str(target), "present": present}
        write_atomic(store / META, json.dumps(meta).encode())
        return cls(target, store)

    def restore(self) -> None:
        """Put the target back exactly as saved and drop the snapshot. Safe to repeat."""
        meta = json.loads((self.store / META).read_text())
        if self.target.exists() or self.target.is_symlink():
            if self.target.is_dir() and not self.target.is_symlink():
                shutil.rmtree(self.target)
            else:
                self.target.unlink()
        if meta["present"]:
            shutil.copytree(self.saved, self.target, symlinks=True)
        shutil.rmtree(self.store)


def recover(stores: Path) -> list[Path]:
    """Restore every complete snapshot an interrupted run left under ``stores``."""
    restored: list[Path] = []
    if not stores.is_dir():
        return restored
    for store in sorted(stores.iterdir()):
        meta = store / META
        if meta.exists():
            snapshot = Snapshot(Path(json.loads(meta.read_text())["target"]), store)
            snapshot.restore()
            restored.append(snapshot.target)
        else:  # interrupted while saving: the target was not touched yet
            shutil.rmtree(store)
    return restored
