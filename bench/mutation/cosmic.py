"""Mutants of a Python solution through cosmic-ray, graded by the real grader.

cosmic-ray mutates the file on disk, runs the test command and restores the file. Here the
file is in a private copy of the repository (a sandbox), so mutating it never touches the
work tree and two targets can run side by side. The test command is
``python -m bench.mutation.verdict``, which grades the copy in reference mode (the
walkthrough lays the copy's solutions/ into a scratch lab root) and prints its verdict;
cosmic-ray keeps that output in its session, and this module reads it back from there.
"""

from __future__ import annotations

import ast
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from .confirm import confirm
from .mutant import ANNOTATION_NOTE, SKIPPED, Mutant, TargetResult, context_before, from_unified_diff
from .targets import Target
from .verdict import ERROR, SURVIVED, TIMEOUT, Verdict

COSMIC_RAY = Path(sys.executable).with_name("cosmic-ray")
UNAPPLIED = "cosmic-ray could not apply it"


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def write_config(path: Path, module: str, command: Sequence[str], timeout: float) -> None:
    path.write_text(
        "[cosmic-ray]\n"
        f"module-path = {_toml_string(module)}\n"
        f"timeout = {timeout:.1f}\n"
        "excluded-modules = []\n"
        f"test-command = {_toml_string(shlex.join(command))}\n\n"
        "[cosmic-ray.distributor]\n"
        'name = "local"\n'
    )


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """((line, column), (end line, end column)) of every annotation, in characters, when the
    module postpones their evaluation; none otherwise."""
    tree = ast.parse(source)
    postponed = any(
        isinstance(n, ast.ImportFrom)
        and n.module == "__future__"
        and any(a.name == "annotations" for a in n.names)
        for n in tree.body
    )
    if not postponed:
        return []
    lines = source.splitlines()

    def char_col(line: int, byte_col: int) -> int:
        return len(lines[line - 1].encode()[:byte_col].decode(errors="ignore"))

    nodes: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            nodes.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            nodes.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            nodes.append(node.annotation)
    return [
        (
            (n.lineno, char_col(n.lineno, n.col_offset)),
            (n.end_lineno or n.lineno, char_col(n.end_lineno or n.lineno, n.end_col_offset or 0)),
        )
        for n in nodes
    ]


def skip_annotations(session: Path, source: Path) -> int:
    """Mark the session's mutants that fall inside an annotation as skipped (the way
    cosmic-ray's own filters do); how many."""
    from cosmic_ray.work_db import WorkDB, use_db  # the `mutation` extra
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    spans = annotation_spans(source.read_text())
    skipped = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in db.work_items:
            mutation = item.mutations[0]
            start, end = tuple(mutation.start_pos), tuple(mutation.end_pos)
            if any(lo <= start and end <= hi for lo, hi in spans):
                db.set_result(
                    item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=ANNOTATION_NOTE)
                )
                skipped += 1
    return skipped


def _mutant(
    target: Target, source_lines: list[str], item: dict[str, Any], result: dict[str, Any] | None
) -> Mutant:
    return replace(
        _graded(target, source_lines, item, result), occurrence=int(item["mutations"][0]["occurrence"])
    )


def _graded(
    target: Target, source_lines: list[str], item: dict[str, Any], result: dict[str, Any] | None
) -> Mutant:
    mutation = item["mutations"][0]
    operator = str(mutation["operator_name"])
    line = int(mutation["start_pos"][0])
    here = (source_lines[line - 1].strip(),) if 0 < line <= len(source_lines) else ()
    before = context_before(source_lines, line)
    if result is None:
        return Mutant(target.path, operator, line, here, (), ERROR, detail="never run", context=before)
    if result["worker_outcome"] == "skipped":
        return Mutant(
            target.path,
            operator,
            line,
            here,
            (),
            SKIPPED,
            detail=str(result.get("output") or ""),
            context=before,
        )
    if result["worker_outcome"] == "exception":  # raised while mutating: no mutant was made
        last = str(result.get("output") or "").strip().splitlines()[-1:]
        return Mutant(
            target.path,
            operator,
            line,
            here,
            (),
            SKIPPED,
            detail=f"{UNAPPLIED}: {last[0] if last else ''}",
            context=before,
        )
    first, removed, added = from_unified_diff(str(result.get("diff") or ""))
    line, removed = (first, removed) if first else (line, here)
    context = context_before(source_lines, line)
    output = str(result.get("output") or "")
    verdict = Verdict.from_output(output)
    if result["worker_outcome"] != "normal" or verdict is None:
        status = TIMEOUT if output == "timeout" else ERROR
        why = "cosmic-ray's own timeout" if status == TIMEOUT else output[-1500:]
        return Mutant(target.path, operator, line, removed, added, status, detail=why, context=context)
    return Mutant(
        target.path,
        operator,
        line,
        removed,
        added,
        verdict.status,
        verdict.failed,
        verdict.errors,
        "" if verdict.status == SURVIVED else verdict.detail,
        context,
    )


