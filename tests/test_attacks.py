"""A student's scripts attack the machine, the grader and the grade (issue 14), in both sandbox
modes: every attack is refused by the kernel, the grade stays the grader's own, and nothing of
the machine's changes.

Each attack is one consume.py: the reference's, which does its work and then attacks. An
attack that succeeds makes consume.py exit 1 (after undoing what it did, so that the attack
run against an older grader leaves the machine as it was), which fails Q3.3: so "every id
passed" is the proof that each attack was refused, seen from inside. What the test can see
from outside (the sentinel files, the results, the processes left) it checks as well.

``LAB_GRADER_ATTACK_REPO=DIR`` grades with the grader of another checkout (an older commit,
to see the attacks succeed there).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import resource
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.config import AMQP_URL_VARIABLE, EXIT_REFUSED
from grader.machinery import traverse
from grader.machinery.rundir import BOX_SCRATCH
from grader.machinery.sandbox import RELAY_MOST
from grader.machinery.snapshot import tree_digest
from grader.machinery.treecopy import remove_tree
from grader.mq.live import HELD_BOUND
from solutions.walkthrough import walk_mq, walk_queue
from tests.conftest import SharedBroker
from tests.grading import REPO, Graded, grade, processes_mentioning
from tests.hold import Hold
from tests.waiting import SAFETY

MODES = ("namespace", "none")
GRADER = Path(os.environ.get("LAB_GRADER_ATTACK_REPO") or REPO)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

# Run by consume.py after its work: ATTACK sets ``won`` to a description when it succeeded.
SHARED = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")  # where every user of a machine may write
PRELUDE = f"""
import ctypes, os, sys, subprocess
libc = ctypes.CDLL(None, use_errno=True)
won = []
SHARED = {SHARED!r}
"""
EPILOGUE = """
if won:
    print("attack succeeded:", won, file=sys.stderr)
    _code = 1
