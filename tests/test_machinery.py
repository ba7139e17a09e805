"""The grader's machinery on real processes and files: runner and reaper, sandbox, working
copies and their removal, seals, signals, SQL scripts, inotify observation."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import itertools
import json
import os
import re
import resource
import secrets
import select
import shutil
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from markdown_it import MarkdownIt

from fixtures.tree import FixtureTree
from grader.catalogue import Catalogue
from grader.classroom.markdown import finding as markdown_finding
from grader.labs import CATALOGUE
from grader.machinery import acting, erlang, identity, proctable, shebang, traverse, treecopy
from grader.machinery import cgroup as cgroup_module
from grader.machinery import inotify as inotify_module
from grader.machinery.inotify import Touches, Watcher, travel
from grader.machinery.interrupts import Interrupts
from grader.machinery.nodes import stop_node
from grader.machinery.relay import FREE
from grader.machinery.rundir import BOUNDED, BOX_SCRATCH, RunDir
from grader.machinery.runner import OUTPUT_LIMIT, Leftover, OwnProcess
from grader.machinery.sandbox import ALONE, REAPER, RELAY_MOST, RUN_BROKER_MOST, TMP_SIZE, Box, carrying
from grader.machinery.scenarios import ScenarioPool
from grader.machinery.seals import Seals, digest, tree_files
from grader.machinery.snapshot import tree_digest
from grader.machinery.sqlscript import SqlResult, run_sql_script, run_sql_scripts, statements
from grader.machinery.treecopy import CopyPlan, remove_tree, working_copy
from grader.machinery.urls import password_as_written
from grader.machinery.walk import MAX_DEPTH, walk
from grader.machinery.workspace import Journal, Refused, Workspaces
from grader.mq.catalogue import MQ
from grader.plugin import _book_closing
from grader.queue import queuedir
from grader.queue.catalogue import QUEUE
from grader.report import ResultBook, scoreboard, write_results
from grader.session import REPO, Closing, Scripts
from grader.verdict import SEEN_MOST, SPACE_SHOWN, Check, Finding, ScriptsBroke, StudentFailure
from tests.grading import needs_chattr
from tests.queue_lab import make_grading
from tests.waiting import SAFETY, wait_until

MODES = ("namespace", "none")


@pytest.fixture(params=MODES)
def box(request: pytest.FixtureRequest, fixture_tree: FixtureTree, tmp_path: Path) -> Iterator[Scripts]:
    """Where scripts start, as in a grading run: a box of a real run (namespace), or the host
    launcher (none); its scratch is the scripts' working directory."""
    grading = make_grading(fixture_tree, tmp_path / "root", tmp_path / "state", request.param)
    try:
        with grading.scripts("test") as scripts:
            yield scripts
    finally:
        grading.close()


def _alive(pid: int) -> bool:
    entry = proctable.info(pid)
    return entry is not None and entry.alive


def _running(command: str) -> list[int]:
    return [p for p in proctable.pids() if proctable.cmdline(p) == command and _alive(p)]


# runner and launcher -------------------------------------------------------------------------
def test_timeout_kills_the_whole_group(box: Scripts) -> None:
    """A script that hangs for real, waited for once it has said what it says: whatever the
    limit and the machine's speed, the limit is met after that."""
    where = box.scratch_dir()
    nap = f"sleep 300.{secrets.randbelow(10**6):06d}"  # no other process of the machine's is this one
    script = f"{nap} & echo $! > child.pid; echo started; echo oops >&2; : > hanging; {nap}"
    process = box.start(["bash", "-c", script], cwd=where)
    wait_until(lambda: (where / "hanging").exists(), "the script in its last sleep, after its output")
    result = process.wait(0.1)
    assert result.timed_out and result.returncode is None and not result.ok
    assert result.stdout.strip() == "started" and result.tail() == "oops"
    assert "강제 종료" in result.describe()
    assert not result.leftovers  # the grader ended it: what it left is not its doing
    assert not _running(nap)


def test_output_is_bounded(box: Scripts) -> None:
    result = box.run(
        ["python3", "-c", "print('x' * 10_000_000); print('last')"], cwd=box.scratch_dir(), timeout=60
    )
    assert result.ok and len(result.stdout) <= OUTPUT_LIMIT
    assert result.stdout.rstrip().endswith("last")


def test_a_boxs_own_folders_hold_little(box: Scripts) -> None:
    """Red team 20: a box's /tmp, /var/tmp and /dev/shm are memory no kill gives back, and a
    dozen boxes run at once: scripts filling 512 MiB in each got the grader and the class
    broker killed. Each holds TMP_SIZE now."""
    if not box.grading.sandbox.namespaces:
        pytest.skip("host mode: the machine's own /tmp, bounded by the file size limit")
    fill = (
        "import os, sys\n"
        "for d in sys.argv[1:]:\n"
        "    try:\n"
        "        with open(os.path.join(d, 'fill'), 'wb') as f:\n"
        "            for _ in range(64): f.write(bytes(1 << 20))\n"
        "    except OSError as e:\n"
        "        print(d, e.errno, os.path.getsize(os.path.join(d, 'fill')) <= TMP_SIZE)\n"
    ).replace("TMP_SIZE", str(TMP_SIZE))
    folders = ["/tmp", "/var/tmp", "/dev/shm"]
    result = box.run(["python3", "-c", fill, *folders], cwd=box.scratch_dir(), timeout=60)
    assert result.ok, result.describe()
    assert result.stdout.split("\n")[:-1] == [f"{d} {errno.ENOSPC} True" for d in folders], result.stdout


# Children each holding HOLD bytes at once (each under RLIMIT_AS): together more than the run's
# memory bound. Each says "held" once its memory is written, then waits for the parent's word;
# the parent gives it once every child has said it or died: they hold it all at the same time.
HOLD = 512 << 20
HOLDERS = 6
HOLD_ALL = (
    "import subprocess, sys\n"
    "child = ('import sys\\nx = bytes(HOLD) + bytes(1)\\nx = bytearray(x)\\n'\n"
    "         'print(\"held\", flush=True)\\nsys.stdin.read()\\n')\n"
    "start = [sys.executable, '-c', child.replace('HOLD', sys.argv[1])]\n"
    "kids = [subprocess.Popen(start, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)\n"
    "        for _ in range(HOLDERS)]\n"
    "said = [k.stdout.readline().strip() for k in kids]\n"
    "for k in kids:\n"
    "    try:\n"
    "        k.stdin.close()\n"
    "    except OSError:\n"
    "        pass\n"
    "print(sorted(said), sorted(k.wait() for k in kids))\n"
).replace("HOLDERS", str(HOLDERS))


def test_the_scripts_memory_is_bounded_as_a_whole(box: Scripts) -> None:
    """Red team 20: processes each under the 4 GiB address-space limit could together take the
    machine's memory (the kernel then killed the grader or the class broker). The run's control
    group bounds them as a whole: the kernel kills scripts, never the launcher, and says so."""
    cgroup = box.grading.cgroup
    if cgroup is None:
        pytest.skip(f"no control group here: {box.grading.bounds['memory']}")
    assert cgroup.memory_most < HOLD * HOLDERS
    result = box.run(["python3", "-c", HOLD_ALL, str(HOLD)], cwd=box.scratch_dir(), timeout=120)
    assert result.ok, result.describe()
    said, codes = result.stdout.strip().rsplit("] [", 1)
    assert -signal.SIGKILL in [int(c) for c in codes.rstrip("]").split(", ")], result.stdout
    assert said.count("held") < HOLDERS, result.stdout
    assert cgroup.kills() >= 1
    again = box.run(["sh", "-c", "echo still here"], cwd=box.scratch_dir(), timeout=30)
    assert again.ok and again.stdout == "still here\n", again.describe()  # the launcher lives on


def test_the_scripts_cpu_is_one_share_however_many_processes_they_run(box: Scripts) -> None:
    """Red team 31: 120 busy loops of one student's consume.py, each process within its limits,
    starved a classmate graded beside it in a batch (its replay.sh overran its time). Every
    process the scripts start is in the run's cpu group, which weighs as two of the machine's
    processes however many run in it. (Which share a group gets is the kernel's scheduler; what
    is asserted is where the processes are and what the group weighs.)"""
    cgroup = box.grading.cgroup
    if cgroup is None or not cgroup.cpu_shared:
        pytest.skip(f"no cpu controller to give here: {box.grading.bounds.get('cpu')}")
    assert box.grading.bounds["cpu"] == "one share for all scripts at once"
    hierarchy, folder = next((h, f) for h, f in cgroup.folders if "cpu" in h.controllers)
    if hierarchy.version == 2:
        assert (folder / "cpu.weight").read_text().strip() == str(cgroup_module.CPU_WEIGHT)
    else:
        assert (folder / "cpu.shares").read_text().strip() == str(cgroup_module.CPU_SHARES)
    where = box.scratch_dir()
    loops = "for i in 1 2 3 4 5 6 7 8; do (while :; do :; done) & done; touch ready; wait"
    process = box.start(["sh", "-c", loops], cwd=where)
    try:
        wait_until(
            lambda: (where / "ready").exists() and len(proctable.descendants(process.pid)) >= 8, "looping"
        )
        inside = set(cgroup_module._members(folder))
        assert {process.pid, *proctable.descendants(process.pid)} <= inside
    finally:
        process.signal(signal.SIGKILL)
        process.wait(SAFETY)


def test_what_scripts_write_on_disk_is_bounded_as_a_whole(box: Scripts) -> None:
    """Red team 20: files each under the 1 GiB file size limit, written one after another,
    filled 28.6 GB of the machine's disk in one grade. In a box, all the scripts may write on the
    machine's disk (their scratch, the working copies) is on a tmpfs of bounded size."""
    if not box.grading.sandbox.namespaces:
        pytest.skip("host mode: the working copies are the lab root's, bounded per file only")
    rundir = box.grading.rundir
    assert box.grading.bounds["disk"] == "work 640 MiB, scratch 128 MiB"
    for name, path in (("work", rundir.work), ("scratch", rundir.scripts_scratch)):
        assert os.path.ismount(path), path
        fs = os.statvfs(path)
        assert fs.f_blocks * fs.f_frsize == BOUNDED[name]
    fill = (
        "import os\n"
        "written = 0\n"
        "try:\n"
        "    for n in range(24):\n"
        "        with open(f'fill{n}', 'wb') as f:\n"
        "            for _ in range(64):\n"
        "                written += f.write(bytes(1 << 20))\n"
        "except OSError as e:\n"
        "    print(e.errno, written)\n"
    )
    result = box.run(["python3", "-c", fill], cwd=box.scratch_dir(), timeout=120)
    assert result.ok, result.describe()
    code, written = result.stdout.split()
    assert int(code) == errno.ENOSPC and int(written) <= BOUNDED["scratch"], result.stdout


