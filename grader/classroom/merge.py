"""Join the outputs of a class graded in shards into one, as if one batch had graded it all.

    python -m grader merge OUT... --out DIR

DIR gets every student's folder (copied from its shard), one grades.csv and one report.html
(students in the order the batches were given them) and a manifest of its own (shard 1/1,
``merged_from``). Nothing is written unless the outputs belong together: one grader (code
hash), the same labs, fixtures and sandbox, the same class given to every shard, and each of
the N shards exactly once, each holding exactly its own students, each student's folder the
one its batch recorded. Otherwise ``MergeRefused`` says every way they do not.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from grader.classroom import class_report
from grader.classroom.batch import Graded, local_time, write_outputs
from grader.classroom.results import ResultsUnreadable, expected_ids, read_results
from grader.classroom.shards import WHOLE, Manifest, NotAShard, forget, read_manifest, shard_of
from grader.machinery.treecopy import remove_tree


class MergeRefused(Exception):
    """The outputs given do not make one class: every reason, one per line."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(f"  - {p}" for p in problems))


@dataclass(frozen=True)
class Part:
    out: Path
    manifest: Manifest

    def __str__(self) -> str:
        return f"{self.out} [shard {self.manifest.shard}]"


def merge(outs: Sequence[Path], dest: Path) -> list[Graded]:
    """Check that ``outs`` belong together, then write the merged class into ``dest``."""
    parts = _read(outs, dest)
    _refuse_if(_disagreements(parts))
    _refuse_if(_coverage(parts))
    graded, problems = _students(parts)
    _refuse_if(problems)
    _write(parts, graded, dest)
    return graded


def _refuse_if(problems: list[str]) -> None:
    if problems:
        raise MergeRefused(problems)


def _read(outs: Sequence[Path], dest: Path) -> list[Part]:
    parts, problems = [], []
    target = dest.resolve()
    for out in outs:
        where = out.resolve()
        if where == target or where in target.parents or target in where.parents:
            problems.append(
                f"{out}: --out {dest} must lie apart from every shard output (not in it, not around it)"
            )
        try:
            parts.append(Part(out, read_manifest(out)))
        except NotAShard as exc:
            problems.append(str(exc))
    if not outs:
        problems.append("no shard output given")
    _refuse_if(problems)
    return sorted(parts, key=lambda p: p.manifest.shard.k)


def _differ(parts: list[Part], what: str, value: Callable[[Manifest], object]) -> list[str]:
    """One problem when the parts do not all have the same ``value``: which ones have which."""
    groups: dict[str, list[Part]] = {}
    for part in parts:
        groups.setdefault(str(value(part.manifest)), []).append(part)
    if len(groups) < 2:
        return []
    sides = "; ".join(f"{shown!r} in {', '.join(str(p) for p in group)}" for shown, group in groups.items())
    return [f"different {what}: {sides}"]


def _disagreements(parts: list[Part]) -> list[str]:
    problems = [
        *_differ(parts, "grader code (merge only what one grader graded)", lambda m: m.tool),
        *_differ(parts, "labs", lambda m: ",".join(m.labs)),
        *_differ(parts, "fixture trees", lambda m: m.fixtures),
        *_differ(parts, "sandboxes (where the scripts ran)", lambda m: f"{m.sandbox}, {m.scripts_root}"),
        *_differ(parts, "numbers of shards N", lambda m: m.shard.n),
    ]
    if not problems:  # the same tool string can hide a different hash only by a collision
        problems += _differ(parts, "grader code hashes", lambda m: m.code_hash)
    everyone = {name for part in parts for name in part.manifest.roster}
    lacking = [
        f"{part} lacks {_names(everyone - set(part.manifest.roster))}"
        for part in parts
        if everyone - set(part.manifest.roster)
    ]
    if lacking:
        problems.append(
            "the shards were given different classes (give every shard the same submissions): "
            + "; ".join(lacking)
        )
    return problems


