"""A class graded on several machines: which submissions a shard grades, and what it records so
that ``python -m grader merge`` can join the shards (grader/classroom/merge.py).

A submission's shard follows from its student's name alone (a hash), so the same student lands
in the same shard whatever the order of the submissions given or who else is in the class.

    OUT/shard.json   written last by every batch (an unsharded one is shard 1/1): the shard,
                     the class it was given, its own students and each one's job key, the labs,
                     the grader (version and code hash), the fixtures and the sandbox.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fixtures.atomic import write_atomic

MANIFEST = "shard.json"
FORMAT = 1


@dataclass(frozen=True)
class Shard:
    k: int  # 1..n
    n: int

    def __str__(self) -> str:
        return f"{self.k}/{self.n}"

    def holds(self, name: str) -> bool:
        return shard_of(name, self.n) == self.k


WHOLE = Shard(1, 1)


def shard_of(name: str, n: int) -> int:
    """The shard (1..n) of a student: a hash of the name, nothing else."""
    digest = hashlib.sha256(os.fsencode(name)).digest()
    return int.from_bytes(digest[:8], "big") % n + 1


_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


def parse_shard(text: str) -> Shard:
    """``K/N`` with 1 ≤ K ≤ N (argparse type: a bad value is a usage error saying why)."""
    usage = "give K/N, two whole numbers with 1 <= K <= N (e.g. --shard 2/4: the second of four shards)"
    found = _SHARD.fullmatch(text)
    if found is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N: {usage}")
    k, n = int(found.group(1)), int(found.group(2))
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: N must be at least 1; {usage}")
    if not 1 <= k <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: K must be between 1 and N={n}; {usage}")
    return Shard(k, n)


class NotAShard(ValueError):
    """OUT holds no manifest this grader can read (not a finished batch output)."""


@dataclass(frozen=True)
class Manifest:
    """What one batch output holds and what graded it (OUT/shard.json)."""

    shard: Shard
    labs: tuple[str, ...]
    tool: str  # eai-lab-grader <version>+<12 hex of the code>
    code_hash: str
    fixtures: str  # tree digest of the fixture tree graded against
    sandbox: str  # the sandbox every grade used, and where the scripts saw their lab root
    scripts_root: str
    roster: tuple[str, ...]  # every student given to this batch, in the order given
    students: dict[str, str]  # this shard's students (roster order) -> their job key
    jobs: int
    regraded: int
    wall_seconds: float
    finished: str  # ISO 8601
    merged_from: tuple[str, ...] = field(default=())  # a merge's output: the shards it joined

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "shard": {"k": self.shard.k, "n": self.shard.n},
            "labs": list(self.labs),
            "tool": self.tool,
            "code_hash": self.code_hash,
            "fixtures": self.fixtures,
            "sandbox": self.sandbox,
            "scripts_root": self.scripts_root,
            "class": list(self.roster),
            "students": self.students,
            "jobs": self.jobs,
            "regraded": self.regraded,
            "wall_seconds": round(self.wall_seconds, 1),
            "finished": self.finished,
            **({"merged_from": list(self.merged_from)} if self.merged_from else {}),
        }

    def write(self, out: Path) -> None:
        write_atomic(
            out / MANIFEST, json.dumps(self.to_json(), ensure_ascii=False, indent=2).encode(), mode=0o600
        )


def forget(out: Path) -> None:
    """A batch about to change OUT: until it writes a new manifest, OUT is no finished output."""
    (out / MANIFEST).unlink(missing_ok=True)


def read_manifest(out: Path) -> Manifest:
    path = out / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotAShard(
            f"{out}: no {MANIFEST}: not the output of a finished `python -m grader batch` of this "
            "grader (a batch writes it last; an interrupted one leaves none)"
        ) from None
    except (OSError, ValueError) as exc:
        raise NotAShard(f"{path}: unreadable: {exc}") from None
    try:
        if data["format"] != FORMAT:
            raise NotAShard(f"{path}: format {data['format']!r}, this grader reads {FORMAT}")
        shard = Shard(int(data["shard"]["k"]), int(data["shard"]["n"]))
        if not 1 <= shard.k <= shard.n:
            raise NotAShard(f"{path}: shard {shard} is not K/N with 1 <= K <= N")
        return Manifest(
            shard=shard,
            labs=tuple(str(lab) for lab in data["labs"]),
            tool=str(data["tool"]),
            code_hash=str(data["code_hash"]),
            fixtures=str(data["fixtures"]),
            sandbox=str(data["sandbox"]),
            scripts_root=str(data["scripts_root"]),
            roster=tuple(str(name) for name in data["class"]),
            students={str(name): str(key) for name, key in data["students"].items()},
            jobs=int(data["jobs"]),
            regraded=int(data["regraded"]),
            wall_seconds=float(data["wall_seconds"]),
            finished=str(data["finished"]),
            merged_from=tuple(str(p) for p in data.get("merged_from", ())),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise NotAShard(f"{path}: not a shard manifest: {exc!r}") from None