"""


def attacked(root: Path, attack: str) -> None:
    """Make the reference consume.py in ``root`` run ``attack`` after its work."""
    script = root / "q" / "consume.py"
    body = textwrap.indent(PRELUDE + textwrap.dedent(attack) + EPILOGUE, "    ")
    script.write_text(
        script.read_text().replace("    sys.exit(main())", f"    _code = main()\n{body}\n    sys.exit(_code)")
    )


def ipc_left(token: str) -> list[str]:
    """The System V objects and the POSIX message queue the "temporaries" attack makes, if
    they outlived the grader (a queue found is removed)."""
    key = int(token[:7], 16)
    left = []
    for kind in ("shm", "msg", "sem"):
        rows = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
        left += [f"{kind} {key}" for row in rows if int(row.split()[0]) == key]
    libc = ctypes.CDLL(None, use_errno=True)
    name = f"/left-{token}".encode()
    if (fd := libc.mq_open(name, os.O_RDONLY)) >= 0:
        libc.close(fd)
        libc.mq_unlink(name)
        left.append(f"message queue {name!r}")
    return left


@dataclass(frozen=True)
class Outcome:
    graded: Graded
    base: Path
    token: str
    sentinel_empty: bool


def _sentinel() -> Path:
    """A directory of the machine's (root's, readable by all) that no script may write into."""
    path = Path("/var/tmp") / f"lab-grader-attack-{secrets.token_hex(6)}"
    path.mkdir(mode=0o755)
    return path


# the attacks: (name, code); {sentinel}, {repo}, {token}, {results} and {root} are filled in ----
ATTACKS: dict[str, str] = {
    # open_by_handle_at gets round every read-only mount when CAP_DAC_READ_SEARCH is kept: open
    # a directory of the machine's by its handle and plant a file there.
    "handle": """
        class Handle(ctypes.Structure):
            _fields_ = [("size", ctypes.c_uint), ("type", ctypes.c_int), ("bytes", ctypes.c_ubyte * 128)]
        handle, mount = Handle(128), ctypes.c_int()
        if libc.name_to_handle_at(-100, b"/", ctypes.byref(handle), ctypes.byref(mount), 0) == 0:
            fd = libc.open_by_handle_at(os.open("/", os.O_RDONLY), ctypes.byref(handle), os.O_RDONLY)
            if fd >= 0:
                won.append("open_by_handle_at")
                os.close(fd)
        try:
            with open("{sentinel}/planted.pth", "w") as f:
                f.write("import os")
            os.unlink("{sentinel}/planted.pth")
            won.append("planted in a directory of the machine's")
        except OSError:
            pass
    """,
    # core_pattern with a pipe runs any program as root outside every namespace: write back the
    # value it has (the attack only needs to show that it could).
    "proc_sys": """
        try:
            now = open("/proc/sys/kernel/core_pattern").read()
            with open("/proc/sys/kernel/core_pattern", "w") as f:
                f.write(now)
            won.append("/proc/sys/kernel/core_pattern")
        except OSError:
            pass
    """,
    # What the grader runs later: programs, configuration, the standard library, its virtualenv.
    "system_dirs": """
        import sysconfig
        for where in ("/usr/local/bin", "/etc", "/usr/lib", os.path.dirname(os.__file__),
                      sysconfig.get_paths()["purelib"], "{repo}/grader", "{repo}"):
            path = os.path.join(where, "zz-lab-grader-attack-{token}")
            try:
                with open(path, "w") as f:
                    f.write("x")
                os.unlink(path)
                won.append(where)
            except OSError:
                pass
    """,
    # A freezer: pid 1 of the namespace moved into a cgroup of the script's and frozen would hang
    # the grade for good. The attack stops at making the cgroup.
    "cgroup": """
        for base in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified", "/sys/fs/cgroup/freezer"):
            path = os.path.join(base, "lab-grader-attack-{token}")
            try:
                os.mkdir(path)
                os.rmdir(path)
                won.append(base)
            except OSError:
                pass
    """,
    # Cheating by reading: the reference solutions, the grader's checks and state, the other
    # working copy of q/ (a lane) and other scenarios' inputs.
    "reading": """
        run = os.path.dirname(os.path.dirname(os.environ["EAI_MQ_DB"]))
        for path in ("{repo}/solutions/queue/consume.py", "{repo}/grader/queue/test_step3_consumer.py",
                     os.path.join(os.path.dirname(run), "workspaces.json"),
                     os.path.join(run, "work", "lanes", "lane-1", "q", "consume.py")):
            try:
                open(path).read(1)
                won.append(path)
            except OSError:
                pass
        try:
            boxes = os.listdir(os.path.dirname(os.environ["EAI_MQ_DB"]))
            if len(boxes) > 1:  # the box's own scratch, and others'
                won.append(f"other scenarios' scratch: {{boxes}}")
        except OSError:
            pass
    """,
    # Another process's memory and descriptors: the keeper that reports on the script.
    "ptrace": """
        PTRACE_ATTACH = 16
        parent = os.getppid()
        if libc.ptrace(PTRACE_ATTACH, parent, None, None) == 0:
            won.append("ptrace of its keeper")
            libc.ptrace(17, parent, None, None)
    """,
    # A fork chain with an empty environment, each parent exiting at once, writing over the
    # results and into the student's own q/ once it is back: out of every subtree, found by its
    # identity. It must not outlive the grader.
    "fork_chain": """
        chain = "\\n".join([
            "import os, sys, time",
            "end = time.time() + 120",
            "while time.time() < end:",
            "    for path, text in ((sys.argv[2], '{{\\"score\\": 999}}'), (sys.argv[3], 'x')):",
            "        try:",
            "            with open(path, 'w') as f:",
            "                f.write(text)",
            "        except OSError:",
            "            pass",
            "    time.sleep(0.002)",
            "    if os.fork():",
            "        os._exit(0)",
        ])
        argv = [sys.executable, "-c", chain, "{token}", "{results}", "{root}/q/owned-{token}"]
        subprocess.Popen(argv, env={{}}, start_new_session=True)
    """,
    # inotify instances are counted per user (128 here): scripts that took every one they could
    # would blind the grader's own watch of the queue folders (Q3.4) and fail its scenarios if
    # they counted as the grader's user. Held a moment, while the grade's other scenarios start.
    "inotify": """
        import time
        held = [fd for fd in (libc.inotify_init1(0) for _ in range(1024)) if fd >= 0]
        time.sleep(1)
        for fd in held:
            os.close(fd)
    """,
    # Files left where every user may write (host mode: the machine's own /tmp ...): for the
    # next run given the same identity (another student's grade) to find. Removed with the
    # identity's processes; the test looks for them afterwards.
    "temporaries": """
        for where in SHARED:
            try:
                os.makedirs(f"{{where}}/left-{token}/deeper", exist_ok=True)
                os.mkfifo(f"{{where}}/left-{token}.fifo")
            except OSError:
                pass
        key = int("{token}"[:7], 16)  # System V objects (IPC_CREAT), a POSIX message queue
        libc.shmget(key, 4096, 0o1600), libc.msgget(key, 0o1600), libc.semget(key, 1, 0o1600)
        libc.mq_open(b"/left-{token}", os.O_CREAT | os.O_RDWR, 0o600, None)
    """,
    # A chain of folders deeper than Python's recursion limit and PATH_MAX, in the queue's
    # folders and where every user may write: every reader and remover of the grader's meets it.
    "chain": """
        here = os.path.dirname(os.path.abspath(__file__))
        for where in (f"{{here}}/processing", f"{{here}}/done", "/tmp/left-{token}-chain"):
            os.makedirs(where, exist_ok=True)
            fd = os.open(where, os.O_RDONLY)
            for _ in range(1500):
                try:
                    os.mkdir("c", dir_fd=fd)
                except FileExistsError:
                    pass
                below = os.open("c", os.O_RDONLY, dir_fd=fd)
                os.close(fd)
                fd = below
            os.close(fd)
    """,
    # The machine's loopback: a class's broker, its epmd, the claim partners of mq scenes beside
    # it. A queue lab's scripts need no network (namespace mode: graded apart, below).
    "network": """
        import socket
        try:
            socket.create_connection(("127.0.0.1", {port}), timeout=5).close()
            won.append("a listener of the machine's, 127.0.0.1:{port}")
        except OSError:
            pass
    """,
    # Stopped by itself: a frozen script is a FAIL within its time limit, never a hung grade.
    "stopped": """
        import signal
        if os.environ.get("LAB_GRADER_ATTACK_STOP"):
            os.kill(os.getpid(), signal.SIGSTOP)
    """,
}
# What each attack is expected to fail: nothing (refused) unless named here.
FAILS: dict[str, set[str]] = {
    "fork_chain": {"Q3.3"},  # the chain is a process consume.py left running: killed, and named
}
# Attacks whose processes may also fail other ids: a fork chain runs its scripts' identity up
# against its process limit, so which other run of consume.py finds fork() refused (EAGAIN) is
# a matter of timing. Those ids fail too; none of them may be an error or a pass forged.
MAY_ALSO_FAIL: frozenset[str] = frozenset({"fork_chain"})


# Attacks graded by tests of their own, not in every mode by test_an_attack_from_a_script_is_refused.
APART = ("stopped", "network")


def run_attack(base: Path, fixtures: FixtureTree, name: str, mode: str, port: int = 0) -> Outcome:
    root = base / "root"
    walk_queue(root, fixtures.root)
    token = secrets.token_hex(6)
    sentinel = _sentinel()
    state = base / "state"
    results_path = state.parent / f"{state.name}-results.json"
    code = ATTACKS[name].format(
        sentinel=sentinel, repo=GRADER, token=token, results=results_path, root=root, port=port
    )
    attacked(root, code)
    try:
        graded = grade(root, fixtures.root, state, lab="queue", args=("--sandbox", mode), repo=GRADER)
        empty = not any(sentinel.iterdir())
    finally:
        shutil.rmtree(sentinel, ignore_errors=True)
    return Outcome(graded, base, token, empty)


@pytest.fixture(scope="module")
def attacks(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> Iterator[dict[str, Future[Outcome]]]:
    with ThreadPoolExecutor(max_workers=3) as pool:
        yield {
            f"{name}-{mode}": pool.submit(
                run_attack, workdir(f"attack-{name}-{mode}"), fixture_tree, name, mode
            )
            for name in ATTACKS
            if name not in APART
            for mode in MODES
        }


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", [n for n in ATTACKS if n not in APART])
def test_an_attack_from_a_script_is_refused(
    name: str, mode: str, attacks: dict[str, Future[Outcome]]
) -> None:
    outcome = attacks[f"{name}-{mode}"].result()
    graded = outcome.graded
    assert not graded.errors, graded.explain()
    expected = FAILS.get(name, set())
    if name in MAY_ALSO_FAIL:
        assert graded.not_passed >= expected, graded.explain()
    else:
        assert graded.not_passed == expected, graded.explain()
    assert outcome.sentinel_empty
    assert graded.extra["gradable"] is True and not graded.extra["tampered"], graded.extra
    assert graded.lab_root_unchanged
    assert not processes_mentioning(outcome.token), "a process of the attack outlived the grader"
    assert not [p for t in SHARED for p in Path(t).glob(f"*{outcome.token}*")]
    assert not ipc_left(outcome.token)
    assert not list((outcome.base / "root" / "q").glob("owned-*"))


def test_a_queue_script_reaches_nothing_on_the_machines_network(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """In namespace mode the queue lab's scripts, which need no network, get one of their own
    with nothing in it: a listener on the machine's loopback (here the test's own; in a class,
    the broker, its epmd, the partners of mq scenes graded beside them) is out of their reach.
    (Host mode shares the machine's network: README, What is not promised.)"""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        outcome = run_attack(workdir("attack-network"), fixture_tree, "network", "namespace", port)
    graded = outcome.graded
    assert not graded.errors and not graded.not_passed, graded.explain()
    assert graded.lab_root_unchanged


def run_stopped(base: Path, fixtures: FixtureTree, mode: str) -> tuple[Graded, Path]:
    """The stopped attack graded: (the grade, the lab root)."""
    root = base / "root"
    walk_queue(root, fixtures.root)
    attacked(root, ATTACKS["stopped"])
    script = root / "q" / "consume.py"
    script.write_text(script.read_text().replace('os.environ.get("LAB_GRADER_ATTACK_STOP")', "True"))
    graded = grade(root, fixtures.root, base / "state", lab="queue", args=("--sandbox", mode), repo=GRADER)
    return graded, root


@pytest.fixture(scope="module")
def stopped(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> Iterator[dict[str, Future[tuple[Graded, Path]]]]:
    """Both modes at once: each waits mostly on scripts that never go on."""
    with ThreadPoolExecutor(max_workers=len(MODES)) as pool:
        yield {
            mode: pool.submit(run_stopped, workdir(f"stopped-{mode}"), fixture_tree, mode) for mode in MODES
        }


@pytest.mark.parametrize("mode", MODES)
def test_a_script_that_stops_itself_is_a_fail_not_a_hung_grade(
    mode: str, stopped: dict[str, Future[tuple[Graded, Path]]]
) -> None:
    """SIGSTOP: the script never ends by itself. Its run is a FAIL at its time limit (the
    later runs of the same grade fail fast), the results are written, nothing is left."""
    graded, root = stopped[mode].result()
    assert not graded.errors, graded.explain()
    assert "Q3.3" in graded.not_passed and "강제 종료" in graded.outputs["Q3.3"], graded.explain()
    assert graded.lab_root_unchanged
    assert not processes_mentioning(str(root))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("planted", ["dir", "link"])
def test_a_saved_copy_the_grader_did_not_make_is_refused(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path], mode: str, planted: str
) -> None:
    """A /root/.lab-grader-saved.q no grader of this machine made (a directory, or a link to
    another one): never taken for an interrupted run's saved copy. Nothing changes, exit 77."""
    base = workdir(f"planted-{planted}-{mode}")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "theirs.txt").write_text("another directory\n")
    saved = root / ".lab-grader-saved.q"
    if planted == "dir":
        saved.mkdir()
    else:
        saved.symlink_to(elsewhere)
    before = tree_digest(root), tree_digest(elsewhere)  # the grader's own state dir may change
    graded = grade(
        root, fixture_tree.root, base / "state", lab="queue", args=("--sandbox", mode), repo=GRADER
    )
    assert graded.returncode == EXIT_REFUSED, graded.log[-2000:]
    assert graded.extra["gradable"] is False and "기록에 없는" in graded.extra["refused"], graded.extra
    assert (tree_digest(root), tree_digest(elsewhere)) == before


