"""The queue lab's state checks on the classes of their edge maps (grader/queue/EDGES.md):
each test lays out a saved tree of one class and asserts the verdict and what it says.

In-process (tests/queue_lab.py): a real Grading and QueueLab, the check called directly.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from grader.machinery.boxed import sqlrun
from grader.machinery.sqlscript import statements
from grader.machinery.textfile import read_text
from grader.queue import test_step1_directories as step1
from grader.queue import test_step2_schema as step2
from grader.queue import test_step3_consumer as step3
from grader.queue import test_step4_idempotency as step4
from grader.queue import test_step5_errors as step5
from grader.queue import test_step6_order_check as step6
from grader.queue.lab import QueueLab
from grader.verdict import Finding
from tests.queue_lab import judge

BOM = "\ufeff"


def _write(path: Path, text: str, bom: bool = False, crlf: bool = False) -> None:
    body = text.replace("\n", "\r\n") if crlf else text
    path.write_bytes(((BOM if bom else "") + body).encode())


def _seen(finding: Finding | None) -> str:
    assert finding is not None, "expected a FAIL, the check passed"
    return finding.seen


def test_directories_missing_or_not_directories(lab: QueueLab) -> None:
    check = step1.test_Q1_1_four_directories_exist
    (lab.saved / "processing").rename(lab.saved / "elsewhere")
    (lab.saved / "processing").symlink_to(lab.saved / "elsewhere")  # a symlinked directory counts
    assert judge("Q1.1", check, lab) is None
    (lab.saved / "processing").unlink()
    assert "processing 없음" in _seen(judge("Q1.1", check, lab))
    (lab.saved / "processing").write_text("oops\n")
    assert "processing 이(가) 디렉터리가 아님" in _seen(judge("Q1.1", check, lab))


def test_fixture_copy_lost_invented_twice(lab: QueueLab) -> None:
    check = step1.test_Q1_2_every_fixture_file_copied
    done = lab.saved / "done"
    (done / ".DS_Store").write_text("x")  # hidden: not a message
    first = sorted(done.iterdir())[1]
    (lab.saved / "processing" / "worker-1").mkdir()
    first.rename(lab.saved / "processing" / "worker-1" / first.name)  # still in processing/
    assert judge("Q1.2", check, lab) is None
    lost = sorted(done.iterdir())[1]
    lost.rename(done / "renamed.json")
    seen = _seen(judge("Q1.2", check, lab))
    assert f"없어진 파일 1개({lost.name})" in seen and "픽스처에 없는 파일 1개(renamed.json)" in seen
    (done / "renamed.json").rename(lost)
    (lab.saved / "error" / lost.name).write_bytes(lost.read_bytes())
    assert f"두 디렉터리에 동시에 있는 파일 1개({lost.name})" in _seen(judge("Q1.2", check, lab))


def _schema(lab: QueueLab, text: str, **how: bool) -> None:
    _write(lab.saved / "schema.csv", text, **how)


SCHEMA_CHECKS: list[tuple[str, Callable[..., None]]] = [
    ("Q2.1", step2.test_Q2_1_header),
    ("Q2.2", step2.test_Q2_2_fields_of_the_valid_messages),
    ("Q2.3", step2.test_Q2_3_roles),
    ("Q2.4", step2.test_Q2_4_types_fit_the_values),
]


def test_schema_csv_tolerant_reading(lab: QueueLab) -> None:
    text = (
        '"field" , "type" , "role"\n\n'
        "msg_id , varchar(40) , Idempotency-Key\n"
        "order_no,TEXT,\n"
        "seq,int,SEQUENCE\n"
        'amount,"decimal(12,2)",\n'
        "currency,char(3),\n\n"
        "created_at,timestamp with time zone,"  # no final newline
    )
    _schema(lab, text, bom=True, crlf=True)
    for rid, check in SCHEMA_CHECKS:
        assert judge(rid, check, lab) is None, rid


def test_schema_csv_wrong(lab: QueueLab) -> None:
    good = (lab.saved / "schema.csv").read_text()
    _schema(lab, good.replace("field,type,role", "field,role,type"))
    assert "첫 줄이 'field,role,type'" in _seen(judge("Q2.1", step2.test_Q2_1_header, lab))
    _schema(lab, good + "customer,string,\n")
    assert "메시지에 없는 필드: customer" in _seen(
        judge("Q2.2", step2.test_Q2_2_fields_of_the_valid_messages, lab)
    )
    _schema(lab, good.replace("order_no,string,", "order_no,string,idempotency-key"))
    assert "order_no 에도 idempotency-key" in _seen(judge("Q2.3", step2.test_Q2_3_roles, lab))
    _schema(lab, good.replace("seq,integer,", "seq,string,").replace("msg_id,string", "msg_id,integer"))
    seen = _seen(judge("Q2.4", step2.test_Q2_4_types_fit_the_values, lab))
    assert "seq: string" in seen and "msg_id: integer" in seen


def _ledger(lab: QueueLab, ddl: str, *more: str) -> None:
    db = lab.saved / "ledger.db"
    db.unlink()
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute(ddl)
        for statement in more:
            conn.execute(statement)


def test_ledger_schemas(lab: QueueLab) -> None:
    check = step3.test_Q3_1_processed_table_with_unique_msg_id
    _ledger(lab, "CREATE TABLE Processed (MSG_ID TEXT PRIMARY KEY, Order_No, SEQ, Amount, Processed_At)")
    assert judge("Q3.1", check, lab) is None
    _ledger(
        lab,
        "CREATE TABLE processed (id INTEGER PRIMARY KEY, msg_id TEXT, order_no, seq, amount, processed_at)",
        "CREATE UNIQUE INDEX one_row_per_message ON processed (msg_id)",
    )
    assert judge("Q3.1", check, lab) is None
    _ledger(
        lab, "CREATE TABLE processed (msg_id, order_no, seq, amount, processed_at, PRIMARY KEY (msg_id, seq))"
    )
    assert "여러 컬럼 묶음 키" in _seen(judge("Q3.1", check, lab))
    _ledger(lab, "CREATE TABLE processed (msg_id TEXT PRIMARY KEY, order_no, seq, amount)")
    assert "없는 컬럼: processed_at" in _seen(judge("Q3.1", check, lab))
    # A key SQLite alone cannot read (a collation the consumer defines in Python) is said so,
    # not called missing (red team 16).
    db = lab.saved / "ledger.db"
    db.unlink()
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.create_collation("by_code", lambda a, b: (a > b) - (a < b))
        conn.execute("CREATE TABLE processed (msg_id TEXT, order_no, seq, amount, processed_at)")
        conn.execute("CREATE UNIQUE INDEX one_row ON processed (msg_id COLLATE by_code)")
    seen = _seen(judge("Q3.1", check, lab))
    assert "확인할 수 없음" in seen and "by_code" in seen, seen


def test_processing_left_overs(lab: QueueLab) -> None:
    check = step3.test_Q3_2_processing_is_empty
    (lab.saved / "processing" / "worker-7").mkdir()
    assert judge("Q3.2", check, lab) is None  # an empty subfolder is no message left
    (lab.saved / "processing" / "worker-7" / "msg-0001.json").write_text("{}")
    assert "worker-7/msg-0001.json" in _seen(judge("Q3.2", check, lab))
    (lab.saved / "processing" / "worker-7" / "msg-0001.json").unlink()
    (lab.saved / "processing" / ".gitkeep").touch()  # what keeps the folder in git (red team 19)
    assert judge("Q3.2", check, lab) is None
    (lab.saved / "processing" / ".msg-0002.json").write_text("{}")  # a message, hidden
    assert ".msg-0002.json" in _seen(judge("Q3.2", check, lab))


def test_done_and_error_counts(lab: QueueLab) -> None:
    check = step4.test_Q4_1_done_and_error_counts
    (lab.saved / "done" / ".nfs0001").write_text("x")
    (lab.saved / "error" / "archive").mkdir()
    (lab.saved / "error" / "archive" / "old.json").write_text("x")
    assert judge("Q4.1", check, lab) is None
    (lab.saved / "error" / "extra.json").write_text("x")
    assert "error 3개" in _seen(judge("Q4.1", check, lab))


def test_ledger_rows(lab: QueueLab) -> None:
    check = step4.test_Q4_2_processed_holds_the_unique_messages
    with closing(sqlite3.connect(lab.saved / "ledger.db")) as conn, conn:
        conn.execute("DELETE FROM processed WHERE rowid = (SELECT MIN(rowid) FROM processed)")
    seen = _seen(judge("Q4.2", check, lab))
    assert "processed 14행" in seen and "빠진 msg_id" in seen


def test_a_ledger_missing_a_column_or_the_table_is_judged_not_an_error(lab: QueueLab) -> None:
    """Issue 14: a processed table without processed_at made Q4.2 raise (a grader error, no
    grade at all). Q4.2 needs msg_id only: judged on it; without the table, a FAIL saying so."""
    check = step4.test_Q4_2_processed_holds_the_unique_messages
    db = lab.saved / "ledger.db"
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("CREATE TABLE narrow AS SELECT msg_id, order_no, seq, amount FROM processed")
        conn.execute("DROP TABLE processed")
        conn.execute("ALTER TABLE narrow RENAME TO processed")
    assert judge("Q4.2", check, lab) is None
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("ALTER TABLE processed RENAME TO elsewhere")
    assert "processed 테이블(msg_id)이 없음" in _seen(judge("Q4.2", check, lab))


def test_dup_txt(lab: QueueLab) -> None:
    check = step4.test_Q4_3_dup_txt_ascending_msg_ids
    ids = lab.expected.duplicate_ids
    _write(lab.saved / "dup.txt", "\n" + "\n".join(f"  {i} " for i in ids), bom=True, crlf=True)
    assert judge("Q4.3", check, lab) is None
    (lab.saved / "dup.txt").write_bytes(b"\xff\xfe" + "\n".join(ids).encode("utf-16-le"))
    seen = _seen(judge("Q4.3", check, lab))
    assert "UTF-8 이 아님" in seen and "1번째 바이트 0xff" in seen


def test_error_csv(lab: QueueLab) -> None:
    check = step5.test_Q5_1_error_csv_reasons
    reasons = lab.expected.error_reasons
    rows = [f'"error/{name}", {reason} ' for name, reason in sorted(reasons.items())]
    _write(lab.saved / "error.csv", "file,reason\n" + "\n".join(rows) + "\n", bom=True, crlf=True)
    assert judge("Q5.1", check, lab) is None
    name, reason = sorted(reasons.items())[0]
    rows.append(f"{lab.shown('error')}/{name},{reason}")  # the same file once more, absolute
    _write(lab.saved / "error.csv", "file,reason\n" + "\n".join(rows))
    assert f"{name}: {reason}, {reason}" in _seen(judge("Q5.1", check, lab))
    _write(lab.saved / "error.csv", "file,reason\n" + "\n".join(rows[1:-1]))
    assert f"{name}: 줄 없음" in _seen(judge("Q5.1", check, lab))


@pytest.mark.parametrize(
    ("text", "passes"),
    [
        ("OK\n", True),
        (f"{BOM}OK\r\n", True),
        ("  OK  \n", True),
        ("OK\n0 rows\n", True),
        ("OK - 0행\n", True),
        ("OK", True),
        ("OKAY\n", False),
        ("ok\n", False),
        ("\nOK\n", False),
        ("", False),
        ("ORD-12345|3|5\n", False),
    ],
)
def test_order_result(lab: QueueLab, text: str, passes: bool) -> None:
    (lab.saved / "order-result.txt").write_bytes(text.encode())
    assert (judge("Q6.5", step6.test_Q6_5_order_result_says_ok, lab) is None) is passes


def test_sql_statements(tmp_path: Path) -> None:
    """A student's SQL as the order checks read it: BOM, CRLF, comments, dot-commands, no
    final semicolon."""
    sql = tmp_path / "order-check.sql"
    _write(
        sql,
        ".headers on\n-- a comment; with a semicolon\nSELECT 1;\n/* two */ SELECT 2\n",
        bom=True,
        crlf=True,
    )
    script = read_text(sql)
    assert statements(script) == ["-- a comment; with a semicolon\nSELECT 1;", "/* two */ SELECT 2"]
    db = tmp_path / "x.db"
    sqlite3.connect(db).close()
    assert sqlrun.run(str(db), script, 10.0)["rows"] == [[1], [2]]  # as the box runs it
