"""The grader's machinery on real processes and files: runner, snapshots, SQL scripts,
inotify observation."""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path

from grader.machinery.inotify import Watcher, travel
from grader.machinery.runner import OUTPUT_LIMIT, Process, ProcessRegistry, run
from grader.machinery.snapshot import Snapshot, recover, tree_digest
from grader.machinery.sqlscript import run_sql_script, statements


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")


def test_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    script = "sleep 300 & echo $! > child.pid; echo started; echo oops >&2; sleep 300"
    result = run(
        ["bash", "-c", script], cwd=tmp_path, env=dict(os.environ), timeout=1, registry=ProcessRegistry()
    )
    assert result.timed_out and result.returncode is None and not result.ok
    assert result.stdout.strip() == "started" and result.tail() == "oops"
    assert "강제 종료" in result.describe()
    child = int((tmp_path / "child.pid").read_text())
    time.sleep(0.1)
    assert not _alive(child)


def test_output_is_bounded(tmp_path: Path) -> None:
    result = run(
        ["python3", "-c", "print('x' * 10_000_000); print('last')"],
        cwd=tmp_path,
        env=dict(os.environ),
        timeout=30,
        registry=ProcessRegistry(),
    )
    assert result.ok and len(result.stdout) <= OUTPUT_LIMIT
    assert result.stdout.rstrip().endswith("last")


def test_journal_kills_what_a_dead_grader_left(tmp_path: Path) -> None:
    journal = tmp_path / "processes"
    process = Process(["sleep", "300"], cwd=tmp_path, env=dict(os.environ), registry=ProcessRegistry(journal))
    assert ProcessRegistry.kill_journal(journal) == 1
    assert process.wait(5).returncode == -9
    assert not journal.exists()


def test_snapshot_restores_byte_for_byte_even_after_a_crash(tmp_path: Path) -> None:
    target = tmp_path / "q"
    (target / "inbox").mkdir(parents=True)
    (target / "inbox" / "a.json").write_text("{}")
    (target / "run.sh").write_text("#!/bin/sh\n")
    (target / "run.sh").chmod(0o755)
    before = tree_digest(target)
    Snapshot.save(target, tmp_path / "store" / "q")
    shutil.rmtree(target / "inbox")
    (target / "run.sh").write_text("changed")
    (target / "new").write_text("x")
    assert tree_digest(target) != before
    assert recover(tmp_path / "store") == [target]  # as the next run after a SIGKILL would
    assert tree_digest(target) == before
    assert not any((tmp_path / "store").iterdir())


def test_snapshot_of_an_absent_directory_removes_what_checks_made(tmp_path: Path) -> None:
    snapshot = Snapshot.save(tmp_path / "missing", tmp_path / "store")
    (tmp_path / "missing" / "inbox").mkdir(parents=True)
    snapshot.restore()
    assert not (tmp_path / "missing").exists()


def test_sql_scripts_are_split_like_the_shell_does(tmp_path: Path) -> None:
    script = ".headers on\n-- a comment; with a semicolon\nSELECT 1;\nSELECT 'a;b' AS x; SELECT 2\n"
    assert statements(script) == [
        "-- a comment; with a semicolon\nSELECT 1;",
        "SELECT 'a;b' AS x;",
        "SELECT 2",
    ]
    db = tmp_path / "l.db"
    sqlite3.connect(db).close()
    assert run_sql_script(db, script).rows == [(1,), ("a;b",), (2,)]
    runaway = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n;"
    result = run_sql_script(db, runaway, timeout=0.5)
    assert result.error is not None and "끝나지 않음" in result.error
    assert run_sql_script(db, "SELECT nope FROM missing;").error


def test_inotify_tells_claim_by_rename_from_shortcuts(tmp_path: Path) -> None:
    dirs = {name: tmp_path / name for name in ("inbox", "processing", "done", "error")}
    for path in dirs.values():
        path.mkdir()
    for name in ("ok", "direct", "copied", "looped", "copied-late"):
        (dirs["inbox"] / name).write_text("{}")
    watcher = Watcher(dirs)
    os.rename(dirs["inbox"] / "ok", dirs["processing"] / "ok")
    (dirs["processing"] / "ok").read_text()
    os.rename(dirs["processing"] / "ok", dirs["done"] / "ok")
    (dirs["inbox"] / "direct").read_text()
    os.rename(dirs["inbox"] / "direct", dirs["done"] / "direct")
    shutil.copy(dirs["inbox"] / "copied", dirs["processing"] / "copied")
    os.remove(dirs["inbox"] / "copied")
    os.rename(dirs["inbox"] / "looped", dirs["processing"] / "looped")
    os.rename(dirs["processing"] / "looped", dirs["inbox"] / "looped")
    os.rename(dirs["inbox"] / "copied-late", dirs["processing"] / "copied-late")
    shutil.copy(dirs["processing"] / "copied-late", dirs["done"] / "copied-late")
    os.remove(dirs["processing"] / "copied-late")
    seen = travel(watcher.stop(), ["ok", "direct", "copied", "looped", "copied-late"])
    assert seen.hops["copied-late"] == ["inbox", "processing", "done"]
    assert seen.hops["ok"] == ["inbox", "processing", "done"]
    assert seen.skipped_processing() == ["copied", "direct"]
    assert seen.opened_in_inbox == {"direct", "copied"}
    assert seen.sent_back_to_inbox() == ["looped"]


def test_inotify_follows_files_through_subfolders_of_processing(tmp_path: Path) -> None:
    """A consumer may claim into processing/<its own folder>/: that is processing/ too."""
    dirs = {name: tmp_path / name for name in ("inbox", "processing", "done", "error")}
    for path in dirs.values():
        path.mkdir()
    names = [f"{i}.json" for i in range(20)]
    for name in names:
        (dirs["inbox"] / name).write_text("{}")
    watcher = Watcher(dirs)
    mine = dirs["processing"] / f"worker-{os.getpid()}"
    mine.mkdir()  # the first moves may beat the watch on it: joined by name
    for name in names:
        os.rename(dirs["inbox"] / name, mine / name)
        os.rename(mine / name, dirs["done"] / name)
    mine.rmdir()
    seen = travel(watcher.stop(), names, watcher.overflow, watcher.subdirs)
    assert watcher.subdirs == 1
    assert all(seen.hops[n] == ["inbox", "processing", "done"] for n in names), seen.hops
    assert seen.skipped_processing() == []