@pytest.mark.parametrize(
    ("mode", "given", "refused"),
    [("none", "command line", True), ("none", "environment", False), ("namespace", "command line", False)],
)
def test_a_broker_password_on_a_command_line_is_refused_in_host_mode(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path], mode: str, given: str, refused: bool
) -> None:
    """Any user reads any command line in /proc, and host-mode scripts are users of the
    machine: a run whose command line holds the broker administrator's password refuses to
    grade there (exit 77, nothing changed), and says to pass it in the environment, which only
    its own user reads. In a namespace the scripts see no process but theirs."""
    base = workdir(f"password-{mode}-{given.replace(' ', '-')}")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    url = f"amqp://lab-grader-admin:{secrets.token_hex(8)}@127.0.0.1:5672/"
    on_line = given == "command line"
    graded = grade(
        root,
        fixture_tree.root,
        base / "state",
        lab="queue",
        args=("--sandbox", mode, *(("--amqp-url", url) if on_line else ())),
        env={} if on_line else {AMQP_URL_VARIABLE: url},
        repo=GRADER,
    )
    if refused:
        assert graded.returncode == EXIT_REFUSED, graded.log[-2000:]
        assert AMQP_URL_VARIABLE in graded.extra["refused"], graded.extra
        assert graded.lab_root_unchanged
    else:
        assert graded.returncode == 0 and not graded.not_passed, graded.explain()


