"""Blame is right in the queue lab: a state the student's own tree or process caused is a FAIL
on the id concerned, saying what to fix; never a grader error, never a hang.

Whole grader runs where the harness can save the tree (a ledger that is not SQLite, a ledger
locked by the student's process); in-process runs (tests/queue_lab.py) for special files and
for permissions, which the snapshot of a whole run does not get past yet (issue 8, items 5-6).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from fixtures.tree import FixtureTree
from grader.queue import test_step1_directories as step1
from grader.queue import test_step2_schema as step2
from grader.queue import test_step3_consumer as step3
from grader.queue import test_step4_idempotency as step4
from grader.queue import test_step5_errors as step5
from grader.queue import test_step6_order_check as step6
from grader.queue.catalogue import QUEUE
from grader.queue.lab import QueueLab
from grader.verdict import Missing
from solutions.walkthrough import walk_queue
from tests.grading import REPO, assert_passes_every_id, assert_rejected_on_exactly, grade
from tests.queue_lab import judge, observe

pytestmark = pytest.mark.timeout(300)


def _student_root(fixture_tree: FixtureTree, workdir: Callable[[str], Path], name: str) -> Path:
    root = workdir(name) / "root"
    walk_queue(root, fixture_tree.root)
    return root


def test_ledger_that_is_not_sqlite(fixture_tree: FixtureTree, workdir: Callable[[str], Path]) -> None:
    root = _student_root(fixture_tree, workdir, "not-sqlite")
    (root / "q" / "ledger.db").write_text("msg_id,order_no,seq,amount\n" * 40)
    graded = grade(root, fixture_tree.root, root.parent / "state", lab="queue")
    # The state ids that read the ledger say so; consume.py is judged on a ledger of its own.
    assert_rejected_on_exactly(graded, frozenset({"Q3.1", "Q4.2", "Q6.1"}))
    for rid in ("Q3.1", "Q4.2", "Q6.1"):
        assert "SQLite 데이터베이스 파일이 아님" in graded.outputs[rid], graded.outputs[rid]
    assert "지우고 consume.py 를 다시 돌리세요" in graded.outputs["Q3.1"]


HOLD = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
conn.execute("UPDATE processed SET amount = amount + 1")
print("held", flush=True)
time.sleep(600)
"""


def test_ledger_locked_by_the_students_process(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """A sqlite3 session left open in a transaction: the saved copy is read at its last commit
    and every behaviour run works on a fresh copy of the ledger, so nothing is in the way."""
    root = _student_root(fixture_tree, workdir, "locked")
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(root / "q" / "ledger.db")],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        graded = grade(root, fixture_tree.root, root.parent / "state", lab="queue")
        assert holder.poll() is None  # the student's process was left alone
    finally:
        os.killpg(holder.pid, signal.SIGKILL)
        holder.wait()
    assert_passes_every_id(graded, len(QUEUE.requirements))


def _fifo(path: Path) -> None:
    path.unlink(missing_ok=True)
    os.mkfifo(path)


def _socket(path: Path) -> socket.socket:
    path.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    return sock


# A consumer that keeps its ledger in WAL mode and leaves a FIFO where SQLite keeps the
# ledger's shared memory (ledger.db-shm), taking it away before its own runs (red team 11).
FIFO_AT_SHM = """#!/usr/bin/env python3
import os, json, sqlite3, datetime, sys
root = os.path.join(os.environ.get("LAB_ROOT", "/root"), "q")
for d in ("inbox","processing","done","error"):
    os.makedirs(os.path.join(root,d), exist_ok=True)
_shm = os.path.join(root, "ledger.db-shm")
if os.path.exists(_shm) and not os.path.isfile(_shm):
    os.unlink(_shm)
db = sqlite3.connect(os.path.join(root,"ledger.db"), timeout=60)
db.execute("PRAGMA journal_mode=WAL")
db.execute(
    "CREATE TABLE IF NOT EXISTS processed(msg_id TEXT PRIMARY KEY, order_no TEXT, seq INTEGER,"
    " amount REAL, processed_at TEXT)"
)
db.commit()
while True:
    names = sorted(os.listdir(os.path.join(root,"inbox")))
    if not names: break
    for n in names:
        src = os.path.join(root,"inbox",n); p = os.path.join(root,"processing",n)
        try: os.rename(src,p)
        except FileNotFoundError: continue
        try:
            with open(p,"rb") as f: m = json.loads(f.read().decode("utf-8-sig"))
            if not isinstance(m, dict): raise ValueError
        except Exception:
            os.rename(p, os.path.join(root,"error",n)); continue
        if any(m.get(k) is None for k in ("msg_id","order_no","seq","amount")):
            os.rename(p, os.path.join(root,"error",n)); continue
        row = (str(m["msg_id"]), str(m["order_no"]), m["seq"], m["amount"], str(datetime.datetime.now()))
        db.execute("INSERT OR IGNORE INTO processed VALUES(?,?,?,?,?)", row)
        db.commit()
        os.rename(p, os.path.join(root,"done",n))

db.close()
try: os.unlink(_shm)
except FileNotFoundError: pass
os.mkfifo(_shm)
"""


