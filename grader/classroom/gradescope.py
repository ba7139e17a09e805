"""What leaves the checkout: the Gradescope autograder bundle and the students' build.

    python -m grader gradescope -o autograder.zip
        setup.sh, run_autograder     at the zip's root (Gradescope's specification)
        conftest.py, pyproject.toml, README.md, grader/, fixtures/
                                     this grader, installed by setup.sh from /autograder/source
    python -m grader dist -o DIR
        conftest.py, pyproject.toml, README.md, grader/, fixtures/
                                     the grader directory a lab pod gets (`pytest grader
                                     --lab-root /root` in it)

Neither holds the reference solutions (solutions/) nor the self-tests: what a student's script
could read must not help it cheat. Grading the reference is a checkout's job.
"""

from __future__ import annotations

import stat
import zipfile
from collections.abc import Iterator
from pathlib import Path

from grader.classroom.version import REPO

SCRIPTS = REPO / "templates" / "gradescope"
ENTRY_POINTS = ("setup.sh", "run_autograder")
SOURCE_FILES = ("conftest.py", "pyproject.toml", "README.md")
SOURCE_TREES = ("grader", "fixtures")  # never solutions/: the reference stays in the checkout
FIXED_TIME = (2020, 1, 1, 0, 0, 0)  # the same bytes for the same source


def _source(entry_points: bool = True) -> Iterator[tuple[str, Path]]:
    if entry_points:
        for name in ENTRY_POINTS:
            yield name, SCRIPTS / name
    for name in SOURCE_FILES:
        yield name, REPO / name
    for tree in SOURCE_TREES:
        for path in sorted((REPO / tree).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                yield path.relative_to(REPO).as_posix(), path


def build_bundle(out: Path) -> list[str]:
    """Write the zip; returns its member names."""
    names = []
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        for name, path in _source():
            info = zipfile.ZipInfo(name, FIXED_TIME)
            mode = stat.S_IMODE(path.stat().st_mode)
            if name in ENTRY_POINTS:
                mode |= 0o755
            info.external_attr = (stat.S_IFREG | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, path.read_bytes())
            names.append(name)
    return names


def build_dist(out: Path) -> list[str]:
    """The students' grader directory at ``out`` (new or empty); returns what it holds."""
    out.mkdir(parents=True, exist_ok=True)
    if any(out.iterdir()):
        raise FileExistsError(f"{out} is not empty")
    names = []
    for name, path in _source(entry_points=False):
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
        target.chmod(stat.S_IMODE(path.stat().st_mode))
        names.append(name)
    return names


def unpack_bundle(bundle: Path, source: Path) -> None:
    """Unzip like Gradescope does into /autograder/source, keeping the executable bits (the
    self-test and anyone trying the bundle locally use this)."""
    with zipfile.ZipFile(bundle) as zf:
        for info in zf.infolist():
            target = source / info.filename
            if not target.resolve().is_relative_to(source.resolve()):
                raise ValueError(f"{info.filename}: outside the bundle")
            zf.extract(info, source)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                target.chmod(mode)