def _joined(group: cgroup_module.Cgroup, pid: int) -> None:
    """Once ``pid`` is in every folder of ``group`` (it joins them itself, after its start: a
    loaded machine had the group made again before, and the process joined the new one)."""
    wait_until(
        lambda: all(pid in cgroup_module._members(folder) for _, folder in group.folders),
        "the process joined its group",
    )


def test_a_dead_graders_control_group_and_tmpfs_are_taken_away(tmp_path: Path) -> None:
    """What a SIGKILLed grader left: the group of its identity with a process in it (found when
    that identity is next claimed), and the tmpfs mounted in its scratch (found with it)."""
    try:
        left = cgroup_module.Cgroup.make(identity.FIRST + identity.COUNT - 1)
    except cgroup_module.CgroupUnavailable as exc:
        pytest.skip(str(exc))
    sleeper = subprocess.Popen(left.join_argv(["sleep", "300"]))
    _joined(left, sleeper.pid)
    reaped = threading.Thread(target=sleeper.wait)  # its parent reaps it, as init would
    reaped.start()
    try:
        again = cgroup_module.Cgroup.make(identity.FIRST + identity.COUNT - 1)
        reaped.join()
        assert sleeper.returncode == -signal.SIGKILL
        assert [folder.exists() for _, folder in again.folders] == [True] * len(again.folders)
        assert again.close() == []
        assert not any(folder.exists() for _, folder in again.folders)
    finally:
        sleeper.kill()
        sleeper.wait()
    dead = RunDir(tmp_path / "state" / "dead", None, bounded=True)
    dead.open()
    if dead.unbounded is not None:
        pytest.skip(dead.unbounded)
    assert os.path.ismount(dead.work) and os.path.ismount(dead.scripts_scratch)
    (dead.work / "left").write_bytes(b"x")
    dead._unlock()  # the grader dies: its locks go, its mounts stay
    fresh = RunDir(tmp_path / "state" / "fresh", None, bounded=True)
    notes = fresh.open()
    try:
        assert any(str(dead.scratch) in note for note in notes), notes
        assert not dead.scratch.exists()
    finally:
        fresh.close()
    assert not os.path.ismount(fresh.work)


def test_a_group_whose_killed_member_is_reaped_late_is_still_removed() -> None:
    """A killed member whose parent gets no CPU for seconds (a loaded machine) and reaps it
    late does not keep its group from being removed. (Under cgroup v1 an exited task leaves the
    group before it is reaped; where it stays until then, removal waits up to REMOVE_WAIT
    seconds, not a count of rounds that a loaded machine ran through in about a second.)"""
    try:
        left = cgroup_module.Cgroup.make(identity.FIRST + identity.COUNT - 2)
    except cgroup_module.CgroupUnavailable as exc:
        pytest.skip(str(exc))
    sleeper = subprocess.Popen(left.join_argv(["sleep", "300"]))
    _joined(left, sleeper.pid)

    def reap_late() -> None:  # its parent, busy elsewhere: 3 s after the kill it reaps it
        while _state(sleeper.pid) != "Z":
            time.sleep(0.01)
        time.sleep(3)
        sleeper.wait()

    reaper = threading.Thread(target=reap_late)
    reaper.start()
    try:
        again = cgroup_module.Cgroup.make(identity.FIRST + identity.COUNT - 2)
        assert again.close() == []
        assert not any(folder.exists() for _, folder in again.folders)
    finally:
        sleeper.kill()
        reaper.join()


def test_a_full_box_scratch_is_the_scripts_doing_not_a_grader_error(
    fixture_tree: FixtureTree, tmp_path: Path
) -> None:
    """Red team 21: a script that filled the scratch its box writes in made the grader's next
    write there an ENOSPC, reported as a grader error. Each box's scratch is a tmpfs of its own,
    and a write the grader cannot make there once it is full is the scripts' doing (a FAIL)."""
    grading = make_grading(fixture_tree, tmp_path / "root", tmp_path / "state", "namespace")
    fill = (
        "import os\n"
        "try:\n"
        "    with open('fill', 'wb') as f:\n"
        "        while True: f.write(bytes(1 << 20))\n"
        "except OSError as e:\n"
        "    print(e.errno)\n"
    )
    try:
        if grading.rundir.unbounded is not None:
            pytest.skip(grading.rundir.unbounded)
        with pytest.raises(ScriptsBroke) as broke, grading.scripts("fill") as box:
            assert os.path.ismount(box.scratch)
            fs = os.statvfs(box.scratch)
            assert fs.f_blocks * fs.f_frsize == BOX_SCRATCH
            result = box.run(["python3", "-c", fill], cwd=box.scratch, timeout=60)
            assert result.stdout.strip() == str(errno.ENOSPC), result.describe()
            (box.scratch / "the-graders-input").write_bytes(bytes(2 << 20))
        assert broke.value.shown_as == SPACE_SHOWN and "128 MiB" in broke.value.why
        with grading.scripts("next") as other:  # the next box's scratch is empty again
            result = other.run(["python3", "-c", fill], cwd=other.scratch, timeout=60)
            assert os.path.getsize(other.scratch / "fill") > BOX_SCRATCH // 2
    finally:
        grading.close()


# The script ends only once both processes it leaves run `sleep` (each has written its pid):
# what they are called when it ends does not depend on how fast they got to exec.
DAEMONISE = (
    "(setsid sh -c 'sleep 301 & echo $! > d1.pid; echo $$ > d2.pid; exec sleep 302' &); "
    "for f in d1.pid d2.pid; do "
    'until [ -s $f ] && [ "$(cat /proc/$(cat $f)/comm 2>/dev/null)" = sleep ]; do :; done; '
    "done; echo done; exit 3"
)


def test_a_daemon_a_script_leaves_is_named_and_killed(box: Scripts) -> None:
    """fork, setsid, fork again: out of the script's session and group, still found."""
    result = box.run(["sh", "-c", DAEMONISE], cwd=box.scratch_dir(), timeout=10)
    assert result.returncode == 3 and result.stdout.strip() == "done"
    names = sorted(leftover.cmdline for leftover in result.leftovers)
    assert names == ["sleep 301", "sleep 302"], names
    assert not [p for p in proctable.pids() if proctable.cmdline(p).startswith(("sleep 301", "sleep 302"))]


def test_a_script_holds_no_privilege_over_the_machine(box: Scripts) -> None:
    """The run's identity owns nothing but its own files; the seccomp filter refuses what
    crosses namespaces. In a box the script is root of its own user namespace."""
    probe = (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "def errno_of(result): return ctypes.get_errno() if result != 0 else 0\n"
        "print('groups', os.getgroups())\n"
        "print('unshare', errno_of(libc.unshare(0x00020000)))\n"
        "print('mount', errno_of(libc.mount(b'none', b'/tmp', b'tmpfs', 0, None)))\n"
        "print('handle', errno_of(libc.syscall(304, -100, b'/etc', None, None, 0)))\n"
        "for path in ('/etc/shadow', '/proc/sys/kernel/core_pattern', '/usr/lib/x', '/etc/x'):\n"
        "    try:\n"
        "        open(path, 'a').close()\n"
        "        print('wrote', path)\n"
        "    except OSError as exc:\n"
        "        print('refused', path, exc.errno)\n"
        "print('uid', os.getuid(), os.geteuid())\n"
    )
    result = box.run([sys.executable, "-c", probe], cwd=box.scratch_dir(), timeout=30)
    said = result.stdout.splitlines()
    assert result.ok, result
    assert "groups []" in said
    assert "unshare 1" in said and "mount 1" in said and "handle 1" in said, said
    assert not [line for line in said if line.startswith("wrote")], said
    assert not Path("/usr/lib/x").exists() and not Path("/etc/x").exists()
    expected_uid = 0 if isinstance(box.confinement.launcher, Box) else box.grading.identity.uid
    assert f"uid {expected_uid} {expected_uid}" in said


def test_no_script_can_take_or_block_an_identity_claim() -> None:
    """A claim is a lock in a folder of root's alone: a process of a script identity can
    neither open a claim file nor block one; names of the network namespace scripts share
    (each identity's abstract socket, as claims once were) bound by somebody else stop
    nobody; a claim held is not given twice and is free again once released."""
    squatted = []
    for uid in range(identity.FIRST, identity.FIRST + identity.COUNT):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with contextlib.suppress(OSError):
            sock.bind(f"\0lab-grader-identity-{uid}")
        squatted.append(sock)
    try:
        first = identity.Identity.claim()
        second = identity.Identity.claim()
        assert first.uid != second.uid
        first.release()
        assert identity.Identity.claim(first.uid, 1).uid == first.uid
    finally:
        for sock in squatted:
            sock.close()
    probe = (
        "import os, sys; os.setgroups([]); os.setresgid(*[int(sys.argv[1])] * 3); "
        "os.setresuid(*[int(sys.argv[1])] * 3); "
        "open(sys.argv[2], 'a')"
    )
    claim_file = identity.CLAIMS / str(second.uid)
    try:
        refused = subprocess.run(
            [sys.executable, "-I", "-c", probe, str(second.uid), str(claim_file)],
            capture_output=True,
            text=True,
        )
        assert refused.returncode != 0 and "PermissionError" in refused.stderr, refused.stderr
    finally:
        second.release()


def test_every_process_of_the_identity_is_gone_a_fork_chain_too(box: Scripts) -> None:
    """A process that clears its environment and forks every 2 ms, each parent exiting at once,
    is out of any subtree a keeper could walk: one kill(-1) under the identity ends it."""
    chain = (
        "import os, time\n"
        "if os.fork(): os._exit(0)\n"
        "os.setsid()\n"
        "open('started', 'w').close()\n"
        "while True:\n"
        "    time.sleep(0.002)\n"
        "    if os.fork(): os._exit(0)\n"
    )
    where = box.scratch_dir()
    result = box.run([sys.executable, "-c", chain], cwd=where, timeout=10, env={})
    assert result.returncode == 0 and (where / "started").exists()
    # The keeper killed what it found below it; whatever escaped is the identity's still.
    assert box.grading.identity.kill_all() == []
    assert identity.processes_of(box.grading.identity.uid) == []


def test_a_signal_reaches_the_script_itself(box: Scripts) -> None:
    where = box.scratch_dir()
    process = box.start(
        ["sh", "-c", "trap 'echo got TERM; exit 7' TERM; touch ready; sleep 30 & wait"], cwd=where
    )
    wait_until(lambda: (where / "ready").exists() or not process.running(), "the trap set")
    process.signal(signal.SIGTERM)
    result = process.wait(30)
    assert result.returncode == 7 and "got TERM" in result.stdout
    assert not result.leftovers  # signalled by the grader: its sleep is not held against it