def test_a_world_writable_original_is_out_of_the_scripts_reach(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """Host mode puts the student's q/ aside while its copy is graded. A tree every user may
    write (chmod -R 777) stays the student's: the scripts' identity cannot even enter it, and
    it comes back as it was, with no ACL of the grader's left on it."""
    base = workdir("world-writable")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    attacked(
        root,
        """
        saved = os.environ["LAB_ROOT"] + "/.lab-grader-saved.q"
        for path in (saved + "/planted.txt", saved + "/schema.csv", saved + "/done"):
            try:
                with open(path, "a") as f:
                    f.write("x")
                won.append(path)
            except OSError:
                pass
        """,
    )
    for path in [root / "q", *(root / "q").rglob("*")]:
        path.chmod(0o777)
    host = ("--sandbox", "none")
    graded = grade(root, fixture_tree.root, base / "state", lab="queue", args=host, repo=GRADER)
    assert not graded.errors and not graded.not_passed, graded.explain()
    assert graded.lab_root_unchanged
    assert not any(os.listxattr(p, follow_symlinks=False) for p in [root / "q", *(root / "q").rglob("*")])


def test_a_world_writable_lab_root_cannot_swap_the_original(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """Host mode: where the folder holding the saved original (here the lab root; eaimw/ for
    the mq lab) is writable by every user (chmod 777), a script could rename the original away
    and put its own in its place (red team 13: the state checks read the fake, the original
    stayed under the script's name). The scripts' identity may rename nothing there while the
    original is aside, nor anywhere above it."""
    base = workdir("swap")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    attacked(
        root,
        """
        lab_root = os.environ["LAB_ROOT"]
        for victim in (".lab-grader-saved.q", "q"):
            try:
                os.rename(lab_root + "/" + victim, lab_root + "/stolen")
                won.append(victim)
            except OSError:
                pass
        try:
            os.mkdir(lab_root + "/planted")
            won.append("planted")
        except OSError:
            pass
        """,
    )
    root.chmod(0o777)
    host = ("--sandbox", "none")
    graded = grade(root, fixture_tree.root, base / "state", lab="queue", args=host, repo=GRADER)
    assert not graded.errors and not graded.not_passed, graded.explain()
    assert graded.lab_root_unchanged
    assert sorted(p.name for p in root.iterdir()) == ["q"]
    assert not os.listxattr(root, follow_symlinks=False)  # the grader's ACL entry is gone again


# Scripts that each stay inside their own limit, run one after another (red team 6): each
# consume.py run moves a file now and then (never "stuck"), each shell script sleeps 9 s of its
# 10. Together they once kept a grade going past batch's 300 s limit: a grader error.
DAWDLING_CONSUME = """
import os, sys, time
q = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
while True:
    names = sorted(os.listdir(os.path.join(q, "inbox")))
    if names:
        os.rename(os.path.join(q, "inbox", names[0]), os.path.join(q, "processing", names[0]))
    time.sleep(1)
"""
SLOW_BEFORE = "sleep 9"
DAWDLING_IDS = {"Q3.3", "Q3.5", "Q3.6", "Q3.7", "Q3.8", "Q7.1", "Q7.2", "Q8.1", "Q8.2", "Q8.3"}


@pytest.mark.parametrize("mode", MODES)
def test_scripts_each_inside_their_limit_cannot_outlast_the_grade(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path], mode: str
) -> None:
    """The scripts of a grade share one budget (here 4 s, from the first script's start):
    every run still going when it is spent, or started after, is stopped as out of time and
    FAILs, so a grade ends however its scripts dawdle. No wall clock is raced: these scripts
    never end by themselves within any budget."""
    base = workdir(f"dawdle-{mode}")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    (root / "q" / "consume.py").write_text(DAWDLING_CONSUME)
    for script in ("lag.sh", "replay.sh"):
        path = root / "q" / script
        path.write_text(path.read_text().replace("set -u\n", f"set -u\n{SLOW_BEFORE}\n", 1))
    before = tree_digest(root)
    graded = grade(
        root,
        fixture_tree.root,
        base / "state",
        lab="queue",
        args=("--sandbox", mode, "--scripts-budget", "4"),
        repo=GRADER,
    )
    assert not graded.errors and graded.extra.get("gradable", True), graded.explain()
    assert graded.not_passed >= DAWDLING_IDS, graded.explain()
    for rid in ("Q7.1", "Q8.1"):
        assert "스크립트가 쓸 수 있는 시간" in graded.outputs[rid], graded.outputs[rid]
    assert tree_digest(root) == before
    assert not processes_mentioning(str(root))


@pytest.mark.parametrize("mode", MODES)
def test_a_path_of_4085_bytes_under_q_is_graded(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path], mode: str
) -> None:
    """Deep folders under q/ (a 4,085-byte path from the lab root): longer than PATH_MAX once
    the working copy sits in the grader's scratch; graded like any tree, and kept."""
    base = workdir(f"deep-{mode}")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    relative = "q"
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        here = os.open("q", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        while len(os.fsencode(str(root))) + 1 + len(relative) + 1 + 250 < 4085:
            name = "d" * 250
            os.mkdir(name, dir_fd=here)
            nxt = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
            os.close(here)
            here, relative = nxt, f"{relative}/{name}"
        last = "f" * (4085 - len(os.fsencode(str(root))) - 1 - len(relative) - 1)
        with open(os.open(last, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=here), "w") as f:
            f.write("deep\n")
        os.close(here)
    finally:
        os.close(fd)
    assert len(os.fsencode(f"{root}/{relative}/{last}")) == 4085
    before = tree_digest(root)
    graded = grade(
        root, fixture_tree.root, base / "state", lab="queue", args=("--sandbox", mode), repo=GRADER
    )
    assert not graded.errors and not graded.not_passed, graded.explain()
    assert tree_digest(root) == before
    shutil.rmtree(root / "q" / ("d" * 250))


@pytest.mark.parametrize("mode", MODES)
def test_a_chain_of_folders_deeper_than_the_descriptor_limit_is_graded(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path], mode: str
) -> None:
    """q/ holding a chain of folders deeper than the grader may hold descriptors open (red
    team 6: 30,000 levels made every id a grader error, "Too many open files", when the
    working copy held two descriptors a level): graded like any tree, and kept."""
    base = workdir(f"chain-{mode}")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    depth = resource.getrlimit(resource.RLIMIT_NOFILE)[0] + 10
    here = os.open(root / "q", os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=here)
        below = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
        os.close(here)
        here = below
    with open(os.open("leaf", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=here), "w") as f:
        f.write("deep\n")
    leaf = os.fstat(here).st_ino
    os.close(here)
    try:
        before = tree_digest(root)
        graded = grade(
            root, fixture_tree.root, base / "state", lab="queue", args=("--sandbox", mode), repo=GRADER
        )
        assert not graded.errors and not graded.not_passed, graded.explain()
        assert tree_digest(root) == before
        here = os.open(root / "q", os.O_RDONLY | os.O_DIRECTORY)
        for _ in range(depth):
            below = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=here)
            os.close(here)
            here = below
        try:
            assert os.fstat(here).st_ino == leaf  # the same folder, not a copy put back
            with open(os.open("leaf", os.O_RDONLY, dir_fd=here)) as f:
                assert f.read() == "deep\n"
        finally:
            os.close(here)
    finally:
        remove_tree(root / "q" / "d")  # too deep for the temporary folders' own clean-up