def read_session(target: Target, session: Path, source: Path) -> list[Mutant]:
    dump = subprocess.run([str(COSMIC_RAY), "dump", str(session)], capture_output=True, text=True, check=True)
    source_lines = source.read_text().splitlines()
    pairs = [json.loads(line) for line in dump.stdout.splitlines() if line.strip()]
    mutants = [_mutant(target, source_lines, item, result) for item, result in pairs]
    return sorted(mutants, key=lambda m: (m.line, m.operator))


def _exec(
    config: Path,
    session: Path,
    sandbox: Path,
    env: Mapping[str, str],
    log: Path,
    verdicts: Path,
    total: int,
    progress: Callable[[int, int], None],
    stop: threading.Event,
) -> None:
    """`cosmic-ray exec`, reporting progress from the verdict log as it runs; stopped when
    ``stop`` is set (the verdict it runs then stops its grader: its parent is gone)."""
    with log.open("a") as out:
        proc = subprocess.Popen(
            [str(COSMIC_RAY), "exec", str(config), str(session)],
            cwd=sandbox,
            env=os.environ | dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            while proc.poll() is None and not stop.is_set():
                time.sleep(2)
                done = len(verdicts.read_text().splitlines()) if verdicts.exists() else 0
                progress(done, total)
        finally:
            if proc.poll() is None:  # interrupted: stop cosmic-ray and the grader it runs
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait()


def test_command(
    target: Target, seeds: Sequence[int], sandbox: Path, log: Path | None, grader_extra: Sequence[str]
) -> list[str]:
    """The verdict command cosmic-ray runs for each mutant of ``target`` in ``sandbox``."""
    return [
        sys.executable,
        "-m",
        "bench.mutation.verdict",
        "--seeds",
        ",".join(map(str, seeds)),
        "--timeout",
        f"{target.timeout:.0f}",
        "--state-dir",
        str(sandbox / ".mutation-state"),
        *(("--log", str(log)) if log is not None else ()),
        "--",
        *target.grader_args,
        *grader_extra,
    ]


def regrade(
    target: Target, mutant: Mutant, sandbox: Path, command: Sequence[str], env: Mapping[str, str]
) -> Verdict | None:
    """Grade one mutant again (`cosmic-ray mutate-and-test`: mutate, test, restore)."""
    run = subprocess.run(
        [
            str(COSMIC_RAY),
            "mutate-and-test",
            target.path,
            mutant.operator,
            str(mutant.occurrence),
            shlex.join(command),
        ],
        cwd=sandbox,
        env=os.environ | dict(env),
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        return Verdict.from_output(str(json.loads(run.stdout).get("output") or ""))
    except ValueError:
        return None


def run(
    target: Target,
    seeds: Sequence[int],
    sandbox: Path,
    work: Path,
    env: Mapping[str, str],
    grader_extra: Sequence[str],
    progress: Callable[[int, int], None],
    stop: threading.Event,
) -> TargetResult:
    """Every cosmic-ray mutant of ``target`` graded in ``sandbox``; logs and the session in
    ``work``."""
    started = time.monotonic()
    verdicts = work / f"{target.name}.verdicts"
    command = test_command(target, seeds, sandbox, verdicts, grader_extra)

    def result(mutants: Sequence[Mutant] = (), fault: str = "", notes: Sequence[str] = ()) -> TargetResult:
        return TargetResult(
            target.path,
            target.engine,
            time.monotonic() - started,
            tuple(seeds),
            tuple(mutants),
            fault,
            tuple(notes),
        )

    baseline = subprocess.run(
        command, cwd=sandbox, env=os.environ | dict(env), capture_output=True, text=True, check=False
    )
    verdict = Verdict.from_output(baseline.stdout)
    if verdict is None or verdict.status != SURVIVED:
        shown = verdict.detail if verdict else (baseline.stdout + baseline.stderr)[-2000:]
        return result(fault=f"the unmutated file does not pass its checks: {shown}")
    verdicts.unlink(missing_ok=True)

    config, session = work / f"{target.name}.toml", work / f"{target.name}.sqlite"
    # cosmic-ray's timeout is a backstop far above the verdict's own limit per grader run,
    # so a timeout the grader itself reports is always seen as the grader's verdict.
    write_config(config, target.path, command, target.timeout * len(seeds) + 120)
    session.unlink(missing_ok=True)
    subprocess.run(
        [str(COSMIC_RAY), "init", str(config), str(session)], cwd=sandbox, check=True, capture_output=True
    )
    skipped = skip_annotations(session, sandbox / target.path)
    total = (
        sum(
            1
            for _ in subprocess.run(
                [str(COSMIC_RAY), "dump", str(session)], capture_output=True, text=True, check=True
            ).stdout.splitlines()
        )
        - skipped
    )
    _exec(
        config, session, sandbox, env, work / f"{target.name}.cosmic-ray.log", verdicts, total, progress, stop
    )
    notes = [f"{skipped} mutants {ANNOTATION_NOTE}: not run"] if skipped else []
    mutants = read_session(target, session, sandbox / target.path)
    again = test_command(target, seeds, sandbox, None, grader_extra)
    mutants = confirm(mutants, lambda m: regrade(target, m, sandbox, again, env), stop)
    return result(mutants, notes=notes)
