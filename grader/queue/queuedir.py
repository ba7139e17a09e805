"""The queue directory: listing it, fingerprinting it, resetting it for a behaviour check."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from grader.queue import ledger

DIRS = ("inbox", "processing", "done", "error")
Listing = dict[str, frozenset[str]]


def listing(q: Path) -> Listing:
    """Names of the regular files in each queue directory (in processing/, also those in a
    consumer's own subfolder: a file left there is still stuck in processing)."""

    def names(d: str) -> frozenset[str]:
        base = q / d
        if not base.is_dir():
            return frozenset()
        found = base.rglob("*") if d == "processing" else base.iterdir()
        return frozenset(p.name for p in found if p.is_file())

    return {d: names(d) for d in DIRS}


def fingerprint(q: Path) -> dict[str, str]:
    """Every path under the four directories with a hash of its bytes ('dir' for a directory)."""
    out: dict[str, str] = {}
    for d in DIRS:
        base = q / d
        if not base.exists():
            continue
        for path in sorted(base.rglob("*")):
            rel = str(path.relative_to(q))
            out[rel] = "dir" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def reset(q: Path) -> None:
    """Empty the four directories and the processed table; the student's scripts stay."""
    for d in DIRS:
        path = q / d
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        path.mkdir(parents=True)
    ledger.clear_processed(q / "ledger.db")


def counts_text(found: Listing) -> str:
    return ", ".join(f"{d} {len(found[d])}" for d in DIRS)