def _state(pid: int) -> str:
    entry = proctable.info(pid)
    return entry.state if entry is not None else "gone"


def test_a_child_of_the_graders_that_ended_keeps_its_number_until_it_is_stopped(tmp_path: Path) -> None:
    """A claim partner (or the live watch, or a launcher) that ended by itself is seen ended
    but not reaped: its pid, and its group's id, stay its own until the grader stops it. Reaped
    at the first look, as it was, the number was free while the grader still aimed a SIGKILL at
    its group at the scene's end: with pid_max 32768 and a class grading, another grade's box or
    partner could hold it by then."""
    process = OwnProcess([sys.executable, "-I", "-c", "pass"], cwd=tmp_path, env={})
    pid = process._popen.pid
    wait_until(lambda: not process.running(), "the child ended")
    assert _state(pid) == "Z"  # a zombie: the number is still its own
    assert process.kill().returncode == 0
    assert _state(pid) == "gone"


def test_the_script_is_frozen_and_killed_whole(box: Scripts) -> None:
    """A consumer that works in a child process is one consumer: frozen, every process of it
    stops; SIGKILLed, every one ends (red team 13: only the parent was, and its child acked)."""
    where = box.scratch_dir()
    process = box.start(["sh", "-c", "sleep 303 & sleep 304 & touch ready; wait"], cwd=where)
    wait_until(lambda: (where / "ready").exists() and len(proctable.descendants(process.pid)) == 2, "started")
    children = proctable.descendants(process.pid)
    assert process.freeze()
    assert {_state(pid) for pid in [process.pid, *children]} == {"T"}
    process.thaw()
    wait_until(lambda: "T" not in {_state(pid) for pid in [process.pid, *children]}, "thawed")
    process.signal(signal.SIGKILL)
    result = process.wait(SAFETY)
    assert result.returncode == -signal.SIGKILL and not result.timed_out
    assert {_state(pid) for pid in children} <= {"gone", "Z"}


def test_every_scenario_started_runs_at_once() -> None:
    """Scenarios mostly wait (on the broker's start, on scripts): none may queue behind the
    others. A full grade once ran the queue lab after the mq lab, whose 19 tasks, all waiting
    for the broker, filled a pool of 16."""
    pool = ScenarioPool()
    together = threading.Barrier(40, timeout=20)
    names = [f"waits-{i}" for i in range(40)]
    for name in names:
        pool.define(name, together.wait)
    pool.start(names)
    assert sorted(int(str(pool.result(name))) for name in names) == list(range(40))
    pool.shutdown()


def test_a_cap_on_scenarios_is_kept() -> None:
    pool = ScenarioPool(workers=2)
    together = threading.Barrier(3, timeout=1)
    for name in "abc":
        pool.define(name, together.wait)
    pool.start("abc")
    with pytest.raises(threading.BrokenBarrierError):
        pool.result("a")
    pool.shutdown()


# A bound on the first wave no correct run waits for: a pool that waited for it would be seen
# by the order of events below long before it passed (SAFETY < BOUND).
BOUND = 4 * SAFETY


def test_the_second_wave_waits_until_the_first_is_under_way() -> None:
    """Clock-bound scenarios start their scripts first; the others wait for that (and no
    longer), each first-wave scenario counted once, whether it says so or only ends. Told by
    the order of events, never by durations: each step below waits for the one before it."""
    pool = ScenarioPool()
    log: list[str] = []
    too_went, missing_may_end, other_went = threading.Event(), threading.Event(), threading.Event()

    def clocked() -> bool:
        too_went.wait(SAFETY)  # a first-wave scenario never waits: clocked_too goes before
        log.append("clocked under way")
        pool.under_way()
        pool.under_way()  # said twice, counted once
        missing_may_end.set()
        return other_went.wait(SAFETY)  # the second wave goes while this one still runs

    def missing() -> None:  # a first-wave scenario that ends without starting anything
        missing_may_end.wait(SAFETY)
        log.append("missing ends")

    def clocked_too() -> None:
        pool.after_first_wave(BOUND)  # never waits in the first wave
        log.append("clocked_too goes")
        too_went.set()

    def other() -> None:
        pool.after_first_wave(BOUND)
        log.append("other goes")
        other_went.set()

    pool.define("clocked", clocked, first=True)
    pool.define("missing", missing, first=True)
    pool.define("clocked_too", clocked_too, first=True)
    pool.define("other", other)
    pool.start(["other", "clocked", "missing", "clocked_too"])
    pool.result("other")
    assert log == ["clocked_too goes", "clocked under way", "missing ends", "other goes"]
    assert pool.result("clocked") is True  # went before clocked ended: no longer than needed
    pool.shutdown()
    pool.after_first_wave(BOUND)  # outside the pool: at once


def test_the_second_wave_waits_no_longer_than_its_bound() -> None:
    """A first wave that never gets under way holds the second back for its bound, and only
    that: the second-wave scenario goes while the first-wave one is still stuck (an order of
    events, whatever the machine's speed), after at least its bound (a timed wait is never
    shorter than asked, on a fast machine too; a slow one only waits longer)."""
    pool = ScenarioPool()
    stuck, ended = threading.Event(), threading.Event()

    def first() -> None:
        stuck.wait(SAFETY)  # until the test has seen the second wave go
        ended.set()

    def other() -> tuple[bool, float]:
        started = time.monotonic()
        pool.after_first_wave(0.3)
        return ended.is_set(), time.monotonic() - started

    pool.define("stuck", first, first=True)
    pool.define("other", other)
    pool.start(["stuck", "other"])
    first_ended, waited = cast(tuple[bool, float], pool.result("other"))
    stuck.set()
    pool.shutdown()
    assert not first_ended  # the bound let it go, not the first wave's end
    assert waited >= 0.29  # (the clock's rounding)


def test_under_a_cap_the_first_wave_starts_first() -> None:
    pool = ScenarioPool(workers=1)
    order: list[str] = []

    def run(name: str) -> Callable[[], None]:
        return lambda: order.append(name)

    for name in "abcd":
        pool.define(name, run(name), first=name in "cd")
    pool.start("abcd")
    for name in "abcd":
        pool.result(name)
    assert order == ["c", "d", "a", "b"]
    pool.shutdown()


def test_a_script_cannot_forge_its_keepers_report(box: Scripts) -> None:
    """The keepers and the launcher are root and not dumpable: a script can reach none of their
    pipes; only the keeper's final block is read, written when the script is gone."""
    forge = (
        "import os, subprocess\n"
        "p = subprocess.Popen(['setsid', 'sleep', '305'])\n"
        "while open(f'/proc/{p.pid}/comm').read() != 'sleep\\n':\n"  # it is `sleep` when the script ends
        "    pass\n"
        "for pid in os.listdir('/proc'):\n"
        "    if not pid.isdigit(): continue\n"
        "    try: fds = os.listdir(f'/proc/{pid}/fd')\n"
        "    except OSError: continue\n"
        "    for fd in fds:\n"
        "        try:\n"
        "            w = os.open(f'/proc/{pid}/fd/{fd}', os.O_WRONLY | os.O_NONBLOCK)\n"
        "            os.write(w, b'\\nbegin\\nstatus 0\\nleftover 1 x x\\npartial')\n"
        "            os.close(w)\n"
        "        except OSError:\n"
        "            pass\n"
        "raise SystemExit(5)\n"
    )
    result = box.run([sys.executable, "-c", forge], cwd=box.scratch_dir(), timeout=10)
    assert result.returncode == 5, result
    assert [leftover.cmdline for leftover in result.leftovers] == ["sleep 305"], result