@pytest.mark.parametrize("mode", MODES)
def test_a_script_using_up_inotify_cannot_blind_the_grader(
    fixture_tree: FixtureTree, tmp_path: Path, mode: str
) -> None:
    """inotify instances are counted per user (128 here), and what runs in a user namespace is
    counted to the namespace's owner too: scripts run as an identity of their own, in a
    namespace the identity owns, so one that takes every instance it can leaves the grader's
    watch (Q3.4) working, and the scripts of a grade beside it theirs."""
    from grader.machinery.inotify import Watcher
    from tests.queue_lab import make_grading

    hold = (
        "import ctypes, os, time\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "held = [fd for fd in (libc.inotify_init1(0) for _ in range(1000)) if fd >= 0]\n"
        "open('holding', 'w').write(str(len(held)))\n"
        "time.sleep(60)\n"
    )
    gradings = [make_grading(fixture_tree, tmp_path / f"r{n}", tmp_path / f"s{n}", mode) for n in (1, 2)]
    try:
        with gradings[0].scripts("hog") as hog, gradings[1].scripts("beside") as beside:
            where = hog.scratch_dir()
            hogging = hog.start([sys.executable, "-c", hold], cwd=where)
            while not (where / "holding").exists():
                assert hogging.running(), hogging.kill()
            watched = tmp_path / "watched"
            watched.mkdir()
            Watcher({"inbox": watched}).stop()  # the grader's own watch: root's instances
            count = "import ctypes; print(ctypes.CDLL(None).inotify_init1(0) >= 0)"
            other = beside.run([sys.executable, "-c", count], cwd=beside.scratch_dir(), timeout=30)
            assert other.stdout.strip() == "True", other
            hogging.kill()
    finally:
        for grading in gradings:
            grading.close()