def test_a_ledger_the_grader_cannot_lock_is_the_consumers_fail(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """Q3.7 holds SQLite's write lock on the ledger the consumer made; a ledger left so that
    SQLite cannot lock it (here: a FIFO as its -shm, once a disk I/O error) is the consumer's
    FAIL, saying so, never a grader error."""
    root = _student_root(fixture_tree, workdir, "fifo-shm")
    (root / "q" / "consume.py").write_text(FIFO_AT_SHM)
    graded = grade(root, fixture_tree.root, root.parent / "state", lab="queue")
    assert not graded.errors, graded.explain()
    assert graded.statuses["Q3.7"] == "failed", graded.explain()
    assert "일반 파일이 아님" in graded.outputs["Q3.7"], graded.outputs["Q3.7"]
    assert graded.lab_root_unchanged


SHUTTING = """
import atexit


def _shut() -> None:  # on the way out: the working copy shut to everyone, its owner too
    root = os.path.dirname(os.path.abspath(__file__))
    for name in ("inbox", "processing", "done", "error", "ledger.db", ""):
        os.chmod(os.path.join(root, name), 0)


atexit.register(_shut)
"""


def test_a_consumer_that_shuts_its_working_copy_fails_alone(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """consume.py ends by chmod 0 on q/, its folders and the ledger (the scripts own their
    working copy): its own ids FAIL; lag.sh and replay.sh, run later on the same working copy
    after the grader has emptied it, are judged as ever (red team 11: they failed with
    "q/ 를 열 수 없음")."""
    root = _student_root(fixture_tree, workdir, "shut")
    consume = root / "q" / "consume.py"
    consume.write_text(
        consume.read_text().replace("from pathlib import Path\n", "from pathlib import Path\n" + SHUTTING, 1)
    )
    graded = grade(root, fixture_tree.root, root.parent / "state", lab="queue")
    assert not graded.errors, graded.explain()
    assert "Q3.3" in graded.not_passed, graded.explain()
    assert all(rid.startswith("Q3.") for rid in graded.not_passed), graded.explain()
    assert graded.lab_root_unchanged


FIFO_AT_JOURNAL = """
import atexit


def _fifo() -> None:  # on the way out: a FIFO where SQLite looks for the ledger's hot journal
    os.mkfifo(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ledger.db-journal"))


atexit.register(_fifo)
"""


@pytest.mark.slow  # a whole grade of a student's tree, its consumer held to its limit (20 s)
def test_a_fifo_beside_the_ledger_is_a_fail_not_a_hung_grade(
    fixture_tree: FixtureTree, workdir: Callable[[str], Path]
) -> None:
    """SQLite opens a database's -journal itself, blocking on a FIFO for ever: consume.py
    leaving one beside the ledger hung the grade, Ctrl-C included (red team 12). The grader
    asks first: consume.py's ids FAIL saying so, and the grade ends."""
    root = _student_root(fixture_tree, workdir, "fifo-journal")
    consume = root / "q" / "consume.py"
    consume.write_text(
        consume.read_text().replace(
            "from pathlib import Path\n", "from pathlib import Path\n" + FIFO_AT_JOURNAL, 1
        )
    )
    graded = grade(root, fixture_tree.root, root.parent / "state", lab="queue", timeout=240)
    assert not graded.errors, graded.explain()
    assert "Q3.5" in graded.not_passed and "일반 파일이 아님" in graded.outputs["Q3.5"], graded.explain()
    assert all(rid.startswith("Q3.") for rid in graded.not_passed), graded.explain()
    assert graded.lab_root_unchanged


def test_special_files_in_the_queue_dirs(lab: QueueLab) -> None:
    _fifo(lab.saved / "inbox" / "msg-9999.json")
    _fifo(lab.saved / "processing" / "stuck.json")
    sock = _socket(lab.saved / "error" / "s.sock")
    try:
        seen = judge("Q1.2", step1.test_Q1_2_every_fixture_file_copied, lab)
        assert seen is not None
        assert (
            "inbox/msg-9999.json (FIFO(이름 있는 파이프))" in seen.seen and "error/s.sock (소켓)" in seen.seen
        )
        left = judge("Q3.2", step3.test_Q3_2_processing_is_empty, lab)
        assert left is not None and "stuck.json" in left.seen
        assert judge("Q4.1", step4.test_Q4_1_done_and_error_counts, lab) is None  # not messages
    finally:
        sock.close()


def test_special_files_as_the_students_files(lab: QueueLab) -> None:
    """Reports, the ledger, the SQL and the scripts as FIFOs, a socket, a device, a directory:
    each a FAIL naming what it is, and nothing waits on them."""
    saved, live = lab.saved, lab.live
    _fifo(saved / "dup.txt")
    sock = _socket(saved / "error.csv")
    try:
        (saved / "schema.csv").unlink()
        os.mknod(saved / "schema.csv", stat.S_IFCHR | 0o600, os.makedev(1, 5))  # like /dev/zero
        _fifo(saved / "ledger.db")
        _fifo(saved / "order-check.sql")
        _fifo(live / "consume.py")
        (live / "lag.sh").unlink()
        (live / "lag.sh").mkdir()
        cases: list[tuple[str, Callable[..., None], tuple[object, ...], str]] = [
            ("Q4.3", step4.test_Q4_3_dup_txt_ascending_msg_ids, (lab,), "FIFO"),
            ("Q5.1", step5.test_Q5_1_error_csv_reasons, (lab,), "소켓"),
            ("Q2.1", step2.test_Q2_1_header, (lab,), "문자 장치"),
            ("Q3.1", step3.test_Q3_1_processed_table_with_unique_msg_id, (lab,), "FIFO"),
            ("Q4.2", step4.test_Q4_2_processed_holds_the_unique_messages, (lab,), "FIFO"),
            ("Q6.3", step6.test_Q6_3_finds_a_missing_seq, (observe("order_checks", lab),), "FIFO"),
            ("Q3.3", step3.test_Q3_3_valid_to_done_poison_to_error, (observe("fresh_run", lab),), "FIFO"),
        ]
        for rid, check, records, kind in cases:
            finding = judge(rid, check, *records)
            assert finding is not None and kind in finding.seen, (rid, finding)
            assert "보통 파일이 아니라" in finding.seen
        lag = observe("lag_runs", lab)
        assert isinstance(lag, Missing) and lag.why == "보통 파일이 아니라 디렉터리"
    finally:
        sock.close()


READERS = (
    "grader/__init__.py",
    "grader/machinery/__init__.py",
    "grader/machinery/textfile.py",
    "grader/machinery/sqlitebound.py",
    "grader/queue/__init__.py",
    "grader/queue/ledger.py",
    "grader/catalogue.py",  # a lab package's __init__ declares its catalogue
    "grader/queue/catalogue.py",
)
NOBODY = ("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
READ_AS_NOBODY = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from grader.machinery.textfile import Unreadable, read_text
from grader.queue import ledger
q = Path(sys.argv[2])
try:
    read_text(q / "dup.txt")
    text = "read"
except Unreadable as exc:
    text = exc.reason
print(json.dumps({"dup.txt": text, "ledger.db": ledger.problem(q / "ledger.db")}))
"""


def test_unreadable_files_without_root(walked: Path) -> None:
    """Graded by a user who may not read the student's files (an instructor's copy, say):
    the reason, not a traceback."""
    base = Path(tempfile.mkdtemp(prefix="unreadable-", dir="/tmp"))
    try:
        base.chmod(0o755)
        q = base / "q"
        q.mkdir(mode=0o755)
        for name in ("dup.txt", "ledger.db"):
            (q / name).write_bytes((walked / name).read_bytes())
            (q / name).chmod(0o600)  # root's own
        # The readers, where nobody can import them whatever the checkout's permissions (a
        # fresh `mktemp -d` clone is 0700).
        code = base / "code"
        for module in READERS:
            (code / module).parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            shutil.copyfile(REPO / module, code / module)
            (code / module).chmod(0o644)
        run = subprocess.run(
            [*NOBODY, sys.executable, "-c", READ_AS_NOBODY, str(code), str(q)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 0, run.stderr
        reasons = json.loads(run.stdout)
        assert reasons == {
            "dup.txt": "읽을 수 없음(Permission denied)",
            "ledger.db": "읽을 수 없음(Permission denied)",
        }
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=True)