def test_the_reaper_outside_a_namespace_refuses_to_start(tmp_path: Path) -> None:
    """Anywhere but as PID 1 of a namespace "every process of the namespace" would be the
    machine's: the reaper refuses to start, and leaves every other process alone."""
    bystander = subprocess.Popen(["sleep", "304"], start_new_session=True)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        run = subprocess.run(
            [sys.executable, "-I", "-S", str(REAPER), str(theirs.fileno())],
            pass_fds=(theirs.fileno(),),
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert run.returncode != 0 and "first process of a PID namespace" in run.stderr
        assert bystander.poll() is None
    finally:
        ours.close()
        theirs.close()
        bystander.kill()
        bystander.wait()


def test_scripts_see_the_working_copy_where_the_students_directory_is(
    fixture_tree: FixtureTree, tmp_path: Path
) -> None:
    """Namespace mode: an empty lab root holding the working copy where the student's q/ is;
    nothing of the grader's (its code, its state, the solutions) in sight."""
    root = tmp_path / "root"
    (root / "q").mkdir(parents=True)
    (root / "q" / "mine.txt").write_text("the student's\n")
    (root / "other.txt").write_text("not graded\n")
    grading = make_grading(fixture_tree, root, tmp_path / "state", "namespace", protected=("q",))
    try:
        work = grading.workspace("q").live
        script = (
            f"cat {root}/q/mine.txt; echo changed > {root}/q/mine.txt; ls {root};"
            f" test -e {REPO}/solutions || echo no-solutions; ls -A {grading.rundir.base}; pwd"
        )
        with grading.scripts("test") as box:
            result = box.run(["sh", "-c", script], cwd=work, timeout=10)
    finally:
        grading.close()
    # Of the state dir only the way to the box's own scratch is there: no journal, no lock.
    assert result.stdout.split() == ["the", "student's", "q", "no-solutions", "run", str(root / "q")], result
    assert (root / "q" / "mine.txt").read_text() == "the student's\n"


# A script of a box with a network of its own: connects to each port given, up to N times each,
# and says per port how many connections were greeted ("hi") by what answered.
_CONNECTOR = """
import socket, sys
held, said = [], []
for arg in sys.argv[1:]:
    port, times = (int(x) for x in arg.split("x"))
    greeted = 0
    for _ in range(times):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            continue
        held.append(s)
        try:
            greeted += s.recv(3) == b"hi\\n"
        except OSError:
            pass
    said.append(str(greeted))
print(" ".join(said))
"""


def test_a_box_of_its_own_network_reaches_only_the_ports_it_carries(
    fixture_tree: FixtureTree, tmp_path: Path
) -> None:
    """Its scripts reach a carried port of the machine's loopback (a round trip), at most
    RELAY_MOST connections at once (more are reset: what listens outside never sees them), and
    no other port of the machine's; a box alone reaches none. What a script could otherwise
    take: a class node's connections, its epmd, other grades' partners."""
    carried, other = socket.create_server(("127.0.0.1", 0)), socket.create_server(("127.0.0.1", 0))
    seen: dict[int, list[socket.socket]] = {}

    def serve(listener: socket.socket) -> None:
        port = listener.getsockname()[1]
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            seen.setdefault(port, []).append(conn)
            conn.sendall(b"hi\n")

    for listener in (carried, other):
        threading.Thread(target=serve, args=(listener,), daemon=True).start()
    ports = [listener.getsockname()[1] for listener in (carried, other)]
    grading = make_grading(fixture_tree, tmp_path / "root", tmp_path / "state", "namespace")
    try:
        said = []
        for network in (carrying(ports[0]), ALONE):
            with grading.scripts("test", network=network) as box:
                argv = [box.python, "-c", _CONNECTOR, f"{ports[0]}x{RELAY_MOST + 8}", f"{ports[1]}x1"]
                result = box.run(argv, cwd=box.scratch_dir(), timeout=SAFETY)
                said.append(result.stdout.split())
    finally:
        grading.close()
        for listener in (carried, other):
            listener.close()
    assert said == [[str(RELAY_MOST), "0"], ["0", "0"]], said
    assert len(seen.get(ports[0], [])) == RELAY_MOST and ports[1] not in seen


# Holds N connections to a port, says how many were greeted, and keeps them until a file appears.
_HOLDER = """
import os, socket, sys, time
port, times = (int(x) for x in sys.argv[1].split("x"))
held = []
for _ in range(times):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if s.recv(3) == b"hi\\n":
            held.append(s)
    except OSError:
        pass
print(len(held), flush=True)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.05)
"""


def test_the_boxes_of_a_run_share_one_budget_of_broker_connections(
    fixture_tree: FixtureTree, tmp_path: Path
) -> None:
    """Red team 31: each box of an mq grade (a dozen and more at once) could hold RELAY_MOST
    connections to the broker, together more than the node a class shares takes (512), and
    classmates' grades waited on it. All the boxes of a run carry at most RUN_BROKER_MOST to
    the broker at once beyond FREE each: one box holding most of them leaves the next its FREE
    and the rest (a scene's own scripts always reach the broker)."""
    listener = socket.create_server(("127.0.0.1", 0))
    seen: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            seen.append(conn)
            conn.sendall(b"hi\n")

    threading.Thread(target=serve, daemon=True).start()
    port = listener.getsockname()[1]
    broker = carrying(port, amqp=port)
    grading = make_grading(fixture_tree, tmp_path / "root", tmp_path / "state", "namespace")
    try:
        with (
            grading.scripts("first", network=broker) as first,
            grading.scripts("second", network=broker) as second,
        ):
            release = first.scratch_dir() / "release"
            holder = first.start(
                [first.python, "-c", _HOLDER, f"{port}x{FREE + RUN_BROKER_MOST - 10}", str(release)],
                cwd=first.scratch_dir(),
            )
            wait_until(lambda: holder.stdout_so_far().strip() != "", "the first box holds its connections")
            argv = [second.python, "-c", _CONNECTOR, f"{port}x20"]
            after = second.run(argv, cwd=second.scratch_dir(), timeout=SAFETY)
            release.touch()
            held = holder.wait(SAFETY)
    finally:
        grading.close()
        listener.close()
    assert held.stdout.strip() == str(FREE + RUN_BROKER_MOST - 10), held.describe()
    assert after.stdout.split() == [str(FREE + 10)], after.describe()


# working copies ------------------------------------------------------------------------------------
def _odd_tree(q: Path, outside: Path) -> None:
    (q / "done").mkdir(parents=True)
    for i in range(50):
        (q / "done" / f"{i}.json").write_text("{}")
    (q / "lib").mkdir()
    (q / "lib" / "helper.py").write_text("X = 1\n")
    (q / "run.sh").write_text("#!/bin/sh\n")
    (q / "run.sh").chmod(0o750)
    with open(q / "sparse.bin", "wb") as f:
        f.truncate(32 << 20)
        f.seek(16 << 20)
        f.write(b"x")
    os.mkfifo(q / "pipe")
    outside.mkdir()
    (outside / "ledger.db").write_bytes(b"SQLite format 3\0 outside")
    (q / "ledger.db").symlink_to(outside / "ledger.db")
    (q / "elsewhere").symlink_to(outside)
    (q / "helper.py").symlink_to("lib/helper.py")


def test_a_working_copy_holds_what_scripts_read_and_nothing_that_leads_out(tmp_path: Path) -> None:
    q, outside, copy = tmp_path / "q", tmp_path / "outside", tmp_path / "copy"
    _odd_tree(q, outside)
    (q / "closed").mkdir(mode=0o000)  # root's to enter, read and write whatever the bits say:
    (q / "secret.txt").write_text("s")  # the copy's owner (the scripts' identity) stands for root
    (q / "secret.txt").chmod(0o000)
    left_out = working_copy(q, copy, CopyPlan.of(empty=("done",)))
    assert list((copy / "done").iterdir()) == []  # emptied anyway: never read
    assert (copy / "lib" / "helper.py").read_text() == "X = 1\n"
    assert stat.S_IMODE((copy / "run.sh").stat().st_mode) == 0o750
    assert stat.S_IMODE((copy / "closed").stat().st_mode) == 0o700
    assert stat.S_IMODE((copy / "secret.txt").stat().st_mode) == 0o600
    assert (copy / "sparse.bin").stat().st_blocks == (q / "sparse.bin").stat().st_blocks
    assert (copy / "sparse.bin").stat().st_size == 32 << 20
    assert not (copy / "ledger.db").is_symlink()  # a copy: writing it reaches nothing outside
    assert (copy / "ledger.db").read_bytes() == (outside / "ledger.db").read_bytes()
    assert os.readlink(copy / "helper.py") == "lib/helper.py"  # stays inside: kept as a link
    assert os.readlink(copy / "elsewhere") == str(outside)  # a directory: kept, never written
    assert not os.path.lexists(copy / "pipe") and any("pipe" in what for what in left_out)


def test_a_folder_that_goes_while_it_is_copied_is_left_out_not_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """q -> / copies /proc, whose folders go when their process ends: a CI run beside other
    grades met one gone between going into it and coming back up ("..": ESRCH), and every
    queue id was a grader error. The copy says what it left out and goes on."""
    sleeper = subprocess.Popen(["sleep", "300"])
    q, copy = tmp_path / "q", tmp_path / "copy"
    q.symlink_to(f"/proc/{sleeper.pid}")  # a student's q/ may be a link, followed once
    listed = treecopy._listed

    def listed_then_ended(dir_fd: int, first: tuple[str, ...] = ()) -> list[str]:
        names = listed(dir_fd, first)
        if sleeper.poll() is None and {"current", "exec"} <= set(names):  # inside its attr/
            sleeper.kill()  # the process ends while the copy is inside its folder
            sleeper.wait()
        return names

    monkeypatch.setattr(treecopy, "_listed", listed_then_ended)
    try:
        left_out = working_copy(q, copy)
    finally:
        sleeper.kill()
        sleeper.wait()
    assert sleeper.returncode == -signal.SIGKILL
    assert any("나머지는 빠짐" in what for what in left_out), left_out


def test_a_working_copy_takes_at_most_so_many_entries_below_the_top(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entries past COPY_ENTRIES below the top are left out, said once (300,000 files in a
    folder of q/ took a grade 311 s to copy, red team 6); the top level's scripts always come."""
    monkeypatch.setattr(treecopy, "COPY_ENTRIES", 10)
    q, copy = tmp_path / "q", tmp_path / "copy"
    (q / "junk").mkdir(parents=True)
    for i in range(30):
        (q / "junk" / f"{i:02d}").write_text("x")
    (q / "zz" / "deeper").mkdir(parents=True)
    (q / "zz" / "deeper" / "f").write_text("y")
    for script in ("consume.py", "lag.sh", "replay.sh"):
        (q / script).write_text("#\n")
    left_out = working_copy(q, copy)
    assert sorted(p.name for p in copy.iterdir()) == ["consume.py", "junk", "lag.sh", "replay.sh", "zz"]
    assert len(list((copy / "junk").iterdir())) == 10 and not list((copy / "zz").iterdir())
    assert len(left_out) == 1 and "10" in left_out[0], left_out


def test_a_working_copys_budget_counts_links_and_leaves_out_the_largest_files_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team 21: long link targets (a page each on tmpfs) were not counted, and 50,000 of
    them overflowed the working copies' space (every id a grader error); two 64 MiB files named
    before consume.py left the lab's scripts out. Links count a page; small files come first."""
    monkeypatch.setattr(treecopy, "COPY_BUDGET", 16 * treecopy.PAGE)
    q, copy = tmp_path / "q", tmp_path / "copy"
    q.mkdir()
    (q / "aaa-blob").write_bytes(os.urandom(12 * treecopy.PAGE))
    (q / "aab-blob").write_bytes(os.urandom(12 * treecopy.PAGE))
    for script in ("consume.py", "lag.sh", "replay.sh"):
        (q / script).write_text("#\n")
    for i in range(20):
        (q / f"link-{i:02d}").symlink_to("x" * 200)
    left_out = working_copy(q, copy)
    copied = {p.name for p in copy.iterdir()}
    assert {"consume.py", "lag.sh", "replay.sh", "aaa-blob"} <= copied and "aab-blob" not in copied
    assert len([n for n in copied if n.startswith("link-")]) == 16 - 3 - 12
    assert any("aab-blob" in line for line in left_out), left_out


def test_no_number_of_small_files_leaves_the_labs_own_files_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team 23: 33,000 empty files at the top of q/ (a page each) took the whole budget
    before consume.py, lag.sh and replay.sh: a correct lab graded 17/28. The lab's own files
    (``CopyPlan.first``) come before anything else; what is left out is said as the budget
    being spent, not as a file too large."""
    monkeypatch.setattr(treecopy, "COPY_BUDGET", 16 * treecopy.PAGE)
    q, copy = tmp_path / "q", tmp_path / "copy"
    q.mkdir()
    for i in range(40):
        (q / f".z{i:03d}").touch()
    scripts = ("consume.py", "lag.sh", "replay.sh")
    for script in scripts:
        (q / script).write_text("#" * 1333)
    left_out = working_copy(q, copy, CopyPlan.of(first=scripts))
    copied = {p.name for p in copy.iterdir()}
    assert set(scripts) <= copied and len(copied) == 16
    assert len(left_out) == 40 - 13 and all("복사 한도가 다 참" in line for line in left_out), left_out[:2]


def test_removal_never_follows_a_link_and_undoes_chattr_in_its_own_tree(tmp_path: Path) -> None:
    needs_chattr(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("x")
    ours = tmp_path / "ours"
    (ours / "deep").mkdir(parents=True)
    (ours / "deep" / "link").symlink_to(outside)
    (ours / "stuck").write_text("y")
    subprocess.run(["chattr", "+i", str(ours / "stuck")], check=True)
    subprocess.run(["chattr", "+a", str(ours / "deep")], check=True)
    assert remove_tree(ours) == []
    assert not os.path.lexists(ours) and (outside / "keep").read_text() == "x"


def test_a_tree_deeper_than_any_limit_is_removed(tmp_path: Path) -> None:
    """A script can chain folders deeper than the recursion limit, PATH_MAX or the descriptor
    limit (mkdir and chdir, one level at a time); the grader removes its copy all the same."""
    ours = tmp_path / "ours"
    ours.mkdir()
    depth = resource.getrlimit(resource.RLIMIT_NOFILE)[0] + 2000
    fd = os.open(ours, os.O_RDONLY | os.O_DIRECTORY)
    for level in range(depth):
        os.mkdir("d", dir_fd=fd)
        if level % 1000 == 0:
            fd_file = os.open("f", os.O_WRONLY | os.O_CREAT, dir_fd=fd)
            os.close(fd_file)
        below = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = below
    os.close(fd)
    for n in range(300):  # and wide
        (ours / f"w{n}").mkdir()
    assert remove_tree(ours) == []
    assert not os.path.lexists(ours)


@pytest.fixture
def deep(tmp_path: Path) -> Iterator[Path]:
    """A folder for chains of folders, removed by the grader's own remove_tree (pytest's
    clean-up of its temporary folders is shutil.rmtree, which a chain ends)."""
    top = tmp_path / "deep"
    top.mkdir()
    yield top
    assert remove_tree(top) == []


def _chain(top: Path, depth: int, name: str = "d") -> None:
    """A chain of ``depth`` folders below ``top``, a file "f" at the bottom (as a script makes
    it: one level at a time, by descriptor)."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir(name, dir_fd=fd)
        below = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = below
    os.close(os.open("f", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    os.close(fd)


def test_a_password_is_found_on_a_callers_command_line() -> None:
    """proctable: a secret on the command line of a process that started this one (a shell
    that ran the grader, say) is found there, and only there; broker URLs say how theirs reads
    on a command line (guest's is no secret)."""
    forms = password_as_written("amqp://admin:s%40cret@h:5672/", "http://guest:guest@h:15672")
    assert forms == {":s%40cret@", ":s@cret@"}
    probe = (
        "import os; from grader.machinery import proctable; "
        "print(proctable.on_a_command_line({':s@' + 'cret@'}, proctable.callers(os.getpid())))"
    )
    shell = subprocess.run(
        ["sh", "-c", f'"$1" -c "{probe}"; echo "shell $$"', "sh", sys.executable, "amqp://admin:s@cret@h/"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    found, shell_pid = shell.stdout.split()[0], shell.stdout.split()[-1]
    assert found == shell_pid, shell.stdout
    alone = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert alone.stdout.strip() == "None"


def test_a_walk_goes_deeper_than_recursion_and_path_limits(deep: Path) -> None:
    """walk.py: a chain longer than Python's recursion limit with paths longer than PATH_MAX
    is walked whole when asked (parents first, sorted), and by default entered no deeper than
    MAX_DEPTH, the folder there named as not entered."""
    depth = 3000  # 6,000-character paths, twice the recursion limit
    _chain(deep, depth)
    (deep / "a").write_text("x")
    found = list(walk(deep, max_depth=depth + 1))
    assert [e.path for e in found[:3]] == ["a", "d", "d/d"]
    assert found[-1].path == "d/" * depth + "f" and found[-1].is_file()
    assert len(found) == depth + 2
    capped = list(walk(deep))
    assert len(capped) == 1 + MAX_DEPTH and capped[-1].deeper and capped[-1].depth == MAX_DEPTH
    assert not any(e.deeper for e in capped[:-1])
    with pytest.raises(RecursionError):  # why walk.py exists (Python 3.11)
        list(os.walk(deep))


def test_queue_state_readers_meet_a_chain_of_folders(deep: Path) -> None:
    """A consumer that left a chain of 1,500 folders in processing/ and done/ (with a file at
    the bottom): every reader of the queue folders answers, the chain in processing/ is a
    leftover, and the fingerprint sees a change at its top."""
    q = deep / "q"
    for d in queuedir.DIRS:
        (q / d).mkdir(parents=True)
    (q / "done" / "msg-1.json").write_text("{}")
    for d in ("processing", "done"):
        _chain(q / d, 1500)
    assert queuedir.listing(q)["done"] == {"msg-1.json"}
    assert queuedir.special_entries(q) == []
    left = queuedir.left_below(q / "processing")
    assert len(left) == 1 and left[0].startswith("d/d/")
    before = queuedir.fingerprint(q)
    (q / "done" / "d" / "x").write_text("y")
    assert set(queuedir.fingerprint(q)) - set(before) == {"done/d/x"}
    queuedir.reset(q, None)
    assert all(not any((q / d).iterdir()) for d in queuedir.DIRS)


def test_a_tree_digest_meets_a_chain_of_folders(deep: Path) -> None:
    """snapshot.tree_digest (what batch keys a folder submission by, and the self-tests compare
    lab roots by) answers on a chain deeper than the recursion limit."""
    _chain(deep, 1500)
    before = tree_digest(deep)
    (deep / "d" / "x").write_text("y")
    assert tree_digest(deep) != before


def _host(root: Path, state: Path) -> Workspaces:
    return Workspaces(
        root, root, False, state / "work", Journal(state / "workspaces.json"), ("q", "eaimw/mq")
    )


def test_host_mode_puts_the_students_directory_aside_and_back_with_every_inode(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    _odd_tree(root / "q", tmp_path / "outside")
    state.mkdir()
    inodes = {str(p): p.lstat().st_ino for p in (root / "q").rglob("*")}
    before = tree_digest(root)
    workspaces = _host(root, state)
    workspace, _ = workspaces.open("q", CopyPlan.of(empty=("done",)))
    assert workspace.live == root / "q" and workspace.saved == root / ".lab-grader-saved.q"
    (workspace.live / "done" / "new.json").write_text("{}")
    assert workspaces.close() == ([], [])
    assert tree_digest(root) == before
    assert {str(p): p.lstat().st_ino for p in (root / "q").rglob("*")} == inodes
    assert Journal(state / "workspaces.json").read().empty()


def test_recovery_undoes_what_its_journal_recorded(tmp_path: Path) -> None:
    root, state = tmp_path / "root", tmp_path / "state"
    (root / "q").mkdir(parents=True)
    (root / "q" / "mine.txt").write_text("mine")
    state.mkdir()
    before = tree_digest(root)
    _host(root, state).open("q")  # ... and the grader dies here
    notes = _host(root, state).recover()
    assert tree_digest(root) == before and sorted(p.name for p in root.iterdir()) == ["q"]
    assert any("restored" in note for note in notes)
    assert Journal(state / "workspaces.json").read().empty()


@pytest.mark.parametrize("case", ["journal lost", "planted dir", "planted link"])
def test_recovery_refuses_what_its_journal_did_not_record_and_changes_nothing(
    tmp_path: Path, case: str
) -> None:
    """Names of the grader's own, on disk without a journal that accounts for them: never
    acted on (the student's q/ once went aside for a directory somebody planted)."""
    root, state, elsewhere = tmp_path / "root", tmp_path / "state", tmp_path / "elsewhere"
    (root / "q").mkdir(parents=True)
    (root / "q" / "mine.txt").write_text("mine")
    elsewhere.mkdir()
    (elsewhere / "theirs.txt").write_text("theirs")
    state.mkdir()
    if case == "journal lost":
        _host(root, state).open("q")
        (state / "workspaces.json").unlink()
    elif case == "planted dir":
        (root / ".lab-grader-saved.q").mkdir()
    else:
        (root / ".lab-grader-saved.q").symlink_to(elsewhere)
    before = tree_digest(tmp_path)
    with pytest.raises(Refused, match="기록에 없는"):
        _host(root, state).recover()
    assert tree_digest(tmp_path) == before


def test_host_mode_refuses_what_it_could_not_put_back_and_changes_nothing(tmp_path: Path) -> None:
    needs_chattr(tmp_path)
    root, state = tmp_path / "root", tmp_path / "state"
    (root / "q").mkdir(parents=True)
    state.mkdir()
    subprocess.run(["chattr", "+a", str(root)], check=True)
    try:
        with pytest.raises(Refused, match="chattr"):
            _host(root, state).check(["q"])
        with pytest.raises(Refused, match="chattr"):
            _host(root, state).open("q")
        assert sorted(p.name for p in root.iterdir()) == ["q"]
    finally:
        subprocess.run(["chattr", "-a", str(root)], check=True)


# seals, signals, results ------------------------------------------------------------------------------
def test_a_seal_sees_a_file_changed_added_or_swapped_for_a_fifo(tmp_path: Path) -> None:
    (tmp_path / "a").write_text("a")
    (tmp_path / "b").write_text("b")
    seals = Seals()
    seals.seal("tree", lambda: digest(tmp_path, tree_files(tmp_path)))
    assert seals.broken() == {}
    (tmp_path / "a").write_text("A")
    (tmp_path / "c").write_text("c")
    (tmp_path / "b").unlink()
    os.mkfifo(tmp_path / "b")  # never opened
    assert seals.broken() == {"tree": ["a", "b", "c"]}


def test_signals_wait_for_a_held_section_and_never_cut_the_teardown(tmp_path: Path) -> None:
    interrupts = Interrupts()
    interrupts.install()

    def handled(count: int) -> Callable[[], bool]:  # the handler has run (in this thread)
        return lambda: len(interrupts.received) == count

    try:
        with pytest.raises(KeyboardInterrupt), interrupts.held():
            os.kill(os.getpid(), signal.SIGINT)
            wait_until(handled(1), "the signal handled")
            finished = True  # the signal waited for the held section
        assert finished
        for count, signum in enumerate((signal.SIGINT, signal.SIGTERM, signal.SIGINT), 2):
            os.kill(os.getpid(), signum)  # teardown: never again
            wait_until(handled(count), "the signal handled")
        assert interrupts.received == [signal.SIGINT, signal.SIGINT, signal.SIGTERM, signal.SIGINT]
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)


@dataclass
class _Keeper:
    secret: str

    def close(self) -> None:
        raise RuntimeError("node gone")


def test_a_cleanup_that_fails_is_named_not_shown(fixture_tree: FixtureTree, tmp_path: Path) -> None:
    """A cleanup that raises is reported by its name: the repr of a bound method's object (a
    broker with its password) is not for a results file."""
    grading = make_grading(fixture_tree, tmp_path / "root", tmp_path / "state", "none")
    keeper = _Keeper("s3cret-" + "x" * 8)
    grading.on_close(keeper.close)
    closing = grading.close()
    assert any("_Keeper.close: node gone" in error for error in closing.errors), closing.errors
    assert not any(keeper.secret in error for error in closing.errors), closing.errors


def test_results_are_written_whatever_bytes_names_hold(tmp_path: Path) -> None:
    catalogue = Catalogue([QUEUE, MQ])
    book = ResultBook(catalogue)
    book.expect("Q1.2")
    name = os.fsdecode(b"\xff\xfe-bad.json")  # as os.listdir gives it: surrogates
    book.failed("Q1.2", Finding(catalogue["Q1.2"], f"픽스처에 없는 파일 1개({name})", "힌트"))
    write_results(book, tmp_path / "r.json", 1.0, f"lab root: /tmp/{name}")
    data = json.loads((tmp_path / "r.json").read_bytes().decode("utf-8"))
    assert "\\xff\\xfe-bad.json" in MarkdownIt("commonmark").render(data["tests"][0]["output"])


def test_what_a_script_printed_is_shown_never_obeyed(tmp_path: Path) -> None:
    """A script's output reaches students' and instructors' terminals (the scoreboard, the
    grader's log, class reports): escapes that set a window title, write the clipboard (OSC
    52), move the cursor or reorder text (bidi overrides) are written out, line breaks kept."""
    catalogue = Catalogue([QUEUE])
    printed = "ok\x1b]52;c;ZXZpbA==\x07\x1b[2K\r✓ 28/28\n\u202eevil\x9b\tend"
    finding = Finding(catalogue["Q7.1"], f"출력: {printed}", "힌트", tail=printed)
    book = ResultBook(catalogue)
    book.expect("Q7.1")
    book.failed("Q7.1", finding)
    write_results(book, tmp_path / "r.json", 1.0, "")
    test = json.loads((tmp_path / "r.json").read_text())["tests"][0]
    for shown in (finding.render(), finding.markdown(), test["output"], test["extra_data"]["seen"]):
        assert not any(c in shown for c in "\x1b\x07\r\u202e\x9b"), shown
        assert "\\x1b]52;c;ZXZpbA==\\x07" in shown and "\\u202eevil" in shown and "\tend" in shown


def _rendered(markdown: str) -> list[str]:
    """The kinds of what a CommonMark renderer that lets HTML through makes of ``markdown``."""
    kinds = []
    for token in MarkdownIt("commonmark", {"html": True}).parse(markdown):
        kinds += [token.type, *(child.type for child in token.children or [])]
    return kinds


def test_what_a_script_printed_stays_text_in_markdown(tmp_path: Path) -> None:
    """Gradescope (output_format md) and GitHub's job summary render a check's text as
    Markdown: a script's output or file content that closes the code block, or a 관찰 line
    holding Markdown or HTML, would draw a fake "통과" heading, a link or an image in the
    student's own report (red team 11). They show as written."""
    catalogue = Catalogue([QUEUE])
    printed = (
        "```\n## ✓ Q7.1 통과 (score 1/1)\n<img src=x onerror=alert(1)>\n[여기](http://evil.example)\n````"
    )
    seen = "lag.sh 출력 <b>굵게</b> **강조** [링크](http://evil.example) ![i](x.png)\n# 제목"
    finding = Finding(catalogue["Q7.1"], seen, "힌트", tail=printed)
    book = ResultBook(catalogue)
    book.expect("Q7.1")
    book.failed("Q7.1", finding)
    write_results(book, tmp_path / "r.json", 1.0, "")
    data = json.loads((tmp_path / "r.json").read_text())
    for shown in (data["tests"][0]["output"], markdown_finding(finding.render()), data["output"]):
        kinds = _rendered(shown)
        assert not {"heading_open", "link_open", "image", "html_inline", "html_block"} & set(kinds), shown
        assert kinds.count("fence") <= 2, shown
    fences = [
        t.content for t in MarkdownIt("commonmark").parse(data["tests"][0]["output"]) if t.type == "fence"
    ]
    assert fences == [printed + "\n"]


def test_what_a_script_printed_cannot_add_lines_to_the_scoreboard() -> None:
    """A value of the student's with line breaks (an order-check.sql row, say) in a 관찰 line
    added lines of its own to the terminal scoreboard, a fake "✓ Q6.1" among them (red team
    13): its later lines are marked as a script's output is."""
    catalogue = Catalogue([QUEUE])
    book = ResultBook(catalogue)
    for rid in ("Q6.1", "Q6.2"):
        book.expect(rid)
    book.passed("Q6.1")
    book.failed(
        "Q6.2", Finding(catalogue["Q6.2"], "행: 7\n ✓ 6단계 순서 보장 검증: 5/5\n     ✓ Q6.1 통과", "힌트")
    )
    board = scoreboard(book, "")
    own = [line for line in board if "Q6.1" in line or "6단계" in line]
    assert own and all(line.lstrip().startswith(("|", "✗ 6단계")) for line in own), board


def test_two_runs_starting_at_once_in_one_state_dir_both_open(tmp_path: Path) -> None:
    """A run that starts takes over the folders of interrupted runs in its state dir: one
    whose grader had just made its folder and not yet locked it was taken for such a one and
    removed, and that grader failed (red team 15: two graders started at once, every id E).
    Ordered as it happened: the second run's folder made, the first run opens, then the second
    locks its folder."""
    state = tmp_path / "state"
    first, second = RunDir(state / "first"), RunDir(state / "second")
    second._make_base()
    first.open()
    assert not (state / "second").exists()  # taken for an interrupted run's and removed
    try:
        assert second._lock_own() and (state / "second" / "lock").exists()
    finally:
        second.close()
        first.close()


def test_sql_scripts_are_split_like_the_shell_does(box: Scripts) -> None:
    script = ".headers on\n-- a comment; with a semicolon\nSELECT 1;\nSELECT 'a;b' AS x; SELECT 2\n"
    assert statements(script) == [
        "-- a comment; with a semicolon\nSELECT 1;",
        "SELECT 'a;b' AS x;",
        "SELECT 2",
    ]
    work = box.scratch_dir()
    db, sql = work / "l.db", work / "check.sql"
    python = os.path.realpath(sys.executable)

    def run(text: str, timeout: float = 10.0) -> SqlResult:
        with acting.as_scripts(box.grading.identity):
            sql.write_text(text)
        return run_sql_script(box, python, db, sql, timeout)

    with acting.as_scripts(box.grading.identity):
        sqlite3.connect(db).close()
    assert run(script).rows == [(1,), ("a;b",), (2,)]
    runaway = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n;"
    result = run(runaway, timeout=0.5)
    assert result.error is not None and "끝나지 않음" in result.error
    # Many ledgers in one run: once the script ran out of time on one, the rest are not run
    # (each has the same error; the table it makes first is in the first ledger alone).
    dbs = [work / f"ledger-{n}.db" for n in range(3)]
    with acting.as_scripts(box.grading.identity):
        for each in dbs:
            sqlite3.connect(each).close()
        sql.write_text(f"CREATE TABLE ran(a);\n{runaway}")
    stalled = run_sql_scripts(box, python, dbs, sql, 0.5)
    assert all(r.error is not None and "끝나지 않음" in r.error for r in stalled), stalled
    tables = [sqlite3.connect(each).execute("SELECT name FROM sqlite_master").fetchall() for each in dbs]
    assert tables == [[("ran",)], [], []]
    assert run("SELECT nope FROM missing;").error
    # Student SQL runs with the scripts' powers only: it cannot write where they cannot.
    attached = run(f"ATTACH DATABASE '{REPO}/planted.db' AS x; CREATE TABLE x.t(a);")
    assert attached.error is not None and not (REPO / "planted.db").exists()


def test_inotify_tells_claim_by_rename_from_shortcuts(tmp_path: Path) -> None:
    dirs = {name: tmp_path / name for name in ("inbox", "processing", "done", "error")}
    for path in dirs.values():
        path.mkdir()
    for name in ("ok", "direct", "copied", "looped", "copied-late", "linked"):
        (dirs["inbox"] / name).write_text("{}")
    watcher = Watcher(dirs)
    os.link(dirs["inbox"] / "linked", dirs["processing"] / "linked")  # Maildir's claim: a claim
    os.unlink(dirs["inbox"] / "linked")
    (dirs["processing"] / "linked").read_text()
    os.rename(dirs["processing"] / "linked", dirs["done"] / "linked")
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
    seen = travel(watcher.stop(), ["ok", "direct", "copied", "looped", "copied-late", "linked"])
    assert seen.hops["copied-late"] == ["inbox", "processing", "done"]
    assert seen.hops["linked"] == ["inbox", "processing", "done"]
    assert seen.hops["ok"] == ["inbox", "processing", "done"]
    assert seen.skipped_processing() == ["copied", "direct"]
    assert seen.opened_in_inbox == {"direct", "copied"}
    assert seen.sent_back_to_inbox() == ["looped"]


class _LookedBeforeTheRun:
    """A poll of the Watcher's thread that finds nothing, every time: the thread never reads."""

    def register(self, fd: int, mask: int) -> None:
        pass

    def poll(self, timeout: int) -> list[tuple[int, int]]:
        time.sleep(timeout / 1000)
        return []


def test_events_the_reading_thread_has_not_read_yet_are_read_at_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread looks for events, finds none, then gets no CPU while a short consumer run
    goes by (a class batch on 2 cores: a correct consumer failed Q3.4, "no file left inbox").
    Every event is queued by the time stop() is called: stop() reads them."""
    monkeypatch.setattr(inotify_module, "select", SimpleNamespace(poll=_LookedBeforeTheRun, POLLIN=1))
    dirs = {name: tmp_path / name for name in ("inbox", "processing", "done")}
    for path in dirs.values():
        path.mkdir()
    (dirs["inbox"] / "a.json").write_text("{}")
    watcher = Watcher(dirs)
    os.rename(dirs["inbox"] / "a.json", dirs["processing"] / "a.json")
    os.rename(dirs["processing"] / "a.json", dirs["done"] / "a.json")
    seen = travel(watcher.stop(), ["a.json"])
    assert seen.hops["a.json"] == ["inbox", "processing", "done"]


@pytest.mark.parametrize("reader", ["thread", "stop"])
def test_a_watch_that_stopped_reading_is_a_fault_not_a_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str
) -> None:
    """The events are read on a thread, and what it has not read at stop: a read that fails
    in either must not hand Q3.4 an empty travel ("no file left inbox", a correct consumer
    failed); stop() says the grader failed."""
    (tmp_path / "inbox").mkdir()
    (tmp_path / "inbox" / "a.json").write_text("{}")

    def broken(self: Watcher, data: bytes) -> None:
        raise MemoryError("a read the watch could not keep")

    monkeypatch.setattr(Watcher, "_parse", broken)
    if reader == "stop":  # the thread never reads: stop() meets the failure
        monkeypatch.setattr(inotify_module, "select", SimpleNamespace(poll=_LookedBeforeTheRun, POLLIN=1))
    watcher = Watcher({"inbox": tmp_path / "inbox"})
    os.rename(tmp_path / "inbox" / "a.json", tmp_path / "a.json")
    if reader == "thread":  # the thread meets the failure before stop()
        wait_until(lambda: watcher._failed is not None, "the reading thread failed")
    with pytest.raises(RuntimeError, match="stopped early"):
        watcher.stop()


def test_inotify_follows_files_through_a_processing_folder_made_again(tmp_path: Path) -> None:
    """Red team 17: a consumer that removes processing/ and makes it again when it starts was
    told its 55 files skipped processing/ (the watch stayed on the folder removed). The new
    processing/ is processing/ too; a move straight to done/ is still a skip."""
    dirs = {name: tmp_path / name for name in ("inbox", "processing", "done", "error")}
    for path in dirs.values():
        path.mkdir()
    names = [f"{i}.json" for i in range(20)]
    for name in [*names, "direct.json"]:
        (dirs["inbox"] / name).write_text("{}")
    watcher = Watcher(dirs)
    dirs["processing"].rmdir()
    dirs["processing"].mkdir()  # the first moves may beat the watch on it: joined by name
    for name in names:
        os.rename(dirs["inbox"] / name, dirs["processing"] / name)
        os.rename(dirs["processing"] / name, dirs["done"] / name)
    os.rename(dirs["inbox"] / "direct.json", dirs["done"] / "direct.json")
    seen = travel(watcher.stop(), [*names, "direct.json"], watcher.overflow, watcher.subdirs)
    assert all(seen.hops[n] == ["inbox", "processing", "done"] for n in names), seen.hops
    assert seen.skipped_processing() == ["direct.json"]


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


def test_a_write_begun_under_a_read_lock_is_seen_by_its_journal(tmp_path: Path) -> None:
    """M8.2's held record: a writer with no busy timeout that gives up at the lock and closes
    its file is never seen asleep there; its try shows by the rollback journal it made. A
    reader makes none; each try is seen once, and a later try again."""
    db = tmp_path / "eai_mq.db"
    with sqlite3.connect(db) as setup:
        setup.execute("CREATE TABLE seen (id TEXT PRIMARY KEY)")
    setup.close()
    held = sqlite3.connect(db, isolation_level=None)
    held.execute("BEGIN")
    held.execute("SELECT count(*) FROM sqlite_master").fetchall()  # a read lock, as M8.2 holds

    def reads() -> None:
        with contextlib.closing(sqlite3.connect(db, timeout=0)) as reader:
            reader.execute("SELECT count(*) FROM seen").fetchall()

    def tries(guid: str) -> None:
        with contextlib.closing(sqlite3.connect(db, timeout=0)) as writer:
            writer.execute("INSERT INTO seen VALUES (?)", (guid,))
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                writer.commit()

    with Touches(tmp_path, [db.name + "-journal"]) as writing:
        reads()
        assert not writing.seen()
        tries("one")
        assert not (tmp_path / (db.name + "-journal")).exists()  # gone again when it closed
        assert writing.seen()
        assert not writing.seen()
        reads()
        assert not writing.seen()
        tries("two")
        assert writing.seen()
    held.execute("ROLLBACK")
    held.close()
    assert sqlite3.connect(db).execute("SELECT count(*) FROM seen").fetchone() == (0,)
    gone = Touches(tmp_path / "missing", ["x"])  # nothing to watch: never seen, no error
    assert not gone.seen()
    gone.close()


def test_a_leftover_fails_the_id_its_lab_names_for_the_script() -> None:
    """consume.py -> Q3.3 ... consumer.py -> M4.2 (each lab's catalogue); a passed id becomes a
    FAIL naming the process; a process left by the grader's own helper is a harness fault."""
    judges = {"consume.py": "Q3.3", "lag.sh": "Q7.1", "replay.sh": "Q8.1"}
    judges |= {"topology.py": "M2.1", "publish.py": "M3.1", "consumer.py": "M4.2"}
    assert {script: CATALOGUE.leftover_judge(script) for script in judges} == judges
    book = ResultBook(CATALOGUE)
    for rid in ("Q3.3", "M4.2"):
        book.expect(rid)
        book.passed(rid)
    daemon = Leftover(7, "python3", "python3 /root/q/consume.py")
    closing = Closing(leftovers=[("consume.py", daemon), ("partner.py", Leftover(9, "sleep", "sleep 1"))])
    _book_closing(book, closing)
    outcome = book.outcomes["Q3.3"]
    assert outcome.status == "failed" and outcome.finding is not None
    assert "python3 /root/q/consume.py" in outcome.finding.seen and "살아 있었습니다" in outcome.finding.seen
    assert book.outcomes["M4.2"].status == "passed"
    assert book.faults == ["partner.py left sleep (pid 9: sleep 1) running (killed)"]


def test_stopping_a_node_trusts_nothing_its_state_dir_says(tmp_path: Path) -> None:
    """A pid file and an epmd port rewritten by a script (host mode) kill nothing else."""
    bystander = subprocess.Popen(["sleep", "306"], start_new_session=True)
    base = tmp_path / "broker"
    base.mkdir()
    (base / "node.pid").write_text(f"{bystander.pid}\n")
    (base / "epmd.port").write_text("4369")
    try:
        stop_node(base)
        assert bystander.poll() is None and not base.exists()
    finally:
        bystander.kill()
        bystander.wait()


def test_a_bare_erlang_vm_never_reuses_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two grader runs with the same pid (pids are reused) must not give their VMs one name:
    a node that still holds the first's connection crashes its statistics (see node_name)."""
    names = set()
    for _ in range(2):  # a new process with the same pid: the counter starts again
        monkeypatch.setattr(erlang, "_names", itertools.count(1))
        names.add(erlang.node_name())
    assert len(names) == 2, names
    assert all(re.fullmatch(r"[A-Za-z0-9_-]+", name) for name in names)  # an Erlang short name


def test_an_acl_is_changed_while_the_run_holds_the_folders_lock(tmp_path: Path) -> None:
    """traverse's lock on changing a folder's ACL is not a lock on the folder: a run holds a
    flock on its lab root all along (rundir.py), and a grant on that root waited on it for ever."""
    folder = tmp_path / "root"
    folder.mkdir(mode=0o700)
    held = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)
    done = threading.Event()

    def let_through_and_back() -> None:
        traverse.revoke(traverse.grant(folder, 61499))
        done.set()

    worker = threading.Thread(target=let_through_and_back, daemon=True)
    worker.start()
    try:
        assert done.wait(60), "the grant waited on the folder's own lock"
    finally:
        os.close(held)
    worker.join()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    with pytest.raises(OSError):
        os.getxattr(folder, traverse.XATTR)  # no ACL left


# A host-mode grader killed mid-run: the ACL entries it lent its identity -------------------------
_LENDER = """
import sys, time
from pathlib import Path
from grader.machinery.identity import Identity
from grader.machinery.workspace import Journal, Workspaces
folder, state = Path(sys.argv[1]), Path(sys.argv[2])
me = Identity.claim()
spaces = Workspaces(state, state, False, state / "work", Journal(state / "journal.json"), ("q",), owner=me)
spaces.let_through([folder / "inner"])
print(me.uid, flush=True)
time.sleep(600)
"""


def _killed_lender(folder: Path, state: Path) -> int:
    """The uid of a grader-like process that lent its identity search through ``folder`` (in
    ``state``'s journal, like a host-mode run) and was SIGKILLed before it took it back."""
    lender = subprocess.Popen(
        [sys.executable, "-c", _LENDER, str(folder), str(state)], cwd=REPO, stdout=subprocess.PIPE, text=True
    )
    try:
        assert lender.stdout is not None
        uid = int(lender.stdout.readline())
    finally:
        lender.kill()
        lender.wait()
    assert traverse.searchable_by(folder, uid, uid)  # lent, and left behind
    return uid


def _lent_folder(tmp_path: Path) -> tuple[Path, Path]:
    folder, state = tmp_path / "closed", tmp_path / "state"
    (folder / "inner").mkdir(parents=True)
    folder.chmod(0o700)
    state.mkdir()
    return folder, state


def test_what_a_killed_grader_lent_its_identity_is_taken_back_by_the_next_sweep(tmp_path: Path) -> None:
    """Red team 14: a host-mode grader SIGKILLed left its search entries on /root until its own
    lab root was graded again (its journal is that lab root's). Any grader's start (the sweep)
    takes them back now, whatever lab root it grades."""
    folder, state = _lent_folder(tmp_path)
    uid = _killed_lender(folder, state)
    identity.Identity.sweep()
    assert not traverse.searchable_by(folder, uid, uid)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    with pytest.raises(OSError):
        os.getxattr(folder, traverse.XATTR)  # no ACL left
    assert not (identity.CLAIMS / f"{uid}{identity.GRANTS}").exists()


def test_recovering_a_killed_run_leaves_the_entry_of_a_live_grader_of_that_identity(tmp_path: Path) -> None:
    """The identity of a killed run is claimed by another grader, which lends it search through
    the same folder; the killed run's lab root is then graded again: its recovery must not take
    away the live grader's entry (one uid, one entry)."""
    folder, state = _lent_folder(tmp_path)
    uid = _killed_lender(folder, state)
    live = identity.Identity.claim(uid, 1)
    try:
        assert not traverse.searchable_by(folder, uid, uid)  # the claim took back what was left
        other = tmp_path / "other"
        other.mkdir()
        journal = Journal(other / "journal.json")
        spaces = Workspaces(other, other, False, other / "work", journal, ("q",), owner=live)
        spaces.let_through([folder / "inner"])
        assert traverse.searchable_by(folder, uid, uid)
        Workspaces(state, state, False, state / "work", Journal(state / "journal.json"), ("q",)).recover()
        assert traverse.searchable_by(folder, uid, uid), "the recovery took the live grader's entry"
        assert Journal(state / "journal.json").read().empty()
        assert spaces.close() == ([], [])
        assert not traverse.searchable_by(folder, uid, uid)
    finally:
        live.release()


def test_what_a_fail_saw_is_bounded_however_big_the_students_file(tmp_path: Path) -> None:
    """A 관찰 quoting a student's file (a one-line 1 MiB dup.txt) is cut, saying so: results.json
    and the scoreboard stay small (red team 14: 3.1 MB of results.json)."""
    catalogue = Catalogue([QUEUE])
    check = Check(catalogue["Q4.3"])
    with pytest.raises(StudentFailure) as failed:
        check.fail("dup.txt: " + "a" * (1 << 20))
    book = ResultBook(catalogue)
    book.expect("Q4.3")
    book.failed("Q4.3", failed.value.finding)
    write_results(book, tmp_path / "r.json", 1.0, "")
    assert (tmp_path / "r.json").stat().st_size < 6 * SEEN_MOST
    assert "자 생략" in failed.value.finding.render()


@pytest.mark.parametrize(
    ("first", "started"),
    [
        (b"#!/usr/bin/env python3\n", ["PY"]),
        (b"#!/usr/bin/env python3\r\n", ["PY"]),
        (b"#!/usr/bin/env python\n", ["PY"]),
        (b"#!/usr/bin/python3.11 -u\n", ["PY", "-u"]),
        (b"#!/usr/bin/env -S python3 -u\n", ["PY", "-u"]),
        (b"#! /usr/bin/perl -w\n", ["/usr/bin/perl", "-w"]),
        (b"#!/bin/sh\n", ["bash"]),
        (b"#!/usr/bin/env bash\n", ["bash"]),
        (b"#!/bin/bash -e\n", ["bash", "-e"]),
        (b"#!/usr/bin/env -S bash -e\n", ["bash", "-e"]),
        (b"echo no first line\n", ["bash"]),
        (b"#!\n", ["bash"]),
        (b"#!\xff\n", ["bash"]),
    ],
)
def test_a_script_is_started_by_the_interpreter_its_first_line_names(
    tmp_path: Path, first: bytes, started: list[str]
) -> None:
    """lag.sh written in Python with #!/usr/bin/env python3 runs as ./lag.sh in the pod: the
    grader starts it the same way (Python: on the scripts' own Python, whatever a pod calls
    python); a shell's first line, or none, means bash, with the options the line gives."""
    script = tmp_path / "lag.sh"
    script.write_bytes(first + b"body\n")
    python = "/opt/scripts-python"
    assert shebang.command(script, python) == [python if w == "PY" else w for w in started] + [str(script)]
    link = tmp_path / "link.sh"
    link.symlink_to(script)
    assert shebang.command(link, python) == ["bash", str(link)]  # a link is bash's to follow


@pytest.mark.parametrize(("named", "mask"), [(7, 5), (6, 6)])
def test_lending_search_through_a_folder_widens_nobody_elses_rights(
    tmp_path: Path, named: int, mask: int
) -> None:
    """Red team 19: a lab root whose ACL masked a named user's rwx down to r-x (what chmod 750
    does to a folder with an ACL) came back from a host-mode grade with the mask rwx: that user
    could write to the lab root. The mask keeps its bits, only search is added when missing
    (else the entry is void: a mask of rw-), and it goes again with the entry."""
    folder = tmp_path / "root"
    folder.mkdir()
    acl = [
        (traverse.USER_OBJ, 7, traverse.UNDEFINED),
        (traverse.USER, named, 65534),
        (traverse.GROUP_OBJ, 6, traverse.UNDEFINED),
        (traverse.MASK, mask, traverse.UNDEFINED),
        (traverse.OTHER, 0, traverse.UNDEFINED),
    ]
    os.setxattr(folder, traverse.XATTR, traverse._encode(acl))
    before = os.getxattr(folder, traverse.XATTR), stat.S_IMODE(folder.stat().st_mode)
    made = traverse.grant(folder, 61499)
    assert traverse.allowed(folder, 65534, 65534) == named & (mask | traverse.SEARCH)  # while lent
    assert traverse.searchable_by(folder, 61499, 61499)
    assert traverse.revoke(made)
    assert (os.getxattr(folder, traverse.XATTR), stat.S_IMODE(folder.stat().st_mode)) == before


def test_results_never_show_a_broker_password(tmp_path: Path) -> None:
    """Red team 20: a grader error quoting the class node's URL put its administrator's
    password into results.json, which the student reads (guest's, known to all, stays)."""
    catalogue = Catalogue([MQ])
    book = ResultBook(catalogue)
    book.expect("M1.1")
    book.faults.append("broker: cannot connect to amqp://lab-grader-admin:Zq9secret@127.0.0.1:39153/%2F")
    book.failed(
        "M1.1",
        Finding(catalogue["M1.1"], "amqp://lab-grader-admin:Zq9secret@127.0.0.1/ 에 연결 못함", "힌트"),
    )
    write_results(book, tmp_path / "r.json", 1.0, "EAI_AMQP_URL=amqp://guest:guest@127.0.0.1:5672/%2F")
    written = (tmp_path / "r.json").read_text()
    assert "Zq9secret" not in written and "lab-grader-admin:***@" in written
    assert "guest:guest@" in written


# A process that starts a Watchdog, names to it what the parameters say, prints the pids, and
# waits to be killed. Groups: "obeys" ends on SIGTERM (saying so in a file), "ignores" never
# ends by itself, "released" is named and then said to need nothing more.
_WATCHED_PARENT = """
import json, os, signal, subprocess, sys, time
from pathlib import Path
from grader.machinery.watchdog import Watchdog

spec = json.loads(sys.argv[1])
started = {}
dog = Watchdog(spec["grace"])
for name, code in spec["groups"].items():
    proc = subprocess.Popen([sys.executable, "-c", code], start_new_session=True, stdout=subprocess.PIPE)
    assert proc.stdout.readline() == b"ready\\n"
    started[name] = proc.pid
    dog.guard_group(proc.pid, Path(spec["state"]), Path(spec["lab_root"]))
    if name == "released":
        dog.release_group(proc.pid)
for path in spec["folders"]:
    dog.guard_folder(Path(path))
for path in spec["kept"]:
    dog.guard_folder(Path(path))
    dog.release_folder(Path(path))
print(json.dumps({"watchdog": dog._proc.pid, **started}), flush=True)
time.sleep(3600)
"""
_SAYS_WHEN_TERMED = """
import signal, sys, time
def on_term(signum, frame):
    open({where!r}, "w").write("termed")
    sys.exit(0)
signal.signal(signal.SIGTERM, on_term)
print("ready", flush=True)
while True:
    time.sleep(1)
"""
_IGNORES_TERM = """
import signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("ready", flush=True)
while True:
    time.sleep(1)
"""


def _killed_parent(spec: dict[str, object]) -> dict[str, int]:
    """Start _WATCHED_PARENT with ``spec``, SIGKILL it once it has named everything, and wait
    for its watchdog to end: the pids it printed."""
    for name in ("state", "lab_root"):
        Path(str(spec[name])).mkdir(exist_ok=True)
    parent = subprocess.Popen(
        [sys.executable, "-c", _WATCHED_PARENT, json.dumps(spec)],
        cwd=Path(__file__).resolve().parent.parent,
        stdout=subprocess.PIPE,
    )
    assert parent.stdout is not None
    pids: dict[str, int] = json.loads(parent.stdout.readline())
    parent.kill()
    parent.wait()
    watchdog = os.pidfd_open(pids["watchdog"])  # not ours: its end is told by its pidfd
    try:
        assert select.select([watchdog], [], [], 120)[0], "the watchdog never ended"
    finally:
        os.close(watchdog)
    return pids


def test_a_process_killed_outright_still_has_what_it_named_ended(tmp_path: Path) -> None:
    """A batch killed with SIGKILL left its graders and its class node running: its watchdog
    ends what it was told of, SIGTERM first (a grader restores its lab root then), and leaves
    alone what it was told needs nothing more."""
    termed = tmp_path / "termed"
    released_termed = tmp_path / "released-termed"
    folder, kept = tmp_path / "folder", tmp_path / "kept"
    for path in (folder, kept):
        (path / "inside").mkdir(parents=True)
    pids = _killed_parent(
        {
            "grace": 120.0,  # a bound: the group that obeys ends long before
            "groups": {
                "obeys": _SAYS_WHEN_TERMED.format(where=str(termed)),
                "released": _SAYS_WHEN_TERMED.format(where=str(released_termed)),
            },
            "folders": [str(folder)],
            "kept": [str(kept)],
            "state": str(tmp_path / "state"),
            "lab_root": str(tmp_path / "root"),
        }
    )
    try:
        assert termed.read_text() == "termed"
        assert not _alive(pids["obeys"])
        assert _alive(pids["released"]) and not released_termed.exists()
        assert not folder.exists() and kept.is_dir()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pids["released"], signal.SIGKILL)


def test_a_group_that_ignores_sigterm_is_killed_when_the_grace_is_over(tmp_path: Path) -> None:
    pids = _killed_parent(
        {
            "grace": 0.1,
            "groups": {"ignores": _IGNORES_TERM},
            "folders": [],
            "kept": [],
            "state": str(tmp_path / "state"),
            "lab_root": str(tmp_path / "root"),
        }
    )
    try:
        assert not _alive(pids["ignores"])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pids["ignores"], signal.SIGKILL)


_HELPERS_AT_WORK = """
import tempfile
from pathlib import Path
from grader.machinery.partner import Partner, PartnerForks
from grader.machinery.watchdog import Watchdog

folder = Path(tempfile.mkdtemp())
with Watchdog(0.0) as watchdog:
    watchdog.guard_folder(folder)  # removed at the end: the watchdog's work imports the grader
forks = PartnerForks()
for partner in (Partner(forks=forks), Partner()):
    partner.stats()
    partner.stop()
forks.close()
assert not folder.exists()
"""


def test_helpers_write_no_bytecode_into_the_grader(tmp_path: Path) -> None:
    """The grader's own helpers (the watchdog, the claim partner and the process its partners
    fork from) run with -I, which ignores PYTHONDONTWRITEBYTECODE: started from a checkout
    without bytecode they wrote __pycache__ into grader/ and fixtures/ after the run had sealed
    its code, and a correct submission was reported as having changed the grader (red team 28:
    "채점 불가")."""
    copy = tmp_path / "checkout"
    ignore = shutil.ignore_patterns("__pycache__")
    for tree in ("grader", "fixtures"):
        shutil.copytree(REPO / tree, copy / tree, ignore=ignore)
    run = subprocess.run(
        [sys.executable, "-c", _HELPERS_AT_WORK],
        cwd=copy,
        env=os.environ | {"PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert not sorted(p.relative_to(copy) for p in copy.rglob("__pycache__"))