# consumer.py of the mq reference, but first: messages it takes and never acks (prefetch 0),
# which max-length and max-length-bytes do not count (they count ready messages only).
HOARD_MIB = 24


def _graded_mq_with(
    prefix: str,
    name: str,
    mode: str,
    fixture_tree: FixtureTree,
    shared_broker: SharedBroker,
    workdir: Callable[[str], Path],
) -> tuple[Path, Graded]:
    """The reference's mq lab graded on ``shared_broker`` with ``prefix`` run first in its
    consumer.py; the lab root and the grade."""
    base = workdir(name)
    root = base / "root"
    walk_mq(root, shared_broker.status())
    consumer = root / "eaimw" / "mq" / "consumer.py"
    consumer.write_text(
        consumer.read_text().replace("AMQP_URL = os.environ", prefix + "AMQP_URL = os.environ", 1)
    )
    graded = grade(
        root,
        fixture_tree.root,
        base / "state",
        lab="mq",
        args=(*shared_broker.args, "--sandbox", mode),
        env=shared_broker.env,
        repo=GRADER,
    )
    return root, graded


HOARDING = f"""
def _hoard() -> None:
    where = pika.URLParameters(os.environ["EAI_AMQP_URL"])
    taker = pika.BlockingConnection(where)
    channel = taker.channel()
    channel.queue_declare("hoard")
    channel.basic_qos(prefetch_count=0)
    channel.basic_consume("hoard", lambda *delivered: None)  # never acked
    giver = pika.BlockingConnection(where).channel()
    giver.confirm_delivery()
    for _ in range({HOARD_MIB}):
        giver.basic_publish("", "hoard", b"x" * (1 << 20))
        taker.process_data_events(0)
    while True:  # held until the broker takes them away
        taker.process_data_events(1)


if "--claim" in sys.argv:
    try:
        _hoard()
    except pika.exceptions.AMQPError:
        pass

"""


@pytest.mark.parametrize("mode", MODES)
def test_messages_a_consumer_takes_and_never_acks_cannot_fill_the_node(
    fixture_tree: FixtureTree, shared_broker: SharedBroker, workdir: Callable[[str], Path], mode: str
) -> None:
    """A class shares one node, whose memory alarm blocks every publisher of every grade. A
    consumer that holds 24 MiB of messages unacked in a queue of its own (past
    HELD_BOUND) has its scene's vhost deleted by the grader's guard, and every check reading
    a scene it ran in FAILs saying so; the scenes it did not run in are graded as ever, and
    the node raises no alarm."""
    assert HOARD_MIB << 20 > HELD_BOUND
    root, graded = _graded_mq_with(HOARDING, f"hoard-{mode}", mode, fixture_tree, shared_broker, workdir)
    assert not graded.errors and graded.extra.get("gradable", True), graded.explain()
    assert "M4.1" in graded.not_passed and {"M2.1", "M3.1"}.isdisjoint(graded.not_passed), graded.explain()
    for rid in graded.not_passed:
        assert "쌓아 둠" in graded.outputs[rid], graded.explain()
    assert shared_broker.broker.alarms() == []
    assert not processes_mentioning(str(root))


