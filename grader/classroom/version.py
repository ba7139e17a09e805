"""What grader produced a verdict: the package version plus a hash of the code that judges.

A batch re-run regrades a submission when this changes, so the hash covers everything that can
change a verdict: the grader, the fixtures, the root conftest and pyproject.toml.
"""

from __future__ import annotations

import functools
import hashlib
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DISTRIBUTION = "eai-lab-grader"
JUDGING = ("grader", "fixtures")


def package_version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


@functools.cache
def code_hash() -> str:
    digest = hashlib.sha256()
    files = [REPO / "conftest.py", REPO / "pyproject.toml"]
    for top in JUDGING:
        files += sorted(p for p in (REPO / top).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        if path.is_file():
            digest.update(f"{path.relative_to(REPO)}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def tool_version() -> str:
    """``eai-lab-grader 0.1.0+<12 hex of the code>``: in manifests and batch job records."""
    return f"{DISTRIBUTION} {package_version()}+{code_hash()[:12]}"