def _coverage(parts: list[Part]) -> list[str]:
    """Each shard 1..N once; each holds exactly its own students; no student twice."""
    n = parts[0].manifest.shard.n
    roster = parts[0].manifest.roster
    problems = []
    by_k: dict[int, list[Part]] = {}
    for part in parts:
        by_k.setdefault(part.manifest.shard.k, []).append(part)
    for k in range(1, n + 1):
        theirs = [name for name in roster if shard_of(name, n) == k]
        if k not in by_k:
            who = (
                f"{_names(theirs)} would have no grade"
                if theirs
                else "none of this class's students is in it, but a merge wants every shard"
            )
            problems.append(f"shard {k}/{n} missing: {who}")
        elif len(by_k[k]) > 1:
            problems.append(f"shard {k}/{n} given more than once: {', '.join(str(p.out) for p in by_k[k])}")
    owners: dict[str, list[Part]] = {}
    for part in parts:
        shard = part.manifest.shard
        for name in part.manifest.students:
            owners.setdefault(name, []).append(part)
            if name not in roster:
                problems.append(f"{part} holds {name}, who is not in the class it was given")
            elif shard_of(name, n) != shard.k:
                problems.append(f"{part} holds {name}, whose shard is {shard_of(name, n)}/{n}")
        lacking = [
            name for name in roster if shard_of(name, n) == shard.k and name not in part.manifest.students
        ]
        if lacking:
            problems.append(f"{part} lacks its students {_names(lacking)}")
    for name, held in owners.items():
        if len(held) > 1:
            problems.append(f"{name} is in more than one shard: {', '.join(str(p) for p in held)}")
    return problems


def _students(parts: list[Part]) -> tuple[list[Graded], list[str]]:
    """Every student's outcome as their shard recorded it, in the class's order."""
    known = set(expected_ids(parts[0].manifest.labs))
    found: dict[str, Graded] = {}
    problems = []
    for part in parts:
        for name, key in part.manifest.students.items():
            folder = part.out / name
            try:
                record = json.loads((folder / "job.json").read_text(encoding="utf-8"))
                results = read_results(folder / "results.json")
            except (OSError, ValueError, ResultsUnreadable) as exc:
                problems.append(f"{part}: {name}'s folder cannot be read: {exc}")
                continue
            if not isinstance(record, dict) or record.get("key") != key:
                problems.append(
                    f"{part}: {name}/job.json is not what this batch recorded (the folder changed since)"
                )
                continue
            unknown = sorted(set(results.tests) - known)
            if unknown:
                problems.append(
                    f"{part}: {name} has ids this grader does not know ({', '.join(unknown)}): "
                    f"merge with the grader that graded ({part.manifest.tool})"
                )
                continue
            found[name] = Graded(
                name,
                str(record.get("status")),
                results,
                float(record.get("seconds", 0.0)),
                True,
                str(record.get("note", "")),
            )
    roster = parts[0].manifest.roster
    return [found[name] for name in roster if name in found], problems


def _write(parts: list[Part], graded: list[Graded], dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    forget(dest)
    owner = {name: part for part in parts for name in part.manifest.students}
    for g in graded:
        _replace(owner[g.name].out / g.name, dest / g.name)
    first = parts[0].manifest
    finished = max(datetime.fromisoformat(p.manifest.finished) for p in parts)
    wall = max(p.manifest.wall_seconds for p in parts)
    jobs = sum(p.manifest.jobs for p in parts)
    regraded = sum(p.manifest.regraded for p in parts)
    write_outputs(
        dest,
        graded,
        class_report.Figures(
            submissions=len(graded),
            regraded=regraded,
            jobs=jobs,
            wall_seconds=wall,
            labs=first.labs,
            tool=first.tool,
            finished=local_time(finished),
            part=f"샤드 {len(parts)}개를 합친 결과" if len(parts) > 1 else "",
            shards=len(parts),
        ),
    )
    Manifest(
        shard=WHOLE,
        labs=first.labs,
        tool=first.tool,
        code_hash=first.code_hash,
        fixtures=first.fixtures,
        sandbox=first.sandbox,
        scripts_root=first.scripts_root,
        roster=first.roster,
        students={name: owner[name].manifest.students[name] for name in first.roster},
        jobs=jobs,
        regraded=regraded,
        wall_seconds=wall,
        finished=finished.isoformat(timespec="seconds"),
        merged_from=tuple(str(p.out) for p in parts),
    ).write(dest)


def _replace(source: Path, target: Path) -> None:
    """``target`` becomes a copy of the student's folder ``source`` (an earlier one goes)."""
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.exists():
        remove_tree(target)
    shutil.copytree(source, target, symlinks=True)  # noqa: TID251 - a shard's output, a grader's files


def _names(names: Sequence[str] | set[str], most: int = 20) -> str:
    ordered = sorted(names) if isinstance(names, set) else list(names)
    shown = ", ".join(ordered[:most])
    return shown + (f" and {len(ordered) - most} more" if len(ordered) > most else "")