# A consumer that first opens BARE bare connections to its broker's port (each saying the AMQP
# header, never logging in: no vhost or user limit counts them), then counts those the broker
# answered (Connection.Start: a method frame) and still holds open, then does its work. More
# than RELAY_MOST at once: it could take a shared node's connections from a class (the node
# takes 512).
BARE = 600
BARING = f"""
def _bare() -> int:
    import socket
    import urllib.parse
    port = urllib.parse.urlparse(os.environ["EAI_AMQP_URL"]).port
    held, open_and_answered = [], 0
    for _ in range({BARE}):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"AMQP\\x00\\x00\\x09\\x01")
            held.append(s)
        except OSError:
            pass
    import time
    time.sleep(0.5)
    for s in held:
        s.setblocking(False)
        said = b""
        try:
            while chunk := s.recv(4096):
                said += chunk
        except BlockingIOError:  # all read, and still open
            open_and_answered += said[:1] == b"\\x01"
        except OSError:
            pass
    for s in held:
        s.close()
    while True:  # until the broker answers again (whoever carries them saw them go)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(b"AMQP\\x00\\x00\\x09\\x01")
                if s.recv(1) == b"\\x01":
                    return open_and_answered
        except OSError:
            time.sleep(0.05)


if "--claim" in sys.argv and _bare() > {RELAY_MOST}:
    sys.exit(3)

"""


def test_bare_connections_of_a_scene_cannot_take_the_nodes(
    fixture_tree: FixtureTree, shared_broker: SharedBroker, workdir: Callable[[str], Path]
) -> None:
    """A class shares one node, which takes 512 connections. A consumer that opens 600 bare
    ones (never logging in, so that no vhost's limit counts them) reaches the node through its
    box's own network, which carries RELAY_MOST at once: the node answers no more than those,
    and the grade is the reference's. (Namespace mode; host mode shares the machine's network:
    README, What is not promised.)"""
    root, graded = _graded_mq_with(BARING, "bare", "namespace", fixture_tree, shared_broker, workdir)
    # The attack never won (consumer.py would exit 3), and the scenes beside it reached the node
    # (on the code before, topology.py could not connect: M2.1). The probe makes each consumer
    # start later (600 connections, carried or reset, on a loaded machine), so consumer ids whose
    # clock starts at the process's start are not asserted here: that would race the machine.
    assert not graded.errors, graded.explain()
    assert not [rid for rid in graded.not_passed if "종료 코드 3" in graded.outputs[rid]], graded.explain()
    assert not {rid for rid in graded.not_passed if rid.startswith(("M2.", "M3."))}, graded.explain()
    assert not processes_mentioning(str(root))


TELLING = """
import sys, urllib.parse
_vhost = urllib.parse.unquote(os.environ["EAI_AMQP_URL"].rsplit("/", 1)[-1])
if "consumer" in sys.argv[0]:
    print("scene-names:", _vhost, os.environ["EAI_MQ_DB"])
    sys.exit(1)
"""


def test_a_script_cannot_tell_its_scene_by_a_name(
    fixture_tree: FixtureTree, shared_broker: SharedBroker, workdir: Callable[[str], Path]
) -> None:
    """A consumer that behaves only where it is watched (it acked before its POST except in a
    vhost whose name ended in -kill or -dedup: M4.3, M4.4 and M8.2 passed; red team 11) must
    not learn the scene from what it is given: every scene's vhost, user and EAI_MQ_DB are
    opaque names. Here the consumer prints them and fails, so that each scene's FAIL shows
    them."""
    _, graded = _graded_mq_with(TELLING, "telling", "namespace", fixture_tree, shared_broker, workdir)
    assert not graded.errors, graded.explain()
    told = {
        tuple(line.split()[1:3])
        for output in graded.outputs.values()
        for line in output.splitlines()
        if line.strip().startswith("scene-names:")
    }
    assert len({vhost for vhost, _ in told}) >= 5, graded.explain()  # the consumer's scenes
    for vhost, db in told:
        assert re.fullmatch(r"lab-grader-[0-9]+-[0-9a-f]{12}", vhost), vhost
        assert re.search(r"/[0-9a-f]{12}/[a-z0-9_]{8}/processed\.db$", db), db


@pytest.mark.parametrize("mode", MODES)
def test_the_reference_being_graded_is_nobody_elses_to_read(fixture_tree: FixtureTree, mode: str) -> None:
    """`pytest grader` lays the reference solutions out in its state dir to grade them: no other
    user may read them meanwhile (red team 13: a host-mode script of another grade on the
    machine read both labs' answers there), whatever the state dir's own modes."""
    state = Path(tempfile.mkdtemp(prefix="lab-grader-ref-", dir="/var/tmp"))
    state.chmod(0o755)  # as /var/tmp/lab-grader is
    hold = Hold(state / "hold", ("check",))
    hold.folder.mkdir()
    sandbox = () if mode == "namespace" else ("--sandbox", "none")
    argv = [
        sys.executable, "-m", "pytest", "grader", "-q", "-p", "no:cacheprovider", "--lab", "queue",
        "--fixtures-dir", str(fixture_tree.root), "--state-dir", str(state / "s"), *sandbox,
    ]  # fmt: skip
    grader = subprocess.Popen(
        argv, cwd=GRADER, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ | hold.env()
    )
    try:
        hold.wait("check", alive=lambda: grader.poll() is None)
        # (os.walk passes over what the grader's scenarios move meanwhile)
        answers = [Path(d, "consume.py") for d, _, files in os.walk(state / "s") if "consume.py" in files]
        assert answers, "the reference was not laid out where expected"
        read = [
            str(p)
            for p in answers
            if subprocess.run(
                ["head", "-c", "1", str(p)], user=65534, group=65534, extra_groups=[], capture_output=True
            ).returncode
            == 0
        ]
        assert not read, f"another user read the reference being graded: {read}"
    finally:
        hold.release("check")
        grader.wait(SAFETY)
        shutil.rmtree(state, ignore_errors=True)


def _not_a_folder(root: Path, relative: str, kind: str) -> None:
    """LAB_ROOT/relative made ``kind``: something that is not a folder of the student's work."""
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "file":
        path.write_text("not a folder\n")
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "dangling-link":
        path.symlink_to("nowhere")
    elif kind == "link-to-a-file":
        (root / "target").write_text("x\n")
        path.symlink_to("target")
    elif kind == "link-to-the-machines-root":
        path.symlink_to("/")
    else:
        raise ValueError(kind)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "kind", ["file", "fifo", "dangling-link", "link-to-a-file", "link-to-the-machines-root"]
)
def test_a_q_that_is_not_the_students_folder_is_failed_not_an_error(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path], mode: str, kind: str
) -> None:
    """Red team 17: in host mode a q/ that was a file, a FIFO or a link to nothing or to a file
    made every queue id a grader error (the working copy was made of it); q -> / did so in both
    modes (the copy walked into /proc and met a link it may not read). Whatever stands there,
    the ids FAIL, nothing is an error, and it comes back as it was."""
    base = workdir(f"not-a-folder-{kind}-{mode}")
    root = base / "root"
    root.mkdir()
    _not_a_folder(root, "q", kind)
    graded = grade(
        root, fixture_tree.root, base / "state", lab="queue", args=("--sandbox", mode), repo=GRADER
    )
    assert not graded.errors and graded.extra["gradable"] is True, graded.explain()
    assert {"Q1.1", "Q3.3", "Q7.1", "Q8.1"} <= graded.not_passed, graded.explain()
    assert graded.lab_root_unchanged and not (root / ".lab-grader-saved.q").exists()


@pytest.mark.parametrize("mode", MODES)
def test_an_eaimw_that_is_a_file_is_failed_not_an_error(
    fixture_tree: FixtureTree, shared_broker: SharedBroker, workdir: Callable[[str], Path], mode: str
) -> None:
    """Red team 17: eaimw/ a file (so no eaimw/mq can be there) made every mq id a grader error
    in host mode; the mq ids FAIL like an absent folder's."""
    base = workdir(f"eaimw-file-{mode}")
    root = base / "root"
    root.mkdir()
    _not_a_folder(root, "eaimw", "file")
    graded = grade(
        root,
        fixture_tree.root,
        base / "state",
        lab="mq",
        args=(*shared_broker.args, "--sandbox", mode),
        env=shared_broker.env,
        repo=GRADER,
    )
    assert not graded.errors and graded.extra["gradable"] is True, graded.explain()
    assert {"M1.1", "M2.1", "M4.1"} <= graded.not_passed, graded.explain()
    assert graded.lab_root_unchanged


def test_a_default_acl_on_the_lab_root_leaves_the_copy_the_scripts(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """Red team 19: a lab root with a default ACL (`user::r-x`, say) gave the host-mode working
    copy, made in it, an ACL that left its owner, the scripts' identity, no write: 9 queue ids
    were grader errors. The copy takes nothing from it; the lab root keeps it."""
    base = workdir("default-acl")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    read_only = traverse._encode(
        [
            (traverse.USER_OBJ, 5, traverse.UNDEFINED),
            (traverse.GROUP_OBJ, 5, traverse.UNDEFINED),
            (traverse.OTHER, 5, traverse.UNDEFINED),
        ]
    )
    os.setxattr(root, "system.posix_acl_default", read_only)
    graded = grade(
        root, fixture_tree.root, base / "state", lab="queue", args=("--sandbox", "none"), repo=GRADER
    )
    assert not graded.errors and not graded.not_passed, graded.explain()
    assert graded.lab_root_unchanged
    assert os.getxattr(root, "system.posix_acl_default") == read_only


def test_a_ledger_too_big_for_the_scratch_fails_q6_1_and_is_no_grader_error(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """A ledger.db bigger than a box's scratch cannot be copied there for order-check.sql: Q6.1
    fails saying so, the other ids of step 6 judge the grader's own ledgers (red team 24: a
    ledger of 140 MiB made Q6.1-Q6.4 a grader error)."""
    base = workdir("big-ledger")
    root = base / "root"
    walk_queue(root, fixture_tree.root)
    with contextlib.closing(sqlite3.connect(root / "q" / "ledger.db")) as conn, conn:
        conn.execute("CREATE TABLE attachments (body BLOB)")
        for _ in range((BOX_SCRATCH >> 20) + 8):
            conn.execute("INSERT INTO attachments VALUES (zeroblob(1 << 20))")
    graded = grade(root, fixture_tree.root, base / "state", lab="queue")
    assert not graded.errors, graded.explain()
    assert "Q6.1" in graded.not_passed and "너무 커서" in graded.outputs["Q6.1"], graded.explain()
    assert {"Q6.2", "Q6.3", "Q6.4"}.isdisjoint(graded.not_passed), graded.explain()
